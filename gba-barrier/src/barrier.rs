//! The offloaded barrier, [`Barrier`], whose documentation holds the hot path and the
//! memory-ordering argument (they are what a user relies on).

use std::time::Duration;

use crossbeam_utils::CachePadded;

use crate::port_trait::Port;
use crate::protocol::{arrival_word_with, member_part, reached};
use crate::wait_error::{Missing, Result, WaitError, Who};
use crate::wait_loop::{Stop, WaitPolicy, wait_until};

/// Everything the hot path touches: the per-member state and the port (whose doorbell and flag
/// pointers it loads), together on one cache-padded block, so that the path reads one line and
/// a caller keeping barriers in an array, or next to hot data of its own, has no false sharing.
#[derive(Debug)]
struct Hot<P> {
    /// The last episode this member arrived for (0: none yet), with [`PENDING`] set while it
    /// has been arrived for but not yet seen released.
    state: u64,
    /// ARRIVAL's MEMBER_ID field for this member, ready to OR with a sequence.
    member_part: u64,
    port: P,
}

/// Bit 63 of [`Hot::state`]: the episode is pending.
const PENDING: u64 = 1 << 63;

impl<P> Hot<P> {
    #[inline(always)]
    fn episode(&self) -> u64 {
        self.state & !PENDING
    }

    #[inline(always)]
    fn is_pending(&self) -> bool {
        self.state & PENDING != 0
    }

    #[inline(always)]
    fn set_pending(&mut self, pending: bool) {
        self.state = self.episode() | if pending { PENDING } else { 0 };
    }
}

/// One member's barrier over a configured GBA group: arrive by one doorbell store, wait by
/// polling one flag.
///
/// # The hot path
///
/// ```text
/// wait(timeout):
///     k = state + 1                             -- (1) one add; its sign is the pending flag
///     if k as i64 < 0: return Err(Pending)
///     state = k                                 -- (2) host count, u64, never wraps
///     port.ring(member_part | (k mod 2^32))     -- (3) release-ordered doorbell store
///     if reached(port.flag(), k): return Ok     -- (4) acquire load, serial compare
///     state |= PENDING; wait loop (wait_loop.rs) -- (5) out of line, tail call
/// ```
///
/// Compiled for x86-64 over gba-pac's register handles this is 14 instructions as a function,
/// `ret` included, with no stack frame (`benches/callgrind.sh`; the seeds' C send + poll is 13
/// with the sequence handed in a register, their barrier function 18).
///
/// 1. A dropped [`Pending`] or a timed-out wait leaves its episode pending; arriving again
///    would be a second arrival for the same episode (SEQ_ERROR on the device), so it is
///    refused. The borrow of [`Pending`] makes the same mistake a compile error in the
///    ordinary case. The flag lives in bit 63 of the episode word (`PENDING`), so the check
///    is the sign of the increment the count needs anyway: no extra load or compare.
///    Episodes stay below 2^63 (at one per nanosecond, 292 years).
/// 2. The episode count is `u64`; only the wire sees it mod 2^32 (`protocol.rs`).
/// 3. `member_part` is the MEMBER_ID field computed once with gba-pac's field definition, so
///    the store is one OR and one store.
/// 4. The flag is in the member's own cache-line-sized, cache-line-aligned slot written only
///    by the device; polling it is a local L1 hit until the DMA write invalidates it.
/// 5. Everything after the first miss is `#[cold]`: spin, progress, yield (see
///    `wait_loop.rs`).
///
/// # Memory ordering
///
/// The promise: data a member wrote before it arrived for episode `k` is visible to every
/// member after that member's wait for `k` returns; and no member's wait for `k` returns before
/// every member arrived for `k`.
///
/// - **Arrive is a release, not a fence.** [`Port::ring`] stores the doorbell with release
///   ordering: every earlier load and store of this thread is ordered before it. No full fence
///   (`mfence`, ~16 ns here against ~1.5 ns for the whole inlined hot path) is needed, because
///   nothing *after* the arrival needs ordering against it: the next access that matters is
///   the flag load, and that one only has to see the device's write. On x86-64 with an
///   uncached mapping a release costs no instruction (TSO; see
///   [`crate::release_before_doorbell`]); a **write-combining** mapping needs an `sfence`
///   before the doorbell (and one after to flush it promptly), which such a port must add.
/// - **The switch** aggregates: in the model (and in `tests/loom.rs`), it observes each
///   arrival with an acquire load and writes the release flags with release stores, so each
///   arrival happens-before each flag write.
/// - **Observing the release is an acquire load** of the flag. The arrival of every member
///   happens-before the flag write (above), which happens-before this load returns `k`, so
///   every member's pre-arrival writes happen-before the caller's code after `wait`. On x86 an
///   acquire load is a plain `mov`; DMA into write-back memory is cache-coherent.
/// - **No early release.** The switch writes `k` only after all members' arrivals for `k`;
///   `protocol::reached` accepts only flags at or after `k` in serial arithmetic,
///   which is exact while the flag stays within 2^31 episodes of `k` (it is always `k-1` or
///   `k` while a member waits).
#[derive(Debug)]
pub struct Barrier<P: Port> {
    hot: CachePadded<Hot<P>>,
    /// Read only after the first miss, in the out-of-line wait.
    policy: WaitPolicy,
}

