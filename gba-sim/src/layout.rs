//! Where everything lives in a fabric directory.
//!
//! ```text
//! <fabric>/switch    the switch's own state: header, per-group state, per-port state
//! <fabric>/windows   P register windows, gba_pac::Device::SIZE bytes each (port p's "/dev/gba0")
//! <fabric>/arenas    P DMA arenas, ARENA_SIZE bytes each (host memory the device may write)
//! ```
//!
//! Three files, whatever P, so that a process maps the whole fabric with three mappings (708
//! files per port would exhaust a process's mapping limit when many processes attach). A port
//! only ever hands out its own slice. The switch file is an array of 64-bit words, each reached
//! atomically; the offsets below are word indices.

use gba_pac::Device;

/// "GBASIM01" in ASCII: the first word of every switch file.
pub const MAGIC: u64 = u64::from_be_bytes(*b"GBASIM01");
/// Bumped whenever the layout below changes; a fabric of another layout is refused.
/// (7: the hosts file's claim records hold a 128-bit team key, gba_hal::host::PORT_BYTES grew.)
pub const LAYOUT_VERSION: u64 = 7;

/// Bytes of one port's register window.
pub const WINDOW_SIZE: usize = Device::SIZE;
/// Bytes of one port's DMA arena: room for far more release flags than groups.
pub const ARENA_SIZE: usize = 64 * 1024;
/// The arena's allocation unit: one cache line, so that no two allocations share a line.
pub const ARENA_LINE: usize = 64;
const ARENA_LINES: usize = ARENA_SIZE / ARENA_LINE;
const BITMAP_WORDS: usize = ARENA_LINES / 64;

/// Device address of byte 0 of every port's arena. Bits 48..63 are not a sign extension of
/// bit 47, so no host pointer on a 48-bit machine can be mistaken for an IOVA: a driver that
/// passes a pointer instead of an IOVA gets DMA_FAULT.
pub const IOVA_BASE: u64 = 0x00A0_0000_0000_0000;

/// Processes that may have one port open at once (several jobs may share a host's port, each
/// in its own groups).
pub const MAX_OPENERS: usize = 16;

pub const GROUPS: usize = gba_pac::MAX_GROUPS;
/// Words of a member mask (MEMBER_MASK has 12 elements of 64 bits).
pub const MASK_WORDS: usize = gba_pac::group::Group::MEMBER_MASK_COUNT;

// Header words.
pub const H_MAGIC: usize = 0;
pub const H_VERSION: usize = 1;
pub const H_PORTS: usize = 2;
pub const H_CREATOR: usize = 3;
/// The step lock: 0 when free, else the process stepping the switch: its pid, and its PID
/// namespace's inode in the upper 32 bits (see `lock`).
pub const H_LOCK: usize = 4;
/// How often a stepper found the lock held by a dead process and took it over.
pub const H_LOCK_RECOVERIES: usize = 5;
pub const H_STEPS: usize = 6;
/// Fault: every release waits this long after the last arrival.
pub const H_RELEASE_DELAY_NS: usize = 7;
/// The switch's GROUPS_BUSY, mirrored into every port's register.
pub const H_GROUPS_BUSY: usize = 8;
/// The next idle group whose ports' CONTROL registers a step scans (see `engine`).
pub const H_SCAN_CURSOR: usize = 9;
/// Bumped by every call for progress, so that a stepper knows someone asked for a step while
/// it was stepping and steps once more (no arrival waits for the next caller).
pub const H_KICKS: usize = 10;
/// 1 when the last step left every busy group open for the fast path (and no fault armed):
/// waiters' progress calls then step only every [`QUIET_STEP_NS`].
pub const H_ALL_FAST: usize = 11;
/// When the last step ended (CLOCK_MONOTONIC ns).
pub const H_LAST_STEP_NS: usize = 12;
/// Groups whose CONTROL register a host wrote since the last step began (bit g: group g), set
/// by the host's `Backend::after_control`: the next step looks at them whether busy or not,
/// and waiters do not wait for [`QUIET_STEP_NS`] while any is set. Only a hint for speed:
/// without it the idle-group scan still finds the write, a few steps later.
pub const H_CONTROL_WRITTEN: usize = 13;
/// Groups one uid may hold on each port (the host segments' quota): the creator's
/// `GBA_GROUP_QUOTA`, the same for every process that opens the fabric.
pub const H_GROUP_QUOTA: usize = 14;
/// How often a waiter steps the switch while every busy group runs on the fast path: the
/// stepper then only catches up on bookkeeping and on an arrival whose member died between
/// its doorbell and its count, so stepping at every wait-loop call would only take the CPU
/// from the members that have still to arrive (an oversubscribed machine).
pub const QUIET_STEP_NS: u64 = 50_000;
/// The first port whose read-only registers the next step puts back (see `owned`): a step
/// looks at [`CONFORM_PORTS_PER_STEP`] ports in turn, so that its cost does not grow with the
/// port count.
pub const H_CONFORM_CURSOR: usize = 15;
/// Ports whose read-only registers one step puts back: every port of a fabric of up to this
/// many, at every step.
pub const CONFORM_PORTS_PER_STEP: usize = 8;
const HEADER_WORDS: usize = 16;

