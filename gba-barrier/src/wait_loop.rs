//! The wait loop every barrier in this crate uses: check, spin, drive progress, yield.
//!
//! ```text
//! wait_until(released, progress, check, timeout):
//!     if released(): return Ok                          -- (1) fast path
//!     backoff = Backoff::new()
//!     loop:
//!         match backoff.stage():
//!             Spin     -> pause once                       -- (2)
//!             Progress -> progress(); pause PROGRESS_BURST -- (3)
//!             Yield    -> progress();                      -- (4)
//!                         if released(): return Ok
//!                         check()?; deadline passed? -> TimedOut
//!                         yield_now()
//!         backoff.step()
//!         if released(): return Ok
//! ```
//!
//! 1. **Fast path.** The release usually came while the caller computed (split phase) or
//!    arrives within a few hundred nanoseconds; the first check costs one load and no clock
//!    read, no call.
//! 2. **Spin** (`step <= SPIN_LIMIT`): one `spin_loop` hint (`pause` on x86) between
//!    looks, 128 looks in all. Cheapest wake-up latency; the pause keeps the sibling
//!    hyperthread and the memory bus free while we poll a line that only the releaser writes
//!    (a look at a line this core holds costs nothing to the releaser). Not exponential
//!    bursts: a release lands in the middle of a burst and waits for its end, so doubling
//!    bursts add up to half the wait to it (at ~16 ns a pause, a release 300 ns into the wait
//!    lands in the fifth burst, 240–496 ns, and is seen ~200 ns late: raw_barrier np=2 went
//!    from 0.40 to 0.354 µs when the looks became one pause apart; tests/bench/README.md,
//!    2026-11-28).
//! 3. **Progress** (`step <= PROGRESS_LIMIT`): the release did not come quickly, so somebody
//!    may need this thread: call the device's progress function between bursts (the simulator
//!    steps its switch model there; a runtime drives its own progress through a hook). Hardware
//!    ports make it a no-op.
//! 4. **Yield** (afterwards, for ever): give the CPU away with `yield_now`, after a progress
//!    call, a look at the flag and a device-error `check` (an MMIO read: too dear for stages
//!    2–3, cheap next to a system call). The look comes right after progress because a
//!    runtime's progress hook may have yielded already: OpenMPI's `opal_progress` calls
//!    `sched_yield` itself when it found nothing to do and `mpi_yield_when_idle` is set (what
//!    mpirun sets when it oversubscribes a node). Without the look, a release that came during
//!    the hook's yield waited for a second one: two context switches per waiter and episode
//!    where OpenMPI's own barrier pays one. The timeout clock starts when stage 2 ends, so a
//!    wait that completes while spinning never reads the clock; the timeout is late by at
//!    most one spin stage (a few µs).
//!
//! The limits are named constants; they trade wake-up latency against CPU burnt by a waiter
//! that oversubscribes its cores (this machine: 2 cores, benchmark runs 2+ members).
//!
//! # Giving way: [`WaitPolicy`]
//!
//! Stages 2 and 3 last 384 pauses: ~6 µs on this project's test machine (a `pause` ~16 ns),
//! longer where a `pause` is slower. That is the right bet when every member has a core of its
//! own: the release comes within the spin.
//! When this machine runs more of the barrier's processes than it has cores
//! (oversubscribed: hyperthreads, a co-scheduled job, `mpirun --oversubscribe`), the member
//! being waited for may not be running at all, and every microsecond spun is taken from it:
//! a waiter must give its core away at once. [`WaitPolicy::Yield`] starts at stage 4 (yield,
//! after a progress call and the checks), skipping 2 and 3; the fast path (1) is the same
//! for both, so the hot path does not change. OpenMPI's own barrier does the same under
//! oversubscription (`mpi_yield_when_idle`: `sched_yield` in every progress loop).
//!
//! The policy is chosen when a barrier is made: `Yield` when the barrier's processes on this
//! machine outnumber the CPUs they may run on, else `Spin`; the environment variable
//! `GBA_WAIT_POLICY` (`spin` or `yield`) overrides it. A team counts its ranks on this machine
//! (a machine key in its vote) and the union of their CPU affinities, so ranks pinned one to
//! a core spin and four unpinned ranks on two cores yield
//! ([`WaitPolicy::for_processes_on`]); a barrier made without a team counts the processes
//! sharing its port against this process's own CPUs ([`WaitPolicy::for_processes`],
//! `std::thread::available_parallelism`, which honours affinity masks and cgroup quotas),
//! and on the simulator also every member port as one more process of this machine against
//! its online CPUs (`AnyDevice::barrier`: all of a fabric's ports are on this machine).
//! No sleep stage: `sched_yield` already lets every runnable process of this core's run queue
//! run, and a sleeping waiter would add its timer slack (50 µs by default) to every episode
//! it waits on. Under OpenMPI with `mpi_yield_when_idle` a round of stage 4 yields twice
//! (once in `opal_progress`, once here), each followed by a look at the flag: what OpenMPI's
//! own barrier does per poll, twice (tests/bench/README.md, 2026-11-28).

