//! The wire protocol of docs/datasheet.md section 4, as pure functions.
//!
//! - The host counts episodes in `u64` (`k = 1, 2, …`), so its own count never wraps.
//! - The wire carries `k mod 2^32`: in the ARRIVAL doorbell's SEQUENCE field and in the release
//!   flag the switch writes.
//! - A member is released from episode `k` once its flag has *reached* `k` in serial-number
//!   arithmetic (RFC 1982): `(flag as u32).wrapping_sub(k as u32) as i32 >= 0`. A plain `>=`
//!   breaks after 2^32 episodes (about an hour at 1 µs each): the flag wraps to 0 and every
//!   later wait would return at once.
//!
//! The serial comparison is right as long as the flag is never more than 2^31 − 1 episodes
//! behind or ahead of `k`. It can be neither: a member cannot be released from episode `k + 1`
//! before it arrived for it, and it waits for `k` only after arriving for `k`, so the flag is
//! always in `k − 1 ..= k` while it waits (the switch releases at most one episode past the
//! last arrival of every member).

use gba_pac::group::ARRIVAL;

/// The sequence the wire carries for host episode `episode`: `episode mod 2^32`.
// Its caller outside the tests (`AnyDevice`) is not built under loom.
#[cfg_attr(loom, allow(dead_code))]
#[inline(always)]
#[must_use]
pub const fn wire_sequence(episode: u64) -> u32 {
    episode as u32
}

/// Whether a release flag holding `flag` releases episode `episode`: serial-number comparison
/// of the low 32 bits (the flag's upper 32 bits are ignored: the switch writes the 32-bit
/// sequence).
#[inline(always)]
#[must_use]
pub const fn reached(flag: u64, episode: u64) -> bool {
    (flag as u32).wrapping_sub(episode as u32) as i32 >= 0
}

/// The MEMBER_ID part of the ARRIVAL doorbell word for `member`, built with the generated field
/// definition (so the value is masked to the field and shifted to its place by gba-pac).
/// Computed once when a barrier is created.
#[inline]
#[must_use]
pub const fn member_part(member: u32) -> u64 {
    ARRIVAL::MEMBER_ID.val(member as u64).value
}

/// The ARRIVAL doorbell word for `member` and host episode `episode`:
/// `SEQUENCE = episode mod 2^32`, `MEMBER_ID = member`, assembled from gba-pac's generated field
/// definitions, never by hand: the sequence is masked to its 32 bits before it is combined, so
/// it can never spill into the member id. The tests' reference for [`arrival_word_with`].
#[cfg(test)]
#[must_use]
pub fn arrival_word(member: u32, episode: u64) -> u64 {
    (ARRIVAL::SEQUENCE.val(u64::from(wire_sequence(episode)))
        + ARRIVAL::MEMBER_ID.val(u64::from(member)))
    .value
}

/// The hot-path form of [`arrival_word`]: `member_part` is [`member_part`]`(member)`, computed
/// once. Same result, one OR on the hot path.
#[inline(always)]
#[must_use]
pub const fn arrival_word_with(member_part: u64, episode: u64) -> u64 {
    member_part | ARRIVAL::SEQUENCE.val(episode).value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Naive reference: the circular distance from `episode` forward to `flag` on the 32-bit
    /// ring, computed in i64 without wrapping arithmetic; reached iff it lies in [0, 2^31).
    fn reached_reference(flag: u64, episode: u64) -> bool {
        let f = i64::from(flag as u32);
        let k = i64::from((episode % (1 << 32)) as u32);
        let d = (f - k).rem_euclid(1 << 32);
        d < (1 << 31)
    }

    /// Naive reference: the word laid out by the datasheet's table, with arithmetic.
    fn word_reference(member: u32, episode: u64) -> u64 {
        u64::from(member) * (1 << 32) + episode % (1 << 32)
    }

    #[test]
    fn reached_is_serial_not_plain() {
        assert!(reached(5, 5));
        assert!(reached(6, 5));
        assert!(!reached(4, 5));
        // Across the wrap: flag 0 (episode 2^32) releases episode 2^32 - 1 ...
        assert!(reached(0, u64::from(u32::MAX)));
        // ... and flag u32::MAX does not release episode 2^32, where plain >= would.
        assert!(!reached(u64::from(u32::MAX), 1 << 32));
        // A flag one behind never releases, at any point of the ring.
        for k in [
            1u64,
            2,
            1 << 31,
            (1 << 31) + 1,
            (1 << 32) - 1,
            1 << 32,
            (1 << 32) + 1,
            3 << 32,
        ] {
            assert!(!reached(k - 1, k), "flag {} released episode {k}", k - 1);
            assert!(reached(k, k));
            assert!(reached(k + 1, k));
        }
    }

    #[test]
    fn doorbell_layout() {
        assert_eq!(arrival_word(0, 1), 1);
        assert_eq!(arrival_word(707, 1), (707 << 32) | 1);
        // The sequence wraps without touching the member id.
        assert_eq!(arrival_word(3, (1 << 32) + 7), (3 << 32) | 7);
        assert_eq!(arrival_word(3, u64::MAX), (3 << 32) | 0xffff_ffff);
        assert_eq!(wire_sequence(1 << 32), 0);
    }

    proptest::proptest! {
        #[test]
        fn reached_matches_reference(flag: u64, episode: u64) {
            proptest::prop_assert_eq!(reached(flag, episode), reached_reference(flag, episode));
        }

        #[test]
        fn reached_near_episode(episode: u64, delta in -3i64..=3) {
            let flag = episode.wrapping_add_signed(delta);
            proptest::prop_assert_eq!(reached(flag, episode), delta >= 0);
        }

        #[test]
        fn word_matches_reference(member: u32, episode: u64) {
            let w = arrival_word(member, episode);
            proptest::prop_assert_eq!(w, word_reference(member, episode));
            proptest::prop_assert_eq!((w >> 32) as u32, member);
            proptest::prop_assert_eq!(arrival_word_with(member_part(member), episode), w);
        }
    }
}
