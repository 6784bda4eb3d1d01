//! [`SharedFile`]: a file every process of a job maps, trusted only after checking it.
//!
//! Made: `O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC`, then `fchmod` to the policy's mode (0600, or
//! 0660 with a configured group: never what the umask leaves), sized, mapped, filled. A file
//! others look up by name is made under a temporary name, its magic stored last with
//! release, and published with `renameat2(RENAME_NOREPLACE)`: whoever finds the name finds a
//! whole file with exactly one link, and of two creators one wins (the other opens the
//! winner's).
//!
//! Opened: `O_NOFOLLOW`, then `fstat` on the open descriptor (so the file checked is the file
//! mapped): a regular file with one link, owned by the caller, root or the configured group,
//! not writable by others, and of the size the layout needs, mapped with that explicit length.
//! The caller checks its header (magic, version, identity) before any other word.
//!
//! Memory invariants: no `&`/`&mut` to the mapped bytes is ever made, every access is
//! through a [`SharedWord`]; every offset is checked against the length ([`SharedFile::word`]
//! for offsets from a layout, [`SharedFile::try_word`] for offsets read from shared memory).

use std::fs::{File, OpenOptions};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::{MmapOptions, MmapRaw};

use super::trust::{Facts, Policy};
use super::{SharedError, SharedWord};

/// The size an opened file must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Exactly this many bytes.
    Exact(usize),
    /// Between these (inclusive): a layout whose size its header says, checked by the caller
    /// once the header is read.
    Between(usize, usize),
}

/// A whole file mapped shared, read-write; or, for tests and Miri, the same bytes in
/// ordinary memory that only this process's threads share ([`SharedFile::in_memory`]).
#[derive(Debug)]
pub struct SharedFile {
    backing: Backing,
    len: usize,
    path: PathBuf,
}

#[derive(Debug)]
enum Backing {
    Map(MmapRaw),
    /// Zeroed, page-aligned heap memory, freed on drop.
    Heap(*mut u8, std::alloc::Layout),
}

// SAFETY: the bytes are reached only atomically through raw pointers (this module's
// invariant), so the owner may move to and be used from any thread, like `MmapRaw`.
unsafe impl Send for SharedFile {}
// SAFETY: as for `Send`.
unsafe impl Sync for SharedFile {}

impl Drop for SharedFile {
    fn drop(&mut self) {
        if let Backing::Heap(ptr, layout) = self.backing {
            // SAFETY: allocated in `in_memory` with this layout, freed once here; no word
            // outlives `self` (they borrow it).
            unsafe { std::alloc::dealloc(ptr, layout) }
        }
    }
}

