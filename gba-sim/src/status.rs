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
    pub group: usize,
    /// The member set of the group (from the first port that joined).
    pub members: Vec<usize>,
    /// Members whose port has joined (enabled with a configuration that matches).
    pub joined: Vec<usize>,
    /// Members that arrived for the pending episode.
    pub arrived: Vec<usize>,
    pub ready: bool,
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
    pub port: usize,
    pub barriers_completed: u64,
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
            members: read(l::G_MASK).iter().collect(),
            joined: joined.iter().collect(),
            arrived: read(l::G_ARRIVED).iter().collect(),
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

/// The spec's name of an ERROR_CODE value (the generated enum's variant name), or the
/// number when the spec names no such value.
pub fn error_name(raw: u64) -> String {
    use gba_pac::tock_registers::fields::TryFromValue;
    match STATUS::ERROR_CODE::Value::try_from_value(raw) {
        Some(value) => value.name().to_string(),
        None => format!("unknown error code {raw}"),
    }
}
