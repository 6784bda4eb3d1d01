//! A `Port` over gba-pac's generated register handles on a plain buffer standing in for the
//! register window (the shape gba-hal's port takes): the doorbell word lands in group g's
//! ARRIVAL register with the member id intact, across the 2^32 wrap.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::sync::atomic::{AtomicU64, Ordering};

use gba_barrier::{Barrier, Diagnosis, Port, release_before_doorbell};
use gba_pac::Device;
use gba_pac::group::{ARRIVAL, Group};
use gba_pac::tock_registers::interfaces::Writeable;

struct PacPort<'f> {
    group: Group,
    index: u32,
    member: u32,
    flag: &'f AtomicU64,
}

impl Port for PacPort<'_> {
    fn group(&self) -> u32 {
        self.index
    }
    fn member(&self) -> u32 {
        self.member
    }
    fn ring(&self, word: u64) {
        release_before_doorbell();
        self.group.arrival().set(word);
    }
    fn flag(&self) -> u64 {
        self.flag.load(Ordering::Acquire)
    }
    fn diagnose(&self) -> Diagnosis {
        Diagnosis::default()
    }
}

/// A zeroed, page-aligned buffer of the window's size, freed on drop; only its address is
/// ever handed out.
struct Window(*mut u8, Layout);

impl Window {
    fn new() -> Self {
        let layout = Layout::from_size_align(Device::SIZE, 4096).unwrap();
        // SAFETY: non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        assert!(!ptr.is_null());
        Window(ptr, layout)
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout; the device handles are gone (they
        // borrow nothing, but the tests drop them before the window).
        unsafe { dealloc(self.0, self.1) }
    }
}

#[test]
fn doorbell_lands_in_the_groups_arrival_register() {
    let window = Window::new();
    // SAFETY: the buffer is Device::SIZE bytes, 4096-aligned, lives until the end of the
    // test, is never referenced, and is accessed from this thread only through the handles
    // and the volatile read below.
    let device = unsafe { Device::from_ptr(window.0) };
    for (index, member, completed) in [
        (0u32, 0u32, 0u64),
        (31, 707, (1 << 32) - 2),
        (5, 3, 7 << 32),
    ] {
        let group = device.group(index as usize).unwrap();
        // A release flag already at the last episode this test runs.
        let flag = AtomicU64::new(completed.wrapping_add(3) & 0xffff_ffff);
        let mut barrier = Barrier::resume_at(
            PacPort {
                group,
                index,
                member,
                flag: &flag,
            },
            completed,
        );
        for k in completed + 1..=completed + 3 {
            barrier.wait(None).unwrap();
            // SAFETY: the register lies inside the live window and is 8-byte aligned; a
            // volatile read, as the handles do.
            let word = unsafe { group.arrival().as_ptr().read_volatile() };
            let reg =
                gba_pac::tock_registers::LocalRegisterCopy::<u64, ARRIVAL::Register>::new(word);
            assert_eq!(
                reg.read(ARRIVAL::MEMBER_ID),
                u64::from(member),
                "word {word:#x}"
            );
            assert_eq!(
                reg.read(ARRIVAL::SEQUENCE),
                k & 0xffff_ffff,
                "word {word:#x}"
            );
        }
    }
}
