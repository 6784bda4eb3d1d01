//! The wait loop every barrier in this crate uses: check, spin, drive progress, yield.
//!
//! ```text
//! wait_until(released, progress, check, timeout):
//!     if released(): return Ok                          -- (1) fast path
//!     backoff = Backoff::new()
//!     loop:
//!         match backoff.stage():
//!             Spin     -> pause 2^step times               -- (2)
//!             Progress -> progress(); pause 2^SPIN_LIMIT   -- (3)
//!             Yield    -> progress(); check()?;            -- (4)
//!                         deadline passed? -> TimedOut
//!                         yield_now()
//!         backoff.step()
//!         if released(): return Ok
//! ```
//!
//! 1. **Fast path.** The release usually came while the caller computed (split phase) or
//!    arrives within a few hundred nanoseconds; the first check costs one load and no clock
//!    read, no call.
//! 2. **Spin** (`step <= SPIN_LIMIT`): exponentially longer bursts of `spin_loop` (`pause` on
//!    x86), 1, 2, 4 … 2^SPIN_LIMIT hints between checks. Cheapest wake-up latency; the pause
//!    keeps the sibling hyperthread and the memory bus free while we poll a line that only the
//!    releaser writes.
//! 3. **Progress** (`step <= PROGRESS_LIMIT`): the release did not come quickly, so somebody
//!    may need this thread: call the device's progress function between bursts (the simulator
//!    steps its switch model there; a runtime drives its own progress through a hook). Hardware
//!    ports make it a no-op.
//! 4. **Yield** (afterwards, for ever): give the CPU away with `yield_now`, after a progress
//!    call and a device-error `check` (an MMIO read: too dear for stages 2–3, cheap next to a
//!    system call). The timeout clock starts when stage 2 ends, so a wait that completes while
//!    spinning never reads the clock; the timeout is late by at most one spin stage (a few µs).
//!
//! The limits are named constants; they trade wake-up latency against CPU burnt by a waiter
//! that oversubscribes its cores (this machine: 2 cores, benchmark runs 2+ members).

use std::time::{Duration, Instant};

use crate::primitive::{spin_loop, yield_now};

/// Last step of the spin stage: bursts of 2^0 … 2^SPIN_LIMIT pauses (127 in all).
#[cfg(not(loom))]
pub const SPIN_LIMIT: u32 = 6;
/// Last step of the progress stage; each of its steps is a progress call and 2^SPIN_LIMIT pauses.
#[cfg(not(loom))]
pub const PROGRESS_LIMIT: u32 = 10;

// Under loom every pause is a scheduling point; keep one of each stage so that the models
// stay small and still pass through every stage.
#[cfg(loom)]
pub const SPIN_LIMIT: u32 = 0;
#[cfg(loom)]
pub const PROGRESS_LIMIT: u32 = 1;

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
        for _ in 0..1u32 << self.step.min(SPIN_LIMIT) {
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
) -> Result<(), Stop<E>> {
    // (1) Fast path.
    if released() {
        return Ok(());
    }
    slow_wait(&mut released, &mut progress, &mut check, timeout)
}

/// Stages 2–4, out of line so that the fast path inlines small.
#[cold]
#[inline(never)]
fn slow_wait<E>(
    released: &mut dyn FnMut() -> bool,
    progress: &mut dyn FnMut(),
    check: &mut dyn FnMut() -> Result<(), E>,
    timeout: Option<Duration>,
) -> Result<(), Stop<E>> {
    let mut backoff = Backoff::new();
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
