//! Software barriers over shared memory: the fallback when offload is unavailable, and the
//! peers the benchmark compares the GBA with.
//!
//! Two algorithms, each for threads ([`HeapCells`]) and for processes ([`shm`], a
//! shared-memory file), through one type [`SoftBarrier`]; and [`StdBarrier`] over
//! `std::sync::Barrier` for threads.
//!
//! **Central counter, sense-reversing** (2 slots: `count`, `sense`). Episode `k` has sense
//! `k mod 2`. Each member `fetch_add`s `count` (AcqRel); the last one (it read `n − 1`) resets
//! `count` to 0 and then stores the new sense (Release); the others wait until `sense` equals
//! theirs (Acquire). The reset happens-before the sense store, which happens-before any
//! member's next `fetch_add`, so the next episode starts from 0. The AcqRel RMWs form one
//! release sequence, so the last arriver has acquired every member's earlier writes and its
//! release passes them on. O(n) contention on one line; 1 round trip.
//!
//! **Dissemination** (`n × ⌈log2 n⌉` slots). In round `r` member `i` signals member
//! `(i + 2^r) mod n` by storing `k` into that member's round-`r` slot (Release), then waits for
//! its own round-`r` slot to reach `k` (Acquire). Each slot has exactly one writer and only
//! grows (episodes are `u64`), so a signal for `k + 1` that overwrites `k` still satisfies
//! `>= k`. After `⌈log2 n⌉` rounds every member has (transitively) heard from every other, so
//! no one leaves before all entered. No RMW, no shared hot line; `log2 n` round trips.

mod cells;
#[cfg(not(loom))]
pub mod shm;
#[cfg(not(loom))]
mod std_barrier;

use std::time::{Duration, Instant};

pub use cells::{Cells, HeapCells};
#[cfg(not(loom))]
pub use std_barrier::StdBarrier;

use crate::primitive::Ordering;
use crate::wait_error::{Missing, Result, WaitError, Who};
use crate::wait_loop::{Stop, WaitPolicy, wait_until};

/// Which software algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Sense-reversing central counter.
    CentralCounter,
    /// Dissemination (Hensgen, Finkel, Manber).
    Dissemination,
}

impl Algorithm {
    /// Slots the algorithm needs for `members` members.
    pub fn slots(self, members: usize) -> usize {
        match self {
            Algorithm::CentralCounter => 2,
            Algorithm::Dissemination => members * rounds(members) as usize,
        }
    }

    /// Short name, as in benchmark tables.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::CentralCounter => "central-counter",
            Algorithm::Dissemination => "dissemination",
        }
    }
}

/// ⌈log2 n⌉: rounds of a dissemination barrier of `n` members.
fn rounds(members: usize) -> u32 {
    members.next_power_of_two().trailing_zeros()
}

const COUNT: usize = 0;
const SENSE: usize = 1;

/// An episode arrived for and not yet completed (after a timeout).
#[derive(Debug, Clone, Copy)]
struct Pending {
    episode: u64,
    /// Dissemination: the round whose signal was sent and whose wait timed out.
    round: u32,
}

/// One member's handle on a software barrier over cells `C`.
#[derive(Debug)]
pub struct SoftBarrier<C: Cells> {
    cells: C,
    algorithm: Algorithm,
    member: usize,
    members: usize,
    episode: u64,
    pending: Option<Pending>,
    name: &'static str,
    /// Every member is a thread or process of this machine: chosen from their number.
    policy: WaitPolicy,
}

impl SoftBarrier<HeapCells> {
    /// A barrier for `members` threads: one handle per member, index = member id. Move each
    /// into its thread.
    ///
    /// # Panics
    /// If `members` is 0.
    pub fn threads(algorithm: Algorithm, members: usize) -> Vec<Self> {
        assert!(members > 0, "a barrier needs at least one member");
        let cells = HeapCells::new(algorithm.slots(members));
        (0..members)
            .map(|m| SoftBarrier::with_cells(cells.clone(), algorithm, m, members))
            .collect()
    }
}

impl<C: Cells> SoftBarrier<C> {
    /// Member `member` of `members` over `cells` (which have `algorithm.slots(members)` slots).
    pub(crate) fn with_cells(
        cells: C,
        algorithm: Algorithm,
        member: usize,
        members: usize,
    ) -> Self {
        debug_assert!(member < members);
        debug_assert!(cells.len() >= algorithm.slots(members));
        let name = match (algorithm, C::KIND) {
            (Algorithm::CentralCounter, "shm") => "central-counter-shm",
            (Algorithm::Dissemination, "shm") => "dissemination-shm",
            (Algorithm::CentralCounter, _) => "central-counter-threads",
            (Algorithm::Dissemination, _) => "dissemination-threads",
        };
        SoftBarrier {
            cells,
            algorithm,
            member,
            members,
            episode: 0,
            pending: None,
            name,
            policy: WaitPolicy::for_processes(members),
        }
    }

    /// This handle's member index.
    pub fn member(&self) -> usize {
        self.member
    }

