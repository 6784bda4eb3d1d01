//! Trusted directories: where shared state is made and looked up.
//!
//! - root (hardware host state): [`ROOT_DIR`], `/run/gba` (also made at boot by the shipped
//!   `packaging/tmpfiles.d/gba.conf`);
//! - any other user: `$XDG_RUNTIME_DIR/gba`, or without it `/tmp/gba-UID`.
//!
//! Made 0700 (01770 with a configured group) by whoever needs it first, and checked on every
//! use ([`Policy::check_dir`]): a directory another user made or can write, such as `/dev/shm`
//! itself, is refused, because they could plant or replace any name in it.

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::SharedError;
use super::trust::{Facts, Policy, euid};

/// root's runtime directory for GBA state.
pub const ROOT_DIR: &str = "/run/gba";

/// The caller's runtime directory for GBA state (see the module description), made if it
/// does not exist yet, and checked.
pub fn runtime_dir(policy: &Policy) -> Result<PathBuf, SharedError> {
    let dir = runtime_dir_path();
    ensure(&dir, policy)?;
    Ok(dir)
}

/// Where [`runtime_dir`] is, without making or checking it.
pub fn runtime_dir_path() -> PathBuf {
    let uid = euid();
    if uid == 0 {
        return PathBuf::from(ROOT_DIR);
    }
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(xdg) if Path::new(&xdg).is_dir() => Path::new(&xdg).join("gba"),
        _ => PathBuf::from(format!("/tmp/gba-{uid}")),
    }
}

/// Makes directory `dir` (its parents as the umask says; `dir` itself with the policy's
/// mode) if it does not exist, then checks it ([`check`]).
pub fn ensure(dir: &Path, policy: &Policy) -> Result<(), SharedError> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| SharedError::io("create the directory", parent, e))?;
    }
    match std::fs::DirBuilder::new()
        .mode(policy.dir_mode())
        .create(dir)
    {
        Ok(()) => {
            // The umask may have taken bits the policy asked for (a group's write bit).
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(policy.dir_mode()))
                .map_err(|e| SharedError::io("set the mode of", dir, e))?;
            if let Some(gid) = policy.group {
                std::os::unix::fs::lchown(dir, None, Some(gid))
                    .map_err(|e| SharedError::io("give the configured group", dir, e))?;
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(SharedError::io("create the directory", dir, e)),
    }
    check(dir, policy)
}

/// Checks that `dir` is a directory the caller may trust ([`Policy::check_dir`]); a
/// symbolic link is refused, whatever it points at.
pub fn check(dir: &Path, policy: &Policy) -> Result<(), SharedError> {
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| SharedError::io("look at the directory", dir, e))?;
    policy.check_dir(dir, &Facts::of(&meta))
}

/// Checks that `dir` is a directory the caller may look state up in
/// ([`Policy::check_dir_to_open`]: also another member's, under a configured group); a
/// symbolic link is refused, whatever it points at.
pub fn check_to_open(dir: &Path, policy: &Policy) -> Result<(), SharedError> {
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| SharedError::io("look at the directory", dir, e))?;
    policy.check_dir_to_open(dir, &Facts::of(&meta))
}
