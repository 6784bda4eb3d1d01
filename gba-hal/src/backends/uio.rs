//! Hardware through Linux UIO: `/dev/uioN`, map 0 = the register window, map 1 = a DMA
//! region whose bus address sysfs gives.
//!
//! UIO maps region N at offset N × page size of the device file; sizes and the DMA region's
//! bus address come from `<sysfs>/uioN/maps/mapN/{size,addr}` (hexadecimal). The sysfs root is
//! a parameter, so tests run this backend over a fake sysfs tree and an ordinary file.

use std::fmt;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use gba_pac::common::Volatile;
use memmap2::{MmapOptions, MmapRaw};

use super::arena::LineArena;
use crate::backend::{Backend, DmaError, DmaRegion};

/// Where sysfs lists UIO devices.
pub const DEFAULT_SYSFS: &str = "/sys/class/uio";

#[derive(Debug, thiserror::Error)]
pub enum UioError {
    #[error("cannot open {}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read {} (is this a UIO device with two maps?)", path.display())]
    Sysfs {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{} holds {text:?}, not a hexadecimal number", path.display())]
    NotHex { path: PathBuf, text: String },
    #[error(
        "map 0 of {} is {size:#x} bytes; the register window needs {needed:#x}",
        path.display()
    )]
    WindowTooSmall {
        path: PathBuf,
        size: usize,
        needed: usize,
    },
    #[error("cannot map map {index} of {}", path.display())]
    Map {
        index: usize,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

#[derive(Debug)]
pub struct UioBackend {
    path: PathBuf,
    regs: MmapRaw,
    /// Map 1, kept mapped for the arena's regions.
    _dma: MmapRaw,
    arena: LineArena,
}

fn read_hex(path: &Path) -> Result<u64, UioError> {
    let text = std::fs::read_to_string(path).map_err(|source| UioError::Sysfs {
        path: path.to_path_buf(),
        source,
    })?;
    let digits = text.trim().trim_start_matches("0x");
    u64::from_str_radix(digits, 16).map_err(|_| UioError::NotHex {
        path: path.to_path_buf(),
        text: text.trim().to_string(),
    })
}

impl UioBackend {
    /// Opens `device` (e.g. `/dev/uio0`), reading its maps from `sysfs` (e.g.
    /// [`DEFAULT_SYSFS`]).
    pub fn open(device: &Path, sysfs: &Path) -> Result<Self, UioError> {
        let name = device
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let map =
            |index: usize, what: &str| sysfs.join(&name).join(format!("maps/map{index}/{what}"));
        let window_size = read_hex(&map(0, "size"))? as usize;
        if window_size < gba_pac::Device::SIZE {
            return Err(UioError::WindowTooSmall {
                path: device.to_path_buf(),
                size: window_size,
                needed: gba_pac::Device::SIZE,
            });
        }
        let dma_size = read_hex(&map(1, "size"))? as usize;
        let dma_bus = read_hex(&map(1, "addr"))?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(device)
            .map_err(|source| UioError::Open {
                path: device.to_path_buf(),
                source,
            })?;
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
        // Explicit lengths: a UIO device file reports size 0, so nothing may be inferred from it.
        let mapping = |index: usize, len: usize| {
            MmapOptions::new()
                .offset(index as u64 * page)
                .len(len)
                .map_raw(&file)
                .map_err(|source| UioError::Map {
                    index,
                    path: device.to_path_buf(),
                    source,
                })
        };
        let regs = mapping(0, window_size)?;
        let dma = mapping(1, dma_size)?;
        let base = NonNull::new(dma.as_mut_ptr()).ok_or(UioError::Map {
            index: 1,
            path: device.to_path_buf(),
            source: std::io::Error::other("null mapping"),
        })?;
        // SAFETY: map 1 is page-aligned, `dma_size` bytes, kept mapped by `_dma` for as long as
        // the backend (and so the arena) lives, and the host reaches it only atomically.
        let arena = unsafe {
            LineArena::new(
                base,
                dma_size,
                dma_bus,
                "the UIO device's DMA region (map 1) is full",
            )
        };
        Ok(UioBackend {
            path: device.to_path_buf(),
            regs,
            _dma: dma,
            arena,
        })
    }
}

// SAFETY: map 0 is the device's register window, at least Device::SIZE bytes (checked),
// page-aligned, owned by this value (the mapping does not move with it), never referenced, and
// reached only by volatile accesses through the HAL. DMA regions are line-aligned pieces of
// map 1, zeroed on allocation, never handed out twice, at bus address map1.addr + offset, and
// read by the host only atomically.
unsafe impl Backend for UioBackend {
    type Mechanism = Volatile;

    fn window(&self) -> *mut u8 {
        self.regs.as_mut_ptr()
    }

    fn alloc_dma(&self, len: usize) -> Result<DmaRegion, DmaError> {
        self.arena.alloc(len)
    }

    fn free_dma(&self, region: DmaRegion) {
        self.arena.free(region);
    }

    fn now_ns(&self) -> u64 {
        super::clock::monotonic_ns()
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())
    }
}
