//! Hardware through Linux UIO: `/dev/uioN`, map 0 = the register window, map 1 = a DMA
//! region whose bus address sysfs gives.
//!
//! A generic PCI UIO driver (`uio_pci_generic`) exposes neither: its maps stop at BAR 0 and it
//! has no DMA region. Then the window is mapped from the device's PCI resource file
//! (`<sysfs>/uioN/device/resourceN`, the first BAR large enough, `O_SYNC`, shared) and DMA
//! memory is one locked page of this process whose physical address `/proc/self/pagemap`
//! gives (root only): the way DPDK runs over UIO without an IOMMU.
//!
//! Several processes of a host may open one port (one member per host, many processes): the
//! backend opens the port's host segment ([`crate::host::SegmentFile`], in `/run/gba`, named
//! from the device's PCI address or UIO name, its PORT_ID and the boot id), arbitrates the
//! port's groups in it and combines the processes' arrivals there, and gives group g's
//! release flag a fixed line every local process maps: line g of the DMA region's first page
//! (map 1 is one region of memory, the same for every process that maps it), or, without a
//! DMA map, line g of the segment file's flag page, locked by every process that opens the
//! port and found at its physical address (one tmpfs page, the same frame in every mapping).
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
use crate::HostArbiter;
use crate::backend::{Backend, DmaError, DmaRegion};
use crate::host::{FlagLines, SegmentArbiter, SegmentFile};

/// Where sysfs lists UIO devices.
pub const DEFAULT_SYSFS: &str = "/sys/class/uio";

