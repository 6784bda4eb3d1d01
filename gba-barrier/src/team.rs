//! Teams: the group agreement, done once in the library (docs/design/teams.md).
//!
//! A runtime hands [`Team::create`] an out-of-band allgather ([`OutOfBand`]), the caller's rank
//! and the team size. Every rank contributes a fixed-size vote (device status, PORT_ID, free
//! groups); every rank then computes the same function of the same gathered bytes, so every
//! rank returns the same [`Verdict`]: offloaded on group g, or a fallback naming the reason
//! and the rank that caused it. The runtime then uses [`Team::wait`] (or `arrive`/`test`)
//! when offloaded, and its own software barrier otherwise.
//!
//! Ranks that share a PORT_ID and a host key are one member (host combining, see
//! [`crate::combine`]): the first to claim configures the group, the others join its claim by
//! the team key (rank 0's). Ranks sharing a PORT_ID without a common host segment fall back
//! with [`Reason::PortShared`]. Agreement: AND of
//! the free masks, lowest common group, configure, allgather of the outcomes, and a retry
//! without a group that some rank lost to GROUP_BUSY, on a common group the team key picks (at
//! most `MAX_GROUPS` rounds). The vote's
//! bytes and the decisions taken from the gathered votes are pure functions (`team/vote.rs`).

use std::fmt;
use std::time::Duration;

use gba_hal::{GroupConfig, MemberSet};

use crate::any_device::{AnyBarrier, AnyDevice};
use crate::wait_error::{Missing, WaitError, Who};

mod cache;
mod dir;
mod local;
mod missing;
mod timing;
mod vote;
pub use cache::TEAM_CACHE_ENV;
pub use dir::DirOob;
pub use timing::TEAM_TIMING_ENV;

use cache::Candidates;
use local::{cpu_summary, hostname, machine_key, team_key};
use timing::Clock;
use vote::{Failure, Next, Outcome, Vote};

/// The runtime's out-of-band allgather: `recv` (of `send.len() * size` bytes) receives rank
/// i's `send` at offset `i * send.len()`. Blocking; every rank calls it the same number of
/// times with the same length.
pub trait OutOfBand {
    /// One round: on return, `recv[i * send.len()..][..send.len()]` holds rank i's `send`. An
    /// error ends [`Team::create`] with it on this rank.
    fn allgather(&mut self, send: &[u8], recv: &mut [u8]) -> Result<(), OobError>;
}

impl<F: FnMut(&[u8], &mut [u8]) -> Result<(), OobError>> OutOfBand for F {
    fn allgather(&mut self, send: &[u8], recv: &mut [u8]) -> Result<(), OobError> {
        self(send, recv)
    }
}

/// The runtime's allgather failed: the team cannot agree on anything (not a fallback: the
/// ranks may be out of step, so the runtime's own error handling must take over).
#[derive(Debug, Clone, thiserror::Error)]
#[error("the out-of-band allgather failed: {0}")]
pub struct OobError(pub String);

/// How a team is created.
#[derive(Debug, Clone, Copy)]
pub struct TeamParams {
    /// How long a configuration may wait for READY (`None`: no limit).
    pub configure_timeout: Option<Duration>,
}

impl Default for TeamParams {
    fn default() -> Self {
        TeamParams {
            configure_timeout: Some(gba_hal::DEFAULT_CONFIGURE_TIMEOUT),
        }
    }
}

/// Why a team falls back to a software barrier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The rank has no usable device (none opened, or it failed).
    NoDevice,
    /// Ranks report the same PORT_ID without sharing one host segment (two hosts, or a device
    /// without host arbitration), or too many share one port.
    PortShared,
    /// The rank's PORT_ID is beyond the switch's member range.
    PortOutOfRange,
    /// No group is free on every member (or every common one was lost to GROUP_BUSY).
    NoFreeGroup,
    /// The rank could not configure the agreed group (refused, device error).
    Configure,
    /// The rank's configuration did not become READY in time.
    Timeout,
    /// The rank's arbiter refused the claim: its user holds its quota of groups on its port,
    /// or another user holds the team's key.
    Denied,
}

