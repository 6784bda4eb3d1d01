//! The host segment (docs/design/host.md "The host segment"): per switch port, the memory every
//! process of the host that opens the port maps, in which the host arbitrates the port's
//! groups (claim records: groups owned, not overwritten) and combines its processes'
//! arrivals (one member per host, many processes).
//!
//! One layout for every backend; only where the memory comes from differs:
//! - the simulator: port p's block of its fabric's `hosts` file (gba-sim);
//! - UIO hardware: a file of its own in the trusted runtime directory
//!   (`/run/gba` for root), named from the device's identity and the
//!   boot id ([`SegmentFile`]), which also holds the release-flag page when the device has no
//!   DMA map of its own.
//!
//! ```text
//! segment = GROUPS × GROUP_BYTES, per group:
//!   lines 0-1 claim record: word (generation|state|joined|pid), start time, team key (two
//!             words: 128 bits), flag IOVA, flag length, L, uid, PID namespace
//!   line 2    arrivals: every local arrival since the claim (never reset)
//!   line 3+i  slot i: pid, start time, team rank, entered (the last sequence it arrived for),
//!             generation, PID namespace
//! ```
//!
//! Every word alone where it is written on the hot path: `arrivals` on its own line (the one
//! line the host's processes bounce), each slot's `entered` on its slot's line. As for every
//! memory other processes share: no reference to it is ever made, every access is atomic.

mod claims;
#[cfg(all(test, not(miri)))]
mod corrupt;
pub(crate) mod file;
mod flags;
mod policy;
// Not an API: whether a process lives, who it is, the boot id; public for the workspace's
// simulator (gba-sim), software barrier (gba-barrier) and tests, which judge the same
// processes the host segment does.
#[doc(hidden)]
pub mod process;

use core::marker::PhantomData;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU64, Ordering};

use crate::arbiter::{ClaimReport, LocalSlot};

pub use claims::{HostClaims, ResolveFlag, SegmentArbiter};
pub use file::{SEGMENT_DIR_ENV, SegmentError, SegmentFile, segment_dir};
pub use flags::FlagLines;
pub use policy::{group_quota, quota_or_default};

use crate::TeamKey;
use crate::arbiter::{ClaimSets, ClaimState};
use crate::claim::{self, JoinSlot, Liveness, Record, State, Taken};
use crate::members::GroupSet;
use crate::shared::SharedWord;

/// The most processes of one team on one port (slots per group).
pub const MAX_LOCAL: usize = 64;
/// Groups a segment has records for.
pub const GROUPS: usize = gba_pac::MAX_GROUPS;
const LINE: usize = 64;
/// The line of a group's block with the arrivals counter (the claim record has lines 0 and 1).
const ARRIVALS_LINE: usize = 2;
/// The line of a group's block with slot 0.
const FIRST_SLOT_LINE: usize = 3;
/// Bytes of one group's block.
pub const GROUP_BYTES: usize = (FIRST_SLOT_LINE + MAX_LOCAL) * LINE;
/// Bytes of one port's host segment.
pub const PORT_BYTES: usize = GROUPS * GROUP_BYTES;

const R_WORD: usize = 0;
const R_START: usize = 1;
/// The team key's words 0 and 1 ([`TeamKey::words`]).
const R_TEAM: [usize; 2] = [2, 3];
const R_FLAG: usize = 4;
const R_FLAG_LEN: usize = 5;
const R_LOCAL: usize = 6;
const S_PID: usize = 0;
const S_START: usize = 1;
const S_RANK: usize = 2;
const S_ENTERED: usize = 3;
/// The claim generation the slot was registered for (see [`claim::JoinSlot`]).
const S_GENERATION: usize = 4;
/// The slot's PID namespace (inode; 0: unknown).
const S_NS: usize = 5;
/// The claimant's uid (`claim::Claimant::uid_word`; 0: not recorded).
const R_UID: usize = 7;
/// The claimant's PID namespace (inode; 0: unknown). The first word of the record's second line.
const R_NS: usize = 8;

