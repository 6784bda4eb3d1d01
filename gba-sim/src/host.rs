//! The host segment (ARCHITECTURE.md "The host segment"): per port and group, a claim record,
//! the combining block's arrivals counter and a table of local process slots, in the fabric's
//! `hosts` file, which every process that opens one of the fabric's ports maps.
//!
//! ```text
//! hosts file = ports × GROUPS × GROUP_BYTES, per group:
//!   line 0   claim record: word (generation|state|joined|pid), start time, team key,
//!            flag IOVA, flag length, L
//!   line 1   arrivals: every local arrival since the claim (never reset)
//!   line 2+i slot i: pid, start time, team rank, entered (the last sequence it arrived for)
//! ```
//!
//! Every word alone where it is written on the hot path: `arrivals` on its own line (the one
//! line the host's processes bounce), each slot's `entered` on its slot's line.

use crate::claim::{self, Liveness, Record, State, Taken};
use crate::fabric::Fabric;
use crate::os;
use crate::shm::Word;

/// The most processes of one team on one port (slots per group).
pub const MAX_LOCAL: usize = 64;
const LINE: usize = 64;
/// Bytes of one port's and group's block.
pub const GROUP_BYTES: usize = (2 + MAX_LOCAL) * LINE;
/// Bytes of one port's host segment.
pub const PORT_BYTES: usize = crate::layout::GROUPS * GROUP_BYTES;
/// The file name in the fabric directory.
pub const HOSTS_FILE: &str = "hosts";

const R_WORD: usize = 0;
const R_START: usize = 1;
const R_TEAM: usize = 2;
const R_FLAG: usize = 3;
const R_FLAG_LEN: usize = 4;
const R_LOCAL: usize = 5;
const S_PID: usize = 0;
const S_START: usize = 1;
const S_RANK: usize = 2;
const S_ENTERED: usize = 3;

/// One claim record as `gba sim status` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimReport {
    pub group: usize,
    /// "claiming" or "held".
    pub state: &'static str,
    pub pid: u64,
    pub alive: bool,
    pub team_key: u64,
    pub joined: u64,
    /// L: the team's processes on this port.
    pub local: u64,
    /// Registered local processes: (slot, pid, team rank, entered, alive).
    pub slots: Vec<LocalSlot>,
}

/// A local process of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalSlot {
    pub slot: usize,
    pub pid: u64,
    pub rank: u64,
    pub entered: u64,
    pub alive: bool,
}

fn group_offset(p: usize, g: usize) -> usize {
    p * PORT_BYTES + g * GROUP_BYTES
}

