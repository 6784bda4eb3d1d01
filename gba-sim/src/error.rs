//! What can go wrong when creating, opening or driving a fabric.

use std::path::{Path, PathBuf};

pub type Result<T> = std::result::Result<T, Error>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot {action} {}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("{}", no_fabric(path))]
    NoFabric { path: PathBuf },

    #[error(
        "a fabric already exists at {}: use it, or remove it with `gba sim destroy --path {}`",
        path.display(), path.display()
    )]
    Exists { path: PathBuf },

    #[error("{} is not a usable fabric: it {what}; remove it with `gba sim destroy`", path.display())]
    Corrupt { path: PathBuf, what: String },

    #[error("cannot make a fabric: {reason}")]
    Quota { reason: &'static str },

    #[error("a fabric has 1 to {max} ports (one per switch port); {ports} were asked for")]
    PortCount { ports: usize, max: usize },

    #[error("port {port} does not exist: the fabric at {} has ports 0 to {}", path.display(), ports - 1)]
    NoSuchPort {
        port: usize,
        ports: usize,
        path: PathBuf,
    },

    #[error("group {group} does not exist: the switch has groups 0 to {}", groups - 1)]
    NoSuchGroup { group: usize, groups: usize },

    #[error(
        "port {port}'s DMA arena has no {len} contiguous free bytes ({arena} bytes in all): free \
         release flags of finished groups, or use fewer at once"
    )]
    ArenaFull {
        port: usize,
        len: usize,
        arena: usize,
    },

    #[error("a DMA allocation must be 1 to {max} bytes; {len} were asked for")]
    DmaSize { len: usize, max: usize },

    #[error(
        "port {port} has too many processes attached ({max}); close some, or clear dead ones with `gba sim status`"
    )]
    TooManyOpeners { port: usize, max: usize },

    /// Files for virtual machines asked for under a configured group (`GBA_SHARED_GROUP`):
    /// QEMU maps them by path, so a member of the group could truncate them under another.
    #[error(
        "cannot make a fabric: {what} (for virtual machines) are refused under a configured group (GBA_SHARED_GROUP names gid {gid}): QEMU maps them by path, so any member of the group could truncate them under another member's guest (SIGBUS) or its release flags; a fabric for virtual machines is single-user: unset GBA_SHARED_GROUP to make it in your own runtime directory"
    )]
    VmFilesUnderGroup { what: &'static str, gid: u32 },

    /// A fabric file or directory refused by the shared-memory checks (another user's, a
    /// symbolic link, writable by others, of the wrong size …), or a file operation on one.
    #[error(transparent)]
    Shared(#[from] gba_hal::shared::SharedError),
}

/// The advice for a path that holds no fabric: advice that works when followed (creating a
/// fabric where a file already is would fail).
fn no_fabric(path: &Path) -> String {
    if path.exists() && !path.is_dir() {
        format!(
            "{} is a file, not a fabric directory: give the directory of a fabric, or create \
             one elsewhere with `gba sim create --ports N --path DIR`",
            path.display()
        )
    } else {
        format!(
            "no simulator fabric at {}: create one with `gba sim create --ports N --path {}`",
            path.display(),
            path.display()
        )
    }
}

impl Error {
    pub(crate) fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }
}
