//! A claimed, configured group and its release flag. Dropping it resets and disables the group
//! on this port.

use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;

use gba_pac::common::Scoped;
use gba_pac::common::{Reg, Wo};
use gba_pac::group::STATUS::ERROR_CODE::Value as ErrorCode;
use gba_pac::group::{ARRIVAL, CONTROL, LOCAL_MEMBER_ID, MEMBER_COUNT, RELEASE_SEQ, STATUS};
use gba_pac::tock_registers::interfaces::{Readable, Writeable};

use crate::arbiter::Claim;
use crate::backend::{Backend, DmaRegion, LocalArrivals};
use crate::config::GroupConfig;
use crate::device::Device;
use crate::diag::GroupSnapshot;
use crate::error::{Error, Result};
use crate::members::MemberSet;

/// How long dropping a group waits for the device to finish its RESET before giving up on
/// freeing the release flag (which the device might still write).
const RELEASE_TIMEOUT: Duration = Duration::from_secs(1);

/// Bytes of a release flag: a whole cache line, so that nothing else shares it.
const FLAG_BYTES: usize = 64;

/// The 64-bit word the switch writes each completed episode's sequence into. Zeroed, 64-byte
/// aligned and alone on its cache line; read only with atomic loads.
pub struct ReleaseFlag {
    region: DmaRegion,
}

impl ReleaseFlag {
    /// The flag's value with acquire ordering: what every member did before arriving at the
    /// episode this value releases is visible after this load.
    #[inline(always)]
    pub fn load(&self) -> u64 {
        // SAFETY: the backend contract makes the region 64-aligned host memory, valid until
        // freed (which only happens when the group is dropped, after `self` is done), and
        // accessed by the host only atomically.
        unsafe { AtomicU64::from_ptr(self.region.host.as_ptr().cast()) }.load(Ordering::Acquire)
    }

    fn store(&self, value: u64) {
        // SAFETY: as for `load`.
        unsafe { AtomicU64::from_ptr(self.region.host.as_ptr().cast()) }
            .store(value, Ordering::Release)
    }

    /// The device address written into RELEASE_ADDR.
    pub fn iova(&self) -> u64 {
        self.region.iova
    }
}

impl fmt::Debug for ReleaseFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReleaseFlag")
            .field("iova", &format_args!("{:#x}", self.region.iova))
            .field("value", &self.load())
            .finish()
    }
}

/// A group this port belongs to, configured and READY.
pub struct Group<'d, B: Backend> {
    device: &'d Device<B>,
    id: usize,
    members: MemberSet,
    flag: ReleaseFlag,
    start_sequence: u32,
    /// The claim is held (published, or joined): leaving goes through `leave_group`.
    held: bool,
    /// The host's local-arrivals block when the team has several processes on this port.
    local_arrivals: Option<LocalArrivals>,
}