use std::time::{Duration, Instant};

use crate::primitive::{spin_loop, yield_now};

/// Last step of the spin stage: steps 0 … SPIN_LIMIT each pause once, then look (128 in all).
#[cfg(not(loom))]
pub const SPIN_LIMIT: u32 = 127;
/// Last step of the progress stage; each of its steps is a progress call and
/// [`PROGRESS_BURST`] pauses.
#[cfg(not(loom))]
pub const PROGRESS_LIMIT: u32 = SPIN_LIMIT + 4;
/// Pauses between two looks in the progress stage.
#[cfg(not(loom))]
pub const PROGRESS_BURST: u32 = 64;

// Under loom every pause is a scheduling point; keep one of each stage so that the models
// stay small and still pass through every stage.
#[cfg(loom)]
pub const SPIN_LIMIT: u32 = 0;
#[cfg(loom)]
pub const PROGRESS_LIMIT: u32 = 1;
#[cfg(loom)]
pub const PROGRESS_BURST: u32 = 1;

/// How a wait spends the time between the first miss and the release: spin, drive progress,
/// then yield; or yield at once. (The stages and their limits: `gba-barrier/src/wait_loop.rs`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WaitPolicy {
    /// Spin, then drive progress between spins, then yield: every member has a core.
    #[default]
    Spin,
    /// Yield from the first miss: this machine runs more of the barrier's processes than it
    /// has cores, and the member waited for may need this one's.
    Yield,
}

/// The environment variable that overrides the automatic choice: `spin` or `yield`.
pub const WAIT_POLICY_ENV: &str = "GBA_WAIT_POLICY";

impl WaitPolicy {
    /// The policy for a barrier with `local` processes on this machine (this one included):
    /// [`Yield`](Self::Yield) when they outnumber this process's usable cores, unless
    /// [`WAIT_POLICY_ENV`] says otherwise.
    #[must_use]
    pub fn for_processes(local: usize) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self::for_processes_on(local, cores)
    }

    /// The policy for `local` processes that may run on `cores` CPUs between them, unless
    /// [`WAIT_POLICY_ENV`] says otherwise.
    #[must_use]
    pub fn for_processes_on(local: usize, cores: usize) -> Self {
        // Loom's models must not depend on the machine they run on.
        if cfg!(loom) {
            return WaitPolicy::Spin;
        }
        Self::from_env().unwrap_or(Self::choose(local, cores))
    }

    /// The automatic choice alone (pure, for tests).
    #[must_use]
    pub const fn choose(local: usize, cores: usize) -> Self {
        if local > cores {
            WaitPolicy::Yield
        } else {
            WaitPolicy::Spin
        }
    }

    /// [`WAIT_POLICY_ENV`], if set to a policy's name. Any other value is ignored with a
    /// warning on stderr, once: a typo must not silently change nothing.
    fn from_env() -> Option<Self> {
        let value = std::env::var(WAIT_POLICY_ENV).ok()?;
        match value.trim() {
            "spin" => Some(WaitPolicy::Spin),
            "yield" => Some(WaitPolicy::Yield),
            other => {
                static WARNED: std::sync::Once = std::sync::Once::new();
                WARNED.call_once(|| {
                    eprintln!(
                        "gba-barrier: {WAIT_POLICY_ENV}={other:?} is neither `spin` nor \
                         `yield`; ignored (the policy is chosen by the processes per core)"
                    );
                });
                None
            }
        }
    }
}

