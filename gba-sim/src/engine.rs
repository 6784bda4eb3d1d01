//! The switch model: docs/datasheet.md section 4, one step at a time.
//!
//! Arrivals usually take the fast path (`Fabric::arrive`, see [`crate::arrival_word`]): aggregated
//! lock-free on the doorbell path, the last one raising every flag. A step, under the
//! fabric's step lock:
//! 0. For every group it looks at, close the arrival word and take in what the fast path
//!    did: releases it completed (flags raised again, idempotently, then the bookkeeping of
//!    step 3 for every such episode) and arrivals it aggregated.
//! 1. For every busy group (enabled on at least one port) and a few idle ones in turn, read
//!    every port's CONTROL: a RESET resets the group on that port; a port that enabled the
//!    group joins it after its configuration is checked (BAD_MEMBER, COUNT_MISMATCH,
//!    DMA_FAULT, then GROUP_BUSY or MASK_MISMATCH against the members already joined); a
//!    port that cleared ENABLE leaves it. When every member of the mask has joined, every
//!    member reads READY.
//! 2. For every ready group, read the ARRIVAL doorbell of each member that has not arrived
//!    (acquire: the member's earlier writes happen before what the switch does next). A
//!    doorbell holding RELEASE_SEQ + 1 and the member's id is an arrival; the previous
//!    sequence is no news; anything else fails the group (SEQ_ERROR, BAD_MEMBER). Injected
//!    faults drop or delay arrivals here.
//! 3. When all members arrived (and an injected release delay has passed), release: write
//!    the new sequence into every member's flag by "DMA" (a release store, never moving a
//!    flag backwards in serial-number order), then RELEASE_SEQ, the cleared ARRIVED_MASK
//!    and the counters of every member port.
//! 4. Mirror the set of busy groups into every port's GROUPS_BUSY.
//! 5. Open the arrival word again for the pending episode if the group is READY and no
//!    fault concerns it.
//!
//! Every register access goes through gba-pac's generated definitions (the device-side view):
//! no offset or field position is written here. The read-only registers the switch writes are
//! written through [`crate::owned`], which keeps the switch's own copy (read back instead of
//! the window, which any host can store into) and puts back a host's store at every step.
//!
//! A step cut short (its process killed) is re-run by the next stepper and converges: the
//! switch's own state is written after the registers it describes, resets and releases are
//! idempotent, and a port's BARRIERS_COMPLETED is counted only when its RELEASE_SEQ is not
//! already the new sequence. (A kill between those two writes of one port can leave that
//! counter one short or long; nothing reads it for correctness.)

use gba_pac::common::Atomic;
use gba_pac::group::{ARRIVAL, CONTROL, LOCAL_MEMBER_ID, MEMBER_COUNT, STATUS};
use gba_pac::tock_registers::interfaces::{Readable, Writeable};
use gba_pac::{global, group};

use crate::arrival_word::{self, Arrival};
use crate::fabric::Fabric;
use crate::layout::{self as l, GROUPS, MASK_WORDS};
use crate::owned::ALL_GROUPS;
use gba_hal::MemberSet as Mask;
use gba_hal::backends::monotonic_ns;

/// Idle groups whose ports a step scans for a new ENABLE, in turn: a new group is noticed
/// within GROUPS / IDLE_GROUPS_PER_STEP steps, while a step over one busy group stays short.
const IDLE_GROUPS_PER_STEP: usize = 4;

/// Steps between two comparisons of every joined member's MEMBER_MASK with the group's (a
/// changed mask on an enabled group is a MASK_MISMATCH; an injected corruption asks for the
/// comparison at once).
const RECHECK_EVERY_STEPS: u64 = 256;

use STATUS::ERROR_CODE::Value as ErrorCode;

impl Fabric {
    /// Runs one switch step if no other process or thread is stepping; returns whether it
    /// did. This is the simulator's progress function: waiting members call it.
    ///
    /// A caller that finds the lock taken leaves a "kick" first; the stepper steps again when it
    /// sees a kick that came in during its step, so an arrival rung while another member was
    /// stepping is seen without waiting for that member's next call.
    pub fn progress(&self) -> bool {
        /// Steps one caller runs back to back for kicks; the others' calls go on meanwhile.
        const MAX_STEPS_PER_CALL: usize = 4;
        let kicks = self.header(l::H_KICKS);
        kicks.fetch_add(1);
        let mut stepped = false;
        for _ in 0..MAX_STEPS_PER_CALL {
            let seen = kicks.load();
            match self.try_lock_step() {
                Some(guard) => {
                    self.step_locked();
                    drop(guard);
                    stepped = true;
                }
                None => break,
            }
            if kicks.load() == seen {
                break;
            }
        }
        stepped
    }

