//! The offload barrier over a model switch in plain memory: many episodes across threads,
//! the 2^32 wrap, split phase, timeouts and device errors naming the missing members.
//!
//! The model switch is stepped from the members' progress calls (as the simulator is), so the
//! tests need no extra thread, and it implements docs/datasheet.md section 4: an arrival counts when
//! its sequence is RELEASE_SEQ + 1; when all members have arrived, RELEASE_SEQ = k and k goes
//! into every member's flag.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gba_barrier::{Arrivals, Barrier, DeviceFault, Diagnosis, Missing, Port, WaitError, Who};
use gba_hal::ErrorCode;
use gba_pac::tock_registers::fields::TryFromValue;

#[derive(Debug)]
struct Switch {
    group: u32,
    /// ARRIVAL doorbell per member (each member's port has its own window).
    doorbells: Vec<AtomicU64>,
    /// Release flag per member (in that member's memory).
    flags: Vec<AtomicU64>,
    /// RELEASE_SEQ; the mutex is the switch's "one step at a time".
    release_seq: Mutex<u32>,
    /// Members that have arrived for the pending episode.
    arrived: Vec<AtomicBool>,
    error_code: AtomicU8,
}

impl Switch {
    fn new(members: usize, release_seq: u32) -> Arc<Self> {
        Arc::new(Switch {
            group: 7,
            doorbells: (0..members).map(|_| AtomicU64::new(u64::MAX)).collect(),
            flags: (0..members)
                .map(|_| AtomicU64::new(u64::from(release_seq)))
                .collect(),
            release_seq: Mutex::new(release_seq),
            arrived: (0..members).map(|_| AtomicBool::new(false)).collect(),
            error_code: AtomicU8::new(0),
        })
    }

    fn step(&self) {
        let mut seq = self.release_seq.lock().unwrap();
        let next = seq.wrapping_add(1);
        for (m, bell) in self.doorbells.iter().enumerate() {
            let word = bell.load(Ordering::Acquire);
            if word == u64::MAX {
                continue;
            }
            assert_eq!(
                word >> 32,
                m as u64,
                "member id corrupted in doorbell word {word:#x}"
            );
            if word as u32 == next {
                self.arrived[m].store(true, Ordering::Relaxed);
            }
        }
        if self.arrived.iter().all(|a| a.load(Ordering::Relaxed)) {
            *seq = next;
            for a in &self.arrived {
                a.store(false, Ordering::Relaxed);
            }
            for f in &self.flags {
                f.store(u64::from(next), Ordering::Release);
            }
        }
    }
}

#[derive(Debug, Clone)]
struct ModelPort {
    switch: Arc<Switch>,
    member: u32,
}

impl Port for ModelPort {
    fn group(&self) -> u32 {
        self.switch.group
    }
    fn member(&self) -> u32 {
        self.member
    }
    fn ring(&self, word: u64) {
        self.switch.doorbells[self.member as usize].store(word, Ordering::Release);
    }
    fn flag(&self) -> u64 {
        self.switch.flags[self.member as usize].load(Ordering::Acquire)
    }
    fn progress(&self) {
        self.switch.step();
    }
    fn fault(&self) -> Option<DeviceFault> {
        match self.switch.error_code.load(Ordering::Relaxed) {
            0 => None,
            code => Some(DeviceFault {
                code: ErrorCode::try_from_value(u64::from(code))
                    .expect("the model sets named codes"),
            }),
        }
    }
    fn diagnose(&self) -> Diagnosis {
        let _guard = self.switch.release_seq.lock().unwrap();
        let missing = (0..self.switch.arrived.len())
            .filter(|&m| !self.switch.arrived[m].load(Ordering::Relaxed))
            .collect();
        Diagnosis {
            missing: Arrivals::Known(missing),
            fault: self.fault(),
        }
    }
}

fn ports(switch: &Arc<Switch>) -> Vec<ModelPort> {
    (0..switch.flags.len() as u32)
        .map(|member| ModelPort {
            switch: Arc::clone(switch),
            member,
        })
        .collect()
}