    /// Members of the barrier.
    pub fn members(&self) -> usize {
        self.members
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The last episode this member arrived for.
    pub fn episode(&self) -> u64 {
        self.episode
    }

    /// Name as in benchmark tables: `"dissemination-shm"`, `"central-counter-threads"` …
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Who this barrier is, for errors.
    pub fn who(&self) -> Who {
        Who::Software {
            name: self.name,
            member: self.member,
            members: self.members,
        }
    }

    /// Arrive and wait for every member (see [`crate::Wait::wait`]). After a timeout the
    /// episode stays pending: [`SoftBarrier::resume`] finishes it; `wait` refuses to arrive
    /// again until then.
    pub fn wait(&mut self, timeout: Option<Duration>) -> Result<()> {
        if let Some(p) = self.pending {
            return Err(Box::new(WaitError::Pending {
                who: self.who(),
                episode: p.episode,
            }));
        }
        self.episode += 1;
        let k = self.episode;
        match self.algorithm {
            Algorithm::CentralCounter => {
                if self.cells.fetch_add(COUNT, 1, Ordering::AcqRel) == self.members as u64 - 1 {
                    // Last to arrive: reset for the next episode, then release everyone.
                    self.cells.store(COUNT, 0, Ordering::Relaxed);
                    self.cells.store(SENSE, k & 1, Ordering::Release);
                    return Ok(());
                }
                self.finish(
                    Pending {
                        episode: k,
                        round: 0,
                    },
                    timeout,
                )
            }
            Algorithm::Dissemination => {
                if self.members == 1 {
                    return Ok(());
                }
                self.signal(k, 0);
                self.finish(
                    Pending {
                        episode: k,
                        round: 0,
                    },
                    timeout,
                )
            }
        }
    }

    /// Finish the episode a timed-out wait left pending. `Ok` at once if none is pending.
    pub fn resume(&mut self, timeout: Option<Duration>) -> Result<()> {
        match self.pending {
            Some(p) => self.finish(p, timeout),
            None => Ok(()),
        }
    }

    /// Dissemination: send this member's round-`round` signal for episode `k`.
    #[inline]
    fn signal(&self, k: u64, round: u32) {
        let partner = (self.member + (1 << round)) % self.members;
        self.cells
            .store(self.slot(partner, round), k, Ordering::Release);
    }

    fn slot(&self, member: usize, round: u32) -> usize {
        member * rounds(self.members) as usize + round as usize
    }

    /// Wait out episode `p.episode` from where `p` says (its signal for `p.round` is sent).
    fn finish(&mut self, p: Pending, timeout: Option<Duration>) -> Result<()> {
        let k = p.episode;
        let outcome = match self.algorithm {
            Algorithm::CentralCounter => {
                let cells = &self.cells;
                wait_until(
                    || cells.load(SENSE, Ordering::Acquire) == k & 1,
                    || {},
                    || Ok::<(), ()>(()),
                    timeout,
                    self.policy,
                )
                .map_err(|stop| (stop, p))
            }
            Algorithm::Dissemination => {
                // One deadline for all rounds (the clock is read only when there is one).
                let start = timeout.map(|_| Instant::now());
                let mut result = Ok(());
                for round in p.round..rounds(self.members) {
                    if round > p.round {
                        self.signal(k, round);
                    }
                    let left = timeout
                        .zip(start)
                        .map(|(t, s)| t.saturating_sub(s.elapsed()));
                    let (cells, mine) = (&self.cells, self.slot(self.member, round));
                    if let Err(stop) = wait_until(
                        || cells.load(mine, Ordering::Acquire) >= k,
                        || {},
                        || Ok::<(), ()>(()),
                        left,
                        self.policy,
                    ) {
                        let stop = match (stop, start) {
                            (Stop::TimedOut(_), Some(s)) => Stop::TimedOut(s.elapsed()),
                            (stop, _) => stop,
                        };
                        result = Err((stop, Pending { episode: k, round }));
                        break;
                    }
                }
                result
            }
        };
        match outcome {
            Ok(()) => {
                self.pending = None;
                Ok(())
            }
            Err((stop, at)) => {
                self.pending = Some(at);
                let waited = match stop {
                    Stop::TimedOut(waited) => waited,
                    Stop::Failed(()) => unreachable!("software barriers have no failure check"),
                };
                let missing = match self.algorithm {
                    Algorithm::CentralCounter => Missing::Count {
                        arrived: self.cells.load(COUNT, Ordering::Relaxed),
                        members: self.members as u64,
                    },
                    Algorithm::Dissemination => Missing::Partner {
                        member: (self.member + self.members - (1 << at.round) % self.members)
                            % self.members,
                        round: at.round,
                    },
                };
                Err(Box::new(WaitError::Timeout {
                    who: self.who(),
                    episode: k,
                    waited,
                    missing,
                }))
            }
        }
    }
}

impl<C: Cells> crate::Wait for SoftBarrier<C> {
    fn wait(&mut self, timeout: Option<Duration>) -> Result<()> {
        SoftBarrier::wait(self, timeout)
    }

    fn who(&self) -> Who {
        SoftBarrier::who(self)
    }
}
