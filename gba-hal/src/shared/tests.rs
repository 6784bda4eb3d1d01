//! The refusals of ARCHITECTURE.md's "One way to share memory", each by name. What needs a
//! second user (a file another uid owns) is checked on [`Facts`] here and replayed with a
//! real second user by `tests/security/userspace.sh`.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::trust::{Facts, Kind};
use super::*;

const MAGIC: u64 = 0x6762_615f_7465_7374;

fn private() -> Policy {
    Policy::private()
}

fn refusal(err: SharedError) -> String {
    assert!(matches!(err, SharedError::Refused { .. }), "{err:?}");
    err.to_string()
}

fn published(dir: &Path, name: &str) -> SharedFile {
    SharedFile::publish(dir, name, 4096, &private(), (0, MAGIC), |f| {
        f.word(8).store(7)
    })
    .unwrap()
    .expect("nobody published it before")
}

#[test]
fn a_published_file_is_whole_private_and_has_one_link() {
    let dir = tempfile::tempdir().unwrap();
    let file = published(dir.path(), "seg");
    assert_eq!(file.path(), dir.path().join("seg"));
    let meta = std::fs::metadata(dir.path().join("seg")).unwrap();
    let facts = Facts::of(&meta);
    assert_eq!((facts.mode, facts.nlink, facts.len), (0o600, 1, 4096));
    let again = SharedFile::open(&dir.path().join("seg"), Size::Exact(4096), &private()).unwrap();
    assert_eq!((again.word(0).load(), again.word(8).load()), (MAGIC, 7));
    again.word(16).store(9);
    assert_eq!(file.word(16).load(), 9, "one file, two mappings");
    // Nothing but the file is left in the directory.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_second_publisher_finds_the_first_ones_file() {
    let dir = tempfile::tempdir().unwrap();
    let _first = published(dir.path(), "seg");
    let second = SharedFile::publish(dir.path(), "seg", 4096, &private(), (0, 1), |_| ()).unwrap();
    assert!(second.is_none());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left"
    );
}

#[test]
fn a_symbolic_link_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let _target = published(dir.path(), "real");
    let link = dir.path().join("seg");
    std::os::unix::fs::symlink(dir.path().join("real"), &link).unwrap();
    let text = refusal(SharedFile::open(&link, Size::Exact(4096), &private()).unwrap_err());
    assert!(
        text.contains("seg") && text.contains("symbolic link"),
        "{text}"
    );
    // Nor is one followed when creating.
    assert!(SharedFile::create(&link, 4096, &private()).is_err());
}

#[test]
fn a_file_others_can_write_is_refused_with_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seg");
    drop(published(dir.path(), "seg"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
    let text = refusal(SharedFile::open(&path, Size::Exact(4096), &private()).unwrap_err());
    assert!(
        text.contains("writable by every user") && text.contains("0666"),
        "{text}"
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o660)).unwrap();
    let text = refusal(SharedFile::open(&path, Size::Exact(4096), &private()).unwrap_err());
    assert!(text.contains("writable by its group"), "{text}");
}

#[test]
fn a_second_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    drop(published(dir.path(), "seg"));
    std::fs::hard_link(dir.path().join("seg"), dir.path().join("other")).unwrap();
    let text = refusal(
        SharedFile::open(&dir.path().join("seg"), Size::Exact(4096), &private()).unwrap_err(),
    );
    assert!(text.contains("2 links"), "{text}");
}

#[test]
fn a_truncated_file_or_a_directory_is_refused_not_mapped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seg");
    drop(published(dir.path(), "seg"));
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(100)
        .unwrap();
    let err = SharedFile::open(&path, Size::Exact(4096), &private()).unwrap_err();
    assert!(matches!(err, SharedError::Size { len: 100, .. }), "{err:?}");
    let err = SharedFile::open(&path, Size::Between(200, 4096), &private()).unwrap_err();
    assert!(err.to_string().contains("200 to 4096"), "{err}");
    std::fs::create_dir(dir.path().join("switch")).unwrap();
    let text = refusal(
        SharedFile::open(&dir.path().join("switch"), Size::Exact(4096), &private()).unwrap_err(),
    );
    assert!(
        text.contains("switch") && text.contains("a directory"),
        "{text}"
    );
}

#[test]
fn offsets_from_shared_memory_are_checked() {
    let file = SharedFile::in_memory("<memory>", 64);
    assert!(file.try_word(56).is_some());
    assert!(file.try_word(64).is_none());
    assert!(file.try_word(4).is_none());
    assert!(file.try_word(usize::MAX - 3).is_none());
}