/// What every rank of a team learns from [`Team::create`]: the same value on every rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The barrier runs on the GBA, on `group`, over `ports` (the members).
    Offloaded {
        /// The GBA group, `0..MAX_GROUPS`.
        group: u32,
        /// The switch ports of the team's members (one per host).
        ports: MemberSet,
    },
    /// Use a software barrier: `rank` (of the team) caused it, for `reason`, explained by
    /// `text` (identical on every rank).
    Fallback {
        /// The category of the cause, the same on every rank (for counting and tests).
        reason: Reason,
        /// The team rank whose vote caused the fallback.
        rank: u32,
        /// The explanation, for the runtime's log.
        text: String,
    },
}

impl Verdict {
    /// Whether the barrier runs on the GBA.
    pub fn is_offloaded(&self) -> bool {
        matches!(self, Verdict::Offloaded { .. })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Offloaded { group, ports } => {
                write!(f, "offloaded on GBA group {group} ({} ports)", ports.len())
            }
            Verdict::Fallback { text, .. } => write!(f, "software barrier: {text}"),
        }
    }
}

/// One rank's team: its verdict and, when offloaded, its barrier. `Send`, not `Sync`: one
/// thread at a time per team; distinct teams may be used from distinct threads at once.
#[derive(Debug)]
pub struct Team {
    verdict: Verdict,
    barrier: Option<AnyBarrier>,
    rank: u32,
    size: u32,
    /// Each member port's hostname (from round 1), for timeouts.
    hosts: Vec<(u32, String)>,
    /// The key of the team that configured the group (rank 0's at that formation; the same
    /// through reuses): a parked barrier's identity. `None` for a fallback.
    key: Option<gba_hal::TeamKey>,
    /// Formed on a parked group (for the timing log).
    reused: bool,
}

/// Round 1's vote: [`Vote`]'s fields (`vote::FIELDS` bytes), then this rank's parked barriers
/// (`cache::SLOTS` slots).
const VOTE: usize = PARKED + cache::SLOTS * cache::SLOT;
const PARKED: usize = vote::FIELDS;

impl Team {
    /// Agrees with the other `size - 1` ranks (over `oob`) on a group and configures it; see
    /// the module's description. `device` is `None` on a rank without one (it still votes,
    /// so the others do not hang). Errors only when the allgather fails or `rank >= size`.
    /// A returned team (either verdict) follows at least one completed allgather, so every
    /// rank has entered `create`: formed inside a barrier, it is that barrier.
    pub fn create(
        device: Option<&AnyDevice>,
        oob: &mut dyn OutOfBand,
        rank: u32,
        size: u32,
        params: &TeamParams,
    ) -> Result<Team, OobError> {
        if size == 0 || rank >= size {
            return Err(OobError(format!(
                "rank {rank} is not below the team size {size}"
            )));
        }
        let mut clock = Clock::start();
        let mut parked = Candidates::take(device);
        let (mut team, any_parked) =
            Self::agree(device, oob, rank, size, params, &mut parked, &mut clock)?;
        if any_parked
            && matches!(
                team.verdict,
                Verdict::Fallback {
                    reason: Reason::NoFreeGroup | Reason::Denied,
                    ..
                }
            )
        {
            // Groups its ranks keep parked may be the ones it lacks (or count against the
            // quota): every rank saw the same votes, so every rank releases its parked ones,
            // waits for all to have done so (a group is free only once no port enables it),
            // and agrees again.
            parked.release();
            drop(device.map(AnyDevice::unpark_all));
            let mut sync = vec![0u8; size as usize];
            oob.allgather(&[0], &mut sync)?;
            Clock::lap(&mut clock, "release parked groups");
            team = Self::agree(
                device,
                oob,
                rank,
                size,
                params,
                &mut Candidates::none(),
                &mut clock,
            )?
            .0;
        }
        drop(parked);
        let outcome = match &team.verdict {
            Verdict::Offloaded { group, .. } if team.reused => format!("reused group {group}"),
            Verdict::Offloaded { group, .. } => format!("configured group {group}"),
            Verdict::Fallback { reason, .. } => format!("fell back ({reason:?})"),
        };
        Clock::report(clock, rank, size, &outcome);
        Ok(team)
    }

