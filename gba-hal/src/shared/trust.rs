//! Whether the caller may trust a file or directory it did not make itself: the checks of
//! ARCHITECTURE.md's "One way to share memory", as pure functions of what `fstat`/`lstat`
//! said ([`Facts`]), so that every refusal is tested without a second user.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::{GROUP_ENV, SharedError};

/// Who besides the caller (and root) may own or write shared state: nobody, or the members
/// of one group an administrator configures ([`GROUP_ENV`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// The configured group's id.
    pub group: Option<u32>,
    /// The caller's effective uid.
    pub uid: u32,
}

impl Policy {
    /// The caller alone (and root).
    pub fn private() -> Policy {
        Policy {
            group: None,
            uid: euid(),
        }
    }

    /// The policy [`GROUP_ENV`] sets; an unknown group is an error naming it.
    pub fn from_env() -> Result<Policy, SharedError> {
        let Some(name) = std::env::var_os(GROUP_ENV).filter(|v| !v.is_empty()) else {
            return Ok(Policy::private());
        };
        let name = name.to_string_lossy().into_owned();
        let gid = match name.parse::<u32>() {
            Ok(gid) => gid,
            Err(_) => group_id(&name).ok_or(SharedError::NoGroup { name })?,
        };
        Ok(Policy {
            group: Some(gid),
            uid: euid(),
        })
    }

    /// The mode new files get: 0600, or 0660 with a configured group.
    pub fn file_mode(&self) -> u32 {
        if self.group.is_some() { 0o660 } else { 0o600 }
    }

    /// The mode new directories get: 0700, or 01770 (sticky: no member removes another's
    /// files) with a configured group.
    pub fn dir_mode(&self) -> u32 {
        if self.group.is_some() { 0o1770 } else { 0o700 }
    }

    /// Whether `facts` name an owner the caller trusts: itself, root, or (files only) the
    /// configured group.
    fn trusted_owner(&self, facts: &Facts) -> bool {
        facts.uid == self.uid || facts.uid == 0 || self.group == Some(facts.gid)
    }

    /// Checks a shared file: regular, one link, a trusted owner, not writable by others
    /// (nor by its group unless it is the configured one).
    pub fn check_file(&self, path: &Path, facts: &Facts) -> Result<(), SharedError> {
        let why = if facts.kind != Kind::File {
            Some(format!("is {}, not a regular file", facts.kind.name()))
        } else if facts.nlink != 1 {
            Some(format!(
                "has {} links (a shared file has exactly one: another name for it may be someone else's)",
                facts.nlink
            ))
        } else {
            self.check_owner_and_mode(facts)
        };
        why.map_or(Ok(()), |why| Err(facts.refuse(path, why)))
    }

    /// Checks a directory new state is made in or looked up in: a directory (not a symbolic
    /// link to one), owned by the caller or root, not writable by others (a world-writable
    /// directory such as `/dev/shm` or `/tmp` lets anyone plant names in it), nor by its group
    /// unless it is the configured one.
    pub fn check_dir(&self, path: &Path, facts: &Facts) -> Result<(), SharedError> {
        let why = if facts.kind != Kind::Dir {
            Some(format!("is {}, not a directory", facts.kind.name()))
        } else if facts.uid != self.uid && facts.uid != 0 {
            Some("belongs to another user".into())
        } else {
            self.check_owner_and_mode(facts)
        };
        why.map_or(Ok(()), |why| Err(facts.refuse(path, why)))
    }

    /// Checks a directory the caller only looks state up in, never makes state in (a fabric
    /// another member made): as [`check_dir`](Self::check_dir), and also a directory another
    /// member of the configured group owns, if the directory's group is the configured one
    /// and it is sticky (no third member renames the owner's files). Its owner may replace any
    /// name in it, but what it holds is then the owner's state, which the member trusts
    /// anyway (files of the configured group are trusted); the caller's own state is never
    /// made there, so no member can remove or re-point it.
    pub fn check_dir_to_open(&self, path: &Path, facts: &Facts) -> Result<(), SharedError> {
        let member_dir = facts.kind == Kind::Dir
            && facts.uid != self.uid
            && facts.uid != 0
            && self.group == Some(facts.gid);
        if !member_dir {
            return self.check_dir(path, facts);
        }
        let why = if facts.mode & 0o002 != 0 {
            Some("is writable by every user".into())
        } else if facts.mode & 0o020 != 0 && facts.mode & 0o1000 == 0 {
            Some(format!(
                "is another member's directory that every member of {GROUP_ENV} may rename files in (not sticky)"
            ))
        } else {
            None
        };
        why.map_or(Ok(()), |why| Err(facts.refuse(path, why)))
    }

    fn check_owner_and_mode(&self, facts: &Facts) -> Option<String> {
        if !self.trusted_owner(facts) {
            Some("belongs to another user".into())
        } else if facts.mode & 0o002 != 0 {
            Some("is writable by every user".into())
        } else if facts.mode & 0o020 != 0 && self.group != Some(facts.gid) {
            Some(format!(
                "is writable by its group, which {GROUP_ENV} does not name"
            ))
        } else {
            None
        }
    }
}

/// What kind of file a name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link.
    Symlink,
    /// A device, socket or pipe.
    Other,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::File => "a regular file",
            Kind::Dir => "a directory",
            Kind::Symlink => "a symbolic link",
            Kind::Other => "a device, socket or pipe",
        }
    }
}

/// What `fstat` (or `lstat`) says about a file, as far as trust goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// What kind of file.
    pub kind: Kind,
    /// Its owner.
    pub uid: u32,
    /// Its group.
    pub gid: u32,
    /// Permission bits (with set-id and sticky bits).
    pub mode: u32,
    /// Hard links to it.
    pub nlink: u64,
    /// Its size in bytes.
    pub len: u64,
}

impl Facts {
    /// From a `metadata` (of an open file: `fstat`) or `symlink_metadata` (`lstat`).
    pub fn of(meta: &std::fs::Metadata) -> Facts {
        let kind = meta.file_type();
        Facts {
            kind: if kind.is_file() {
                Kind::File
            } else if kind.is_dir() {
                Kind::Dir
            } else if kind.is_symlink() {
                Kind::Symlink
            } else {
                Kind::Other
            },
            uid: meta.uid(),
            gid: meta.gid(),
            mode: meta.mode() & 0o7777,
            nlink: meta.nlink(),
            len: meta.len(),
        }
    }

    /// The refusal of `path`, naming its owner and mode.
    pub fn refuse(&self, path: &Path, why: String) -> SharedError {
        SharedError::Refused {
            path: path.to_path_buf(),
            why,
            uid: self.uid,
            gid: self.gid,
            mode: self.mode,
        }
    }
}

/// The caller's effective uid.
pub fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The id of group `name` (`getgrnam_r`).
fn group_id(name: &str) -> Option<u32> {
    let name = std::ffi::CString::new(name).ok()?;
    let mut buf = vec![0u8; 16 * 1024];
    // SAFETY: a zeroed `group` is a valid value for getgrnam_r to overwrite.
    let mut group: libc::group = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::group = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call: the name is NUL-terminated, `buf` is
    // writable for its length, `group` and `found` are writable.
    let rc = unsafe {
        libc::getgrnam_r(
            name.as_ptr(),
            &mut group,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut found,
        )
    };
    (rc == 0 && !found.is_null()).then_some(group.gr_gid)
}
