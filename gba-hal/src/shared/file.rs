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
use super::{GROUP_ENV, SharedError, SharedWord, sysv};

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
    /// A System V segment (under a configured group, `shared/sysv.rs`), detached on drop.
    SysV {
        ptr: *mut u8,
        id: i32,
    },
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
        match self.backing {
            // SAFETY: allocated in `in_memory` with this layout, freed once here; no word
            // outlives `self` (they borrow it).
            Backing::Heap(ptr, layout) => unsafe { std::alloc::dealloc(ptr, layout) },
            // SAFETY: attached by `sysv`, detached once here; no word outlives `self`.
            Backing::SysV { ptr, .. } => unsafe { sysv::detach(ptr) },
            Backing::Map(_) => {}
        }
    }
}

impl SharedFile {
    /// Creates `path`, which must not exist (a symbolic link there is refused too), with `len`
    /// zero bytes and the policy's mode, and maps it. For the files of a directory the caller
    /// made and checked (a fabric's); a file found by name is [`publish`](Self::publish)ed.
    ///
    /// Under a configured group the memory is a System V segment nobody can resize and
    /// `path` a pointer file naming it (`shared/sysv.rs`): a member of the group could
    /// truncate a 0660 file under another member's processes (SIGBUS).
    pub fn create(path: &Path, len: usize, policy: &Policy) -> Result<Self, SharedError> {
        if policy.group.is_none() {
            return Self::create_file(path, len, policy);
        }
        let (id, ptr) = sysv::create(path, len, policy)?;
        let made = SharedFile {
            backing: Backing::SysV { ptr, id },
            len,
            path: path.to_path_buf(),
        };
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
            .map_err(|e| SharedError::io("create", path, e));
        let written = file.and_then(|file| {
            use std::io::Write;
            // 0640: only its maker may rewrite where it points.
            file.set_permissions(std::fs::Permissions::from_mode(0o640))
                .map_err(|e| SharedError::io("set the mode of", path, e))?;
            if let Some(gid) = policy.group {
                std::os::unix::fs::fchown(&file, None, Some(gid))
                    .map_err(|e| SharedError::io("give the configured group", path, e))?;
            }
            (&file)
                .write_all(&sysv::pointer(id, len))
                .map_err(|e| SharedError::io("write", path, e))
        });
        match written {
            Ok(()) => Ok(made),
            Err(e) => {
                made.discard();
                Err(e)
            }
        }
    }

    /// [`create`](Self::create), but always a file, whatever the policy: for memory other
    /// programs map by its path (a simulated device's window or guest RAM, which QEMU and a
    /// UIO resource file map), which a System V segment could not be.
    pub fn create_file(path: &Path, len: usize, policy: &Policy) -> Result<Self, SharedError> {
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
            match rename_noreplace(&tmp, &path) {
                Ok(true) => {
                    file.path = path.clone();
                    Ok(Some(file))
                }
                Ok(false) => {
                    file.discard();
                    Ok(None)
                }
                Err(e) => {
                    file.discard();
                    Err(SharedError::io("publish", &path, e))
                }
            }
        });
        // Gone when renamed; left behind only when another file won or something failed.
        let _ = std::fs::remove_file(&tmp);
        made
    }

    /// Opens and maps `path` after checking it ([`Policy::check_file`] and `size`). A pointer
    /// file (`shared/sysv.rs`) is followed to its segment, which is checked likewise; under a
    /// configured group a file its members could truncate is refused.
    pub fn open(path: &Path, size: Size, policy: &Policy) -> Result<Self, SharedError> {
        Self::open_as(path, size, policy, true)
    }

    fn open_as(
        path: &Path,
        size: Size,
        policy: &Policy,
        unresizable: bool,
    ) -> Result<Self, SharedError> {
        let opener = |write: bool| {
            OpenOptions::new()
                .read(true)
                .write(write)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
                .open(path)
        };
        // A pointer file (`shared/sysv.rs`) is 0640: another member of the group may read
        // it, never rewrite it, and needs no more than reading to follow it to the segment.
        // Refused write access, the file is opened read-only, and used only if it is a
        // pointer (`read_only` below); a file mapped itself needs write access.
        let mut read_only = false;
        let opened = match opener(true) {
            Err(e) if e.raw_os_error() == Some(libc::EACCES) => {
                read_only = true;
                opener(false).map_err(|_| e)
            }
            other => other,
        };
        let file = match opened {
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
        if facts.len == sysv::POINTER_BYTES as u64 {
            let mut bytes = [0u8; sysv::POINTER_BYTES];
            std::os::unix::fs::FileExt::read_exact_at(&file, &mut bytes, 0)
                .map_err(|e| SharedError::io("read", path, e))?;
            if let Some((id, len)) = sysv::parse(&bytes) {
                return Self::open_segment(path, &facts, (id, len), size, policy);
            }
        }
        if read_only {
            return Err(SharedError::io(
                "open",
                path,
                std::io::Error::from_raw_os_error(libc::EACCES),
            ));
        }
        if unresizable && policy.group == Some(facts.gid) && facts.mode & 0o020 != 0 {
            return Err(facts.refuse(
                path,
                format!("is a file every member of {GROUP_ENV} may truncate under the others' processes (SIGBUS); under a configured group shared memory is a System V segment"),
            ));
        }
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

    /// The segment pointer file `path` (`facts`) names, checked and attached.
    fn open_segment(
        path: &Path,
        facts: &Facts,
        (id, len): (i32, u64),
        size: Size,
        policy: &Policy,
    ) -> Result<Self, SharedError> {
        if facts.mode & 0o022 != 0 {
            return Err(facts.refuse(
                path,
                "names a System V segment but others may rewrite it".into(),
            ));
        }
        let fits = match size {
            Size::Exact(n) => len == n as u64,
            Size::Between(lo, hi) => (lo as u64..=hi as u64).contains(&len),
        };
        let len = usize::try_from(len)
            .ok()
            .filter(|_| fits)
            .ok_or_else(|| SharedError::Size {
                path: path.to_path_buf(),
                len,
                expected: match size {
                    Size::Exact(n) => n.to_string(),
                    Size::Between(lo, hi) => format!("{lo} to {hi}"),
                },
            })?;
        let ptr = sysv::open(path, facts.uid, id, len as u64, policy)?;
        Ok(SharedFile {
            backing: Backing::SysV { ptr, id },
            len,
            path: path.to_path_buf(),
        })
    }

    /// Removes `path`, and the System V segment it names if it is a pointer file this process
    /// may remove (freed once every process has detached it; mappings stay whole until then).
    pub fn remove(path: &Path) -> std::io::Result<()> {
        if let Ok(bytes) = std::fs::read(path)
            && let Some((id, _)) = sysv::parse(&bytes)
        {
            sysv::remove(id);
        }
        std::fs::remove_file(path)
    }

    /// Drops memory nobody will use: a System V segment is removed (a file is left to
    /// whoever unlinks it).
    fn discard(self) {
        if let Backing::SysV { id, .. } = self.backing {
            sysv::remove(id);
        }
    }

    /// Whether the memory is a System V segment named by a pointer file (`shared/sysv.rs`).
    pub fn is_segment(&self) -> bool {
        matches!(self.backing, Backing::SysV { .. })
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
            Backing::SysV { ptr, .. } => *ptr,
        }
    }

    /// Bytes mapped.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is mapped.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The file's path (for an in-memory file, its name).
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
