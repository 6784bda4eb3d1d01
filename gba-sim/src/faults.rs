//! Fault injection, and the clean-up of what crashed processes leave behind.
//!
//! Faults are state in the switch file, so any process (a test, `gba sim fault`) can inject
//! them into a fabric that other processes are using; the engine applies them as it steps.

use std::time::Duration;

use gba_pac::group::CONTROL;
use gba_pac::tock_registers::interfaces::{Readable, Writeable};

use crate::error::{Error, Result};
use crate::fabric::Fabric;
use crate::layout::{self as l, GROUPS, MASK_WORDS};

// What `Fabric::reclaim_dead` reports is gba-hal's `Reclaimed`, as a device's own sweep's:
// one type for a reset dead claim.
use gba_hal::Reclaimed;

impl Fabric {
    fn check_group(&self, group: usize) -> Result<()> {
        if group < GROUPS {
            Ok(())
        } else {
            Err(Error::NoSuchGroup {
                group,
                groups: GROUPS,
            })
        }
    }

    /// The next `count` arrivals of member `port` (in any group) are lost: the switch never
    /// counts them, so the episode cannot complete.
    pub fn drop_arrivals(&self, port: usize, count: u64) -> Result<()> {
        self.check_port(port)?;
        self.with_fast_paths_closed(|| self.port_state(port, l::P_DROP_REMAINING).store(count));
        Ok(())
    }

    /// The next `count` arrivals of member `port` are counted only `delay` after the switch
    /// first sees them.
    pub fn delay_arrivals(&self, port: usize, count: u64, delay: Duration) -> Result<()> {
        self.check_port(port)?;
        self.with_fast_paths_closed(|| {
            self.port_state(port, l::P_DELAY_NS)
                .store(delay.as_nanos() as u64);
            self.port_state(port, l::P_DELAY_REMAINING).store(count);
        });
        Ok(())
    }

    /// Every release happens `delay` after the last arrival (zero: at once).
    pub fn delay_releases(&self, delay: Duration) {
        self.with_fast_paths_closed(|| {
            self.header(l::H_RELEASE_DELAY_NS)
                .store(delay.as_nanos() as u64)
        });
    }

    /// Member `port` is dead (or alive again): the switch ignores its arrivals and writes no
    /// release flag of it, as if its host had crashed.
    pub fn mark_dead(&self, port: usize, dead: bool) -> Result<()> {
        self.check_port(port)?;
        self.with_fast_paths_closed(|| self.port_state(port, l::P_DEAD).store(u64::from(dead)));
        Ok(())
    }

    /// Whether port `port` was marked dead ([`mark_dead`](Self::mark_dead)).
    pub fn is_dead(&self, port: usize) -> bool {
        port < self.ports() && self.port_state(port, l::P_DEAD).load() != 0
    }

    /// Flips bit `member` of port `port`'s MEMBER_MASK for `group`, as a corrupted
    /// configuration would; the switch compares the members' masks at its next step.
    pub fn corrupt_mask(&self, port: usize, group: usize, member: usize) -> Result<()> {
        self.check_port(port)?;
        self.check_group(group)?;
        if member >= MASK_WORDS * 64 {
            return Err(Error::NoSuchPort {
                port: member,
                ports: MASK_WORDS * 64,
                path: self.dir().to_path_buf(),
            });
        }
        let word = self
            .group_regs(port, group)
            .member_mask(member / 64)
            .expect("member / 64 < MASK_WORDS")
            .device_side();
        self.with_fast_paths_closed(|| {
            word.set(word.get() ^ (1 << (member % 64)));
            let flags = self.group_state(group, l::G_FLAGS);
            flags.store(flags.load() | l::GF_RECHECK);
        });
        Ok(())
    }

    /// The next time `group` is formed (its first member joins), its sequence starts at
    /// `sequence` instead of 0: how tests reach the 2^32 wrap without 4 billion episodes.
    pub fn start_sequence(&self, group: usize, sequence: u32) -> Result<()> {
        self.check_group(group)?;
        self.group_state(group, l::G_START_SEQ)
            .store(l::START_SEQ_SET | u64::from(sequence));
        Ok(())
    }

    /// Resets every group that a dead process configured (its recorded owner no longer
    /// exists) or that a port marked dead belongs to, as that process's own clean-up would
    /// have: the group leaves the port, and once its survivors release it too, it is free
    /// for the next job. Returns what was reset.
    pub fn reclaim_dead(&self) -> Vec<Reclaimed> {
        let mut reclaimed = Vec::new();
        for port in 0..self.ports() {
            let port_dead = self.is_dead(port);
            for group in 0..GROUPS {
                reclaimed.extend(self.reclaim_on(port, group, port_dead));
            }
            if port_dead {
                let _ = self.mark_dead(port, false);
            }
        }
        // The switch processes the resets at once, so that GROUPS_BUSY (what `free_groups`
        // reads) no longer shows a group nobody holds any more.
        if !reclaimed.is_empty() {
            self.step();
        }
        reclaimed
    }

