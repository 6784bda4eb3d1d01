//! Corrupt host segments (issue 25: "corrupt shared state gives an error naming what is
//! wrong, never a panic"): words its layout does not allow are refused by name, and garbage
//! in every word of a group's block gives answers, never a panic or an index out of bounds.

use super::tests::{Memory, key};
use super::*;
use crate::arbiter::{Claim, HostArbiter, Refusal};
use crate::backend::LocalTeam;
use crate::members::MemberSet;

fn team(key: TeamKey, local: u32, index: u32) -> LocalTeam {
    LocalTeam {
        key,
        local,
        index,
        rank: index,
    }
}

/// A state no transition writes, a joiner's L that is not its team's, and a published flag
/// longer than a line: each refused naming the file, the group and the word; the join undone.
#[test]
fn words_outside_the_layout_are_refused_by_name() {
    let memory = Memory::new();
    let segment = memory.segment().with_name("/run/gba/seg-test");
    // SAFETY: the memory outlives the arbiter (dropped at the end of this test, after it);
    // the resolver hands out no memory.
    let arbiter = unsafe { SegmentArbiter::new(segment, None, Box::new(|_, _, _| None)) };
    let members = MemberSet::default();
    let refusal = |claim: Claim| match claim {
        Claim::Refused(refusal @ Refusal::Corrupt { .. }) => refusal.to_string(),
        other => panic!("not refused as corrupt: {other:?}"),
    };

    segment.record_word(3, R_WORD).store(
        State {
            generation: 1,
            state: 7,
            joined: 1,
            pid: 1,
        }
        .pack(),
    );
    let text = refusal(arbiter.claim(3, None, &members));
    assert!(
        text.contains("/run/gba/seg-test")
            && text.contains("group 3's claim word (record word 0")
            && text.contains("state 0 (free), 1 (claiming) or 2 (held)"),
        "{text}"
    );
    segment.record_word(3, R_WORD).store(
        State {
            generation: 1,
            state: claim::HELD,
            joined: 0,
            pid: 1,
        }
        .pack(),
    );
    assert!(refusal(arbiter.claim(3, None, &members)).contains("at least one process"));

    let key = key(0x7ea);
    assert_eq!(
        segment.take_claim(5, key, 0, 2, 0),
        Taken::Won { over_dead: false }
    );
    assert!(segment.hold_claim(5, 0x1000, 64));
    segment.record_word(5, R_LOCAL).store(1);
    let text = refusal(arbiter.claim(5, Some(&team(key, 2, 1)), &members));
    assert!(
        text.contains("group 5's L (record word 6") && text.contains("reads 0x1"),
        "{text}"
    );
    let joined = |g| {
        segment
            .claims()
            .iter()
            .find(|c| c.group == g)
            .unwrap()
            .joined
    };
    assert_eq!(joined(5), 1, "the join was undone");
    assert!(
        arbiter.local_arrivals(5).is_none(),
        "nothing joined, nothing to combine"
    );
    segment.record_word(5, R_LOCAL).store(2);
    segment.record_word(5, R_FLAG_LEN).store(1 << 20);
    let text = refusal(arbiter.claim(5, Some(&team(key, 2, 1)), &members));
    assert!(text.contains("flag length (record word 5)"), "{text}");
    assert_eq!(joined(5), 1, "the join was undone");
}

/// xorshift64*: the test's own garbage, reproducible from its seed.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// Garbage in every word of a group's block (records, arrivals, slots), half of the words
/// small numbers so that states, pids and counts near the valid ones are hit too, then
/// every operation of the segment and of an arbiter over it: answers, never a panic.
#[test]
fn garbage_in_a_group_gives_answers_not_panics() {
    let memory = Memory::new();
    let segment = memory.segment().with_name("garbage");
    // SAFETY: as above.
    let arbiter = unsafe {
        SegmentArbiter::new(
            segment,
            None,
            Box::new(|_, iova, len| {
                Some(crate::backend::DmaRegion {
                    host: NonNull::dangling(),
                    iova,
                    len,
                })
            }),
        )
    };
    let members = MemberSet::default();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut corrupt, mut other) = (0u32, 0u32);
    for round in 0..400 {
        let g = round % GROUPS;
        for w in 0..GROUP_BYTES / 8 {
            let r = next(&mut seed);
            let value = if r & 1 == 0 { r } else { (r >> 1) % 5 };
            segment.word(g * GROUP_BYTES + w * 8).store(value);
        }
        let _ = (
            segment.claims(),
            segment.slots(g),
            segment.local_missing(g, 3),
        );
        let _ = (segment.live_claims(), segment.group_owner(g));
        match arbiter.claim(g, Some(&team(key(next(&mut seed) % 4), 2, 1)), &members) {
            Claim::Refused(Refusal::Corrupt { .. }) => corrupt += 1,
            Claim::Won => {
                other += 1;
                arbiter.release(g);
            }
            Claim::Joined { .. } => {
                other += 1;
                assert!(arbiter.local_arrivals(g).is_some_and(|c| c.local == 2));
                arbiter.leave(g);
            }
            _ => other += 1,
        }
        if segment.take_dead_claim(g).is_some() {
            segment.free_claim(g);
        }
    }
    assert!(corrupt > 0 && other > 0, "{corrupt} corrupt, {other} other");
}
