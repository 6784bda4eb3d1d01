//! The claim record's state machine (docs/design/host.md "Claims"), over [`Cell64`] so that the
//! same code runs on the host segment's shared-memory words and on loom's atomics
//! (gba-sim's `tests/loom.rs`).
//!
//! The team key is 128 bits in two words, which no process reads or writes at once. It is
//! never torn where it matters, by the protocol rather than by a wider atomic: only the owner
//! of a CLAIMING record writes the key (after the CAS that made it the owner, before its
//! HELD with release), a joiner reads it only after reading HELD (acquire), and a join is a CAS
//! on the first word from the very word the joiner read, so a key rewritten under the joiner
//! (which takes a take-over's CAS first) fails the join. See [`Record::take_as`].
//!
//! The record's first word packs everything a transition must decide on at once:
//!
//! ```text
//! generation:16 | state:4 | joined:12 | pid:32
//! ```
//!
//! `joined` lives in the word (not in a word of its own, as the first design had it) so that
//! a team-mate joining and the last process leaving are one CAS each: a joiner can never add
//! itself to a claim the last leaver has already begun to reset. The generation is bumped by
//! every free and every take-over, so a CAS prepared from an older reading fails even when
//! state, joined and pid look the same again (ABA); and two processes taking over one dead
//! claim cannot both win: exactly one CAS replaces a given word.

use crate::TeamKey;
use crate::cell::{Cell64, Ordering};

/// `State::state`: nobody claims the group.
pub const FREE: u64 = 0;
/// `State::state`: a winner is configuring the group.
pub const CLAIMING: u64 = 1;
/// `State::state`: the group is configured and held.
pub const HELD: u64 = 2;

/// The most processes of one team on one port (`joined` has 12 bits).
pub const MAX_JOINED: u64 = 0xfff;

/// The unpacked first word of a claim record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Bumped by every free and take-over (16 bits): defeats ABA.
    pub generation: u64,
    /// [`FREE`], [`CLAIMING`] or [`HELD`] (4 bits).
    pub state: u64,
    /// Processes in the claim (12 bits, at most [`MAX_JOINED`]).
    pub joined: u64,
    /// The claimant's pid (32 bits).
    pub pid: u64,
}

impl State {
    /// The fields of a record's first word.
    pub fn unpack(word: u64) -> State {
        State {
            generation: word >> 48,
            state: (word >> 44) & 0xf,
            joined: (word >> 32) & MAX_JOINED,
            pid: word & 0xffff_ffff,
        }
    }

    /// The record's first word (each field cut to its width).
    pub fn pack(self) -> u64 {
        ((self.generation & 0xffff) << 48)
            | ((self.state & 0xf) << 44)
            | ((self.joined & MAX_JOINED) << 32)
            | (self.pid & 0xffff_ffff)
    }

    fn with(self, state: u64, joined: u64, pid: u64) -> u64 {
        State {
            state,
            joined,
            pid,
            ..self
        }
        .pack()
    }

    fn next(self, state: u64, joined: u64, pid: u64) -> u64 {
        State {
            generation: (self.generation + 1) & 0xffff,
            ..self
        }
        .with(state, joined, pid)
    }
}

/// The cells of one claim record that the state machine touches.
#[derive(Debug)]
pub struct Record<'a, C> {
    /// generation | state | joined | pid.
    pub word: &'a C,
    /// The claimant's start time (`/proc/PID/stat` field 22; 0: unknown).
    pub start: &'a C,
    /// The team key of the claim, word 0 and word 1 ([`TeamKey::words`]; zeros: no team).
    pub team: [&'a C; 2],
    /// The claimant's uid, as [`Claimant::uid`] encodes it (0: not recorded).
    pub uid: &'a C,
    /// The local-arrivals block's arrivals counter (zeroed by each new claim).
    pub arrivals: &'a C,
}

/// What [`Record::take`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// This process claimed the record (CLAIMING): it configures the group, then [`Record::hold`].
    /// `over_dead`: it took over a dead owner's claim.
    Won {
        /// It took over a dead owner's claim.
        over_dead: bool,
    },
    /// It joined a held claim of its own team.
    Joined,
    /// A team-mate is configuring the group (CLAIMING, owner alive): ask again.
    Wait,
    /// Another team with a live process holds the group.
    Busy,
    /// A live claim has this team's key but another user's uid (as recorded): only the same
    /// user joins.
    OtherUser {
        /// The holder's uid.
        uid: u32,
    },
    /// This user holds its quota of the port's groups already (decided by the host segment
    /// before the record is touched).
    Quota {
        /// Groups the user holds on the port.
        held: u32,
        /// The port's quota per user.
        quota: u32,
    },
    /// A word of the record holds a value its layout does not allow (decided by the host
    /// segment, which names it): nothing was taken or joined.
    Corrupt {
        /// The word's name.
        word: &'static str,
        /// What it holds.
        value: u64,
        /// What it may hold.
        allowed: &'static str,
    },
}

