//! An opened device: its registers, identity, free groups, and the groups claimed through it.

use core::fmt;
use core::sync::atomic::{AtomicU32, Ordering};

use gba_pac::common::Scoped;
use gba_pac::group::CONTROL;
use gba_pac::tock_registers::interfaces::Readable;

use crate::arbiter::{ClaimSets, Reclaimed};
use crate::backend::{Backend, WindowMechanism};
use crate::config::GroupConfig;
use crate::diag::GroupSnapshot;
use crate::error::{Error, Result};
use crate::group::Group;
use crate::identity::Identity;
use crate::members::GroupSet;

/// How long [`Device::free_groups`] waits for the RESET of a dead process's group.
const RECLAIM_TIMEOUT: core::time::Duration = core::time::Duration::from_secs(1);

/// A GBA port, through a backend. Share it between threads by reference: claims are safe
/// from several threads at once.
pub struct Device<B: Backend> {
    backend: B,
    regs: gba_pac::Device<B::Mechanism>,
    identity: Identity,
    /// Groups claimed through this device and not yet released (bit g: group g).
    claimed: AtomicU32,
}

impl<B: Backend> Device<B> {
    /// Opens the device behind `backend`: reads DEVICE_ID, VERSION, CAPS and PORT_ID and
    /// refuses anything that is not a GBA of a supported major version.
    pub fn new(backend: B) -> Result<Self> {
        // SAFETY: the `Backend` contract: the window is a mapping of at least Device::SIZE
        // bytes, 8-aligned, unreferenced, accessed only with `B::Mechanism`'s accesses, and it
        // stays where it is for as long as `backend` lives, which `self` owns.
        let regs = unsafe { B::Mechanism::device_at(backend.window()) };
        let identity = Identity::read(regs.global())?;
        Ok(Device {
            backend,
            regs,
            identity,
            claimed: AtomicU32::new(0),
        })
    }