/// What the wait loop does next, named by intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Burn a short, growing burst of spin-loop hints.
    Spin,
    /// Call the progress function, then spin the longest burst.
    Progress,
    /// Call progress, check for device errors and the deadline, then yield the CPU.
    Yield,
}

/// Where a wait loop stands (crossbeam's `Backoff`, with a progress stage in the middle).
#[derive(Debug, Default)]
pub struct Backoff {
    step: u32,
}

impl Backoff {
    /// A fresh backoff, at the first spin step.
    #[must_use]
    pub const fn new() -> Self {
        Backoff { step: 0 }
    }

    /// A backoff that starts where `policy` says: at the first spin step, or yielding.
    #[must_use]
    pub const fn with_policy(policy: WaitPolicy) -> Self {
        match policy {
            WaitPolicy::Spin => Backoff::new(),
            WaitPolicy::Yield => Backoff {
                step: PROGRESS_LIMIT + 1,
            },
        }
    }

    /// The stage the wait loop is in at this step.
    #[inline]
    #[must_use]
    pub const fn stage(&self) -> Stage {
        if self.step <= SPIN_LIMIT {
            Stage::Spin
        } else if self.step <= PROGRESS_LIMIT {
            Stage::Progress
        } else {
            Stage::Yield
        }
    }

    /// Pause for the current step's burst of spin-loop hints (stages Spin and Progress), then
    /// advance. Does not yield: the caller does that in stage Yield, after its checks.
    #[inline]
    pub fn spin(&mut self) {
        let burst = if self.step <= SPIN_LIMIT {
            1
        } else {
            PROGRESS_BURST
        };
        for _ in 0..burst {
            spin_loop();
        }
        self.advance();
    }

    /// Advance one step (saturating in stage Yield).
    #[inline]
    pub fn advance(&mut self) {
        if self.step <= PROGRESS_LIMIT {
            self.step += 1;
        }
    }
}

/// Why [`wait_until`] returned without the release.
#[derive(Debug)]
pub(crate) enum Stop<E> {
    /// The deadline passed; the wait lasted this long (from the end of the spin stage).
    TimedOut(Duration),
    /// `check` reported a failure.
    Failed(E),
}

/// The wait loop of the module docs. `released` must be cheap (one acquire load); `progress`
/// runs in stages 3–4, `check` in stage 4 only.
#[inline]
pub(crate) fn wait_until<E>(
    mut released: impl FnMut() -> bool,
    mut progress: impl FnMut(),
    mut check: impl FnMut() -> Result<(), E>,
    timeout: Option<Duration>,
    policy: WaitPolicy,
) -> Result<(), Stop<E>> {
    // (1) Fast path.
    if released() {
        return Ok(());
    }
    slow_wait(&mut released, &mut progress, &mut check, timeout, policy)
}

