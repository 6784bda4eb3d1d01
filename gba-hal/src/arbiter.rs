//! Host arbitration (ARCHITECTURE.md "Host arbitration is one value a backend offers"): which
//! process of this host holds which group of a port, asked through one trait whatever
//! arbitrates (the host segment, the kernel driver, or nobody because one process alone can
//! open the device), so that no caller matches on a backend's type to find claims.

use core::fmt;

use crate::backend::{DmaRegion, LocalArrivals, LocalTeam};
use crate::members::{GroupSet, MemberSet};

/// The environment variable that sets how many groups of a port one user may hold through
/// the host segment (default [`DEFAULT_GROUP_QUOTA`]), read by the process that makes the
/// segment (or the simulator's fabric) and recorded in it: every later opener applies the
/// recorded quota. The kernel driver's quota is its `groups_per_uid` module parameter.
pub const QUOTA_ENV: &str = "GBA_GROUP_QUOTA";

/// Groups of a port one user may hold unless [`QUOTA_ENV`] says otherwise.
pub const DEFAULT_GROUP_QUOTA: u32 = 8;

/// The claims of a port's groups from one reading of its claim records
/// ([`HostArbiter::claim_sets`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClaimSets {
    /// Groups whose claim a live process holds.
    pub held: GroupSet,
    /// Groups whose claim only dead processes hold (or another user beyond the quota), which
    /// [`HostArbiter::take_dead`] can take over.
    pub dead: GroupSet,
}

/// A port's host arbitration, from [`Backend::host`](crate::Backend::host).
///
/// The HAL calls [`claim`](Self::claim) before writing any register of a group, and then:
/// after [`Claim::Won`], configures the group and [`hold`](Self::hold)s it (or gives it back
/// with [`release`](Self::release)); after [`Claim::Joined`] or [`Claim::Configured`] it
/// writes no configuration. Dropping the group calls [`leave`](Self::leave); when that says
/// this was the host's last process, the HAL resets the group, frees the flag and calls
/// [`release`](Self::release).
pub trait HostArbiter: Send + Sync {
    /// Takes or joins this host's claim on `group` for `team` (`None`: this backend value
    /// alone), whose member set is `members`, atomically against every other process and
    /// backend value on the port. See [`Claim`] for the outcomes.
    fn claim(&self, group: usize, team: Option<&LocalTeam>, members: &MemberSet) -> Claim;

    /// The winner of a [`Claim::Won`] publishes the configured group and its release flag to
    /// its team-mates. False when the claim was taken over meanwhile (its owner was thought
    /// dead): the caller then gives up as on [`Claim::Busy`].
    fn hold(&self, group: usize, flag: &DmaRegion) -> bool;

    /// Leaves a held claim. True when this was the host's last process in it and the caller
    /// must reset the group, free the flag and [`release`](Self::release) the claim; false
    /// when others stay, or when the arbiter resets the group itself (the kernel driver).
    fn leave(&self, group: usize) -> bool;

    /// Frees the claim (after the group was reset on this port, by the winner that failed to
    /// configure it or by the last process to leave it).
    fn release(&self, group: usize);

    /// Groups whose claim a live owner holds, for
    /// [`Device::free_groups`](crate::Device::free_groups).
    fn claimed_groups(&self) -> GroupSet;

    /// [`claimed_groups`](Self::claimed_groups), and the groups whose claim only dead
    /// processes hold (on the host segment also another user's claims beyond the quota, which
    /// a claim takes over the same way), which [`take_dead`](Self::take_dead) can take over,
    /// from one reading of the claims. The default: none held by the dead (an arbiter that frees a dead
    /// process's claims itself, as the kernel driver does when its file closes).
    fn claim_sets(&self) -> ClaimSets {
        ClaimSets {
            held: self.claimed_groups(),
            dead: GroupSet::default(),
        }
    }

