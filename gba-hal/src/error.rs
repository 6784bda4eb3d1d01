//! Errors of the protocol core. Each message says what was wrong and what to do.

use gba_pac::group::STATUS::ERROR_CODE::Value as ErrorCode;

use crate::members::MemberSet;

/// gba-hal's result: [`Error`] by default.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// Why opening a device or claiming, configuring or waiting on a group failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// DEVICE_ID is not the GBA's.
    #[error(
        "this is not a GBA: DEVICE_ID reads {found:#010x}, a GBA reads {expected:#010x}; check the device path"
    )]
    NotGba {
        /// What DEVICE_ID reads.
        found: u32,
        /// The GBA's DEVICE_ID.
        expected: u32,
    },

    #[error(
        "the device implements register map {major}.{minor}; this software knows major version {supported}: use a matching release of gba-hal"
    )]
    /// VERSION's major number is not the one this crate implements.
    UnsupportedVersion {
        /// VERSION's major number.
        major: u16,
        /// VERSION's minor number.
        minor: u16,
        /// The major number this crate implements.
        supported: u16,
    },

    #[error("group {group} does not exist: the device has groups 0 to {}", groups - 1)]
    /// A group id the device does not have.
    NoSuchGroup {
        /// The id asked for.
        group: usize,
        /// The device's groups (CAPS.MAX_GROUPS).
        groups: usize,
    },

    #[error("a group needs at least one member")]
    /// An empty member set.
    NoMembers,

    #[error(
        "member {member} is out of range: the device supports members 0 to {} (CAPS.MAX_MEMBERS)",
        max_members - 1
    )]
    /// A member id the device does not have.
    MemberOutOfRange {
        /// The member asked for.
        member: usize,
        /// The device's members (CAPS.MAX_MEMBERS).
        max_members: usize,
    },

    #[error(
        "this port ({port}) is not in the member set {members}: a port can only configure groups it belongs to"
    )]
    /// This port is not in the group's member set.
    LocalNotMember {
        /// This port (PORT_ID).
        port: usize,
        /// The member set given.
        members: MemberSet,
    },

    #[error(
        "group {group} is already claimed through this device; release it first (drop its handle)"
    )]
    /// The group is claimed through this device already.
    AlreadyClaimed {
        /// The group.
        group: usize,
    },

    #[error(
        "group {group} is held by another job (GROUP_BUSY): agree on another group id with the other members and claim again"
    )]
    /// Another job holds the group (GROUP_BUSY): retryable with another id.
    GroupBusy {
        /// The group.
        group: usize,
    },

    #[error("this host's arbiter refused group {group}: {refusal}")]
    /// The host's arbiter refused the claim.
    ClaimRefused {
        /// The group.
        group: usize,
        /// Why.
        refusal: crate::arbiter::Refusal,
    },

    #[error("the device refused group {group}'s configuration: {}", refusal(*code))]
    /// The device refused the configuration (STATUS.ERROR at configure).
    Refused {
        /// The group.
        group: usize,
        /// STATUS.ERROR_CODE.
        code: ErrorCode,
    },

    #[error("group {group} failed during episode {episode}: {}", refusal(*code))]
    /// The group failed during an episode (STATUS.ERROR while waiting).
    Failed {
        /// The group.
        group: usize,
        /// The episode it failed in.
        episode: u64,
        /// STATUS.ERROR_CODE.
        code: ErrorCode,
    },

    #[error("group {group}: {what} did not happen within {waited:?}; members not there: {missing}")]
    /// Something the caller waited for did not happen in time.
    Timeout {
        /// The group.
        group: usize,
        /// What was waited for, as a noun phrase.
        what: &'static str,
        /// How long.
        waited: core::time::Duration,
        /// The members that had not arrived or joined.
        missing: MemberSet,
    },

    #[error(
        "configuring group {group} was given up by the caller before READY; the group was reset on this port"
    )]
    /// The caller gave up configuring before READY (the group was reset).
    Cancelled {
        /// The group.
        group: usize,
    },

    #[error("no DMA memory for a {len}-byte release flag: {reason}")]
    /// No DMA memory for the release flag.
    Dma {
        /// Bytes asked for.
        len: usize,
        /// The backend's reason.
        reason: &'static str,
    },
}

impl Error {
    /// Whether the same operation may succeed with another choice (another group id).
    pub fn is_retryable(&self) -> bool {
        matches!(self, Error::GroupBusy { .. } | Error::AlreadyClaimed { .. })
    }
}

/// What an ERROR_CODE means, in the spec's words (`gba.yaml`): `NAME: description`.
pub fn refusal(code: ErrorCode) -> RefusalText {
    RefusalText(code)
}

/// [`refusal`]'s text, written without allocating (the core is `no_std`).
#[derive(Clone, Copy, Debug)]
pub struct RefusalText(ErrorCode);

impl core::fmt::Display for RefusalText {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.0.name(), self.0.description())?;
        match advice(self.0) {
            "" => Ok(()),
            advice => write!(f, " {advice}"),
        }
    }
}

/// What to do about an ERROR_CODE, where the spec's description does not say it already (the
/// description says what happened; this says what the software should change).
fn advice(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::NONE | ErrorCode::GROUP_BUSY => "",
        ErrorCode::MASK_MISMATCH => "Every member must configure the same member set.",
        ErrorCode::COUNT_MISMATCH => "MEMBER_COUNT must be the number of members in the mask.",
        ErrorCode::BAD_MEMBER => {
            "Configure only groups this port belongs to, with members the switch has."
        }
        ErrorCode::SEQ_ERROR => "Every member must arrive once per episode; reconfigure the group.",
        ErrorCode::DMA_FAULT => {
            "RELEASE_ADDR must be a device address (IOVA) of mapped DMA memory, not a host pointer."
        }
    }
}
