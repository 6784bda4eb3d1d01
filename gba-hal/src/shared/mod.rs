//! One way to share memory (ARCHITECTURE.md, "One way to share memory"): every byte several
//! processes map — a hardware port's host segment, a simulator fabric's files, a software
//! barrier's file — goes through this module.
//!
//! - [`SharedWord`]: one 64-bit word of shared memory, reached only atomically through a raw
//!   pointer (no `&` or `&mut` to the memory is ever made).
//! - [`SharedFile`]: a file mapped with an explicit length, created with an explicit mode in
//!   a trusted directory and published whole under its name, or opened only after `fstat`
//!   says the caller may trust it ([`trust`]).
//!   Under a configured group ([`GROUP_ENV`]) its memory is a System V segment nobody can
//!   resize, named by a 0640 pointer file (`sysv.rs`), so no member truncates it under another.
//! - [`dir`]: where state lives: `/run/gba` for root, the user's runtime directory for
//!   everyone else, and the checks a directory must pass before new state is made in it.
//!
//! A file or directory another user could have planted or could write is refused with an
//! error that names it, its owner and its mode ([`SharedError::Refused`]): a process that
//! trusted it could be released early, crashed (a truncated mapping is SIGBUS) or denied.

pub mod dir;
mod file;
mod sysv;
pub mod trust;
mod word;

#[cfg(all(test, not(miri)))]
mod sysv_tests;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

pub use file::{SharedFile, Size};
pub use trust::Policy;
pub use word::SharedWord;

/// The environment variable naming the group whose members may share state with the
/// caller's (`0660` files, a `0770` directory): a name or a number. Unset: nobody but the
/// caller (and root).
pub const GROUP_ENV: &str = "GBA_SHARED_GROUP";

/// Why shared state could not be made or used.
#[derive(Debug, thiserror::Error)]
pub enum SharedError {
    /// A file operation failed.
    #[error("cannot {what} {}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A file or directory other users could have made or could write.
    #[error(
        "refusing {}: it {why} (owner uid {uid}, group gid {gid}, mode {mode:04o}); state other users could have made or could write is never used: remove it, or set {} to the group that shares it",
        path.display(), GROUP_ENV
    )]
    Refused {
        /// The file or directory.
        path: PathBuf,
        /// Why, as a verb phrase.
        why: String,
        /// Its owner.
        uid: u32,
        /// Its group.
        gid: u32,
        /// Its permission bits.
        mode: u32,
    },
    /// A file of the wrong size.
    #[error("{} is {len} bytes, its layout needs {expected}: remove it when no process uses it", path.display())]
    Size {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        len: u64,
        /// The size its layout needs, as text ("4096", "64 to 4096").
        expected: String,
    },
    #[error("{} {what}: remove it when no process uses it", path.display())]
    /// A file whose content its layout does not allow.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, as a verb phrase.
        what: String,
    },
    #[error("{GROUP_ENV}={name:?} names no group of this system (give a group name or number)")]
    /// `GBA_SHARED_GROUP` names no group of this system.
    NoGroup {
        /// The name given.
        name: String,
    },
}

impl SharedError {
    pub(crate) fn io(what: &'static str, path: &std::path::Path, source: std::io::Error) -> Self {
        SharedError::Io {
            what,
            path: path.to_path_buf(),
            source,
        }
    }
}