/// The flag a held claim published ([`HostSegment::claim_flag`]): a joiner resolves it to
/// the same DMA line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublishedFlag {
    /// The flag's bus address.
    pub iova: u64,
    /// Its length in bytes.
    pub len: usize,
}

/// Where a group's local arrivals live in the segment ([`HostSegment::local_arrival_words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalArrivalWords {
    /// The arrivals counter of the host's processes in the team.
    pub arrivals: *mut u64,
    /// This process's `entered` word.
    pub entered: *mut u64,
}

/// One port's host segment: [`PORT_BYTES`] of memory shared by the host's processes.
#[derive(Clone, Copy, Debug)]
pub struct HostSegment<'a> {
    base: NonNull<u8>,
    /// Groups one uid may hold on this port: the segment's own, recorded by whoever made it
    /// ([`with_quota`](Self::with_quota)), so every process of the port applies one quota.
    quota: u32,
    /// What errors call it: the segment file (or the fabric's `hosts` file and port).
    name: &'static str,
    _memory: PhantomData<&'a ()>,
}

// SAFETY: a view of memory reached only atomically (the constructor's contract).
unsafe impl Send for HostSegment<'_> {}
// SAFETY: as for `Send`.
unsafe impl Sync for HostSegment<'_> {}

impl<'a> HostSegment<'a> {
    /// The segment at `base`.
    ///
    /// # Safety
    ///
    /// `base` is 64-byte aligned and valid for reads and writes of [`PORT_BYTES`] for `'a`,
    /// and every process and thread reaches those bytes only atomically.
    pub unsafe fn new(base: NonNull<u8>) -> Self {
        HostSegment {
            base,
            quota: crate::arbiter::DEFAULT_GROUP_QUOTA,
            name: "<memory>",
            _memory: PhantomData,
        }
    }

    /// This segment, called `name` in errors (its file, and the port for a file of several).
    pub fn with_name(self, name: &str) -> Self {
        HostSegment {
            name: intern(name),
            ..self
        }
    }

    /// What errors call this segment.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// This segment with `quota` groups per uid (what its creator recorded beside it: the
    /// segment file's header, the fabric's switch header), clamped to 1 to [`GROUPS`].
    pub fn with_quota(self, quota: u32) -> Self {
        HostSegment {
            quota: quota.clamp(1, GROUPS as u32),
            ..self
        }
    }

    /// Groups one uid may hold on this port.
    pub fn quota(&self) -> u32 {
        self.quota
    }

