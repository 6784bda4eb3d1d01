//! A fabric laid out for virtual machines (`gba_sim::vm`): per-port window files and guest RAM
//! files. Here each "guest" is a thread that maps its port's two files itself, as QEMU does
//! (the window as a BAR, the RAM as the guest's physical memory), and writes the flag's
//! guest-physical address into RELEASE_ADDR, as the UIO and VFIO backends do in a guest; a
//! second mapping of the fabric steps the switch, as `gba sim run` does.

mod hal_common;
use hal_common as common;

use std::fmt;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use gba_hal::{Backend, Device, DmaError, DmaRegion, GroupConfig, MemberSet};
use gba_pac::common::Atomic;
use gba_pac::tock_registers::interfaces::Readable;
use gba_sim::vm::{WINDOW_FILE_SIZE, guest_ram_file, window_file};
use gba_sim::{CreateOptions, Fabric};
use memmap2::{MmapOptions, MmapRaw};

const GUEST_RAM: u64 = 1 << 20;
const PAGE: usize = 4096;
const TIMEOUT: Duration = Duration::from_secs(60);

fn vm_fabric(ports: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir_in("/dev/shm").unwrap_or_else(|_| tempfile::tempdir().unwrap());
    let path = dir.path().join("fabric");
    let options = CreateOptions {
        per_port_windows: true,
        guest_ram: Some(GUEST_RAM),
    };
    Fabric::create_with(&path, ports, options).expect("fabric");
    (dir, path)
}

fn map(path: &Path, len: usize) -> MmapRaw {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .expect("open");
    MmapOptions::new().len(len).map_raw(&file).expect("map")
}

/// A guest's view of its port: the window file as its BAR, the RAM file as its physical
/// memory; DMA pages from physical page `first_page` on, the IOVA being the page's physical
/// address (what the UIO backend reads from pagemap, what VFIO's `physical` IOVAs are).
struct GuestBackend {
    window: MmapRaw,
    ram: MmapRaw,
    next_page: AtomicUsize,
    /// Added to every IOVA (0: the physical address; else a wrong one, for the fault test).
    iova_shift: u64,
}

impl GuestBackend {
    fn open(fabric: &Path, port: usize, first_page: usize) -> GuestBackend {
        GuestBackend {
            window: map(&window_file(fabric, port), WINDOW_FILE_SIZE),
            ram: map(&guest_ram_file(fabric, port), GUEST_RAM as usize),
            next_page: AtomicUsize::new(first_page),
            iova_shift: 0,
        }
    }
}

// SAFETY: the window is this value's own mapping of the port's window file (WINDOW_FILE_SIZE
// >= Device::SIZE bytes, page-aligned), never referenced, accessed by the HAL and the switch
// only atomically. A DMA region is one whole page of this value's own mapping of the guest
// RAM file, handed out once (the counter only grows), zero (the file is new and no page is
// handed out twice), at the page's offset, which is its guest-physical address in a guest
// RAM below the PCI hole (plus `iova_shift`: what the device is told, not the host side); it
// lives as long as the mapping, and host and switch access it
// atomically.
unsafe impl Backend for GuestBackend {
    type Mechanism = Atomic;

    fn window(&self) -> *mut u8 {
        self.window.as_mut_ptr()
    }

    fn alloc_dma(&self, len: usize) -> Result<DmaRegion, DmaError> {
        let page = self.next_page.fetch_add(1, Ordering::Relaxed);
        if len > PAGE || (page + 1) * PAGE > GUEST_RAM as usize {
            return Err(DmaError {
                reason: "out of guest pages",
            });
        }
        Ok(DmaRegion {
            host: NonNull::new(self.ram.as_mut_ptr().wrapping_add(page * PAGE)).unwrap(),
            iova: (page * PAGE) as u64 + self.iova_shift,
            len: PAGE,
        })
    }

    fn free_dma(&self, _region: DmaRegion) {}

    fn now_ns(&self) -> u64 {
        gba_hal::backends::monotonic_ns()
    }

    /// One value per port, one process: nothing to arbitrate.
    fn host(&self) -> &dyn gba_hal::HostArbiter {
        &gba_hal::Exclusive
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a test guest")
    }
}

/// Steps the switch of the fabric at `path` (a mapping of its own) until `stop`.
fn stepper(path: &Path, stop: &AtomicBool) {
    let fabric = Fabric::open(path).expect("open");
    assert!(fabric.per_port_windows() && fabric.has_guest_ram(0));
    while !stop.load(Ordering::Relaxed) {
        fabric.step();
        std::thread::yield_now();
    }
}

