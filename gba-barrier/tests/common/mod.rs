//! What several of gba-barrier's integration tests share: a private simulator fabric.

/// A fabric of `ports` ports in a fresh directory (in /dev/shm where there is one), removed
/// with the returned guard.
pub fn fabric(ports: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        tempfile::tempdir_in("/dev/shm")
    } else {
        tempfile::tempdir()
    }
    .unwrap();
    let path = dir.path().join("fabric");
    gba_sim::Fabric::create(&path, ports).unwrap();
    (dir, path)
}
