//! Who may hold what in a host segment (ARCHITECTURE.md "Trust on a shared node"): a claim
//! is alive unless its claimant is provably dead in this PID namespace; each user holds at
//! most a quota of the port's groups; records of another user beyond that user's quota are
//! not honoured, so that records planted by whoever can write the segment deny at most a
//! quota of groups, never all of them.

use super::{GROUPS, HostSegment, MAX_LOCAL, R_NS, R_START, R_UID, S_GENERATION, S_NS, S_PID};
use super::{S_START, process};
use crate::arbiter::{DEFAULT_GROUP_QUOTA, QUOTA_ENV};
use crate::claim::{self, Claimant, Liveness, State};

/// Groups one uid may hold on a port (from [`QUOTA_ENV`], else [`DEFAULT_GROUP_QUOTA`]); an
/// error saying what is wrong when the variable is set to anything but 1 to the register
/// map's `MAX_GROUPS`.
pub fn group_quota() -> Result<u32, &'static str> {
    match std::env::var(QUOTA_ENV) {
        Err(std::env::VarError::NotPresent) => Ok(DEFAULT_GROUP_QUOTA),
        Ok(text) => match text.trim().parse::<u32>() {
            Ok(n) if (1..=GROUPS as u32).contains(&n) => Ok(n),
            _ => Err(
                "GBA_GROUP_QUOTA must be a whole number from 1 to the port's groups (MAX_GROUPS; groups one user may hold on a port); unset it for the default, 8",
            ),
        },
        Err(_) => Err(
            "GBA_GROUP_QUOTA is not valid Unicode: set it to a number from 1 to the port's groups (MAX_GROUPS)",
        ),
    }
}

/// [`group_quota`], or the default when the variable is malformed (for deciding whether
/// another user's claim is honoured, where refusing is not ours to do).
pub fn quota_or_default() -> u32 {
    group_quota().unwrap_or(DEFAULT_GROUP_QUOTA)
}

impl HostSegment<'_> {
    /// Who group `g`'s record names as its claimant (with the word's pid).
    pub(super) fn claimant(&self, g: usize, state: State, start: u64) -> process::Claimant {
        process::Claimant {
            pid: state.pid,
            start,
            uid: Claimant::uid_of(self.record_word(g, R_UID).load()),
            pid_ns: self.record_word(g, R_NS).load(),
        }
    }

    /// The uid group `g`'s record names, if the group is claimed and the record says one
    /// (without asking whether its claimant lives).
    pub fn claim_uid(&self, g: usize) -> Option<u32> {
        let state = self.with_record(g, |r| r.state());
        if state.state == claim::FREE {
            return None;
        }
        Claimant::uid_of(self.record_word(g, R_UID).load())
    }

    /// Local slot `s` of group `g` as a claimant (joiners are the claim's user).
    pub(super) fn slot_claimant(&self, g: usize, s: usize, pid: u64) -> process::Claimant {
        process::Claimant {
            pid,
            start: self.slot_word(g, s, S_START).load(),
            uid: Claimant::uid_of(self.record_word(g, R_UID).load()),
            pid_ns: self.slot_word(g, s, S_NS).load(),
        }
    }

    /// Whether the claim of group `g` (word `state`, claimant started at `start`) is still
    /// used: its claimant or any local process registered for this generation of the claim
    /// is alive (see [`process::claimant_alive`]).
    pub(super) fn used(&self, g: usize, state: State, start: u64) -> bool {
        let registered = |s: usize| {
            let pid = self.slot_word(g, s, S_PID).load();
            (pid != 0 && self.slot_word(g, s, S_GENERATION).load() == state.generation)
                .then_some(pid)
        };
        // This process in the claim answers without asking the system (a team's own
        // groups, e.g. its MPI_COMM_WORLD's, are in every free mask it computes).
        let me = process::my_pid();
        (0..MAX_LOCAL).any(|s| registered(s) == Some(me) && !self.slot_elsewhere(g, s))
            || process::claimant_alive(&self.claimant(g, state, start))
            || (0..MAX_LOCAL).any(|s| {
                registered(s)
                    .is_some_and(|pid| process::claimant_alive(&self.slot_claimant(g, s, pid)))
            })
    }

    /// Slot `s` of group `g` was registered from another PID namespace (its pid is not ours,
    /// even if it reads as our pid).
    fn slot_elsewhere(&self, g: usize, s: usize) -> bool {
        process::other_pid_namespace(self.slot_word(g, s, S_NS).load())
    }

    /// Whether group `g`'s claim is another user's beyond that user's `quota`: it names a uid
    /// that is not this process's, and that uid holds `quota` live claims in lower groups
    /// already. Such a claim is not honoured (taken over as a dead one would be): a user
    /// holds at most `quota` groups, its lowest, whatever was written into the segment.
    fn beyond_quota(&self, g: usize, quota: u32) -> bool {
        let Some(uid) = self.claim_uid(g) else {
            return false;
        };
        if uid == process::my_uid() {
            return false;
        }
        let before = (0..g).filter(|&h| self.claim_uid(h) == Some(uid));
        // Counting records is cheap; their liveness is asked only past the quota.
        before.clone().count() >= quota as usize
            && before.filter(|&h| self.held_alive(h)).count() >= quota as usize
    }

    /// Whether group `g` is claimed and its claim used.
    fn held_alive(&self, g: usize) -> bool {
        let state = self.with_record(g, |r| r.state());
        state.state != claim::FREE && self.used(g, state, self.record_word(g, R_START).load())
    }

    /// The groups other than `g` that this process's user holds with a live claim, when
    /// they are `quota` or more (this user may not claim another); `None` below the quota.
    pub(super) fn quota_reached(&self, g: usize, quota: u32) -> Option<u32> {
        let me = process::my_uid();
        let mine = (0..GROUPS).filter(|&h| h != g && self.claim_uid(h) == Some(me));
        if mine.clone().count() < quota as usize {
            return None;
        }
        let held = mine.filter(|&h| self.held_alive(h)).count() as u32;
        (held >= quota).then_some(held)
    }

    /// The liveness of group `g`'s claim for a take-over: used, and not another user's
    /// beyond its quota.
    pub(super) fn claim_live(&self, g: usize, quota: u32) -> impl Liveness + '_ {
        move |state: State, start: u64| self.used(g, state, start) && !self.beyond_quota(g, quota)
    }
}