    /// One agreement: the vote, then a parked group reused or a group configured. Also says
    /// whether any rank voted a parked one.
    fn agree(
        device: Option<&AnyDevice>,
        oob: &mut dyn OutOfBand,
        rank: u32,
        size: u32,
        params: &TeamParams,
        parked: &mut Candidates,
        clock: &mut Option<Clock>,
    ) -> Result<(Team, bool), OobError> {
        let n = size as usize;
        let (host_key, team_key) = (
            device.and_then(AnyDevice::host_key).unwrap_or(0),
            Some(team_key()),
        );
        // A rank with a parked barrier votes no free groups: reading them (the host's claim
        // records, each claimant's liveness) costs more than the rest of the vote, and a team
        // that reuses one does not need them. Should the team not reuse one, every rank sees
        // from the votes that some rank deferred, and they gather their free groups then.
        // A port the kernel driver revoked under this rank (removed, unbound or reset since it
        // was opened) is no device: said so, rather than found with no free group.
        let revoked = device.is_some_and(|d| d.revoked().is_some());
        let mine = Vote {
            device: device.is_some() && !revoked,
            revoked,
            port: device.map_or(u32::MAX, |d| d.identity().port as u32),
            free: match device {
                Some(d) if parked.is_empty() && !revoked => d.free_groups().0,
                _ => 0,
            },
            max_members: device.map_or(0, |d| d.identity().max_members as u32),
            host_key,
            team_key,
            machine_key: 0,
            cpus: 0,
            hostname: String::new(),
        };
        Clock::lap(clock, "keys+free groups");
        let mine = Vote {
            cpus: cpu_summary(),
            ..mine
        };
        Clock::lap(clock, "affinity");
        let mine = Vote {
            machine_key: machine_key(),
            hostname: hostname(),
            ..mine
        };
        let mut bytes = [0u8; VOTE];
        mine.encode(&mut bytes);
        parked.vote(&mut bytes[PARKED..]);
        Clock::lap(clock, "vote");
        let mut gathered = vec![0u8; VOTE * n];
        oob.allgather(&bytes, &mut gathered)?;
        Clock::lap(clock, "round 1");
        let votes: Vec<Vote> = gathered.chunks_exact(VOTE).map(Vote::decode).collect();
        let slots = cache::Slots {
            votes: &gathered,
            stride: VOTE,
            at: PARKED,
        };
        let any_parked = cache::any(slots, n);
        let team = |verdict, barrier, key| Team {
            verdict,
            barrier,
            rank,
            size,
            hosts: Vec::new(),
            key,
            reused: false,
        };
        let fallback = |reason, r: usize, text: String| {
            Ok((
                team(
                    Verdict::Fallback {
                        reason,
                        rank: r as u32,
                        text,
                    },
                    None,
                    None,
                ),
                any_parked,
            ))
        };

        // 1. Every rank has a device; the members are their ports (ranks sharing one combine).
        let plan = match vote::decide(&votes, rank as usize, gba_hal::host::MAX_LOCAL) {
            Ok(plan) => plan,
            Err(f) => return fallback(f.reason, f.rank, f.text),
        };
        let ports = plan.ports;

        // 2. The same ranks' parked group, when every one of them kept it: nothing to claim,
        // configure or agree on again.
        if let Some(tag) = cache::agreed(slots, n, rank as usize) {
            let mut barrier = parked
                .take_agreed(&tag)
                .expect("this rank voted the agreed tag from its own candidates");
            barrier.set_wait_policy(plan.policy);
            Clock::lap(clock, "reuse");
            let mut team = team(
                Verdict::Offloaded {
                    group: tag.group,
                    ports,
                },
                Some(barrier),
                Some(tag.key),
            );
            team.hosts = plan.hosts;
            team.reused = true;
            return Ok((team, any_parked));
        }
        let mut common = if any_parked {
            // Some rank deferred its free groups (above): gather everyone's now.
            let device = device.expect("every rank has a device (checked above)");
            let mut free = vec![0u8; 4 * n];
            oob.allgather(&device.free_groups().0.to_le_bytes(), &mut free)?;
            Clock::lap(clock, "deferred free groups+allgather");
            free.chunks_exact(4).fold(u32::MAX, |m, f| {
                m & u32::from_le_bytes(f.try_into().expect("4 bytes"))
            })
        } else {
            votes.iter().fold(u32::MAX, |m, v| m & v.free)
        };

        // 3. A common group (the lowest first), configure, agree on the outcomes; drop busy ids and retry.
        for attempt in 0..gba_pac::MAX_GROUPS as u32 {
            if common == 0 {
                break;
            }
            // The team key's first word: 64 random bits, the same on every rank, spread the picks.
            let group = vote::pick_group(common, plan.local_team.key.words()[0], attempt);
            let config = GroupConfig::new(group as usize, ports)
                .timeout(params.configure_timeout)
                .team(plan.local_team);
            let device = device.expect("every rank has a device (checked above)");
            let (outcome, barrier) = match device.barrier(config) {
                Ok(b) => (Outcome::Ready, Some(b)),
                Err(e) if e.is_retryable() => (Outcome::Busy, None),
                Err(gba_hal::Error::Timeout { .. }) => (Outcome::Timeout, None),
                Err(gba_hal::Error::ClaimRefused {
                    refusal: gba_hal::Refusal::Revoked { .. },
                    ..
                }) => (Outcome::Revoked, None),
                Err(gba_hal::Error::ClaimRefused { .. }) => (Outcome::Denied, None),
                Err(_) => (Outcome::Refused, None),
            };
            Clock::lap(clock, "claim+configure+READY");
            let mut outcomes = vec![0u8; n];
            oob.allgather(&[outcome as u8], &mut outcomes)?;
            Clock::lap(clock, "round 2");
            let outcomes: Vec<Outcome> = outcomes.into_iter().map(Outcome::from_byte).collect();
            let (reason, r, what) = match vote::after_round(&outcomes, group, common) {
                Next::Offload => {
                    let mut barrier = barrier;
                    if let Some(b) = barrier.as_mut() {
                        b.set_wait_policy(plan.policy);
                    }
                    let key = Some(plan.local_team.key);
                    let mut team = team(Verdict::Offloaded { group, ports }, barrier, key);
                    team.hosts = plan.hosts;
                    return Ok((team, any_parked));
                }
                Next::Retry { common: left } => {
                    common = left;
                    continue;
                }
                Next::Fallback { reason, rank, what } => (reason, rank, what),
            };
            let what = match what {
                Failure::Revoked => "found the port removed, unbound or reset (the kernel \
                                     driver revoked the file it opened: ENODEV); that \
                                     process must open the port again once it is back"
                    .to_string(),
                Failure::Denied => "was denied by its host's arbiter: its user holds its quota of \
                                    groups on its port (GBA_GROUP_QUOTA, or the kernel driver's \
                                    groups_per_uid), or another user holds the team's claim; \
                                    that rank's error says which"
                    .to_string(),
                Failure::Refused => "was refused".to_string(),
                Failure::Timeout => {
                    // The runtime adds which of its parameters sets the limit.
                    let limit = params.configure_timeout.unwrap_or(Duration::MAX);
                    format!("did not become READY within the configure timeout ({limit:?})")
                }
            };
            return fallback(
                reason,
                r,
                format!("rank {r}'s configuration of GBA group {group} {what}"),
            );
        }
        fallback(
            Reason::NoFreeGroup,
            0,
            "no GBA group is free on every member (all in use by other teams or jobs)".into(),
        )
    }

