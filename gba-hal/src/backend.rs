//! The backend interface: what the HAL needs from whatever provides a device (UIO hardware,
//! the simulator, plain memory, or a kernel driver's own mapping).

use core::fmt;
use core::ptr::NonNull;

use gba_pac::common::{Atomic, Mechanism, Volatile};

/// How registers of a backend's window are reached: [`Volatile`] for device memory,
/// [`Atomic`] for a window in memory that other threads or processes share.
///
/// # Safety
///
/// [`device_at`](Access::device_at) builds a handle whose accesses are this mechanism's;
/// implemented by this crate for the two mechanisms only.
pub unsafe trait Access:
    Mechanism<u32> + Mechanism<u64> + Copy + core::fmt::Debug + Sized + 'static
{
    /// The register window at `ptr` with this mechanism.
    ///
    /// # Safety
    ///
    /// The contract of `gba_pac::Device::from_ptr` (Volatile) or `from_shared_ptr` (Atomic).
    unsafe fn device_at(ptr: *mut u8) -> gba_pac::Device<Self>;
}

// SAFETY: builds the handle with the volatile constructor, as the trait says.
unsafe impl Access for Volatile {
    unsafe fn device_at(ptr: *mut u8) -> gba_pac::Device<Self> {
        // SAFETY: forwarded from the caller.
        unsafe { gba_pac::Device::from_ptr(ptr) }
    }
}

// SAFETY: builds the handle with the shared-memory constructor, as the trait says.
unsafe impl Access for Atomic {
    unsafe fn device_at(ptr: *mut u8) -> gba_pac::Device<Self> {
        // SAFETY: forwarded from the caller.
        unsafe { gba_pac::Device::from_shared_ptr(ptr) }
    }
}

/// Memory the device may write: the host's address and the device's (IOVA) for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaRegion {
    pub host: NonNull<u8>,
    pub iova: u64,
    pub len: usize,
}

// SAFETY: a region is an address pair; whoever reads or writes through `host` follows the
// backend's contract (atomic accesses only), so moving the description between threads
// adds no hazard.
unsafe impl Send for DmaRegion {}
// SAFETY: as for `Send`.
unsafe impl Sync for DmaRegion {}

/// Why a backend could not allocate DMA memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaError {
    pub reason: &'static str,
}

/// A device as the HAL sees it.
///
/// # Safety
///
/// An implementation promises, for as long as it lives:
/// - [`window`](Backend::window) returns the same pointer every time, to a mapping of at
///   least `gba_pac::Device::SIZE` bytes, 8-byte aligned, that nothing references and that is
///   accessed only with [`Mechanism`](Backend::Mechanism)'s accesses;
/// - a region from [`alloc_dma`](Backend::alloc_dma) is `len` bytes of host memory, 64-byte
///   aligned, zeroed, shared with no other allocation's cache lines, that the device reaches
///   at `iova`, valid until passed to [`free_dma`](Backend::free_dma) or the backend drops,
///   and accessed by the host only atomically.
pub unsafe trait Backend: Send + Sync {
    type Mechanism: Access;

    /// The register window's first byte.
    fn window(&self) -> *mut u8;

    fn alloc_dma(&self, len: usize) -> Result<DmaRegion, DmaError>;

    fn free_dma(&self, region: DmaRegion);

    /// Lets the device make progress: the simulator steps its switch; hardware does nothing.
    /// Called from every wait loop.
    fn progress(&self) {}

    /// Called right after the release store of `doorbell` into `group`'s ARRIVAL register.
    /// Hardware reacts to the store by itself (nothing to do); the simulator combines the
    /// arrival on this path (its fast path: the last arrival of an episode releases it), or
    /// steps its switch, as a switch processes an arrival as it comes instead of leaving it to
    /// the next member that polls.
    #[inline(always)]
    fn after_doorbell(&self, group: usize, doorbell: u64) {
        let _ = (group, doorbell);
    }

    /// Called right after a store to `group`'s CONTROL register (RESET, or ENABLE|ARM after
    /// the configuration). Hardware sees the store by itself; the simulator is told which
    /// group changed and steps at once, as a switch reacts to a register write as it comes
    /// (a switch that found it only on its next scan of idle groups made every group
    /// configuration cost several scan periods).
    #[inline(always)]
    fn after_control(&self, group: usize) {
        let _ = group;
    }

    /// A monotonic clock in nanoseconds, for timeouts.
    fn now_ns(&self) -> u64;

    /// Takes this host's claim on `group` for this backend value, atomically against every
    /// other process and every other backend value on the same port, before any register of
    /// the group is written (issue 13: groups are owned, not overwritten). False when a live
    /// owner holds it: the claim is then [`Error::GroupBusy`](crate::Error::GroupBusy), and
    /// the owner's group is untouched. A claim whose owner died is taken over. A backend
    /// without host arbitration (today: UIO hardware) always succeeds.
    fn claim_group(&self, group: usize) -> bool {
        let _ = group;
        true
    }

    /// Groups whose host claim a live owner holds (bit g: group g), for
    /// [`Device::free_groups`](crate::Device::free_groups): a group claimed but not yet
    /// enabled on the switch is not offered to an agreement. Default: none.
    fn claimed_groups(&self) -> u32 {
        0
    }

    /// Gives back the claim taken by [`claim_group`](Backend::claim_group), after the group
    /// was reset on this port.
    fn release_group(&self, group: usize) {
        let _ = group;
    }

    /// What the device is, for messages: "sim:/dev/shm/gba-fabric#0", "/dev/uio0".
    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}
