//! [`SharedWord`]: the one atomic-word type over shared memory.

use core::marker::PhantomData;
use core::sync::atomic::{AtomicU64, Ordering};

use crate::cell::Cell64;

/// One 64-bit word of memory other threads and processes use at the same time, reached only
/// by atomic operations through a raw pointer: the momentary `&AtomicU64` that
/// `AtomicU64::from_ptr` makes for one operation is the only reference (an atomic is an
/// `UnsafeCell`, so it claims nothing about the bytes staying unchanged). The lifetime ties
/// the word to the mapping that holds it.
#[derive(Clone, Copy, Debug)]
pub struct SharedWord<'a> {
    ptr: *mut u64,
    _memory: PhantomData<&'a ()>,
}

// SAFETY: a word is reached only atomically (the constructor's contract), from any thread.
unsafe impl Send for SharedWord<'_> {}
// SAFETY: as for `Send`.
unsafe impl Sync for SharedWord<'_> {}

impl SharedWord<'_> {
    /// The word at `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` is 8-byte aligned and valid for reads and writes for the word's lifetime, and
    /// every thread and process reaches those 8 bytes only atomically.
    pub unsafe fn new(ptr: *mut u64) -> Self {
        SharedWord {
            ptr,
            _memory: PhantomData,
        }
    }

    fn atomic(&self) -> &AtomicU64 {
        // SAFETY: aligned, valid and reached only atomically for the word's lifetime (`new`'s
        // contract); the reference lives for one operation of the caller.
        unsafe { AtomicU64::from_ptr(self.ptr) }
    }

    /// The word's address (for code that keeps raw pointers, e.g. the hot path's combining).
    pub fn as_ptr(&self) -> *mut u64 {
        self.ptr
    }

    /// An acquire load.
    pub fn load(&self) -> u64 {
        self.atomic().load(Ordering::Acquire)
    }

    /// A release store.
    pub fn store(&self, value: u64) {
        self.atomic().store(value, Ordering::Release)
    }

    /// A compare-exchange (acquire-release; acquire on failure): `Ok(current)` if it swapped.
    pub fn compare_exchange(&self, current: u64, new: u64) -> Result<u64, u64> {
        self.atomic()
            .compare_exchange(current, new, Ordering::AcqRel, Ordering::Acquire)
    }

    /// An acquire-release add; returns the previous value.
    pub fn fetch_add(&self, value: u64) -> u64 {
        self.atomic().fetch_add(value, Ordering::AcqRel)
    }

    /// An acquire-release OR; returns the previous value.
    pub fn fetch_or(&self, value: u64) -> u64 {
        self.atomic().fetch_or(value, Ordering::AcqRel)
    }

    /// An acquire-release swap; returns the previous value.
    pub fn swap(&self, value: u64) -> u64 {
        self.atomic().swap(value, Ordering::AcqRel)
    }

    /// A load with an explicit ordering.
    pub fn load_with(&self, order: Ordering) -> u64 {
        self.atomic().load(order)
    }

    /// A store with an explicit ordering.
    pub fn store_with(&self, value: u64, order: Ordering) {
        self.atomic().store(value, order)
    }
}

impl Cell64 for SharedWord<'_> {
    fn load(&self, order: Ordering) -> u64 {
        self.atomic().load(order)
    }
    fn store(&self, value: u64, order: Ordering) {
        self.atomic().store(value, order)
    }
    fn compare_exchange(&self, c: u64, n: u64, s: Ordering, f: Ordering) -> Result<u64, u64> {
        self.atomic().compare_exchange(c, n, s, f)
    }
    fn fetch_add(&self, value: u64, order: Ordering) -> u64 {
        self.atomic().fetch_add(value, order)
    }
}