    /// What the team agreed on: the same on every rank.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// Whether the team was formed on a group the same ranks' previous team parked (no claim,
    /// configuration or READY; see `GBA_TEAM_CACHE`).
    pub fn reused(&self) -> bool {
        self.reused
    }

    /// This process's rank in the team, `0..size`.
    pub fn rank(&self) -> u32 {
        self.rank
    }

    /// How many processes the team has.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The offloaded barrier, `None` on a fallback team (the runtime runs its own).
    pub fn barrier(&mut self) -> Option<&mut AnyBarrier> {
        self.barrier.as_mut()
    }

    /// The barrier on the GBA; on a fallback team, an error saying so.
    pub fn wait(&mut self, timeout: Option<Duration>) -> Result<(), TeamError> {
        let result = self.offloaded()?.wait(timeout);
        result.map_err(|e| self.name_missing(e))
    }

    /// Split phase: arrive without waiting (finish with [`test`](Self::test) or
    /// [`wait_pending`](Self::wait_pending)).
    pub fn arrive(&mut self) -> Result<(), TeamError> {
        Ok(self.offloaded()?.arrive()?)
    }

    /// Polls the pending episode once: `Some(true)` when complete.
    pub fn test(&mut self) -> Result<Option<bool>, TeamError> {
        Ok(self.offloaded()?.poll().transpose()?)
    }

