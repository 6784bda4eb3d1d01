//! Host combining (docs/design/host.md "Host combining"): L processes of one team on
//! one switch port are one member of the group. Per episode each adds one arrival to the
//! host's counter; the arrival that completes the host's count rings the doorbell (no
//! leader that everyone waits on); all L poll the one release flag the switch writes.
//!
//! ```text
//! arrive(k):  slot.entered = k mod 2^32                -- relaxed, own line, diagnosis only
//!             old = arrivals.fetch_add(1, AcqRel)       -- the one shared atomic operation
//!             if (old + 1) % L == 0: ring(member_part | k mod 2^32)
//! wait(k):    poll the shared flag (acquire) until reached(flag, k)
//! ```
//!
//! # Exactly one doorbell per episode
//!
//! `arrivals` counts every arrival since the claim and is never reset. A process arrives for
//! k + 1 only after its wait for k returned, which needs the switch's release of k, which
//! needs this host's doorbell for k, which needs all L arrivals for k. So every arrival for k
//! sees `old` in `[(k-1)L, kL-1]` (counting k from the claim), and exactly one sees `kL - 1`:
//! `(old + 1) % L == 0` holds for it alone. The test needs no episode number, so the barrier's
//! hot path passes nothing new; `kL < 2^64` for any L ≤ 4095 and k < 2^52.
//!
//! # Memory ordering
//!
//! Every `fetch_add` is a release and an acquire. The RMWs on `arrivals` form one release
//! sequence, so the completing process's `fetch_add` synchronises with each earlier local
//! arrival of the episode: every local process's pre-arrival writes happen-before the
//! completing process's doorbell (a release store), which the switch observes with acquire
//! before it writes the flag with release; every local poller's acquire load of the flag
//! then sees the pre-arrival writes of every process of every host. This is
//! [`crate::Barrier`]'s argument with one more synchronises-with edge in front of the
//! doorbell. A wait that times out leaves the episode pending ([`crate::Barrier`]'s bit 63),
//! so resuming never adds a second arrival. `tests/loom.rs` checks all of this.

use crate::port_trait::{Diagnosis, Port};
use crate::primitive::{AtomicU64, Ordering};

/// The host's combining block as one process sees it.
pub trait Arrivals {
    /// Records the sequence this process enters (diagnosis: who has not arrived).
    fn enter(&self, seq: u64);
    /// `arrivals.fetch_add(1, AcqRel)`: the old value.
    fn add(&self) -> u64;
    /// L, the host's processes in the team.
    fn local(&self) -> u64;
}

/// One arrival of this process, for the doorbell word `word`: true when it completes the
/// host's count, so this process must ring.
#[inline(always)]
pub fn completes(arrivals: &impl Arrivals, word: u64) -> bool {
    arrivals.enter(word & 0xffff_ffff);
    let old = arrivals.add();
    (old + 1).is_multiple_of(arrivals.local())
}

#[cfg(not(loom))]
impl Arrivals for gba_hal::LocalArrivals {
    #[inline(always)]
    fn enter(&self, seq: u64) {
        gba_hal::LocalArrivals::enter(self, seq)
    }
    #[inline(always)]
    fn add(&self) -> u64 {
        gba_hal::LocalArrivals::add(self)
    }
    #[inline(always)]
    fn local(&self) -> u64 {
        self.local
    }
}

/// A host-combining block in this process's memory: threads standing for a host's processes
/// (tests, loom, `gba bench`), where `gba_hal::LocalArrivals` is the host's shared one.
#[derive(Debug)]
pub struct ThreadArrivals {
    arrivals: std::sync::Arc<AtomicU64>,
    entered: AtomicU64,
    local: u64,
}

impl ThreadArrivals {
    /// `local` handles onto one new counter, one per process of the host.
    pub fn host(local: u64) -> Vec<ThreadArrivals> {
        let arrivals = std::sync::Arc::new(AtomicU64::new(0));
        (0..local)
            .map(|_| ThreadArrivals {
                arrivals: arrivals.clone(),
                entered: AtomicU64::new(0),
                local,
            })
            .collect()
    }

    /// The last sequence this handle entered.
    pub fn entered(&self) -> u64 {
        self.entered.load(Ordering::Relaxed)
    }
}

impl Arrivals for ThreadArrivals {
    fn enter(&self, seq: u64) {
        self.entered.store(seq, Ordering::Relaxed)
    }
    fn add(&self) -> u64 {
        self.arrivals.fetch_add(1, Ordering::AcqRel)
    }
    fn local(&self) -> u64 {
        self.local
    }
}

/// Any [`Port`] shared by L local processes: arrivals combine through `A`, the completing one
/// rings `P`'s doorbell; the flag is `P`'s (one flag for the host).
#[derive(Debug)]
pub struct Combined<P, A> {
    pub port: P,
    pub arrivals: A,
}

impl<P: Port, A: Arrivals> Port for Combined<P, A> {
    fn group(&self) -> u32 {
        self.port.group()
    }
    fn member(&self) -> u32 {
        self.port.member()
    }
    #[inline(always)]
    fn ring(&self, word: u64) {
        if completes(&self.arrivals, word) {
            self.port.ring(word);
        }
    }
    #[inline(always)]
    fn flag(&self) -> u64 {
        self.port.flag()
    }
    fn progress(&self) {
        self.port.progress()
    }
    fn fault(&self) -> Option<crate::wait_error::DeviceFault> {
        self.port.fault()
    }
    fn diagnose(&self) -> Diagnosis {
        self.port.diagnose()
    }
}
