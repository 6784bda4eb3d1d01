//! One suite every backend must pass: the window reads as a GBA with the backend's identity,
//! DMA memory is aligned, zeroed, disjoint and reusable, so is a group's release flag, progress
//! can be called.

mod hal_common;
use hal_common as common;

use std::path::Path;

use gba_hal::backends::{MemoryBackend, UioBackend};
use gba_hal::{Backend, Device};
use gba_pac::global;
use gba_sim::SimBackend;

fn conformance<B: Backend>(backend: B, port: usize) {
    let name = format!("{}", DescribeOf(&backend));
    assert!(!name.is_empty());
    let device = Device::new(backend).unwrap_or_else(|e| panic!("{name}: {e}"));
    let id = device.identity();
    assert_eq!(id.port, port, "{name}: PORT_ID");
    assert_eq!(id.max_members, gba_pac::MAX_MEMBERS, "{name}: CAPS");
    assert_eq!(id.max_groups, gba_pac::MAX_GROUPS, "{name}: CAPS");
    assert_eq!(u32::from(id.version_major), global::reset::VERSION >> 16);
    assert_eq!(device.free_groups().0, u32::MAX, "{name}: every group free");

    let backend = device.backend();
    let a = backend.alloc_dma(64).expect("64 bytes");
    let b = backend.alloc_dma(200).expect("200 bytes");
    let c = backend.alloc_dma(8).expect("8 bytes");
    for r in [a, b, c] {
        assert!(r.host.as_ptr().addr().is_multiple_of(64), "{name}: aligned");
        assert!(r.iova.is_multiple_of(64), "{name}: IOVA aligned");
        assert_ne!(
            r.iova,
            r.host.as_ptr().addr() as u64,
            "{name}: an IOVA is not a pointer"
        );
    }
    // Disjoint cache lines, host and device side alike.
    let mut spans: Vec<(u64, u64)> = [a, b, c]
        .iter()
        .map(|r| (r.iova, r.iova + r.len.div_ceil(64) as u64 * 64))
        .collect();
    spans.sort();
    assert!(
        spans.windows(2).all(|w| w[0].1 <= w[1].0),
        "{name}: overlap {spans:?}"
    );
    // Zeroed, even after reuse of freed memory that was written.
    let word = |r: &gba_hal::DmaRegion| {
        // SAFETY: the region is live, 64-aligned, and reached only atomically.
        unsafe { std::sync::atomic::AtomicU64::from_ptr(r.host.as_ptr().cast()) }
    };
    assert_eq!(word(&b).load(std::sync::atomic::Ordering::Acquire), 0);
    word(&b).store(0xdead, std::sync::atomic::Ordering::Release);
    backend.free_dma(b);
    let again = backend.alloc_dma(200).expect("freed memory is reused");
    assert_eq!(
        again.iova, b.iova,
        "{name}: first fit reuses the freed lines"
    );
    assert_eq!(
        word(&again).load(std::sync::atomic::Ordering::Acquire),
        0,
        "{name}: zeroed"
    );
    for r in [a, again, c] {
        backend.free_dma(r);
    }
    // A group's release flag (what a claim's winner takes): a zeroed line of its own, even
    // where it was written before.
    let flag = backend.alloc_flag(5, 64).expect("a flag");
    assert!(
        flag.host.as_ptr().addr().is_multiple_of(64),
        "{name}: flag aligned"
    );
    assert!(flag.iova.is_multiple_of(64), "{name}: flag IOVA aligned");
    word(&flag).store(0xbeef, std::sync::atomic::Ordering::Release);
    backend.free_flag(5, flag);
    let flag = backend.alloc_flag(5, 64).expect("the flag again");
    assert_eq!(
        word(&flag).load(std::sync::atomic::Ordering::Acquire),
        0,
        "{name}: flag zeroed"
    );
    backend.free_flag(5, flag);
    device.progress();
    let snapshot = device.snapshot(0).expect("group 0 exists");
    assert!(!snapshot.ready && snapshot.error.is_none());
    assert!(device.snapshot(gba_pac::MAX_GROUPS).is_err());
}