/// `members` threads run `episodes` barriers starting after `completed`; each records that it
/// entered episode k before waiting and checks after the wait that everyone entered k.
fn run_threads(members: usize, completed: u64, episodes: u64, split: bool) {
    let switch = Switch::new(members, completed as u32);
    let entered: Arc<Vec<AtomicU64>> =
        Arc::new((0..members).map(|_| AtomicU64::new(completed)).collect());
    let handles: Vec<_> = ports(&switch)
        .into_iter()
        .map(|port| {
            let entered = Arc::clone(&entered);
            std::thread::spawn(move || {
                let me = port.member as usize;
                let mut barrier = Barrier::resume_at(port, completed);
                for k in completed + 1..=completed + episodes {
                    entered[me].store(k, Ordering::SeqCst);
                    if split {
                        let mut pending = barrier.arrive().unwrap();
                        assert_eq!(pending.episode(), k);
                        while !pending.test() {
                            std::thread::yield_now();
                        }
                        assert!(!barrier.is_pending());
                    } else {
                        barrier.wait(None).unwrap();
                    }
                    for (m, e) in entered.iter().enumerate() {
                        let e = e.load(Ordering::SeqCst);
                        assert!(
                            e >= k,
                            "member {me} left episode {k} while member {m} had entered only {e}"
                        );
                    }
                    assert_eq!(barrier.episode(), k);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn many_episodes_three_threads() {
    run_threads(3, 0, 2000, false);
}

#[test]
fn across_the_wrap() {
    // The group's sequence starts 50 below 2^32 and runs 100 episodes past it.
    run_threads(2, (1 << 32) - 50, 100, false);
    // And a host count far beyond 2^32 (the wire only sees the low bits).
    run_threads(2, (5 << 32) - 3, 10, false);
}

#[test]
fn split_phase_across_the_wrap() {
    run_threads(3, (1 << 32) - 20, 300, true);
}

#[test]
fn single_member() {
    let switch = Switch::new(1, 0);
    let mut b = Barrier::new(ports(&switch).remove(0));
    for k in 1..=10 {
        b.wait(None).unwrap();
        assert_eq!(b.episode(), k);
    }
}

#[test]
fn timeout_names_group_episode_and_missing_members() {
    let switch = Switch::new(3, 0);
    let mut ps = ports(&switch);
    let mut b0 = Barrier::new(ps.remove(0));
    let err = b0.wait(Some(Duration::from_millis(20))).unwrap_err();
    match &*err {
        WaitError::Timeout {
            who,
            episode,
            missing,
            ..
        } => {
            assert_eq!(
                *who,
                Who::Group {
                    group: 7,
                    member: 0
                }
            );
            assert_eq!(*episode, 1);
            assert_eq!(*missing, Missing::Members([1, 2].into_iter().collect()));
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    let text = err.to_string();
    assert!(
        text.contains("GBA group 7") && text.contains("episode 1") && text.contains("[1, 2]"),
        "{text}"
    );

    // The episode stays pending: a second arrive is refused ...
    assert!(b0.is_pending());
    assert!(matches!(
        b0.wait(None).err().as_deref(),
        Some(WaitError::Pending { episode: 1, .. })
    ));
    assert!(matches!(
        b0.arrive().err().as_deref(),
        Some(WaitError::Pending { episode: 1, .. })
    ));
    // ... and once the others arrive the pending episode completes.
    let others: Vec<_> = ps
        .into_iter()
        .map(|p| std::thread::spawn(move || Barrier::new(p).wait(None).unwrap()))
        .collect();
    b0.pending()
        .expect("episode 1 is pending")
        .wait(None)
        .unwrap();
    for h in others {
        h.join().unwrap();
    }
    assert!(!b0.is_pending() && b0.pending().is_none());
}

#[test]
fn device_error_is_reported_not_waited_out() {
    let switch = Switch::new(2, 0);
    switch.error_code.store(4, Ordering::Relaxed);
    let mut b = Barrier::new(ports(&switch).remove(0));
    let err = b.wait(None).unwrap_err();
    assert!(
        matches!(&*err, WaitError::Device { fault: DeviceFault { code: ErrorCode::SEQ_ERROR }, episode: 1, missing: Missing::Members(m), .. } if m.iter().eq([1])),
        "{err:?}"
    );
    assert!(err.to_string().contains("SEQ_ERROR"), "{err}");
}

#[test]
fn dropped_pending_can_be_resumed() {
    let switch = Switch::new(1, 0);
    let mut b = Barrier::new(ports(&switch).remove(0));
    drop(b.arrive().unwrap());
    assert!(b.is_pending());
    let mut p = b.pending().unwrap();
    assert_eq!(p.episode(), 1);
    while !p.test() {}
    b.wait(None).unwrap();
    assert_eq!(b.episode(), 2);
    drop(b.arrive().unwrap());
    let (port, episode, pending) = b.into_port();
    assert_eq!((port.member, episode, pending), (0, 3, true));
}