impl<'d, B: Backend> Group<'d, B> {
    /// RESET, member set, count, local id, release address, ENABLE|ARM, then READY.
    pub(crate) fn configure(
        device: &'d Device<B>,
        config: GroupConfig,
        give_up: &mut dyn FnMut() -> bool,
    ) -> Result<Self> {
        let id = config.group();
        let timeout = config.configure_timeout();
        // The host's claim comes first: a loser returns before touching any register, so the
        // owner's group (another job's, or another device value's of this process) is intact.
        // A team-mate that is configuring the group is waited for (bounded as READY is).
        let host = device.backend().host();
        let mut claim = Claim::Wait;
        let mut gave_up = false;
        device.wait_until(timeout, || {
            claim = host.claim(id, config.local_team(), config.members());
            gave_up = claim == Claim::Wait && give_up();
            claim != Claim::Wait || gave_up
        });
        match claim {
            Claim::Won => {}
            Claim::Busy => return Err(Error::GroupBusy { group: id }),
            Claim::Refused(refusal) => {
                return Err(Error::ClaimRefused { group: id, refusal });
            }
            Claim::Wait if gave_up => return Err(Error::Cancelled { group: id }),
            Claim::Wait => {
                return Err(Error::Timeout {
                    group: id,
                    what: "a team-mate on this port to configure the group",
                    waited: timeout.unwrap_or(Duration::MAX),
                    missing: MemberSet::new(),
                });
            }
            Claim::Joined { flag } => return Self::joined(device, config, flag),
            Claim::Configured { flag } => {
                return Self::configured(device, config, flag, give_up);
            }
        }
        let region = match device.backend().alloc_flag(id, FLAG_BYTES) {
            Ok(region) => region,
            Err(e) => {
                host.release(id);
                return Err(Error::Dma {
                    len: FLAG_BYTES,
                    reason: e.reason,
                });
            }
        };
        debug_assert!(region.host.as_ptr().addr().is_multiple_of(64));
        // From here on, dropping `group` undoes everything.
        let mut group = Group {
            device,
            id,
            members: *config.members(),
            flag: ReleaseFlag { region },
            start_sequence: 0,
            held: false,
            local_arrivals: None,
        };
        let regs = device.group_regs(id);

        // Set when the caller gives up: the wait then ends at once (dropping `group` resets).
        let cancelled = core::cell::Cell::new(false);
        let mut or_give_up = |done: bool| {
            cancelled.set(cancelled.get() || (!done && give_up()));
            done || cancelled.get()
        };
        regs.control().write(CONTROL::RESET::SET);
        device.backend().after_control(id);
        // RESET is a single pulse (gba.yaml): it reads 0 once the device has taken it. The
        // RTL takes it in the cycle of the write; the simulator's switch at its next step.
        let reset = device.wait_until(timeout, || {
            or_give_up(!regs.control().is_set(CONTROL::RESET))
        });
        if cancelled.get() {
            return Err(Error::Cancelled { group: id });
        }
        if !reset {
            return Err(group.timeout("RESET to complete", timeout));
        }
        for (w, word) in config.members().words().iter().enumerate() {
            if let Some(reg) = regs.member_mask(w) {
                reg.set(*word);
            }
        }
        regs.member_count()
            .write(MEMBER_COUNT::COUNT.val(config.members().len() as u32));
        regs.local_member_id()
            .write(LOCAL_MEMBER_ID::ID.val(device.identity().port as u32));
        regs.release_addr().set(group.flag().iova());
        // Release: the switch reads CONTROL with acquire before the configuration, so it never
        // sees ENABLE with an older MEMBER_MASK, MEMBER_COUNT or RELEASE_ADDR.
        regs.control()
            .write_release(CONTROL::ENABLE::SET + CONTROL::ARM::SET);
        device.backend().after_control(id);

        let settled = device.wait_until(timeout, || {
            let status = regs.status().extract();
            or_give_up(status.is_set(STATUS::READY) || status.is_set(STATUS::ERROR))
        });
        if cancelled.get() {
            return Err(Error::Cancelled { group: id });
        }
        let status = regs.status().extract();
        if status.is_set(STATUS::ERROR) {
            return Err(match group.error() {
                Some(ErrorCode::GROUP_BUSY) => Error::GroupBusy { group: id },
                Some(code) => Error::Refused { group: id, code },
                None => Error::Refused {
                    group: id,
                    code: ErrorCode::NONE,
                },
            });
        }
        if !settled {
            return Err(group.timeout("READY (every member configured alike)", timeout));
        }
        // A zeroed flag would compare as released against a sequence near 2^32; the switch
        // writes the flag only at a release, which needs this member's arrival first.
        group.start_sequence = regs.release_seq().read(RELEASE_SEQ::SEQUENCE) as u32;
        group.flag().store(u64::from(group.start_sequence));
        // Publish to the team-mates on this port (release: they see the flag's value and the
        // configuration after their acquire of the claim).
        if !host.hold(id, &group.flag.region) {
            return Err(Error::GroupBusy { group: id });
        }
        group.held = true;
        group.local_arrivals = host.local_arrivals(id);
        Ok(group)
    }

    /// The arbiter configured the group for this claim (the kernel driver): this process
    /// writes no configuration, waits for READY as a winner does, and counts episodes from
    /// RELEASE_SEQ. Dropping it only leaves the claim; the arbiter resets the group.
    fn configured(
        device: &'d Device<B>,
        config: GroupConfig,
        flag: DmaRegion,
        give_up: &mut dyn FnMut() -> bool,
    ) -> Result<Self> {
        let id = config.group();
        let timeout = config.configure_timeout();
        let mut group = Group {
            device,
            id,
            members: *config.members(),
            flag: ReleaseFlag { region: flag },
            start_sequence: 0,
            held: true,
            local_arrivals: device.backend().host().local_arrivals(id),
        };
        let regs = device.group_regs(id);
        let mut cancelled = false;
        let settled = device.wait_until(timeout, || {
            let status = regs.status().extract();
            let done = status.is_set(STATUS::READY) || status.is_set(STATUS::ERROR);
            cancelled = !done && give_up();
            done || cancelled
        });
        if cancelled {
            return Err(Error::Cancelled { group: id });
        }
        if let Some(code) = group.error() {
            return Err(match code {
                ErrorCode::GROUP_BUSY => Error::GroupBusy { group: id },
                code => Error::Refused { group: id, code },
            });
        }
        if !settled {
            return Err(group.timeout("READY (every member configured alike)", timeout));
        }
        group.start_sequence = regs.release_seq().read(RELEASE_SEQ::SEQUENCE) as u32;
        // As a winner does (see `configure`), unless the arbiter's flag says it already: no
        // episode completes before this process arrives, so no release is overwritten.
        if group.flag().load() != u64::from(group.start_sequence) {
            group.flag().store(u64::from(group.start_sequence));
        }
        Ok(group)
    }