#[cfg(all(test, not(miri)))]
mod tests {
    use super::super::tests::{Memory, key};
    use super::super::{R_TEAM, R_WORD};
    use super::*;
    use crate::TeamKey;
    use crate::claim::{HELD, Taken};

    /// Writes a held claim of one process into group `g`, as whoever can write the segment
    /// could: pid, uid, PID namespace and team key of its choosing.
    fn plant(segment: &HostSegment<'_>, g: usize, pid: u64, uid: u32, pid_ns: u64, key: TeamKey) {
        for (w, word) in R_TEAM.into_iter().zip(key.words()) {
            segment.record_word(g, w).store(word);
        }
        segment.record_word(g, R_UID).store(Claimant::uid_word(uid));
        segment.record_word(g, R_NS).store(pid_ns);
        segment.record_word(g, super::super::R_LOCAL).store(1);
        let word = State {
            generation: 1,
            state: HELD,
            joined: 1,
            pid,
        };
        segment.record_word(g, R_WORD).store(word.pack());
    }

    /// The denial of service: 32 held claims naming pid 1. Named by another uid in
    /// this namespace they are not pid 1's (it runs as root): dead, taken over. Named from
    /// another PID namespace (alive: nothing there can be checked from here), only that
    /// user's quota of them is honoured; the rest are taken over.
    #[test]
    fn planted_claims_deny_at_most_a_quota_of_groups() {
        let memory = Memory::new();
        let segment = memory.segment();
        let other = process::my_uid().wrapping_add(4242);
        for g in 0..GROUPS {
            plant(&segment, g, 1, other, process::my_pid_ns(), key(0xbad));
        }
        assert_eq!(
            segment.live_claims().0,
            0,
            "pid 1 is not uid {other}'s process"
        );
        assert_eq!(
            segment.take_claim(5, key(0x7ea), 0, 1, 0),
            Taken::Won { over_dead: true }
        );

        let elsewhere = process::my_pid_ns() + 1;
        for g in 0..GROUPS {
            plant(&segment, g, 1, other, elsewhere, key(0xbad));
        }
        assert_eq!(
            segment.live_claims().0,
            0xff,
            "the other user's first 8 groups are honoured, no more"
        );
        assert_eq!(segment.take_claim(3, key(0x7ea), 0, 1, 0), Taken::Busy);
        assert_eq!(
            segment.take_claim(20, key(0x7ea), 0, 1, 0),
            Taken::Won { over_dead: true }
        );
        let report = segment.claims().into_iter().find(|c| c.group == 3).unwrap();
        assert!(report.alive && report.other_pid_namespace, "{report:?}");
        assert_eq!(report.uid, Some(other));
    }