/// Stages 2–4, out of line so that the fast path inlines small.
#[cold]
#[inline(never)]
fn slow_wait<E>(
    released: &mut dyn FnMut() -> bool,
    progress: &mut dyn FnMut(),
    check: &mut dyn FnMut() -> Result<(), E>,
    timeout: Option<Duration>,
    policy: WaitPolicy,
) -> Result<(), Stop<E>> {
    let mut backoff = Backoff::with_policy(policy);
    let mut started: Option<Instant> = None;
    loop {
        match backoff.stage() {
            // (2) Spin.
            Stage::Spin => backoff.spin(),
            // (3) Progress.
            Stage::Progress => {
                started.get_or_insert_with(Instant::now);
                progress();
                backoff.spin();
            }
            // (4) Yield.
            Stage::Yield => {
                let start = *started.get_or_insert_with(Instant::now);
                progress();
                // Look before giving the CPU away: a runtime's progress hook may itself have
                // yielded (OpenMPI's opal_progress does when idle under mpi_yield_when_idle),
                // and the release that came meanwhile must not wait for a second yield.
                if released() {
                    return Ok(());
                }
                check().map_err(Stop::Failed)?;
                if let Some(waited) = expired(start, timeout) {
                    // A release that came with the deadline still counts.
                    if released() {
                        return Ok(());
                    }
                    return Err(Stop::TimedOut(waited));
                }
                yield_now();
                backoff.advance();
            }
        }
        if released() {
            return Ok(());
        }
    }
}

/// `Some(elapsed)` once `timeout` has passed since `start`.
fn expired(start: Instant, timeout: Option<Duration>) -> Option<Duration> {
    let timeout = timeout?;
    let waited = start.elapsed();
    (waited >= timeout).then_some(waited)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn yield_only_when_the_processes_outnumber_the_cores() {
        assert_eq!(WaitPolicy::choose(2, 2), WaitPolicy::Spin);
        assert_eq!(WaitPolicy::choose(1, 8), WaitPolicy::Spin);
        assert_eq!(WaitPolicy::choose(3, 2), WaitPolicy::Yield);
        assert_eq!(WaitPolicy::choose(8, 2), WaitPolicy::Yield);
    }

    #[test]
    fn a_yielding_wait_skips_the_spin_and_progress_stages() {
        assert_eq!(Backoff::with_policy(WaitPolicy::Spin).stage(), Stage::Spin);
        assert_eq!(
            Backoff::with_policy(WaitPolicy::Yield).stage(),
            Stage::Yield
        );
    }

    /// A release that came during the progress call (a runtime's hook that yielded the CPU
    /// itself: OpenMPI's opal_progress under mpi_yield_when_idle) is seen before the loop
    /// checks the device and yields again: no second context switch for it.
    #[test]
    fn a_release_during_progress_ends_the_wait_before_the_next_yield() {
        let released = std::cell::Cell::new(false);
        let checks_after_release = std::cell::Cell::new(0usize);
        let out = wait_until(
            || released.get(),
            || released.set(true),
            || {
                if released.get() {
                    checks_after_release.set(checks_after_release.get() + 1);
                }
                Ok::<(), ()>(())
            },
            None,
            WaitPolicy::Yield,
        );
        assert!(out.is_ok());
        assert_eq!(
            checks_after_release.get(),
            0,
            "the wait went on to check and yield after the release"
        );
    }

    /// The wait calls progress at every step in stage 4; a yielding wait reaches it at once,
    /// a spinning one only after its SPIN_LIMIT + 1 spin steps, each one look at the flag.
    #[test]
    fn progress_comes_first_when_yielding() {
        for (policy, first_progress_after) in [
            (WaitPolicy::Yield, 0),
            (WaitPolicy::Spin, SPIN_LIMIT as usize + 1),
        ] {
            let checks = std::cell::Cell::new(0usize);
            let mut progress_at = None;
            let out = wait_until(
                || {
                    checks.set(checks.get() + 1);
                    checks.get() > SPIN_LIMIT as usize + 20
                },
                || {
                    progress_at.get_or_insert(checks.get());
                },
                || Ok::<(), ()>(()),
                None,
                policy,
            );
            assert!(out.is_ok());
            // `checks` counts the fast path's check too.
            assert_eq!(progress_at, Some(first_progress_after + 1), "{policy:?}");
        }
    }
}