impl<P: Port> Barrier<P> {
    /// A barrier over a freshly configured group (RELEASE_SEQ = 0): the first episode is 1.
    pub fn new(port: P) -> Self {
        Self::resume_at(port, 0)
    }

    /// A barrier over a group whose last completed episode is `completed` (every member must
    /// pass the same value; the group's RELEASE_SEQ must equal `completed mod 2^32`).
    ///
    /// # Panics
    /// If `completed >= 2^63 - 1` (episodes stay below 2^63).
    pub fn resume_at(port: P, completed: u64) -> Self {
        assert!(
            completed < PENDING - 1,
            "episode {completed} out of range (< 2^63 - 1)"
        );
        let member_part = member_part(port.member());
        Barrier {
            hot: CachePadded::new(Hot {
                state: completed,
                member_part,
                port,
            }),
            policy: WaitPolicy::Spin,
        }
    }

    /// How a wait spends the time after its first miss ([`WaitPolicy`]; `Spin` unless set).
    /// A team sets it from how many of its processes share this machine.
    pub fn set_wait_policy(&mut self, policy: WaitPolicy) {
        self.policy = policy;
    }

    /// How a wait spends the time after its first miss (`Spin` unless set).
    pub fn wait_policy(&self) -> WaitPolicy {
        self.policy
    }

    /// The port this barrier runs on.
    pub fn port(&self) -> &P {
        &self.hot.port
    }

    /// Give the port back (to reset and release the group), with the last episode arrived
    /// for, and whether it was still pending.
    pub fn into_port(self) -> (P, u64, bool) {
        let (episode, pending) = (self.hot.episode(), self.hot.is_pending());
        (CachePadded::into_inner(self.hot).port, episode, pending)
    }

    /// The last episode this member arrived for (0 before the first).
    pub fn episode(&self) -> u64 {
        self.hot.episode()
    }

    /// Whether an arrival is pending (arrived, release not yet seen).
    pub fn is_pending(&self) -> bool {
        self.hot.is_pending()
    }

    /// Who this barrier is, for errors.
    pub fn who(&self) -> Who {
        Who::Group {
            group: self.hot.port.group(),
            member: self.hot.port.member(),
        }
    }

    /// Arrive and wait for everyone: the barrier. `None` waits for ever; a timeout returns
    /// [`WaitError::Timeout`] naming the missing members and leaves the episode pending
    /// (resume it with [`Barrier::pending`]).
    #[inline]
    pub fn wait(&mut self, timeout: Option<Duration>) -> Result<()> {
        let k = self.ring()?;
        if reached(self.hot.port.flag(), k) {
            return Ok(());
        }
        self.hot.set_pending(true);
        self.wait_slow(k, timeout)
    }

