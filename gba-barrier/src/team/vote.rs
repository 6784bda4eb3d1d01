//! Round 1's vote as bytes, and the decisions every rank takes from the gathered votes and
//! outcomes: pure functions of what the allgathers returned, so that every rank computes the
//! same verdict (and so that each can be tested without a device or a second process).

use std::ops::Range;

use gba_hal::{LocalTeam, MemberSet, TeamKey};

use super::Reason;
use crate::wait_loop::WaitPolicy;

/// Bytes of the hostname in a vote (NUL-padded, cut to fit; for messages only).
pub(super) const HOSTNAME: usize = 32;

// The vote's layout, little-endian, each field's bytes defined once here.
const STATUS: Range<usize> = 0..4;
const PORT: Range<usize> = 4..8;
const FREE: Range<usize> = 8..12;
const MAX_MEMBERS: Range<usize> = 12..16;
const HOST_KEY: Range<usize> = 16..24;
/// The team key's 16 bytes ([`TeamKey::to_le_bytes`]).
const TEAM_KEY: Range<usize> = 24..24 + TeamKey::BYTES;
const MACHINE_KEY: Range<usize> = 40..48;
const CPUS: Range<usize> = 48..56;
const NAME: Range<usize> = 56..56 + HOSTNAME;
/// Bytes of the fields above; the parked barriers' slots (`cache`) follow them.
pub(super) const FIELDS: usize = NAME.end;

const STATUS_OK: u32 = 0;
const STATUS_NO_DEVICE: u32 = 1;
const STATUS_REVOKED: u32 = 2;

/// One rank's round-1 vote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Vote {
    /// The rank has a usable device; the fields up to `max_members` are its.
    pub device: bool,
    /// The rank's device was revoked under it (`device` is false): the kernel driver's port
    /// was removed, unbound or reset since the rank opened it.
    pub revoked: bool,
    /// The device's PORT_ID (`u32::MAX` without a device).
    pub port: u32,
    /// The groups free on this rank's port (0 when deferred: the rank has a parked barrier).
    pub free: u32,
    /// The switch's CAPS.MAX_MEMBERS.
    pub max_members: u32,
    /// The host segment's key (boot id and segment), 0 when the device has none.
    pub host_key: u64,
    /// This rank's team key candidate (rank 0's is the team's; `None`: the vote's bytes were
    /// zeros, which no rank of this library votes).
    pub team_key: Option<TeamKey>,
    /// The boot id, hashed: ranks with the same one share this machine's cores.
    pub machine_key: u64,
    /// The CPUs this rank may run on (CPU c sets bit c mod 64).
    pub cpus: u64,
    /// The hostname, at most [`HOSTNAME`] bytes of it.
    pub hostname: String,
}

impl Vote {
    /// Writes the vote into `out[..FIELDS]`.
    pub(super) fn encode(&self, out: &mut [u8]) {
        let status = match (self.device, self.revoked) {
            (true, _) => STATUS_OK,
            (false, true) => STATUS_REVOKED,
            (false, false) => STATUS_NO_DEVICE,
        };
        out[STATUS].copy_from_slice(&status.to_le_bytes());
        out[PORT].copy_from_slice(&self.port.to_le_bytes());
        out[FREE].copy_from_slice(&self.free.to_le_bytes());
        out[MAX_MEMBERS].copy_from_slice(&self.max_members.to_le_bytes());
        out[HOST_KEY].copy_from_slice(&self.host_key.to_le_bytes());
        let key = self
            .team_key
            .map_or([0; TeamKey::BYTES], TeamKey::to_le_bytes);
        out[TEAM_KEY].copy_from_slice(&key);
        out[MACHINE_KEY].copy_from_slice(&self.machine_key.to_le_bytes());
        out[CPUS].copy_from_slice(&self.cpus.to_le_bytes());
        let name = self.hostname.as_bytes();
        let name = &name[..name.len().min(HOSTNAME)];
        out[NAME].fill(0);
        out[NAME.start..NAME.start + name.len()].copy_from_slice(name);
    }