    /// Runs `claim`, port `port`'s claim of `group`; when it is won, resets `group` on this
    /// port if a dead claimant left it enabled, and on every other port whose claim is dead
    /// (freeing those claims), and steps.
    ///
    /// On real hardware each host's next claimant resets its own port, but a port of this
    /// fabric whose killed job has no successor would keep the group joined with the dead
    /// job's member set, and the next configuration would be refused (MASK_MISMATCH,
    /// GROUP_BUSY) or wait for READY for ever. Every port's host segment is in this fabric,
    /// so the winner clears them as `reclaim_dead` does.
    ///
    /// When this port's group is enabled before the claim (what a dead claimant left: a clean
    /// release leaves CONTROL 0), the claim and that reset run under the step lock: the
    /// switch takes in joins only in a step, so no other port's configuration is checked
    /// against the dead job's between this port's take-over and its reset. Otherwise (every
    /// configuration of a fresh group) no lock and, with nothing to reset, no step: a
    /// configuration costs the switch one step per CONTROL store (tests/configure_steps.rs).
    pub(crate) fn claim_reclaiming(
        &self,
        group: usize,
        port: usize,
        claim: impl FnOnce() -> gba_hal::Claim,
    ) -> gba_hal::Claim {
        if group >= GROUPS {
            return claim();
        }
        let enabled = |p: usize| {
            self.group_regs(p, group)
                .control()
                .device_side()
                .is_set(CONTROL::ENABLE)
        };
        let guard = enabled(port).then(|| self.lock_step());
        let outcome = claim();
        if outcome != gba_hal::Claim::Won {
            return outcome;
        }
        let stale_here = enabled(port);
        if stale_here {
            self.group_regs(port, group)
                .control()
                .write(CONTROL::RESET::SET);
        }
        let mut reset = stale_here;
        // Only a port where the group is enabled can hold the switch's state against this
        // configuration; a claim of this process (another thread's) is alive. What remains
        // costs a liveness check per port (a team's live members, typically).
        let me = gba_hal::host::process::my_pid();
        for p in (0..self.ports()).filter(|&p| p != port) {
            if enabled(p) && self.group_owner(p, group).is_some_and(|pid| pid != me) {
                reset |= self.reclaim_on(p, group, false).is_some();
            }
        }
        if reset {
            match guard {
                Some(_) => self.step_locked(),
                None => self.step(),
            }
        }
        outcome
    }

    /// Port `port`'s side of `HostArbiter::reclaim_other_ports`: on every other port of the
    /// fabric, each claim of `groups` (bit g) that only dead processes hold is taken over (the
    /// claim word's compare-exchange against the dead claimant's, as a claim's take-over is),
    /// its group RESET on that port; one step takes the resets in, and only then are the
    /// claims freed and `each` called. A live claim, or one a live process takes between our
    /// reading and our compare-exchange, is untouched.
    ///
    /// What `Device::free_groups` asks a port's arbiter for: a killed job's group on ports
    /// 0, 1 and 2 would otherwise stay enabled on port 2, busy switch-wide, until someone
    /// opened port 2 or ran `gba sim fault reclaim`, and a team on ports 0 and 1 never picked
    /// it again.
    pub(crate) fn reclaim_other_ports(
        &self,
        port: usize,
        groups: gba_hal::GroupSet,
        each: &mut dyn FnMut(&Reclaimed),
    ) {
        let me = gba_hal::host::process::my_pid();
        let mut taken = Vec::new();
        for g in groups.iter().filter(|&g| g < GROUPS) {
            for p in (0..self.ports()).filter(|&p| p != port) {
                // A free record, or one of this process (alive), costs no liveness check.
                if self.group_owner(p, g).is_none_or(|pid| pid == me) {
                    continue;
                }
                let segment = self.host_segment(p);
                // Who held it, for `each`: read before the take-over overwrites the record.
                let uid = segment.claim_uid(g);
                let Some(pid) = segment.take_dead_claim(g) else {
                    continue; // alive, or taken meanwhile by a live process
                };
                self.group_regs(p, g).control().write(CONTROL::RESET::SET);
                self.control_written(g);
                taken.push(Reclaimed {
                    port: p,
                    group: g,
                    pid: Some(pid),
                    uid,
                });
            }
        }
        if taken.is_empty() {
            return;
        }
        // Reset, then release: the switch takes the resets in before a claim of ours is
        // freed, so the port's next winner configures a group the dead job has left.
        self.step();
        for r in &taken {
            self.free_claim(r.port, r.group);
            each(r);
        }
    }

    /// Resets `group` on `port` if its claim's processes are all dead (or, with `port_dead`,
    /// if the group is enabled there), freeing the dead claim.
    fn reclaim_on(&self, port: usize, group: usize, port_dead: bool) -> Option<Reclaimed> {
        let regs = self.group_regs(port, group);
        let enabled = regs.control().device_side().is_set(CONTROL::ENABLE);
        // Take the dead owner's claim by CAS, so that a live process that reclaimed it at
        // the same time (and is configuring the group) is not reset here.
        // Who held it, for the report: read before the take-over overwrites the record.
        let uid = self.host_segment(port).claim_uid(group);
        let owner = self.take_dead_claim(port, group);
        let owner_dead = owner.is_some();
        let reset = owner_dead || (port_dead && enabled);
        if reset {
            regs.control().write(CONTROL::RESET::SET);
        }
        if owner_dead {
            self.free_claim(port, group);
        }
        reset.then_some(Reclaimed {
            group,
            port,
            pid: owner,
            uid: owner.and(uid),
        })
    }
}