    /// Takes over `group`'s claim if every process of it is dead: true when this process now
    /// holds it as a winner that has configured nothing, and must reset the group on this
    /// port and [`release`](Self::release) it (what the dead process's own clean-up would
    /// have done). [`Device::free_groups`](crate::Device::free_groups) does this, so that a
    /// killed job's group does not stay enabled, and busy switch-wide, for ever.
    fn take_dead(&self, _group: usize) -> bool {
        false
    }

    /// Takes over and resets the dead claims of `groups` on the switch's
    /// *other* ports, where this arbiter reaches their host state and registers: for each
    /// claim there that only dead processes hold, the same atomic take-over as
    /// [`take_dead`](Self::take_dead) (a compare-exchange of the claim word against the dead
    /// claimant's, so a claim a live process has just taken is never touched), then RESET of
    /// the group on that port, then the claim freed; `each` is called with each. The
    /// default: none, as for every hardware arbiter (UIO, VFIO, the kernel driver), which
    /// reaches its own port only. The simulator's reaches every port of its fabric, so
    /// [`Device::free_groups`](crate::Device::free_groups) there frees a killed job's group
    /// on the ports the next team does not use too.
    fn reclaim_other_ports(&self, _groups: GroupSet, _each: &mut dyn FnMut(&Reclaimed)) {}

    /// The host's local-arrivals block of a held `group` when the team has more than one process
    /// on this port. `None` for a claim of one process.
    fn local_arrivals(&self, group: usize) -> Option<LocalArrivals>;

    /// What identifies the place this port is arbitrated in (boot id and the segment's or
    /// device's identity, hashed), so that a team can tell "two processes of one host on its
    /// port" from "two hosts reporting the same PORT_ID". `None`: two processes cannot share
    /// this port.
    fn host_key(&self) -> Option<u64>;

    /// The refusal every claim on this port now gets because the port is gone for good under
    /// this process (the kernel driver revoked the file it was opened on: the port was
    /// removed, unbound or reset), so that a team forming on it says so instead of finding no
    /// free group. `None` (the default) while the port serves claims, and for every arbiter
    /// whose port cannot be revoked under a process.
    fn revoked(&self) -> Option<Refusal> {
        None
    }

    /// Calls `each` with every claim that is not free (`gba dump`, `gba sim status`).
    fn claims(&self, each: &mut dyn FnMut(&ClaimReport));

    /// Calls `each` with every local process registered in `group`'s claim (timeouts name
    /// the ones that did not arrive).
    fn local_slots(&self, group: usize, each: &mut dyn FnMut(&LocalSlot));
}

/// The outcome of [`HostArbiter::claim`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This process configures the group (RESET first), then [`HostArbiter::hold`]s it.
    Won,
    /// A process of the same team (same [`LocalTeam::key`], same user) holds the group,
    /// configured and READY; `flag` is the release flag it shares with this process.
    Joined {
        /// The team's release flag.
        flag: DmaRegion,
    },
    /// The arbiter configured the group for this claim itself (the kernel driver writes the
    /// configuration page): the caller writes no configuration, waits for READY as a winner
    /// does, and leaves with [`HostArbiter::leave`], after which the arbiter resets it.
    Configured {
        /// The release flag the arbiter gave the group.
        flag: DmaRegion,
    },
    /// A team-mate is configuring it: ask again.
    Wait,
    /// Another team with a live process holds it
    /// ([`Error::GroupBusy`](crate::Error::GroupBusy)); the owner's group is untouched.
    Busy,
    /// The arbiter refuses this process the group, for a reason another group id would not
    /// change ([`Error::ClaimRefused`](crate::Error::ClaimRefused)).
    Refused(Refusal),
}

