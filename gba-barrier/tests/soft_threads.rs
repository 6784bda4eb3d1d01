//! Software barriers between threads: many episodes with an independent check that nobody
//! leaves episode k before everyone entered it; timeouts; the shared `Wait` interface.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use gba_barrier::soft::{Algorithm, SoftBarrier, StdBarrier};
use gba_barrier::{Missing, Wait, WaitError, Who};

/// Runs `episodes` episodes over one handle per thread; checks the barrier property with
/// SeqCst counters that the barrier itself never touches.
fn run<W: Wait + Send + 'static>(handles: Vec<W>, episodes: u64) {
    let members = handles.len();
    let entered: Arc<Vec<AtomicU64>> = Arc::new((0..members).map(|_| AtomicU64::new(0)).collect());
    let threads: Vec<_> = handles
        .into_iter()
        .enumerate()
        .map(|(me, mut barrier)| {
            let entered = Arc::clone(&entered);
            std::thread::spawn(move || {
                for k in 1..=episodes {
                    entered[me].store(k, Ordering::SeqCst);
                    barrier.wait(Some(Duration::from_secs(60))).unwrap();
                    for (m, e) in entered.iter().enumerate() {
                        let e = e.load(Ordering::SeqCst);
                        assert!(
                            e >= k,
                            "member {me} left episode {k} while member {m} had entered only {e}"
                        );
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

#[test]
fn central_counter_threads() {
    for members in [1, 2, 3, 5] {
        run(
            SoftBarrier::threads(Algorithm::CentralCounter, members),
            1000,
        );
    }
}

#[test]
fn dissemination_threads() {
    for members in [1, 2, 3, 4, 5, 8] {
        run(
            SoftBarrier::threads(Algorithm::Dissemination, members),
            1000,
        );
    }
}

#[test]
fn std_barrier_threads() {
    run(StdBarrier::threads(3), 200);
}

#[test]
fn boxed_behind_the_trait() {
    let boxed: Vec<Box<dyn Wait + Send>> = SoftBarrier::threads(Algorithm::Dissemination, 2)
        .into_iter()
        .map(|b| Box::new(b) as _)
        .collect();
    run(boxed, 100);
}

#[test]
fn central_counter_timeout_counts_arrivals_and_resumes() {
    let mut handles = SoftBarrier::threads(Algorithm::CentralCounter, 3);
    let (mut b0, mut b1, mut b2) = (handles.remove(0), handles.remove(0), handles.remove(0));
    let err = b0.wait(Some(Duration::from_millis(10))).unwrap_err();
    match &*err {
        WaitError::Timeout {
            who,
            episode: 1,
            missing,
            ..
        } => {
            assert_eq!(
                *who,
                Who::Software {
                    name: "central-counter-threads",
                    member: 0,
                    members: 3
                }
            );
            assert_eq!(
                *missing,
                Missing::Count {
                    arrived: 1,
                    members: 3
                }
            );
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert!(err.to_string().contains("1 of 3 members arrived"), "{err}");
    assert!(matches!(
        b0.wait(None).err().as_deref(),
        Some(WaitError::Pending { episode: 1, .. })
    ));
    let t1 = std::thread::spawn(move || b1.wait(None).unwrap());
    let t2 = std::thread::spawn(move || b2.wait(None).unwrap());
    b0.resume(None).unwrap();
    t1.join().unwrap();
    t2.join().unwrap();
    assert_eq!(b0.episode(), 1);
}

#[test]
fn dissemination_timeout_names_the_partner() {
    let mut handles = SoftBarrier::threads(Algorithm::Dissemination, 4);
    let mut b1 = handles.remove(1);
    let err = b1.wait(Some(Duration::from_millis(10))).unwrap_err();
    // Round 0: member 1 waits for member 0.
    assert!(
        matches!(
            &*err,
            WaitError::Timeout {
                episode: 1,
                missing: Missing::Partner {
                    member: 0,
                    round: 0
                },
                ..
            }
        ),
        "{err:?}"
    );
    // Everyone else arrives; member 1 resumes where it stopped.
    let others: Vec<_> = handles
        .into_iter()
        .map(|mut b| std::thread::spawn(move || b.wait(None).unwrap()))
        .collect();
    b1.resume(None).unwrap();
    for t in others {
        t.join().unwrap();
    }
    b1.resume(None).unwrap(); // nothing pending: returns at once
}

#[test]
fn dissemination_timeout_in_a_later_round() {
    let mut handles = SoftBarrier::threads(Algorithm::Dissemination, 4);
    let (mut b0, mut b1) = (handles.remove(0), handles.remove(0));
    // Members 2 and 3 never come: member 1 hears member 0 in round 0 (member 0 signals as
    // soon as it arrives), then waits for member 3 in round 1.
    let t0 = std::thread::spawn(move || {
        let _ = b0.wait(Some(Duration::from_millis(10)));
    });
    let short = Some(Duration::from_millis(10));
    let mut result = b1.wait(short);
    // However late member 0's thread starts, resuming gets past round 0.
    while let Err(e) = &result {
        if !matches!(
            **e,
            WaitError::Timeout {
                missing: Missing::Partner {
                    member: 0,
                    round: 0
                },
                ..
            }
        ) {
            break;
        }
        result = b1.resume(short);
    }
    t0.join().unwrap();
    let err = result.unwrap_err();
    assert!(
        matches!(
            &*err,
            WaitError::Timeout {
                missing: Missing::Partner {
                    member: 3,
                    round: 1
                },
                ..
            }
        ),
        "{err:?}"
    );
}