    fn word(&self, offset: usize) -> SharedWord<'a> {
        assert!(
            offset.is_multiple_of(8) && offset + 8 <= PORT_BYTES,
            "host segment word {offset:#x} outside the layout"
        );
        // In bounds: checked just above.
        let ptr = self.base.as_ptr().wrapping_add(offset).cast();
        // SAFETY: an 8-aligned word inside the segment (checked above; `base` is 64-byte
        // aligned), valid for `'a` and reached only atomically (`HostSegment::new`'s contract).
        unsafe { SharedWord::new(ptr) }
    }

    fn record_word(&self, g: usize, word: usize) -> SharedWord<'a> {
        self.word(g * GROUP_BYTES + word * 8)
    }

    fn slot_word(&self, g: usize, slot: usize, word: usize) -> SharedWord<'a> {
        self.word(g * GROUP_BYTES + (FIRST_SLOT_LINE + slot) * LINE + word * 8)
    }

    fn with_record<R>(&self, g: usize, f: impl FnOnce(&Record<'_, SharedWord<'a>>) -> R) -> R {
        let (word, start, team) = (
            self.record_word(g, R_WORD),
            self.record_word(g, R_START),
            R_TEAM.map(|w| self.record_word(g, w)),
        );
        let arrivals = self.word(g * GROUP_BYTES + ARRIVALS_LINE * LINE);
        let uid = self.record_word(g, R_UID);
        f(&Record {
            word: &word,
            start: &start,
            team: [&team[0], &team[1]],
            arrivals: &arrivals,
            uid: &uid,
        })
    }

    /// Registers this process (started at `start`, team rank `rank`) in slot `slot` of group
    /// `g` for the claim of `generation`; the pid last (release), so a reader that finds the
    /// pid finds the rest.
    fn register_slot(&self, g: usize, slot: usize, start: u64, rank: u64, generation: u64) {
        self.slot_word(g, slot, S_START).store(start);
        self.slot_word(g, slot, S_RANK).store(rank);
        self.slot_word(g, slot, S_ENTERED).store(0);
        self.slot_word(g, slot, S_GENERATION).store(generation);
        self.slot_word(g, slot, S_NS).store(process::my_pid_ns());
        self.slot_word(g, slot, S_PID).store(process::my_pid());
    }

    /// Takes or joins group `g`'s claim for this process as slot `slot` of the `local`
    /// processes of team `key` (team rank `rank`). On a win the record's slots are cleared, L
    /// recorded and the slot registered; on a join the slot is registered.
    pub fn take_claim(
        &self,
        g: usize,
        key: TeamKey,
        slot: usize,
        local: usize,
        rank: u64,
    ) -> Taken {
        self.take_claim_waiting(g, key, slot, local, rank, None)
    }

    /// [`take_claim`](Self::take_claim) from a loop that waits for a team-mate's
    /// configuration: with `patience`, a CLAIMING claimant is presumed alive for
    /// [`Patience::GRACE`] after this waiter first saw (or last checked) that very claim,
    /// instead of asking the system at every poll (see [`Patience`]). A claim this process
    /// would take rather than join is refused ([`Taken::Quota`]) when its user holds the
    /// segment's quota of groups of the port already, counted after the record is taken
    /// (see `over_quota_after_win`).
    pub fn take_claim_waiting(
        &self,
        g: usize,
        key: TeamKey,
        slot: usize,
        local: usize,
        rank: u64,
        patience: Option<&Patience>,
    ) -> Taken {
        let quota = self.quota;
        if let Some(corrupt) = self.check_record(g) {
            return corrupt;
        }
        let (pid, start) = (process::my_pid(), process::my_start_time());
        let me = claim::Claimant {
            pid,
            start,
            uid: process::my_uid(),
        };
        // Joining a claim of this team takes no new group: only a take is counted. This first
        // count only spares a record a take that would be given back; the exact one follows
        // the take.
        let joinable = self.with_record(g, |r| r.state()).state == claim::HELD
            && self.team_key(g) == Some(key);
        if !joinable && let Some(held) = self.quota_reached(g, quota) {
            return Taken::Quota { held, quota };
        }
        let checked = self.claim_live(g, quota);
        let live = |state: State, start: u64| match patience {
            Some(p) if state.state == claim::CLAIMING => {
                p.presumed_alive(g, state) || {
                    let alive = checked.live(state, start);
                    if alive {
                        p.checked(g, state);
                    }
                    alive
                }
            }
            _ => checked.live(state, start),
        };
        // A joiner registers before its join CAS (see `claim::JoinSlot`).
        let join_slot = Registration {
            segment: self,
            g,
            slot,
            start,
            rank,
        };
        let taken = self.with_record(g, |r| r.take_as(&me, Some(key), &live, &join_slot));
        if let Taken::Won { .. } = taken
            && let Some(held) = self.over_quota_after_win(g, quota)
        {
            self.with_record(g, |r| r.free(pid));
            return Taken::Quota { held, quota };
        }
        if taken == Taken::Joined
            && let Some(corrupt) = self.check_join(g, local)
        {
            self.leave_claim(g, slot);
            return corrupt;
        }
        if let Taken::Won { .. } = taken {
            // Read by others only after our HELD (release), as the team key is.
            self.record_word(g, R_NS).store(process::my_pid_ns());
            for s in 0..MAX_LOCAL {
                self.slot_word(g, s, S_PID).store(0);
            }
            self.record_word(g, R_FLAG).store(0);
            self.record_word(g, R_LOCAL).store(local as u64);
            if slot < MAX_LOCAL {
                // The claimant is seen through the word's pid; its slot is for combining and
                // for naming it in timeouts.
                let generation = self.with_record(g, |r| r.state()).generation;
                self.register_slot(g, slot, start, rank, generation);
            }
        }
        taken
    }

    /// Group `g`'s claim word, if it holds what no transition writes: a state other than
    /// FREE, CLAIMING and HELD, a claimed record naming no process or pid 0, or a free one
    /// naming any. Such a record is refused by name rather than taken for a live claim (or
    /// for a dead one to take over).
    fn check_record(&self, g: usize) -> Option<Taken> {
        let word = self.record_word(g, R_WORD).load();
        let state = State::unpack(word);
        let corrupt = |allowed| {
            Some(Taken::Corrupt {
                word: "claim word (record word 0: generation, state, joined, pid)",
                value: word,
                allowed,
            })
        };
        match state.state {
            claim::FREE if state.joined != 0 || state.pid != 0 => {
                corrupt("no process and pid 0 when its state is FREE")
            }
            claim::FREE => None,
            claim::CLAIMING | claim::HELD if state.joined == 0 || state.pid == 0 => {
                corrupt("at least one process and a pid when it is claimed")
            }
            claim::CLAIMING | claim::HELD => None,
            _ => corrupt("state 0 (free), 1 (claiming) or 2 (held)"),
        }
    }

    /// What a joiner of group `g`'s claim (one of `local` processes of its team on this
    /// port) reads from the claimant: L must be the team's (a smaller one would let this
    /// host's doorbell ring before all its processes arrived, a larger one never), and the
    /// published flag at most one line.
    fn check_join(&self, g: usize, local: usize) -> Option<Taken> {
        let l = self.record_word(g, R_LOCAL).load();
        if l != local as u64 {
            return Some(Taken::Corrupt {
                word: "L (record word 6: the team's processes on this port)",
                value: l,
                allowed: "the number this team's processes agreed on",
            });
        }
        let len = self.record_word(g, R_FLAG_LEN).load();
        if !(1..=LINE as u64).contains(&len) {
            return Some(Taken::Corrupt {
                word: "flag length (record word 5)",
                value: len,
                allowed: "1 to 64 bytes (one line)",
            });
        }
        None
    }

    /// Claim, then count: with group `g`'s record just taken (CLAIMING, our uid stored), the
    /// groups other than `g` our uid holds, when they are the quota or more (`Some`: give
    /// `g` back). Counting before taking let two claims of one user at the same instant both
    /// pass; counted after, of two racing takes at least one sees the other's record (each
    /// stores its record, then a SeqCst fence, then reads the others': of two such fences one
    /// is first in their single total order, and the reads after the second see the stores
    /// before the first). So racing claims may both be refused, never both pass.
    fn over_quota_after_win(&self, g: usize, quota: u32) -> Option<u32> {
        core::sync::atomic::fence(Ordering::SeqCst);
        self.quota_reached(g, quota)
    }

    /// The winner publishes the group's release flag (IOVA and length) and holds the claim.
    pub fn hold_claim(&self, g: usize, iova: u64, len: usize) -> bool {
        self.record_word(g, R_FLAG).store(iova);
        self.record_word(g, R_FLAG_LEN).store(len as u64);
        self.with_record(g, |r| r.hold(process::my_pid()))
    }

    /// The published flag of a held claim.
    pub fn claim_flag(&self, g: usize) -> PublishedFlag {
        PublishedFlag {
            iova: self.record_word(g, R_FLAG).load(),
            len: self.record_word(g, R_FLAG_LEN).load() as usize,
        }
    }

    /// Group `g`'s team key as recorded (`None`: zeros, no team), its words read one at a
    /// time: for reports and the quota's first guess, never to decide a join (see
    /// [`Record::take_as`]).
    fn team_key(&self, g: usize) -> Option<TeamKey> {
        TeamKey::from_words(R_TEAM.map(|w| self.record_word(g, w).load()))
    }

    /// L of the claim.
    pub fn claim_local(&self, g: usize) -> u64 {
        self.record_word(g, R_LOCAL).load()
    }

    /// Leaves the claim as slot `slot`; true for the last process (see [`Record::leave`]).
    pub fn leave_claim(&self, g: usize, slot: usize) -> bool {
        let last = self.with_record(g, |r| r.leave(process::my_pid()));
        if !last && slot < MAX_LOCAL {
            let _ = self
                .slot_word(g, slot, S_PID)
                .compare_exchange(process::my_pid(), 0);
        }
        last
    }

    /// Frees the claim this process holds as CLAIMING (after the group's reset).
    pub fn free_claim(&self, g: usize) {
        for s in 0..MAX_LOCAL {
            self.slot_word(g, s, S_PID).store(0);
        }
        self.with_record(g, |r| r.free(process::my_pid()));
    }

    /// Takes over group `g`'s claim if every process of it is dead (for a reclaim): the dead
    /// claimant's pid, with the record now CLAIMING by this process, to be freed with
    /// [`free_claim`](Self::free_claim) after the reset.
    pub fn take_dead_claim(&self, g: usize) -> Option<u64> {
        let state = self.with_record(g, |r| r.state());
        if state.state == claim::FREE {
            return None;
        }
        let live = self.claim_live(g, self.quota);
        let me = claim::Claimant {
            pid: process::my_pid(),
            start: 0,
            uid: process::my_uid(),
        };
        match self.with_record(g, |r| r.take_as(&me, None, &live, &())) {
            Taken::Won { over_dead: true } => Some(state.pid),
            Taken::Won { over_dead: false } => {
                // It was freed meanwhile: give it back at once.
                self.free_claim(g);
                None
            }
            _ => None,
        }
    }

    /// Pointers for [`LocalArrivals`](crate::LocalArrivals): the arrivals counter and slot `slot`'s
    /// `entered`.
    pub fn local_arrival_words(&self, g: usize, slot: usize) -> LocalArrivalWords {
        LocalArrivalWords {
            arrivals: self.word(g * GROUP_BYTES + ARRIVALS_LINE * LINE).as_ptr(),
            entered: self
                .slot_word(g, slot.min(MAX_LOCAL - 1), S_ENTERED)
                .as_ptr(),
        }
    }

    /// Groups whose claim a live process holds.
    pub fn live_claims(&self) -> GroupSet {
        self.claim_sets().held
    }

    /// Groups claimed by a live process and groups whose claim is not honoured (bit g): only
    /// dead processes hold it, or another user holds it beyond the segment's quota (what
    /// `claim_live` counts as dead, as a claim does), each record checked once.
    pub fn claim_sets(&self) -> ClaimSets {
        let (mut live, mut dead) = (0u32, 0u32);
        for g in 0..GROUPS.min(32) {
            let state = self.with_record(g, |r| r.state());
            if state.state == claim::FREE {
                continue;
            }
            let check = self.claim_live(g, self.quota);
            if check.live(state, self.record_word(g, R_START).load()) {
                live |= 1 << g;
            } else {
                dead |= 1 << g;
            }
        }
        ClaimSets {
            held: GroupSet(live),
            dead: GroupSet(dead),
        }
    }

    /// The process that holds group `g` (its claim record's pid), if any.
    pub fn group_owner(&self, g: usize) -> Option<u64> {
        let state = self.with_record(g, |r| r.state());
        (state.state != claim::FREE).then_some(state.pid)
    }

    /// Records `owner` (a pid; `None`: nobody) as the holder of group `g`, as a held claim of
    /// one process with start time unknown, outside any backend (tests and tools).
    pub fn set_group_owner(&self, g: usize, owner: Option<u64>) {
        for s in 0..MAX_LOCAL {
            self.slot_word(g, s, S_PID).store(0);
        }
        let word = self.record_word(g, R_WORD);
        let now = State::unpack(word.load());
        let new = match owner {
            None => State {
                generation: (now.generation + 1) & 0xffff,
                state: claim::FREE,
                joined: 0,
                pid: 0,
            },
            Some(pid) => {
                self.record_word(g, R_START).store(0);
                for w in R_TEAM {
                    self.record_word(g, w).store(u64::MAX);
                }
                let uid = claim::Claimant::uid_word(process::my_uid());
                self.record_word(g, R_UID).store(uid);
                self.record_word(g, R_NS).store(0);
                self.record_word(g, R_LOCAL).store(1);
                State {
                    generation: (now.generation + 1) & 0xffff,
                    state: claim::HELD,
                    joined: 1,
                    pid: pid & 0xffff_ffff,
                }
            }
        };
        word.store(new.pack());
    }

    /// Every claim record that is not free.
    pub fn claims(&self) -> Vec<ClaimReport> {
        (0..GROUPS)
            .filter_map(|g| {
                let state = self.with_record(g, |r| r.state());
                if state.state == claim::FREE {
                    return None;
                }
                let claimant = self.claimant(g, state, self.record_word(g, R_START).load());
                Some(ClaimReport {
                    group: g,
                    state: if state.state == claim::HELD {
                        ClaimState::Held
                    } else {
                        ClaimState::Claiming
                    },
                    pid: state.pid,
                    uid: claimant.uid,
                    alive: process::claimant_alive(&claimant),
                    other_pid_namespace: process::other_pid_namespace(claimant.pid_ns),
                    team_key: self.team_key(g),
                    joined: state.joined,
                    local: self.record_word(g, R_LOCAL).load(),
                })
            })
            .collect()
    }

    /// The local processes registered in group `g`'s claim.
    pub fn slots(&self, g: usize) -> Vec<LocalSlot> {
        if g >= GROUPS || self.with_record(g, |r| r.state()).state == claim::FREE {
            return Vec::new();
        }
        (0..MAX_LOCAL)
            .filter_map(|s| {
                let pid = self.slot_word(g, s, S_PID).load();
                (pid != 0).then(|| LocalSlot {
                    slot: s,
                    pid,
                    rank: self.slot_word(g, s, S_RANK).load(),
                    entered: self.slot_word(g, s, S_ENTERED).load(),
                    alive: process::claimant_alive(&self.slot_claimant(g, s, pid)),
                })
            })
            .collect()
    }

    /// The local processes of group `g`'s claim that have not entered sequence `seq` (mod
    /// 2^32) yet: what a timeout names on this host.
    pub fn local_missing(&self, g: usize, seq: u32) -> Vec<LocalSlot> {
        let mut slots = self.slots(g);
        slots.retain(|s| s.entered as u32 != seq);
        slots
    }
}