struct DescribeOf<'a, B: Backend>(&'a B);
impl<B: Backend> std::fmt::Display for DescribeOf<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.describe(f)
    }
}

#[test]
fn simulator_port() {
    let (_dir, fabric) = common::fabric(3);
    conformance(SimBackend::attach(fabric, 2).unwrap(), 2);
}

#[test]
fn plain_memory() {
    conformance(MemoryBackend::new(5), 5);
}

/// A fake UIO device: an ordinary file and a sysfs tree of ordinary files. UIO maps region N
/// at N pages into the device file, so in one ordinary file map 1 (16 KiB at one page) aliases
/// window bytes 0x1000..0x5000, which the register map leaves unused (the global block ends at
/// 0x1000, group 0 starts at 0x10000).
fn fake_uio(root: &Path, port: u32) -> std::path::PathBuf {
    let device = root.join("uio7");
    let window = vec![0u8; gba_pac::Device::SIZE];
    std::fs::write(&device, &window).unwrap();
    let put = |offset: usize, value: u32| {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&device)
            .unwrap();
        f.seek(SeekFrom::Start(offset as u64)).unwrap();
        f.write_all(&value.to_le_bytes()).unwrap();
    };
    put(global::offset::DEVICE_ID, global::reset::DEVICE_ID);
    put(global::offset::VERSION, global::reset::VERSION);
    put(global::offset::CAPS, global::reset::CAPS);
    put(
        global::offset::PORT_ID,
        global::PORT_ID::PORT.val(port).value,
    );
    for (map, size, addr) in [
        (0, gba_pac::Device::SIZE, 0xfe00_0000u64),
        (1, 0x4000, 0x8_0000_0000),
    ] {
        let dir = root.join(format!("sysfs/uio7/maps/map{map}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("size"), format!("0x{size:x}\n")).unwrap();
        std::fs::write(dir.join("addr"), format!("0x{addr:x}\n")).unwrap();
    }
    device
}

#[test]
fn uio_over_a_fake_sysfs() {
    let root = tempfile::tempdir().unwrap();
    let device = fake_uio(root.path(), 4);
    let backend =
        UioBackend::open_in(&device, &root.path().join("sysfs"), root.path()).expect("open");
    conformance(backend, 4);
}

#[test]
fn uio_reports_what_is_missing() {
    let root = tempfile::tempdir().unwrap();
    let device = fake_uio(root.path(), 4);
    std::fs::remove_file(root.path().join("sysfs/uio7/maps/map1/addr")).unwrap();
    let error = UioBackend::open_in(&device, &root.path().join("sysfs"), root.path()).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("map1/addr"), "{text}");
    std::fs::write(root.path().join("sysfs/uio7/maps/map0/size"), "0x100\n").unwrap();
    let error = UioBackend::open_in(&device, &root.path().join("sysfs"), root.path()).unwrap_err();
    assert!(error.to_string().contains("0x100"), "{error}");
}

#[test]
fn a_window_that_is_not_a_gba_is_refused_by_name() {
    // A window whose DEVICE_ID is wrong is refused by name.
    let root = tempfile::tempdir().unwrap();
    let device = fake_uio(root.path(), 0);
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&device)
            .unwrap();
        f.seek(SeekFrom::Start(global::offset::DEVICE_ID as u64))
            .unwrap();
        f.write_all(&0x1234_5678u32.to_le_bytes()).unwrap();
    }
    let backend = UioBackend::open_in(&device, &root.path().join("sysfs"), root.path()).unwrap();
    let error = Device::new(backend).unwrap_err();
    assert!(error.to_string().contains("not a GBA"), "{error}");
    assert!(error.to_string().contains("0x12345678"), "{error}");
}