    /// A team-mate on this port won the claim, configured the group and published it: this
    /// process shares its flag and counts episodes from the same RELEASE_SEQ (no episode can
    /// complete before this process arrives, as the port's arrival needs all L of them).
    fn joined(device: &'d Device<B>, config: GroupConfig, flag: DmaRegion) -> Result<Self> {
        let id = config.group();
        let mut group = Group {
            device,
            id,
            members: *config.members(),
            flag: ReleaseFlag { region: flag },
            start_sequence: 0,
            held: true,
            local_arrivals: device.backend().host().local_arrivals(id),
        };
        let regs = device.group_regs(id);
        let status = regs.status().extract();
        if status.is_set(STATUS::ERROR) || !status.is_set(STATUS::READY) {
            return Err(match group.error() {
                Some(code) => Error::Refused { group: id, code },
                None => Error::GroupBusy { group: id },
            });
        }
        group.start_sequence = regs.release_seq().read(RELEASE_SEQ::SEQUENCE) as u32;
        Ok(group)
    }

    fn timeout(&self, what: &'static str, waited: Option<Duration>) -> Error {
        let me = self.device.identity().port;
        let mut others = self.members;
        others = others.difference(&core::iter::once(me).collect());
        Error::Timeout {
            group: self.id,
            what,
            waited: waited.unwrap_or(Duration::MAX),
            missing: others,
        }
    }

    /// The group's index.
    pub fn id(&self) -> usize {
        self.id
    }

    /// The group's members.
    pub fn members(&self) -> &MemberSet {
        &self.members
    }

    /// This port's member id (its PORT_ID).
    pub fn member_id(&self) -> usize {
        self.device.identity().port
    }

    /// The device the group was claimed on.
    pub fn device(&self) -> &'d Device<B> {
        self.device
    }

    /// The last completed episode when the group became READY (mod 2^32): the episode
    /// counter starts here.
    pub fn start_sequence(&self) -> u32 {
        self.start_sequence
    }

    /// The host's local-arrivals block: `Some` when this group is shared by several processes of
    /// a team on this port (each arrival adds to it; the one completing the host's count
    /// rings the doorbell).
    #[inline(always)]
    pub fn local_arrivals(&self) -> Option<&LocalArrivals> {
        self.local_arrivals.as_ref()
    }

    /// The group's release flag.
    #[inline(always)]
    pub fn flag(&self) -> &ReleaseFlag {
        &self.flag
    }

    /// The ARRIVAL doorbell of this group. The handle may be kept as long as the device (the
    /// register stays mapped); arriving after the group was dropped reaches a reset group.
    pub fn doorbell(&self) -> Reg<u64, ARRIVAL::Register, Wo, Scoped<'d, B::Mechanism>> {
        self.device.group_regs(self.id).arrival()
    }

    /// The group's error, if STATUS.ERROR is set.
    pub fn error(&self) -> Option<ErrorCode> {
        let status = self.device.group_regs(self.id).status().extract();
        if !status.is_set(STATUS::ERROR) {
            return None;
        }
        Some(
            status
                .read_as_enum(STATUS::ERROR_CODE)
                .unwrap_or(ErrorCode::NONE),
        )
    }

    /// The group's registers now.
    pub fn snapshot(&self) -> GroupSnapshot {
        let regs = self.device.registers();
        let mut snapshot = GroupSnapshot::read(
            self.id,
            regs.group(self.id)
                .expect("claimed groups are validated against MAX_GROUPS"),
            regs.global(),
        );
        self.device.backend().complete_snapshot(&mut snapshot);
        snapshot
    }
}

impl<B: Backend> Drop for Group<'_, B> {
    fn drop(&mut self) {
        let backend = self.device.backend();
        let host = backend.host();
        // Only the host's last process of the claim resets the group: the others' barrier
        // is still running on it (and an arbiter that resets groups itself says none is).
        if !self.held || host.leave(self.id) {
            let regs = self.device.group_regs(self.id);
            regs.control().write(CONTROL::RESET::SET);
            backend.after_control(self.id);
            let reset = self.device.wait_until(Some(RELEASE_TIMEOUT), || {
                !regs.control().is_set(CONTROL::RESET)
            });
            // If the device did not finish its RESET it may still write the flag: leaking the
            // flag is then the safe choice.
            if reset {
                backend.free_flag(self.id, self.flag.region);
            }
            host.release(self.id);
        }
        self.device.unclaim(self.id);
    }
}

impl<B: Backend> fmt::Debug for Group<'_, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Group")
            .field("id", &self.id)
            .field("members", &self.members)
            .field("member_id", &self.member_id())
            .field("start_sequence", &self.start_sequence)
            .field("flag", &self.flag)
            .finish()
    }
}
