//! Reusing a dropped team's group for the next team of the same ranks.
//!
//! A team dropped with no episode pending parks its barrier in its device (the group stays
//! claimed and configured on this port): a library that dups a communicator, calls barriers
//! and frees it, again and again, then pays one allgather per team instead of a claim, a
//! configuration, READY and a second allgather. Each rank votes what it has parked (at most
//! [`SLOTS`]); the team reuses the first of rank 0's that every rank parked at its own rank,
//! with the same team key, size, group and episode: the very same ranks, in the same order, at
//! the same point of the group's sequence. Every rank computes that from the same votes.
//!
//! What a freed communicator leaves behind is bounded: at most [`capacity`] parked barriers
//! per device (`GBA_TEAM_CACHE`, default 2, 0 turns reuse off), the oldest released first; a
//! team that finds no free group, or is denied by its arbiter's quota, while any of its ranks
//! has one parked, makes every rank release its parked ones and agrees again; closing the
//! device releases them all, and a process's exit does (its claims die with it).

use std::ops::Range;

use gba_hal::TeamKey;

use crate::any_device::{AnyBarrier, AnyDevice, ParkTag};

/// Parked barriers voted per rank (the vote has a fixed size on every rank).
pub(super) const SLOTS: usize = 4;
/// Bytes of one slot: key (128 bits), episode (u64), rank, size, group, spare (u32),
/// little-endian; each field's bytes defined once here. A slot of zeros is empty.
pub(super) const SLOT: usize = 40;
const KEY: Range<usize> = 0..TeamKey::BYTES;
const EPISODE: Range<usize> = 16..24;
const RANK: Range<usize> = 24..28;
const SIZE: Range<usize> = 28..32;
const GROUP: Range<usize> = 32..36;

/// Writes `tag` into `slot` (`SLOT` bytes).
fn encode(tag: &ParkTag, slot: &mut [u8]) {
    slot.fill(0);
    slot[KEY].copy_from_slice(&tag.key.to_le_bytes());
    slot[EPISODE].copy_from_slice(&tag.episode.to_le_bytes());
    slot[RANK].copy_from_slice(&tag.rank.to_le_bytes());
    slot[SIZE].copy_from_slice(&tag.size.to_le_bytes());
    slot[GROUP].copy_from_slice(&tag.group.to_le_bytes());
}

/// The tag in `slot` (`SLOT` bytes), `None` for an empty one (no key).
fn decode(slot: &[u8]) -> Option<ParkTag> {
    let u64_at = |r: Range<usize>| u64::from_le_bytes(slot[r].try_into().expect("8 bytes"));
    let u32_at = |r: Range<usize>| u32::from_le_bytes(slot[r].try_into().expect("4 bytes"));
    Some(ParkTag {
        key: TeamKey::from_le_bytes(slot[KEY].try_into().expect("16 bytes"))?,
        episode: u64_at(EPISODE),
        rank: u32_at(RANK),
        size: u32_at(SIZE),
        group: u32_at(GROUP),
    })
}

/// The environment variable that bounds the parked barriers per device.
pub const TEAM_CACHE_ENV: &str = "GBA_TEAM_CACHE";
const DEFAULT_CAPACITY: usize = 2;

/// How many dropped teams' barriers a device keeps: `GBA_TEAM_CACHE` (0 to [`SLOTS`]; read
/// once), else 2. A value that does not parse is said once on stderr and the default used.
pub(super) fn capacity() -> usize {
    static CAPACITY: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CAPACITY.get_or_init(|| match std::env::var(TEAM_CACHE_ENV) {
        Err(_) => DEFAULT_CAPACITY,
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n <= SLOTS => n,
            _ => {
                eprintln!(
                    "gba-barrier: {TEAM_CACHE_ENV}={v:?} is not a number from 0 to {SLOTS}; \
                     keeping {DEFAULT_CAPACITY} dropped teams' groups per device"
                );
                DEFAULT_CAPACITY
            }
        },
    })
}

/// This rank's parked barriers while its team agrees: taken out of the device, so that a team
/// formed at the same time on another thread neither votes nor takes them. Those not reused
/// are parked again when this drops.
pub(super) struct Candidates {
    parked: Vec<(ParkTag, AnyBarrier)>,
}

impl Candidates {
    pub(super) fn take(device: Option<&AnyDevice>) -> Self {
        let mut parked = match device {
            Some(d) if capacity() > 0 => d.unpark_all(),
            _ => Vec::new(),
        };
        // More than the vote holds (parked by teams of other threads meanwhile): the oldest go.
        let over = parked.len().saturating_sub(SLOTS);
        parked.drain(..over);
        Candidates { parked }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.parked.is_empty()
    }

    pub(super) fn none() -> Self {
        Candidates { parked: Vec::new() }
    }

    /// Writes the slots (zeroes past the last) into `out` (`SLOTS * SLOT` bytes).
    pub(super) fn vote(&self, out: &mut [u8]) {
        for (slot, (tag, _)) in out.chunks_exact_mut(SLOT).zip(&self.parked) {
            encode(tag, slot);
        }
    }

    /// Takes the barrier voted as `tag` (the agreed one: this rank voted it, so it is here).
    pub(super) fn take_agreed(&mut self, tag: &ParkTag) -> Option<AnyBarrier> {
        let at = self.parked.iter().position(|(t, _)| t == tag)?;
        Some(self.parked.remove(at).1)
    }

