//! The two access mechanisms of the generated handles, over a plain buffer that stands in for
//! a register window. These tests touch memory only through raw pointers and are written to
//! run under Miri (`cargo +nightly miri test -p gba-pac --all-features`), which checks that
//! the handles create no reference to the window and that the atomic mechanism makes
//! concurrent use from several threads free of data races.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::sync::atomic::{AtomicU64, Ordering};

use gba_pac::common::{Atomic, Volatile};
use gba_pac::group::{ARRIVAL, CONTROL, STATUS};
use gba_pac::tock_registers::interfaces::{Readable, Writeable};
use gba_pac::{Device, group};

/// A zeroed, 8-byte-aligned allocation of `Device::SIZE` bytes, freed on drop, reached only
/// through its raw pointer.
struct Window {
    ptr: *mut u8,
    layout: Layout,
}

// SAFETY: the window is a heap allocation reached only through raw pointers; the tests that
// share it across threads use the atomic mechanism for every access.
unsafe impl Sync for Window {}

impl Window {
    fn new() -> Self {
        let layout = Layout::from_size_align(Device::SIZE, 8).expect("valid layout");
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        assert!(!ptr.is_null());
        Window { ptr, layout }
    }

    fn volatile(&self) -> Device<Volatile> {
        // SAFETY: the allocation is Device::SIZE bytes, 8-aligned, never referenced, and the
        // tests that use this handle touch the window from one thread only.
        unsafe { Device::from_ptr(self.ptr) }
    }

    fn atomic(&self) -> Device<Atomic> {
        // SAFETY: the allocation is Device::SIZE bytes, 8-aligned, never referenced, and every
        // access to it in the tests that use this handle is atomic.
        unsafe { Device::from_shared_ptr(self.ptr) }
    }

    /// The 64-bit word at `offset`, read atomically (the same kind of access the atomic
    /// handles make, so it may run beside them).
    fn word(&self, offset: usize) -> u64 {
        assert!(offset.is_multiple_of(8) && offset + 8 <= Device::SIZE);
        // SAFETY: in bounds and aligned (checked above), and every access to the window in
        // these tests is atomic or single-threaded.
        unsafe { AtomicU64::from_ptr(self.ptr.add(offset).cast()) }.load(Ordering::Relaxed)
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout; no handle outlives the test body.
        unsafe { dealloc(self.ptr, self.layout) }
    }
}

fn group_offset(g: usize) -> usize {
    0x1_0000 + g * group::Group::SIZE
}

#[test]
fn both_mechanisms_reach_the_same_bytes_with_the_same_vocabulary() {
    let window = Window::new();
    let control_offset = group_offset(2) + group::offset::CONTROL;

    let volatile = window.volatile().group(2).unwrap();
    volatile
        .control()
        .write(CONTROL::ENABLE::SET + CONTROL::ARM::SET);
    assert_eq!(window.word(control_offset), 0b101);

    let atomic = window.atomic().group(2).unwrap();
    assert!(atomic.control().is_set(CONTROL::ARM));
    atomic.control().modify(CONTROL::ARM::CLEAR);
    assert_eq!(window.word(control_offset), 0b001);
    assert_eq!(volatile.control().get(), 0b001);

    volatile.member_mask(11).unwrap().set(0xf);
    assert_eq!(atomic.member_mask(11).unwrap().get(), 0xf);
    atomic
        .member_count()
        .write(group::MEMBER_COUNT::COUNT.val(708));
    assert_eq!(
        volatile.member_count().read(group::MEMBER_COUNT::COUNT),
        708
    );
}

#[test]
fn write_one_bits_survive_modify_under_the_atomic_mechanism() {
    let window = Window::new();
    let control = window.atomic().group(0).unwrap().control();
    control.set(0b110); // write-1 RESET and ARM set, as the device might show them
    control.modify(CONTROL::ENABLE::SET);
    assert_eq!(window.word(group_offset(0) + group::offset::CONTROL), 0b101);
}

