//! The step lock: one switch step at a time across every process of the machine, and no
//! wedge when a process dies holding it.
//!
//! The lock word holds 0 or the pid of the process stepping. A process that finds it held
//! checks whether that process still exists; if not, it takes the lock over with a
//! compare-exchange (only one contender wins), counts the recovery, and steps. The switch's
//! steps are written so that re-running one that was cut short converges (see
//! [`crate::engine`]). Threads of one process share a pid: a thread that finds its own
//! process holding the lock simply does not step this time.

use crate::fabric::Fabric;
use crate::layout as l;
use gba_hal::backends::clock::monotonic_ns;
use gba_hal::host::process::{alive, my_pid};

/// Held while stepping; releases the lock when dropped, also when a step panics.
#[derive(Debug)]
pub struct StepGuard<'a> {
    fabric: &'a Fabric,
    me: u64,
}

impl Drop for StepGuard<'_> {
    fn drop(&mut self) {
        let _ = self.fabric.header(l::H_LOCK).compare_exchange(self.me, 0);
    }
}

/// How long one process must be seen holding the lock before a contender asks the operating
/// system whether it still exists. Steps take microseconds; asking (a signal probe and a
/// /proc read) on every contended attempt would cost more than the steps.
const SUSPECT_AFTER_NS: u64 = 10_000_000;

thread_local! {
    /// The holder this thread last found on the lock, and since when.
    static SUSPECT: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

impl Fabric {
    /// Takes the step lock if nobody alive holds it.
    pub fn try_lock_step(&self) -> Option<StepGuard<'_>> {
        let me = my_pid();
        let lock = self.header(l::H_LOCK);
        match lock.compare_exchange(0, me) {
            Ok(_) => Some(StepGuard { fabric: self, me }),
            Err(holder) if holder != me && self.holder_is_dead(holder) => {
                lock.compare_exchange(holder, me).ok()?;
                self.header(l::H_LOCK_RECOVERIES).fetch_add(1);
                Some(StepGuard { fabric: self, me })
            }
            Err(_) => None,
        }
    }

    /// Whether `holder` died: asked of the operating system only once `holder` has been seen
    /// on the lock for [`SUSPECT_AFTER_NS`] by this thread, and again at that interval.
    fn holder_is_dead(&self, holder: u64) -> bool {
        let now = monotonic_ns();
        let (suspect, since) = SUSPECT.with(|s| s.get());
        if suspect != holder {
            SUSPECT.with(|s| s.set((holder, now)));
            return false;
        }
        if now.saturating_sub(since) < SUSPECT_AFTER_NS {
            return false;
        }
        SUSPECT.with(|s| s.set((holder, now)));
        !alive(holder)
    }

    /// Takes the step lock, waiting for a live holder to finish (steps are short).
    pub fn lock_step(&self) -> StepGuard<'_> {
        loop {
            if let Some(guard) = self.try_lock_step() {
                return guard;
            }
            std::thread::yield_now();
        }
    }

    /// Test support: takes the step lock and never releases it, as a process killed while
    /// stepping would leave it.
    #[doc(hidden)]
    pub fn leak_step_lock(&self) {
        std::mem::forget(self.lock_step());
    }
}
