//! Hardware through Linux UIO: `/dev/uioN`, map 0 = the register window, map 1 = a DMA
//! region whose bus address sysfs gives.
//!
//! A generic PCI UIO driver (`uio_pci_generic`) exposes neither: its maps stop at BAR 0 and it
//! has no DMA region. Then the window is mapped from the device's PCI resource file
//! (`<sysfs>/uioN/device/resourceN`, the first BAR large enough, `O_SYNC`, shared) and DMA
//! memory is one locked page of this process whose physical address `/proc/self/pagemap`
//! gives (root only): the way DPDK runs over UIO without an IOMMU.
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
        "map 0 of {} is {size:#x} bytes and no PCI resource file (device/resourceN) holds {needed:#x}: is this a GBA?",
        path.display()
    )]
    WindowTooSmall {
        path: PathBuf,
        size: usize,
        needed: usize,
    },
    #[error("{} has no DMA map and no physical memory could be set up", path.display())]
    Dma {
        path: PathBuf,
        #[source]
        source: super::phys::PhysError,
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
    /// Kept mapped for the arena's regions.
    _dma: DmaMemory,
    arena: LineArena,
}

/// Where the DMA arena lives (held for its `Drop`: the arena points into it).
#[derive(Debug)]
#[allow(dead_code)]
enum DmaMemory {
    /// UIO's map 1.
    Map(MmapRaw),
    /// A locked page of this process, at its physical address.
    Pinned(super::phys::PinnedPages),
}

/// The first PCI resource file of the UIO device `dir` holding at least `needed` bytes.
fn resource_file(dir: &Path, needed: usize) -> Option<PathBuf> {
    (0..6)
        .map(|bar| dir.join(format!("device/resource{bar}")))
        .find(|path| std::fs::metadata(path).is_ok_and(|m| m.len() >= needed as u64))
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
        let resource = if window_size < gba_pac::Device::SIZE {
            let Some(path) = resource_file(&sysfs.join(&name), gba_pac::Device::SIZE) else {
                return Err(UioError::WindowTooSmall {
                    path: device.to_path_buf(),
                    size: window_size,
                    needed: gba_pac::Device::SIZE,
                });
            };
            Some(path)
        } else {
            None
        };
        let has_dma_map = sysfs.join(&name).join("maps/map1").exists();
        let (dma_size, dma_bus) = if has_dma_map {
            (
                read_hex(&map(1, "size"))? as usize,
                read_hex(&map(1, "addr"))?,
            )
        } else {
            (0, 0)
        };
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
        let regs = match &resource {
            None => mapping(0, window_size)?,
            Some(path) => {
                use std::os::unix::fs::OpenOptionsExt;
                // O_SYNC: the kernel maps a resource file uncached only when asked.
                let file = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .custom_flags(libc::O_SYNC)
                    .open(path)
                    .map_err(|source| UioError::Open {
                        path: path.clone(),
                        source,
                    })?;
                MmapOptions::new()
                    .len(gba_pac::Device::SIZE)
                    .map_raw(&file)
                    .map_err(|source| UioError::Map {
                        index: 0,
                        path: path.clone(),
                        source,
                    })?
            }
        };
        let (dma, base, dma_size, dma_bus, full) = if has_dma_map {
            let dma = mapping(1, dma_size)?;
            let base = dma.as_mut_ptr();
            (
                DmaMemory::Map(dma),
                base,
                dma_size,
                dma_bus,
                "the UIO device's DMA region (map 1) is full",
            )
        } else {
            let dma_error = |source| UioError::Dma {
                path: device.to_path_buf(),
                source,
            };
            let pages = super::phys::PinnedPages::new(super::phys::page_size())
                .map_err(|e| dma_error(super::phys::PhysError::Pagemap(e)))?;
            let bus = pages.physical_address().map_err(dma_error)?;
            let (base, len) = (pages.ptr().as_ptr(), pages.len());
            (
                DmaMemory::Pinned(pages),
                base,
                len,
                bus,
                "the UIO backend's DMA page is full",
            )
        };
        let base = NonNull::new(base).ok_or(UioError::Map {
            index: 1,
            path: device.to_path_buf(),
            source: std::io::Error::other("null mapping"),
        })?;
        // SAFETY: the DMA memory (map 1, or one locked page: physically contiguous) is
        // page-aligned, `dma_size` bytes, kept mapped by `_dma` for as long as the backend (and
        // so the arena) lives, and the host reaches it only atomically.
        let arena = unsafe { LineArena::new(base, dma_size, dma_bus, full) };
        Ok(UioBackend {
            path: device.to_path_buf(),
            regs,
            _dma: dma,
            arena,
        })
    }
}

// SAFETY: map 0 (or the PCI resource file) is the device's register window, at least
// Device::SIZE bytes (checked),
// page-aligned, owned by this value (the mapping does not move with it), never referenced, and
// reached only by volatile accesses through the HAL. DMA regions are line-aligned pieces of
// the DMA memory, zeroed on allocation, never handed out twice, at its bus address + offset,
// and read by the host only atomically.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// uio_pci_generic's shape: map 0 is a small BAR, no map 1, the window in a resource file.
    #[test]
    fn a_pci_uio_device_maps_its_window_from_the_resource_file() {
        let root = tempfile::tempdir().unwrap();
        let device = root.path().join("uio3");
        std::fs::write(&device, vec![0u8; 4096]).unwrap();
        let sysfs = root.path().join("sysfs");
        let map0 = sysfs.join("uio3/maps/map0");
        std::fs::create_dir_all(&map0).unwrap();
        std::fs::write(map0.join("size"), "0x100\n").unwrap();
        std::fs::write(map0.join("addr"), "0xfe000000\n").unwrap();
        std::fs::create_dir_all(sysfs.join("uio3/device")).unwrap();
        std::fs::write(sysfs.join("uio3/device/resource0"), [0u8; 256]).unwrap();
        let mut window = vec![0u8; gba_pac::Device::SIZE];
        window[..4].copy_from_slice(&0x6ba0_0001u32.to_le_bytes());
        std::fs::write(sysfs.join("uio3/device/resource2"), &window).unwrap();

        match UioBackend::open(&device, &sysfs) {
            Ok(backend) => {
                // SAFETY: the first word of the window just mapped, 4-aligned, read volatilely.
                let first = unsafe { backend.window().cast::<u32>().read_volatile() };
                assert_eq!(first, 0x6ba0_0001, "the window is resource2, not map 0");
                let region = backend.alloc_dma(64).expect("a flag");
                assert_ne!(region.iova, 0, "the DMA page's physical address");
                assert_eq!(region.iova % 64, 0);
            }
            // Physical addresses are shown to root only.
            Err(error) => {
                let chain = format!("{error}: {}", std::error::Error::source(&error).unwrap());
                assert!(chain.contains("run as root"), "{chain}");
            }
        }

        std::fs::remove_file(sysfs.join("uio3/device/resource2")).unwrap();
        let error = UioBackend::open(&device, &sysfs).unwrap_err();
        assert!(error.to_string().contains("resourceN"), "{error}");
    }
}
