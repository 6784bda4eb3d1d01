//! The backend interface: what the HAL needs from whatever provides a device (UIO hardware,
//! the simulator, plain memory, or a kernel driver's own mapping).

use core::fmt;
use core::ptr::NonNull;

use gba_pac::common::{Atomic, InMemory, Mechanism, Volatile};

use crate::TeamKey;
use crate::arbiter::HostArbiter;
#[cfg(doc)]
use crate::arbiter::{Claim, Exclusive};

/// How registers of a backend's window are reached: [`Volatile`] for device memory,
/// [`Atomic`] for a window in memory that other threads or processes share.
///
/// # Safety
///
/// [`device_at`](WindowMechanism::device_at) builds a handle whose accesses are this mechanism's;
/// implemented by this crate for the two mechanisms only.
pub unsafe trait WindowMechanism:
    Mechanism<u32> + Mechanism<u64> + InMemory + Copy + core::fmt::Debug + Sized + 'static
{
    /// The register window at `ptr` with this mechanism.
    ///
    /// # Safety
    ///
    /// The contract of `gba_pac::Device::from_ptr` (Volatile) or `from_shared_ptr` (Atomic).
    unsafe fn device_at(ptr: *mut u8) -> gba_pac::Device<Self>;
}

// SAFETY: builds the handle with the volatile constructor, as the trait says.
unsafe impl WindowMechanism for Volatile {
    unsafe fn device_at(ptr: *mut u8) -> gba_pac::Device<Self> {
        // SAFETY: forwarded from the caller.
        unsafe { gba_pac::Device::from_ptr(ptr) }
    }
}

// SAFETY: builds the handle with the shared-memory constructor, as the trait says.
unsafe impl WindowMechanism for Atomic {
    unsafe fn device_at(ptr: *mut u8) -> gba_pac::Device<Self> {
        // SAFETY: forwarded from the caller.
        unsafe { gba_pac::Device::from_shared_ptr(ptr) }
    }
}

/// Memory the device may write: the host's address and the device's (IOVA) for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaRegion {
    /// The host's address of the first byte.
    pub host: NonNull<u8>,
    /// The device's address (IOVA) of the first byte: what the device is given.
    pub iova: u64,
    /// Bytes.
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
    /// What ran out or was refused.
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
///   and accessed by the host only atomically; a [`Claim::Joined`] or [`Claim::Configured`]
///   flag from [`host`](Backend::host) is such a region, allocated by the team-mate that won
///   the claim (or by the arbiter) and valid until the last process of the claim leaves it;
/// - a [`LocalArrivals`] from [`host`](Backend::host)'s [`HostArbiter::local_arrivals`] points at
///   8-aligned words valid for as long as the backend lives, reached by every process only
///   atomically.
pub unsafe trait Backend: Send + Sync {
    /// The mechanism the register window is reached with: `Volatile` for device memory, `Atomic` for shared memory.
    type Mechanism: WindowMechanism;

    /// The register window's first byte.
    fn window(&self) -> *mut u8;

    /// Allocates `len` bytes the device may write (zeroed, cache-line aligned).
    fn alloc_dma(&self, len: usize) -> Result<DmaRegion, DmaError>;

    /// Returns a region from [`alloc_dma`](Self::alloc_dma).
    fn free_dma(&self, region: DmaRegion);

    /// The release flag of `group`, allocated by the winner of its claim: memory every
    /// process of the host that joins the claim reaches too (the contract of
    /// [`alloc_dma`](Backend::alloc_dma) otherwise). Default: [`alloc_dma`](Backend::alloc_dma),
    /// right for a backend whose DMA memory every local process maps (the simulator's arena)
    /// or that has no host segment. A UIO device with a host segment hands out group g's line
    /// of the host's shared flag memory instead.
    fn alloc_flag(&self, group: usize, len: usize) -> Result<DmaRegion, DmaError> {
        let _ = group;
        self.alloc_dma(len)
    }

    /// Frees a flag from [`alloc_flag`](Backend::alloc_flag) (the host's last process of the
    /// claim, after the group's reset).
    fn free_flag(&self, group: usize, region: DmaRegion) {
        let _ = group;
        self.free_dma(region)
    }