/// Why an arbiter refused a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The team key is that of a claim another user holds: only the same user may join.
    OtherUser {
        /// The holder's uid.
        holder: u32,
        /// This process's uid.
        me: u32,
    },
    /// This user holds its quota of groups on this port already.
    Quota {
        /// The user.
        uid: u32,
        /// Groups it holds on this port.
        held: u32,
        /// The port's quota per user.
        quota: u32,
    },
    /// The device was removed, unbound or reset under this process (the kernel driver's
    /// `ENODEV`, or its node gone): every claim and mapping made through the file this process
    /// opened is revoked.
    Revoked {
        /// The device file the port was opened on (`/dev/gba0`).
        device: &'static str,
    },
    /// The arbiter's own reason (the kernel driver's), in its words.
    Arbiter {
        /// The arbiter's words.
        reason: &'static str,
    },
    /// The host segment holds a value its layout does not allow in a word of `group`'s
    /// record (damaged, or written by a process that may write the segment): named, with
    /// what it may hold, instead of being trusted.
    Corrupt {
        /// The file holding the segment.
        file: &'static str,
        /// The group whose record it is.
        group: usize,
        /// The word's name.
        word: &'static str,
        /// What it holds.
        value: u64,
        /// What it may hold.
        allowed: &'static str,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::OtherUser { holder, me } => write!(
                f,
                "its claim has this team's key but is held by uid {holder}, and only the same user may join (this process is uid {me}); a team's processes must run as one user"
            ),
            Refusal::Quota { uid, held, quota } => write!(
                f,
                "uid {uid} holds {held} groups on this port, its quota of {quota}: free one (end a job or a communicator), or raise the quota ({QUOTA_ENV} of whoever makes the host segment or fabric, the kernel driver's groups_per_uid parameter)"
            ),
            Refusal::Revoked { device } => write!(
                f,
                "{device} was removed, unbound or reset (ENODEV): every claim and mapping made through it is revoked; open the port again once it is back (its node may have another number: ls /dev/gba*)"
            ),
            Refusal::Arbiter { reason } => f.write_str(reason),
            Refusal::Corrupt {
                file,
                group,
                word,
                value,
                allowed,
            } => write!(
                f,
                "the host segment {file} is corrupt: group {group}'s {word} reads {value:#x}, where it may hold {allowed}; remove the file (or re-create the fabric) when no process uses the port"
            ),
        }
    }
}

/// A claim's state as [`HostArbiter::claims`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimState {
    /// Its winner is configuring the group (or its last process is resetting it).
    Claiming,
    /// Configured and published: team-mates join it.
    Held,
}

impl fmt::Display for ClaimState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClaimState::Claiming => "claiming",
            ClaimState::Held => "held",
        })
    }
}

/// One claim, as [`HostArbiter::claims`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimReport {
    /// The group.
    pub group: usize,
    /// Held, or being configured.
    pub state: ClaimState,
    /// The claimant's pid, in its own PID namespace (0: the arbiter names no process).
    pub pid: u64,
    /// The claimant's uid (`None`: the arbiter does not say).
    pub uid: Option<u32>,
    /// Whether the claimant counts as alive (a claimant in another PID namespace does).
    pub alive: bool,
    /// The claimant is in another PID namespace than this process: its pid means nothing
    /// here, so it counts as alive.
    pub other_pid_namespace: bool,
    /// The team key (`None` where the arbiter keeps it secret, as the kernel driver does).
    pub team_key: Option<crate::TeamKey>,
    /// Processes in the claim.
    pub joined: u64,
    /// L: the team's processes on this port.
    pub local: u64,
}

/// `g0=PID uid U held team 0x… joined 2/2`, with `(dead)` after a dead claimant's pid and
/// `(other PID namespace)` after one that cannot be checked from here.
impl fmt::Display for ClaimReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "g{}={}", self.group, self.pid)?;
        if self.other_pid_namespace {
            f.write_str(" (other PID namespace)")?;
        } else if !self.alive {
            f.write_str(" (dead)")?;
        }
        if let Some(uid) = self.uid {
            write!(f, " uid {uid}")?;
        }
        write!(f, " {}", self.state)?;
        if let Some(key) = self.team_key {
            write!(f, " team {key:#x}")?;
        }
        write!(f, " joined {}/{}", self.joined, self.local)
    }
}

