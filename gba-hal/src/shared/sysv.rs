//! Shared memory nobody can resize: a System V segment, for memory several users' processes
//! map under a configured group (docs/design/trust.md, "Flag memory under a configured
//! group"). A 0660 file lets every member of the group that may write its words also
//! `ftruncate` it, and a truncated shared mapping is SIGBUS at the next access (on UIO, a
//! freed frame the device keeps writing). A System V segment has no resize operation at all:
//! its size is fixed by `shmget`; only its creator or owner (or root) may remove it or change
//! its permissions, and a removed segment stays mapped, whole, in every process attached to
//! it until the last detaches. The kernel keeps it without any process (until it is removed
//! or the machine reboots), as it keeps a file in `/run/gba`, so no keeper process is needed.
//!
//! The segment has no name in a directory, so the trusted directory holds a small pointer
//! file in its place ([`POINTER_BYTES`]: magic, segment id, length), made 0640 (only its
//! maker may rewrite it; the directory is sticky, so no member removes it). A segment named by
//! a pointer is used only if its creator is the pointer file's owner (a segment's `cuid`
//! cannot be changed, while `IPC_SET` can give it any group), its owner is its creator or
//! root, its mode passes the file checks ([`Policy::check_file`]) and its size is the one
//! recorded.

use std::path::Path;

use super::SharedError;
use super::trust::{Facts, Kind, Policy};

/// The pointer file's first word.
pub(crate) const POINTER_MAGIC: [u8; 8] = *b"GBASYSV1";
/// Bytes of a pointer file: magic, segment id, length, zero padding.
pub(crate) const POINTER_BYTES: usize = 64;

/// The pointer file's bytes for segment `id` of `len` bytes.
pub(crate) fn pointer(id: i32, len: usize) -> [u8; POINTER_BYTES] {
    let mut bytes = [0u8; POINTER_BYTES];
    bytes[..8].copy_from_slice(&POINTER_MAGIC);
    bytes[8..16].copy_from_slice(&i64::from(id).to_le_bytes());
    bytes[16..24].copy_from_slice(&(len as u64).to_le_bytes());
    bytes
}

/// The segment id and length a pointer file's bytes record, if they are a pointer's.
pub(crate) fn parse(bytes: &[u8]) -> Option<(i32, u64)> {
    if bytes.len() != POINTER_BYTES || bytes[..8] != POINTER_MAGIC {
        return None;
    }
    let id = i64::from_le_bytes(bytes[8..16].try_into().ok()?);
    let len = u64::from_le_bytes(bytes[16..24].try_into().ok()?);
    Some((i32::try_from(id).ok()?, len))
}

/// A new segment of `len` zero bytes with the policy's file mode and group (for `path`, the
/// pointer file that will name it, in messages), attached. Removed again on any failure.
pub(crate) fn create(
    path: &Path,
    len: usize,
    policy: &Policy,
) -> Result<(i32, *mut u8), SharedError> {
    refuse_forced_removal(path)?;
    // SAFETY: shmget has no memory preconditions; IPC_PRIVATE always makes a new segment.
    let id = unsafe {
        libc::shmget(
            libc::IPC_PRIVATE,
            len,
            libc::IPC_CREAT | libc::IPC_EXCL | 0o600,
        )
    };
    if id < 0 {
        return Err(SharedError::io(
            "create a System V shared memory segment for",
            path,
            std::io::Error::last_os_error(),
        ));
    }
    let made = (|| {
        let mut ds = stat(id, path)?;
        ds.shm_perm.mode = policy.file_mode() as _;
        if let Some(gid) = policy.group {
            ds.shm_perm.gid = gid;
        }
        // SAFETY: `ds` is a valid shmid_ds read from this segment, changed in mode and group.
        if unsafe { libc::shmctl(id, libc::IPC_SET, &mut ds) } != 0 {
            return Err(SharedError::io(
                "give the configured group and mode to the segment of",
                path,
                std::io::Error::last_os_error(),
            ));
        }
        attach(id, path)
    })();
    match made {
        Ok(ptr) => Ok((id, ptr)),
        Err(e) => {
            remove(id);
            Err(e)
        }
    }
}

