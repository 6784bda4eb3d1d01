//! The fast path's combining word: arrivals aggregated on the doorbell path, lock-free.
//!
//! One 64-bit word per group, alone on its cache line in the switch file:
//!
//! ```text
//! bits 63..32  SEQ    the sequence being combined (the last release + 1), wrapping at 2^32
//! bit  31      OPEN   the fast path is open: members may combine into this word
//! bits 30..0   BITS   bit k: the group's k-th member (in MEMBER_MASK order) has arrived
//! ```
//!
//! A member that rang its doorbell with sequence `s` (a release store of ARRIVAL) combines with
//! one compare-exchange: if the word is OPEN with SEQ = s it sets its bit; if that makes BITS
//! full, the same exchange writes (s + 1, OPEN, 0) instead, and that member *owns* the
//! release of `s`: it stores `s` into every member's flag ([`release_owned`]). Anything
//! else (closed, another sequence) defers the arrival to the stepping engine, which reads the
//! doorbell as it always did. Only the stepper, under the step lock, closes ([`close`]) and opens
//! ([`open`]) the word; it closes it at the start of every step of the group, merges what was
//! combined into its own state, and opens it again only when no fault is armed for the group.
//!
//! Why this is exact (the argument is also in ARCHITECTURE.md, "The fast path"):
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

/// The cell type the functions below run over: one definition for the simulator, the host
/// segment's claims (gba-hal) and the loom models.
pub use gba_hal::cell::{Cell64, Ordering};

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
    /// Not combined: the word is closed or combines another sequence. The stepping engine
    /// counts the arrival from the doorbell.
    Deferred,
    /// Combined; others are still missing.
    Combined,
    /// Combined as the last member: the caller owns the release of the sequence and must
    /// store it into every member's flag ([`release_owned`]).
    Completed,
}

/// Combines the arrival of the member with bit `bit` for sequence `seq`, whose doorbell store
/// (release) came before this call; `full` is the group's every-member bits. `member` is
/// asked for (bit, full) only once the word was seen open for `seq` (its values were
/// published before the word was opened).
#[inline]
pub fn arrive<C: Cell64>(
    word: &C,
    seq: u32,
    member: impl FnOnce() -> Option<(u64, u64)>,
) -> Arrival {
    // A read-modify-write that changes nothing, rather than a load: it fetches the line
    // exclusive in one transfer, so that the exchange below is usually local (a load would
    // fetch it shared, and the exchange would need a second transfer to own it).
    let mut current = word.fetch_add(0, Acquire);
    if !is_open(current) || self::seq(current) != seq {
        return Arrival::Deferred;
    }
    let Some((bit, full)) = member() else {
        return Arrival::Deferred;
    };
    loop {
        if !is_open(current) || self::seq(current) != seq {
            return Arrival::Deferred;
        }
        let arrived = bits(current) | bit;
        if arrived == bits(current) {
            // A doorbell rung twice for one episode is one arrival.
            return Arrival::Combined;
        }
        let (new, outcome) = if arrived == full {
            (pack(seq.wrapping_add(1), true, 0), Arrival::Completed)
        } else {
            (pack(seq, true, arrived), Arrival::Combined)
        };
        match word.compare_exchange(current, new, AcqRel, Acquire) {
            Ok(_) => return outcome,
            Err(seen) => current = seen,
        }
    }
}

/// Closes the word (the stepper, under the step lock) and returns what it held: from here on
/// no member combines, so the stepper's view of the group cannot change behind it.
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
        assert_eq!(arrive(&w, 7, || Some((1, full))), Arrival::Combined);
        assert_eq!(arrive(&w, 7, || Some((1, full))), Arrival::Combined);
        assert_eq!(bits(w.load(Relaxed)), 1, "a duplicate is one arrival");
        assert_eq!(arrive(&w, 7, || Some((4, full))), Arrival::Combined);
        assert_eq!(arrive(&w, 7, || Some((2, full))), Arrival::Completed);
        assert_eq!(w.load(Relaxed), pack(8, true, 0));
        assert_eq!(arrive(&w, 7, || Some((2, full))), Arrival::Deferred);
    }

    #[test]
    fn a_closed_word_defers_and_wraps_at_two_to_the_32() {
        let w = AtomicU64::new(pack(u32::MAX, true, 0));
        assert_eq!(close(&w), pack(u32::MAX, true, 0));
        assert_eq!(arrive(&w, u32::MAX, || Some((1, 1))), Arrival::Deferred);
        open(&w, u32::MAX, 0);
        assert_eq!(arrive(&w, u32::MAX, || Some((1, 1))), Arrival::Completed);
        assert_eq!(seq(w.load(Relaxed)), 0);
        let flag = AtomicU64::new(u64::from(u32::MAX - 1));
        raise(&flag, u32::MAX);
        raise(&flag, 0);
        raise(&flag, u32::MAX);
        assert_eq!(flag.load(Relaxed), 0, "never backwards across the wrap");
    }
}