impl Fabric {
    fn host_word(&self, p: usize, g: usize, word: usize) -> Word<'_> {
        self.hosts().word(group_offset(p, g) + word * 8)
    }

    fn slot_word(&self, p: usize, g: usize, slot: usize, word: usize) -> Word<'_> {
        self.hosts()
            .word(group_offset(p, g) + (2 + slot) * LINE + word * 8)
    }

    fn with_record<R>(&self, p: usize, g: usize, f: impl FnOnce(&Record<'_, Word<'_>>) -> R) -> R {
        let (word, start, team) = (
            self.host_word(p, g, R_WORD),
            self.host_word(p, g, R_START),
            self.host_word(p, g, R_TEAM),
        );
        let arrivals = self.hosts().word(group_offset(p, g) + LINE);
        f(&Record {
            word: &word,
            start: &start,
            team: &team,
            arrivals: &arrivals,
        })
    }

    /// Whether the claim of group `g` on port `p` is still used: its claimant (pid and start
    /// time) or any registered local process is alive.
    fn claim_live(&self, p: usize, g: usize) -> impl Liveness + '_ {
        move |state: State, start: u64| {
            os::alive_as(state.pid, start)
                || (0..MAX_LOCAL).any(|s| {
                    let pid = self.slot_word(p, g, s, S_PID).load();
                    pid != 0 && os::alive_as(pid, self.slot_word(p, g, s, S_START).load())
                })
        }
    }

    /// Takes or joins group `g`'s claim on port `p` for this process as slot `slot` of the
    /// `local` processes of team `key` (team rank `rank`). On a win the record's slots are
    /// cleared, L recorded and the slot registered; on a join the slot is registered.
    pub(crate) fn take_claim(
        &self,
        p: usize,
        g: usize,
        key: u64,
        slot: usize,
        local: usize,
        rank: u64,
    ) -> Taken {
        let (pid, start) = (os::my_pid(), os::my_start_time());
        let live = self.claim_live(p, g);
        let taken = self.with_record(p, g, |r| r.take(pid, start, key, &live));
        if let Taken::Won { .. } = taken {
            for s in 0..MAX_LOCAL {
                self.slot_word(p, g, s, S_PID).store(0);
            }
            self.host_word(p, g, R_FLAG).store(0);
            self.host_word(p, g, R_LOCAL).store(local as u64);
        }
        if matches!(taken, Taken::Won { .. } | Taken::Joined) && slot < MAX_LOCAL {
            self.slot_word(p, g, slot, S_START).store(start);
            self.slot_word(p, g, slot, S_RANK).store(rank);
            self.slot_word(p, g, slot, S_ENTERED).store(0);
            self.slot_word(p, g, slot, S_PID).store(pid);
        }
        taken
    }

    /// The winner publishes the group's release flag (IOVA and length) and holds the claim.
    pub(crate) fn hold_claim(&self, p: usize, g: usize, iova: u64, len: usize) -> bool {
        self.host_word(p, g, R_FLAG).store(iova);
        self.host_word(p, g, R_FLAG_LEN).store(len as u64);
        self.with_record(p, g, |r| r.hold(os::my_pid()))
    }

    /// The published flag of a held claim: (IOVA, length).
    pub(crate) fn claim_flag(&self, p: usize, g: usize) -> (u64, usize) {
        (
            self.host_word(p, g, R_FLAG).load(),
            self.host_word(p, g, R_FLAG_LEN).load() as usize,
        )
    }

    /// L of the claim.
    pub(crate) fn claim_local(&self, p: usize, g: usize) -> u64 {
        self.host_word(p, g, R_LOCAL).load()
    }

    /// Leaves the claim as slot `slot`; true for the last process (see [`Record::leave`]).
    pub(crate) fn leave_claim(&self, p: usize, g: usize, slot: usize) -> bool {
        let last = self.with_record(p, g, |r| r.leave(os::my_pid()));
        if !last && slot < MAX_LOCAL {
            let _ = self
                .slot_word(p, g, slot, S_PID)
                .compare_exchange(os::my_pid(), 0);
        }
        last
    }

    /// Frees the claim this process holds as CLAIMING (after the group's reset).
    pub(crate) fn free_claim(&self, p: usize, g: usize) {
        for s in 0..MAX_LOCAL {
            self.slot_word(p, g, s, S_PID).store(0);
        }
        self.with_record(p, g, |r| r.free(os::my_pid()));
    }

    /// Takes over group `g`'s claim on port `p` if every process of it is dead (for
    /// `reclaim_dead`): the dead claimant's pid, with the record now CLAIMING by this
    /// process, to be freed with [`free_claim`](Self::free_claim) after the reset.
    pub(crate) fn take_dead_claim(&self, p: usize, g: usize) -> Option<u64> {
        let state = self.with_record(p, g, |r| r.state());
        if state.state == claim::FREE {
            return None;
        }
        let live = self.claim_live(p, g);
        match self.with_record(p, g, |r| r.take(os::my_pid(), 0, 0, &live)) {
            Taken::Won { over_dead: true } => Some(state.pid),
            Taken::Won { over_dead: false } => {
                // It was freed meanwhile: give it back at once.
                self.free_claim(p, g);
                None
            }
            _ => None,
        }
    }

    /// Pointers for gba-hal's `Combining`: the arrivals counter and slot `slot`'s `entered`.
    pub(crate) fn combining_words(&self, p: usize, g: usize, slot: usize) -> (*mut u64, *mut u64) {
        let base = self.hosts().as_ptr().wrapping_add(group_offset(p, g));
        (
            base.wrapping_add(LINE).cast(),
            base.wrapping_add((2 + slot) * LINE + S_ENTERED * 8).cast(),
        )
    }

    /// Groups of port `p` whose claim a live process holds (bit g: group g).
    pub(crate) fn live_claims(&self, p: usize) -> u32 {
        (0..crate::layout::GROUPS.min(32))
            .filter(|&g| {
                let state = self.with_record(p, g, |r| r.state());
                state.state != claim::FREE && {
                    let live = self.claim_live(p, g);
                    live.live(state, self.host_word(p, g, R_START).load())
                }
            })
            .fold(0, |set, g| set | (1 << g))
    }

    /// The process that holds group `g` on port `p` (its claim record's pid), if any.
    pub fn group_owner(&self, p: usize, g: usize) -> Option<u64> {
        let state = self.with_record(p, g, |r| r.state());
        (state.state != claim::FREE).then_some(state.pid)
    }

    /// Records `owner` (a pid; `None`: nobody) as the holder of group `g` on port `p`, as a
    /// held claim of one process with start time unknown, outside any backend (tests and
    /// tools; backends claim through [`SimBackend`](crate::SimBackend)).
    pub fn set_group_owner(&self, p: usize, g: usize, owner: Option<u64>) {
        for s in 0..MAX_LOCAL {
            self.slot_word(p, g, s, S_PID).store(0);
        }
        let word = self.host_word(p, g, R_WORD);
        let now = State::unpack(word.load());
        let new = match owner {
            None => State {
                generation: (now.generation + 1) & 0xffff,
                state: claim::FREE,
                joined: 0,
                pid: 0,
            },
            Some(pid) => {
                self.host_word(p, g, R_START).store(0);
                self.host_word(p, g, R_TEAM).store(u64::MAX);
                self.host_word(p, g, R_LOCAL).store(1);
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

    /// Every claim record of port `p` that is not free.
    pub fn claims(&self, p: usize) -> Vec<ClaimReport> {
        (0..crate::layout::GROUPS)
            .filter_map(|g| {
                let state = self.with_record(p, g, |r| r.state());
                if state.state == claim::FREE {
                    return None;
                }
                let slots = (0..MAX_LOCAL)
                    .filter_map(|s| {
                        let pid = self.slot_word(p, g, s, S_PID).load();
                        (pid != 0).then(|| LocalSlot {
                            slot: s,
                            pid,
                            rank: self.slot_word(p, g, s, S_RANK).load(),
                            entered: self.slot_word(p, g, s, S_ENTERED).load(),
                            alive: os::alive_as(pid, self.slot_word(p, g, s, S_START).load()),
                        })
                    })
                    .collect();
                Some(ClaimReport {
                    group: g,
                    state: if state.state == claim::HELD {
                        "held"
                    } else {
                        "claiming"
                    },
                    pid: state.pid,
                    alive: os::alive_as(state.pid, self.host_word(p, g, R_START).load()),
                    team_key: self.host_word(p, g, R_TEAM).load(),
                    joined: state.joined,
                    local: self.host_word(p, g, R_LOCAL).load(),
                    slots,
                })
            })
            .collect()
    }

    /// The local processes of group `g`'s claim on port `p` that have not entered sequence
    /// `seq` (mod 2^32) yet: what a timeout names on this host.
    pub fn local_missing(&self, p: usize, g: usize, seq: u32) -> Vec<LocalSlot> {
        self.claims(p)
            .into_iter()
            .filter(|c| c.group == g)
            .flat_map(|c| c.slots)
            .filter(|s| s.entered as u32 != seq)
            .collect()
    }
}