    /// The fast path: called by member `p`'s host right after its release store of `doorbell`
    /// into group `g`'s ARRIVAL register. Counts the arrival lock-free into the group's
    /// arrival word and, when it is the last one, releases the episode (every member's flag)
    /// at once; the bookkeeping (ARRIVED_MASK, counters, RELEASE_SEQ) is left to the next step.
    /// Returns false when the arrival was not aggregated (the group is not open for the fast
    /// path: not READY, a fault armed, another sequence, a doorbell that names another member):
    /// the caller then steps the switch ([`progress`](Self::progress)), which reads the
    /// doorbell as the switch always did.
    pub fn arrive(&self, p: usize, g: usize, doorbell: u64) -> bool {
        if g >= GROUPS || p >= self.ports() {
            return false;
        }
        let doorbell =
            gba_pac::tock_registers::LocalRegisterCopy::<u64, ARRIVAL::Register>::new(doorbell);
        if doorbell.read(ARRIVAL::MEMBER_ID) != p as u64 {
            return false;
        }
        let sequence = doorbell.read(ARRIVAL::SEQUENCE) as u32;
        // This member's entry (its bit and every member's), on this port's own line: the
        // table the step wrote before it opened the word (see `arrival_word::arrive`).
        let (mine, full) = arrival_word::member_of(self.port_state(p, l::P_FAST_MEMBER + g).load());
        if mine == 0 {
            return false;
        }
        match arrival_word::arrive(&self.fast_state(g, l::F_ARRIVAL_WORD), sequence, mine, full) {
            Arrival::Deferred => false,
            Arrival::Counted => true,
            Arrival::Completed => {
                // `full` is 2^members - 1 (`arrival_word::full`): no population count needed.
                self.release_flags(
                    g,
                    sequence,
                    mine.trailing_zeros() as usize,
                    (full + 1).trailing_zeros() as usize,
                );
                true
            }
        }
    }

    /// Test support: aggregates like [`arrive`](Self::arrive) but, when the arrival completes
    /// the episode, does not raise the flags, as a member killed right after its aggregating
    /// exchange would leave it. Returns `None` if the arrival was not aggregated, else whether
    /// it completed the episode.
    #[doc(hidden)]
    pub fn arrive_and_die(&self, p: usize, g: usize, doorbell: u64) -> Option<bool> {
        let doorbell =
            gba_pac::tock_registers::LocalRegisterCopy::<u64, ARRIVAL::Register>::new(doorbell);
        let sequence = doorbell.read(ARRIVAL::SEQUENCE) as u32;
        let (mine, full) = arrival_word::member_of(self.port_state(p, l::P_FAST_MEMBER + g).load());
        if mine == 0 {
            return None;
        }
        match arrival_word::arrive(&self.fast_state(g, l::F_ARRIVAL_WORD), sequence, mine, full) {
            Arrival::Deferred => None,
            Arrival::Counted => Some(false),
            Arrival::Completed => Some(true),
        }
    }

    /// The owner's release of `sequence` in fast group `g` of `members` members: stores it into
    /// every member's flag (the table was written by the step that opened the group, before
    /// the arrival word; the caller's exchange on that word acquired it). The others' flags
    /// first, member `own`'s (the caller's, which nobody polls yet) last. No division on this
    /// path: the index wraps by a compare.
    fn release_flags(&self, g: usize, sequence: u32, own: usize, members: usize) {
        let mut k = own;
        for _ in 0..members {
            k += 1;
            if k >= members {
                k = 0;
            }
            // An offset the stepper recorded; one outside the arenas (a corrupt switch file)
            // raises nothing rather than panicking the stepper.
            let offset = self.fast_state(g, l::F_FLAG + k).load() as usize;
            if let Some(flag) = self.arena_word(offset) {
                arrival_word::release_owned(&flag, sequence);
            }
        }
    }

