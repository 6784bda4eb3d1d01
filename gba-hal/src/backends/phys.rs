//! Pinned host memory and its physical address, for DMA without an IOMMU mapping of our own:
//! what a UIO driver gets when its device has no DMA map (uio_pci_generic), the way DPDK runs
//! over UIO, and what the VFIO backend uses when asked for IOVA = physical address.
//!
//! The physical address comes from `/proc/self/pagemap` (one `u64` per virtual page: bit 63
//! "present", bits 0–54 the page frame number). Linux shows frame numbers only to a process
//! with CAP_SYS_ADMIN; others read 0, which is refused here by name.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::ptr::NonNull;

/// One page-aligned, locked, zeroed, anonymous mapping, unmapped on drop.
#[derive(Debug)]
pub struct PinnedPages {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is owned by this value; whoever reaches it through `ptr()` follows the
// backends' contract (atomic accesses only).
unsafe impl Send for PinnedPages {}
// SAFETY: as for `Send`.
unsafe impl Sync for PinnedPages {}

pub fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    (unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).max(4096) as usize
}

impl PinnedPages {
    /// `len` bytes rounded up to whole pages, populated and locked into memory.
    pub fn new(len: usize) -> io::Result<Self> {
        let page = page_size();
        let len = len.max(1).div_ceil(page) * page;
        // SAFETY: an anonymous private mapping at an address of the kernel's choice; the result
        // is checked before use.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_POPULATE,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let pages = PinnedPages {
            ptr: NonNull::new(ptr.cast()).ok_or_else(|| io::Error::other("null mapping"))?,
            len,
        };
        // SAFETY: the range is the mapping just made. A lock keeps the pages resident (and the
        // kernel does not swap them); MAP_DMA pins them again for the IOMMU.
        if unsafe { libc::mlock(ptr, len) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(pages)
    }

    pub fn ptr(&self) -> NonNull<u8> {
        self.ptr
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The physical address of the first byte, which must be contiguous with the rest: callers
    /// use one page (`len() == page_size()`) or check each page themselves.
    pub fn physical_address(&self) -> Result<u64, PhysError> {
        physical_address(self.ptr.as_ptr() as usize)
    }
}

impl Drop for PinnedPages {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once; nothing refers to it any more (the
        // backends unmap it from the IOMMU first).
        unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.len) };
    }
}

/// Why a physical address could not be found for DMA memory (UIO has no IOMMU).
#[derive(Debug, thiserror::Error)]
pub enum PhysError {
    /// `/proc/self/pagemap` could not be read.
    #[error("cannot read /proc/self/pagemap")]
    Pagemap(#[source] io::Error),
    #[error(
        "/proc/self/pagemap shows no physical address: run as root (Linux hides page frame numbers without CAP_SYS_ADMIN)"
    )]
    /// `/proc/self/pagemap` hides page frame numbers from this process.
    Hidden,
}

/// The physical address of virtual address `virt`, whose page must be resident.
pub fn physical_address(virt: usize) -> Result<u64, PhysError> {
    let page = page_size();
    let file = File::open("/proc/self/pagemap").map_err(PhysError::Pagemap)?;
    let mut entry = [0u8; 8];
    file.read_exact_at(&mut entry, (virt / page * 8) as u64)
        .map_err(PhysError::Pagemap)?;
    let entry = u64::from_le_bytes(entry);
    let present = entry >> 63 == 1;
    let pfn = entry & ((1 << 55) - 1);
    if !present || pfn == 0 {
        return Err(PhysError::Hidden);
    }
    Ok(pfn * page as u64 + (virt % page) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_pages_are_whole_zeroed_pages() {
        let pages = PinnedPages::new(100).expect("mmap");
        assert_eq!(pages.len(), page_size());
        assert_eq!(pages.ptr().as_ptr() as usize % page_size(), 0);
        // Physical addresses are shown to root only: either answer is a correct one.
        match pages.physical_address() {
            Ok(address) => assert_eq!(address % page_size() as u64, 0),
            Err(error) => assert!(error.to_string().contains("run as root"), "{error}"),
        }
    }
}
