//! loom model checks of the fast path: arrivals aggregated on the doorbell path
//! (`gba_sim::arrival_word`), with the stepper closing, settling and reopening the arrival word
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
//! - a member that dies between its doorbell and its count, or right after completing the
//!   episode and before raising any flag;
//! - the 2^32 wrap.
#![allow(unexpected_cfgs)] // `loom` is set by gba-sim/loom.sh
#![cfg(loom)]

use gba_hal::cell::{Cell64, Ordering};
use gba_sim::arrival_word::{self, Arrival};
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
    /// Each member's `arrival_word::member_entry` (the engine's P_FAST_MEMBER).
    entries: [Cell; 2],
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
            word: cell(arrival_word::pack(released.wrapping_add(1), true, 0)),
            doorbells: [cell(u64::from(released)), cell(u64::from(released))],
            flags: [cell(u64::from(released)), cell(u64::from(released))],
            entries: [
                cell(arrival_word::member_entry(1, FULL)),
                cell(arrival_word::member_entry(2, FULL)),
            ],
            payload: [UnsafeCell::new(0), UnsafeCell::new(0)],
            switch: Mutex::new(Switch {
                released,
                arrived: 0,
                fast: true,
            }),
        }
    }

    /// A group just configured: its word still closed and no member's entry published, as
    /// after a join (the step that makes the group READY opens the word at its end, and a
    /// member may arrive in between, reading its entry before the word).
    fn unopened(released: u32) -> Self {
        let f = Fabric::new(released);
        f.word.0.store(
            arrival_word::pack(released.wrapping_add(1), false, 0),
            Ordering::Relaxed,
        );
        for entry in &f.entries {
            entry.0.store(0, Ordering::Relaxed);
        }
        f.switch.try_lock().expect("not shared yet").fast = false;
        f
    }

    /// The stepper's raise: compare-exchange, never backwards.
    fn raise(&self, seq: u32) {
        for flag in &self.flags {
            arrival_word::raise(flag, seq);
        }
    }

    /// The owner's release: blind stores (`arrival_word::release_owned`), the other's flag first.
    fn release_owned(&self, m: usize, seq: u32) {
        arrival_word::release_owned(&self.flags[1 - m], seq);
        arrival_word::release_owned(&self.flags[m], seq);
    }

    /// One engine step of the group, as `sync_fast`, `arrivals` and `open_fast` do it.
    fn step(&self, s: &mut Switch) {
        let closed = arrival_word::close(&self.word);
        if s.fast {
            let completed = arrival_word::seq(closed).wrapping_sub(1);
            if arrival_word::after(completed, s.released) {
                self.raise(completed);
                s.released = completed;
                s.arrived = 0;
            }
            if arrival_word::seq(closed) == s.released.wrapping_add(1) {
                s.arrived |= arrival_word::bits(closed);
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
        // The members' entries, then the word (`open_fast`): written when they changed.
        for (m, entry) in self.entries.iter().enumerate() {
            let mine = arrival_word::member_entry(1 << m, FULL);
            if entry.load(Ordering::Relaxed) != mine {
                entry.store(mine, Ordering::Release);
            }
        }
        s.fast = true;
        arrival_word::open(&self.word, s.released.wrapping_add(1), s.arrived);
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
    /// Dies after its doorbell, before its count.
    DiesBeforeCounting,
    /// Dies right after its count, raising no flag if it completed the episode.
    DiesAfterCounting,
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
    if fate == Fate::DiesBeforeCounting {
        return;
    }
    // The member's entry, read before the word (the stepper published it before opening).
    let (bit, full) = arrival_word::member_of(f.entries[m].load(Ordering::Acquire));
    let outcome = if bit == 0 {
        Arrival::Deferred
    } else {
        arrival_word::arrive(&f.word, seq, bit, full)
    };
    if fate == Fate::DiesAfterCounting {
        return;
    }
    match outcome {
        Arrival::Completed => f.release_owned(m, seq),
        Arrival::Deferred => f.progress(),
        Arrival::Counted => {}
    }
    let reached = |flag: u64| flag as u32 == seq || arrival_word::after(flag as u32, seq);
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
    model_from(released, fates, false);
}

fn model_from(released: u32, fates: [Fate; 2], unopened: bool) {
    loom::model(move || {
        let f = Arc::new(if unopened {
            Fabric::unopened(released)
        } else {
            Fabric::new(released)
        });
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
fn two_members_count_and_one_of_them_releases() {
    model(0, [Fate::Lives, Fate::Lives]);
}

#[test]
fn a_member_dead_before_its_count_is_counted_by_the_stepper() {
    model(0, [Fate::Lives, Fate::DiesBeforeCounting]);
}

#[test]
fn a_member_dead_after_completing_the_episode_loses_no_release() {
    model(0, [Fate::Lives, Fate::DiesAfterCounting]);
}

/// The members read their entries before the word, while the first step publishes the
/// entries and opens the word: a member that read no entry defers to the stepper, one that
/// read its entry aggregates; either way no early and no lost release.
#[test]
fn arrivals_racing_the_first_opening_of_the_word() {
    model_from(0, [Fate::Lives, Fate::Lives], true);
}

#[test]
fn the_fast_path_wraps_at_two_to_the_32() {
    model(u32::MAX, [Fate::Lives, Fate::Lives]);
}

// The claim record's CAS (`gba_hal::claim`, docs/design/host.md "Claims"): every interleaving of
// two processes' transitions on one record.

mod claims {
    use super::{Cell, cell};
    use gba_hal::TeamKey;
    use gba_hal::cell::{Cell64, Ordering};
    use gba_hal::claim::{self, Record, State, Taken};
    use loom::sync::Arc;

    struct Cells([Cell; 6]);

    impl Cells {
        fn new(word: u64) -> Arc<Self> {
            Arc::new(Cells([
                cell(word),
                cell(0),
                cell(0),
                cell(0),
                cell(0),
                cell(0),
            ]))
        }
        fn record(&self) -> Record<'_, Cell> {
            Record {
                word: &self.0[0],
                start: &self.0[1],
                team: [&self.0[2], &self.0[5]],
                arrivals: &self.0[3],
                uid: &self.0[4],
            }
        }
        /// The record's team key, as stored (as a held claim's owner left it).
        fn set_key(&self, key: TeamKey) {
            let [w0, w1] = key.words();
            self.0[2].store(w0, Ordering::Relaxed);
            self.0[5].store(w1, Ordering::Relaxed);
        }
        fn key(&self) -> Option<TeamKey> {
            TeamKey::from_words([
                self.0[2].load(Ordering::Relaxed),
                self.0[5].load(Ordering::Relaxed),
            ])
        }
    }

    /// Team `n`'s key (both words `n`).
    fn key(n: u64) -> TeamKey {
        TeamKey::from_words([n, n]).expect("n > 0")
    }

    const DEAD: u64 = 99;
    /// Every pid but DEAD is alive.
    fn live(state: State, _start: u64) -> bool {
        state.pid != DEAD
    }

    /// Takes until the outcome is final (a team-mate's CLAIMING is waited out), holding on a
    /// win: what `Group::configure` does.
    fn claim(cells: &Cells, pid: u64, key: TeamKey) -> Taken {
        loop {
            match cells.record().take(pid, 0, key, &live) {
                Taken::Wait => loom::thread::yield_now(),
                taken @ Taken::Won { .. } => {
                    assert!(cells.record().hold(pid));
                    return taken;
                }
                taken => return taken,
            }
        }
    }

    /// Two jobs claim one free group: one holds it, the other gets GROUP_BUSY.
    #[test]
    fn two_claimers_one_wins_one_is_busy() {
        loom::model(|| {
            let cells = Cells::new(0);
            let other = Arc::clone(&cells);
            let t = loom::thread::spawn(move || claim(&other, 2, key(20)));
            let mine = claim(&cells, 1, key(10));
            let theirs = t.join().unwrap();
            let won = [mine, theirs]
                .iter()
                .filter(|t| matches!(t, Taken::Won { .. }))
                .count();
            assert_eq!(won, 1, "{mine:?} {theirs:?}");
            assert!(mine == Taken::Busy || theirs == Taken::Busy);
            assert_eq!(cells.record().state().state, claim::HELD);
        });
    }

    /// Two processes find a dead owner's claim: exactly one takes it over.
    #[test]
    fn two_reclaimers_of_a_dead_owner_exactly_one_wins() {
        loom::model(|| {
            let dead = State {
                generation: 5,
                state: claim::HELD,
                joined: 1,
                pid: DEAD,
            };
            let cells = Cells::new(dead.pack());
            let other = Arc::clone(&cells);
            let t = loom::thread::spawn(move || other.record().take(2, 0, key(20), &live));
            let mine = cells.record().take(1, 0, key(10), &live);
            let theirs = t.join().unwrap();
            let won = [mine, theirs]
                .iter()
                .filter(|t| **t == Taken::Won { over_dead: true })
                .count();
            assert_eq!(won, 1, "{mine:?} {theirs:?}");
            assert_eq!(cells.record().state().generation, 6);
        });
    }

    /// A sweep of a dead claim (`Device::free_groups`, `gba reclaim`, the simulator's
    /// `reclaim_other_ports`) races a live process that takes the same dead claim over to
    /// configure the group. The sweep resets the group only after its own take-over won and
    /// frees only its own CLAIMING, so the live claimant ends holding the claim, and its
    /// configuration is the last store to the group's CONTROL: the sweep's reset is never
    /// after it (a sweep that reset whatever it had read as dead could land on it).
    #[test]
    fn a_sweep_never_resets_or_frees_a_live_claimants_group() {
        const RESET: u64 = 0x7e5e7;
        const CONFIGURED: u64 = 0xc0f;
        loom::model(|| {
            let dead = State {
                generation: 5,
                state: claim::HELD,
                joined: 1,
                pid: DEAD,
            };
            let cells = Cells::new(dead.pack());
            let control = Arc::new(cell(CONFIGURED - 1));
            let (other, other_control) = (Arc::clone(&cells), Arc::clone(&control));
            let sweep = loom::thread::spawn(move || {
                let sweeper = claim::Claimant {
                    pid: 1,
                    start: 0,
                    uid: 0,
                };
                let won = other.record().take_as(&sweeper, None, &live, &())
                    == Taken::Won { over_dead: true };
                if won {
                    other_control.store(RESET, Ordering::Relaxed);
                    other.record().free(1);
                }
                won
            });
            let taken = claim(&cells, 2, key(20));
            assert!(matches!(taken, Taken::Won { .. }), "{taken:?}");
            control.store(CONFIGURED, Ordering::Relaxed);
            sweep.join().unwrap();
            let state = cells.record().state();
            assert_eq!((state.state, state.pid), (claim::HELD, 2), "{state:?}");
            assert_eq!(
                control.load(Ordering::Relaxed),
                CONFIGURED,
                "the sweep reset the live claimant's group"
            );
        });
    }

    /// A team-mate joins a claim whose claimant (DEAD) died, while another job's process
    /// finds that claim: the joiner registers in the claim's table of local processes before
    /// its join CAS (`claim::JoinSlot`), and the liveness check counts that registration, so
    /// the other job either took the claim over before the join (which then fails and is
    /// withdrawn) or sees the joiner alive and is busy; never both joined and taken over. With
    /// the registration after the CAS, loom finds the interleaving in which a joined process
    /// is invisible and its claim is taken over under it.
    #[test]
    fn a_joiner_is_seen_alive_from_its_join_on() {
        struct Slot {
            pid: Cell,
            generation: Cell,
        }
        impl claim::JoinSlot for Slot {
            fn register(&self, generation: u64) {
                self.generation.store(generation, Ordering::Relaxed);
                self.pid.store(2, Ordering::Release);
            }
            fn withdraw(&self) {
                self.pid.store(0, Ordering::Release);
            }
        }
        loom::model(|| {
            let held = State {
                generation: 5,
                state: claim::HELD,
                joined: 1,
                pid: DEAD,
            };
            let cells = Cells::new(held.pack());
            cells.set_key(key(10)); // the team key of the dead claimant's team
            let slot = Arc::new(Slot {
                pid: cell(0),
                generation: cell(0),
            });
            // What the host segment's liveness check does: the claimant, or a process
            // registered for this generation of the claim.
            let live = {
                let slot = Arc::clone(&slot);
                move |state: State, _start: u64| {
                    state.pid != DEAD
                        || (slot.pid.load(Ordering::Acquire) != 0
                            && slot.generation.load(Ordering::Relaxed) == state.generation)
                }
            };
            let (other, other_slot, other_live) =
                (Arc::clone(&cells), Arc::clone(&slot), live.clone());
            let joiner = loom::thread::spawn(move || {
                let me = claim::Claimant {
                    pid: 2,
                    start: 0,
                    uid: 0,
                };
                other
                    .record()
                    .take_as(&me, Some(key(10)), &other_live, &*other_slot)
            });
            let taker = cells.record().take(3, 0, key(20), &live);
            let joined = joiner.join().unwrap();
            assert!(
                !(joined == Taken::Joined && taker == Taken::Won { over_dead: true }),
                "a joined process's claim was taken over"
            );
            match joined {
                Taken::Joined => assert_eq!(taker, Taken::Busy),
                _ => assert_eq!(slot.pid.load(Ordering::Relaxed), 0, "a registration left"),
            }
        });
    }

    /// A team-mate joins while the last process leaves: either it joined first (the leaver is
    /// not the last) or it finds the leaver resetting (CLAIMING) and waits; never both.
    #[test]
    fn a_join_and_the_last_leave_exclude_each_other() {
        loom::model(|| {
            let cells = Cells::new(0);
            assert_eq!(
                cells.record().take(1, 0, key(10), &live),
                Taken::Won { over_dead: false }
            );
            assert!(cells.record().hold(1));
            let other = Arc::clone(&cells);
            let t = loom::thread::spawn(move || other.record().take(2, 0, key(10), &live));
            let last = cells.record().leave(1);
            let joined = t.join().unwrap();
            match joined {
                Taken::Joined => assert!(!last, "a joined claim was reset"),
                Taken::Wait => assert!(last),
                other => panic!("{other:?}"),
            }
        });
    }

    /// The team key is two words, read one at a time: a joiner of a dead claimant's claim of
    /// key K = [10, 11] races another job that takes the claim over with a key sharing one
    /// word of K ([10, 21], then [20, 11]) and holds it. Whatever mix of the old and new key
    /// words the joiner reads, it never joins the other job's claim: either it joined first
    /// (and the other job finds the claim alive: busy) or its join CAS fails on the taken word
    /// and it waits or is busy. Checks the ordering argument of `claim::Record::take_as`.
    #[test]
    fn a_key_rewritten_under_a_joiner_never_joins() {
        let team = TeamKey::from_words([10, 11]).expect("not zero");
        for other_key in [[10, 21], [20, 11]] {
            let other_key = TeamKey::from_words(other_key).expect("not zero");
            loom::model(move || {
                let held = State {
                    generation: 5,
                    state: claim::HELD,
                    joined: 1,
                    pid: DEAD,
                };
                let cells = Cells::new(held.pack());
                cells.set_key(team);
                // The dead claimant was uid 0, as the joiner is: the same user, the same team.
                cells.0[4].store(claim::Claimant::uid_word(0), Ordering::Relaxed);
                // A joiner counts: the claim lives while it holds a process besides DEAD.
                let live = |state: State, _start: u64| state.pid != DEAD || state.joined > 1;
                let other = Arc::clone(&cells);
                let joiner = loom::thread::spawn(move || {
                    let me = claim::Claimant {
                        pid: 2,
                        start: 0,
                        uid: 0,
                    };
                    other.record().take_as(&me, Some(team), &live, &())
                });
                let taker = cells.record().take(3, 0, other_key, &live);
                if let Taken::Won { .. } = taker {
                    assert!(cells.record().hold(3));
                }
                let joined = joiner.join().unwrap();
                let state = cells.record().state();
                match (joined, taker) {
                    (Taken::Joined, Taken::Busy) => {
                        assert_eq!((state.state, state.joined), (claim::HELD, 2));
                        assert_eq!(cells.key(), Some(team), "the joined claim is the team's");
                    }
                    (Taken::Wait | Taken::Busy, Taken::Won { over_dead: true }) => {
                        assert_eq!((state.state, state.pid, state.joined), (claim::HELD, 3, 1));
                        assert_eq!(cells.key(), Some(other_key));
                    }
                    outcome => panic!("joiner and taker: {outcome:?}"),
                }
            });
        }
    }
}
