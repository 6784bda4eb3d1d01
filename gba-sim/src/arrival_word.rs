//! The fast path's arrival word: arrivals aggregated on the doorbell path, lock-free.
//!
//! One 64-bit word per group, alone on its cache line in the switch file:
//!
//! ```text
//! bits 63..32  SEQ    the sequence being aggregated (the last release + 1), wrapping at 2^32
//! bit  31      OPEN   the fast path is open: members may aggregate into this word
//! bits 30..0   BITS   bit k: the group's k-th member (in MEMBER_MASK order) has arrived
//! ```
//!
//! A member that rang its doorbell with sequence `s` (a release store of ARRIVAL) aggregates with
//! one compare-exchange when it is the last ([`arrive`] guesses so first, from its entry: its
//! bit and every member's, [`member_entry`]), else two: if the word is OPEN with SEQ = s it
//! sets its bit; if that makes BITS full, the exchange writes (s + 1, OPEN, 0) instead, and that
//! member *owns* the release of `s`: it stores `s` into every member's flag ([`release_owned`]). Anything
//! else (closed, another sequence) defers the arrival to the stepping engine, which reads the
//! doorbell as it always did. Only the stepper, under the step lock, closes ([`close`]) and opens
//! ([`open`]) the word; it closes it at the start of every step of the group, merges what was
//! aggregated into its own state, and opens it again only when no fault is armed for the group.
//!
//! Why this is exact (the argument is also in docs/design/fast-path.md):
//! - *No early release.* BITS only grows within one SEQ and only by members whose doorbell
//!   already holds SEQ; a release of `s` is owned only by the exchange that moves SEQ from `s`
//!   to `s + 1`, and that exchange needs every bit (or the stepper, which needs every member's
//!   doorbell). A duplicate arrival sets a bit already set: no double count.
//! - *No lost release.* The exchange that completes `s` is a single atomic step: once it
//!   happened, SEQ > s for ever (until the wrap, 2^32 episodes later), and the stepper raises
//!   every flag to SEQ − 1 when it finds its own last release behind it, whether or not the
//!   owner lived to do it. A member that dies between its doorbell store and its exchange has
//!   its arrival counted by the stepper from the doorbell (the stepper closes the word first,
//!   so no member can complete the episode behind its back, and either the stepper or a
//!   member wins the exchange that completes it, never both).
//! - *Ordering.* Doorbell (release) → exchange (AcqRel: every member's exchange continues the
//!   word's release sequence, so the owner's exchange acquires all earlier members' writes)
//!   → flag (release store by the owner, release compare-exchange by the stepper) → the
//!   waiter's acquire load of its flag. A flag never moves backwards: the stepper raises it in
//!   serial-number order (compare-exchange), and the owner's blind store of `s` cannot follow a
//!   release of `s + 1`, which needs the owner's own next arrival ([`release_owned`]).
//!
//! The functions are generic over [`Cell64`] so that loom can run them over its own atomics
//! (`gba-sim/tests/loom.rs`); the simulator runs them over the switch file's words.

use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};

// The cell type the functions below run over: one definition for the simulator, the host
// segment's claims (gba-hal) and the loom models.
use gba_hal::cell::Cell64;

pub const OPEN: u64 = 1 << 31;
/// Members a group may have for the fast path (one bit each below OPEN).
pub const MAX_FAST_MEMBERS: u32 = 31;
const BITS: u64 = OPEN - 1;

/// The word for `seq`, open or closed, with the arrivals `bits`.
pub const fn pack(seq: u32, open: bool, bits: u64) -> u64 {
    (seq as u64) << 32 | if open { OPEN } else { 0 } | (bits & BITS)
}

pub const fn seq(word: u64) -> u32 {
    (word >> 32) as u32
}

pub const fn bits(word: u64) -> u64 {
    word & BITS
}

pub const fn is_open(word: u64) -> bool {
    word & OPEN != 0
}

/// All `members` bits set.
pub const fn full(members: u32) -> u64 {
    (1u64 << members) - 1
}