impl SharedFile {
    /// Creates `path`, which must not exist (a symbolic link there is refused too), with `len`
    /// zero bytes and the policy's mode, and maps it. For the files of a directory the caller
    /// made and checked (a fabric's); a file found by name is [`publish`](Self::publish)ed.
    pub fn create(path: &Path, len: usize, policy: &Policy) -> Result<Self, SharedError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
            .map_err(|e| SharedError::io("create", path, e))?;
        file.set_permissions(std::fs::Permissions::from_mode(policy.file_mode()))
            .map_err(|e| SharedError::io("set the mode of", path, e))?;
        if let Some(gid) = policy.group {
            std::os::unix::fs::fchown(&file, None, Some(gid))
                .map_err(|e| SharedError::io("give the configured group", path, e))?;
        }
        file.set_len(len as u64)
            .map_err(|e| SharedError::io("size", path, e))?;
        Self::map(&file, path, len)
    }

    /// Makes `dir/name` (`len` bytes) unless it exists: made under a temporary name in `dir`,
    /// filled by `fill`, the word at `magic_at` set to `magic` last (release), then renamed
    /// into place without replacing anything. `None`: another process published it first
    /// (open it with [`open`](Self::open)).
    pub fn publish(
        dir: &Path,
        name: &str,
        len: usize,
        policy: &Policy,
        (magic_at, magic): (usize, u64),
        fill: impl FnOnce(&SharedFile),
    ) -> Result<Option<Self>, SharedError> {
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let tmp = dir.join(format!(
            ".{name}.{}.{}",
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        let path = dir.join(name);
        let made = Self::create(&tmp, len, policy).and_then(|mut file| {
            fill(&file);
            file.word(magic_at).store(magic);
            let placed =
                rename_noreplace(&tmp, &path).map_err(|e| SharedError::io("publish", &path, e))?;
            file.path = path.clone();
            Ok(placed.then_some(file))
        });
        // Gone when renamed; left behind only when another file won or something failed.
        let _ = std::fs::remove_file(&tmp);
        made
    }

    /// Opens and maps `path` after checking it ([`Policy::check_file`] and `size`).
    pub fn open(path: &Path, size: Size, policy: &Policy) -> Result<Self, SharedError> {
        let file = match OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
            .open(path)
        {
            Ok(file) => file,
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                let meta = std::fs::symlink_metadata(path)
                    .map_err(|e| SharedError::io("look at", path, e))?;
                let facts = Facts::of(&meta);
                return Err(facts.refuse(path, "is a symbolic link".into()));
            }
            Err(e) if e.raw_os_error() == Some(libc::EISDIR) => {
                let meta =
                    std::fs::metadata(path).map_err(|e| SharedError::io("look at", path, e))?;
                let facts = Facts::of(&meta);
                return Err(facts.refuse(path, "is a directory, not a regular file".into()));
            }
            Err(e) => return Err(SharedError::io("open", path, e)),
        };
        let meta = file
            .metadata()
            .map_err(|e| SharedError::io("stat", path, e))?;
        let facts = Facts::of(&meta);
        policy.check_file(path, &facts)?;
        let (fits, expected) = match size {
            Size::Exact(n) => (facts.len == n as u64, n.to_string()),
            Size::Between(lo, hi) => (
                (lo as u64..=hi as u64).contains(&facts.len),
                format!("{lo} to {hi}"),
            ),
        };
        if !fits {
            return Err(SharedError::Size {
                path: path.to_path_buf(),
                len: facts.len,
                expected,
            });
        }
        Self::map(&file, path, facts.len as usize)
    }

    fn map(file: &File, path: &Path, len: usize) -> Result<Self, SharedError> {
        // An explicit length: the mapping never depends on what the file reports later.
        let map = MmapOptions::new()
            .len(len)
            .map_raw(file)
            .map_err(|e| SharedError::io("map", path, e))?;
        Ok(SharedFile {
            backing: Backing::Map(map),
            len,
            path: path.to_path_buf(),
        })
    }

    /// `len` zero bytes of ordinary memory, page-aligned, standing for a file named `name`
    /// (in messages only): shared memory that lives in one process, for tests and Miri.
    pub fn in_memory(name: &str, len: usize) -> Self {
        let layout = std::alloc::Layout::from_size_align(len.max(8), 4096)
            .expect("shared layouts are far below isize::MAX");
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        SharedFile {
            backing: Backing::Heap(ptr, layout),
            len,
            path: PathBuf::from(name),
        }
    }

    /// The first byte of the mapping; page-aligned.
    pub fn as_ptr(&self) -> *mut u8 {
        match &self.backing {
            Backing::Map(map) => map.as_mut_ptr(),
            Backing::Heap(ptr, _) => *ptr,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The 64-bit word at byte `offset`, if it is 8-aligned and inside the file: for offsets
    /// computed from what shared memory says (bad state is then an error, never a panic).
    pub fn try_word(&self, offset: usize) -> Option<SharedWord<'_>> {
        if !offset.is_multiple_of(8) || offset.checked_add(8)? > self.len {
            return None;
        }
        // `wrapping_add` stays in bounds: checked just above.
        let ptr = self.as_ptr().wrapping_add(offset).cast();
        // SAFETY: 8-aligned (the mapping is page-aligned), inside the mapping, which lives as
        // long as the borrow of `self`; every party reaches shared files only atomically.
        Some(unsafe { SharedWord::new(ptr) })
    }

    /// The 64-bit word at byte `offset`.
    ///
    /// # Panics
    ///
    /// If `offset` is not 8-byte aligned or the word is not inside the file: the callers
    /// compute offsets from a layout whose size the open checked, so this is a bug, never
    /// bad input (offsets from shared memory go through [`try_word`](Self::try_word)).
    pub fn word(&self, offset: usize) -> SharedWord<'_> {
        self.try_word(offset).unwrap_or_else(|| {
            panic!(
                "word at {offset:#x} outside {} ({:#x} bytes)",
                self.path.display(),
                self.len
            )
        })
    }
}

/// Renames `from` to `to` unless `to` exists (false then). Where the file system has no
/// `RENAME_NOREPLACE` (EINVAL), a hard link and an unlink do the same: the link fails if
/// the name exists, and the file has one link again once the temporary name is gone.
fn rename_noreplace(from: &Path, to: &Path) -> std::io::Result<bool> {
    let c =
        |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
    let (from_c, to_c) = (c(from)?, c(to)?);
    // SAFETY: two NUL-terminated paths, valid for the call; AT_FDCWD resolves them as given.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            from_c.as_ptr(),
            libc::AT_FDCWD,
            to_c.as_ptr(),
            libc::RENAME_NOREPLACE,
        )
    };
    if rc == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EEXIST) => Ok(false),
        Some(libc::EINVAL) | Some(libc::ENOSYS) => match std::fs::hard_link(from, to) {
            Ok(()) => std::fs::remove_file(from).map(|()| true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        },
        _ => Err(e),
    }
}
