//! loom model checks of the fast path: arrivals combined on the doorbell path
//! (`gba_sim::combine`), with the stepper closing, settling and reopening the combining word
//! as the engine does, over every interleaving and weak-memory outcome loom explores.
//!
//! Run with `gba-sim/loom.sh` (`RUSTFLAGS="--cfg loom"`, its own target directory).
//!
//! Each model: two members (loom's scheduler is not fair to three spinning threads, see
//! gba-barrier's loom models), each writes a payload, rings its doorbell (release), offers the
//! arrival to the fast path, then waits for its flag, stepping the model switch when the step
//! lock is free, as the simulator's progress does. Checked:
//! - no early release: a member released for `s` sees the other's doorbell at `s` and its
//!   payload (loom reports a data race if the payload write does not happen-before the read);
//! - no lost release: every surviving member's wait ends (loom fails a model that deadlocks
//!   or spins without bound);
//! - a member that dies between its doorbell and its combine, or right after completing the
//!   episode and before raising any flag;
//! - the 2^32 wrap.
#![allow(unexpected_cfgs)] // `loom` is set by gba-sim/loom.sh
#![cfg(loom)]

use gba_sim::combine::{self, Arrival, Cell64, Ordering};
use loom::cell::UnsafeCell;
use loom::sync::atomic::AtomicU64;
use loom::sync::{Arc, Mutex};

struct Cell(AtomicU64);

impl Cell64 for Cell {
    fn load(&self, order: Ordering) -> u64 {
        self.0.load(order)
    }
    fn store(&self, value: u64, order: Ordering) {
        self.0.store(value, order)
    }
    fn compare_exchange(&self, c: u64, n: u64, s: Ordering, f: Ordering) -> Result<u64, u64> {
        self.0.compare_exchange(c, n, s, f)
    }
    fn fetch_add(&self, value: u64, order: Ordering) -> u64 {
        self.0.fetch_add(value, order)
    }
}

fn cell(v: u64) -> Cell {
    Cell(AtomicU64::new(v))
}

/// The stepper's own state (the engine's G_RELEASE_SEQ, G_ARRIVED and GF_FAST).
struct Switch {
    released: u32,
    arrived: u64,
    fast: bool,
}

struct Fabric {
    word: Cell,
    doorbells: [Cell; 2],
    flags: [Cell; 2],
    payload: [UnsafeCell<u64>; 2],
    switch: Mutex<Switch>,
}

// SAFETY: the payload cells are shared on purpose; loom checks every access to them.
unsafe impl Sync for Fabric {}
// SAFETY: as above.
unsafe impl Send for Fabric {}

const FULL: u64 = 0b11;

impl Fabric {
    fn new(released: u32) -> Self {
        Fabric {
            word: cell(combine::pack(released.wrapping_add(1), true, 0)),
            doorbells: [cell(u64::from(released)), cell(u64::from(released))],
            flags: [cell(u64::from(released)), cell(u64::from(released))],
            payload: [UnsafeCell::new(0), UnsafeCell::new(0)],
            switch: Mutex::new(Switch {
                released,
                arrived: 0,
                fast: true,
            }),
        }
    }

    /// The stepper's raise: compare-exchange, never backwards.
    fn raise(&self, seq: u32) {
        for flag in &self.flags {
            combine::raise(flag, seq);
        }
    }

    /// The owner's release: blind stores (`combine::release_owned`), the other's flag first.
    fn release_owned(&self, m: usize, seq: u32) {
        combine::release_owned(&self.flags[1 - m], seq);
        combine::release_owned(&self.flags[m], seq);
    }

    /// One engine step of the group, as `sync_fast`, `arrivals` and `open_fast` do it.
    fn step(&self, s: &mut Switch) {
        let closed = combine::close(&self.word);
        if s.fast {
            let completed = combine::seq(closed).wrapping_sub(1);
            if combine::after(completed, s.released) {
                self.raise(completed);
                s.released = completed;
                s.arrived = 0;
            }
            if combine::seq(closed) == s.released.wrapping_add(1) {
                s.arrived |= combine::bits(closed);
            }
            s.fast = false;
        }
        let expected = s.released.wrapping_add(1);
        for (m, doorbell) in self.doorbells.iter().enumerate() {
            if doorbell.load(Ordering::Acquire) as u32 == expected {
                s.arrived |= 1 << m;
            }
        }
        if s.arrived == FULL {
            self.raise(expected);
            s.released = expected;
            s.arrived = 0;
        }
        s.fast = true;
        combine::open(&self.word, s.released.wrapping_add(1), s.arrived);
    }

