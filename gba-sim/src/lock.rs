//! The step lock: one switch step at a time across every process of the machine, and no
//! wedge when a process dies holding it.
//!
//! The lock word holds 0 or the process stepping: its pid, and above it its PID namespace
//! (the low 32 bits of the namespace's inode, which the kernel allocates as 32-bit numbers),
//! as claims record them. A process that finds the lock held by a process of its own PID
//! namespace checks whether that process still exists; if not, it takes the lock over with
//! a compare-exchange (only one contender wins), counts the recovery, and steps. A holder in
//! another PID namespace counts as alive: its pid means nothing here (a stepper under
//! `unshare --pid` would otherwise be taken for dead, or for whatever process has its number
//! here, and lose the lock mid-step); if it dies holding the lock, a stepper of its own
//! namespace recovers it, or the fabric is re-created. The switch's steps are written so
//! that re-running one that was cut short converges (see [`crate::engine`]). Threads of one
//! process share the word: a thread that finds its own process holding the lock simply does
//! not step this time.

use crate::fabric::Fabric;
use crate::layout as l;
use gba_hal::backends::monotonic_ns;
use gba_hal::host::process::{alive, my_pid, my_pid_ns};

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

/// The lock word of process `pid` of PID namespace `pid_ns` (0: unknown).
fn lock_word(pid: u64, pid_ns: u64) -> u64 {
    ((pid_ns & 0xffff_ffff) << 32) | (pid & 0xffff_ffff)
}

/// This process's lock word.
fn my_lock_word() -> u64 {
    lock_word(my_pid(), my_pid_ns())
}

/// Whether the holder named by lock word `word` is in another PID namespace than this
/// process (either unknown: no).
fn elsewhere(word: u64) -> bool {
    let (theirs, ours) = (word >> 32, my_pid_ns() & 0xffff_ffff);
    theirs != 0 && ours != 0 && theirs != ours
}

impl Fabric {
    /// Takes the step lock if nobody alive holds it.
    pub fn try_lock_step(&self) -> Option<StepGuard<'_>> {
        let me = my_lock_word();
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

    /// Whether `holder` (a lock word) died: never for a holder in another PID namespace;
    /// asked of the operating system only once `holder` has been seen on the lock for
    /// [`SUSPECT_AFTER_NS`] by this thread, and again at that interval.
    fn holder_is_dead(&self, holder: u64) -> bool {
        if elsewhere(holder) {
            return false;
        }
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
        !alive(holder & 0xffff_ffff)
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

    /// Test support: writes `word` ([`lock_word`]) into the step lock, as a holder would.
    #[cfg(test)]
    fn plant_step_lock(&self, word: u64) {
        self.header(l::H_LOCK).store(word);
    }
}

#[cfg(all(test, not(miri)))]
mod tests {
    use super::*;

    /// Tries the lock until this thread has suspected the holder for longer than
    /// [`SUSPECT_AFTER_NS`] twice (so that it asked the system): what it got.
    fn try_past_suspicion(fabric: &Fabric) -> bool {
        let until = monotonic_ns() + 3 * SUSPECT_AFTER_NS;
        loop {
            if let Some(guard) = fabric.try_lock_step() {
                drop(guard);
                return true;
            }
            if monotonic_ns() > until {
                return false;
            }
            std::thread::yield_now();
        }
    }

    /// A dead holder of this PID namespace is recovered; the same pid recorded from another
    /// namespace is alive (its pid names nothing here) and keeps the lock.
    #[test]
    fn a_holder_in_another_pid_namespace_keeps_the_lock() {
        let fabric = Fabric::in_memory(1).unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = u64::from(child.id());
        child.wait().unwrap();
        let ours = gba_hal::host::process::my_pid_ns();
        assert_ne!(ours, 0, "/proc/self/ns/pid readable");
        fabric.plant_step_lock(lock_word(dead, ours + 1));
        assert!(!try_past_suspicion(&fabric), "another namespace's holder");
        assert_eq!(fabric.header(l::H_LOCK_RECOVERIES).load(), 0);
        fabric.plant_step_lock(lock_word(dead, ours));
        assert!(try_past_suspicion(&fabric), "a dead holder of ours");
        assert_eq!(fabric.header(l::H_LOCK_RECOVERIES).load(), 1);
        assert_eq!(fabric.header(l::H_LOCK).load(), 0, "released");
    }
}
