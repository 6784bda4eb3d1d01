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
    // Ranks 1 and 2 share port 1: one member per port until host combining lands.
    let ranks = create(&path, &[Some(0), Some(1), Some(1)]);
    let verdict = ranks[0].1.verdict().clone();
    match &verdict {
        Verdict::Fallback { reason, rank, text } => {
            assert_eq!(*reason, Reason::PortShared);
            assert_eq!(*rank, 2);
            assert!(text.contains("share port 1"), "{text}");
        }
        other => panic!("expected a fallback, got {other}"),
    }
    assert!(ranks.iter().all(|(_, t)| *t.verdict() == verdict));
    let mut ranks = ranks;
    let error = ranks[1].1.wait(LIMIT).unwrap_err().to_string();
    assert!(error.contains("not offloaded"), "{error}");

    // A rank without a device still votes, and everyone learns that it is the cause.
    let ranks = create(&path, &[Some(0), None, Some(2)]);
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
