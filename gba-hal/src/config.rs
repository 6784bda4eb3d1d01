//! A group's configuration, checked against the device's identity before any register is
//! written.

use core::time::Duration;

use crate::backend::LocalTeam;
use crate::error::{Error, Result};
use crate::identity::Identity;
use crate::members::MemberSet;

/// Default time to wait for READY (every member configured alike).
pub const DEFAULT_CONFIGURE_TIMEOUT: Duration = Duration::from_secs(10);

/// What a member writes to configure group `group` (docs/datasheet.md section 4): the member set;
/// MEMBER_COUNT and LOCAL_MEMBER_ID follow from it and from PORT_ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupConfig {
    group: usize,
    members: MemberSet,
    timeout: Option<Duration>,
    team: Option<LocalTeam>,
}

impl GroupConfig {
    /// Group `group` (agreed on by every member beforehand) with `members`.
    pub fn new(group: usize, members: MemberSet) -> Self {
        GroupConfig {
            group,
            members,
            timeout: Some(DEFAULT_CONFIGURE_TIMEOUT),
            team: None,
        }
    }

    /// How long [`Device::claim`](crate::Device::claim) waits for READY (and for the RESET
    /// before it); `None` waits for ever, as a barrier's `wait(None)` does. The default is
    /// [`DEFAULT_CONFIGURE_TIMEOUT`].
    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Claims as one of `team.local` processes of a team on this port (host combining, issue
    /// 13): the first to claim configures the group, the others join its claim and share its
    /// release flag, and their arrivals combine into one doorbell per episode.
    pub fn team(mut self, team: LocalTeam) -> Self {
        self.team = Some(team);
        self
    }

    /// The team this process claims as a member of, if any ([`team`](Self::team)).
    pub fn local_team(&self) -> Option<&LocalTeam> {
        self.team.as_ref()
    }

    /// The group id.
    pub fn group(&self) -> usize {
        self.group
    }

    /// The group's members.
    pub fn members(&self) -> &MemberSet {
        &self.members
    }

    /// How long a claim waits for READY ([`timeout`](Self::timeout)); `None`: for ever.
    pub fn configure_timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// Checks the configuration against the device: the group exists, the member set is
    /// non-empty and within MAX_MEMBERS (so no reserved bit is set), and this port is a
    /// member. MEMBER_COUNT is the set's size by construction.
    pub fn validate(&self, identity: &Identity) -> Result<()> {
        if self.group >= identity.max_groups {
            return Err(Error::NoSuchGroup {
                group: self.group,
                groups: identity.max_groups,
            });
        }
        let Some(highest) = self.members.max() else {
            return Err(Error::NoMembers);
        };
        if highest >= identity.max_members {
            return Err(Error::MemberOutOfRange {
                member: highest,
                max_members: identity.max_members,
            });
        }
        if !self.members.contains(identity.port) {
            return Err(Error::LocalNotMember {
                port: identity.port,
                members: self.members,
            });
        }
        Ok(())
    }
}