    /// Closes group `g`'s arrival word and takes what the fast path did since the last step
    /// into the switch's state: releases it completed (flags raised again, idempotently, in
    /// case their owner died before raising them; then the bookkeeping) and arrivals aggregated
    /// for the pending episode (returns whether there were new ones).
    fn sync_fast(&self, g: usize, state: &mut GroupState) -> bool {
        let closed = arrival_word::close(&self.fast_state(g, l::F_ARRIVAL_WORD));
        if state.flags & l::GF_FAST == 0 {
            return false;
        }
        let completed = arrival_word::seq(closed).wrapping_sub(1);
        if arrival_word::after(completed, state.release_seq) {
            self.release_to(g, state, completed);
        }
        let mut merged = false;
        if arrival_word::seq(closed) == state.release_seq.wrapping_add(1) {
            let bits = arrival_word::bits(closed);
            for (k, p) in state.mask.iter().enumerate() {
                if bits & 1 << k != 0 && !state.arrived.contains(p) {
                    state.arrived.insert(p);
                    merged = true;
                }
            }
            if merged {
                state.store_arrived(self, g, self.words());
            }
        }
        // Last: a step cut short before here is re-run from the same closed word and
        // converges (the release above is idempotent, the merge too).
        state.flags &= !l::GF_FAST;
        self.group_state(g, l::G_FLAGS).store(state.flags);
        merged
    }

