//! The fast path (arrivals aggregated on the doorbell path, see `gba_sim::arrival_word`) and the
//! switch's bookkeeping behind it; and two bugs of issue 14 (a `drop` fault that never
//! cleared, a reclaimed group that stayed busy until the next step).

mod common;

use common::{Member, fabric};
use gba_pac::group::CONTROL;
use gba_pac::tock_registers::interfaces::Readable;

const STEPS: usize = 2_000;
const GROUP: usize = 5;

fn formed(fabric: &std::sync::Arc<gba_sim::Fabric>, members: usize) -> Vec<Member> {
    common::formed(fabric, GROUP, members)
}

#[test]
fn the_last_arrival_releases_without_a_step_and_the_next_step_does_the_bookkeeping() {
    let (_dir, fabric) = fabric(3);
    let mut members = formed(&fabric, 3);
    let steps = fabric.counters().steps;
    for episode in 1..=5u32 {
        for (p, m) in members.iter_mut().enumerate() {
            let word = m.arrive();
            assert!(
                fabric.arrive(p, GROUP, word),
                "episode {episode}: aggregated"
            );
        }
        for m in &members {
            assert!(
                m.released(),
                "episode {episode}: released by the last arrival"
            );
        }
    }
    assert_eq!(fabric.counters().steps, steps, "no step ran");
    // Bookkeeping lags until a step, then is exact.
    fabric.step();
    for (p, m) in members.iter().enumerate() {
        assert_eq!(fabric.global(p).barriers_completed().get(), 5);
        assert_eq!(m.regs().release_seq().get(), 5);
        assert_eq!(m.regs().arrival_count().get(), 0);
    }
}

#[test]
fn a_member_that_dies_between_its_doorbell_and_its_count_is_counted_by_the_stepper() {
    let (_dir, fabric) = fabric(2);
    let mut members = formed(&fabric, 2);
    let word = members[0].arrive();
    assert!(fabric.arrive(0, GROUP, word));
    members[1].arrive(); // rang, then died before aggregating
    assert!(!members[0].released(), "no early release");
    members[0].wait(STEPS).expect("no lost release");
    assert!(members[1].released());
    // A late aggregate of the dead member's arrival (its process resumed) changes nothing.
    assert!(!fabric.arrive(1, GROUP, word | 1));
}

#[test]
fn a_member_that_dies_after_completing_the_episode_loses_no_release() {
    let (_dir, fabric) = fabric(2);
    let mut members = formed(&fabric, 2);
    let word = members[0].arrive();
    assert!(fabric.arrive(0, GROUP, word));
    let word = members[1].arrive();
    assert_eq!(fabric.arrive_and_die(1, GROUP, word), Some(true));
    assert!(
        !members[0].released(),
        "its owner died before raising the flags"
    );
    members[0].wait(STEPS).expect("the stepper raises them");
    assert!(members[1].released());
    fabric.step();
    assert_eq!(
        fabric.global(0).barriers_completed().get(),
        1,
        "counted once"
    );
}

#[test]
fn a_fault_armed_while_the_fast_path_is_open_applies_to_the_next_arrival() {
    let (_dir, fabric) = fabric(2);
    let mut members = formed(&fabric, 2);
    let word = members[0].arrive();
    assert!(fabric.arrive(0, GROUP, word));
    fabric.drop_arrivals(0, 1).unwrap();
    let word = members[1].arrive();
    assert!(
        !fabric.arrive(1, GROUP, word),
        "the fast path is closed by the fault"
    );
    members[1]
        .wait(STEPS)
        .expect("member 0's arrival came before the fault");
    // The fault takes member 0's next arrival.
    members[0].arrive();
    let word = members[1].arrive();
    assert!(!fabric.arrive(1, GROUP, word));
    assert_eq!(members[1].wait(200), None, "dropped");
}

#[test]
fn a_drop_fault_drops_one_arrival_and_is_gone_for_the_next_job() {
    let (_dir, fabric) = fabric(2);
    let mut members = formed(&fabric, 2);
    fabric.drop_arrivals(1, 1).unwrap();
    for m in &mut members {
        m.arrive();
    }
    assert_eq!(
        members[0].wait(200),
        None,
        "the dropped episode never completes"
    );
    // The job gives up and the next job forms the group again: its arrivals restart at the
    // same sequence, and none of them is dropped.
    for m in &members {
        m.configure(&[0, 1]);
    }
    for m in &mut members {
        assert_eq!(m.wait_configured(), None);
    }
    for _ in 0..3 {
        for m in &mut members {
            m.arrive();
        }
        members[0].wait(STEPS).expect("the next job is not dropped");
        members[1].wait(STEPS).expect("the next job is not dropped");
    }
}

#[test]
fn reclaim_frees_the_group_at_once() {
    let (_dir, fabric) = fabric(2);
    let _members = formed(&fabric, 2);
    assert_ne!(fabric.global(0).groups_busy().get() & 1 << GROUP, 0);
    let mut child = std::process::Command::new("true")
        .spawn()
        .expect("spawn true");
    let dead = u64::from(child.id());
    child.wait().expect("reap");
    for p in 0..2 {
        fabric.set_group_owner(p, GROUP, Some(dead));
    }
    assert_eq!(fabric.reclaim_dead().len(), 2);
    for p in 0..2 {
        assert_eq!(
            fabric.global(p).groups_busy().get() & 1 << GROUP,
            0,
            "port {p}: free without another step"
        );
    }
}

#[test]
fn a_port_that_left_the_group_is_not_counted() {
    let (_dir, fabric) = fabric(3);
    let mut members = formed(&fabric, 3);
    // Port 2's job ends (it resets the group on its port); ports 0 and 1 form the group
    // again without it.
    for m in &members {
        let regs = m.regs();
        regs.control().write(CONTROL::RESET::SET);
        while regs.control().is_set(CONTROL::RESET) {
            fabric.step();
        }
    }
    for m in &members[..2] {
        m.configure(&[0, 1]);
    }
    for m in &mut members[..2] {
        assert_eq!(m.wait_configured(), None);
    }
    let word = members[0].arrive();
    assert!(fabric.arrive(0, GROUP, word));
    // Port 2 rings group GROUP as if it were still a member of it, for the same sequence.
    members[2].episode = members[0].episode - 1;
    let word = members[2].arrive();
    assert!(
        !fabric.arrive(2, GROUP, word),
        "not a member: not aggregated"
    );
    assert!(!members[0].released(), "no early release");
    let word = members[1].arrive();
    assert!(fabric.arrive(1, GROUP, word));
    assert!(members[0].released());
}