    /// Waits for the pending episode; `None` when none is pending.
    pub fn wait_pending(&mut self, timeout: Option<Duration>) -> Result<Option<()>, TeamError> {
        let result = self.offloaded()?.wait_pending(timeout).transpose();
        result.map_err(|e| self.name_missing(e))
    }

    /// The hostname each member port reported at creation.
    pub fn hosts(&self) -> &[(u32, String)] {
        &self.hosts
    }

    /// A timeout names the missing ports with their hostnames and, on this host, the local
    /// processes that have not arrived (pid, team rank, alive).
    fn name_missing(&self, mut error: Box<WaitError>) -> TeamError {
        let local = self
            .barrier
            .as_ref()
            .map(AnyBarrier::local_missing)
            .unwrap_or_default();
        // This process's own port is marked: with host combining it is missing exactly when a
        // local team-mate has not arrived (named below), not because the host is unreachable.
        let own = match self.barrier.as_ref().map(AnyBarrier::who) {
            Some(Who::Group { member, .. }) => Some(member),
            _ => None,
        };
        if let WaitError::Timeout { missing, .. } | WaitError::Device { missing, .. } = &mut *error
        {
            // The port says Unreadable where the configuration page is not this process's to
            // read (the kernel driver's mapping, its GBA_IOC_STATE failing): then no port can
            // be named from ARRIVED_MASK.
            let none = MemberSet::new();
            let (ports, arrivals_readable) = match missing {
                Missing::Members(ports) => (&*ports, true),
                Missing::Unreadable { .. } => (&none, false),
                _ => return TeamError::Wait(error),
            };
            let text = missing::describe(&missing::Seen {
                ports,
                arrivals_readable,
                own,
                hosts: &self.hosts,
                local: &local,
            });
            *missing = Missing::Named(text);
        }
        TeamError::Wait(error)
    }

    fn offloaded(&mut self) -> Result<&mut AnyBarrier, TeamError> {
        match &mut self.barrier {
            Some(b) => Ok(b),
            None => Err(TeamError::Fallback(self.verdict.to_string())),
        }
    }
}

/// Dropping an offloaded team parks its barrier in its device for the next team of the same
/// ranks (see `cache.rs`) when it can be reused: nothing pending, the group READY without
/// error, reuse on (`GBA_TEAM_CACHE`). Otherwise the group is released on this port.
impl Drop for Team {
    fn drop(&mut self) {
        let Some(barrier) = self.barrier.take() else {
            return;
        };
        let start = timing::enabled().then(std::time::Instant::now);
        let group = match self.verdict {
            Verdict::Offloaded { group, .. } => group,
            Verdict::Fallback { .. } => u32::MAX,
        };
        // A team with a barrier has a key (offloaded: rank 0's); without one, nothing to park by.
        let key = self
            .key
            .filter(|_| cache::capacity() > 0 && !barrier.is_pending());
        let reusable = key.is_some() && {
            let s = barrier.snapshot();
            s.ready && s.error.is_none()
        };
        if let (true, Some(key)) = (reusable, key) {
            let tag = crate::any_device::ParkTag {
                key,
                rank: self.rank,
                size: self.size,
                group,
                episode: barrier.episode(),
            };
            barrier.park(tag, cache::capacity());
        } else {
            drop(barrier);
        }
        if let Some(start) = start {
            timing::say(&format!(
                "gba-barrier: team rank {} of {}: group {group} {} in {:.1} us\n",
                self.rank,
                self.size,
                if reusable { "parked" } else { "released" },
                timing::micros(start.elapsed())
            ));
        }
    }
}

/// A team operation failed.
#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    /// The team is not offloaded: the runtime must use its software barrier.
    #[error("this team is not offloaded ({0}); use the runtime's software barrier")]
    Fallback(String),
    /// The offloaded barrier's wait failed (timed out, the group reported an error, or the device
    /// went away).
    #[error(transparent)]
    Wait(#[from] Box<WaitError>),
}

impl From<WaitError> for TeamError {
    fn from(error: WaitError) -> Self {
        TeamError::Wait(Box::new(error))
    }
}
