//! Teams on the simulator: the agreement in the library over an out-of-band allgather written
//! here (threads over a mutex and a `std::sync::Barrier`), the verdict identical on every
//! rank, exact BARRIERS_COMPLETED, and distinct teams used from distinct threads at once.

mod common;
use common::fabric;

use std::sync::{Arc, Barrier, Mutex};
use std::time::Duration;

use gba_barrier::AnyDevice;
use gba_barrier::team::{OobError, OutOfBand, Reason, Team, TeamParams, Verdict};
use gba_hal::DeviceAddress;

const LIMIT: Option<Duration> = Some(Duration::from_secs(60));

/// An allgather among threads: each writes its part, all meet, each reads all, all meet.
#[derive(Clone)]
struct ThreadOob {
    parts: Arc<Mutex<Vec<Vec<u8>>>>,
    meet: Arc<Barrier>,
    rank: usize,
}

fn oobs(size: usize) -> Vec<ThreadOob> {
    let parts = Arc::new(Mutex::new(vec![Vec::new(); size]));
    let meet = Arc::new(Barrier::new(size));
    (0..size)
        .map(|rank| ThreadOob {
            parts: parts.clone(),
            meet: meet.clone(),
            rank,
        })
        .collect()
}

impl OutOfBand for ThreadOob {
    fn allgather(&mut self, send: &[u8], recv: &mut [u8]) -> Result<(), OobError> {
        self.parts.lock().unwrap()[self.rank] = send.to_vec();
        self.meet.wait();
        {
            let parts = self.parts.lock().unwrap();
            for (i, part) in parts.iter().enumerate() {
                recv[i * send.len()..(i + 1) * send.len()].copy_from_slice(part);
            }
        }
        self.meet.wait();
        Ok(())
    }
}

/// Creates one team with one thread per rank; rank r opens port `ports[r]` (None: no device).
/// The port's BARRIERS_COMPLETED once the switch has caught up with its fast path.
/// (A whole switch step: a waiter's `progress()` may skip its step under the quiet-step
/// throttle.)
fn completed(path: &std::path::Path, device: &Option<AnyDevice>) -> u64 {
    gba_sim::Fabric::open(path).unwrap().step();
    device.as_ref().unwrap().barriers_completed()
}