/// Whether `a` is after `b` in serial-number order on 32 bits (RFC 1982): true across the
/// 2^32 wrap.
pub const fn after(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// What became of an arrival offered to the fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Not aggregated: the word is closed or aggregates another sequence. The stepping engine
    /// counts the arrival from the doorbell.
    Deferred,
    /// Aggregated; others are still missing.
    Counted,
    /// Aggregated as the last member: the caller owns the release of the sequence and must
    /// store it into every member's flag ([`release_owned`]).
    Completed,
}

/// A member's entry in the table the stepper publishes for the fast path (one word per port
/// and group, `P_FAST_MEMBER` in the switch file): its own bit (low half) and the group's
/// every-member bits (high half), in one word so that a member reads both with one load
/// and never sees one configuration's bit with another's count. 0: not on the fast path.
pub const fn member_entry(bit: u64, full: u64) -> u64 {
    (full & BITS) << 32 | (bit & BITS)
}

/// The (bit, full) of a [`member_entry`].
pub const fn member_of(entry: u64) -> (u64, u64) {
    (entry & BITS, (entry >> 32) & BITS)
}

/// Counts the arrival of the member with `bit` (never 0) for sequence `seq`, whose doorbell
/// store (release) came before this call; `full` is the group's every-member bits. `bit` and
/// `full` are the member's [`member_entry`], read before the word: the stepper publishes the
/// entry before it opens the word for the configuration (release), zeroes it when the member
/// leaves, and changes the group's membership only after every member left, so a non-zero
/// entry is the one of the configuration whose word this member aggregates into (the one
/// exception, a member stalled inside this call across its own port's leave and rejoin, is
/// the hazard docs/design/fast-path.md names).
///
/// The first exchange guesses that this arrival completes the episode (every other bit set):
/// the last arrival, the one on the critical path, then takes one read-modify-write, the same
/// as a central counter's `fetch_add`, and one transfer of the line. A wrong guess costs the
/// earlier arrivals (who then wait anyway) a second exchange, on a line their first one
/// already owns.
#[inline]
pub fn arrive<C: Cell64>(word: &C, seq: u32, bit: u64, full: u64) -> Arrival {
    let mut current = match word.compare_exchange(
        pack(seq, true, full & !bit),
        pack(seq.wrapping_add(1), true, 0),
        AcqRel,
        Acquire,
    ) {
        Ok(_) => return Arrival::Completed,
        Err(seen) => seen,
    };
    loop {
        if !is_open(current) || self::seq(current) != seq {
            return Arrival::Deferred;
        }
        let arrived = bits(current) | bit;
        if arrived == bits(current) {
            // A doorbell rung twice for one episode is one arrival.
            return Arrival::Counted;
        }
        let (new, outcome) = if arrived == full {
            (pack(seq.wrapping_add(1), true, 0), Arrival::Completed)
        } else {
            (pack(seq, true, arrived), Arrival::Counted)
        };
        match word.compare_exchange(current, new, AcqRel, Acquire) {
            Ok(_) => return outcome,
            Err(seen) => current = seen,
        }
    }
}

/// Closes the word (the stepper, under the step lock) and returns what it held: from here on
/// no member aggregates, so the stepper's view of the group cannot change behind it.
pub fn close<C: Cell64>(word: &C) -> u64 {
    let mut current = word.load(Acquire);
    loop {
        if !is_open(current) {
            return current;
        }
        match word.compare_exchange(current, current & !OPEN, AcqRel, Acquire) {
            Ok(_) => return current,
            Err(seen) => current = seen,
        }
    }
}

/// Opens a closed word for `seq` with the arrivals `bits` already counted (the stepper, under
/// the step lock). Release: the member table it wrote before is visible to every member that
/// sees the word open.
pub fn open<C: Cell64>(word: &C, seq: u32, bits: u64) {
    word.store(pack(seq, true, bits), Release);
}