#[test]
fn block_array_bounds_hold_for_every_mechanism() {
    let window = Window::new();
    assert!(window.atomic().group(Device::GROUP_COUNT).is_none());
    assert!(window.volatile().group(Device::GROUP_COUNT).is_none());
    let last = window.atomic().group(Device::GROUP_COUNT - 1).unwrap();
    assert_eq!(
        last.as_ptr() as usize - window.ptr as usize,
        group_offset(Device::GROUP_COUNT - 1)
    );
    assert!(last.member_mask(group::Group::MEMBER_MASK_COUNT).is_none());
}

/// A release store on the doorbell publishes the writer's earlier plain writes to a reader
/// that observes the doorbell with an acquire load: the pattern the barrier relies on. Miri
/// reports a data race here if either access were volatile or relaxed.
#[test]
fn release_store_publishes_earlier_writes_to_an_acquire_reader() {
    let window = Window::new();
    /// A plain (non-atomic) location handed to the writer thread.
    #[derive(Clone, Copy)]
    struct Payload(*mut u64);
    // SAFETY: the two threads' accesses to the payload are ordered by the doorbell's
    // release store and acquire load, which is what the test checks.
    unsafe impl Send for Payload {}
    let payload = Payload(Box::into_raw(Box::new(0u64)));
    std::thread::scope(|scope| {
        let device = window.atomic();
        scope.spawn(move || {
            let payload = payload;
            // SAFETY: the reader touches the payload only after it has seen the doorbell
            // with acquire ordering, which this release store happens before.
            unsafe { payload.0.write(42) };
            device
                .group(1)
                .unwrap()
                .release_seq()
                .device_side()
                .set_release(1);
        });
        let release_seq = window.atomic().group(1).unwrap().release_seq();
        while release_seq.get_acquire() != 1 {
            std::hint::spin_loop();
        }
        // SAFETY: the acquire load above saw the writer's release store, so its write of the
        // payload happens before this read.
        assert_eq!(unsafe { payload.0.read() }, 42);
    });
    // SAFETY: allocated by `Box::into_raw` above; both threads are done with it.
    drop(unsafe { Box::from_raw(payload.0) });
}

/// Several threads hammer one window through atomic handles at once: a doorbell per thread
/// and a shared read-write register. No access tears, and Miri finds no race.
#[test]
fn threads_share_a_window_through_atomic_handles() {
    let window = Window::new();
    let device = window.atomic();
    const THREADS: usize = 4;
    const ROUNDS: u64 = if cfg!(miri) { 20 } else { 2000 };
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            scope.spawn(move || {
                let group = device.group(t).unwrap();
                for k in 1..=ROUNDS {
                    group
                        .arrival()
                        .write(ARRIVAL::MEMBER_ID.val(t as u64) + ARRIVAL::SEQUENCE.val(k));
                    let seen = device.group(0).unwrap().status().get();
                    // Every value in STATUS was written whole by one thread.
                    assert!(seen == 0 || seen & 0xff == 0b101, "torn read {seen:#x}");
                    device
                        .group(0)
                        .unwrap()
                        .status()
                        .device_side()
                        .write(STATUS::READY::SET + STATUS::COMPLETE::SET);
                }
            });
        }
    });
    for t in 0..THREADS {
        let word = window.word(group_offset(t) + group::offset::ARRIVAL);
        assert_eq!(word, ((t as u64) << 32) | ROUNDS);
    }
}

#[test]
fn device_side_view_reads_write_only_and_writes_read_only_registers() {
    let window = Window::new();
    let host = window.volatile().group(7).unwrap();
    host.arrival()
        .write(ARRIVAL::MEMBER_ID.val(3) + ARRIVAL::SEQUENCE.val(9));
    let device = host.arrival().device_side();
    assert_eq!(device.read(ARRIVAL::MEMBER_ID), 3);
    assert_eq!(device.read(ARRIVAL::SEQUENCE), 9);
    host.status()
        .device_side()
        .write(STATUS::ERROR::SET + STATUS::ERROR_CODE::MASK_MISMATCH);
    assert_eq!(
        host.status().read_as_enum(STATUS::ERROR_CODE),
        Some(STATUS::ERROR_CODE::Value::MASK_MISMATCH)
    );
}