    /// Lets the device make progress: the simulator steps its switch; hardware does nothing.
    /// Called from every wait loop.
    fn progress(&self) {}

    /// Makes the device take in every store made to its window before the call, as hardware
    /// does in the cycle of the store: afterwards a store into a read-only register has been
    /// ignored, a single pulse has done its work and reads 0, a doorbell outside a group has
    /// been dropped. Hardware: nothing to do (the default). The simulator, whose window is
    /// shared memory, runs a full switch step, waiting for any other stepper. For tools that
    /// check a device against its spec (`gba verify --device`); not for wait loops, which
    /// call [`progress`](Backend::progress).
    fn settle(&self) {}

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

    /// Completes a snapshot of `group` read from the window with what only the backend can
    /// see. Memory-mapped backends read every register from the window (the default: nothing
    /// to add); the kernel driver maps only a group's run-time page into a process, so its
    /// configuration and arrival registers read 0 there, and this backend asks the driver
    /// for them (`GBA_IOC_STATE`, answered for the group the caller holds).
    fn complete_snapshot(&self, snapshot: &mut crate::GroupSnapshot) {
        let _ = snapshot;
    }

    /// A monotonic clock in nanoseconds, for timeouts.
    fn now_ns(&self) -> u64;

    /// This port's host arbitration: who holds which group among the processes of this host
    /// that open the port (see [`HostArbiter`]). There is no default: a backend says what
    /// arbitrates its port, [`Exclusive`] for a device one process alone can open.
    fn host(&self) -> &dyn HostArbiter;

    /// What the device is, for messages: "sim:/dev/shm/gba-fabric#0", "/dev/uio0".
    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// A team's place on this host, for [`HostArbiter::claim`]: processes with the same `key`
/// share the claim; `local` of them combine their arrivals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalTeam {
    /// The team's identity, the same on every rank: 128 random bits (see [`TeamKey`]).
    pub key: TeamKey,
    /// How many processes of the team use this port (L >= 1).
    pub local: u32,
    /// This process's index among them (0..local): its slot in the local-arrivals block.
    pub index: u32,
    /// This process's rank in the team (for diagnosis).
    pub rank: u32,
}

/// A host's local-arrivals block for one group (see docs/design/host.md "Host combining"): the
/// arrivals counter of the host's `local` processes and this process's `entered` word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalArrivals {
    /// Arrivals since the claim (never reset), alone on its cache line.
    pub arrivals: NonNull<u64>,
    /// The last sequence this process entered (diagnosis), alone on its cache line.
    pub entered: NonNull<u64>,
    /// L: the host's processes in the team.
    pub local: u64,
}

// SAFETY: a description of shared memory that every user reaches atomically only (the
// backend's contract for `local_arrivals`).
unsafe impl Send for LocalArrivals {}
// SAFETY: as for `Send`.
unsafe impl Sync for LocalArrivals {}

impl LocalArrivals {
    /// `entered = seq`, relaxed: diagnosis only.
    #[inline(always)]
    pub fn enter(&self, seq: u64) {
        // SAFETY: the backend's contract: 8-aligned, valid while the backend lives (and the
        // backend outlives every group, which borrows its device), and reached only
        // atomically by every process.
        unsafe { core::sync::atomic::AtomicU64::from_ptr(self.entered.as_ptr()) }
            .store(seq, core::sync::atomic::Ordering::Relaxed)
    }

    /// One arrival: `fetch_add(1, AcqRel)` on the host's counter; the old value.
    #[inline(always)]
    pub fn add(&self) -> u64 {
        // SAFETY: as for `enter`.
        unsafe { core::sync::atomic::AtomicU64::from_ptr(self.arrivals.as_ptr()) }
            .fetch_add(1, core::sync::atomic::Ordering::AcqRel)
    }

    /// The counter's value (diagnosis).
    pub fn arrivals(&self) -> u64 {
        // SAFETY: as for `enter`.
        unsafe { core::sync::atomic::AtomicU64::from_ptr(self.arrivals.as_ptr()) }
            .load(core::sync::atomic::Ordering::Acquire)
    }
}