    fn progress(&self) {
        if let Ok(mut s) = self.switch.try_lock() {
            self.step(&mut s);
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Fate {
    Lives,
    /// Dies after its doorbell, before its combine.
    DiesBeforeCombine,
    /// Dies right after its combine, raising no flag if it completed the episode.
    DiesAfterCombine,
}

fn member(f: &Fabric, m: usize, seq: u32, fate: Fate) {
    episode(f, m, seq, fate, true);
}

/// One episode of member `m`; with `payload`, it writes its payload before arriving and
/// checks the other's after its release (only the last episode of a model may: the next
/// episode's write would race with the other's read of this one, as in any barrier program).
fn episode(f: &Fabric, m: usize, seq: u32, fate: Fate, payload: bool) {
    if payload {
        // SAFETY: loom checks this write against the other member's read.
        f.payload[m].with_mut(|p| unsafe { *p = u64::from(seq) });
    }
    f.doorbells[m].store(u64::from(seq), Ordering::Release);
    if fate == Fate::DiesBeforeCombine {
        return;
    }
    let outcome = combine::arrive(&f.word, seq, || Some((1 << m, FULL)));
    if fate == Fate::DiesAfterCombine {
        return;
    }
    match outcome {
        Arrival::Completed => f.release_owned(m, seq),
        Arrival::Deferred => f.progress(),
        Arrival::Combined => {}
    }
    let reached = |flag: u64| flag as u32 == seq || combine::after(flag as u32, seq);
    while !reached(f.flags[m].load(Ordering::Acquire)) {
        f.progress();
        loom::thread::yield_now();
    }
    let other = 1 - m;
    assert!(
        reached(f.doorbells[other].load(Ordering::Relaxed)),
        "released before the other member arrived"
    );
    if !payload {
        return;
    }
    // SAFETY: loom checks this read against the other member's write.
    let payload = f.payload[other].with(|p| unsafe { *p });
    assert_eq!(payload, u64::from(seq));
}

fn model(released: u32, fates: [Fate; 2]) {
    loom::model(move || {
        let f = Arc::new(Fabric::new(released));
        let seq = released.wrapping_add(1);
        let other = {
            let f = f.clone();
            loom::thread::spawn(move || member(&f, 1, seq, fates[1]))
        };
        member(&f, 0, seq, fates[0]);
        other.join().unwrap();
    });
}

/// Two episodes back to back: the owner's blind store of the first cannot land after a
/// release of the second (which needs the owner's next arrival), so both flags end at the
/// second, whichever of the members and the stepper released what.
#[test]
fn an_owners_blind_store_never_moves_a_flag_backwards() {
    // Two episodes of two spinning members are too many interleavings for an exhaustive run:
    // bounded to 3 preemptions (loom's advice; most concurrency bugs need few).
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(|| {
        let f = Arc::new(Fabric::new(0));
        let other = {
            let f = f.clone();
            loom::thread::spawn(move || {
                episode(&f, 1, 1, Fate::Lives, false);
                episode(&f, 1, 2, Fate::Lives, true);
            })
        };
        episode(&f, 0, 1, Fate::Lives, false);
        episode(&f, 0, 2, Fate::Lives, true);
        other.join().unwrap();
        for flag in &f.flags {
            assert_eq!(flag.load(Ordering::Relaxed), 2, "a flag moved backwards");
        }
    });
}

#[test]
fn two_members_combine_and_one_of_them_releases() {
    model(0, [Fate::Lives, Fate::Lives]);
}

#[test]
fn a_member_dead_before_its_combine_is_counted_by_the_stepper() {
    model(0, [Fate::Lives, Fate::DiesBeforeCombine]);
}

#[test]
fn a_member_dead_after_completing_the_episode_loses_no_release() {
    model(0, [Fate::Lives, Fate::DiesAfterCombine]);
}

#[test]
fn the_fast_path_wraps_at_two_to_the_32() {
    model(u32::MAX, [Fate::Lives, Fate::Lives]);
}