    /// Opens group `g`'s arrival word for its pending episode if the fast path may run it:
    /// READY, no error, no recheck due, at most 31 members, no release delay, and no fault
    /// armed for any member (every fault is then left to the stepping engine).
    fn open_fast(&self, g: usize, state: &mut GroupState) {
        if state.flags & (l::GF_READY | l::GF_ERROR | l::GF_RECHECK) != l::GF_READY {
            return;
        }
        let members = state.mask.count();
        if members == 0 || members > arrival_word::MAX_FAST_MEMBERS {
            return;
        }
        if self.header(l::H_RELEASE_DELAY_NS).load() != 0
            || self.group_state(g, l::G_RELEASE_DUE_NS).load() != 0
        {
            return;
        }
        let mut flags = [0usize; arrival_word::MAX_FAST_MEMBERS as usize];
        for (k, p) in state.mask.iter().enumerate() {
            let regs = self.group_regs(p, g);
            if self.fault_armed(p, g) || !regs.control().device_side().is_set(CONTROL::ARM) {
                return;
            }
            match self.dma_offset(p, regs.release_addr().device_side().get()) {
                Some(offset) => flags[k] = offset,
                None => return,
            }
        }
        // The table, then the word (release): a member that sees the word open sees the table.
        // Written only when changed, so that members keep the lines cached between steps.
        let update = |word: gba_hal::shared::SharedWord<'_>, value: u64| {
            if word.load() != value {
                word.store(value);
            }
        };
        let mut bits = 0;
        let full = arrival_word::full(members);
        for (k, p) in state.mask.iter().enumerate() {
            update(self.fast_state(g, l::F_FLAG + k), flags[k] as u64);
            update(
                self.port_state(p, l::P_FAST_MEMBER + g),
                arrival_word::member_entry(1 << k, full),
            );
            if state.arrived.contains(p) {
                bits |= 1 << k;
            }
        }
        state.flags |= l::GF_FAST;
        self.group_state(g, l::G_FLAGS).store(state.flags);
        arrival_word::open(
            &self.fast_state(g, l::F_ARRIVAL_WORD),
            state.release_seq.wrapping_add(1),
            bits,
        );
    }

    /// Whether a fault is armed for member `p` of group `g` (or still holds one of its
    /// arrivals back).
    fn fault_armed(&self, p: usize, g: usize) -> bool {
        self.port_state(p, l::P_DEAD).load() != 0
            || self.port_state(p, l::P_DROP_REMAINING).load() != 0
            || self.port_state(p, l::P_DELAY_REMAINING).load() != 0
            || [l::P_DROPPED, l::P_DELAYED].iter().any(|&held| {
                self.port_state(p, held).load() & (l::RECORD_VALID | l::RECORD_GROUP) == held_for(g)
            })
    }

    /// Closes every group's arrival word, under the step lock: a fault about to be armed
    /// then applies to every arrival not yet aggregated, which the stepper sees (the next step
    /// takes in what was aggregated before, and opens no group a fault concerns).
    pub(crate) fn with_fast_paths_closed(&self, arm: impl FnOnce()) {
        let _guard = self.lock_step();
        self.header(l::H_ALL_FAST).store(0);
        for g in 0..GROUPS {
            arrival_word::close(&self.fast_state(g, l::F_ARRIVAL_WORD));
        }
        arm();
    }

    /// What the switch does when a host stored to group `g`'s CONTROL register (RESET, or
    /// ENABLE after its configuration): it notes the group, so that the next step looks at it
    /// whether or not it is busy, and steps at once. Without this, a new ENABLE or a RESET of
    /// an idle group waited for the idle-group scan (GROUPS / IDLE_GROUPS_PER_STEP steps) and,
    /// while every busy group runs on the fast path, each of those steps for the quiet-step
    /// throttle: a group configuration cost hundreds of microseconds.
    pub fn control_written(&self, g: usize) {
        if g >= GROUPS {
            return;
        }
        // After the host's CONTROL store (program order); the stepper's swap acquires this,
        // so a step that takes the bit reads that store.
        self.header(l::H_CONTROL_WRITTEN).fetch_or(1 << g);
        self.progress();
    }

    /// Runs one switch step, waiting for the step lock if another is stepping.
    pub fn step(&self) {
        let _guard = self.lock_step();
        self.step_locked();
    }

    pub(crate) fn step_locked(&self) {
        let steps = self.header(l::H_STEPS).fetch_add(1);
        let now = monotonic_ns();
        let busy_before = self.header(l::H_GROUPS_BUSY).load() as u32;
        // Reduced first: a corrupt word must not overflow the arithmetic below.
        let cursor = (self.header(l::H_SCAN_CURSOR).load() % GROUPS as u64) as usize;
        self.header(l::H_SCAN_CURSOR)
            .store(((cursor + IDLE_GROUPS_PER_STEP) % GROUPS) as u64);
        // Groups a host told the switch about (`control_written`): taken, not only read, so
        // that the next step need not look at them again; a load first, so that a step with
        // none does not write the header line every waiter reads.
        let written = self.header(l::H_CONTROL_WRITTEN);
        let written = match written.load() {
            0 => 0,
            _ => written.swap(0),
        };
        // The ports whose read-only registers this step puts back (`owned`): all of them
        // when a settle asked (it marked every group written), else a few in turn.
        let conform = self.conform_ports(written & ALL_GROUPS == ALL_GROUPS);
        let mut busy = 0u32;
        let mut all_fast = true;
        for g in 0..GROUPS {
            let idle_turn = (g + GROUPS - cursor) % GROUPS < IDLE_GROUPS_PER_STEP;
            if busy_before & (1 << g) == 0 && !idle_turn && written & (1 << g) == 0 {
                continue;
            }
            let mut state = GroupState::load(self, g);
            self.conform_group(g, &state.joined, conform.clone());
            let merged = self.sync_fast(g, &mut state);
            if steps.is_multiple_of(RECHECK_EVERY_STEPS) {
                state.flags |= l::GF_RECHECK;
            }
            self.configure(g, &mut state);
            if state.flags & (l::GF_READY | l::GF_ERROR) == l::GF_READY {
                self.arrivals(g, &mut state, now, merged);
            }
            self.open_fast(g, &mut state);
            if !state.joined.is_empty() {
                busy |= 1 << g;
                all_fast &= state.flags & l::GF_FAST != 0;
            }
        }
        if busy != busy_before {
            for p in 0..self.ports() {
                self.window(p)
                    .global()
                    .groups_busy()
                    .device_side()
                    .set(busy);
            }
            self.header(l::H_GROUPS_BUSY).store(u64::from(busy));
        }
        // What a host changed in the global read-only registers, put back (`owned`).
        for p in conform {
            self.conform_global(p);
        }
        self.header(l::H_LAST_STEP_NS).store(monotonic_ns());
        let all_fast = u64::from(all_fast && busy != 0);
        if self.header(l::H_ALL_FAST).load() != all_fast {
            self.header(l::H_ALL_FAST).store(all_fast);
        }
    }

    /// What a waiting member calls between polls of its flag: [`progress`](Self::progress),
    /// except that while every busy group runs on the fast path (nothing waits for a step but
    /// bookkeeping, or a member that died mid-count) it steps at most every
    /// [`QUIET_STEP_NS`](l::QUIET_STEP_NS). A CONTROL store not yet taken in by a step
    /// ([`control_written`](Self::control_written) found the lock held) lifts the throttle.
    pub fn progress_waiting(&self) -> bool {
        if self.header(l::H_ALL_FAST).load() != 0
            && self.header(l::H_CONTROL_WRITTEN).load() == 0
            && monotonic_ns().saturating_sub(self.header(l::H_LAST_STEP_NS).load())
                < l::QUIET_STEP_NS
        {
            return false;
        }
        self.progress()
    }

    /// Step 1: resets, joins, leaves and READY for group `g`.
    fn configure(&self, g: usize, state: &mut GroupState) {
        for p in 0..self.ports() {
            let regs = self.group_regs(p, g);
            // Acquire: the host writes the configuration, then ENABLE with a release store;
            // reading CONTROL with acquire makes that configuration visible to the reads
            // below (relaxed, the switch could see ENABLE and a stale MEMBER_MASK).
            let control = gba_pac::tock_registers::LocalRegisterCopy::<u64, CONTROL::Register>::new(
                regs.control().device_side().get_acquire(),
            );
            let joined = state.joined.contains(p);
            if control.is_set(CONTROL::RESET) {
                self.reset_port(p, g, state);
            } else if joined && !control.is_set(CONTROL::ENABLE) {
                self.leave(p, g, state);
            } else if !joined && control.is_set(CONTROL::ENABLE) {
                if !self.status(p, g).is_set(STATUS::ERROR) {
                    self.try_join(p, g, state);
                }
            } else if joined
                && state.flags & (l::GF_RECHECK | l::GF_ERROR) == l::GF_RECHECK
                && self.read_mask(p, g) != state.mask
            {
                self.fail_group(g, state, ErrorCode::MASK_MISMATCH);
            }
        }
        if state.flags & l::GF_RECHECK != 0 {
            state.flags &= !l::GF_RECHECK;
            self.group_state(g, l::G_FLAGS).store(state.flags);
        }
        let complete = !state.joined.is_empty() && state.joined == state.mask;
        if complete && state.flags & (l::GF_READY | l::GF_ERROR) == 0 {
            for p in state.mask.iter() {
                self.modify_status(p, g, STATUS::READY::SET);
            }
            state.flags |= l::GF_READY;
            self.group_state(g, l::G_FLAGS).store(state.flags);
        }
    }

    fn try_join(&self, p: usize, g: usize, state: &mut GroupState) {
        let regs = self.group_regs(p, g);
        let mask = self.read_mask(p, g);
        let count = regs.member_count().device_side().read(MEMBER_COUNT::COUNT);
        let local = regs
            .local_member_id()
            .device_side()
            .read(LOCAL_MEMBER_ID::ID) as usize;
        let release_addr = regs.release_addr().device_side().get();
        let members_limit = self.ports().min(gba_pac::MAX_MEMBERS);
        let refusal = if local != p || !mask.contains(p) || mask.any_at_or_above(members_limit) {
            Some(ErrorCode::BAD_MEMBER)
        } else if mask.count() != count {
            Some(ErrorCode::COUNT_MISMATCH)
        } else if self.dma_word(p, release_addr).is_none() {
            Some(ErrorCode::DMA_FAULT)
        } else if !state.joined.is_empty() && !state.mask.contains(p) {
            Some(ErrorCode::GROUP_BUSY)
        } else if !state.joined.is_empty() && mask != state.mask {
            Some(ErrorCode::MASK_MISMATCH)
        } else if state.flags & l::GF_ERROR != 0 {
            Some(state.error)
        } else {
            None
        };
        if let Some(code) = refusal {
            self.set_status(
                p,
                g,
                STATUS::ERROR::SET + STATUS::ERROR_CODE.val(code as u64),
            );
            return;
        }
        if state.joined.is_empty() {
            let start = self.group_state(g, l::G_START_SEQ).load();
            let sequence = if start & l::START_SEQ_SET != 0 {
                start as u32
            } else {
                0
            };
            *state = GroupState {
                mask,
                release_seq: sequence,
                ..GroupState::default()
            };
            self.group_state(g, l::G_START_SEQ).store(0);
            state.store_all(self, g, self.words());
        }
        self.set_release_seq(p, g, state.release_seq);
        // The doorbell holds the last completed sequence: "no arrival yet".
        regs.arrival().device_side().write(
            ARRIVAL::MEMBER_ID.val(p as u64) + ARRIVAL::SEQUENCE.val(u64::from(state.release_seq)),
        );
        self.publish_arrived(p, g, &Mask::default());
        self.clear_status(p, g);
        self.set_group_enabled(p, g, true);
        state.joined.insert(p);
        state.store_joined(self, g, self.words());
    }

    fn leave(&self, p: usize, g: usize, state: &mut GroupState) {
        state.joined.remove(p);
        state.arrived.remove(p);
        // No bit in the arrival word any more: a host that rings a group it left is not
        // counted (before the word is opened again, with release).
        self.port_state(p, l::P_FAST_MEMBER + g).store(0);
        // A fault holding back an arrival of this group is over with the member's job: the
        // next job's arrivals (which restart at the same sequences) are new arrivals.
        for held in [l::P_DROPPED, l::P_DELAYED] {
            let record = self.port_state(p, held);
            if record.load() & (l::RECORD_VALID | l::RECORD_GROUP) == held_for(g) {
                record.store(0);
            }
        }
        self.set_group_enabled(p, g, false);
        if state.joined.is_empty() {
            *state = GroupState::default();
            state.store_all(self, g, self.words());
            return;
        }
        // The group lost a member: it cannot complete an episode until the member is back.
        for m in state.joined.iter() {
            self.modify_status(m, g, STATUS::READY::CLEAR);
        }
        state.flags &= !l::GF_READY;
        state.store_all(self, g, self.words());
    }

    fn reset_port(&self, p: usize, g: usize, state: &mut GroupState) {
        if state.joined.contains(p) {
            self.leave(p, g, state);
        }
        let regs = self.group_regs(p, g);
        self.clear_status(p, g);
        self.publish_arrived(p, g, &Mask::default());
        self.set_release_seq(p, g, 0);
        regs.arrival().device_side().set(0);
        self.set_group_enabled(p, g, false);
        // Last: RESET is a single pulse (gba.yaml), which hardware takes in the cycle of the
        // write; this switch takes it at a step, and clears it only once the port is reset,
        // because the host waits for RESET to read 0 before configuring again.
        regs.control().device_side().set(0);
    }

    /// Step 2: arrivals of a ready group, then step 3 when they are all in.
    fn arrivals(&self, g: usize, state: &mut GroupState, now: u64, merged: bool) {
        let expected = state.release_seq.wrapping_add(1);
        let mut changed = merged;
        let pending = state.mask.minus(&state.arrived);
        for p in pending.iter() {
            if self.port_state(p, l::P_DEAD).load() != 0 {
                continue;
            }
            let regs = self.group_regs(p, g);
            if !regs.control().device_side().is_set(CONTROL::ARM) {
                continue;
            }
            // Acquire: pairs with the member's release store of the doorbell, so that its
            // earlier writes happen before the release this arrival may trigger.
            let doorbell = regs.arrival().device_side().get_acquire();
            let doorbell =
                gba_pac::tock_registers::LocalRegisterCopy::<u64, ARRIVAL::Register>::new(doorbell);
            let sequence = doorbell.read(ARRIVAL::SEQUENCE) as u32;
            if sequence == state.release_seq {
                continue;
            }
            if doorbell.read(ARRIVAL::MEMBER_ID) != p as u64 {
                return self.fail_group(g, state, ErrorCode::BAD_MEMBER);
            }
            if sequence != expected {
                return self.fail_group(g, state, ErrorCode::SEQ_ERROR);
            }
            if self.dropped(p, g, sequence) || self.delayed(p, g, sequence, now) {
                continue;
            }
            state.arrived.insert(p);
            changed = true;
        }
        let complete = state.arrived == state.mask;
        let delay = self.header(l::H_RELEASE_DELAY_NS).load();
        // An arrival that completes the episode (with no release delay) is released in this
        // same step, which clears ARRIVED_MASK and ARRIVAL_COUNT again: publishing them first
        // would only cost every member's port a cache-line transfer on the critical path.
        if changed && !(complete && delay == 0) {
            for m in state.mask.iter() {
                self.publish_arrived(m, g, &state.arrived);
            }
            state.store_arrived(self, g, self.words());
        }
        if !complete {
            return;
        }
        if delay > 0 {
            let due = self.group_state(g, l::G_RELEASE_DUE_NS).load();
            if due == 0 {
                self.group_state(g, l::G_RELEASE_DUE_NS).store(now + delay);
                return;
            }
            if now < due {
                return;
            }
        }
        self.release_to(g, state, expected);
    }

    /// Releases every episode up to `sequence` (one, or several that the fast path released
    /// since the last step): raises every member's flag to it (idempotent, never backwards),
    /// then the registers and counters. Counters grow by the number of episodes.
    fn release_to(&self, g: usize, state: &mut GroupState, sequence: u32) {
        let episodes = u64::from(sequence.wrapping_sub(state.release_seq));
        let members = state.mask;
        for p in members.iter() {
            let regs = self.group_regs(p, g);
            let dead = self.port_state(p, l::P_DEAD).load() != 0;
            match self.dma_word(p, regs.release_addr().device_side().get()) {
                // Never move a flag backwards (serial-number order on the wire's 32 bits), also
                // when a fast-path releaser raises it at the same time.
                Some(flag) if !dead => arrival_word::raise(&flag, sequence),
                Some(_) => {}
                None => return self.fail_group(g, state, ErrorCode::DMA_FAULT),
            }
            let first_time = self.release_seq(p, g) != sequence;
            self.publish_arrived(p, g, &Mask::default());
            self.modify_status(p, g, STATUS::COMPLETE::SET + STATUS::ACTIVE::CLEAR);
            if first_time {
                self.add_barriers_completed(p, episodes);
                self.set_release_seq(p, g, sequence);
            }
        }
        state.arrived = Mask::default();
        state.release_seq = sequence;
        self.group_state(g, l::G_RELEASE_DUE_NS).store(0);
        state.store_arrived(self, g, self.words());
        self.group_state(g, l::G_RELEASE_SEQ)
            .store(u64::from(sequence));
    }

    /// The group stops: every joined member reads ERROR with `code` and no longer READY.
    fn fail_group(&self, g: usize, state: &mut GroupState, code: ErrorCode) {
        for p in state.joined.iter() {
            self.set_status(
                p,
                g,
                STATUS::ERROR::SET + STATUS::ERROR_CODE.val(code as u64),
            );
        }
        state.flags = (state.flags | l::GF_ERROR) & !l::GF_READY;
        state.error = code;
        self.group_state(g, l::G_ERROR_CODE).store(code as u64);
        self.group_state(g, l::G_FLAGS).store(state.flags);
    }

    /// ARRIVED_MASK, ARRIVAL_COUNT and STATUS.ACTIVE of port `p` for `arrived`.
    fn publish_arrived(&self, p: usize, g: usize, arrived: &Mask) {
        self.set_arrived(p, g, arrived, self.words());
        let active = if arrived.is_empty() {
            STATUS::ACTIVE::CLEAR
        } else {
            STATUS::ACTIVE::SET
        };
        self.modify_status(p, g, active);
    }

    fn read_mask(&self, p: usize, g: usize) -> Mask {
        let regs = self.group_regs(p, g);
        let mut mask = Mask::default();
        for (w, word) in mask.0.iter_mut().enumerate() {
            if let Some(reg) = regs.member_mask(w) {
                *word = reg.device_side().get();
            }
        }
        mask
    }

    fn dropped(&self, p: usize, g: usize, sequence: u32) -> bool {
        self.consume_fault(p, g, sequence, l::P_DROP_REMAINING, l::P_DROPPED)
    }

    fn delayed(&self, p: usize, g: usize, sequence: u32, now: u64) -> bool {
        let record = arrival_record(g, sequence);
        let until = self.port_state(p, l::P_DELAYED_UNTIL_NS);
        if self.port_state(p, l::P_DELAYED).load() == record {
            return now < until.load();
        }
        if self.consume_fault(p, g, sequence, l::P_DELAY_REMAINING, l::P_DELAYED) {
            until.store(now + self.port_state(p, l::P_DELAY_NS).load());
            return true;
        }
        false
    }

    /// Whether the arrival (g, sequence) of port p is the one a fault holds back, taking one
    /// from the fault's remaining count when a new arrival comes.
    fn consume_fault(
        &self,
        p: usize,
        g: usize,
        sequence: u32,
        remaining: usize,
        held: usize,
    ) -> bool {
        let record = arrival_record(g, sequence);
        let held = self.port_state(p, held);
        if held.load() == record {
            return true;
        }
        let remaining = self.port_state(p, remaining);
        let left = remaining.load();
        if left == 0 {
            return false;
        }
        remaining.store(left - 1);
        held.store(record);
        true
    }

    pub(crate) fn group_regs(&self, p: usize, g: usize) -> group::Group<Atomic> {
        self.window(p)
            .group(g)
            .expect("the engine iterates over the spec's groups only")
    }

    /// Mask words that can hold a member of this fabric.
    fn words(&self) -> usize {
        self.ports().div_ceil(64).min(MASK_WORDS)
    }

    /// The global block of port `p`.
    pub fn global(&self, p: usize) -> global::Global<Atomic> {
        self.window(p).global()
    }
}