fn facts(kind: Kind, uid: u32, gid: u32, mode: u32) -> Facts {
    Facts {
        kind,
        uid,
        gid,
        mode,
        nlink: 1,
        len: 0,
    }
}

#[test]
fn owners_are_the_caller_root_or_the_configured_group() {
    let me = Policy {
        group: None,
        uid: 1000,
    };
    let path = Path::new("/x/seg");
    assert!(
        me.check_file(path, &facts(Kind::File, 1000, 1000, 0o600))
            .is_ok()
    );
    assert!(me.check_file(path, &facts(Kind::File, 0, 0, 0o644)).is_ok());
    let text = refusal(
        me.check_file(path, &facts(Kind::File, 1001, 1001, 0o600))
            .unwrap_err(),
    );
    assert!(
        text.contains("/x/seg") && text.contains("another user") && text.contains("uid 1001"),
        "{text}"
    );
    let group = Policy {
        group: Some(50),
        uid: 1000,
    };
    assert!(
        group
            .check_file(path, &facts(Kind::File, 1001, 50, 0o660))
            .is_ok()
    );
    assert!(
        group
            .check_file(path, &facts(Kind::File, 1001, 51, 0o660))
            .is_err()
    );
    assert!(
        group
            .check_file(path, &facts(Kind::File, 1001, 50, 0o666))
            .is_err()
    );
    assert_eq!((me.file_mode(), group.file_mode()), (0o600, 0o660));
}

#[test]
fn directories_others_can_write_or_own_are_refused() {
    let me = Policy {
        group: None,
        uid: 1000,
    };
    let path = Path::new("/dev/shm");
    let text = refusal(
        me.check_dir(path, &facts(Kind::Dir, 0, 0, 0o1777))
            .unwrap_err(),
    );
    assert!(
        text.contains("/dev/shm") && text.contains("every user"),
        "{text}"
    );
    assert!(
        me.check_dir(path, &facts(Kind::Dir, 1000, 1000, 0o700))
            .is_ok()
    );
    assert!(me.check_dir(path, &facts(Kind::Dir, 0, 0, 0o755)).is_ok());
    // A group member owns no directory the caller trusts, even with the configured group.
    let group = Policy {
        group: Some(50),
        uid: 1000,
    };
    assert!(
        group
            .check_dir(path, &facts(Kind::Dir, 1001, 50, 0o770))
            .is_err()
    );
    assert!(
        group
            .check_dir(path, &facts(Kind::Dir, 0, 50, 0o1770))
            .is_ok()
    );
    assert!(
        me.check_dir(path, &facts(Kind::Symlink, 1000, 1000, 0o777))
            .is_err()
    );
}

#[test]
fn another_members_sticky_directory_is_trusted_only_to_open_state_in() {
    let me = Policy {
        group: Some(50),
        uid: 1000,
    };
    let path = Path::new("/run/gba/fabric");
    let member = facts(Kind::Dir, 1001, 50, 0o1770);
    assert!(
        me.check_dir(path, &member).is_err(),
        "never to make state in"
    );
    assert!(me.check_dir_to_open(path, &member).is_ok());
    let text = refusal(
        me.check_dir_to_open(path, &facts(Kind::Dir, 1001, 50, 0o770))
            .unwrap_err(),
    );
    assert!(text.contains("not sticky"), "{text}");
    let text = refusal(
        me.check_dir_to_open(path, &facts(Kind::Dir, 1001, 50, 0o1777))
            .unwrap_err(),
    );
    assert!(text.contains("every user"), "{text}");
    // Another group's directory, or no configured group: refused as before.
    let text = refusal(
        me.check_dir_to_open(path, &facts(Kind::Dir, 1001, 51, 0o1770))
            .unwrap_err(),
    );
    assert!(text.contains("another user"), "{text}");
    let private = Policy {
        group: None,
        uid: 1000,
    };
    assert!(private.check_dir_to_open(path, &member).is_err());
    assert!(
        me.check_dir_to_open(path, &facts(Kind::Symlink, 1001, 50, 0o1770))
            .is_err()
    );
}

#[test]
fn a_runtime_directory_is_made_private_and_checked() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run/gba");
    dir::ensure(&dir, &private()).unwrap();
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o700);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let text = refusal(dir::ensure(&dir, &private()).unwrap_err());
    assert!(text.contains("run/gba"), "{text}");
    let link = root.path().join("link");
    std::os::unix::fs::symlink(&dir, &link).unwrap();
    assert!(dir::check(&link, &private()).is_err());
}