    /// Releases every candidate's group (a team that needs a group its ranks hold parked).
    pub(super) fn release(&mut self) {
        self.parked.clear();
    }
}

impl Drop for Candidates {
    fn drop(&mut self) {
        for (tag, barrier) in self.parked.drain(..) {
            barrier.park(tag, capacity());
        }
    }
}

/// Every rank's slots inside the gathered votes: rank r's are `SLOTS * SLOT` bytes at
/// `r * stride + at`.
#[derive(Clone, Copy)]
pub(super) struct Slots<'a> {
    pub votes: &'a [u8],
    pub stride: usize,
    pub at: usize,
}

/// Rank `r`'s slots, decoded (empty slots skipped).
fn slots(all: Slots<'_>, r: usize) -> impl Iterator<Item = ParkTag> + '_ {
    let start = r * all.stride + all.at;
    all.votes[start..start + SLOTS * SLOT]
        .chunks_exact(SLOT)
        .filter_map(decode)
}

/// The parked barrier every rank reuses, from everyone's slots, or `None`: each rank gets its
/// own tag of the agreed team.
pub(super) fn agreed(all: Slots<'_>, n: usize, rank: usize) -> Option<ParkTag> {
    let first = slots(all, 0).find(|t0| {
        t0.rank == 0
            && t0.size as usize == n
            && (1..n).all(|r| {
                slots(all, r).any(|t| {
                    (t.key, t.episode, t.size, t.group) == (t0.key, t0.episode, t0.size, t0.group)
                        && t.rank as usize == r
                })
            })
    })?;
    Some(ParkTag {
        rank: rank as u32,
        ..first
    })
}

/// Whether any rank voted a parked barrier.
pub(super) fn any(all: Slots<'_>, n: usize) -> bool {
    (0..n).any(|r| slots(all, r).next().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ranks' votes: a byte of something else, then the slots.
    fn two_votes(ranks: [&[ParkTag]; 2]) -> Vec<u8> {
        let mut out = Vec::new();
        for tags in ranks {
            let mut vote = vec![0xAAu8; 1 + SLOTS * SLOT];
            vote[1..].fill(0);
            for (slot, tag) in vote[1..].chunks_exact_mut(SLOT).zip(tags) {
                encode(tag, slot);
            }
            out.extend(vote);
        }
        out
    }

    fn all(votes: &[u8]) -> Slots<'_> {
        Slots {
            votes,
            stride: 1 + SLOTS * SLOT,
            at: 1,
        }
    }

    /// Team `key`'s tag (its key `key` in both words).
    fn tag(key: u64, rank: u32, size: u32, group: u32, episode: u64) -> ParkTag {
        ParkTag {
            key: TeamKey::from_words([key, key]).unwrap(),
            rank,
            size,
            group,
            episode,
        }
    }

    #[test]
    fn the_same_ranks_at_the_same_episode_reuse_and_nothing_else_does() {
        let votes = two_votes([
            &[tag(7, 0, 2, 3, 10), tag(9, 0, 2, 4, 5)],
            &[tag(9, 1, 2, 4, 5)],
        ]);
        assert_eq!(
            agreed(all(&votes), 2, 1),
            Some(tag(9, 1, 2, 4, 5)),
            "the common one"
        );
        assert!(any(all(&votes), 2));

        let votes = two_votes([&[tag(9, 0, 2, 4, 5)], &[tag(9, 1, 2, 4, 6)]]);
        assert_eq!(agreed(all(&votes), 2, 0), None, "episodes differ");

        let votes = two_votes([&[tag(9, 0, 2, 4, 5)], &[tag(9, 0, 2, 4, 5)]]);
        assert_eq!(agreed(all(&votes), 2, 0), None, "ranks swapped");

        let votes = two_votes([&[tag(9, 0, 3, 4, 5)], &[tag(9, 1, 3, 4, 5)]]);
        assert_eq!(agreed(all(&votes), 2, 0), None, "a subset of a larger team");

        let votes = two_votes([&[], &[]]);
        assert_eq!(agreed(all(&votes), 2, 0), None);
        assert!(!any(all(&votes), 2));
    }

    /// A slot carries the whole 128-bit key: tags whose keys share one word are two teams'.
    #[test]
    fn a_slot_holds_the_whole_key() {
        let t = ParkTag {
            key: TeamKey::from_words([0x0807_0605_0403_0201, 0x100f_0e0d_0c0b_0a09]).unwrap(),
            ..tag(1, 0, 2, 4, 5)
        };
        let mut slot = [0xffu8; SLOT];
        encode(&t, &mut slot);
        assert_eq!(
            &slot[..16],
            &core::array::from_fn::<u8, 16, _>(|i| i as u8 + 1)
        );
        assert_eq!(&slot[36..], &[0; 4], "spare");
        assert_eq!(decode(&slot), Some(t));
        assert_eq!(decode(&[0; SLOT]), None, "empty");
        let half = ParkTag {
            key: TeamKey::from_words([t.key.words()[0], 1]).unwrap(),
            rank: 1,
            ..t
        };
        let votes = two_votes([&[t], &[half]]);
        assert_eq!(agreed(all(&votes), 2, 1), None, "one word of the key");
    }
}
