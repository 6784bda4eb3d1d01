//! Groups are owned, not overwritten (issue 13): the claim record of a port and group, taken
//! by CAS in the fabric's shared memory, makes a second claimant on the same port lose with a
//! retryable GROUP_BUSY before it writes any register, and the owner's barriers go on.

mod common;
use common::fabric;

use std::time::Duration;

use gba_barrier::{AnyBarrier, AnyDevice};
use gba_hal::{DeviceAddress, GroupConfig, MemberSet};

const LIMIT: Option<Duration> = Some(Duration::from_secs(60));

fn open(path: &std::path::Path, port: usize) -> AnyDevice {
    AnyDevice::open(&DeviceAddress::sim(path, port)).unwrap()
}

/// Claims `group` over `ports` with one thread per device; every claim must succeed.
fn claim_all(devices: &[&AnyDevice], group: usize, ports: &[usize]) -> Vec<AnyBarrier> {
    let members: MemberSet = ports.iter().copied().collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = devices
            .iter()
            .map(|d| s.spawn(move || d.barrier(GroupConfig::new(group, members)).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn run(barriers: &mut [AnyBarrier], episodes: usize) {
    std::thread::scope(|s| {
        for b in barriers.iter_mut() {
            s.spawn(move || {
                for _ in 0..episodes {
                    b.wait(LIMIT).unwrap();
                }
            });
        }
    });
}

#[test]
fn one_process_opening_a_port_twice_gets_group_busy_on_the_second_claim() {
    let (_dir, path) = fabric(2);
    let (first, other) = (open(&path, 0), open(&path, 1));
    let mut owners = claim_all(&[&first, &other], 0, &[0, 1]);
    run(&mut owners, 3);
    // The same port, opened again in this process: another owner, so the claim loses.
    let second = open(&path, 0);
    let error = second
        .barrier(GroupConfig::new(0, [0, 1].into_iter().collect()))
        .unwrap_err();
    assert!(
        matches!(error, gba_hal::Error::GroupBusy { group: 0 }),
        "{error}"
    );
    assert!(error.is_retryable());
    // The owner is untouched.
    run(&mut owners, 5);
    // Once the owner lets go, the group is the second device's to take.
    drop(owners);
    let mut again = claim_all(&[&second, &other], 0, &[0, 1]);
    run(&mut again, 2);
}

#[test]
fn two_jobs_picking_one_group_on_a_shared_port_leave_the_winner_untouched() {
    let (_dir, path) = fabric(3);
    // Job A: ports {0, 2} on group 0.
    let (a0, a2) = (open(&path, 0), open(&path, 2));
    let mut job_a = claim_all(&[&a0, &a2], 0, &[0, 2]);
    run(&mut job_a, 3);
    // Job B: ports {0, 1} also picked group 0. On port 0 the host's claim record refuses it
    // before any register is written.
    let b0 = open(&path, 0);
    let error = b0
        .barrier(GroupConfig::new(0, [0, 1].into_iter().collect()))
        .unwrap_err();
    assert!(
        matches!(error, gba_hal::Error::GroupBusy { group: 0 }),
        "{error}"
    );
    // Job A's barriers go on, counted exactly.
    step(&path);
    let before = a0.barriers_completed();
    run(&mut job_a, 7);
    step(&path);
    assert_eq!(a0.barriers_completed(), before + 7);
    // Job B retries without group 0 (the agreement's rule) and runs too.
    let b1 = open(&path, 1);
    let mut job_b = claim_all(&[&b0, &b1], 1, &[0, 1]);
    run(&mut job_b, 4);
}

#[test]
fn a_dead_owners_claim_is_taken_over() {
    let (_dir, path) = fabric(2);
    // A process that has exited (and been reaped) holds group 3 on both ports.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = u64::from(child.id());
    child.wait().unwrap();
    let fabric = gba_sim::Fabric::open(&path).unwrap();
    for p in 0..2 {
        fabric.set_group_owner(p, 3, Some(dead));
    }
    let (d0, d1) = (open(&path, 0), open(&path, 1));
    let mut barriers = claim_all(&[&d0, &d1], 3, &[0, 1]);
    assert_eq!(
        fabric.group_owner(0, 3),
        Some(u64::from(std::process::id()))
    );
    run(&mut barriers, 3);
    drop(barriers);
    assert_eq!(fabric.group_owner(0, 3), None, "released on drop");
}

#[test]
fn a_group_held_on_this_port_is_not_offered_as_free() {
    let (_dir, path) = fabric(2);
    let fabric = gba_sim::Fabric::open(&path).unwrap();
    let device = open(&path, 0);
    assert!(device.free_groups().contains(2));
    // Another live process (this one, standing in for it) holds group 2 on port 0, not yet
    // enabled on the switch: the agreement must not pick it.
    fabric.set_group_owner(0, 2, Some(u64::from(std::process::id())));
    assert!(!device.free_groups().contains(2));
    assert!(
        open(&path, 1).free_groups().contains(2),
        "port 1 holds nothing"
    );
    fabric.set_group_owner(0, 2, None);
    assert!(device.free_groups().contains(2));
}

/// One whole switch step: the fast path's bookkeeping (BARRIERS_COMPLETED among it) lags until
/// the switch steps, and a waiter's `progress()` may skip its step (the quiet-step throttle).
pub fn step(path: &std::path::Path) {
    gba_sim::Fabric::open(path).unwrap().step();
}
