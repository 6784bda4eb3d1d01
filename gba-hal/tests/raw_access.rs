//! `Device::read_raw`/`write_raw`, the untyped accesses of tools that drive registers from a
//! description (`gba dump`, `gba verify --device`): an aligned 32- or 64-bit register inside
//! the window, or nothing.

use gba_hal::Device;
use gba_hal::backends::MemoryBackend;

#[test]
fn raw_accesses_reach_aligned_registers_inside_the_window_only() {
    let device = Device::new(MemoryBackend::new(0)).unwrap();
    let control = gba_pac::Device::SIZE - 0x1000; // the last group's CONTROL page
    assert!(device.write_raw(control, 64, 0x1234_5678_9abc_def0));
    assert_eq!(device.read_raw(control, 64), Some(0x1234_5678_9abc_def0));
    assert_eq!(device.read_raw(control + 4, 32), Some(0x1234_5678));
    assert!(device.write_raw(control, 32, 0xffff_ffff_0000_0001));
    assert_eq!(device.read_raw(control, 64), Some(0x1234_5678_0000_0001));
    let size = gba_pac::Device::SIZE;
    for (offset, width) in [
        (size, 32),
        (size - 4, 64),
        (control + 4, 64),
        (control, 16),
        (control + 2, 32),
    ] {
        assert!(
            !device.write_raw(offset, width, 0),
            "{width} bits at {offset:#x}"
        );
        assert_eq!(
            device.read_raw(offset, width),
            None,
            "{width} bits at {offset:#x}"
        );
    }
    assert!(!device.write_raw(usize::MAX - 3, 32, 0));
    // Nothing outside was written: the identity is intact.
    assert_eq!(
        device.read_raw(0, 32),
        Some(u64::from(gba_pac::global::reset::DEVICE_ID))
    );
}