/// `name` as a `&'static str`, leaked once per distinct name in this process (a handful of
/// segment files and device nodes), so that a [`Refusal`](crate::Refusal) naming the file stays
/// `Copy`.
pub(crate) fn intern(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut names = NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&known) = names.iter().find(|&&n| n == name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.push(leaked);
    leaked
}

/// A waiter's memory of the CLAIMING claims it polls, per group: the claim word and when it
/// was first seen or last found alive. A process waiting for a team-mate's configuration
/// polls the claim (every few microseconds); asking the system whether the claimant lives
/// (`kill` and a read of `/proc/PID/stat`) at each poll cost ~40 µs and made joining a team
/// several times slower than its configuration. Presuming the claimant alive for `GRACE`
/// after seeing its claim, then checking once per `GRACE`, takes nothing from anyone: it only
/// answers Wait where a check might have found the claimant dead, so a dead claimant's claim
/// is taken over at most `GRACE` later (the wait is bounded by the configure timeout as
/// before). It never presumes anything of a HELD claim (Busy or a take-over) or of a claim
/// it has not seen. The two words of a group are stored separately: a reader pairing one
/// claim's word with another's time presumes at most `GRACE` from a real observation.
#[derive(Debug)]
pub struct Patience {
    word: [AtomicU64; GROUPS],
    since: [AtomicU64; GROUPS],
}

