//! The host segment as a port's [`HostArbiter`]: [`SegmentArbiter`], written once and used by
//! every backend that has a segment (the simulator's, UIO's, VFIO's), which differ only in
//! where the segment and the release flags live; and [`HostClaims`], what one backend value
//! keeps of its claims.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicU32, Ordering};

use core::fmt;
use core::marker::PhantomData;

use super::{GROUPS, HostSegment, MAX_LOCAL, Patience, process};
use crate::TeamKey;
use crate::arbiter::{Claim, ClaimReport, ClaimSets, HostArbiter, LocalSlot, Refusal};
use crate::backend::{DmaRegion, LocalArrivals, LocalTeam};
use crate::claim::Taken;
use crate::members::GroupSet;
use crate::members::MemberSet;

/// How a team-mate's published release flag of a group (group, IOVA, length) becomes this
/// process's view of it; `None` when it is not memory this process reaches.
pub type ResolveFlag = Box<dyn Fn(usize, u64, usize) -> Option<DmaRegion> + Send + Sync>;

/// A port's host segment as its [`HostArbiter`], for one backend value.
pub struct SegmentArbiter {
    /// Detached from the mapping's lifetime: [`new`](Self::new)'s contract keeps it mapped.
    segment: HostSegment<'static>,
    claims: HostClaims,
    resolve: ResolveFlag,
    host_key: Option<u64>,
}

impl SegmentArbiter {
    /// The arbiter over `segment`, with `host_key` (see [`HostArbiter::host_key`]) and
    /// `resolve` for team-mates' flags.
    ///
    /// # Safety
    ///
    /// The segment's memory stays mapped, and every region `resolve` returns stays valid
    /// (the [`Backend`](crate::Backend) contract for flags), for as long as the arbiter lives:
    /// the backend that owns the arbiter owns the mapping too.
    pub unsafe fn new(
        segment: HostSegment<'_>,
        host_key: Option<u64>,
        resolve: ResolveFlag,
    ) -> Self {
        SegmentArbiter {
            segment: HostSegment {
                base: segment.base,
                quota: segment.quota,
                name: segment.name,
                _memory: PhantomData,
            },
            claims: HostClaims::new(),
            resolve,
            host_key,
        }
    }

    /// The segment (tools and tests).
    pub fn segment(&self) -> HostSegment<'_> {
        self.segment
    }
}

impl fmt::Debug for SegmentArbiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SegmentArbiter")
            .field("segment", &self.segment)
            .field("claims", &self.claims)
            .field("host_key", &self.host_key)
            .finish_non_exhaustive()
    }
}

impl HostArbiter for SegmentArbiter {
    fn claim(&self, group: usize, team: Option<&LocalTeam>, _members: &MemberSet) -> Claim {
        self.claims.claim(self.segment, group, team, |iova, len| {
            (self.resolve)(group, iova, len)
        })
    }

    fn hold(&self, group: usize, flag: &DmaRegion) -> bool {
        self.claims.hold(self.segment, group, flag)
    }

    fn leave(&self, group: usize) -> bool {
        self.claims.leave(self.segment, group)
    }

    fn release(&self, group: usize) {
        self.claims.release(self.segment, group)
    }

    fn claimed_groups(&self) -> GroupSet {
        self.segment.live_claims()
    }

    fn claim_sets(&self) -> ClaimSets {
        self.segment.claim_sets()
    }

    fn take_dead(&self, group: usize) -> bool {
        self.segment.take_dead_claim(group).is_some()
    }

    fn local_arrivals(&self, group: usize) -> Option<LocalArrivals> {
        self.claims.local_arrivals(self.segment, group)
    }

    fn host_key(&self) -> Option<u64> {
        self.host_key
    }

    fn claims(&self, each: &mut dyn FnMut(&ClaimReport)) {
        self.segment.claims().iter().for_each(each)
    }

    fn local_slots(&self, group: usize, each: &mut dyn FnMut(&LocalSlot)) {
        self.segment.slots(group).iter().for_each(each)
    }
}

/// One backend value's side of the host's claims: its token (the team key of a claim it makes
/// alone) and, per group, its slot in the claim's table of local processes.
#[derive(Debug)]
pub struct HostClaims {
    /// This value's claim token, a key of its own ([`TeamKey::draw`]), so that two opens of
    /// one port in one process are two owners (issue 13's second race).
    token: TeamKey,
    /// Per group, this value's slot in the claim's local table, plus one (0: none).
    slots: [AtomicU32; GROUPS],
    /// Per group, L of this value's claim as its team gave it (a joiner checked the record's
    /// against it): what [`local_arrivals`](Self::local_arrivals) uses, never the record read again.
    locals: [AtomicU32; GROUPS],
    /// What this value's waits for a team-mate's configuration remember (see [`Patience`]).
    patience: Patience,
}

impl Default for HostClaims {
    fn default() -> Self {
        Self::new()
    }
}

impl HostClaims {
    /// Claims of no group yet.
    pub fn new() -> Self {
        HostClaims {
            token: TeamKey::draw(),
            slots: core::array::from_fn(|_| AtomicU32::new(0)),
            locals: core::array::from_fn(|_| AtomicU32::new(0)),
            patience: Patience::default(),
        }
    }

    /// This value's slot in group `group`'s claim (0 when it has none).
    pub fn slot(&self, group: usize) -> usize {
        self.slots.get(group).map_or(0, |s| {
            (s.load(Ordering::Relaxed) as usize).saturating_sub(1)
        })
    }

    /// [`HostArbiter::claim`] in `segment`. `resolve` turns the
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
            self.locals[group].store(local as u32, Ordering::Relaxed);
        }
        match taken {
            Taken::Won { .. } => Claim::Won,
            Taken::Wait => Claim::Wait,
            Taken::Busy => Claim::Busy,
            Taken::OtherUser { uid } => Claim::Refused(Refusal::OtherUser {
                holder: uid,
                me: process::my_uid(),
            }),
            Taken::Quota { held, quota } => Claim::Refused(Refusal::Quota {
                uid: process::my_uid(),
                held,
                quota,
            }),
            Taken::Corrupt {
                word,
                value,
                allowed,
            } => Claim::Refused(Refusal::Corrupt {
                file: segment.name(),
                group,
                word,
                value,
                allowed,
            }),
            Taken::Joined => {
                let published = segment.claim_flag(group);
                match resolve(published.iova, published.len) {
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

    /// [`HostArbiter::hold`].
    pub fn hold(&self, segment: HostSegment<'_>, group: usize, flag: &DmaRegion) -> bool {
        segment.hold_claim(group, flag.iova, flag.len)
    }

    /// [`HostArbiter::leave`].
    pub fn leave(&self, segment: HostSegment<'_>, group: usize) -> bool {
        segment.leave_claim(group, self.slot(group))
    }

    /// [`HostArbiter::release`].
    pub fn release(&self, segment: HostSegment<'_>, group: usize) {
        segment.free_claim(group);
    }

    /// [`HostArbiter::local_arrivals`]: `None` for a claim of one process.
    pub fn local_arrivals(&self, segment: HostSegment<'_>, group: usize) -> Option<LocalArrivals> {
        let local = u64::from(self.locals.get(group)?.load(Ordering::Relaxed));
        if local <= 1 {
            return None;
        }
        let words = segment.local_arrival_words(group, self.slot(group));
        Some(LocalArrivals {
            arrivals: NonNull::new(words.arrivals)?,
            entered: NonNull::new(words.entered)?,
            local,
        })
    }
}
