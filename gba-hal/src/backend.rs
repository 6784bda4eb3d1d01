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
///   and accessed by the host only atomically; a [`Claim::Joined`] flag is such a region,
///   allocated by the team-mate that won the claim and valid until the last process of the
///   claim leaves it;
/// - a [`Combining`] from [`combining`](Backend::combining) points at 8-aligned words valid
///   for as long as the backend lives, reached by every process only atomically.
pub unsafe trait Backend: Send + Sync {
    type Mechanism: Access;

    /// The register window's first byte.
    fn window(&self) -> *mut u8;

    fn alloc_dma(&self, len: usize) -> Result<DmaRegion, DmaError>;

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

    /// Takes or joins this host's claim on `group` (issue 13: groups are owned, not
    /// overwritten; one port per host, many processes), atomically against every other
    /// process and every other backend value on the same port, before any register of the
    /// group is written. `team` is `None` for a claim of this backend value alone.
    ///
    /// - [`Claim::Won`]: this value configures the group (RESET first), then publishes it
    ///   with [`hold_group`](Backend::hold_group) (or gives it back with
    ///   [`release_group`](Backend::release_group)).
    /// - [`Claim::Joined`]: a process of the same team (same [`LocalTeam::key`]) holds the
    ///   group, configured and READY; `flag` is the release flag it shares with this host.
    /// - [`Claim::Wait`]: a team-mate is configuring it; ask again.
    /// - [`Claim::Busy`]: another team with a live process holds it
    ///   ([`Error::GroupBusy`](crate::Error::GroupBusy)); the owner's group is untouched.
    ///
    /// A claim whose every process died is taken over (`Won`). A backend without host
    /// arbitration always wins (the default: right only for a device one process alone can
    /// open, as VFIO's).
    fn claim_group(&self, group: usize, team: Option<&LocalTeam>) -> Claim {
        let _ = (group, team);
        Claim::Won
    }

    /// [`claim_group`](Backend::claim_group) with the group's member set, which the HAL calls:
    /// a backend whose arbiter configures the group itself (the kernel driver writes
    /// MEMBER_MASK) needs it. Default: `claim_group`.
    fn claim_group_for(
        &self,
        group: usize,
        team: Option<&LocalTeam>,
        members: &crate::MemberSet,
    ) -> Claim {
        let _ = members;
        self.claim_group(group, team)
    }

    /// True when a [`Claim::Won`] group comes configured and enabled (the kernel driver has
    /// reset it and written its configuration and ENABLE|ARM, and no process may write its
    /// configuration page): the winner then only waits for READY. Default: false, the winner
    /// configures.
    fn configures_groups(&self) -> bool {
        false
    }

    /// The winner of [`claim_group`](Backend::claim_group) publishes the configured group and
    /// its release flag to its team-mates. False when the claim was taken over meanwhile (its
    /// owner was thought dead): the caller then gives up as on `Busy`.
    fn hold_group(&self, group: usize, flag: &DmaRegion) -> bool {
        let _ = (group, flag);
        true
    }

    /// Leaves a held claim. True when this was the host's last process in it: the caller
    /// then resets the group on this port, frees the flag and calls
    /// [`release_group`](Backend::release_group). Default: always the last.
    fn leave_group(&self, group: usize) -> bool {
        let _ = group;
        true
    }

    /// Groups whose host claim a live owner holds (bit g: group g), for
    /// [`Device::free_groups`](crate::Device::free_groups): a group claimed but not yet
    /// enabled on the switch is not offered to an agreement. Default: none.
    fn claimed_groups(&self) -> u32 {
        0
    }

    /// Frees the claim (after the group was reset on this port, by the winner that failed to
    /// configure it or by the last process to leave it).
    fn release_group(&self, group: usize) {
        let _ = group;
    }

    /// The host's combining block of a held `group` when the team has more than one process
    /// on this port: the arrivals counter every local process adds to, and this process's
    /// `entered` word. `None` for a claim of one process.
    fn combining(&self, group: usize) -> Option<Combining> {
        let _ = group;
        None
    }

    /// What identifies the host segment this port is arbitrated in (boot id and the
    /// segment's identity, hashed), so a team can tell "two processes of one host on its
    /// port" from "two hosts reporting the same PORT_ID". `None`: this backend has no host
    /// segment, so two processes cannot share its port.
    fn host_key(&self) -> Option<u64> {
        None
    }

    /// What the device is, for messages: "sim:/dev/shm/gba-fabric#0", "/dev/uio0".
    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// A team's place on this host, for [`Backend::claim_group`]: processes with the same `key`
/// share the claim; `local` of them combine their arrivals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalTeam {
    /// The team's identity, the same on every rank (never 0).
    pub key: u64,
    /// How many processes of the team use this port (L >= 1).
    pub local: u32,
    /// This process's index among them (0..local): its slot in the combining block.
    pub index: u32,
    /// This process's rank in the team (for diagnosis).
    pub rank: u32,
}

/// The outcome of [`Backend::claim_group`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    Won,
    Joined { flag: DmaRegion },
    Wait,
    Busy,
}

/// A host's combining block for one group (see ARCHITECTURE.md "Host combining"): the
/// arrivals counter of the host's `local` processes and this process's `entered` word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combining {
    /// Arrivals since the claim (never reset), alone on its cache line.
    pub arrivals: NonNull<u64>,
    /// The last sequence this process entered (diagnosis), alone on its cache line.
    pub entered: NonNull<u64>,
    /// L: the host's processes in the team.
    pub local: u64,
}

// SAFETY: a description of shared memory that every user reaches atomically only (the
// backend's contract for `combining`).
unsafe impl Send for Combining {}
// SAFETY: as for `Send`.
unsafe impl Sync for Combining {}

impl Combining {
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
