//! A hardware port's host segment as a file of its own: `/dev/shm/gba-host-<identity>`, where
//! the identity names the device (PCI address, or UIO name without one), its PORT_ID and this
//! boot's id, so that two devices, two hosts (each its own `/dev/shm`) or two boots of one
//! host never share a segment.
//!
//! ```text
//! page 0               header: magic (stored last), version, identity (NUL-padded)
//! pages 1 .. 1+33      the host segment (super::PORT_BYTES)
//! page  34             the flag page: group g's release flag on line g, for a device
//!                      without a DMA region of its own (uio_pci_generic), whose physical
//!                      address every process of the host finds through its own mapping
//! ```
//!
//! Created under a temporary name, filled, its magic stored last with release, then
//! `link`ed into place: a process that finds the name finds a whole segment, and of two
//! creators exactly one link succeeds (the other opens the winner's). Never removed by the
//! library: a claim outlives its processes (a dead owner's group is reclaimed from it), and a
//! flag page the device may still write must not be freed while a group points at it.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::{MmapOptions, MmapRaw};

use super::{HostSegment, PORT_BYTES};

/// The environment variable naming the directory of hardware host segments (default
/// `/dev/shm`; any directory on a tmpfs every process of the host sees).
pub const SEGMENT_DIR_ENV: &str = "GBA_HOST_SEGMENT_DIR";
/// The default directory of hardware host segments.
pub(crate) const DEFAULT_SEGMENT_DIR: &str = "/dev/shm";

const PAGE: usize = 4096;
const MAGIC: u64 = u64::from_le_bytes(*b"GBAHOST1");
const VERSION: u64 = 1;
const IDENTITY_BYTES: usize = 256;
const SEGMENT_AT: usize = PAGE;
const FLAGS_AT: usize = SEGMENT_AT + PORT_BYTES;
/// Bytes of a segment file.
pub const FILE_BYTES: usize = FLAGS_AT + PAGE;
const _: () = assert!(PORT_BYTES.is_multiple_of(PAGE));
const _: () = assert!(
    super::GROUPS * 64 <= PAGE,
    "a flag line per group fits one page"
);

/// Why a host segment could not be made or used.
#[derive(Debug, thiserror::Error)]
pub enum SegmentError {
    #[error("cannot {what} the host segment {}", path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the host segment {} {what}: remove it when no process uses the device", path.display())]
    Corrupt { path: PathBuf, what: String },
    #[error(
        "cannot read /proc/sys/kernel/random/boot_id, which names the host segment (is /proc mounted?)"
    )]
    NoBootId,
    #[error(
        "the host segment's name {name:?} holds a '/' or is too long: the device's identity cannot name a file"
    )]
    BadName { name: String },
}

/// A mapped host segment file (see the module description).
#[derive(Debug)]
pub struct SegmentFile {
    map: MmapRaw,
    path: PathBuf,
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
    /// `identity` is stored in it and checked on every later open.
    pub fn open_or_create(dir: &Path, name: &str, identity: &str) -> Result<Self, SegmentError> {
        let path = dir.join(name);
        let io = |what, path: &Path| {
            let path = path.to_path_buf();
            move |source| SegmentError::Io { what, path, source }
        };
        if !path.exists() {
            static SERIAL: AtomicU64 = AtomicU64::new(0);
            let tmp = dir.join(format!(
                ".{name}.{}.{}",
                super::process::my_pid(),
                SERIAL.fetch_add(1, Ordering::Relaxed)
            ));
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&tmp)
                .map_err(io("create", &tmp))?;
            let made = (|| {
                file.set_len(FILE_BYTES as u64).map_err(io("size", &tmp))?;
                let segment = Self::map(&file, &tmp)?;
                let bytes = identity.as_bytes();
                for (i, chunk) in bytes.chunks(8).take(IDENTITY_BYTES / 8).enumerate() {
                    let mut word = [0u8; 8];
                    word[..chunk.len()].copy_from_slice(chunk);
                    segment
                        .header(2 + i)
                        .store(u64::from_le_bytes(word), Ordering::Relaxed);
                }
                segment.header(1).store(VERSION, Ordering::Relaxed);
                // Last, with release: whoever sees the magic sees the whole header.
                segment.header(0).store(MAGIC, Ordering::Release);
                match std::fs::hard_link(&tmp, &path) {
                    Ok(()) => Ok(()),
                    // Another process of the host linked its segment first: use that one.
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                    Err(e) => Err(io("link into place", &path)(e)),
                }
            })();
            let _ = std::fs::remove_file(&tmp);
            made?;
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io("open", &path))?;
        let len = file.metadata().map_err(io("stat", &path))?.len();
        if len != FILE_BYTES as u64 {
            return Err(SegmentError::Corrupt {
                path,
                what: format!("is {len} bytes, not {FILE_BYTES}"),
            });
        }
        let segment = Self::map(&file, &path)?;
        let corrupt = |what: String| SegmentError::Corrupt {
            path: path.clone(),
            what,
        };
        if segment.header(0).load(Ordering::Acquire) != MAGIC {
            return Err(corrupt("has no GBA host segment magic".into()));
        }
        let version = segment.header(1).load(Ordering::Relaxed);
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
        Ok(segment)
    }

    fn map(file: &std::fs::File, path: &Path) -> Result<Self, SegmentError> {
        // An explicit length: the mapping never depends on what the file reports later.
        let map = MmapOptions::new()
            .len(FILE_BYTES)
            .map_raw(file)
            .map_err(|source| SegmentError::Io {
                what: "map",
                path: path.to_path_buf(),
                source,
            })?;
        Ok(SegmentFile {
            map,
            path: path.to_path_buf(),
        })
    }

    fn header(&self, word: usize) -> &AtomicU64 {
        assert!(word < PAGE / 8);
        // SAFETY: word `word` of the header page, 8-aligned (the mapping is page-aligned),
        // inside the mapping, which lives as long as `self`; every process reaches the file
        // only atomically.
        unsafe { AtomicU64::from_ptr(self.map.as_mut_ptr().cast::<u64>().add(word)) }
    }

    /// The device identity stored in the header.
    pub fn identity(&self) -> String {
        let bytes: Vec<u8> = (0..IDENTITY_BYTES / 8)
            .flat_map(|i| self.header(2 + i).load(Ordering::Relaxed).to_le_bytes())
            .take_while(|&b| b != 0)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The claim records and combining blocks.
    pub fn segment(&self) -> HostSegment<'_> {
        let base = NonNull::new(self.map.as_mut_ptr().wrapping_add(SEGMENT_AT))
            .expect("a mapping is never at address 0");
        // SAFETY: PORT_BYTES from page 1 on are inside the mapping (FILE_BYTES), page-aligned,
        // alive while `self` is (the borrow), and every process reaches them only atomically.
        unsafe { HostSegment::new(base) }
    }

    /// The flag page's first byte: group g's flag is the line at `g * 64`. Page-aligned
    /// within the file, [`PAGE`] bytes.
    pub fn flag_page(&self) -> NonNull<u8> {
        NonNull::new(self.map.as_mut_ptr().wrapping_add(FLAGS_AT))
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
