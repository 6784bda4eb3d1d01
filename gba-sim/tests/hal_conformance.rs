//! The backend conformance suite (`suite/conformance.rs`) on the backends a test can open here:
//! the simulator, plain memory and UIO over a fake sysfs (the kernel driver's runs in the
//! `kernel` stage's guest, `examples/conformance.rs`); and what UIO reports when it cannot open.

mod hal_common;
use hal_common as common;

#[path = "suite/conformance.rs"]
mod suite;

use std::path::Path;

use gba_hal::Device;
use gba_hal::backends::{MemoryBackend, UioBackend};
use gba_pac::global;
use gba_sim::SimBackend;
use suite::{Dma, conformance};

#[test]
fn simulator_port() {
    let (_dir, fabric) = common::fabric(3);
    conformance(SimBackend::attach(fabric, 2).unwrap(), 2, Dma::Any);
}

#[test]
fn plain_memory() {
    conformance(MemoryBackend::new(5), 5, Dma::Any);
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
    conformance(backend, 4, Dma::Any);
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
