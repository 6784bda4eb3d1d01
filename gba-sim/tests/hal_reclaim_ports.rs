//! A dead claim on one port of a fabric is taken over and reset from any other port
//! (`HostArbiter::reclaim_other_ports`, through `Device::free_groups` and
//! `Device::reclaim_dead`), and a claim a live process takes meanwhile is never reset or
//! freed by it.
//!
//! A dead claim is planted as a killed job leaves one: the group configured and enabled on
//! its port (here by a claim of this process), its claim record naming a process that has
//! exited (`Fabric::set_group_owner`). `gba-barrier/tests/dead_claims.rs` kills real jobs.

#![allow(clippy::result_large_err)] // HAL errors name member sets; tests return them whole

mod hal_common;
use hal_common as common;

use std::sync::Barrier;
use std::time::Duration;

use gba_hal::{GroupConfig, MemberSet};

const LIMIT: Duration = Duration::from_secs(60);

fn members(list: &[usize]) -> MemberSet {
    list.iter().copied().collect()
}

/// The pid of a process that has exited and been reaped.
fn dead_pid() -> u64 {
    let mut child = std::process::Command::new("true")
        .spawn()
        .expect("run true");
    let pid = child.id();
    child.wait().expect("reap true");
    u64::from(pid)
}

/// Before: free_groups on port 0 reset only port 0's dead claims, so a group a killed job
/// left on port 2 alone stayed enabled there, busy switch-wide, and was never offered.
#[test]
fn free_groups_on_one_port_frees_a_dead_claim_on_another() {
    let (_dir, fabric) = common::fabric(3);
    let planter = common::sim_device(&fabric, 2);
    let planted = planter
        .claim(GroupConfig::new(5, members(&[2])).timeout(Some(LIMIT)))
        .expect("a group of port 2 alone");
    let dead = dead_pid();
    fabric.set_group_owner(2, 5, Some(dead));
    let port0 = common::sim_device(&fabric, 0);
    assert!(
        port0.snapshot(5).unwrap().busy_on_switch,
        "the planted group is busy switch-wide"
    );

    let free = port0.free_groups();
    assert!(
        free.contains(5),
        "port 2's dead group 5 was not freed by port 0's free_groups ({free:?}); port 2's claims: {:?}",
        fabric.claims(2)
    );
    assert_eq!(fabric.group_owner(2, 5), None, "its claim is freed");
    let there = planter.snapshot(5).unwrap();
    assert!(!there.enabled_here, "reset on port 2: {there:?}");
    assert!(!there.busy_on_switch, "{there:?}");
    // Its claim was taken over: dropping the planter's group leaves nothing (the record is
    // not held any more) and resets nothing.
    drop(planted);
    assert!(port0.free_groups().contains(5));
}

/// `Device::reclaim_dead` reports what it reset on the other ports: port, group, dead pid,
/// uid; a live claim of the same fabric is left alone.
#[test]
fn reclaim_dead_reports_the_other_ports_dead_claims_and_spares_live_ones() {
    let (_dir, fabric) = common::fabric(3);
    let planter = common::sim_device(&fabric, 1);
    let planted = planter
        .claim(GroupConfig::new(3, members(&[1])).timeout(Some(LIMIT)))
        .expect("a group of port 1 alone");
    let dead = dead_pid();
    fabric.set_group_owner(1, 3, Some(dead));
    let live_holder = common::sim_device(&fabric, 2);
    let live = live_holder
        .claim(GroupConfig::new(4, members(&[2])).timeout(Some(LIMIT)))
        .expect("a live group of port 2");

    let port0 = common::sim_device(&fabric, 0);
    let reclaimed = port0.reclaim_dead();
    assert_eq!(reclaimed.len(), 1, "{reclaimed:?}");
    let r = reclaimed[0];
    assert_eq!((r.port, r.group, r.pid), (1, 3, Some(dead)), "{r}");
    assert_eq!(r.uid, Some(gba_hal::host::process::my_uid()));
    assert_eq!(
        r.to_string(),
        format!("g3 on port 1: pid {dead} (dead) uid {}", r.uid.unwrap())
    );
    assert!(!planter.snapshot(3).unwrap().enabled_here);
    let kept = live.snapshot();
    assert!(kept.enabled_here && kept.ready, "the live group: {kept:?}");
    assert_eq!(
        fabric.group_owner(2, 4),
        Some(u64::from(std::process::id()))
    );
    assert!(port0.reclaim_dead().is_empty(), "nothing left");
    drop(live);
    drop(planted);
}

/// The race: while port 0 sweeps the other ports, a live process takes port 1's dead claim
/// over itself and configures the group. Whichever takes it first, the live claimant's group
/// ends configured, READY, enabled, its claim its own, and a barrier on it completes: the
/// sweep resets only a claim it took over itself (by compare-exchange against the dead
/// claimant's word), and frees only that. A sweep that reset whatever it had read as dead
/// reset the new owner's group under it.
#[test]
fn a_live_claimant_racing_the_sweep_keeps_its_group() {
    const ROUNDS: usize = 200;
    let (_dir, fabric) = common::fabric(2);
    let planter = common::sim_device(&fabric, 1);
    let claimer = common::sim_device(&fabric, 1);
    let port0 = common::sim_device(&fabric, 0);
    let me = u64::from(std::process::id());
    let dead = dead_pid();
    let (mut swept, mut taken_by_claimer) = (0, 0);
    for round in 0..ROUNDS {
        let planted = planter
            .claim(GroupConfig::new(0, members(&[1])).timeout(Some(LIMIT)))
            .expect("plant");
        fabric.set_group_owner(1, 0, Some(dead));
        let start = Barrier::new(2);
        let (reclaimed, group) = std::thread::scope(|s| {
            let sweep = s.spawn(|| {
                start.wait();
                if round % 2 == 0 {
                    port0.reclaim_dead()
                } else {
                    port0.free_groups();
                    Vec::new()
                }
            });
            let claim = s.spawn(|| {
                start.wait();
                claimer.claim(GroupConfig::new(0, members(&[1])).timeout(Some(LIMIT)))
            });
            (sweep.join().unwrap(), claim.join().unwrap())
        });
        let group = group.unwrap_or_else(|e| panic!("round {round}: the live claim failed: {e}"));
        if reclaimed.iter().any(|r| (r.port, r.group) == (1, 0)) {
            swept += 1;
        } else if round % 2 == 0 {
            taken_by_claimer += 1;
        }
        let snapshot = group.snapshot();
        assert!(
            snapshot.enabled_here && snapshot.ready && snapshot.error.is_none(),
            "round {round}: the live claimant's group was reset under it: {snapshot:?}"
        );
        assert_eq!(
            fabric.group_owner(1, 0),
            Some(me),
            "round {round}: the live claim was freed"
        );
        let episode = u64::from(group.start_sequence()) + 1;
        common::arrive(&group, episode);
        if let Err(snapshot) = common::wait(&group, episode, LIMIT) {
            panic!("round {round}: a barrier on the live group did not complete: {snapshot:?}");
        }
        drop(group);
        // The planter's claim was taken over: its drop must find nothing to leave.
        drop(planted);
        assert_eq!(fabric.group_owner(1, 0), None, "round {round}");
    }
    println!(
        "{ROUNDS} rounds: the sweep took the dead claim in {swept}, the claimant in {taken_by_claimer} of the reclaim_dead rounds"
    );
}
