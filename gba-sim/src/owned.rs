//! The registers a host may read but not write, kept as a device keeps them.
//!
//! A port's window is shared memory, which stores whatever any host writes: a host could
//! overwrite DEVICE_ID, or STATUS, for every other user of the port, where a device ignores
//! such a store. So the switch keeps its own copy of every read-only register it writes
//! (STATUS, ARRIVAL_COUNT, ARRIVED_MASK, RELEASE_SEQ, GROUP_ENABLED, BARRIERS_COMPLETED; in
//! the switch file, `layout::P_OWNED`), reads that copy, never the window, when it updates
//! one, and at every step puts back what a host changed:
//! - the identity registers (DEVICE_ID, VERSION, CAPS, PORT_ID, GROUP_ID): from gba-pac's
//!   reset values, the port's number and the group's index;
//! - the registers it writes: from its copy; GROUPS_BUSY from the switch header;
//! - a write-only ARRIVAL doorbell of a port that has not joined the group: to 0, its reset
//!   value (a device takes no arrival there, and a read of a write-only register shows
//!   nothing). A joined member's doorbell is left alone: it is how the switch takes the
//!   member's arrival in, and the switch itself stores "no arrival yet" there when the member
//!   joins.
//!
//! The global registers are put back at every step, for every port (one cache line each);
//! a group's, for the groups the step looks at (the busy ones, the ones whose CONTROL was
//! written, and a few idle ones in turn: every group within `GROUPS / IDLE_GROUPS_PER_STEP`
//! steps). [`Fabric::settle`] runs a step that looks at every group, as a device takes a
//! store in at once.
//!
//! The copy is written before the window, so that a step cut short (its process killed) leaves
//! at most a window that the next step puts back from the copy.

use gba_pac::common::{Atomic, Reg, Rw};
use gba_pac::global;
use gba_pac::group::{ARRIVAL_COUNT, GROUP_ID, RELEASE_SEQ, STATUS};
use gba_pac::tock_registers::fields::FieldValue;
use gba_pac::tock_registers::interfaces::{Readable, Writeable};
use gba_pac::tock_registers::{LocalRegisterCopy, RegisterLongName, UIntLike};

use crate::fabric::Fabric;
use crate::layout::{self as l, GROUPS, MASK_WORDS};
use gba_hal::MemberSet as Mask;
use gba_hal::shared::SharedWord;

/// Every group's bit, as [`Fabric::settle`] marks them written.
pub(crate) const ALL_GROUPS: u64 = if GROUPS >= 64 {
    u64::MAX
} else {
    (1 << GROUPS) - 1
};

/// STATUS as the switch last wrote it.
pub(crate) type Status = LocalRegisterCopy<u64, STATUS::Register>;

