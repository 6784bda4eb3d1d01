//! A hardware port's host segment as a file of its own: `<runtime dir>/gba-host-<identity>`
//! (`/run/gba` for root), where the identity names the device (PCI address, or UIO name
//! without one), its PORT_ID and this boot's id, so that two devices, two hosts (each its own
//! runtime directory) or two boots of one host never share a segment.
//!
//! ```text
//! page 0               header: magic (stored last), version, identity (NUL-padded),
//!                      the group quota per uid (its creator's GBA_GROUP_QUOTA)
//! pages 1 .. 34        the host segment (super::PORT_BYTES: 33.5 pages; the rest unused)
//! page  35             the flag page: group g's release flag on line g, for a device
//!                      without a DMA region of its own (uio_pci_generic), whose physical
//!                      address every process of the host finds through its own mapping
//! ```
//!
//! Made and opened through [`crate::shared::SharedFile`]: created 0600 (0660 with the
//! configured group) in a trusted directory ([`segment_dir`]: `/run/gba` for root, the user's
//! runtime directory otherwise), filled, its magic stored last with release, published with
//! `RENAME_NOREPLACE` (of two creators one wins, the other opens the winner's); opened only
//! if regular, with one link, a trusted owner, no write bit for others and the exact size,
//! and the header (magic, version, identity) checked before any other word. Under a
//! configured group (`GBA_SHARED_GROUP`) the memory is a System V segment nobody can resize
//! and the file a pointer naming it (`shared::sysv`), so no member truncates it under
//! another's job (SIGBUS; on UIO, a freed flag frame the device writes). Never removed by
//! the library: a claim outlives its processes (a dead owner's group is reclaimed from it),
//! and a flag page the device may still write must not be freed while a group points at it.

use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use crate::shared::{self, Policy, SharedError, SharedFile, SharedWord, Size};

use super::{HostSegment, PORT_BYTES};

/// The environment variable naming the directory of hardware host segments (default: the
/// caller's runtime directory, [`segment_dir`]). It must be a directory the caller trusts:
/// owned by it or root, writable by nobody else (`/dev/shm` itself is refused).
pub const SEGMENT_DIR_ENV: &str = "GBA_HOST_SEGMENT_DIR";

/// The directory of hardware host segments: [`SEGMENT_DIR_ENV`] if set, else the caller's
/// runtime directory (`/run/gba` for root, made if missing).
pub fn segment_dir() -> Result<PathBuf, SegmentError> {
    match std::env::var_os(SEGMENT_DIR_ENV).filter(|d| !d.is_empty()) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Ok(shared::dir::runtime_dir(&Policy::from_env()?)?),
    }
}

const PAGE: usize = 4096;
const MAGIC: u64 = u64::from_le_bytes(*b"GBAHOST1");
/// 3: the claim record's team key is two words (128 bits), the record two lines.
const VERSION: u64 = 3;
const IDENTITY_BYTES: usize = 256;
/// The header word of the group quota per uid: the creator's, one for every process of the
/// port (root's for `/run/gba`, the administrator's say).
const QUOTA_WORD: usize = 2 + IDENTITY_BYTES / 8;
const SEGMENT_AT: usize = PAGE;
/// The flag page, on the page after the segment's (the device writes it: a page of its own).
const FLAGS_AT: usize = (SEGMENT_AT + PORT_BYTES).next_multiple_of(PAGE);
/// Bytes of a segment file.
pub const FILE_BYTES: usize = FLAGS_AT + PAGE;
const _: () = assert!(
    super::GROUPS * 64 <= PAGE,
    "a flag line per group fits one page"
);