    /// Split phase, first half: arrive for the next episode and return a handle to complete it
    /// with. While the handle lives the barrier is borrowed, so no second arrive can happen:
    ///
    /// ```compile_fail
    /// fn twice<P: gba_barrier::Port>(barrier: &mut gba_barrier::Barrier<P>) {
    ///     let first = barrier.arrive().unwrap();
    ///     let second = barrier.arrive().unwrap(); // error: `barrier` is still borrowed
    ///     drop((first, second));
    /// }
    /// ```
    ///
    /// while completing the first one releases the borrow:
    ///
    /// ```
    /// fn twice<P: gba_barrier::Port>(barrier: &mut gba_barrier::Barrier<P>) -> gba_barrier::Result<()> {
    ///     let first = barrier.arrive()?;
    ///     first.wait(None)?;
    ///     let mut second = barrier.arrive()?;
    ///     while !second.test() {}
    ///     Ok(())
    /// }
    /// ```
    #[inline]
    pub fn arrive(&mut self) -> Result<Pending<'_, P>> {
        self.ring()?;
        self.hot.set_pending(true);
        Ok(Pending { barrier: self })
    }

    /// The pending episode, if an earlier [`Pending`] was dropped or a wait timed out.
    pub fn pending(&mut self) -> Option<Pending<'_, P>> {
        if self.hot.is_pending() {
            Some(Pending { barrier: self })
        } else {
            None
        }
    }

    /// What the device says about the current episode.
    pub fn diagnose(&self) -> crate::port_trait::Diagnosis {
        self.hot.port.diagnose()
    }

    /// Steps (1)–(3) of the hot path: refuse a second arrival, count, ring.
    #[inline(always)]
    fn ring(&mut self) -> Result<u64> {
        // One add gives the next episode and, in its sign, whether one is pending.
        let k = self.hot.state.wrapping_add(1);
        if k & PENDING != 0 {
            return Err(self.pending_error());
        }
        debug_assert!(k < PENDING, "episode count reached 2^63");
        self.hot.state = k;
        self.hot
            .port
            .ring(arrival_word_with(self.hot.member_part, k));
        Ok(k)
    }

    #[cold]
    #[inline(never)]
    fn pending_error(&self) -> Box<WaitError> {
        Box::new(WaitError::Pending {
            who: self.who(),
            episode: self.hot.episode(),
        })
    }

    /// Step (5): the wait loop, then clear `pending` or build the error.
    #[cold]
    #[inline(never)]
    fn wait_slow(&mut self, k: u64, timeout: Option<Duration>) -> Result<()> {
        let port = &self.hot.port;
        let outcome = wait_until(
            || reached(port.flag(), k),
            || port.progress(),
            || port.fault().map_or(Ok(()), Err),
            timeout,
            self.policy,
        );
        match outcome {
            Ok(()) => {
                self.hot.set_pending(false);
                Ok(())
            }
            Err(stop) => {
                let diagnosis = self.hot.port.diagnose();
                let missing = Missing::from(diagnosis.missing);
                Err(Box::new(match stop {
                    Stop::TimedOut(waited) => WaitError::Timeout {
                        who: self.who(),
                        episode: k,
                        waited,
                        missing,
                    },
                    Stop::Failed(fault) => WaitError::Device {
                        who: self.who(),
                        episode: k,
                        fault,
                        missing,
                    },
                }))
            }
        }
    }
}

/// An arrival whose release has not been seen yet (split phase: `MPI_Ibarrier`,
/// `shmem_barrier_all` overlapped with work). Dropping it leaves the episode pending on the
/// barrier; [`Barrier::pending`] gives it back.
#[derive(Debug)]
#[must_use = "an arrival must be completed with test() or wait()"]
pub struct Pending<'a, P: Port> {
    barrier: &'a mut Barrier<P>,
}

impl<P: Port> Pending<'_, P> {
    /// The episode this arrival is for.
    pub fn episode(&self) -> u64 {
        self.barrier.hot.episode()
    }

    /// Poll once: `true` (and the episode is complete) if released; otherwise drive progress
    /// once and poll again. Never blocks; does not read device status (see
    /// [`Barrier::diagnose`]).
    #[inline]
    pub fn test(&mut self) -> bool {
        let k = self.barrier.hot.episode();
        let port = &self.barrier.hot.port;
        let done = reached(port.flag(), k) || {
            port.progress();
            reached(port.flag(), k)
        };
        if done {
            self.barrier.hot.set_pending(false);
        }
        done
    }

    /// As [`test`](Self::test), and when not yet released, the group's device error as
    /// [`wait`](Self::wait) reports it (one status read): a failed group is reported at
    /// once instead of polling as "not yet" for ever.
    pub fn poll(&mut self) -> Result<bool> {
        if self.test() {
            return Ok(true);
        }
        match self.barrier.hot.port.fault() {
            None => Ok(false),
            Some(fault) => Err(Box::new(WaitError::Device {
                who: self.barrier.who(),
                episode: self.episode(),
                fault,
                missing: Missing::from(self.barrier.hot.port.diagnose().missing),
            })),
        }
    }

    /// Wait for the release, as [`Barrier::wait`] does after arriving.
    #[inline]
    pub fn wait(self, timeout: Option<Duration>) -> Result<()> {
        let k = self.barrier.hot.episode();
        if reached(self.barrier.hot.port.flag(), k) {
            self.barrier.hot.set_pending(false);
            return Ok(());
        }
        self.barrier.wait_slow(k, timeout)
    }
}

impl<P: Port> crate::Wait for Barrier<P> {
    fn wait(&mut self, timeout: Option<Duration>) -> Result<()> {
        Barrier::wait(self, timeout)
    }

    fn who(&self) -> Who {
        Barrier::who(self)
    }
}