fn create(path: &std::path::Path, ports: &[Option<usize>]) -> Vec<(Option<AnyDevice>, Team)> {
    let oob = oobs(ports.len());
    std::thread::scope(|s| {
        let handles: Vec<_> = ports
            .iter()
            .zip(oob)
            .enumerate()
            .map(|(rank, (port, mut oob))| {
                s.spawn(move || {
                    let device =
                        port.map(|p| AnyDevice::open(&DeviceAddress::sim(path, p)).unwrap());
                    let team = Team::create(
                        device.as_ref(),
                        &mut oob,
                        rank as u32,
                        ports.len() as u32,
                        &TeamParams::default(),
                    )
                    .unwrap();
                    (device, team)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn a_team_agrees_offloads_and_counts_every_barrier_exactly() {
    let (_dir, path) = fabric(3);
    let mut ranks = create(&path, &[Some(0), Some(1), Some(2)]);
    let verdict = ranks[0].1.verdict().clone();
    assert!(
        matches!(verdict, Verdict::Offloaded { group: 0, .. }),
        "{verdict}"
    );
    assert!(ranks.iter().all(|(_, t)| *t.verdict() == verdict));
    let before: Vec<u64> = ranks.iter().map(|(d, _)| completed(&path, d)).collect();
    const N: u64 = 200;
    std::thread::scope(|s| {
        for (_, team) in &mut ranks {
            s.spawn(move || {
                for i in 0..N {
                    if i % 2 == 0 {
                        team.wait(LIMIT).unwrap();
                    } else {
                        team.arrive().unwrap();
                        team.wait_pending(LIMIT).unwrap().unwrap();
                    }
                }
            });
        }
    });
    for ((device, _), before) in ranks.iter().zip(before) {
        assert_eq!(completed(&path, device), before + N);
    }
}

#[test]
fn the_fallback_verdict_is_the_same_on_every_rank_and_names_the_rank() {
    let (_dir, path) = fabric(3);
    // A rank without a device still votes, and everyone learns that it is the cause.
    let mut ranks = create(&path, &[Some(0), None, Some(2)]);
    let verdict = ranks[2].1.verdict().clone();
    assert!(
        matches!(
            verdict,
            Verdict::Fallback {
                reason: Reason::NoDevice,
                rank: 1,
                ..
            }
        ),
        "{verdict}"
    );
    assert!(ranks.iter().all(|(_, t)| *t.verdict() == verdict));
    let error = ranks[0].1.wait(LIMIT).unwrap_err().to_string();
    assert!(error.contains("not offloaded"), "{error}");
}

/// An allgather in which rank 1 leaves round 1 only once rank 0 is back from configuring
/// (its second call): rank 0 configures the group alone, so it cannot become READY.
struct LateRankOne {
    oob: ThreadOob,
    calls: usize,
    rank0_back: Arc<(Mutex<bool>, std::sync::Condvar)>,
}

impl OutOfBand for LateRankOne {
    fn allgather(&mut self, send: &[u8], recv: &mut [u8]) -> Result<(), OobError> {
        self.calls += 1;
        let (back, signal) = &*self.rank0_back;
        if self.oob.rank == 0 && self.calls == 2 {
            *back.lock().unwrap() = true;
            signal.notify_all();
        }
        let result = self.oob.allgather(send, recv);
        if self.oob.rank == 1 && self.calls == 1 {
            let mut back = back.lock().unwrap();
            while !*back {
                back = signal.wait(back).unwrap();
            }
        }
        result
    }
}

/// A configuration that does not become READY within the team's configure timeout falls
/// back on every rank with `Reason::Timeout`, naming the rank and the limit it waited (so a
/// runtime can say which of its parameters to raise).
#[test]
fn a_configuration_not_ready_in_time_falls_back_naming_the_limit() {
    let (_dir, path) = fabric(2);
    let rank0_back = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
    let params = TeamParams {
        configure_timeout: Some(Duration::from_millis(1)),
    };
    let verdicts: Vec<Verdict> = std::thread::scope(|s| {
        let handles: Vec<_> = oobs(2)
            .into_iter()
            .map(|oob| {
                let (path, rank0_back) = (&path, rank0_back.clone());
                s.spawn(move || {
                    let rank = oob.rank;
                    let device = AnyDevice::open(&DeviceAddress::sim(path, rank)).unwrap();
                    let mut oob = LateRankOne {
                        oob,
                        calls: 0,
                        rank0_back,
                    };
                    let team =
                        Team::create(Some(&device), &mut oob, rank as u32, 2, &params).unwrap();
                    team.verdict().clone()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(verdicts[0], verdicts[1]);
    match &verdicts[0] {
        Verdict::Fallback {
            reason: Reason::Timeout,
            rank: 0,
            text,
        } => assert!(
            text.contains("did not become READY within the configure timeout (1ms)"),
            "{text}"
        ),
        other => panic!("expected a timeout fallback naming rank 0, got {other}"),
    }
}

/// Host combining: ranks that share a port are one member; every episode costs each port
/// exactly one doorbell (BARRIERS_COMPLETED grows by exactly N), nobody is released early
/// (every rank sees every other rank's pre-arrival write), whatever L is per port.
#[test]
fn ranks_sharing_a_port_combine_into_one_member() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let (_dir, path) = fabric(2);
    let layout = [Some(0), Some(1), Some(1), Some(0), Some(1)];
    let mut ranks = create(&path, &layout);
    let verdict = ranks[0].1.verdict().clone();
    assert!(
        matches!(&verdict, Verdict::Offloaded { group: 0, ports } if ports.len() == 2),
        "{verdict}"
    );
    assert!(ranks.iter().all(|(_, t)| *t.verdict() == verdict));
    let fabric = gba_sim::Fabric::open(&path).unwrap();
    let claims = fabric.claims(1);
    assert_eq!(claims.len(), 1, "{claims:?}");
    assert_eq!(
        (claims[0].state, claims[0].joined, claims[0].local),
        (gba_hal::ClaimState::Held, 3, 3)
    );
    assert_eq!(fabric.claims(0)[0].joined, 2);
    let before: Vec<u64> = [0, 1]
        .iter()
        .map(|&p| completed(&path, &ranks[p].0))
        .collect();
    const N: u64 = 300;
    let progress: Vec<AtomicU64> = layout.iter().map(|_| AtomicU64::new(0)).collect();
    let progress = &progress;
    std::thread::scope(|s| {
        for (r, (_, team)) in ranks.iter_mut().enumerate() {
            s.spawn(move || {
                for i in 1..=N {
                    progress[r].store(i, Ordering::Relaxed);
                    if i % 2 == 0 {
                        team.wait(LIMIT).unwrap();
                    } else {
                        team.arrive().unwrap();
                        team.wait_pending(LIMIT).unwrap().unwrap();
                    }
                    for (q, p) in progress.iter().enumerate() {
                        let seen = p.load(Ordering::Relaxed);
                        assert!(
                            seen >= i,
                            "rank {r} released from {i} before rank {q} arrived ({seen})"
                        );
                    }
                }
            });
        }
    });
    for (p, before) in [0, 1].into_iter().zip(before) {
        assert_eq!(
            completed(&path, &ranks[p].0),
            before + N,
            "port {p}: one doorbell per episode"
        );
    }
    // The last local leaver releases: the claims are free once every rank's team dropped.
    drop(ranks);
    assert!(fabric.claims(0).is_empty() && fabric.claims(1).is_empty());
}

/// A timeout with host combining names the missing local process (pid, team rank) and the
/// host (marking the waiter's own); the episode stays pending, and resuming it completes once
/// the late rank arrives.
#[test]
fn a_timeout_names_the_local_process_that_did_not_arrive() {
    let (_dir, path) = fabric(2);
    let mut ranks = create(&path, &[Some(0), Some(0), Some(1)]);
    assert!(
        ranks[0].1.verdict().is_offloaded(),
        "{}",
        ranks[0].1.verdict()
    );
    let (mut late, mut rest) = (ranks.remove(1), ranks);
    std::thread::scope(|s| {
        for (r, (_, team)) in rest.iter_mut().enumerate() {
            s.spawn(move || {
                let error = team
                    .wait(Some(Duration::from_millis(200)))
                    .unwrap_err()
                    .to_string();
                assert!(error.contains("port 0 ("), "rank {r}: {error}");
                // Rank 0 waits on port 0 itself: its own port is marked as this host's, so
                // the reader looks for the local process named next, not for a lost host.
                assert_eq!(error.contains(", this host)"), r == 0, "rank {r}: {error}");
                if r == 0 {
                    assert!(
                        error.contains(&format!(
                            "on this host not arrived: pid {} (team rank 1)",
                            std::process::id()
                        )),
                        "{error}"
                    );
                }
                team.wait_pending(LIMIT).unwrap().unwrap();
            });
        }
        std::thread::sleep(Duration::from_millis(400));
        late.1.wait(LIMIT).unwrap();
    });
}

#[test]
fn distinct_teams_run_from_distinct_threads_at_once() {
    let (_dir, path) = fabric(2);
    // Two teams over the same two ports: the second finds group 0 taken and agrees on 1.
    let mut a = create(&path, &[Some(0), Some(1)]);
    let mut b = create(&path, &[Some(0), Some(1)]);
    assert!(matches!(
        a[0].1.verdict(),
        Verdict::Offloaded { group: 0, .. }
    ));
    assert!(
        matches!(b[0].1.verdict(), Verdict::Offloaded { group: 1, .. }),
        "{}",
        b[0].1.verdict()
    );
    let before: Vec<u64> = a.iter().map(|(d, _)| completed(&path, d)).collect();
    const N: u64 = 300;
    std::thread::scope(|s| {
        for (_, team) in a.iter_mut().chain(b.iter_mut()) {
            s.spawn(move || {
                for _ in 0..N {
                    team.wait(LIMIT).unwrap();
                }
            });
        }
    });
    // Each port took part in both teams' barriers.
    for ((device, _), before) in a.iter().zip(before) {
        assert_eq!(completed(&path, device), before + 2 * N);
    }
}

/// One team over already opened devices, rank r on `devices[r]`.
fn create_on(devices: &[AnyDevice]) -> Vec<Team> {
    let oob = oobs(devices.len());
    std::thread::scope(|s| {
        let handles: Vec<_> = devices
            .iter()
            .zip(oob)
            .enumerate()
            .map(|(rank, (device, mut oob))| {
                s.spawn(move || {
                    let params = TeamParams::default();
                    let size = devices.len() as u32;
                    Team::create(Some(device), &mut oob, rank as u32, size, &params).unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn barriers(teams: &mut [Team], n: usize) {
    std::thread::scope(|s| {
        for team in teams {
            s.spawn(move || {
                for _ in 0..n {
                    team.wait(LIMIT).unwrap();
                }
            });
        }
    });
}

fn open(path: &std::path::Path, ports: &[usize]) -> Vec<AnyDevice> {
    ports
        .iter()
        .map(|&p| AnyDevice::open(&DeviceAddress::sim(path, p)).unwrap())
        .collect()
}

#[test]
fn the_same_ranks_reuse_their_dropped_teams_group_and_other_ranks_do_not() {
    let (_dir, path) = fabric(2);
    let devices = open(&path, &[0, 1]);
    let mut first = create_on(&devices);
    assert!(matches!(
        first[0].verdict(),
        Verdict::Offloaded { group: 0, .. }
    ));
    assert!(!first[0].reused());
    barriers(&mut first, 3);
    drop(first);
    // Parked: still configured on both ports.
    assert!(devices.iter().all(|d| d.snapshot(0).unwrap().ready));

    let mut again = create_on(&devices);
    assert!(
        again.iter().all(Team::reused),
        "the same ranks reuse group 0"
    );
    assert!(matches!(
        again[1].verdict(),
        Verdict::Offloaded { group: 0, .. }
    ));
    let before = completed(&path, &Some(devices[0].clone()));
    barriers(&mut again, 5);
    assert_eq!(completed(&path, &Some(devices[0].clone())), before + 5);
    drop(again);

    // The same processes in another order are another team: a fresh group, the parked one
    // kept for its own ranks.
    let swapped = [devices[1].clone(), devices[0].clone()];
    let mut other = create_on(&swapped);
    assert!(!other[0].reused());
    assert!(
        matches!(other[0].verdict(), Verdict::Offloaded { group: 1, .. }),
        "{}",
        other[0].verdict()
    );
    barriers(&mut other, 2);
    drop(other);

    // Closing the device releases what it parked.
    drop(swapped);
    drop(devices);
    let probe = open(&path, &[0]);
    assert_eq!(
        probe[0].free_groups().0 & 0b11,
        0b11,
        "groups 0 and 1 released"
    );
}

#[test]
fn a_team_short_of_groups_makes_every_rank_release_its_parked_ones_first() {
    let (_dir, path) = fabric(2);
    let devices = open(&path, &[0, 1]);
    drop(create_on(&devices));
    // Port 0's user takes one-member groups until its arbiter's quota (parked group 0
    // included) refuses one: the team below is then denied any group but group 0.
    let groups = devices[0].identity().max_groups;
    let only = gba_hal::MemberSet::from_iter([0]);
    let held: Vec<_> = (1..groups)
        .map_while(|g| devices[0].barrier(gba_hal::GroupConfig::new(g, only)).ok())
        .collect();
    assert!(!held.is_empty());
    // Another order of the same processes cannot reuse group 0.
    let swapped = [devices[1].clone(), devices[0].clone()];
    let teams = create_on(&swapped);
    assert!(!teams[0].reused());
    assert!(
        matches!(teams[0].verdict(), Verdict::Offloaded { group: 0, .. }),
        "{}",
        teams[0].verdict()
    );
    drop(held);
}

#[test]
fn two_teams_formed_at_once_never_take_the_same_parked_group() {
    let (_dir, path) = fabric(2);
    let devices = open(&path, &[0, 1]);
    drop(create_on(&devices));
    // Two communicators of the same ranks form at once on other threads: at most one reuses
    // group 0, the other configures its own, and both run.
    let (mut x, mut y) = std::thread::scope(|s| {
        let x = s.spawn(|| create_on(&devices));
        let y = s.spawn(|| create_on(&devices));
        (x.join().unwrap(), y.join().unwrap())
    });
    let group = |t: &[Team]| match t[0].verdict() {
        Verdict::Offloaded { group, .. } => *group,
        v => panic!("{v}"),
    };
    assert_ne!(group(&x), group(&y));
    assert!(!(x[0].reused() && y[0].reused()));
    assert!(x.iter().all(|t| t.reused() == x[0].reused()));
    let before = completed(&path, &Some(devices[0].clone()));
    std::thread::scope(|s| {
        s.spawn(|| barriers(&mut x, 4));
        s.spawn(|| barriers(&mut y, 4));
    });
    assert_eq!(completed(&path, &Some(devices[0].clone())), before + 8);
}