/// Why a UIO device could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum UioError {
    /// The device node could not be opened.
    #[error("cannot open {}", path.display())]
    Open {
        /// The device node or sysfs file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A sysfs file of the device could not be read.
    #[error("cannot read {} (is this a UIO device with two maps?)", path.display())]
    Sysfs {
        /// The device node or sysfs file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    #[error("{} holds {text:?}, not a hexadecimal number", path.display())]
    /// A sysfs file holds no hexadecimal number.
    NotHex {
        /// The sysfs file.
        path: PathBuf,
        /// What it holds.
        text: String,
    },
    /// The register window is smaller than the register map.
    #[error(
        "map 0 of {} is {size:#x} bytes and no PCI resource file (device/resourceN) holds {needed:#x}: is this a GBA?",
        path.display()
    )]
    WindowTooSmall {
        /// The device node or sysfs file.
        path: PathBuf,
        /// The map's size in bytes.
        size: usize,
        /// Bytes needed.
        needed: usize,
    },
    /// No DMA memory: no map 1, and no physical address for memory of this process.
    #[error("{} has no DMA map and no physical memory could be set up", path.display())]
    Dma {
        /// The device node or sysfs file.
        path: PathBuf,
        /// Why no physical address.
        #[source]
        source: super::phys::PhysError,
    },
    /// The DMA map is smaller than the host's release flags.
    #[error(
        "map 1 of {} is {size:#x} bytes: the host's release flags need its first {needed:#x}",
        path.display()
    )]
    DmaTooSmall {
        /// The device node or sysfs file.
        path: PathBuf,
        /// The map's size in bytes.
        size: usize,
        /// Bytes needed.
        needed: usize,
    },
    /// The host segment could not be set up.
    #[error(
        "cannot set up the host segment of {} (where the host's processes arbitrate the port; its directory is {}, set {} to another directory you own that no other user can write)",
        path.display(), dir.display(), crate::host::SEGMENT_DIR_ENV
    )]
    HostSegment {
        /// The device node or sysfs file.
        path: PathBuf,
        /// The host segment's directory.
        dir: PathBuf,
        /// Why.
        #[source]
        source: crate::host::SegmentError,
    },
    /// The release-flag page could not be locked into memory.
    #[error("cannot lock the host's release-flag page of {} into memory (ulimit -l)", path.display())]
    LockFlags {
        /// The device node or sysfs file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A map could not be mapped.
    #[error("cannot map map {index} of {}", path.display())]
    Map {
        /// The map's index.
        index: usize,
        /// The device node or sysfs file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

/// A GBA port through Linux UIO (`/dev/uioN`): map 0 the register window, map 1 (or
/// pinned memory of this process) the DMA memory, and a host segment for the host's
/// processes to arbitrate the port.
#[derive(Debug)]
pub struct UioBackend {
    path: PathBuf,
    regs: MmapRaw,
    /// Kept mapped for the arena's regions.
    _dma: DmaMemory,
    arena: LineArena,
    /// The port's host segment: claims, local-arrivals blocks (and the flag page without map 1).
    segment: SegmentFile,
    /// The port's arbiter, over `segment`.
    host: SegmentArbiter,
    /// The host's flag memory: group g's release flag is its line g.
    flags: FlagLines,
}

const FLAG_LINES: usize = FlagLines::BYTES;

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

/// What names the device in its host segment's name: its PCI address when sysfs links the
/// UIO device to one, else the UIO name; then its PORT_ID.
fn identity(sysfs_dir: &Path, name: &str, port: u32) -> String {
    let pci = std::fs::read_link(sysfs_dir.join("device"))
        .ok()
        .and_then(|target| Some(target.file_name()?.to_string_lossy().into_owned()))
        .filter(|n| super::vfio::is_pci_address(n));
    format!("{}-port{port}", pci.as_deref().unwrap_or(name))
}

/// PORT_ID of the window at `window`.
///
/// # Safety
///
/// `window` is a mapped GBA register window of at least `Device::SIZE` bytes, reached
/// volatilely.
pub(super) unsafe fn port_id(window: *mut u8) -> u32 {
    use gba_pac::tock_registers::interfaces::Readable;
    // SAFETY: forwarded from the caller.
    let regs = unsafe { gba_pac::Device::<Volatile>::from_ptr(window) };
    regs.global().port_id().read(gba_pac::global::PORT_ID::PORT)
}

impl UioBackend {
    /// Opens `device` (e.g. `/dev/uio0`), reading its maps from `sysfs` (e.g.
    /// [`DEFAULT_UIO_SYSFS`](super::DEFAULT_UIO_SYSFS)), its host segment in `GBA_HOST_SEGMENT_DIR` or the caller's
    /// runtime directory (`/run/gba` for root: [`crate::host::segment_dir`]).
    pub fn open(device: &Path, sysfs: &Path) -> Result<Self, UioError> {
        let dir = crate::host::segment_dir().map_err(|source| UioError::HostSegment {
            path: device.to_path_buf(),
            dir: crate::shared::dir::runtime_dir_path(),
            source,
        })?;
        Self::open_in(device, sysfs, &dir)
    }

    /// As [`open`](Self::open), the host segment in `segment_dir` (tests).
    pub fn open_in(device: &Path, sysfs: &Path, segment_dir: &Path) -> Result<Self, UioError> {
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
        // SAFETY: the window just mapped, at least Device::SIZE bytes, reached volatilely.
        let port = unsafe { port_id(regs.as_mut_ptr()) };
        let identity = identity(&sysfs.join(&name), &name, port);
        let segment = SegmentFile::name(&identity)
            .and_then(|file| SegmentFile::open_or_create(segment_dir, &file, &identity))
            .map_err(|source| UioError::HostSegment {
                path: device.to_path_buf(),
                dir: segment_dir.to_path_buf(),
                source,
            })?;
        let dma_error = |source| UioError::Dma {
            path: device.to_path_buf(),
            source,
        };
        // The DMA memory: (what keeps it mapped, base, size, bus address, the flags' base and
        // bus address, what a full arena says). The flags take the first page of map 1; the
        // arena (memory of this process alone) the rest of it or, without map 1, a page of
        // its own.
        let (dma, base, dma_size, dma_bus, flags, flags_bus, full) = if has_dma_map {
            if dma_size < FLAG_LINES {
                return Err(UioError::DmaTooSmall {
                    path: device.to_path_buf(),
                    size: dma_size,
                    needed: FLAG_LINES,
                });
            }
            let dma = mapping(1, dma_size)?;
            let base = dma.as_mut_ptr();
            let skip = (page as usize).min(dma_size);
            (
                DmaMemory::Map(dma),
                base.wrapping_add(skip),
                dma_size - skip,
                dma_bus + skip as u64,
                base,
                dma_bus,
                "the UIO device's DMA region (map 1) is full",
            )
        } else {
            segment
                .lock_flag_page()
                .map_err(|source| UioError::LockFlags {
                    path: device.to_path_buf(),
                    source,
                })?;
            let flags = segment.flag_page().as_ptr();
            let flags_bus = super::phys::physical_address(flags as usize).map_err(dma_error)?;
            let pages = super::phys::PinnedPages::new(super::phys::page_size())
                .map_err(|e| dma_error(super::phys::PhysError::Pagemap(e)))?;
            let bus = pages.physical_address().map_err(dma_error)?;
            let (base, len) = (pages.ptr().as_ptr(), pages.len());
            (
                DmaMemory::Pinned(pages),
                base,
                len,
                bus,
                flags,
                flags_bus,
                "the UIO backend's DMA page is full",
            )
        };
        let null = || UioError::Map {
            index: 1,
            path: device.to_path_buf(),
            source: std::io::Error::other("null mapping"),
        };
        let base = NonNull::new(base).ok_or_else(null)?;
        let flags = NonNull::new(flags).ok_or_else(null)?;
        // SAFETY: the arena's memory (map 1 after its first page, or one locked page:
        // physically contiguous) is page-aligned, `dma_size` bytes, kept mapped by `_dma` for
        // as long as the backend (and so the arena) lives, and the host reaches it only
        // atomically.
        let arena = unsafe { LineArena::new(base, dma_size, dma_bus, full) };
        let host_key = crate::host::host_key(segment.path(), port as usize);
        // SAFETY: the flag memory (map 1's first page, at least FLAG_LINES bytes, checked; or
        // the segment's flag page) is page-aligned, kept mapped by `_dma` or `segment` for as
        // long as this value lives, every process of the host maps the same bytes, the device
        // reaches them at `flags_bus`, and every access to them is atomic.
        let flags = unsafe { FlagLines::new(flags, flags_bus) };
        // SAFETY: this value owns the segment's mapping and the flag memory (kept mapped as
        // said above) as long as it owns the arbiter.
        let host = unsafe {
            SegmentArbiter::new(
                segment.segment(),
                host_key,
                // A team-mate's flag is the group's line of the host's flag memory.
                Box::new(move |group, iova, len| flags.resolve(group, iova, len)),
            )
        };
        Ok(UioBackend {
            path: device.to_path_buf(),
            regs,
            _dma: dma,
            arena,
            host,
            segment,
            flags,
        })
    }

    /// The port's host segment file.
    pub fn segment_file(&self) -> &SegmentFile {
        &self.segment
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

    fn alloc_flag(&self, group: usize, len: usize) -> Result<DmaRegion, DmaError> {
        self.flags.alloc(group, len)
    }

    fn free_flag(&self, group: usize, region: DmaRegion) {
        // The line is the group's for good: nothing to give back.
        let _ = (group, region);
    }

    fn now_ns(&self) -> u64 {
        super::clock::monotonic_ns()
    }

    fn host(&self) -> &dyn HostArbiter {
        &self.host
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Claim, LocalTeam, MemberSet};
    use std::sync::atomic::{AtomicU64, Ordering};

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

        let segments = tempfile::tempdir().unwrap();
        match UioBackend::open_in(&device, &sysfs, segments.path()) {
            Ok(backend) => {
                // SAFETY: the first word of the window just mapped, 4-aligned, read volatilely.
                let first = unsafe { backend.window().cast::<u32>().read_volatile() };
                assert_eq!(first, 0x6ba0_0001, "the window is resource2, not map 0");
                let region = backend.alloc_dma(64).expect("a flag");
                assert_ne!(region.iova, 0, "the DMA page's physical address");
                assert_eq!(region.iova % 64, 0);
                // Without map 1 the flags are the host segment's flag page: one tmpfs (or page
                // cache) frame, at one physical address in every process's mapping of it.
                let other = UioBackend::open_in(&device, &sysfs, segments.path()).unwrap();
                let (mine, theirs) = (
                    backend.alloc_flag(3, 64).unwrap(),
                    other.alloc_flag(3, 64).unwrap(),
                );
                assert_eq!(mine.iova, theirs.iova, "one physical page");
                assert_ne!(mine.host, theirs.host, "two mappings of it");
                assert_ne!(
                    mine.iova & !0xfff,
                    region.iova & !0xfff,
                    "not the private page"
                );
            }
            // Physical addresses are shown to root only.
            Err(error) => {
                let chain = format!("{error}: {}", std::error::Error::source(&error).unwrap());
                assert!(chain.contains("run as root"), "{chain}");
            }
        }

        std::fs::remove_file(sysfs.join("uio3/device/resource2")).unwrap();
        let error = UioBackend::open_in(&device, &sysfs, segments.path()).unwrap_err();
        assert!(error.to_string().contains("resourceN"), "{error}");
    }

    /// A UIO device with a DMA map, as a platform UIO driver gives: map 0 small, the window in
    /// `device/resource2` (PORT_ID `port`), map 1 `dma` bytes at bus address 0x8000_0000 (in
    /// the fake device file at offset one page, where UIO's mmap convention puts it).
    fn fake_uio_with_dma(root: &Path, name: &str, port: u32, dma: usize) -> (PathBuf, PathBuf) {
        let device = root.join(name);
        std::fs::write(&device, vec![0u8; 4096 + dma]).unwrap();
        let sysfs = root.join("sysfs");
        for (map, size, addr) in [(0, 0x100, 0xfe00_0000u64), (1, dma, 0x8000_0000)] {
            let dir = sysfs.join(format!("{name}/maps/map{map}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("size"), format!("{size:#x}\n")).unwrap();
            std::fs::write(dir.join("addr"), format!("{addr:#x}\n")).unwrap();
        }
        std::fs::create_dir_all(sysfs.join(format!("{name}/device"))).unwrap();
        let mut window = vec![0u8; gba_pac::Device::SIZE];
        window[..4].copy_from_slice(&0x6ba0_0001u32.to_le_bytes());
        // PORT_ID is the global block's fourth register (offset 0xc).
        window[0xc..0x10].copy_from_slice(&port.to_le_bytes());
        std::fs::write(sysfs.join(format!("{name}/device/resource2")), &window).unwrap();
        (device, sysfs)
    }

    fn team(index: u32) -> LocalTeam {
        LocalTeam {
            key: crate::TeamKey::from_words([0x7ea, 0x7eb]).unwrap(),
            local: 2,
            index,
            rank: index,
        }
    }

    /// Issue 13 on hardware: two opens of one UIO port (as two processes of a host would)
    /// arbitrate its groups in one host segment, share the winner's release flag (one line
    /// both map) and combine their arrivals in one counter.
    #[test]
    fn two_opens_of_one_uio_port_share_claims_flag_and_combining() {
        let root = tempfile::tempdir().unwrap();
        let (device, sysfs) = fake_uio_with_dma(root.path(), "uio5", 3, 0x2000);
        let segments = tempfile::tempdir().unwrap();
        let a = UioBackend::open_in(&device, &sysfs, segments.path()).unwrap();
        let b = UioBackend::open_in(&device, &sysfs, segments.path()).unwrap();
        let outsider = UioBackend::open_in(&device, &sysfs, segments.path()).unwrap();
        assert_eq!(a.segment_file().path(), b.segment_file().path());
        let name = a
            .segment_file()
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy();
        assert!(name.starts_with("gba-host-uio5-port3-boot-"), "{name}");
        assert!(a.host().host_key().is_some());
        assert_eq!(
            a.host().host_key(),
            b.host().host_key(),
            "one host segment, one host key"
        );

        // The winner configures; its team-mate waits, then joins; another team is refused.
        assert_eq!(
            a.host().claim(4, Some(&team(0)), &MemberSet::new()),
            Claim::Won
        );
        assert_eq!(
            b.host().claim(4, Some(&team(1)), &MemberSet::new()),
            Claim::Wait
        );
        assert_eq!(
            outsider.host().claim(4, None, &MemberSet::new()),
            Claim::Wait,
            "CLAIMING: ask again"
        );
        let flag = a.alloc_flag(4, 64).unwrap();
        assert_eq!(
            flag.iova,
            0x8000_0000 + 4 * 64,
            "group 4's line of map 1's first page"
        );
        assert!(a.host().hold(4, &flag));
        assert_eq!(
            outsider.host().claim(4, None, &MemberSet::new()),
            Claim::Busy,
            "HELD by another team"
        );
        let Claim::Joined { flag: joined } = b.host().claim(4, Some(&team(1)), &MemberSet::new())
        else {
            panic!("the team-mate joins the held claim")
        };
        assert_eq!(joined.iova, flag.iova);
        assert_ne!(joined.host, flag.host, "two mappings of one line");
        // SAFETY: both are the flag line (8-aligned, mapped while the backends live), reached
        // atomically only.
        let (wa, wb) = unsafe {
            (
                AtomicU64::from_ptr(flag.host.as_ptr().cast()),
                AtomicU64::from_ptr(joined.host.as_ptr().cast()),
            )
        };
        wa.store(41, Ordering::Release);
        assert_eq!(
            wb.load(Ordering::Acquire),
            41,
            "the device's write reaches both"
        );
        assert_eq!(outsider.host().claimed_groups().0, 1 << 4);
        assert_eq!(
            outsider.alloc_dma(64).unwrap().iova,
            0x8000_1000,
            "the arena follows the flags"
        );

        // LocalArrivals: two arrivals per episode, exactly the second completes the host's count.
        let (ca, cb) = (
            a.host().local_arrivals(4).unwrap(),
            b.host().local_arrivals(4).unwrap(),
        );
        assert_eq!((ca.local, cb.local), (2, 2));
        let mut doorbells = 0;
        for episode in 0..3u64 {
            for c in [&ca, &cb] {
                c.enter(episode + 1);
                if (c.add() + 1).is_multiple_of(c.local) {
                    doorbells += 1;
                }
            }
            assert_eq!(doorbells, episode + 1, "one doorbell per episode");
        }
        // Any open of the port reports the claim, through its arbiter.
        let claims = outsider.host().claim_list();
        assert_eq!(claims.len(), 1);
        assert_eq!(
            (claims[0].group, claims[0].joined, claims[0].local),
            (4, 2, 2)
        );
        assert_eq!(outsider.host().slot_list(4).len(), 2);

        // The first to leave is not the last; the last resets and frees.
        assert!(!b.host().leave(4));
        assert!(a.host().leave(4));
        a.free_flag(4, flag);
        a.host().release(4);
        assert_eq!(outsider.host().claimed_groups().0, 0);
        assert_eq!(
            outsider.host().claim(4, None, &MemberSet::new()),
            Claim::Won
        );
    }

    #[test]
    fn a_dma_map_smaller_than_the_flag_lines_is_refused_by_name() {
        let root = tempfile::tempdir().unwrap();
        let (device, sysfs) = fake_uio_with_dma(root.path(), "uio6", 0, 0x400);
        let segments = tempfile::tempdir().unwrap();
        let error = UioBackend::open_in(&device, &sysfs, segments.path()).unwrap_err();
        assert!(matches!(error, UioError::DmaTooSmall { .. }), "{error}");
    }

    #[test]
    fn a_segment_directory_that_does_not_exist_is_named() {
        let root = tempfile::tempdir().unwrap();
        let (device, sysfs) = fake_uio_with_dma(root.path(), "uio8", 2, 0x2000);
        let missing = root.path().join("no-such-dir");
        let error = UioBackend::open_in(&device, &sysfs, &missing).unwrap_err();
        assert!(matches!(error, UioError::HostSegment { .. }), "{error}");
        let text = error.to_string();
        assert!(text.contains("no-such-dir"), "{text}");
        assert!(text.contains("GBA_HOST_SEGMENT_DIR"), "{text}");
    }

    #[test]
    fn a_segment_of_another_device_is_refused_by_name() {
        let root = tempfile::tempdir().unwrap();
        let (device, sysfs) = fake_uio_with_dma(root.path(), "uio7", 1, 0x2000);
        let segments = tempfile::tempdir().unwrap();
        let opened = UioBackend::open_in(&device, &sysfs, segments.path()).unwrap();
        let path = opened.segment_file().path().to_path_buf();
        drop(opened);
        // Another file under the segment's name (what a stale or foreign file would be).
        std::fs::write(&path, b"not a segment").unwrap();
        let error = UioBackend::open_in(&device, &sysfs, segments.path()).unwrap_err();
        let chain = format!("{error}: {}", std::error::Error::source(&error).unwrap());
        assert!(chain.contains("GBA_HOST_SEGMENT_DIR"), "{chain}");
        assert!(chain.contains("bytes"), "{chain}");
    }
}