    /// Reads a vote from `bytes[..FIELDS]`.
    pub(super) fn decode(bytes: &[u8]) -> Vote {
        let u32_at = |r: Range<usize>| u32::from_le_bytes(bytes[r].try_into().expect("4 bytes"));
        let u64_at = |r: Range<usize>| u64::from_le_bytes(bytes[r].try_into().expect("8 bytes"));
        let name = &bytes[NAME];
        let end = name.iter().position(|&b| b == 0).unwrap_or(HOSTNAME);
        Vote {
            device: u32_at(STATUS) == STATUS_OK,
            revoked: u32_at(STATUS) == STATUS_REVOKED,
            port: u32_at(PORT),
            free: u32_at(FREE),
            max_members: u32_at(MAX_MEMBERS),
            host_key: u64_at(HOST_KEY),
            team_key: TeamKey::from_le_bytes(bytes[TEAM_KEY].try_into().expect("16 bytes")),
            machine_key: u64_at(MACHINE_KEY),
            cpus: u64_at(CPUS),
            hostname: String::from_utf8_lossy(&name[..end]).into_owned(),
        }
    }
}

/// A fallback every rank takes: why, the rank that caused it, and the text to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Fallback {
    pub reason: Reason,
    pub rank: usize,
    pub text: String,
}

/// What the votes allow, when they allow offload: the members and this rank's part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Plan {
    /// The member ports (ranks sharing a port are one member).
    pub ports: MemberSet,
    /// This rank among the team's processes on its port.
    pub local_team: LocalTeam,
    /// Each member port's hostname (the first rank's on it), for timeouts.
    pub hosts: Vec<(u32, String)>,
    /// How this rank waits: the team's ranks on its machine against the CPUs they may use.
    pub policy: WaitPolicy,
}

/// Whether the team can offload at all, from every rank's vote, as seen by `rank`: every rank
/// has a device, every port is in the switch's range, ranks sharing a port share one host
/// segment, and no port has more than `max_local` of them.
pub(super) fn decide(votes: &[Vote], rank: usize, max_local: usize) -> Result<Plan, Fallback> {
    let fallback = |reason, rank, text| Err(Fallback { reason, rank, text });
    if let Some(r) = votes.iter().position(|v| !v.device) {
        let text = if votes[r].revoked {
            format!(
                "rank {r}'s GBA port was removed, unbound or reset since it opened it (the \
                 kernel driver revoked its file: ENODEV); that process must open the port again \
                 once it is back"
            )
        } else {
            format!("rank {r} has no usable GBA device")
        };
        return fallback(Reason::NoDevice, r, text);
    }
    let mut ports = MemberSet::new();
    for (r, v) in votes.iter().enumerate() {
        let p = v.port as usize;
        if p >= MemberSet::CAPACITY || p >= v.max_members as usize {
            return fallback(
                Reason::PortOutOfRange,
                r,
                format!("rank {r} has port {p}, beyond the switch's member range"),
            );
        }
        if ports.contains(p) {
            // Host combining: ranks sharing a port must be processes of one host, whose
            // device arbitrates the port in a host segment.
            let first = votes.iter().position(|q| q.port == v.port).unwrap_or(0);
            if v.host_key == 0 || v.host_key != votes[first].host_key {
                return fallback(
                    Reason::PortShared,
                    r,
                    format!(
                        "ranks {first} ({}) and {r} ({}) share port {p} but not one host \
                         segment (is each rank's device its host's? a VFIO device has \
                         none: it serves one process)",
                        votes[first].hostname, v.hostname
                    ),
                );
            }
        }
        ports.insert(p);
    }
    let on_port = |port: u32| votes.iter().filter(|v| v.port == port).count();
    if let Some(r) = votes.iter().position(|v| on_port(v.port) > max_local) {
        return fallback(
            Reason::PortShared,
            r,
            format!(
                "more than {max_local} ranks share port {} (rank {r}'s host)",
                votes[r].port
            ),
        );
    }
    let Some(key) = votes[0].team_key else {
        return fallback(
            Reason::Configure,
            0,
            "rank 0 voted no team key (is every rank's libgba of one version?)".to_string(),
        );
    };
    let mine = &votes[rank];
    let local_team = LocalTeam {
        key,
        local: on_port(mine.port) as u32,
        index: votes[..rank].iter().filter(|v| v.port == mine.port).count() as u32,
        rank: rank as u32,
    };
    let mut hosts: Vec<(u32, String)> = Vec::new();
    for v in votes {
        if !hosts.iter().any(|(p, _)| *p == v.port) {
            hosts.push((v.port, v.hostname.clone()));
        }
    }
    // The ranks on this machine, this one included, against the CPUs any of them may run on:
    // ranks pinned one to a core do not oversubscribe, four unpinned ranks on two cores do.
    let here = votes.iter().filter(|v| v.machine_key == mine.machine_key);
    let (processes, cpus) = here.fold((0, 0u64), |(n, cpus), v| (n + 1, cpus | v.cpus));
    Ok(Plan {
        ports,
        local_team,
        hosts,
        policy: WaitPolicy::for_processes_on(processes, cpus.count_ones() as usize),
    })
}