impl Fabric {
    fn owned(&self, p: usize, word: usize) -> SharedWord<'_> {
        self.port_state(p, l::P_OWNED + word)
    }

    fn owned_group(&self, p: usize, g: usize, word: usize) -> SharedWord<'_> {
        self.port_state(p, l::P_OWNED_GROUPS + g * l::OWNED_GROUP_WORDS + word)
    }

    /// Port `p`'s STATUS of group `g` as the switch last wrote it (a host's store into the
    /// window does not count).
    pub(crate) fn status(&self, p: usize, g: usize) -> Status {
        Status::new(self.owned_group(p, g, l::OWNED_STATUS).load())
    }

    pub(crate) fn set_status(&self, p: usize, g: usize, value: FieldValue<u64, STATUS::Register>) {
        self.store_status(p, g, value.value);
    }

    /// Changes the fields `value` names in port `p`'s STATUS of group `g`, from the switch's
    /// copy.
    pub(crate) fn modify_status(
        &self,
        p: usize,
        g: usize,
        value: FieldValue<u64, STATUS::Register>,
    ) {
        self.store_status(p, g, value.modify(self.status(p, g).get()));
    }

    pub(crate) fn clear_status(&self, p: usize, g: usize) {
        self.store_status(p, g, 0);
    }

    fn store_status(&self, p: usize, g: usize, value: u64) {
        self.owned_group(p, g, l::OWNED_STATUS).store(value);
        self.group_regs(p, g).status().device_side().set(value);
    }

    /// Port `p`'s RELEASE_SEQ of group `g` as the switch last wrote it.
    pub(crate) fn release_seq(&self, p: usize, g: usize) -> u32 {
        self.owned_group(p, g, l::OWNED_RELEASE_SEQ).load() as u32
    }

    pub(crate) fn set_release_seq(&self, p: usize, g: usize, sequence: u32) {
        let value = RELEASE_SEQ::SEQUENCE.val(u64::from(sequence)).value;
        self.owned_group(p, g, l::OWNED_RELEASE_SEQ).store(value);
        self.group_regs(p, g).release_seq().device_side().set(value);
    }

    /// ARRIVED_MASK and ARRIVAL_COUNT of port `p` for `arrived` (`words` mask words, the
    /// others 0).
    pub(crate) fn set_arrived(&self, p: usize, g: usize, arrived: &Mask, words: usize) {
        let regs = self.group_regs(p, g);
        for w in 0..words.min(MASK_WORDS) {
            let copy = self.owned_group(p, g, l::OWNED_ARRIVED_MASK + w);
            copy.store(arrived.0[w]);
            if let Some(word) = regs.arrived_mask(w) {
                word.device_side().set(arrived.0[w]);
            }
        }
        let count = ARRIVAL_COUNT::COUNT.val(arrived.count()).value;
        self.owned_group(p, g, l::OWNED_ARRIVAL_COUNT)
            .store(u64::from(count));
        regs.arrival_count().device_side().set(count);
    }

    /// Sets (`on`) or clears bit `g` of port `p`'s GROUP_ENABLED.
    pub(crate) fn set_group_enabled(&self, p: usize, g: usize, on: bool) {
        let copy = self.owned(p, l::OWNED_GROUP_ENABLED);
        let bits = copy.load() as u32;
        let bits = if on { bits | 1 << g } else { bits & !(1 << g) };
        copy.store(u64::from(bits));
        self.global(p).group_enabled().device_side().set(bits);
    }

    /// Adds `episodes` to port `p`'s BARRIERS_COMPLETED.
    pub(crate) fn add_barriers_completed(&self, p: usize, episodes: u64) {
        let copy = self.owned(p, l::OWNED_BARRIERS_COMPLETED);
        let count = copy.load().wrapping_add(episodes);
        copy.store(count);
        self.global(p).barriers_completed().device_side().set(count);
    }

    /// Puts back port `p`'s global read-only registers: identity from gba-pac's reset
    /// values and the port's number, the others from the switch's state.
    pub(crate) fn conform_global(&self, p: usize) {
        let global = self.global(p);
        restore(global.device_id().device_side(), global::reset::DEVICE_ID);
        restore(global.version().device_side(), global::reset::VERSION);
        restore(global.caps().device_side(), global::reset::CAPS);
        restore(
            global.port_id().device_side(),
            global::PORT_ID::PORT.val(p as u32).value,
        );
        let enabled = self.owned(p, l::OWNED_GROUP_ENABLED).load() as u32;
        restore(global.group_enabled().device_side(), enabled);
        let busy = self.header(l::H_GROUPS_BUSY).load() as u32;
        restore(global.groups_busy().device_side(), busy);
        let completed = self.owned(p, l::OWNED_BARRIERS_COMPLETED).load();
        restore(global.barriers_completed().device_side(), completed);
    }

    /// The ports whose read-only registers this step puts back: every port when `all` (a
    /// settle), else the next [`CONFORM_PORTS_PER_STEP`](l::CONFORM_PORTS_PER_STEP) in turn
    /// (every port of a fabric that has no more).
    pub(crate) fn conform_ports(&self, all: bool) -> core::ops::Range<usize> {
        let ports = self.ports();
        if all || ports <= l::CONFORM_PORTS_PER_STEP {
            return 0..ports;
        }
        // Reduced first: a corrupt word must not overflow the arithmetic below.
        let cursor = self.header(l::H_CONFORM_CURSOR);
        let start = (cursor.load() % ports as u64) as usize;
        let next = start + l::CONFORM_PORTS_PER_STEP;
        cursor.store(if next >= ports { 0 } else { next } as u64);
        start..next.min(ports)
    }

    /// Puts back group `g`'s read-only registers of `ports`, and the doorbell of each of
    /// them outside `joined` (see the module description).
    pub(crate) fn conform_group(&self, g: usize, joined: &Mask, ports: core::ops::Range<usize>) {
        for p in ports {
            let regs = self.group_regs(p, g);
            let owned = |word| self.owned_group(p, g, word).load();
            restore(
                regs.group_id().device_side(),
                GROUP_ID::ID.val(g as u32).value,
            );
            restore(regs.status().device_side(), owned(l::OWNED_STATUS));
            restore(
                regs.release_seq().device_side(),
                owned(l::OWNED_RELEASE_SEQ),
            );
            restore(
                regs.arrival_count().device_side(),
                owned(l::OWNED_ARRIVAL_COUNT) as u32,
            );
            for w in 0..MASK_WORDS {
                if let Some(word) = regs.arrived_mask(w) {
                    restore(word.device_side(), owned(l::OWNED_ARRIVED_MASK + w));
                }
            }
            if !joined.contains(p) {
                restore(regs.arrival().device_side(), 0);
            }
        }
    }

    /// The switch's step as a device takes a store in: waits for the step lock and runs one
    /// step that looks at every group, so that every store made before the call (a RESET, a
    /// store into a read-only register, a doorbell outside a group) has had its effect when
    /// it returns.
    pub fn settle(&self) {
        // The step takes these bits (with acquire) as groups to look at, whether busy or not;
        // every bit set also asks it to put back every port's registers. The lock first, so
        // that no other step takes the bits.
        let _guard = self.lock_step();
        self.header(l::H_CONTROL_WRITTEN).fetch_or(ALL_GROUPS);
        self.step_locked();
    }
}

/// Stores `want` into a register that does not hold it; only a load when it does, so that a
/// step leaves the lines of registers nobody wrote shared in every reader's cache.
fn restore<T, R>(reg: Reg<T, R, Rw, Atomic>, want: T)
where
    T: UIntLike,
    R: RegisterLongName,
    Reg<T, R, Rw, Atomic>: Readable<T = T> + Writeable<T = T>,
{
    if reg.get() != want {
        reg.set(want);
    }
}