/// The bits of a held-arrival record that say "valid, of group g".
fn held_for(g: usize) -> u64 {
    l::RECORD_VALID | (g as u64) << 32
}

fn arrival_record(g: usize, sequence: u32) -> u64 {
    l::RECORD_VALID | (g as u64) << 32 | u64::from(sequence)
}

/// The switch's own view of one group, loaded at the start of its step and written back in
/// pieces as the step changes it.
#[derive(Clone, Copy, Debug)]
struct GroupState {
    flags: u64,
    error: ErrorCode,
    release_seq: u32,
    mask: Mask,
    joined: Mask,
    arrived: Mask,
}

impl Default for GroupState {
    fn default() -> Self {
        GroupState {
            flags: 0,
            error: ErrorCode::NONE,
            release_seq: 0,
            mask: Mask::default(),
            joined: Mask::default(),
            arrived: Mask::default(),
        }
    }
}

impl GroupState {
    fn load(f: &Fabric, g: usize) -> Self {
        let words = f.words();
        let read = |base: usize| {
            let mut mask = Mask::default();
            for (w, word) in mask.0.iter_mut().take(words).enumerate() {
                *word = f.group_state(g, base + w).load();
            }
            mask
        };
        let code = f.group_state(g, l::G_ERROR_CODE).load();
        GroupState {
            flags: f.group_state(g, l::G_FLAGS).load(),
            error: error_code(code),
            release_seq: f.group_state(g, l::G_RELEASE_SEQ).load() as u32,
            mask: read(l::G_MASK),
            joined: read(l::G_JOINED),
            arrived: read(l::G_ARRIVED),
        }
    }