#[test]
fn releases_land_in_guest_ram_at_the_guest_physical_address() {
    const PORTS: usize = 3;
    const EPISODES: u64 = 300;
    let (_dir, path) = vm_fabric(PORTS);
    let all: MemberSet = (0..PORTS).collect();
    let stop = AtomicBool::new(false);
    let flags: Vec<u64> = std::thread::scope(|s| {
        s.spawn(|| stepper(&path, &stop));
        let members: Vec<_> = (0..PORTS)
            .map(|p| {
                let path = &path;
                s.spawn(move || {
                    // Each guest's flag on another physical page.
                    let device = Device::new(GuestBackend::open(path, p, 16 + p)).expect("a GBA");
                    let g = device
                        .claim(GroupConfig::new(2, all).timeout(Some(TIMEOUT)))
                        .expect("configure");
                    let start = u64::from(g.start_sequence());
                    for k in start + 1..=start + EPISODES {
                        common::arrive(&g, k);
                        if let Err(snapshot) = common::wait(&g, k, TIMEOUT) {
                            panic!("port {p}, episode {k}: {snapshot}");
                        }
                    }
                    g.flag().load()
                })
            })
            .collect();
        let flags = members.into_iter().map(|m| m.join().unwrap()).collect();
        stop.store(true, Ordering::Relaxed);
        flags
    });
    let fabric = Fabric::open(&path).expect("open");
    for (p, flag) in flags.iter().enumerate() {
        assert_eq!(*flag as u32, EPISODES as u32, "port {p}'s flag");
        // The switch wrote the guest's RAM at the physical address the guest gave it.
        let addr = ((16 + p) * PAGE) as u64;
        assert_eq!(fabric.dma_word(p, addr).unwrap().load(), *flag);
        assert_eq!(fabric.global(p).barriers_completed().get(), EPISODES);
    }
    // And nothing in the ports' arenas.
    let arenas = std::fs::read(path.join("arenas")).unwrap();
    assert!(arenas.iter().all(|&b| b == 0));
}

#[test]
fn a_release_address_outside_guest_ram_is_a_dma_fault() {
    let (_dir, path) = vm_fabric(1);
    let stop = AtomicBool::new(false);
    let one: MemberSet = [0].into_iter().collect();
    std::thread::scope(|s| {
        s.spawn(|| stepper(&path, &stop));
        // The last page of RAM is RAM.
        let last = GUEST_RAM as usize / PAGE - 1;
        let device = Device::new(GuestBackend::open(&path, 0, last)).expect("a GBA");
        let g = device.claim(GroupConfig::new(0, one).timeout(Some(TIMEOUT)));
        assert!(g.is_ok(), "the last page of guest RAM: {:?}", g.err());
        drop(g);
        // A flag the guest's driver placed past its RAM (as if it gave a host address).
        let mut wrong = GuestBackend::open(&path, 0, 1);
        wrong.iova_shift = GUEST_RAM;
        let device = Device::new(wrong).expect("a GBA");
        let error = device
            .claim(GroupConfig::new(1, one).timeout(Some(TIMEOUT)))
            .expect_err("RELEASE_ADDR outside guest RAM");
        stop.store(true, Ordering::Relaxed);
        assert!(error.to_string().contains("DMA_FAULT"), "{error}");
    });
    let fabric = Fabric::open(&path).expect("open");
    assert!(
        fabric.dma_word(0, GUEST_RAM).is_none(),
        "past the end of RAM"
    );
    assert!(fabric.dma_word(0, GUEST_RAM - 8).is_some());
    assert!(fabric.dma_word(0, 0xb000_0000).is_none(), "the PCI hole");
    assert!(
        fabric.dma_word(0, gba_sim::layout::IOVA_BASE).is_none(),
        "an arena IOVA names nothing on a guest's port"
    );
}

#[test]
fn per_port_windows_carry_host_members_too_and_destroy_removes_every_file() {
    let (_dir, path) = vm_fabric(2);
    let fabric = std::sync::Arc::new(Fabric::open(&path).expect("open"));
    // Identity registers are in each port's own file.
    for p in 0..2 {
        let bytes = std::fs::read(window_file(&path, p)).unwrap();
        assert_eq!(bytes.len(), WINDOW_FILE_SIZE);
        assert_eq!(fabric.global(p).port_id().get() as usize, p);
    }
    assert!(!path.join("windows").exists());
    drop(fabric);
    Fabric::destroy(&path).expect("destroy");
    assert!(!path.exists(), "every file removed, and the directory");
}
