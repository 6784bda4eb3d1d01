//! DMA memory handed out in cache lines, first fit, for the backends that own one DMA region
//! (UIO's map 1, plain memory): zeroed on allocation, never two allocations on one line.

use std::ptr::NonNull;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::backend::{DmaError, DmaRegion};

const LINE: usize = 64;

#[derive(Debug)]
pub struct LineArena {
    base: NonNull<u8>,
    iova: u64,
    used: Mutex<Vec<bool>>,
    /// What an allocation that does not fit says.
    full: &'static str,
}

// SAFETY: the arena describes memory that is reached only through atomic accesses (its
// constructor's contract); the bookkeeping is behind a mutex.
unsafe impl Send for LineArena {}
// SAFETY: as for `Send`.
unsafe impl Sync for LineArena {}

impl LineArena {
    /// An arena over `len` bytes at `base`, which the device reaches at `iova`.
    ///
    /// # Safety
    ///
    /// `base` is 64-byte aligned and valid for reads and writes of `len` bytes for as long as
    /// the arena and every region it hands out are used, and every access to that memory is
    /// atomic.
    pub unsafe fn new(base: NonNull<u8>, len: usize, iova: u64, full: &'static str) -> Self {
        LineArena {
            base,
            iova,
            used: Mutex::new(vec![false; len / LINE]),
            full,
        }
    }

    /// `len` zeroed bytes on lines of their own.
    pub fn alloc(&self, len: usize) -> Result<DmaRegion, DmaError> {
        let lines = len.div_ceil(LINE).max(1);
        let start = {
            let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
            let last = used.len().checked_sub(lines);
            let start = last
                .and_then(|last| (0..=last).find(|&s| used[s..s + lines].iter().all(|u| !u)))
                .ok_or(DmaError { reason: self.full })?;
            used[start..start + lines]
                .iter_mut()
                .for_each(|u| *u = true);
            start
        };
        let offset = start * LINE;
        let host = self.base.as_ptr().wrapping_add(offset);
        for i in 0..lines * LINE / 8 {
            // SAFETY: word i of the lines just reserved, inside the arena (the constructor's
            // contract), 8-aligned; every access to the arena is atomic.
            unsafe { AtomicU64::from_ptr(host.cast::<u64>().add(i)) }.store(0, Ordering::Relaxed);
        }
        Ok(DmaRegion {
            host: NonNull::new(host).ok_or(DmaError {
                reason: "null DMA pointer",
            })?,
            iova: self.iova + offset as u64,
            len,
        })
    }

    pub fn free(&self, region: DmaRegion) {
        let Some(offset) = region.iova.checked_sub(self.iova) else {
            return;
        };
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        let start = offset as usize / LINE;
        let end = (start + region.len.div_ceil(LINE).max(1)).min(used.len());
        if start < end {
            used[start..end].iter_mut().for_each(|u| *u = false);
        }
    }
}
