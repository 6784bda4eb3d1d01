//! A first-fit allocator of cache lines over one DMA region, for the backends that own their
//! DMA memory (UIO's map 1, plain memory).

use std::sync::Mutex;

const LINE: usize = 64;

#[derive(Debug)]
pub struct LineAllocator {
    used: Mutex<Vec<bool>>,
}

impl LineAllocator {
    pub fn new(region_len: usize) -> Self {
        LineAllocator {
            used: Mutex::new(vec![false; region_len / LINE]),
        }
    }

    /// The offset of `len` free bytes, line-aligned, marked used.
    pub fn alloc(&self, len: usize) -> Option<usize> {
        let lines = len.div_ceil(LINE).max(1);
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        let start = (0..=used.len().checked_sub(lines)?)
            .find(|&s| used[s..s + lines].iter().all(|u| !u))?;
        used[start..start + lines]
            .iter_mut()
            .for_each(|u| *u = true);
        Some(start * LINE)
    }

    pub fn free(&self, offset: usize, len: usize) {
        let lines = len.div_ceil(LINE).max(1);
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        let start = offset / LINE;
        let end = (start + lines).min(used.len());
        if start < end {
            used[start..end].iter_mut().for_each(|u| *u = false);
        }
    }
}