/// Who takes or joins a record: its pid, start time and uid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claimant {
    /// Its pid.
    pub pid: u64,
    /// `/proc/PID/stat` field 22 (0: unknown).
    pub start: u64,
    /// Its uid.
    pub uid: u32,
}

impl Claimant {
    /// The uid as the record stores it: bit 32 set, so that 0 means "not recorded" (uid 0 is
    /// root's).
    pub fn uid_word(uid: u32) -> u64 {
        (1 << 32) | u64::from(uid)
    }

    /// The uid a record's word names, if any.
    pub fn uid_of(word: u64) -> Option<u32> {
        (word >> 32 == 1).then_some(word as u32)
    }
}

/// Whether the claim of `state`, whose claimant started at `start`, is still used by a live
/// process (the caller checks the word's pid with the start time and every registered local
/// slot).
pub trait Liveness {
    /// Whether the claim is still used by a live process.
    fn live(&self, state: State, start: u64) -> bool;
}

impl<F: Fn(State, u64) -> bool> Liveness for F {
    fn live(&self, state: State, start: u64) -> bool {
        self(state, start)
    }
}

/// A joiner's entry in the claim's table of local processes, which the liveness check reads.
/// [`Record::take`] registers it *before* the join CAS, tagged with the claim's generation,
/// so that from the moment a process has joined it is seen alive (a joiner that registered
/// after its CAS and died in between was invisible: a dead claimant's claim could then be
/// taken over under it). A registration the join then did not use is withdrawn; a stale one
/// (its generation is not the record's) counts for nothing.
pub trait JoinSlot {
    /// This process is about to join the claim of `generation`.
    fn register(&self, generation: u64);
    /// The join did not happen.
    fn withdraw(&self);
}

/// No table of local processes (a claim of one process, and tests of the word alone).
impl JoinSlot for () {
    fn register(&self, _generation: u64) {}
    fn withdraw(&self) {}
}

