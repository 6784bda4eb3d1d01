//! A 64-bit atomic cell, so that the protocol code over shared memory (the host segment's
//! claim records here, the simulator's arrival word in gba-sim) runs unchanged on the
//! memory's words and on loom's atomics in the model checks.

pub use core::sync::atomic::Ordering;

/// A 64-bit atomic cell: a word of shared memory, or loom's `AtomicU64` in the model checks.
pub trait Cell64 {
    /// An atomic load.
    fn load(&self, order: Ordering) -> u64;
    /// An atomic store.
    fn store(&self, value: u64, order: Ordering);
    /// An atomic compare-exchange: `Ok(current)` if the word held `current` and now holds `new`, else `Err(found)`.
    fn compare_exchange(
        &self,
        current: u64,
        new: u64,
        success: Ordering,
        failure: Ordering,
    ) -> Result<u64, u64>;
    /// An atomic add; returns the previous value.
    fn fetch_add(&self, value: u64, order: Ordering) -> u64;
}

impl Cell64 for core::sync::atomic::AtomicU64 {
    fn load(&self, order: Ordering) -> u64 {
        core::sync::atomic::AtomicU64::load(self, order)
    }
    fn store(&self, value: u64, order: Ordering) {
        core::sync::atomic::AtomicU64::store(self, value, order)
    }
    fn compare_exchange(&self, c: u64, n: u64, s: Ordering, f: Ordering) -> Result<u64, u64> {
        core::sync::atomic::AtomicU64::compare_exchange(self, c, n, s, f)
    }
    fn fetch_add(&self, value: u64, order: Ordering) -> u64 {
        core::sync::atomic::AtomicU64::fetch_add(self, value, order)
    }
}
