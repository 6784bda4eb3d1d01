//! Where a software barrier's shared words live: [`Cells`], a fixed array of `u64` slots, each
//! on its own cache line, touched only atomically.

use std::sync::Arc;

use crossbeam_utils::CachePadded;

use crate::primitive::{AtomicU64, Ordering};

mod sealed {
    pub trait Sealed {}
}

/// Shared `u64` slots, each alone on its cache line, reached only by atomic operations.
/// Implemented by [`HeapCells`] (threads of one process) and [`super::shm::ShmCells`]
/// (processes, a shared-memory file); sealed.
pub trait Cells: sealed::Sealed + Send {
    /// `"threads"` or `"shm"`, for names like `dissemination-shm`.
    const KIND: &'static str;
    /// How many slots there are.
    fn len(&self) -> usize;
    /// Whether there are no slots.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Atomic load of slot `i` (panics if out of range).
    fn load(&self, i: usize, order: Ordering) -> u64;
    /// Atomic store into slot `i` (panics if out of range).
    fn store(&self, i: usize, value: u64, order: Ordering);
    /// Atomic fetch-add on slot `i` (panics if out of range).
    fn fetch_add(&self, i: usize, value: u64, order: Ordering) -> u64;
}

/// Slots on the heap, shared by the threads of one process through an `Arc`.
#[derive(Debug, Clone)]
pub struct HeapCells {
    slots: Arc<[CachePadded<AtomicU64>]>,
}

impl HeapCells {
    /// `len` zeroed slots.
    pub fn new(len: usize) -> Self {
        HeapCells {
            slots: (0..len)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
        }
    }
}

impl sealed::Sealed for HeapCells {}

impl Cells for HeapCells {
    const KIND: &'static str = "threads";

    fn len(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn load(&self, i: usize, order: Ordering) -> u64 {
        self.slots[i].load(order)
    }

    #[inline]
    fn store(&self, i: usize, value: u64, order: Ordering) {
        self.slots[i].store(value, order);
    }

    #[inline]
    fn fetch_add(&self, i: usize, value: u64, order: Ordering) -> u64 {
        self.slots[i].fetch_add(value, order)
    }
}

#[cfg(not(loom))]
impl sealed::Sealed for super::shm::ShmCells {}