    /// The register window, for reading anything the HAL does not decode. Every handle
    /// reached from it borrows this device, so none outlives the mapping.
    pub fn registers(&self) -> gba_pac::Device<Scoped<'_, B::Mechanism>> {
        self.regs.scoped()
    }

    /// What the device said it is when opened.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The backend the device is reached through.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// Lets the device make progress (steps the simulator; nothing on hardware).
    pub fn progress(&self) {
        self.backend.progress();
    }

    /// Makes the device take in every store made before the call (see [`Backend::settle`]):
    /// what a tool calls between a [`write_raw`](Self::write_raw) and the
    /// [`read_raw`](Self::read_raw) that checks its effect. Nothing on hardware.
    pub fn settle(&self) {
        self.backend.settle();
    }

    /// Groups enabled on no port of the switch (GROUPS_BUSY clear), not claimed through this
    /// device, and not held by a live owner in the host's claim records: the set a member
    /// contributes when the members agree on a group id.
    ///
    /// A group whose claim on this port only dead processes hold (a job killed with SIGKILL
    /// runs no clean-up) is reset on this port and its claim freed first, as the dead
    /// process's own drop would have done: otherwise it stayed enabled, busy switch-wide, and
    /// no team would ever pick it again. Then a group still busy switch-wide that nobody holds
    /// here is offered to the arbiter's
    /// [`reclaim_other_ports`](crate::HostArbiter::reclaim_other_ports): on the simulator,
    /// whose fabric holds every port's host state, the dead claims of the other ports are
    /// taken over and reset too, so a killed job's group on ports 0, 1 and 2 is free again for
    /// a team on ports 0 and 1. On hardware each host sweeps its own port (here, or with `gba
    /// reclaim` in a job's epilog); the group is free once every port it was on has been swept
    /// (or claimed again).
    pub fn free_groups(&self) -> GroupSet {
        let all = self.all_groups();
        let host = self.backend.host();
        let ClaimSets { held, dead } = host.claim_sets();
        let (held, dead) = (held.0, dead.0);
        if dead & all != 0 {
            self.reclaim_here(dead & all, None);
        }
        let claimed = self.claimed.load(Ordering::Acquire);
        let mut busy = self.regs.global().groups_busy().get();
        // Only a group busy switch-wide and held by nobody here can be stuck on another port
        // by a dead claim; the other groups cost nothing here.
        let elsewhere = busy & all & !held & !claimed;
        if elsewhere != 0 {
            let mut reset = false;
            host.reclaim_other_ports(GroupSet(elsewhere), &mut |_| reset = true);
            if reset {
                busy = self.regs.global().groups_busy().get();
            }
        }
        GroupSet(all & !busy & !held & !claimed)
    }

    /// Takes over and resets every group of this port whose claim only dead processes hold
    /// (or another user holds beyond the port's quota, which a claim would take over the same
    /// way), and frees the claim, calling `each` with what it reset: the dead claimant's pid
    /// and uid as the claim named them. Where the arbiter reaches the switch's other ports
    /// (the simulator), their dead claims of any group are reclaimed too
    /// ([`HostArbiter::reclaim_other_ports`](crate::HostArbiter::reclaim_other_ports)). A live
    /// claim is never touched: each take-over is the claim word's compare-exchange against the
    /// dead claimant's.
    ///
    /// What [`free_groups`](Self::free_groups) does on the way, for a tool that frees a
    /// killed job's groups when no other job follows on the node (`gba reclaim`, a Slurm
    /// epilog). An arbiter that frees dead claims itself (the kernel driver) has none.
    pub fn reclaim_dead_with(&self, each: &mut dyn FnMut(&Reclaimed)) {
        let all = self.all_groups();
        let host = self.backend.host();
        let dead = host.claim_sets().dead.0;
        if dead & all != 0 {
            self.reclaim_here(dead & all, Some(&mut *each));
        }
        host.reclaim_other_ports(GroupSet(all), each);
    }

    /// [`reclaim_dead_with`](Self::reclaim_dead_with), collected.
    #[cfg(feature = "std")]
    pub fn reclaim_dead(&self) -> Vec<Reclaimed> {
        let mut list = Vec::new();
        self.reclaim_dead_with(&mut |r| list.push(*r));
        list
    }

    /// Every group of this device (bit g: group g < MAX_GROUPS).
    fn all_groups(&self) -> u32 {
        match self.identity.max_groups {
            32.. => u32::MAX,
            n => (1u32 << n) - 1,
        }
    }

    /// Takes over each of `dead`'s claims (bit g) whose processes are all dead, resets the
    /// group on this port and frees the claim, calling `each` (if any) with it.
    fn reclaim_here(&self, dead: u32, mut each: Option<&mut dyn FnMut(&Reclaimed)>) {
        let host = self.backend.host();
        // Who held each claim, read before the take-over (which overwrites the record), for
        // `each`: one report per claim that is not free (each costing a liveness check, so
        // only when someone asks).
        let mut named = [(0u64, None); 32];
        if each.is_some() {
            host.claims(&mut |c| {
                if let Some(slot) = named.get_mut(c.group) {
                    *slot = (c.pid, c.uid);
                }
            });
        }
        for g in (0..32).filter(|g| dead & (1 << g) != 0) {
            if !host.take_dead(g) {
                continue; // taken meanwhile by a live process, which resets it itself
            }
            let regs = self.group_regs(g);
            regs.control().write(CONTROL::RESET::SET);
            self.backend.after_control(g);
            // Bounded as a dropped group's reset is; the claim is freed either way (the next
            // winner resets the group again before configuring it). The dead process's
            // release flag is not freed: the device may still write it until the reset.
            let _ = self.wait_until(Some(RECLAIM_TIMEOUT), || {
                !regs.control().is_set(CONTROL::RESET)
            });
            host.release(g);
            if let Some(each) = each.as_mut() {
                let (pid, uid) = named[g];
                each(&Reclaimed {
                    port: self.identity.port,
                    group: g,
                    pid: Some(pid),
                    uid,
                });
            }
        }
    }

    /// Claims group `config.group()` (an id the members agreed on) and configures it as
    /// docs/datasheet.md section 4 says, waiting for READY. The configuration is validated against
    /// CAPS and PORT_ID before any register is written. Dropping the returned group resets
    /// and disables it on this port.
    ///
    /// A claim that loses to another job fails with [`Error::GroupBusy`], which is
    /// retryable: agree on another id.
    pub fn claim(&self, config: GroupConfig) -> Result<Group<'_, B>> {
        self.claim_until(config, || false)
    }

    /// As [`claim`](Self::claim), giving up with [`Error::Cancelled`] as soon as `give_up`
    /// returns true (it is called between polls of RESET and READY): a runtime that learns
    /// another member failed, or a user's interrupt, need not wait out the configure timeout.
    pub fn claim_until(
        &self,
        config: GroupConfig,
        mut give_up: impl FnMut() -> bool,
    ) -> Result<Group<'_, B>> {
        config.validate(&self.identity)?;
        let group = config.group();
        let bit = 1u32 << group;
        if self.claimed.fetch_or(bit, Ordering::AcqRel) & bit != 0 {
            return Err(Error::AlreadyClaimed { group });
        }
        match Group::configure(self, config, &mut give_up) {
            Ok(group) => Ok(group),
            Err(e) => {
                self.unclaim(group);
                Err(e)
            }
        }
    }

    pub(crate) fn unclaim(&self, group: usize) {
        self.claimed.fetch_and(!(1 << group), Ordering::AcqRel);
    }

    /// The group's state as this port sees it, for diagnosing a hang.
    pub fn snapshot(&self, group: usize) -> Result<GroupSnapshot> {
        let regs = self
            .regs
            .group(group)
            .filter(|_| group < self.identity.max_groups);
        let Some(regs) = regs else {
            return Err(Error::NoSuchGroup {
                group,
                groups: self.identity.max_groups,
            });
        };
        Ok(GroupSnapshot::read(group, regs, self.regs.global()))
    }

    /// Reads the `width`-bit register at byte `offset` of the window with the backend's
    /// mechanism, for tools that decode registers from a description (`gba dump`). `None`
    /// when the register is not inside the window, not aligned, or the width is not 32 or 64.
    /// It reads whatever is there: do not use it on registers whose read has a side effect.
    pub fn read_raw(&self, offset: usize, width: u32) -> Option<u64> {
        let bytes = (width / 8) as usize;
        if !matches!(width, 32 | 64)
            || !offset.is_multiple_of(bytes)
            || offset.checked_add(bytes)? > gba_pac::Device::SIZE
        {
            return None;
        }
        let ptr = self.regs.as_ptr().wrapping_add(offset);
        // SAFETY: `offset..offset + bytes` lies inside the window (checked above), aligned for
        // the width; the window is valid for reads with the backend's mechanism for as long
        // as `self` lives (the `Backend` contract).
        Some(unsafe {
            if width == 32 {
                u64::from(<B::Mechanism as gba_pac::common::Mechanism<u32>>::load(
                    ptr.cast(),
                ))
            } else {
                <B::Mechanism as gba_pac::common::Mechanism<u64>>::load(ptr.cast())
            }
        })
    }

    /// Writes `value` (its low `width` bits) into the `width`-bit register at byte `offset` of
    /// the window with the backend's mechanism, for tools that drive registers from a
    /// description (`gba verify --device`, a board's bring-up). `false` (nothing written) on the same terms as
    /// [`read_raw`](Self::read_raw) returns `None`. It writes whatever it is given, bypassing
    /// the claims: a write into a group another process holds disturbs that process.
    pub fn write_raw(&self, offset: usize, width: u32, value: u64) -> bool {
        let bytes = (width / 8) as usize;
        if !matches!(width, 32 | 64)
            || !offset.is_multiple_of(bytes)
            || offset
                .checked_add(bytes)
                .is_none_or(|end| end > gba_pac::Device::SIZE)
        {
            return false;
        }
        let ptr = self.regs.as_ptr().wrapping_add(offset);
        // SAFETY: as in `read_raw`: `offset..offset + bytes` lies inside the window, aligned
        // for the width, and the window is valid for writes with the backend's mechanism for
        // as long as `self` lives (the `Backend` contract).
        unsafe {
            if width == 32 {
                <B::Mechanism as gba_pac::common::Mechanism<u32>>::store(ptr.cast(), value as u32);
            } else {
                <B::Mechanism as gba_pac::common::Mechanism<u64>>::store(ptr.cast(), value);
            }
        }
        true
    }

    /// Calls `progress` and spins or yields until `done` or `timeout` passes (`None`: for
    /// ever).
    pub(crate) fn wait_until(
        &self,
        timeout: Option<core::time::Duration>,
        mut done: impl FnMut() -> bool,
    ) -> bool {
        let start = self.backend.now_ns();
        let limit = timeout.map(|t| u64::try_from(t.as_nanos()).unwrap_or(u64::MAX));
        loop {
            if done() {
                return true;
            }
            if limit.is_some_and(|limit| self.backend.now_ns().saturating_sub(start) > limit) {
                return done();
            }
            self.backend.progress();
            relax();
        }
    }
}

/// Gives the core to others between polls of a slow condition.
fn relax() {
    #[cfg(feature = "std")]
    std::thread::yield_now();
    #[cfg(not(feature = "std"))]
    core::hint::spin_loop();
}

impl<B: Backend> fmt::Debug for Device<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Describe<'a, B: Backend>(&'a B);
        impl<B: Backend> fmt::Debug for Describe<'_, B> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.describe(f)
            }
        }
        f.debug_struct("Device")
            .field("backend", &Describe(&self.backend))
            .field("identity", &self.identity)
            .field("claimed", &GroupSet(self.claimed.load(Ordering::Relaxed)))
            .finish()
    }
}

impl<B: Backend> fmt::Display for Device<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.backend.describe(f)
    }
}

/// Shorthand used by the group module.
pub(crate) type Regs<'d, B> = gba_pac::group::Group<Scoped<'d, <B as Backend>::Mechanism>>;

impl<B: Backend> Device<B> {
    pub(crate) fn group_regs<'d>(&'d self, group: usize) -> Regs<'d, B> {
        self.registers()
            .group(group)
            .expect("claimed groups are validated against MAX_GROUPS")
    }
}