/// A group reset on a port because only dead processes held it, as
/// [`Device::reclaim_dead`](crate::Device::reclaim_dead) (or
/// [`HostArbiter::reclaim_other_ports`], or the simulator's `gba sim fault reclaim`) found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reclaimed {
    /// The port the group was reset on (its PORT_ID).
    pub port: usize,
    /// The group reset.
    pub group: usize,
    /// The dead claimant's pid, in its own PID namespace, as the claim record named it;
    /// `None` when no process was named: the simulator reset the group because a fault marked
    /// its port dead.
    pub pid: Option<u64>,
    /// Its uid as the record named it (`None`: not recorded, or no process named).
    pub uid: Option<u32>,
}

/// `g3 on port 2: pid 4242 (dead) uid 1000`, or `g3 on port 2: port marked dead`.
impl fmt::Display for Reclaimed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "g{} on port {}: ", self.group, self.port)?;
        match self.pid {
            Some(pid) => write!(f, "pid {pid} (dead)")?,
            None => write!(f, "port marked dead")?,
        }
        if let Some(uid) = self.uid {
            write!(f, " uid {uid}")?;
        }
        Ok(())
    }
}

/// A local process of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalSlot {
    /// Its slot in the local-arrivals block ([`LocalTeam::index`]).
    pub slot: usize,
    /// Its pid (in its own PID namespace).
    pub pid: u64,
    /// Its rank in the team.
    pub rank: u64,
    /// The last sequence it arrived for.
    pub entered: u64,
    /// Whether the process is alive.
    pub alive: bool,
}

/// The arbiter of a device one process alone can open (a test's plain memory, a device
/// whose driver admits one opener): every claim is won, nothing is shared, nothing is
/// reported. A custom backend chooses it explicitly; it is never a default, because on a
/// port several processes open it lets each overwrite the others' groups.
#[derive(Clone, Copy, Debug, Default)]
pub struct Exclusive;

impl HostArbiter for Exclusive {
    fn claim(&self, _group: usize, _team: Option<&LocalTeam>, _members: &MemberSet) -> Claim {
        Claim::Won
    }

    fn hold(&self, _group: usize, _flag: &DmaRegion) -> bool {
        true
    }

    fn leave(&self, _group: usize) -> bool {
        true
    }

    fn release(&self, _group: usize) {}

    fn claimed_groups(&self) -> GroupSet {
        GroupSet::default()
    }

    fn local_arrivals(&self, _group: usize) -> Option<LocalArrivals> {
        None
    }

    fn host_key(&self) -> Option<u64> {
        None
    }

    fn claims(&self, _each: &mut dyn FnMut(&ClaimReport)) {}

    fn local_slots(&self, _group: usize, _each: &mut dyn FnMut(&LocalSlot)) {}
}

/// Collected reports, for callers with an allocator.
#[cfg(feature = "std")]
impl dyn HostArbiter + '_ {
    /// Every claim that is not free.
    pub fn claim_list(&self) -> Vec<ClaimReport> {
        let mut list = Vec::new();
        self.claims(&mut |c| list.push(*c));
        list
    }

    /// Every local process registered in `group`'s claim.
    pub fn slot_list(&self, group: usize) -> Vec<LocalSlot> {
        let mut list = Vec::new();
        self.local_slots(group, &mut |s| list.push(*s));
        list
    }

    /// The local processes of `group`'s claim that have not entered sequence `seq` (mod
    /// 2^32) yet: what a timeout names on this host.
    pub fn local_missing(&self, group: usize, seq: u32) -> Vec<LocalSlot> {
        let mut list = self.slot_list(group);
        list.retain(|s| s.entered as u32 != seq);
        list
    }
}
