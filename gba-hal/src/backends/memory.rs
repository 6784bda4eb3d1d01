//! Plain memory as a device, for unit tests: a zeroed window whose identity registers hold
//! the spec's reset values, and a heap DMA region. No switch: nothing ever becomes READY.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::fmt;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use gba_pac::common::Atomic;
use gba_pac::global::{self, PORT_ID};

use super::arena::LineArena;
use crate::backend::{Backend, DmaError, DmaRegion};

/// Bytes of the DMA region.
const DMA_BYTES: usize = 64 * 1024;
/// The device address of the DMA region's first byte (any non-zero value; a test may check
/// that the HAL writes this and not a host pointer).
pub const MEMORY_IOVA_BASE: u64 = 0x0D0A_0000_0000;

/// Plain memory as a device: a zeroed window whose identity registers read as a GBA, and a
/// heap DMA region. No switch: nothing ever becomes READY (unit tests).
#[derive(Debug)]
pub struct MemoryBackend {
    window: NonNull<u8>,
    dma: NonNull<u8>,
    arena: LineArena,
    port: usize,
}

// SAFETY: the two allocations are owned by the backend and reached only atomically.
unsafe impl Send for MemoryBackend {}
// SAFETY: as for `Send`; the allocator is behind a mutex.
unsafe impl Sync for MemoryBackend {}

fn window_layout() -> Layout {
    Layout::from_size_align(gba_pac::Device::SIZE, 4096).expect("a valid layout")
}

fn dma_layout() -> Layout {
    Layout::from_size_align(DMA_BYTES, 4096).expect("a valid layout")
}

impl MemoryBackend {
    /// A window that reads as a GBA at port `port`.
    pub fn new(port: usize) -> Self {
        // SAFETY: both layouts have a non-zero size.
        let (window, dma) = unsafe { (alloc_zeroed(window_layout()), alloc_zeroed(dma_layout())) };
        let (Some(window), Some(dma)) = (NonNull::new(window), NonNull::new(dma)) else {
            std::alloc::handle_alloc_error(window_layout());
        };
        let backend = MemoryBackend {
            window,
            dma,
            // SAFETY: the DMA allocation is DMA_BYTES, page-aligned, owned by the backend until
            // it drops, and reached only atomically.
            arena: unsafe {
                LineArena::new(
                    dma,
                    DMA_BYTES,
                    MEMORY_IOVA_BASE,
                    "the memory backend's DMA region is full",
                )
            },
            port,
        };
        // SAFETY: the window is Device::SIZE bytes, page-aligned, owned here and reached only
        // atomically.
        let regs = unsafe { gba_pac::Device::from_shared_ptr(window.as_ptr()) }.global();
        let store = |reg: *mut u32, value: u32| {
            // SAFETY: `reg` is an aligned register address inside the window just allocated.
            unsafe { AtomicU32::from_ptr(reg) }.store(value, Ordering::Relaxed)
        };
        store(regs.device_id().as_ptr(), global::reset::DEVICE_ID);
        store(regs.version().as_ptr(), global::reset::VERSION);
        store(regs.caps().as_ptr(), global::reset::CAPS);
        store(
            regs.port_id().as_ptr(),
            PORT_ID::PORT.val(port as u32).value,
        );
        backend
    }

    /// Every byte of the window, read atomically (a test compares them before and after).
    pub fn window_bytes(&self) -> Vec<u8> {
        (0..gba_pac::Device::SIZE / 8)
            .flat_map(|i| {
                // SAFETY: word i is inside the window, 8-aligned; accesses are atomic.
                let word =
                    unsafe { AtomicU64::from_ptr(self.window.as_ptr().cast::<u64>().add(i)) };
                word.load(Ordering::Relaxed).to_le_bytes()
            })
            .collect()
    }

    /// The port this window reports (PORT_ID).
    pub fn port(&self) -> usize {
        self.port
    }
}

impl Drop for MemoryBackend {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with these layouts; no handle outlives the backend (the
        // HAL's handles borrow the device that owns it).
        unsafe {
            dealloc(self.window.as_ptr(), window_layout());
            dealloc(self.dma.as_ptr(), dma_layout());
        }
    }
}

// SAFETY: the window is an owned, page-aligned heap allocation of Device::SIZE bytes that does
// not move with the backend value and is reached only atomically; DMA regions are line-aligned
// pieces of an owned allocation, zeroed on allocation, never handed out twice.
unsafe impl Backend for MemoryBackend {
    type Mechanism = Atomic;

    fn window(&self) -> *mut u8 {
        self.window.as_ptr()
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

    /// Plain memory of this process: nobody else can open it.
    fn host(&self) -> &dyn crate::HostArbiter {
        &crate::Exclusive
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "memory#{}", self.port)
    }
}