// Per-group words, from `group_base`.
/// Bit [`GF_READY`]: READY has been written to every member; bit [`GF_ERROR`]: failed;
/// bit [`GF_RECHECK`]: compare every member's configuration with the group's at the next step;
/// bit [`GF_FAST`]: the stepper opened the group's arrival word (see `arrival_word`).
pub const G_FLAGS: usize = 0;
pub const GF_READY: u64 = 1;
pub const GF_ERROR: u64 = 2;
pub const GF_RECHECK: u64 = 4;
pub const GF_FAST: u64 = 8;
pub const G_ERROR_CODE: usize = 1;
pub const G_RELEASE_SEQ: usize = 2;
/// Fault/test: the sequence the group starts from at its next first join (bit 63 = set).
pub const G_START_SEQ: usize = 3;
pub const START_SEQ_SET: u64 = 1 << 63;
/// When a delayed release becomes due (0: not scheduled).
pub const G_RELEASE_DUE_NS: usize = 4;
pub const G_MASK: usize = 8;
pub const G_JOINED: usize = G_MASK + MASK_WORDS;
pub const G_ARRIVED: usize = G_JOINED + MASK_WORDS;
const GROUP_WORDS: usize = 64;

// Per-port words, from `port_base`.
/// Fault: the member is dead; its arrivals are ignored.
pub const P_DEAD: usize = 0;
/// Fault: how many more of the member's arrivals to drop.
pub const P_DROP_REMAINING: usize = 1;
/// The arrival being dropped: [`RECORD_VALID`] | group << 32 | sequence.
pub const P_DROPPED: usize = 2;
/// Fault: how many more of the member's arrivals to delay, and by how long.
pub const P_DELAY_REMAINING: usize = 3;
pub const P_DELAY_NS: usize = 4;
/// The arrival being delayed (as [`P_DROPPED`]) and when it is let through.
pub const P_DELAYED: usize = 5;
pub const P_DELAYED_UNTIL_NS: usize = 6;
pub const P_OPENERS: usize = 8;
pub const P_ARENA_BITMAP: usize = P_OPENERS + MAX_OPENERS;
/// Per group: unused since layout 3 (the claim records moved to the host segment, `host`).
pub const P_GROUP_OWNER: usize = P_ARENA_BITMAP + BITMAP_WORDS;
/// Per group: this port's entry for the fast path, `arrival_word::member_entry`: its bit in the
/// group's arrival word and the group's every-member bits, in one word (written by the
/// stepper before it opens the word, zeroed when the port leaves the group; read by this
/// port's member only, so on this port's own lines, which nobody writes in an episode).
pub const P_FAST_MEMBER: usize = P_GROUP_OWNER + GROUPS;
/// The switch's own copy of the read-only registers it writes in this port's window (see
/// `owned`): a host's store into the window is undone from it at the next step, as a device
/// ignores such a store. First the global ones ([`OWNED_GROUP_ENABLED`],
/// [`OWNED_BARRIERS_COMPLETED`]), then [`OWNED_GROUP_WORDS`] per group from
/// [`P_OWNED_GROUPS`].
pub const P_OWNED: usize = P_FAST_MEMBER + GROUPS + 8;
pub const OWNED_GROUP_ENABLED: usize = 0;
pub const OWNED_BARRIERS_COMPLETED: usize = 1;
pub const P_OWNED_GROUPS: usize = P_OWNED + 8;
/// Per group, from `P_OWNED_GROUPS + g * OWNED_GROUP_WORDS`: STATUS, ARRIVAL_COUNT,
/// RELEASE_SEQ, then ARRIVED_MASK's words from [`OWNED_ARRIVED_MASK`] (two cache lines).
pub const OWNED_STATUS: usize = 0;
pub const OWNED_ARRIVAL_COUNT: usize = 1;
pub const OWNED_RELEASE_SEQ: usize = 2;
pub const OWNED_ARRIVED_MASK: usize = 4;
pub const OWNED_GROUP_WORDS: usize = 16;
const PORT_WORDS: usize = P_OWNED_GROUPS + GROUPS * OWNED_GROUP_WORDS;