/// Round 2's outcome of one rank's configuration of the candidate group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Outcome {
    Ready = 0,
    Busy = 1,
    Timeout = 2,
    Refused = 3,
    Denied = 4,
    /// The rank's port was revoked under it (the kernel driver's ENODEV).
    Revoked = 5,
}

impl Outcome {
    /// The outcome a byte of round 2 carries (anything unknown is a refusal).
    pub(super) fn from_byte(byte: u8) -> Outcome {
        match byte {
            0 => Outcome::Ready,
            1 => Outcome::Busy,
            2 => Outcome::Timeout,
            4 => Outcome::Denied,
            5 => Outcome::Revoked,
            _ => Outcome::Refused,
        }
    }
}

/// What the team does after every rank's outcome for one group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Next {
    /// Every rank is READY: offload on the group.
    Offload,
    /// Some rank lost the group to another claimant: try the remaining common groups.
    Retry { common: u32 },
    /// A rank failed otherwise: `rank` caused it, with what it says of the group.
    Fallback {
        reason: Reason,
        rank: usize,
        what: Failure,
    },
}

/// How a rank's configuration failed, for the fallback's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Failure {
    Revoked,
    Denied,
    Refused,
    Timeout,
}

/// The group the team tries on its `attempt`-th round, one of `common` (which must not be 0).
///
/// The first round takes the lowest common group, so that a lone team's group is predictable.
/// A retry means another team claimed the group on some port at the same moment; if both
/// teams then took the next lowest group, ranks that always reach their port in the same order
/// would split every group alike and both teams would run out of groups (seen on a 3-host
/// cluster: two halves of one job, 31 rounds, no team formed). So a retry picks among the
/// common groups by the team's key, which every rank of the team shares (rank 0's) and another
/// team's differs from: two colliding teams part after one round with probability 1 − 1/n.
pub(super) fn pick_group(common: u32, team_key: u64, attempt: u32) -> u32 {
    debug_assert!(common != 0, "a pick from no common group");
    if attempt == 0 {
        return common.trailing_zeros();
    }
    let choice = (mix(team_key ^ u64::from(attempt)) % u64::from(common.count_ones())) as u32;
    let mut left = common;
    for _ in 0..choice {
        left &= left - 1;
    }
    left.trailing_zeros()
}