/// The owner's release of `seq` (the member whose exchange completed it): a plain release
/// store of `seq` into a flag, which never moves it backwards although it does not look first.
/// A flag gets a value after `seq` only at the release of `seq + 1` or later, which needs every
/// member's arrival for `seq + 1`, the owner's included; the owner arrives only after this
/// store, and its arrival (a release store of its doorbell, an AcqRel exchange of the word)
/// is acquired by whoever releases `seq + 1` (the next owner's exchange, or the stepper's
/// acquire load of the doorbell), so this store comes before that release's in the flag's
/// modification order. A stepper raising the same `seq` at the same time writes the same
/// value. A store rather than [`raise`]'s compare-exchange: the owner does not stall for the
/// flag's line (its waiter holds it), which is the release's whole critical path.
/// Release: pairs with the waiter's acquire load of its flag.
#[inline]
pub fn release_owned<C: Cell64>(flag: &C, seq: u32) {
    flag.store(u64::from(seq), Release);
}

/// Raises a release flag to `seq` unless it is already there or beyond (serial-number order):
/// never backwards, whoever else raises it at the same time (the stepper, which may catch up
/// on an episode whose owner is still raising, or died). Release: pairs with the waiter's
/// acquire load of its flag.
pub fn raise<C: Cell64>(flag: &C, seq: u32) {
    // First try the usual case, a flag at the previous sequence: one exchange, one transfer
    // of the line (a load first would cost a second one to own it).
    let mut current = match flag.compare_exchange(
        u64::from(seq.wrapping_sub(1)),
        u64::from(seq),
        Release,
        Relaxed,
    ) {
        Ok(_) => return,
        Err(seen) => seen,
    };
    while after(seq, current as u32) {
        match flag.compare_exchange(current, u64::from(seq), Release, Relaxed) {
            Ok(_) => return,
            Err(seen) => current = seen,
        }
    }
}

/// Ordinary atomics are cells (the unit and property tests run the code over them).
#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn the_last_of_three_owns_the_release_and_the_word_moves_on() {
        let w = AtomicU64::new(pack(7, true, 0));
        let full = full(3);
        assert_eq!(arrive(&w, 7, 1, full), Arrival::Counted);
        assert_eq!(arrive(&w, 7, 1, full), Arrival::Counted);
        assert_eq!(bits(w.load(Relaxed)), 1, "a duplicate is one arrival");
        assert_eq!(arrive(&w, 7, 4, full), Arrival::Counted);
        assert_eq!(arrive(&w, 7, 2, full), Arrival::Completed);
        assert_eq!(w.load(Relaxed), pack(8, true, 0));
        assert_eq!(arrive(&w, 7, 2, full), Arrival::Deferred);
    }

    #[test]
    fn a_guess_of_completion_never_completes_a_closed_word_or_another_sequence() {
        let full = full(2);
        let w = AtomicU64::new(pack(7, false, 2));
        assert_eq!(arrive(&w, 7, 1, full), Arrival::Deferred, "closed");
        assert_eq!(w.load(Relaxed), pack(7, false, 2));
        let w = AtomicU64::new(pack(8, true, 2));
        assert_eq!(
            arrive(&w, 7, 1, full),
            Arrival::Deferred,
            "another sequence"
        );
        assert_eq!(w.load(Relaxed), pack(8, true, 2));
        assert_eq!(member_of(member_entry(4, super::full(3))), (4, 7));
    }

    #[test]
    fn a_closed_word_defers_and_wraps_at_two_to_the_32() {
        let w = AtomicU64::new(pack(u32::MAX, true, 0));
        assert_eq!(close(&w), pack(u32::MAX, true, 0));
        assert_eq!(arrive(&w, u32::MAX, 1, 1), Arrival::Deferred);
        open(&w, u32::MAX, 0);
        assert_eq!(arrive(&w, u32::MAX, 1, 1), Arrival::Completed);
        assert_eq!(seq(w.load(Relaxed)), 0);
        let flag = AtomicU64::new(u64::from(u32::MAX - 1));
        raise(&flag, u32::MAX);
        raise(&flag, 0);
        raise(&flag, u32::MAX);
        assert_eq!(flag.load(Relaxed), 0, "never backwards across the wrap");
    }
}
