//! Errors of the protocol core. Each message says what was wrong and what to do.

use gba_pac::group::STATUS::ERROR_CODE::Value as ErrorCode;

use crate::members::MemberSet;

pub type Result<T, E = Error> = core::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "this is not a GBA: DEVICE_ID reads {found:#010x}, a GBA reads {expected:#010x}; check the device path"
    )]
    NotGba { found: u32, expected: u32 },

    #[error(
        "the device implements register map {major}.{minor}; this software knows major version {supported}: use a matching release of gba-hal"
    )]
    UnsupportedVersion {
        major: u16,
        minor: u16,
        supported: u16,
    },

    #[error("group {group} does not exist: the device has groups 0 to {}", groups - 1)]
    NoSuchGroup { group: usize, groups: usize },

    #[error("a group needs at least one member")]
    NoMembers,

    #[error(
        "member {member} is out of range: the device supports members 0 to {} (CAPS.MAX_MEMBERS)",
        max_members - 1
    )]
    MemberOutOfRange { member: usize, max_members: usize },

    #[error(
        "this port ({port}) is not in the member set {members}: a port can only configure groups it belongs to"
    )]
    LocalNotMember { port: usize, members: MemberSet },

    #[error(
        "group {group} is already claimed through this device; release it first (drop its handle)"
    )]
    AlreadyClaimed { group: usize },

    #[error(
        "group {group} is held by another job (GROUP_BUSY): agree on another group id with the other members and claim again"
    )]
    GroupBusy { group: usize },

    #[error("this host's arbiter refused group {group}: {refusal}")]
    ClaimRefused {
        group: usize,
        refusal: crate::arbiter::Refusal,
    },

    #[error("the device refused group {group}'s configuration: {}", refusal(*code))]
    Refused { group: usize, code: ErrorCode },

    #[error("group {group} failed during episode {episode}: {}", refusal(*code))]
    Failed {
        group: usize,
        episode: u64,
        code: ErrorCode,
    },

    #[error("group {group}: {what} did not happen within {waited:?}; members not there: {missing}")]
    Timeout {
        group: usize,
        what: &'static str,
        waited: core::time::Duration,
        missing: MemberSet,
    },

    #[error(
        "configuring group {group} was given up by the caller before READY; the group was reset on this port"
    )]
    Cancelled { group: usize },

    #[error("no DMA memory for a {len}-byte release flag: {reason}")]
    Dma { len: usize, reason: &'static str },
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