impl<C: Cell64> Record<'_, C> {
    /// The record's first word, unpacked (acquire).
    pub fn state(&self) -> State {
        State::unpack(self.word.load(Ordering::Acquire))
    }

    /// [`take_as`](Self::take_as) for team `key`, with no table of local processes, as uid 0.
    pub fn take(&self, pid: u64, start: u64, key: TeamKey, liveness: &impl Liveness) -> Taken {
        let me = Claimant { pid, start, uid: 0 };
        self.take_as(&me, Some(key), liveness, &())
    }

    /// Whether the claim's team key is `key` (relaxed: see [`take_as`](Self::take_as) for
    /// why a torn reading decides nothing). `None` is no claim's key.
    fn team_is(&self, key: Option<TeamKey>) -> bool {
        key.is_some_and(|key| {
            let [w0, w1] = key.words();
            self.team[0].load(Ordering::Relaxed) == w0 && self.team[1].load(Ordering::Relaxed) == w1
        })
    }

    /// Takes (from FREE or from a dead claim) or joins (same team key and uid, HELD) the
    /// record for the process `me` of team `key` (`None`: a sweep of dead claims, which joins
    /// nothing), registering in `slot` before a join. Lock-free: loops only when a CAS lost to
    /// another transition, which then made progress.
    ///
    /// A held claim of this team is joined without asking whether its claimant lives: the
    /// team key is this team creation's own (rank 0's pid, start time and a counter), so the
    /// claim is nobody else's, and a dead team-mate fails the team anyway (its barrier times
    /// out naming it). That keeps the join, which every local process but one makes at each
    /// team creation, free of the liveness check's system calls. A claim with this team's key
    /// and another uid is not joined (it is another user's, whatever its key says): it is
    /// taken over if dead, else refused as [`Taken::OtherUser`].
    ///
    /// The key's two words are read one at a time, relaxed, yet no join is decided on a torn
    /// key. A joiner reads the word (acquire) as HELD of generation g, then the two key words,
    /// then joins by a CAS expecting that very word. The key words change only after a CAS
    /// that takes the record (a take-over bumps the generation; a take from FREE follows the
    /// free, which bumped it): written by the new owner after its CAS, before its HELD
    /// (release). So:
    /// - every key store made before the HELD the joiner read happens before its reads
    ///   (release/acquire: every change of the word is a CAS, so the joiner's acquire
    ///   synchronizes with the owner's HELD through any joins and leaves after it), and the
    ///   joiner reads those words or later ones;
    /// - a later owner's key stores follow its CAS. If the joiner's CAS succeeds, it read the
    ///   word the joiner read, so no take came between: any later take's CAS reads the
    ///   joiner's CAS or a later change (release sequence) and acquires it, so its key stores
    ///   happen after the joiner's loads, which cannot read them. If the joiner read any word
    ///   of a later owner's key, a take came between its load of the word and its CAS, and
    ///   the CAS fails (the generation differs; it is 16 bits, so this needs 65,536 takes and
    ///   frees in that window).
    ///
    /// A torn reading can only decide the refusals taken without a CAS: Busy or OtherUser,
    /// both of a claim that was live and held by another team or user a moment before. gba-sim's
    /// loom model `a_key_rewritten_under_a_joiner_never_joins` checks it.
    pub fn take_as(
        &self,
        me: &Claimant,
        key: Option<TeamKey>,
        liveness: &impl Liveness,
        slot: &impl JoinSlot,
    ) -> Taken {
        let (pid, start) = (me.pid, me.start);
        let mut registered = None;
        let outcome = loop {
            let word = self.word.load(Ordering::Acquire);
            let now = State::unpack(word);
            // Acquire on the word made a HELD claimant's team key visible (stored before its
            // HELD with release); the CAS below fails if the claim changed meanwhile.
            let team = now.state == HELD && self.team_is(key);
            let holder = Claimant::uid_of(self.uid.load(Ordering::Relaxed));
            let ours = team && holder == Some(me.uid);
            let (new, outcome) = match now.state {
                FREE => (now.with(CLAIMING, 1, pid), Taken::Won { over_dead: false }),
                HELD if ours && now.joined < MAX_JOINED => {
                    // Release (the slot's stores) before the CAS: whoever reads the word
                    // with our join in it sees our registration.
                    if registered != Some(now.generation) {
                        slot.register(now.generation);
                        registered = Some(now.generation);
                    }
                    (now.with(HELD, now.joined + 1, now.pid), Taken::Joined)
                }
                CLAIMING | HELD if !liveness.live(now, self.start.load(Ordering::Relaxed)) => {
                    (now.next(CLAIMING, 1, pid), Taken::Won { over_dead: true })
                }
                CLAIMING => break Taken::Wait,
                HELD if team && !ours => {
                    break Taken::OtherUser {
                        uid: holder.unwrap_or(u32::MAX),
                    };
                }
                _ => break Taken::Busy,
            };
            if self
                .word
                .compare_exchange(word, new, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                if let Taken::Won { .. } = outcome {
                    // Only the CLAIMING owner writes these; its team-mates read them after
                    // its HELD (release), so relaxed stores suffice.
                    self.start.store(start, Ordering::Relaxed);
                    let [w0, w1] = key.map_or([0, 0], TeamKey::words);
                    self.team[0].store(w0, Ordering::Relaxed);
                    self.team[1].store(w1, Ordering::Relaxed);
                    self.uid
                        .store(Claimant::uid_word(me.uid), Ordering::Relaxed);
                    self.arrivals.store(0, Ordering::Relaxed);
                }
                break outcome;
            }
        };
        if registered.is_some() && outcome != Taken::Joined {
            slot.withdraw();
        }
        outcome
    }

    /// The winner publishes its configured group: CLAIMING(me) → HELD(me), release, so that a
    /// joiner's acquire of HELD sees the team key, the zeroed counter, the flag and the
    /// configuration written before. False when the claim was taken over meanwhile.
    pub fn hold(&self, pid: u64) -> bool {
        let word = self.word.load(Ordering::Acquire);
        let now = State::unpack(word);
        if now.state != CLAIMING || now.pid != pid {
            return false;
        }
        self.word
            .compare_exchange(
                word,
                now.with(HELD, now.joined, pid),
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_ok()
    }

    /// Leaves a held claim. True for the host's last process, which now holds the record as
    /// CLAIMING (so no team-mate joins and no other team claims while it resets the group)
    /// and must [`free`](Self::free) it. False when others stay, or when the claim is not
    /// held any more (taken over: nothing of it is ours to reset).
    pub fn leave(&self, pid: u64) -> bool {
        loop {
            let word = self.word.load(Ordering::Acquire);
            let now = State::unpack(word);
            if now.state != HELD {
                return false;
            }
            let (new, last) = if now.joined > 1 {
                (now.with(HELD, now.joined - 1, now.pid), false)
            } else {
                (now.with(CLAIMING, 1, pid), true)
            };
            if self
                .word
                .compare_exchange(word, new, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return last;
            }
        }
    }

    /// CLAIMING(me) → FREE(next generation), release: the group was reset on this port.
    pub fn free(&self, pid: u64) {
        let word = self.word.load(Ordering::Acquire);
        let now = State::unpack(word);
        if now.state == CLAIMING && now.pid == pid {
            let _ = self.word.compare_exchange(
                word,
                now.next(FREE, 0, 0),
                Ordering::AcqRel,
                Ordering::Acquire,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::AtomicU64;

    /// Team `n`'s key: `n` in both words.
    fn key(n: u64) -> TeamKey {
        TeamKey::from_words([n, n]).unwrap()
    }

    #[test]
    fn pack_round_trips() {
        let s = State {
            generation: 0xffff,
            state: HELD,
            joined: 7,
            pid: 0xdead_beef,
        };
        assert_eq!(State::unpack(s.pack()), s);
    }

    #[test]
    fn claim_join_leave_free() {
        let cells: [AtomicU64; 6] = core::array::from_fn(|_| AtomicU64::new(0));
        let r = Record {
            word: &cells[0],
            start: &cells[1],
            team: [&cells[2], &cells[5]],
            arrivals: &cells[3],
            uid: &cells[4],
        };
        let alive = |_: State, _: u64| true;
        assert_eq!(
            r.take(10, 1, key(77), &alive),
            Taken::Won { over_dead: false }
        );
        assert_eq!(r.take(11, 1, key(77), &alive), Taken::Wait);
        assert!(r.hold(10));
        assert_eq!(r.take(11, 1, key(77), &alive), Taken::Joined);
        assert_eq!(r.take(12, 1, key(78), &alive), Taken::Busy);
        for half in [[77, 78], [78, 77]] {
            let key = TeamKey::from_words(half).unwrap();
            assert_eq!(
                r.take(12, 1, key, &alive),
                Taken::Busy,
                "one word of the key is not the key: {half:?}"
            );
        }
        assert_eq!(r.state().joined, 2);
        assert!(!r.leave(10));
        assert!(r.leave(11));
        assert_eq!(
            r.take(12, 1, key(77), &alive),
            Taken::Wait,
            "the last leaver resets"
        );
        r.free(11);
        assert_eq!(r.state().state, FREE);
        assert_eq!(r.state().generation, 1);
        let dead = |_: State, _: u64| false;
        assert_eq!(
            r.take(12, 1, key(78), &alive),
            Taken::Won { over_dead: false }
        );
        assert_eq!(
            r.take(13, 1, key(79), &dead),
            Taken::Won { over_dead: true }
        );
        assert_eq!(r.state().generation, 2);
    }

    /// Only the same user joins: another uid with the team's key is refused while the claim
    /// lives, and takes it over once it is dead.
    #[test]
    fn another_user_with_the_key_does_not_join() {
        let cells: [AtomicU64; 6] = core::array::from_fn(|_| AtomicU64::new(0));
        let r = Record {
            word: &cells[0],
            start: &cells[1],
            team: [&cells[2], &cells[5]],
            arrivals: &cells[3],
            uid: &cells[4],
        };
        let (alive, dead) = (|_: State, _: u64| true, |_: State, _: u64| false);
        let owner = Claimant {
            pid: 10,
            start: 1,
            uid: 1000,
        };
        let mate = Claimant { pid: 11, ..owner };
        let other = Claimant {
            pid: 12,
            start: 1,
            uid: 1001,
        };
        assert_eq!(
            r.take_as(&owner, Some(key(77)), &alive, &()),
            Taken::Won { over_dead: false }
        );
        assert!(r.hold(10));
        assert_eq!(
            r.take_as(&other, Some(key(77)), &alive, &()),
            Taken::OtherUser { uid: 1000 }
        );
        assert_eq!(r.state().joined, 1, "nothing changed");
        assert_eq!(r.take_as(&mate, Some(key(77)), &alive, &()), Taken::Joined);
        assert_eq!(
            r.take_as(&other, Some(key(77)), &dead, &()),
            Taken::Won { over_dead: true }
        );
        assert_eq!(
            Claimant::uid_of(cells[4].load(core::sync::atomic::Ordering::Relaxed)),
            Some(1001)
        );
    }
}