/// Why a host segment could not be made or used.
#[derive(Debug, thiserror::Error)]
pub enum SegmentError {
    /// A file operation on the segment failed.
    #[error("cannot {what} the host segment {}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The segment's file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    #[error("the host segment {} {what}: remove it when no process uses the device", path.display())]
    /// The segment's header is not this layout's.
    Corrupt {
        /// The segment's file.
        path: PathBuf,
        /// What is wrong, as a verb phrase.
        what: String,
    },
    /// No boot id, which names the segment.
    #[error(
        "cannot read /proc/sys/kernel/random/boot_id, which names the host segment (is /proc mounted?)"
    )]
    NoBootId,
    /// The device's identity cannot name a file.
    #[error(
        "the host segment's name {name:?} holds a '/' or is too long: the device's identity cannot name a file"
    )]
    BadName {
        /// The name.
        name: String,
    },
    #[error("cannot make a host segment: {reason}")]
    /// The group quota (`GBA_GROUP_QUOTA`) is malformed.
    Quota {
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The segment's file or directory was refused, or a file operation on it failed.
    #[error(transparent)]
    Shared(#[from] SharedError),
}

/// A mapped host segment file (see the module description).
#[derive(Debug)]
pub struct SegmentFile {
    file: SharedFile,
}

impl SegmentFile {
    /// The file name for a device of `identity` (e.g. `0000:00:04.0-port3`) on this boot.
    pub fn name(identity: &str) -> Result<String, SegmentError> {
        let boot = super::process::boot_id().ok_or(SegmentError::NoBootId)?;
        let name = format!("gba-host-{identity}-boot-{boot}");
        if name.contains('/') || name.len() > 200 {
            return Err(SegmentError::BadName { name });
        }
        Ok(name)
    }

    /// Opens the segment `dir/name`, creating it if no process of this host has yet.
    /// `identity` is stored in it and checked on every later open. `dir` must be a directory
    /// the caller trusts, and so must the file (see the module description).
    pub fn open_or_create(dir: &Path, name: &str, identity: &str) -> Result<Self, SegmentError> {
        let policy = Policy::from_env()?;
        shared::dir::check(dir, &policy)?;
        let path = dir.join(name);
        let fill = |file: &SharedFile, quota: u32| {
            file.word(QUOTA_WORD * 8).store(u64::from(quota));
            let bytes = identity.as_bytes();
            for (i, chunk) in bytes.chunks(8).take(IDENTITY_BYTES / 8).enumerate() {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                file.word((2 + i) * 8).store(u64::from_le_bytes(word));
            }
            file.word(8).store(VERSION);
        };
        let file = match SharedFile::open(&path, Size::Exact(FILE_BYTES), &policy) {
            Ok(file) => file,
            Err(SharedError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                // The quota is its creator's; every later opener uses the recorded one.
                let quota =
                    super::group_quota().map_err(|reason| SegmentError::Quota { reason })?;
                let fill = |file: &SharedFile| fill(file, quota);
                match SharedFile::publish(dir, name, FILE_BYTES, &policy, (0, MAGIC), fill)? {
                    Some(file) => file,
                    // Another process of the host published its segment first: use that one.
                    None => SharedFile::open(&path, Size::Exact(FILE_BYTES), &policy)?,
                }
            }
            Err(e) => return Err(e.into()),
        };
        let segment = SegmentFile { file };
        let corrupt = |what: String| SegmentError::Corrupt {
            path: path.clone(),
            what,
        };
        if segment.header(0).load() != MAGIC {
            return Err(corrupt("has no GBA host segment magic".into()));
        }
        let version = segment.header(1).load();
        if version != VERSION {
            return Err(corrupt(format!(
                "has layout version {version}, this library {VERSION}"
            )));
        }
        let stored = segment.identity();
        if stored != identity {
            return Err(corrupt(format!(
                "belongs to device {stored:?}, not {identity:?}"
            )));
        }
        let quota = segment.header(QUOTA_WORD).load();
        if !(1..=super::GROUPS as u64).contains(&quota) {
            return Err(corrupt(format!(
                "records a group quota of {quota} (header word {QUOTA_WORD}), outside 1 to {}",
                super::GROUPS
            )));
        }
        Ok(segment)
    }

    /// The group quota per uid its creator recorded (checked at open: 1 to GROUPS).
    pub fn quota(&self) -> u32 {
        self.header(QUOTA_WORD).load() as u32
    }

    fn header(&self, word: usize) -> SharedWord<'_> {
        assert!(word < PAGE / 8);
        self.file.word(word * 8)
    }

    /// The device identity stored in the header.
    pub fn identity(&self) -> String {
        let bytes: Vec<u8> = (0..IDENTITY_BYTES / 8)
            .flat_map(|i| self.header(2 + i).load().to_le_bytes())
            .take_while(|&b| b != 0)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The segment's file.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The claim records and local-arrivals blocks.
    pub fn segment(&self) -> HostSegment<'_> {
        let base = NonNull::new(self.file.as_ptr().wrapping_add(SEGMENT_AT))
            .expect("a mapping is never at address 0");
        // SAFETY: PORT_BYTES from page 1 on are inside the mapping (FILE_BYTES), page-aligned,
        // alive while `self` is (the borrow), and every process reaches them only atomically.
        unsafe { HostSegment::new(base) }
            .with_quota(self.quota())
            .with_name(&self.path().to_string_lossy())
    }

    /// The flag page's first byte: group g's flag is the line at `g * 64`. Page-aligned
    /// within the file, `PAGE` bytes.
    pub fn flag_page(&self) -> NonNull<u8> {
        NonNull::new(self.file.as_ptr().wrapping_add(FLAGS_AT))
            .expect("a mapping is never at address 0")
    }

    /// Locks the flag page of this process's mapping into memory (it is resident and stays
    /// so while any process holds its lock).
    pub fn lock_flag_page(&self) -> std::io::Result<()> {
        // SAFETY: one page of this mapping; mlock changes no byte.
        if unsafe { libc::mlock(self.flag_page().as_ptr().cast(), PAGE) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    /// The attacks of issue 25 on a host segment that need no second user: a segment planted
    /// writable by everyone, a symbolic link, a truncated file, a segment directory others
    /// can write. Each is refused by name; none is mapped.
    #[test]
    #[cfg_attr(miri, ignore = "Miri cannot map files")]
    fn planted_segments_are_refused_by_name() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path();
        let made = SegmentFile::open_or_create(dir, "seg", "dev-port0").unwrap();
        assert_eq!(made.identity(), "dev-port0");
        assert_eq!(
            made.segment().quota(),
            made.quota(),
            "the recorded quota applies"
        );
        drop(made);
        let path = dir.join("seg");
        // A recorded quota outside 1 to GROUPS is refused, naming the word and the file.
        for bad in [0u64, super::super::GROUPS as u64 + 1] {
            use std::os::unix::fs::FileExt;
            let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            file.write_all_at(&bad.to_le_bytes(), (QUOTA_WORD * 8) as u64)
                .unwrap();
            let err = SegmentFile::open_or_create(dir, "seg", "dev-port0").unwrap_err();
            let text = err.to_string();
            assert!(
                text.contains("seg")
                    && text.contains(&format!("group quota of {bad} (header word")),
                "{text}"
            );
            file.write_all_at(&8u64.to_le_bytes(), (QUOTA_WORD * 8) as u64)
                .unwrap();
        }
        let reopened = SegmentFile::open_or_create(dir, "seg", "dev-port0").unwrap();
        assert_eq!(reopened.segment().quota(), 8);
        drop(reopened);
        let mode = |m| std::fs::set_permissions(&path, std::fs::Permissions::from_mode(m));
        mode(0o666).unwrap();
        let err = SegmentFile::open_or_create(dir, "seg", "dev-port0").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("seg") && text.contains("0666"), "{text}");
        mode(0o600).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(FILE_BYTES as u64 - 4096)
            .unwrap();
        let err = SegmentFile::open_or_create(dir, "seg", "dev-port0").unwrap_err();
        assert!(err.to_string().contains("bytes"), "{err}");
        std::fs::remove_file(&path).unwrap();
        let elsewhere = dir.join("elsewhere");
        drop(SegmentFile::open_or_create(dir, "elsewhere", "dev-port0").unwrap());
        std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
        let err = SegmentFile::open_or_create(dir, "seg", "dev-port0").unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let err = SegmentFile::open_or_create(dir, "other", "dev-port0").unwrap_err();
        assert!(err.to_string().contains("writable by every user"), "{err}");
        assert!(!dir.join("other").exists(), "nothing made in it");
    }
}