/// SplitMix64's finaliser: spreads a key's bits so that consecutive attempts pick unrelated groups.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The team's next step from round 2's `outcomes` for `group`, with `common` the groups still
/// free on every rank: a revoked port is named before a denial, a denial before a refusal, a
/// refusal before a timeout.
pub(super) fn after_round(outcomes: &[Outcome], group: u32, common: u32) -> Next {
    if outcomes.iter().all(|&o| o == Outcome::Ready) {
        return Next::Offload;
    }
    if outcomes.contains(&Outcome::Busy) {
        return Next::Retry {
            common: common & !(1 << group),
        };
    }
    let first = |o: Outcome| outcomes.iter().position(|&x| x == o);
    let (reason, rank, what) = if let Some(r) = first(Outcome::Revoked) {
        (Reason::NoDevice, r, Failure::Revoked)
    } else if let Some(r) = first(Outcome::Denied) {
        (Reason::Denied, r, Failure::Denied)
    } else if let Some(r) = first(Outcome::Refused) {
        (Reason::Configure, r, Failure::Refused)
    } else {
        let r = first(Outcome::Timeout).unwrap_or(0);
        (Reason::Timeout, r, Failure::Timeout)
    };
    Next::Fallback { reason, rank, what }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Team `n`'s key (`n` in both words).
    fn key(n: u64) -> Option<TeamKey> {
        TeamKey::from_words([n, n])
    }

    fn vote(port: u32) -> Vote {
        Vote {
            device: true,
            revoked: false,
            port,
            free: 0b1010,
            max_members: 708,
            host_key: 0,
            team_key: key(0x1111),
            machine_key: 0x2222,
            cpus: 0b11,
            hostname: format!("host{port}"),
        }
    }

    #[test]
    fn a_vote_reads_back_as_written_and_each_field_has_its_bytes() {
        let v = Vote {
            device: true,
            revoked: false,
            port: 0x0403_0201,
            free: 0x0807_0605,
            max_members: 0x0c0b_0a09,
            host_key: 0x1817_1615_1413_1211,
            team_key: TeamKey::from_words([0x2827_2625_2423_2221, 0x302f_2e2d_2c2b_2a29]),
            machine_key: 0x3837_3635_3433_3231,
            cpus: 0x4847_4645_4443_4241,
            hostname: "a-hostname-longer-than-thirty-two-bytes".into(),
        };
        let mut bytes = [0xffu8; FIELDS];
        v.encode(&mut bytes);
        assert_eq!(&bytes[..4], &[0, 0, 0, 0], "status: a device");
        assert_eq!(&bytes[4..8], &[1, 2, 3, 4], "port");
        assert_eq!(&bytes[8..12], &[5, 6, 7, 8], "free groups");
        assert_eq!(
            &bytes[16..24],
            &[0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18]
        );
        assert_eq!(
            &bytes[24..40],
            &[
                0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e,
                0x2f, 0x30
            ],
            "the team key: 128 bits, word 0 first"
        );
        assert_eq!(
            &bytes[40..48],
            &[0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38]
        );
        assert_eq!(
            &bytes[48..56],
            &[0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48]
        );
        assert_eq!(
            &bytes[56..],
            &v.hostname.as_bytes()[..HOSTNAME],
            "cut to fit"
        );
        let back = Vote::decode(&bytes);
        assert_eq!(back.hostname, &v.hostname[..HOSTNAME]);
        assert_eq!(
            Vote {
                hostname: v.hostname.clone(),
                ..back
            },
            v
        );
        // No device, and a short name padded with NULs over old bytes.
        let none = Vote {
            device: false,
            hostname: "n".into(),
            ..vote(7)
        };
        none.encode(&mut bytes);
        assert_eq!(&bytes[..4], &[1, 0, 0, 0]);
        assert_eq!(Vote::decode(&bytes), none);
        let revoked = Vote {
            revoked: true,
            ..none
        };
        revoked.encode(&mut bytes);
        assert_eq!(&bytes[..4], &[2, 0, 0, 0], "status: revoked");
        assert_eq!(Vote::decode(&bytes), revoked);
    }

    #[test]
    fn a_rank_whose_port_was_revoked_is_named_for_it_in_both_rounds() {
        let mut votes = vec![vote(0), vote(1), vote(2)];
        votes[2].device = false;
        votes[2].revoked = true;
        let f = decide(&votes, 0, 64).unwrap_err();
        assert_eq!((f.reason, f.rank), (Reason::NoDevice, 2));
        assert!(
            f.text
                .contains("rank 2's GBA port was removed, unbound or reset"),
            "{}",
            f.text
        );
        assert!(f.text.contains("ENODEV"), "{}", f.text);
        // Revoked while configuring: named before a denial, whatever the order of the ranks.
        use Outcome::*;
        assert_eq!(Outcome::from_byte(Revoked as u8), Revoked);
        match after_round(&[Denied, Ready, Revoked], 3, 0b1000) {
            Next::Fallback { reason, rank, what } => {
                assert_eq!(
                    (reason, rank, what),
                    (Reason::NoDevice, 2, Failure::Revoked)
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ranks_on_distinct_ports_are_the_members_and_rank_zero_keys_the_team() {
        let mut votes = vec![vote(3), vote(0), vote(5)];
        votes[0].team_key = key(0xabc);
        votes[2].machine_key = 0x9999; // another machine
        let plan = decide(&votes, 1, 64).unwrap();
        assert_eq!(plan.ports, [0, 3, 5].into_iter().collect());
        assert_eq!(
            (
                plan.local_team.key,
                plan.local_team.local,
                plan.local_team.index
            ),
            (key(0xabc).unwrap(), 1, 0)
        );
        votes[0].team_key = None;
        let f = decide(&votes, 1, 64).unwrap_err();
        assert_eq!(
            (f.reason, f.rank),
            (Reason::Configure, 0),
            "no key, no team"
        );
        assert_eq!(plan.hosts[0], (3, "host3".to_string()));
        assert_eq!(plan.policy, WaitPolicy::for_processes_on(2, 2));
    }

    #[test]
    fn ranks_sharing_a_port_combine_only_through_one_host_segment() {
        let mut votes = vec![vote(2), vote(2), vote(4)];
        votes[0].host_key = 7;
        votes[1].host_key = 7;
        let plan = decide(&votes, 1, 64).unwrap();
        assert_eq!(plan.ports.len(), 2);
        assert_eq!((plan.local_team.local, plan.local_team.index), (2, 1));
        // Another host's segment, or none: they cannot share the port.
        votes[1].host_key = 8;
        let f = decide(&votes, 0, 64).unwrap_err();
        assert_eq!((f.reason, f.rank), (Reason::PortShared, 1));
        assert!(
            f.text
                .contains("ranks 0 (host2) and 1 (host2) share port 2"),
            "{}",
            f.text
        );
        votes[1].host_key = 7;
        let f = decide(&votes, 0, 1).unwrap_err();
        assert_eq!((f.reason, f.rank), (Reason::PortShared, 0));
        assert!(
            f.text.contains("more than 1 ranks share port 2"),
            "{}",
            f.text
        );
    }

    #[test]
    fn a_rank_without_a_device_or_beyond_the_switch_is_named() {
        let mut votes = vec![vote(0), vote(1), vote(2)];
        votes[2].max_members = 2;
        let f = decide(&votes, 0, 64).unwrap_err();
        assert_eq!((f.reason, f.rank), (Reason::PortOutOfRange, 2));
        votes[1].device = false;
        let f = decide(&votes, 0, 64).unwrap_err();
        assert_eq!((f.reason, f.rank), (Reason::NoDevice, 1));
        assert_eq!(f.text, "rank 1 has no usable GBA device");
    }

    #[test]
    fn outcomes_decide_offload_retry_or_who_caused_the_fallback() {
        use Outcome::*;
        assert_eq!(after_round(&[Ready, Ready], 3, 0b1000), Next::Offload);
        assert_eq!(
            after_round(&[Ready, Busy, Refused], 3, 0b1_1000),
            Next::Retry { common: 0b1_0000 }
        );
        let fallback = |o: &[Outcome]| match after_round(o, 0, 1) {
            Next::Fallback { reason, rank, .. } => (reason, rank),
            other => panic!("{other:?}"),
        };
        assert_eq!(fallback(&[Timeout, Refused, Denied]), (Reason::Denied, 2));
        assert_eq!(fallback(&[Timeout, Refused, Ready]), (Reason::Configure, 1));
        assert_eq!(fallback(&[Ready, Timeout]), (Reason::Timeout, 1));
        assert_eq!(Outcome::from_byte(Denied as u8), Denied);
        assert_eq!(Outcome::from_byte(200), Refused);
    }

    #[test]
    fn the_first_round_takes_the_lowest_group_and_every_pick_is_a_common_one() {
        assert_eq!(pick_group(0b1011_0000, 7, 0), 4);
        for key in 0..200u64 {
            for attempt in 0..40 {
                let common = (key as u32).wrapping_mul(0x9e37_79b9) | 1 << (attempt % 32);
                let g = pick_group(common, key, attempt);
                assert!(common & (1 << g) != 0, "group {g} not in {common:#b}");
                assert_eq!(
                    g,
                    pick_group(common, key, attempt),
                    "every rank picks alike"
                );
            }
        }
    }

    /// The cluster stage's failure: two halves of a job claim at once, and on every port the
    /// same half always wins (its rank is the faster there), so each round both lose. A small
    /// model of that contention, not the team code: a team forms when the other tried another
    /// group that round; when both tried the same one, both lose it.
    fn contend(pick: impl Fn(u32, u64, u32) -> u32, keys: [u64; 2]) -> [bool; 2] {
        let mut common = [!1u32; 2]; // group 0 is the whole job's
        let mut formed = [false; 2];
        for attempt in 0..gba_pac::MAX_GROUPS as u32 {
            let tries = [0, 1]
                .map(|t| (!formed[t] && common[t] != 0).then(|| pick(common[t], keys[t], attempt)));
            for t in 0..2 {
                let Some(g) = tries[t] else { continue };
                if tries[1 - t] == Some(g) {
                    common[t] &= !(1 << g);
                } else {
                    formed[t] = true;
                    common[1 - t] &= !(1 << g); // the other team now sees it taken
                }
            }
        }
        formed
    }

    #[test]
    fn two_teams_that_collide_on_every_round_part_within_a_few_retries() {
        for seed in 0..1000u64 {
            let keys = [mix(seed), mix(seed + 1_000_000)];
            assert_eq!(contend(pick_group, keys), [true, true], "keys {keys:x?}");
        }
        // The pick before the fix, the lowest common group: the teams never part.
        let lowest = |common: u32, _key: u64, _attempt: u32| common.trailing_zeros();
        assert_eq!(contend(lowest, [1, 2]), [false, false]);
    }
}
