//! What can go wrong when creating, opening or driving a fabric.

use std::path::{Path, PathBuf};

/// gba-sim's result: [`Error`] by default.
pub type Result<T> = std::result::Result<T, Error>;

/// Why a fabric could not be created, opened or driven; each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file operation on a fabric file failed.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done ("open", "map", …).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// No fabric at the path.
    #[error("{}", no_fabric(path))]
    NoFabric {
        /// Where one was looked for.
        path: PathBuf,
    },

    /// A fabric was to be created where one exists.
    #[error(
        "a fabric already exists at {}: use it, or remove it with `gba sim destroy --path {}`",
        path.display(), path.display()
    )]
    Exists {
        /// The existing fabric.
        path: PathBuf,
    },

    /// The files at the path are no fabric of this version.
    #[error("{} is not a usable fabric: it {what}; remove it with `gba sim destroy`", path.display())]
    Corrupt {
        /// The fabric's directory or file.
        path: PathBuf,
        /// What is wrong with it, as a verb phrase ("has layout version 3").
        what: String,
    },

    /// The creator's group quota (`GBA_GROUP_QUOTA`) is malformed.
    #[error("cannot make a fabric: {reason}")]
    Quota {
        /// What is wrong with it.
        reason: &'static str,
    },

    /// A port count outside 1 to the switch's ports.
    #[error("a fabric has 1 to {max} ports (one per switch port); {ports} were asked for")]
    PortCount {
        /// The count asked for.
        ports: usize,
        /// The largest allowed.
        max: usize,
    },

    /// A port the fabric does not have.
    #[error("port {port} does not exist: the fabric at {} has ports 0 to {}", path.display(), ports - 1)]
    NoSuchPort {
        /// The port asked for.
        port: usize,
        /// The fabric's ports.
        ports: usize,
        /// The fabric.
        path: PathBuf,
    },

    /// A group the switch does not have.
    #[error("group {group} does not exist: the switch has groups 0 to {}", groups - 1)]
    NoSuchGroup {
        /// The group asked for.
        group: usize,
        /// The switch's groups.
        groups: usize,
    },

    /// No room in a port's DMA arena.
    #[error(
        "port {port}'s DMA arena has no {len} contiguous free bytes ({arena} bytes in all): free \
         release flags of finished groups, or use fewer at once"
    )]
    ArenaFull {
        /// The port.
        port: usize,
        /// Bytes asked for.
        len: usize,
        /// The arena's size in bytes.
        arena: usize,
    },

    /// A DMA allocation of 0 bytes or more than an arena.
    #[error("a DMA allocation must be 1 to {max} bytes; {len} were asked for")]
    DmaSize {
        /// Bytes asked for.
        len: usize,
        /// The largest allocation.
        max: usize,
    },

    /// Every opener slot of a port is taken by a live process.
    #[error(
        "port {port} has too many processes attached ({max}); close some, or clear dead ones with `gba sim status`"
    )]
    TooManyOpeners {
        /// The port.
        port: usize,
        /// Its opener slots.
        max: usize,
    },

    /// Files for virtual machines asked for under a configured group (`GBA_SHARED_GROUP`):
    /// QEMU maps them by path, so a member of the group could truncate them under another.
    #[error(
        "cannot make a fabric: {what} (for virtual machines) are refused under a configured group (GBA_SHARED_GROUP names gid {gid}): QEMU maps them by path, so any member of the group could truncate them under another member's guest (SIGBUS) or its release flags; a fabric for virtual machines is single-user: unset GBA_SHARED_GROUP to make it in your own runtime directory"
    )]
    VmFilesUnderGroup {
        /// Which files ("per-port windows", "guest RAM").
        what: &'static str,
        /// The configured group.
        gid: u32,
    },

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
