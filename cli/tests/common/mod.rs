//! A UIO port faked over a simulator fabric (as `gba-barrier/tests/uio_host.rs` lays it out),
//! for the commands that open hardware ports.

use std::path::{Path, PathBuf};

use gba_sim::vm::{guest_ram_file, window_file};

/// Port `p`'s UIO device in a fake sysfs under `root`: `root/dev/uioP`, its window the
/// fabric's `window-P`, its DMA map (map 1) the port's guest RAM from one page on. Returns
/// the device node and the sysfs root (for `GBA_UIO_SYSFS`).
pub fn fake_uio(root: &Path, fabric: &Path, p: usize) -> (PathBuf, PathBuf) {
    let name = format!("uio{p}");
    let sysfs = root.join("sysfs");
    for (map, size, addr) in [(0, 0x100, 0xfe00_0000u64), (1, 0x2000, 0x1000)] {
        let dir = sysfs.join(format!("{name}/maps/map{map}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("size"), format!("{size:#x}\n")).unwrap();
        std::fs::write(dir.join("addr"), format!("{addr:#x}\n")).unwrap();
    }
    std::fs::create_dir_all(sysfs.join(format!("{name}/device"))).unwrap();
    std::os::unix::fs::symlink(
        window_file(fabric, p),
        sysfs.join(format!("{name}/device/resource2")),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("dev")).unwrap();
    let device = root.join("dev").join(&name);
    std::os::unix::fs::symlink(guest_ram_file(fabric, p), &device).unwrap();
    (device, sysfs)
}