    fn store_words(f: &Fabric, g: usize, base: usize, mask: &Mask, words: usize) {
        for w in 0..words {
            f.group_state(g, base + w).store(mask.0[w]);
        }
    }

    fn store_joined(&self, f: &Fabric, g: usize, words: usize) {
        Self::store_words(f, g, l::G_JOINED, &self.joined, words);
    }

    fn store_arrived(&self, f: &Fabric, g: usize, words: usize) {
        Self::store_words(f, g, l::G_ARRIVED, &self.arrived, words);
    }

    fn store_all(&self, f: &Fabric, g: usize, words: usize) {
        Self::store_words(f, g, l::G_MASK, &self.mask, words);
        self.store_joined(f, g, words);
        self.store_arrived(f, g, words);
        f.group_state(g, l::G_RELEASE_SEQ)
            .store(u64::from(self.release_seq));
        f.group_state(g, l::G_ERROR_CODE).store(self.error as u64);
        f.group_state(g, l::G_RELEASE_DUE_NS).store(0);
        f.group_state(g, l::G_FLAGS).store(self.flags);
    }
}

/// The named ERROR_CODE for a raw value (the switch only ever stores named ones).
pub(crate) fn error_code(raw: u64) -> ErrorCode {
    use gba_pac::tock_registers::fields::TryFromValue;
    ErrorCode::try_from_value(raw).unwrap_or(ErrorCode::NONE)
}
