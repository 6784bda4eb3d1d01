//! The one trait between the barrier core and a configured group: [`Port`].
//!
//! This crate implements it over a claimed and configured gba-hal group (`hal::HalPort`, for
//! hardware and simulator backends alike) and wraps a port for host combining
//! (`combine::Combined`); gba-hal itself knows no `Port`. The tests implement it over plain
//! memory and a model switch; the hot-path benchmark over gba-pac's `Device::from_ptr` on a
//! buffer.

use crate::primitive::{Ordering, compiler_fence};
use gba_hal::MemberSet;

use crate::wait_error::DeviceFault;

/// What a barrier needs from one member's view of a configured, enabled group.
///
/// Implementations are a handful of pointer accesses; every method is called from the wait
/// loop, [`Port::ring`] and [`Port::flag`] on every episode.
pub trait Port {
    /// The group id (for error messages).
    fn group(&self) -> u32;

    /// This port's member id (LOCAL_MEMBER_ID = PORT_ID); goes into every arrival word.
    fn member(&self) -> u32;

    /// Store `word` into the group's ARRIVAL doorbell as one 64-bit store, **ordered after
    /// every earlier memory access of the calling thread** (release ordering; see
    /// "Memory ordering" in [`crate::Barrier`]). On a volatile MMIO mapping call
    /// [`release_before_doorbell`] right before the volatile write; on shared memory (the
    /// simulator) use an atomic store with `Ordering::Release`. Never a full fence.
    fn ring(&self, word: u64);

    /// Load this member's release flag with `Ordering::Acquire` (the switch writes the 32-bit
    /// sequence of the last released episode there by DMA).
    fn flag(&self) -> u64;

    /// Drive the device once while waiting: the simulator steps its switch model, a runtime
    /// drives its own progress; hardware does nothing. Called in the wait loop's progress and
    /// yield stages, never on the fast path.
    fn progress(&self) {}

    /// The group's device error (STATUS.ERROR and ERROR_CODE), if any. Called only in the
    /// wait loop's yield stage, where an MMIO read is cheap next to the yield.
    fn fault(&self) -> Option<DeviceFault> {
        None
    }

    /// Who is missing from the pending episode: MEMBER_MASK minus ARRIVED_MASK, as member ids
    /// ([`Arrivals::Known`]), or [`Arrivals::Unreadable`] where this process cannot read those
    /// registers; and the device error if any. Called when a wait fails.
    fn diagnose(&self) -> Diagnosis;
}

/// What [`Port::diagnose`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnosis {
    /// Who has not arrived for the pending episode, as far as this process can read it.
    pub missing: Arrivals,
    /// The group's device error, if any.
    pub fault: Option<DeviceFault>,
}

/// Who has not arrived for the pending episode, or why this process cannot tell.
///
/// An empty [`Arrivals::Known`] set means the device counts every member as arrived; a port
/// that cannot read ARRIVED_MASK must say [`Arrivals::Unreadable`] instead, or a timeout would
/// read "no member is missing" where nothing is known.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Arrivals {
    /// Members of the group that have not arrived (MEMBER_MASK minus ARRIVED_MASK).
    Known(MemberSet),
    /// This process cannot read the group's ARRIVED_MASK (the kernel driver maps only a
    /// group's run-time page to its holders, and reading the rest through it failed); `why`
    /// says so in words, for the error text.
    Unreadable {
        /// Why the arrival state is out of reach, e.g. "the kernel driver maps only the
        /// group's run-time page, not ARRIVED_MASK".
        why: &'static str,
    },
}

impl Default for Arrivals {
    /// Nobody missing by the device's count (what a port without a device reports).
    fn default() -> Self {
        Arrivals::Known(MemberSet::new())
    }
}

/// The release ordering a doorbell written with a *volatile* store needs, and nothing more.
///
/// - x86-64, register window mapped uncached (UC, what UIO and VFIO BAR mappings give): the
///   hardware keeps stores in program order (TSO) and a UC store is not performed before
///   earlier stores are globally visible, so only the *compiler* must be stopped from moving
///   earlier accesses past the volatile store: `compiler_fence(Release)`, zero instructions.
/// - x86-64, window mapped **write-combining** (WC): WC stores are weakly ordered and sit in
///   a write-combining buffer, so this is not enough: an `sfence` is needed before the
///   doorbell (earlier stores visible first) and is customary after it (flush the WC buffer
///   so the arrival leaves now). A port over a WC mapping must issue
///   `core::arch::x86_64::_mm_sfence()` itself; this helper does not.
/// - Elsewhere (AArch64 …): a release fence. Note that Rust's `fence(Release)` is a
///   `dmb ish`, which orders normal memory only in the inner-shareable domain; device memory
///   needs `dmb oshst`/`dsb st`, which a hardware port for such a target must add.
#[inline(always)]
pub fn release_before_doorbell() {
    #[cfg(target_arch = "x86_64")]
    compiler_fence(Ordering::Release);
    #[cfg(not(target_arch = "x86_64"))]
    crate::primitive::fence(Ordering::Release);
}
