//! A group's state as one port sees it: what a driver author reads when something hangs.

use core::fmt;

use gba_pac::global::Global;
use gba_pac::group::STATUS::ERROR_CODE::Value as ErrorCode;
use gba_pac::group::{ARRIVAL_COUNT, Group, MEMBER_COUNT, RELEASE_SEQ, STATUS};
use gba_pac::tock_registers::interfaces::Readable;

use crate::members::{GroupSet, MemberSet};

/// One group of this port as its registers show it, for diagnosis and timeouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupSnapshot {
    /// The group's index.
    pub group: usize,
    /// MEMBER_MASK as this port configured it.
    pub members: MemberSet,
    /// MEMBER_COUNT.
    pub member_count: u32,
    /// ARRIVED_MASK: members arrived for the pending episode.
    pub arrived: MemberSet,
    /// ARRIVAL_COUNT: members arrived for the pending episode.
    pub arrival_count: u32,
    /// RELEASE_SEQ: the sequence of the last release.
    pub release_seq: u32,
    /// STATUS.READY: configured on every member's port.
    pub ready: bool,
    /// STATUS.ACTIVE: an episode is in progress.
    pub active: bool,
    /// STATUS.COMPLETE: the last episode completed.
    pub complete: bool,
    /// STATUS.ERROR with its code.
    pub error: Option<ErrorCode>,
    /// Whether the group is enabled on this port and on any port of the switch.
    pub enabled_here: bool,
    /// GROUPS_BUSY: the group is enabled on some port of the switch.
    pub busy_on_switch: bool,
    /// BARRIERS_COMPLETED of this port (all groups).
    pub port_barriers_completed: u64,
}

impl GroupSnapshot {
    pub(crate) fn read<
        M: gba_pac::common::Mechanism<u32> + gba_pac::common::Mechanism<u64> + Copy,
    >(
        group: usize,
        regs: Group<M>,
        global: Global<M>,
    ) -> Self {
        let words = |arrived: bool| {
            let mut out = [0u64; crate::members::WORDS];
            for (w, word) in out.iter_mut().enumerate() {
                let reg = if arrived {
                    regs.arrived_mask(w).map(|r| r.get())
                } else {
                    regs.member_mask(w).map(|r| r.get())
                };
                *word = reg.unwrap_or(0);
            }
            MemberSet::from_words(out)
        };
        let status = regs.status().extract();
        let (ready, active, complete, error) = status_bits(status);
        GroupSnapshot {
            group,
            members: words(false),
            member_count: regs.member_count().read(MEMBER_COUNT::COUNT),
            arrived: words(true),
            arrival_count: regs.arrival_count().read(ARRIVAL_COUNT::COUNT),
            release_seq: regs.release_seq().read(RELEASE_SEQ::SEQUENCE) as u32,
            ready,
            active,
            complete,
            error,
            enabled_here: GroupSet(global.group_enabled().get()).contains(group),
            busy_on_switch: GroupSet(global.groups_busy().get()).contains(group),
            port_barriers_completed: global.barriers_completed().get(),
        }
    }

    /// Takes the group's own registers from a copy read elsewhere (the kernel driver's
    /// `GBA_IOC_STATE`): configuration, arrivals, release sequence and STATUS. The port-wide
    /// fields (`enabled_here`, `busy_on_switch`, `port_barriers_completed`) stay as read.
    #[allow(clippy::too_many_arguments)] // the registers of one group, as the driver gives them
    #[cfg(feature = "std")] // its one caller, the kernel backend, needs std
    pub(crate) fn set_group_registers(
        &mut self,
        members: MemberSet,
        member_count: u32,
        arrived: MemberSet,
        arrival_count: u32,
        release_seq: u64,
        status: u64,
    ) {
        use gba_pac::tock_registers::LocalRegisterCopy as Copy;
        let status = Copy::<u64, STATUS::Register>::new(status);
        self.members = members;
        self.member_count =
            Copy::<u32, MEMBER_COUNT::Register>::new(member_count).read(MEMBER_COUNT::COUNT);
        self.arrived = arrived;
        self.arrival_count =
            Copy::<u32, ARRIVAL_COUNT::Register>::new(arrival_count).read(ARRIVAL_COUNT::COUNT);
        self.release_seq =
            Copy::<u64, RELEASE_SEQ::Register>::new(release_seq).read(RELEASE_SEQ::SEQUENCE) as u32;
        (self.ready, self.active, self.complete, self.error) = status_bits(status);
    }

    /// Members of the group that have not arrived for the pending episode.
    pub fn missing(&self) -> MemberSet {
        self.members.difference(&self.arrived)
    }
}

impl fmt::Display for GroupSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "group {}: members {} ({} configured), arrived {} ({}), ",
            self.group, self.members, self.member_count, self.arrived, self.arrival_count,
        )?;
        // An idle group (no episode under way) waits for nobody: naming its members as missing
        // would send a reader after members that did nothing wrong.
        if self.active || !self.arrived.is_empty() {
            write!(f, "missing {}, episode pending", self.missing())?;
        } else {
            f.write_str("no episode pending")?;
        }
        write!(
            f,
            ", release sequence {}, {}",
            self.release_seq,
            if self.ready { "ready" } else { "not ready" },
        )?;
        if let Some(code) = self.error {
            write!(f, ", ERROR {}: {}", code.name(), code.description())?;
        }
        Ok(())
    }
}

/// STATUS's READY, ACTIVE and COMPLETE bits and its error code, if ERROR is set.
fn status_bits(
    status: gba_pac::tock_registers::LocalRegisterCopy<u64, STATUS::Register>,
) -> (bool, bool, bool, Option<ErrorCode>) {
    (
        status.is_set(STATUS::READY),
        status.is_set(STATUS::ACTIVE),
        status.is_set(STATUS::COMPLETE),
        status.is_set(STATUS::ERROR).then(|| {
            status
                .read_as_enum(STATUS::ERROR_CODE)
                .unwrap_or(ErrorCode::NONE)
        }),
    )
}
