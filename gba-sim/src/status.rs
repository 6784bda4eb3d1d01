//! What `gba sim status` shows: the switch's view of every group, read from its own state
//! and its ports' registers.

use gba_pac::group::STATUS;
use gba_pac::tock_registers::interfaces::Readable;

use crate::fabric::Fabric;
use crate::layout::{self as l, GROUPS, MASK_WORDS};
use gba_hal::MemberSet as Mask;

/// One group as the switch sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupReport {
    /// The group's index.
    pub group: usize,
    /// The member set of the group (from the first port that joined).
    pub members: Mask,
    /// Members whose port has joined (enabled with a configuration that matches).
    pub joined: Mask,
    /// Members that arrived for the pending episode.
    pub arrived: Mask,
    /// Whether the switch has written READY to every member (the group is configured).
    pub ready: bool,
    /// The sequence of the last release.
    pub release_seq: u32,
    /// The group's error, if it failed.
    pub error: Option<String>,
    /// Ports whose own STATUS shows an error for this group without having joined it
    /// (GROUP_BUSY, a refused configuration), with the error's name.
    pub refused: Vec<(usize, String)>,
}

/// A port as the switch sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortReport {
    /// The port's index.
    pub port: usize,
    /// BARRIERS_COMPLETED: episodes completed in all its groups.
    pub barriers_completed: u64,
    /// Whether the port is marked dead ([`Fabric::mark_dead`](crate::Fabric::mark_dead)).
    pub dead: bool,
    /// Processes attached to the port, with whether each is alive.
    pub openers: Vec<(u64, bool)>,
    /// Groups claimed on this port (the host segment's claim records).
    pub claims: Vec<gba_hal::ClaimReport>,
}

impl Fabric {
    /// The groups that are formed, forming, or refusing someone; idle groups are left out.
    /// Steps the switch first: the fast path leaves its bookkeeping to the next step.
    pub fn group_reports(&self) -> Vec<GroupReport> {
        self.step();
        (0..GROUPS).filter_map(|g| self.group_report(g)).collect()
    }

    fn group_report(&self, g: usize) -> Option<GroupReport> {
        let read = |base: usize| {
            let mut mask = Mask::default();
            for (w, word) in mask.0.iter_mut().enumerate().take(MASK_WORDS) {
                *word = self.group_state(g, base + w).load();
            }
            mask
        };
        let joined = read(l::G_JOINED);
        let mut refused = Vec::new();
        for p in 0..self.ports() {
            let status = self.group_regs(p, g).status().extract();
            if !joined.contains(p) && status.is_set(STATUS::ERROR) {
                refused.push((p, error_name(status.read(STATUS::ERROR_CODE))));
            }
        }
        if joined.is_empty() && refused.is_empty() {
            return None;
        }
        let flags = self.group_state(g, l::G_FLAGS).load();
        Some(GroupReport {
            group: g,
            members: read(l::G_MASK),
            joined,
            arrived: read(l::G_ARRIVED),
            ready: flags & l::GF_READY != 0,
            release_seq: self.group_state(g, l::G_RELEASE_SEQ).load() as u32,
            error: (flags & l::GF_ERROR != 0)
                .then(|| error_name(self.group_state(g, l::G_ERROR_CODE).load())),
            refused,
        })
    }

    /// Every port; steps the switch first, as [`group_reports`](Self::group_reports) does.
    pub fn port_reports(&self) -> Vec<PortReport> {
        self.step();
        (0..self.ports())
            .map(|p| PortReport {
                port: p,
                barriers_completed: self.global(p).barriers_completed().get(),
                dead: self.is_dead(p),
                openers: self.openers(p),
                claims: self.claims(p),
            })
            .collect()
    }
}

/// The groups one user's claims hold, and under it each claimant process's: what a job holds
/// (issue 27), as the claim records name their claimants (uid, pid; a team's key is one
/// team's, not the job's). A group counts once however many ports it is claimed on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holding {
    /// The claimants' uid (`None`: the arbiter does not say).
    pub uid: Option<u32>,
    /// The distinct groups this uid's claims hold, ascending.
    pub groups: Vec<usize>,
    /// Each claimant pid (the claim record's: the process that claimed it; with host
    /// aggregating its team-mates joined that claim) with its distinct groups, ascending.
    pub pids: Vec<(u64, Vec<usize>)>,
}

/// Groups `claims` (of any ports) by uid, then by pid; uids and pids ascending.
pub fn holdings<'a>(claims: impl IntoIterator<Item = &'a gba_hal::ClaimReport>) -> Vec<Holding> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut by_uid: BTreeMap<Option<u32>, BTreeMap<u64, BTreeSet<usize>>> = BTreeMap::new();
    for c in claims {
        by_uid
            .entry(c.uid)
            .or_default()
            .entry(c.pid)
            .or_default()
            .insert(c.group);
    }
    by_uid
        .into_iter()
        .map(|(uid, pids)| Holding {
            uid,
            groups: pids
                .values()
                .flatten()
                .copied()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect(),
            pids: pids
                .into_iter()
                .map(|(pid, groups)| (pid, groups.into_iter().collect()))
                .collect(),
        })
        .collect()
}

/// `uid 1000: 3 groups (pid 4242: 2, pid 4243: 1)`, one holding per entry, for the text
/// outputs of `gba sim status` and `gba dump`.
impl std::fmt::Display for Holding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.uid {
            Some(uid) => write!(f, "uid {uid}")?,
            None => f.write_str("uid ?")?,
        }
        let plural = |n: usize| if n == 1 { "group" } else { "groups" };
        write!(f, ": {} {} (", self.groups.len(), plural(self.groups.len()))?;
        for (i, (pid, groups)) in self.pids.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}pid {pid}: {}", groups.len())?;
        }
        f.write_str(")")
    }
}

/// The spec's name of an ERROR_CODE value (the generated enum's variant name), or the
/// number when the spec names no such value.
pub fn error_name(raw: u64) -> String {
    use gba_pac::tock_registers::fields::TryFromValue;
    match STATUS::ERROR_CODE::Value::try_from_value(raw) {
        Some(value) => value.name().to_string(),
        None => format!("unknown error code {raw}"),
    }
}

#[cfg(test)]
mod tests {
    use super::holdings;
    use gba_hal::{ClaimReport, ClaimState};

    fn claim(group: usize, pid: u64, uid: Option<u32>) -> ClaimReport {
        ClaimReport {
            group,
            state: ClaimState::Held,
            pid,
            uid,
            alive: true,
            other_pid_namespace: false,
            team_key: None,
            joined: 1,
            local: 1,
        }
    }

    #[test]
    fn holdings_count_each_group_once_per_uid_and_per_pid() {
        // Group 3 claimed on two ports by one process; group 4 by another of the same user;
        // group 5 by another user.
        let claims = [
            claim(3, 100, Some(1000)),
            claim(3, 100, Some(1000)),
            claim(4, 101, Some(1000)),
            claim(5, 200, Some(1001)),
        ];
        let h = holdings(&claims);
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].uid, Some(1000));
        assert_eq!(h[0].groups, vec![3, 4]);
        assert_eq!(h[0].pids, vec![(100, vec![3]), (101, vec![4])]);
        assert_eq!(
            h[0].to_string(),
            "uid 1000: 2 groups (pid 100: 1, pid 101: 1)"
        );
        assert_eq!(h[1].to_string(), "uid 1001: 1 group (pid 200: 1)");
        assert!(holdings(&[]).is_empty());
    }
}