    /// A user at its quota is refused a new group (a join of its own team is not a new
    /// group); another user's live claim with this team's key is not joined.
    #[test]
    fn the_quota_and_the_same_user_rule() {
        let memory = Memory::new();
        let segment = memory.segment().with_quota(4);
        for g in 0..4 {
            assert_eq!(
                segment.take_claim_waiting(g, key(0x100 + g as u64), 0, 2, 0, None),
                Taken::Won { over_dead: false }
            );
            assert!(segment.hold_claim(g, 0, 64));
        }
        assert_eq!(
            segment.take_claim_waiting(9, key(0x7ea), 0, 1, 0, None),
            Taken::Quota { held: 4, quota: 4 }
        );
        assert_eq!(
            segment.take_claim_waiting(2, key(0x102), 1, 2, 1, None),
            Taken::Joined,
            "joining takes no new group"
        );
        segment.leave_claim(2, 1);
        assert_eq!(
            segment
                .with_quota(5)
                .take_claim_waiting(9, key(0x7ea), 0, 1, 0, None),
            Taken::Won { over_dead: false }
        );

        // Another user (alive: this very process, under another uid) holding key 0x55.
        let other = process::my_uid().wrapping_add(1);
        plant(&segment, 12, process::my_pid(), other, 0, key(0x55));
        assert_eq!(
            segment.take_claim(12, key(0x55), 1, 2, 1),
            Taken::OtherUser { uid: other }
        );
    }

    /// Claim, then count: four threads of one user take four different groups at the same
    /// instant, round after round, at a quota of 2. Whatever the interleaving, no round ends
    /// with more than 2 of them holding a group (counting before taking let 3 or 4 pass).
    #[test]
    fn racing_claims_never_pass_the_quota() {
        use std::sync::Barrier;
        use std::sync::atomic::{AtomicU32, Ordering};
        const RACERS: usize = 4;
        const ROUNDS: u32 = 3000;
        let memory = Memory::new();
        let segment = memory.segment().with_quota(2);
        let (start, counted) = (Barrier::new(RACERS), Barrier::new(RACERS));
        let held = AtomicU32::new(0);
        let (most, total) = (AtomicU32::new(0), AtomicU32::new(0));
        std::thread::scope(|s| {
            for t in 0..RACERS {
                let (start, counted, held, most, total) = (&start, &counted, &held, &most, &total);
                s.spawn(move || {
                    for round in 0..ROUNDS {
                        start.wait();
                        let key = key((u64::from(round) << 8) | t as u64 | 0x1000);
                        let won = match segment.take_claim(t, key, 0, 1, 0) {
                            Taken::Won { .. } => {
                                assert!(segment.hold_claim(t, 0, 64));
                                held.fetch_add(1, Ordering::SeqCst);
                                true
                            }
                            Taken::Quota { quota: 2, .. } => false,
                            other => panic!("thread {t}, round {round}: {other:?}"),
                        };
                        counted.wait();
                        if t == 0 {
                            let now = held.swap(0, Ordering::SeqCst);
                            most.fetch_max(now, Ordering::SeqCst);
                            total.fetch_add(now, Ordering::SeqCst);
                        }
                        start.wait();
                        if won {
                            assert!(segment.leave_claim(t, 0), "the claim's only process");
                            segment.free_claim(t);
                        }
                    }
                });
            }
        });
        let (most, total) = (most.into_inner(), total.into_inner());
        assert!(most <= 2, "{most} groups held at once at a quota of 2");
        assert!(total > 0, "some claims pass");
        assert_eq!(segment.live_claims().0, 0);
    }

    #[test]
    fn the_quota_variable_is_checked() {
        // Read in a child: the environment is the process's, shared by the test threads.
        let run = |value: &str| {
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    "host::policy::tests::quota_child",
                    "--ignored",
                    "--nocapture",
                ])
                .env(QUOTA_ENV, value)
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        assert!(run("12").contains("quota: Ok(12)"));
        let all = GROUPS.to_string();
        assert!(run(&all).contains(&format!("quota: Ok({all})")));
        assert!(run("0").contains("from 1 to the port's groups (MAX_GROUPS"));
        assert!(run(&(GROUPS + 1).to_string()).contains("MAX_GROUPS"));
        assert!(run("lots").contains("from 1 to the port's groups (MAX_GROUPS"));
    }

    /// Prints what `group_quota` makes of this process's environment, for the test above.
    #[test]
    #[ignore = "a child process of the_quota_variable_is_checked, started with --ignored"]
    fn quota_child() {
        println!("quota: {:?}", group_quota());
    }
}
