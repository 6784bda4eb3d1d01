//! Shared-memory files: a file mapped with an explicit length, reached only through raw
//! pointers and atomic accesses.
//!
//! Two invariants hold for everything built on this module:
//! - no `&` or `&mut` reference to the mapped bytes is ever created, except the momentary
//!   `&AtomicU64` that `AtomicU64::from_ptr` returns for one atomic operation (an atomic is an
//!   `UnsafeCell`, so that reference claims nothing about the memory staying unchanged);
//! - every access is atomic, because other threads and processes use the same bytes at the
//!   same time.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::{MmapOptions, MmapRaw};

use crate::error::{Error, Result};

/// A whole file mapped shared, read-write; or, for tests and Miri, the same bytes in
/// ordinary memory that only this process's threads share ([`SharedFile::in_memory`]).
#[derive(Debug)]
pub struct SharedFile {
    backing: Backing,
    len: usize,
    path: PathBuf,
}

#[derive(Debug)]
enum Backing {
    Map(MmapRaw),
    /// Zeroed, page-aligned heap memory, freed on drop.
    Heap(*mut u8, std::alloc::Layout),
}

// SAFETY: the bytes are reached only atomically through raw pointers (this module's
// invariant), so the owner may move to and be used from any thread, like `MmapRaw`.
unsafe impl Send for SharedFile {}
// SAFETY: as for `Send`.
unsafe impl Sync for SharedFile {}

impl Drop for SharedFile {
    fn drop(&mut self) {
        if let Backing::Heap(ptr, layout) = self.backing {
            // SAFETY: allocated in `in_memory` with this layout, freed once here; no word
            // outlives `self` (they borrow it).
            unsafe { std::alloc::dealloc(ptr, layout) }
        }
    }
}

impl SharedFile {
    /// Creates `path` (which must not exist) with `len` zero bytes and maps it.
    pub fn create(path: &Path, len: usize) -> Result<Self> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|source| Error::io("create", path, source))?;
        file.set_len(len as u64)
            .map_err(|source| Error::io("size", path, source))?;
        Self::map(file, path, len)
    }

    /// Maps the existing file `path`, which must be exactly `len` bytes long.
    pub fn open(path: &Path, len: usize) -> Result<Self> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|source| Error::io("open", path, source))?;
        let actual = file
            .metadata()
            .map_err(|source| Error::io("stat", path, source))?
            .len();
        if actual != len as u64 {
            return Err(Error::Corrupt {
                path: path.to_path_buf(),
                what: format!("is {actual} bytes, the fabric's layout needs {len}"),
            });
        }
        Self::map(file, path, len)
    }

    fn map(file: File, path: &Path, len: usize) -> Result<Self> {
        // An explicit length: the mapping never depends on what the file reports later.
        let map = MmapOptions::new()
            .len(len)
            .map_raw(&file)
            .map_err(|source| Error::io("map", path, source))?;
        Ok(SharedFile {
            backing: Backing::Map(map),
            len,
            path: path.to_path_buf(),
        })
    }

    /// `len` zero bytes of ordinary memory, page-aligned, standing for a file named `name`
    /// (in messages only): a fabric that lives in one process, for tests and Miri.
    pub fn in_memory(name: &str, len: usize) -> Self {
        let layout = std::alloc::Layout::from_size_align(len.max(8), 4096)
            .expect("a fabric's sizes are far below isize::MAX");
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        SharedFile {
            backing: Backing::Heap(ptr, layout),
            len,
            path: PathBuf::from(name),
        }
    }

    /// The first byte of the mapping; page-aligned.
    pub fn as_ptr(&self) -> *mut u8 {
        match &self.backing {
            Backing::Map(map) => map.as_mut_ptr(),
            Backing::Heap(ptr, _) => *ptr,
        }
    }

    /// The 64-bit word at byte `offset`.
    ///
    /// # Panics
    ///
    /// If `offset` is not 8-byte aligned or the word is not inside the mapping: the callers
    /// compute offsets from the fabric's layout, so this is a bug, never bad input.
    pub fn word(&self, offset: usize) -> Word<'_> {
        assert!(
            offset.is_multiple_of(8) && offset + 8 <= self.len,
            "word at {offset:#x} outside {} ({:#x} bytes)",
            self.path.display(),
            self.len
        );
        Word {
            // `wrapping_add` stays in bounds: checked just above.
            ptr: self.as_ptr().wrapping_add(offset).cast(),
            _file: std::marker::PhantomData,
        }
    }
}

/// One 64-bit word of a [`SharedFile`], reached only by atomic operations. Borrowing the
/// file keeps the mapping alive for as long as the word is used.
#[derive(Clone, Copy, Debug)]
pub struct Word<'a> {
    ptr: *mut u64,
    _file: std::marker::PhantomData<&'a SharedFile>,
}

impl Word<'_> {
    fn atomic(&self) -> &AtomicU64 {
        // SAFETY: `ptr` is 8-aligned and inside a live mapping (checked by
        // `SharedFile::word`, kept alive by the borrow), and every party accesses the fabric's
        // words only atomically (this module's invariant).
        unsafe { AtomicU64::from_ptr(self.ptr) }
    }

    pub fn load(&self) -> u64 {
        self.atomic().load(Ordering::Acquire)
    }

    pub fn store(&self, value: u64) {
        self.atomic().store(value, Ordering::Release)
    }

    pub fn compare_exchange(&self, current: u64, new: u64) -> std::result::Result<u64, u64> {
        self.atomic()
            .compare_exchange(current, new, Ordering::AcqRel, Ordering::Acquire)
    }

    pub fn fetch_add(&self, value: u64) -> u64 {
        self.atomic().fetch_add(value, Ordering::AcqRel)
    }

    pub fn fetch_or(&self, value: u64) -> u64 {
        self.atomic().fetch_or(value, Ordering::AcqRel)
    }

    pub fn swap(&self, value: u64) -> u64 {
        self.atomic().swap(value, Ordering::AcqRel)
    }
}

impl crate::combine::Cell64 for Word<'_> {
    fn load(&self, order: Ordering) -> u64 {
        self.atomic().load(order)
    }

    fn store(&self, value: u64, order: Ordering) {
        self.atomic().store(value, order)
    }

    fn compare_exchange(
        &self,
        current: u64,
        new: u64,
        success: Ordering,
        failure: Ordering,
    ) -> std::result::Result<u64, u64> {
        self.atomic()
            .compare_exchange(current, new, success, failure)
    }

    fn fetch_add(&self, value: u64, order: Ordering) -> u64 {
        self.atomic().fetch_add(value, order)
    }
}