// Per-group fast-path words, from `fast_word`: each group's arrival word alone on its cache
// line (the one line arrivals bounce), then the read-mostly table the releaser uses (written
// only when a group's configuration changes).
/// The arrival word (`arrival_word`): sequence, OPEN, arrival bits.
pub const F_ARRIVAL_WORD: usize = 0;
// Word 8: unused since layout 4 (every member's bits moved into each member's own entry,
// `P_FAST_MEMBER`, so that an arrival reads one line besides the arrival word).
/// Member k's release flag: its byte offset in the arenas file (k in MEMBER_MASK order).
pub const F_FLAG: usize = 9;
const FAST_WORDS: usize = F_FLAG + crate::arrival_word::MAX_FAST_MEMBERS as usize;

pub const RECORD_VALID: u64 = 1 << 63;
/// The group bits of a held-arrival record ([`P_DROPPED`], [`P_DELAYED`]).
pub const RECORD_GROUP: u64 = !RECORD_VALID & !0xFFFF_FFFF;

pub const ARENA_BITMAP_WORDS: usize = BITMAP_WORDS;

/// Byte offset of group `g`'s state word `word` in the switch file.
pub fn group_word(g: usize, word: usize) -> usize {
    (HEADER_WORDS + g * GROUP_WORDS + word) * 8
}

/// Byte offset of group `g`'s fast-path word `word` in the switch file (64-byte aligned
/// per group, so that the arrival word shares its line with nothing else).
pub fn fast_word(g: usize, word: usize) -> usize {
    (HEADER_WORDS + GROUPS * GROUP_WORDS + g * FAST_WORDS + word) * 8
}

/// Byte offset of port `p`'s state word `word` in the switch file.
pub fn port_word(p: usize, word: usize) -> usize {
    (HEADER_WORDS + GROUPS * (GROUP_WORDS + FAST_WORDS) + p * PORT_WORDS + word) * 8
}

pub fn header_word(word: usize) -> usize {
    word * 8
}

pub fn switch_size(ports: usize) -> usize {
    (HEADER_WORDS + GROUPS * (GROUP_WORDS + FAST_WORDS) + ports * PORT_WORDS) * 8
}

const _: () = assert!(FAST_WORDS.is_multiple_of(8) && HEADER_WORDS.is_multiple_of(8));
const _: () = assert!(GROUP_WORDS.is_multiple_of(8));
const _: () = assert!(OWNED_ARRIVED_MASK + MASK_WORDS <= OWNED_GROUP_WORDS);
const _: () = assert!(P_OWNED.is_multiple_of(8) && PORT_WORDS.is_multiple_of(8));

pub const SWITCH_FILE: &str = "switch";
pub const WINDOWS_FILE: &str = "windows";
pub const ARENAS_FILE: &str = "arenas";