/// Attaches segment `id`, which the pointer file `path` (owned by `owner`) names with length
/// `len`, after checking it (see the module description).
pub(crate) fn open(
    path: &Path,
    owner: u32,
    id: i32,
    len: u64,
    policy: &Policy,
) -> Result<*mut u8, SharedError> {
    refuse_forced_removal(path)?;
    let ds = stat(id, path)?;
    let facts = Facts {
        kind: Kind::File,
        uid: ds.shm_perm.uid,
        gid: ds.shm_perm.gid,
        mode: u32::from(ds.shm_perm.mode) & 0o777,
        nlink: 1,
        len: ds.shm_segsz as u64,
    };
    let segment = path.with_file_name(format!(
        "{} (System V segment {id})",
        path.file_name().unwrap_or_default().to_string_lossy()
    ));
    if ds.shm_perm.cuid != owner {
        return Err(facts.refuse(
            &segment,
            format!(
                "was made by uid {}, not by uid {owner}, who owns the file naming it",
                ds.shm_perm.cuid
            ),
        ));
    }
    if ds.shm_perm.uid != ds.shm_perm.cuid && ds.shm_perm.uid != 0 {
        return Err(facts.refuse(&segment, "was given away by its creator".into()));
    }
    policy.check_file(&segment, &facts)?;
    if facts.len != len {
        return Err(SharedError::Size {
            path: segment,
            len: facts.len,
            expected: format!("{len} bytes, as its pointer file records"),
        });
    }
    attach(id, path)
}

/// Detaches a mapping [`create`] or [`open`] returned.
///
/// # Safety
///
/// `ptr` is such a mapping, detached once, and nothing reaches it afterwards.
pub(crate) unsafe fn detach(ptr: *mut u8) {
    // SAFETY: the caller's contract; shmdt changes nothing else.
    unsafe { libc::shmdt(ptr.cast()) };
}

/// Marks segment `id` for removal: it is freed when the last process detaches. Fails
/// silently where the caller is not its owner or it is gone already.
pub(crate) fn remove(id: i32) {
    // SAFETY: IPC_RMID takes no buffer.
    unsafe { libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) };
}

fn stat(id: i32, path: &Path) -> Result<libc::shmid_ds, SharedError> {
    // SAFETY: an all-zero shmid_ds is a valid value for IPC_STAT to overwrite.
    let mut ds: libc::shmid_ds = unsafe { std::mem::zeroed() };
    // SAFETY: `ds` is writable for the call.
    if unsafe { libc::shmctl(id, libc::IPC_STAT, &mut ds) } != 0 {
        let e = std::io::Error::last_os_error();
        return Err(match e.raw_os_error() {
            Some(libc::EINVAL) | Some(libc::EIDRM) => SharedError::Corrupt {
                path: path.to_path_buf(),
                what: format!(
                    "names System V segment {id}, which does not exist (removed, or this process is in another IPC namespace)"
                ),
            },
            _ => SharedError::io("look at the System V segment named by", path, e),
        });
    }
    Ok(ds)
}

fn attach(id: i32, path: &Path) -> Result<*mut u8, SharedError> {
    // SAFETY: a null address lets the kernel choose where; the mapping is reached only
    // through raw pointers (the module's invariant).
    let ptr = unsafe { libc::shmat(id, std::ptr::null(), 0) };
    if ptr as isize == -1 {
        return Err(SharedError::io(
            "map the System V segment named by",
            path,
            std::io::Error::last_os_error(),
        ));
    }
    Ok(ptr.cast())
}

/// With `kernel.shm_rmid_forced = 1` the kernel frees a segment once its creator has exited
/// and no process has it attached: a port's claims (and a flag page a device may still write)
/// would go with the last process.
fn refuse_forced_removal(path: &Path) -> Result<(), SharedError> {
    let forced =
        std::fs::read_to_string("/proc/sys/kernel/shm_rmid_forced").is_ok_and(|v| v.trim() == "1");
    if forced {
        return Err(SharedError::io(
            "keep in System V shared memory",
            path,
            std::io::Error::other(
                "kernel.shm_rmid_forced is 1, which frees a segment when its last process exits: set it to 0, or leave GBA_SHARED_GROUP unset",
            ),
        ));
    }
    Ok(())
}
