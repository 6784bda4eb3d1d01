//! Errors of a wait: they name the barrier, the episode and who is missing, and say what to do.

use std::fmt;
use std::time::Duration;

use gba_hal::{ErrorCode, MemberSet};

/// Which barrier an error is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Who {
    /// An offloaded barrier: group `group` of the GBA, seen from member `member`.
    Group {
        /// The group id (0..32).
        group: u32,
        /// This port's member id.
        member: u32,
    },
    /// A software barrier.
    Software {
        /// Its name, as in benchmark tables (`"dissemination-shm"`).
        name: &'static str,
        /// This participant's member index.
        member: usize,
        /// How many members the barrier has.
        members: usize,
    },
}

impl fmt::Display for Who {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Who::Group { group, member } => write!(f, "GBA group {group} (member {member})"),
            Who::Software {
                name,
                member,
                members,
            } => {
                write!(f, "{name} barrier (member {member} of {members})")
            }
        }
    }
}

/// Who had not arrived when a wait gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Missing {
    /// Exactly these member ids (from the device's ARRIVED_MASK and MEMBER_MASK).
    Members(MemberSet),
    /// This process cannot read who arrived ([`crate::Arrivals::Unreadable`]): it knows only
    /// that this process arrived (with host combining, its port rings only once the
    /// host's last process arrives).
    Unreadable {
        /// Why, from the port ("the kernel driver maps only …").
        why: &'static str,
    },
    /// Described by the caller that knows more (a team: hosts by name, local processes).
    Named(String),
    /// A central counter knows how many arrived, not who.
    Count {
        /// Members that had arrived.
        arrived: u64,
        /// Members of the barrier.
        members: u64,
    },
    /// A dissemination barrier knows whose signal it waits for in which round; that member may
    /// itself be waiting for another.
    Partner {
        /// The member whose signal never came.
        member: usize,
        /// The round (0-based) it was due in.
        round: u32,
    },
}

impl From<crate::Arrivals> for Missing {
    fn from(arrivals: crate::Arrivals) -> Self {
        match arrivals {
            crate::Arrivals::Known(members) => Missing::Members(members),
            crate::Arrivals::Unreadable { why } => Missing::Unreadable { why },
        }
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Members(ids) if ids.is_empty() => {
                f.write_str("no member is missing by the device's count")
            }
            // `[1, 2]`, as before the set was a `MemberSet` (scripts and tests match it).
            Missing::Members(ids) => {
                write!(
                    f,
                    "members {:?} never arrived",
                    ids.iter().collect::<Vec<_>>()
                )
            }
            // Only what is known, and where to look: naming nobody as missing here would send
            // the reader after the wrong cause.
            Missing::Unreadable { why } => write!(
                f,
                "this process arrived; which members have not is not known to this process \
                 ({why}), so none is named here; `gba dump` of each member's port lists the \
                 processes holding the group (pid, uid): a member whose port shows none never \
                 claimed it"
            ),
            Missing::Named(text) => f.write_str(text),
            Missing::Count { arrived, members } => {
                write!(
                    f,
                    "{arrived} of {members} members arrived, the others never did"
                )
            }
            Missing::Partner { member, round } => {
                write!(
                    f,
                    "member {member}'s round-{round} signal never came (it or a member before it is missing)"
                )
            }
        }
    }
}

/// An error code from the group's STATUS.ERROR_CODE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceFault {
    /// The ERROR_CODE value, as gba-hal reads it.
    pub code: ErrorCode,
}

impl fmt::Display for DeviceFault {
    /// `ERROR_CODE 1 (MASK_MISMATCH: Member ports disagree on MEMBER_MASK.)`: the name and
    /// description from the spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = self.code;
        write!(
            f,
            "ERROR_CODE {} ({}: {})",
            code as u64,
            code.name(),
            code.description()
        )
    }
}

/// Why a wait did not complete. The episode stays pending after `Timeout` (wait again); after
/// `Device` the group is broken until it is reconfigured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WaitError {
    /// The release did not come within the timeout.
    #[error(
        "{who}: episode {episode} not released after {waited:?}: {missing}; check that every \
         member runs and calls the barrier as often as this one, or wait longer"
    )]
    Timeout {
        /// The barrier.
        who: Who,
        /// The host episode number waited for.
        episode: u64,
        /// How long this wait waited.
        waited: Duration,
        /// Who had not arrived.
        missing: Missing,
    },
    /// The device flagged the group as failed while this member waited.
    #[error(
        "{who}: the device reported {fault} during episode {episode} ({missing}); reconfigure \
         the group or fall back to a software barrier"
    )]
    Device {
        /// The barrier.
        who: Who,
        /// The host episode number waited for.
        episode: u64,
        /// STATUS.ERROR_CODE.
        fault: DeviceFault,
        /// Who had not arrived.
        missing: Missing,
    },
    /// `arrive` (or `wait`) while an earlier arrival is still pending.
    #[error(
        "{who}: arrive called while episode {episode} is still pending; finish it first \
         (`pending()` then `wait` or `test`)"
    )]
    Pending {
        /// The barrier.
        who: Who,
        /// The pending episode.
        episode: u64,
    },
}

/// `Result` with a boxed [`WaitError`]: boxed so that `Result<()>` is one pointer (null for
/// `Ok`), returned in a register, and the hot path needs no stack frame for an error it almost
/// never builds. Match with `Err(e) if matches!(*e, WaitError::Timeout { .. })` or `&*e`.
pub type Result<T, E = Box<WaitError>> = std::result::Result<T, E>;

/// An error and its sources, outermost first, joined by ": " (what a one-line report of a
/// nested error says: "cannot open sim:/x#0: no simulator fabric at /x: No such file").
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Arrivals;

    fn timeout(arrivals: Arrivals) -> String {
        WaitError::Timeout {
            who: Who::Group {
                group: 3,
                member: 1,
            },
            episode: 7,
            waited: Duration::from_millis(200),
            missing: Missing::from(arrivals),
        }
        .to_string()
    }

    #[test]
    fn a_readable_arrival_state_names_the_missing_members() {
        let text = timeout(Arrivals::Known([0, 2].into_iter().collect()));
        assert_eq!(
            text,
            "GBA group 3 (member 1): episode 7 not released after 200ms: members [0, 2] never \
             arrived; check that every member runs and calls the barrier as often as this one, \
             or wait longer"
        );
        assert!(
            timeout(Arrivals::default()).contains("no member is missing by the device's count")
        );
    }

    #[test]
    fn an_unreadable_arrival_state_says_what_is_known_and_never_that_nobody_is_missing() {
        let text = timeout(Arrivals::Unreadable {
            why: "the kernel driver maps only the run-time page",
        });
        assert_eq!(
            text,
            "GBA group 3 (member 1): episode 7 not released after 200ms: this process arrived; \
             which members have not is not known to this process (the kernel driver maps only \
             the run-time page), so none is named here; `gba dump` of each member's port lists \
             the processes holding the group (pid, uid): a member whose port shows none never \
             claimed it; check that every member runs and calls the barrier as often as this \
             one, or wait longer"
        );
        assert!(!text.contains("no member is missing"));
    }
}