impl Default for Patience {
    fn default() -> Self {
        Patience {
            word: core::array::from_fn(|_| AtomicU64::new(0)),
            since: core::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl Patience {
    /// How long a CLAIMING claimant is presumed alive between two checks.
    pub const GRACE: core::time::Duration = core::time::Duration::from_millis(10);

    fn presumed_alive(&self, g: usize, state: State) -> bool {
        let (word, now) = (state.pack(), crate::backends::monotonic_ns());
        if self.word[g].load(Ordering::Relaxed) != word {
            // A claim not seen before: presumed alive from now on, for GRACE.
            self.word[g].store(word, Ordering::Relaxed);
            self.since[g].store(now, Ordering::Relaxed);
            return true;
        }
        now.saturating_sub(self.since[g].load(Ordering::Relaxed)) < Self::GRACE.as_nanos() as u64
    }

    fn checked(&self, g: usize, state: State) {
        self.word[g].store(state.pack(), Ordering::Relaxed);
        self.since[g].store(crate::backends::monotonic_ns(), Ordering::Relaxed);
    }
}

/// A joiner's slot in a segment, for [`Record::take_as`].
struct Registration<'s, 'a> {
    segment: &'s HostSegment<'a>,
    g: usize,
    slot: usize,
    start: u64,
    rank: u64,
}

impl JoinSlot for Registration<'_, '_> {
    fn register(&self, generation: u64) {
        if self.slot < MAX_LOCAL {
            let r = self;
            r.segment
                .register_slot(r.g, r.slot, r.start, r.rank, generation);
        }
    }

    fn withdraw(&self) {
        if self.slot < MAX_LOCAL {
            let _ = self
                .segment
                .slot_word(self.g, self.slot, S_PID)
                .compare_exchange(process::my_pid(), 0);
        }
    }
}

/// What identifies a host segment (see [`HostArbiter::host_key`](crate::HostArbiter::host_key)):
/// this boot's id, the segment file's device and inode and the port, hashed; `None` when the
/// file or the boot id cannot be read.
pub fn host_key(segment_file: &std::path::Path, port: usize) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    use std::os::unix::fs::MetadataExt;
    let boot = process::boot_id()?;
    let m = std::fs::metadata(segment_file).ok()?;
    let mut h = std::hash::DefaultHasher::new();
    (boot, m.dev(), m.ino(), port).hash(&mut h);
    Some(h.finish() | 1)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::LocalTeam;
    use crate::arbiter::Claim;
    use crate::backend::DmaRegion;

    /// Team `n`'s key: `n` in word 0, its complement in word 1.
    pub(super) fn key(n: u64) -> TeamKey {
        TeamKey::from_words([n, !n]).unwrap()
    }

    /// PORT_BYTES of zeroed, 64-aligned memory standing for a segment file (Miri opens no
    /// files), freed on drop.
    pub(super) struct Memory(NonNull<u8>, std::alloc::Layout);

    impl Memory {
        pub(super) fn new() -> Self {
            let layout = std::alloc::Layout::from_size_align(PORT_BYTES, 64).unwrap();
            // SAFETY: the layout has a non-zero size.
            let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
            Memory(NonNull::new(ptr).expect("allocation"), layout)
        }

        pub(super) fn segment(&self) -> HostSegment<'_> {
            // SAFETY: PORT_BYTES, 64-aligned, alive while borrowed, reached only atomically
            // (through the segment) by the test's threads.
            unsafe { HostSegment::new(self.0) }
        }
    }

    impl Drop for Memory {
        fn drop(&mut self) {
            // SAFETY: allocated in `new` with this layout; the threads using it have joined.
            unsafe { std::alloc::dealloc(self.0.as_ptr(), self.1) }
        }
    }

    // SAFETY: the memory is reached only atomically, through `HostSegment`.
    unsafe impl Sync for Memory {}

    /// A joiner of a claim whose claimant died is what keeps the claim alive: registered
    /// (for the claim's generation) by the time its join is in the word, so nobody takes the
    /// claim over under it; a registration for an older generation keeps nothing alive.
    #[cfg(not(miri))]
    #[test]
    fn a_joiner_keeps_a_dead_claimants_claim_alive() {
        let memory = Memory::new();
        let segment = memory.segment();
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("`true` runs");
        let dead = u64::from(child.id());
        child.wait().unwrap();
        let alive = |_: State, _: u64| true;
        segment.with_record(0, |r| {
            assert_eq!(
                r.take(dead, 0, key(0x7ea), &alive),
                Taken::Won { over_dead: false }
            );
            assert!(r.hold(dead));
        });
        // What the dead claimant published: L and its flag.
        segment.record_word(0, R_LOCAL).store(2);
        segment.record_word(0, R_FLAG_LEN).store(64);
        assert_eq!(
            segment.live_claims().0,
            0,
            "the claimant is dead, nobody else is in it"
        );
        assert_eq!(segment.take_claim(0, key(0x7ea), 1, 2, 1), Taken::Joined);
        assert_eq!(segment.live_claims().0, 1, "the joiner is seen");
        assert_eq!(segment.take_dead_claim(0), None, "and nobody takes it over");
        let generation = segment.with_record(0, |r| r.state()).generation;
        segment.slot_word(0, 1, S_GENERATION).store(generation + 1);
        assert_eq!(
            segment.live_claims().0,
            0,
            "a registration for another generation counts for nothing"
        );
    }

    /// Two processes of a team on one port, as two threads over one segment (what Miri can
    /// run): one wins and publishes, the other joins with its flag; over 50 episodes exactly
    /// one arrival per episode completes the host's count; the last leaver frees the claim.
    #[test]
    fn two_local_processes_claim_join_and_combine() {
        let memory = Memory::new();
        let flag_line = AtomicU64::new(0);
        let flag = DmaRegion {
            host: NonNull::from(&flag_line).cast(),
            iova: 0x1000,
            len: 64,
        };
        let completions = AtomicU64::new(0);
        let step = std::sync::Barrier::new(2);
        std::thread::scope(|s| {
            for index in 0..2u32 {
                let (memory, completions, step) = (&memory, &completions, &step);
                s.spawn(move || {
                    let claims = HostClaims::new();
                    let team = LocalTeam {
                        key: key(0x7ea),
                        local: 2,
                        index,
                        rank: index,
                    };
                    let segment = memory.segment();
                    let resolve =
                        |iova, len| (iova == flag.iova).then_some(DmaRegion { len, ..flag });
                    let joined = loop {
                        match claims.claim(segment, 0, Some(&team), resolve) {
                            Claim::Won => {
                                assert!(claims.hold(segment, 0, &flag));
                                break None;
                            }
                            Claim::Joined { flag } => break Some(flag),
                            Claim::Wait => std::thread::yield_now(),
                            other => panic!("a team-mate is never refused: {other:?}"),
                        }
                    };
                    if let Some(joined) = joined {
                        assert_eq!(joined.iova, flag.iova);
                    }
                    step.wait();
                    let record = &segment.claims()[0];
                    assert_eq!(
                        (record.joined, record.local, segment.slots(0).len()),
                        (2, 2, 2)
                    );
                    let combining = claims.local_arrivals(segment, 0).expect("L = 2");
                    for episode in 1..=50 {
                        combining.enter(episode);
                        if (combining.add() + 1).is_multiple_of(combining.local) {
                            completions.fetch_add(1, Ordering::Relaxed);
                        }
                        // What the switch's release stands for: nobody arrives for the next
                        // episode before this one completed.
                        step.wait();
                    }
                    // Both leave; exactly one is the last, which then frees the claim.
                    if claims.leave(segment, 0) {
                        completions.fetch_add(1000, Ordering::Relaxed);
                        claims.release(segment, 0);
                    }
                });
            }
        });
        // 50 completing arrivals (one doorbell per episode) and one last leaver.
        assert_eq!(completions.load(Ordering::Relaxed), 1050);
        assert_eq!(
            memory.segment().live_claims().0,
            0,
            "the last leaver freed the claim"
        );
    }
}
