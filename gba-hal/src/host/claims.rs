//! What one backend value keeps of its claims, and the [`Backend`](crate::Backend) claim
//! methods over a host segment: written once, used by every backend that has a segment (the
//! simulator's, UIO's), which differ only in where the segment and the release flags live.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicU32, Ordering};

use super::{GROUPS, HostSegment, MAX_LOCAL, Patience, process};
use crate::backend::{Claim, Combining, DmaRegion, LocalTeam};
use crate::claim::Taken;

/// One backend value's side of the host's claims: its token (the team key of a claim it makes
/// alone) and, per group, its slot in the claim's table of local processes.
#[derive(Debug)]
pub struct HostClaims {
    /// This value's claim token: pid in the low 32 bits, a per-process serial above, so that
    /// two opens of one port in one process are two owners (issue 13's second race).
    token: u64,
    /// Per group, this value's slot in the claim's local table, plus one (0: none).
    slots: [AtomicU32; GROUPS],
    /// What this value's waits for a team-mate's configuration remember (see [`Patience`]).
    patience: Patience,
}

impl Default for HostClaims {
    fn default() -> Self {
        Self::new()
    }
}

/// The serial of the next backend value in this process (never 0).
fn next_token() -> u64 {
    static SERIAL: AtomicU32 = AtomicU32::new(1);
    let serial = SERIAL.fetch_add(1, Ordering::Relaxed).max(1);
    (u64::from(serial) << 32) | (process::my_pid() & 0xffff_ffff)
}

impl HostClaims {
    pub fn new() -> Self {
        HostClaims {
            token: next_token(),
            slots: core::array::from_fn(|_| AtomicU32::new(0)),
            patience: Patience::default(),
        }
    }

    /// This value's slot in group `group`'s claim (0 when it has none).
    pub fn slot(&self, group: usize) -> usize {
        self.slots.get(group).map_or(0, |s| {
            (s.load(Ordering::Relaxed) as usize).saturating_sub(1)
        })
    }

    /// [`Backend::claim_group`](crate::Backend::claim_group) in `segment`. `resolve` turns the
    /// flag a team-mate published (IOVA, length) into this process's view of it; `None` (not
    /// memory this process reaches) leaves the claim again and answers `Busy`.
    pub fn claim(
        &self,
        segment: HostSegment<'_>,
        group: usize,
        team: Option<&LocalTeam>,
        resolve: impl FnOnce(u64, usize) -> Option<DmaRegion>,
    ) -> Claim {
        if group >= self.slots.len() {
            return Claim::Busy;
        }
        // Alone: a team of one whose key is this backend value's token, so that a second open
        // of the port in this process is another team (issue 13's second race).
        let (key, slot, local, rank) = team.map_or((self.token, 0, 1, 0), |t| {
            (t.key, t.index as usize, t.local as usize, u64::from(t.rank))
        });
        if slot >= MAX_LOCAL || local > MAX_LOCAL {
            return Claim::Busy;
        }
        // Called again and again while a team-mate configures (`Claim::Wait`): patient.
        let taken = segment.take_claim_waiting(group, key, slot, local, rank, Some(&self.patience));
        if let Taken::Won { .. } | Taken::Joined = taken {
            self.slots[group].store(slot as u32 + 1, Ordering::Relaxed);
        }
        match taken {
            Taken::Won { .. } => Claim::Won,
            Taken::Wait => Claim::Wait,
            Taken::Busy => Claim::Busy,
            Taken::Joined => {
                let (iova, len) = segment.claim_flag(group);
                match resolve(iova, len) {
                    Some(flag) => Claim::Joined { flag },
                    // A held claim always publishes its flag; anything else is not ours to use.
                    None => {
                        self.leave(segment, group);
                        Claim::Busy
                    }
                }
            }
        }
    }

    /// [`Backend::hold_group`](crate::Backend::hold_group).
    pub fn hold(&self, segment: HostSegment<'_>, group: usize, flag: &DmaRegion) -> bool {
        segment.hold_claim(group, flag.iova, flag.len)
    }

    /// [`Backend::leave_group`](crate::Backend::leave_group).
    pub fn leave(&self, segment: HostSegment<'_>, group: usize) -> bool {
        segment.leave_claim(group, self.slot(group))
    }

    /// [`Backend::release_group`](crate::Backend::release_group).
    pub fn release(&self, segment: HostSegment<'_>, group: usize) {
        segment.free_claim(group);
    }

    /// [`Backend::combining`](crate::Backend::combining): `None` for a claim of one process.
    pub fn combining(&self, segment: HostSegment<'_>, group: usize) -> Option<Combining> {
        let local = segment.claim_local(group);
        if local <= 1 {
            return None;
        }
        let (arrivals, entered) = segment.combining_words(group, self.slot(group));
        Some(Combining {
            arrivals: NonNull::new(arrivals)?,
            entered: NonNull::new(entered)?,
            local,
        })
    }
}
