//! Shared memory under a configured group is a System V segment nobody can resize, named by a
//! pointer file ([`super::sysv`]); what needs a second user (a member of the group trying to
//! shrink it) is replayed by `tests/security/userspace.sh`.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use super::*;

const MAGIC: u64 = 0x6762_615f_7379_7376;

/// The caller's own group, configured: the files get it, as they would a site's group.
fn grouped() -> Policy {
    // SAFETY: getegid has no preconditions and cannot fail.
    let gid = unsafe { libc::getegid() };
    Policy {
        group: Some(gid),
        ..Policy::private()
    }
}

fn publish(dir: &Path) -> SharedFile {
    SharedFile::publish(dir, "seg", 8192, &grouped(), (0, MAGIC), |f| {
        f.word(8).store(7)
    })
    .unwrap()
    .expect("nobody published it before")
}

/// The segment's id, as its pointer file records it.
fn segment_id(path: &Path) -> i32 {
    sysv::parse(&std::fs::read(path).unwrap()).unwrap().0
}

fn segment_stat(id: i32) -> libc::shmid_ds {
    // SAFETY: an all-zero shmid_ds is valid for IPC_STAT to overwrite; it is writable.
    let mut ds: libc::shmid_ds = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    assert_eq!(unsafe { libc::shmctl(id, libc::IPC_STAT, &mut ds) }, 0);
    ds
}

#[test]
fn under_a_group_memory_is_a_segment_named_by_a_pointer_only_its_maker_may_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seg");
    let file = publish(dir.path());
    assert!(file.is_segment());
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!(
        (meta.mode() & 0o777, meta.gid(), meta.len()),
        (0o640, grouped().group.unwrap(), sysv::POINTER_BYTES as u64)
    );
    let ds = segment_stat(segment_id(&path));
    assert_eq!(
        (ds.shm_perm.mode & 0o777, ds.shm_perm.gid, ds.shm_segsz),
        (0o660, grouped().group.unwrap(), 8192)
    );
    let again = SharedFile::open(&path, Size::Exact(8192), &grouped()).unwrap();
    assert!(again.is_segment());
    assert_eq!((again.word(0).load(), again.word(8).load()), (MAGIC, 7));
    again.word(8184).store(9);
    assert_eq!(file.word(8184).load(), 9, "one segment, two mappings");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left"
    );

    let id = segment_id(&path);
    // Truncating the pointer file (its owner may) shrinks nothing mapped: the last word of
    // both mappings is still there; only a later open is refused, by the pointer's size.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    assert_eq!((file.word(8184).load(), again.word(8184).load()), (9, 9));
    let err = SharedFile::open(&path, Size::Exact(8192), &grouped()).unwrap_err();
    assert!(err.to_string().contains("0 bytes"), "{err}");
    std::fs::write(&path, sysv::pointer(id, 8192)).unwrap();

    // Removing it (as `gba sim destroy` does) frees it once unmapped; mappings stay whole.
    SharedFile::remove(&path).unwrap();
    assert!(!path.exists());
    assert_eq!(again.word(8184).load(), 9);
    drop((file, again));
    // SAFETY: as in `segment_stat`.
    let mut ds: libc::shmid_ds = unsafe { std::mem::zeroed() };
    // SAFETY: as in `segment_stat`.
    let rc = unsafe { libc::shmctl(id, libc::IPC_STAT, &mut ds) };
    assert_eq!(rc, -1, "freed once nobody has it attached");
}

#[test]
fn a_pointer_others_may_rewrite_or_naming_a_wrong_segment_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seg");
    let file = publish(dir.path());
    let id = segment_id(&path);
    let open = |size| SharedFile::open(&path, size, &grouped());

    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o660)).unwrap();
    let err = open(Size::Exact(8192)).unwrap_err().to_string();
    assert!(
        err.contains("others may rewrite it") && err.contains("0660"),
        "{err}"
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();

    let err = open(Size::Exact(4096)).unwrap_err().to_string();
    assert!(err.contains("8192 bytes") && err.contains("4096"), "{err}");

    // A pointer recording another length than the segment's.
    std::fs::write(&path, sysv::pointer(id, 4096)).unwrap();
    let err = open(Size::Between(0, 8192)).unwrap_err().to_string();
    assert!(
        err.contains(&format!("System V segment {id}")) && err.contains("8192"),
        "{err}"
    );

    // A segment others may write.
    let mut ds = segment_stat(id);
    ds.shm_perm.mode = 0o666;
    // SAFETY: a shmid_ds read from this segment, its mode changed.
    assert_eq!(unsafe { libc::shmctl(id, libc::IPC_SET, &mut ds) }, 0);
    std::fs::write(&path, sysv::pointer(id, 8192)).unwrap();
    let err = open(Size::Exact(8192)).unwrap_err().to_string();
    assert!(
        err.contains("writable by every user") && err.contains("0666"),
        "{err}"
    );

    // A segment that is gone.
    sysv::remove(id);
    drop(file);
    let err = open(Size::Exact(8192)).unwrap_err().to_string();
    assert!(
        err.contains(&format!("System V segment {id}, which does not exist")),
        "{err}"
    );
}

#[test]
fn under_a_group_a_file_its_members_could_truncate_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seg");
    drop(SharedFile::create_file(&path, 4096, &grouped()).unwrap());
    assert_eq!(std::fs::metadata(&path).unwrap().mode() & 0o777, 0o660);
    let err = SharedFile::open(&path, Size::Exact(4096), &grouped()).unwrap_err();
    let text = refusal(err);
    assert!(
        text.contains("may truncate") && text.contains(GROUP_ENV),
        "{text}"
    );
}

fn refusal(err: SharedError) -> String {
    assert!(matches!(err, SharedError::Refused { .. }), "{err:?}");
    err.to_string()
}
