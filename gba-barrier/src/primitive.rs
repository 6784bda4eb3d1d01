//! The one door to atomics, fences, `spin_loop` and `yield_now`, in crossbeam's style.
//!
//! Everything in this crate that synchronises goes through these names, so that
//! `RUSTFLAGS="--cfg loom"` swaps in [loom]'s instrumented versions and the model checks in
//! `tests/loom.rs` explore every interleaving and every weak-memory outcome the orderings allow.
//!
//! Shared-memory files (`soft::shm`, absent under loom) build their atomics from raw pointers
//! with `std`'s `AtomicU64::from_ptr`, which loom cannot model; their algorithm is the same code
//! as the in-process cells that loom does check.
//!
//! [loom]: https://docs.rs/loom

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU64, Ordering, compiler_fence};
// Used by `port::release_before_doorbell` on targets other than x86-64.
#[cfg(not(loom))]
#[cfg_attr(target_arch = "x86_64", allow(unused_imports))]
pub(crate) use std::sync::atomic::fence;

#[cfg(loom)]
#[cfg_attr(target_arch = "x86_64", allow(unused_imports))]
pub(crate) use loom::sync::atomic::fence;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU64, Ordering};

/// A compiler-only fence under loom is modelled as a real fence: loom has no compiler fences,
/// and a stronger fence can only hide bugs the weaker one would have, never invent them. The
/// loom models therefore check the *abstract* ordering (a release before the doorbell), and
/// the hardware argument in `offload` maps it onto the machine.
#[cfg(loom)]
pub(crate) fn compiler_fence(order: Ordering) {
    loom::sync::atomic::fence(order);
}

/// One pause of a spin-wait: the CPU's spin-loop hint (`pause` on x86), or a loom yield.
#[inline(always)]
pub(crate) fn spin_loop() {
    #[cfg(not(loom))]
    std::hint::spin_loop();
    #[cfg(loom)]
    loom::hint::spin_loop();
}

/// Give the CPU to another thread (a `sched_yield`), or a loom yield.
#[inline]
pub(crate) fn yield_now() {
    #[cfg(not(loom))]
    std::thread::yield_now();
    #[cfg(loom)]
    loom::thread::yield_now();
}
