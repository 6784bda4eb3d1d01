//! The switch model against the datasheet (docs/datasheet.md section 4), driven through the
//! generated registers only.

mod common;

use std::time::Duration;

use common::{Member, fabric, mask_of};
use gba_pac::global;
use gba_pac::tock_registers::interfaces::Readable;

const STEPS: usize = 10_000;

#[test]
fn identity_registers_come_from_the_spec_and_the_port_number() {
    let (_dir, fabric) = fabric(3);
    for p in 0..3 {
        let g = fabric.window(p).global();
        assert_eq!(g.device_id().get(), global::reset::DEVICE_ID);
        assert_eq!(g.version().get(), global::reset::VERSION);
        assert_eq!(g.version().read(global::VERSION::MINOR), 1);
        assert_eq!(
            g.caps().read(global::CAPS::MAX_MEMBERS) as usize,
            gba_pac::MAX_MEMBERS
        );
        assert_eq!(
            g.caps().read(global::CAPS::MAX_GROUPS) as usize,
            gba_pac::MAX_GROUPS
        );
        assert_eq!(g.port_id().read(global::PORT_ID::PORT) as usize, p);
        for group in [0, 17, 31] {
            let id = fabric.window(p).group(group).unwrap().group_id().get();
            assert_eq!(id as usize, group);
        }
    }
}

#[test]
fn members_configure_arrive_and_are_released_episode_after_episode() {
    let (_dir, fabric) = fabric(3);
    let mut members: Vec<Member> = (0..3).map(|p| Member::new(&fabric, p, 5)).collect();
    for m in &members {
        m.configure(&[0, 1, 2]);
    }
    for m in &mut members {
        assert_eq!(m.wait_configured(), None);
    }
    for p in 0..3 {
        let g = fabric.global(p);
        assert_eq!(g.groups_busy().get(), 1 << 5, "GROUPS_BUSY on port {p}");
        assert_eq!(g.group_enabled().get(), 1 << 5, "GROUP_ENABLED on port {p}");
    }
    for episode in 1..=100u32 {
        members[0].arrive();
        members[2].arrive();
        for _ in 0..50 {
            fabric.step();
        }
        assert!(!members[0].released(), "released before member 1 arrived");
        let arrived = members[1].regs().arrived_mask(0).unwrap().get();
        assert_eq!(arrived, 0b101, "ARRIVED_MASK names members 0 and 2");
        assert_eq!(members[1].regs().arrival_count().get(), 2);
        members[1].arrive();
        for m in &members {
            m.wait(STEPS).expect("released");
            assert_eq!(m.flag(), episode);
            assert_eq!(m.regs().release_seq().get() as u32, episode);
        }
    }
    for p in 0..3 {
        assert_eq!(fabric.global(p).barriers_completed().get(), 100);
    }
}

#[test]
fn every_error_code_is_reported_by_name() {
    let (_dir, fabric) = fabric(4);
    let case = |group: usize, setup: &dyn Fn(&Member)| {
        let mut member = Member::new(&fabric, 0, group);
        setup(&member);
        member.wait_configured()
    };
    // Local id is not the port; the port is not in the mask; a reserved bit is set.
    assert_eq!(
        case(0, &|m| m.configure_raw(mask_of(&[0, 1]), 2, 1, m.flag.iova)),
        Some("BAD_MEMBER".into())
    );
    assert_eq!(
        case(1, &|m| m.configure_raw(mask_of(&[1, 2]), 2, 0, m.flag.iova)),
        Some("BAD_MEMBER".into())
    );
    let mut reserved = mask_of(&[0, 1]);
    reserved[11] |= 1 << 10;
    assert_eq!(
        case(2, &|m| m.configure_raw(reserved, 3, 0, m.flag.iova)),
        Some("BAD_MEMBER".into())
    );
    assert_eq!(
        case(3, &|m| m.configure_raw(mask_of(&[0, 1]), 3, 0, m.flag.iova)),
        Some("COUNT_MISMATCH".into())
    );
    // A host pointer where the IOVA belongs, a misaligned IOVA, one past the arena.
    assert_eq!(
        case(4, &|m| m.configure_raw(
            mask_of(&[0]),
            1,
            0,
            m.flag.host.as_ptr() as u64
        )),
        Some("DMA_FAULT".into())
    );
    assert_eq!(
        case(5, &|m| m.configure_raw(
            mask_of(&[0]),
            1,
            0,
            m.flag.iova + 4
        )),
        Some("DMA_FAULT".into())
    );
    assert_eq!(
        case(6, &|m| m.configure_raw(
            mask_of(&[0]),
            1,
            0,
            gba_sim::layout::IOVA_BASE + gba_sim::layout::ARENA_SIZE as u64
        )),
        Some("DMA_FAULT".into())
    );

    // Two members of one job disagree on the mask.
    let a = Member::new(&fabric, 0, 10);
    let mut b = Member::new(&fabric, 1, 10);
    a.configure(&[0, 1]);
    fabric.step();
    fabric.step();
    b.configure(&[0, 1, 2]);
    b.configure_raw(mask_of(&[0, 1, 2]), 3, 1, b.flag.iova);
    assert_eq!(b.wait_configured(), Some("MASK_MISMATCH".into()));

    // Another job (ports 2 and 3) picks group 10 while ports 0 and 1 hold it.
    let mut c = Member::new(&fabric, 2, 10);
    c.configure(&[2, 3]);
    assert_eq!(c.wait_configured(), Some("GROUP_BUSY".into()));
    assert_eq!(a.error(), None, "the holder's group is untouched");

    // An arrival out of sequence.
    let mut x = Member::new(&fabric, 0, 20);
    let mut y = Member::new(&fabric, 1, 20);
    x.configure(&[0, 1]);
    y.configure(&[0, 1]);
    assert_eq!(x.wait_configured(), None);
    assert_eq!(y.wait_configured(), None);
    x.episode = x.episode.wrapping_add(1); // skips an episode
    x.arrive();
    for _ in 0..20 {
        fabric.step();
    }
    assert_eq!(x.error(), Some("SEQ_ERROR".into()));
    assert_eq!(y.error(), Some("SEQ_ERROR".into()), "the whole group fails");
    assert_eq!(a.error(), None);
}

#[test]
fn the_sequence_wraps_at_two_to_the_32() {
    let (_dir, fabric) = fabric(2);
    fabric.start_sequence(7, u32::MAX - 4).unwrap();
    let mut members: Vec<Member> = (0..2).map(|p| Member::new(&fabric, p, 7)).collect();
    for m in &members {
        m.configure(&[0, 1]);
    }
    for m in &mut members {
        assert_eq!(m.wait_configured(), None);
        assert_eq!(m.episode, u32::MAX - 4);
    }
    for _ in 0..10 {
        for m in &mut members {
            m.arrive();
        }
        for m in &members {
            m.wait(STEPS).expect("released across the wrap");
        }
    }
    assert_eq!(members[0].flag(), 5, "u32::MAX - 4 + 10 wraps to 5");
    assert_eq!(fabric.global(1).barriers_completed().get(), 10);
}

#[test]
fn injected_faults_hold_back_arrivals_and_releases() {
    let (_dir, fabric) = fabric(2);
    let mut members = common::formed(&fabric, 3, 2);
    // A dropped arrival: the episode never completes, and ARRIVED_MASK shows who is missing.
    fabric.drop_arrivals(1, 1).unwrap();
    members[0].arrive();
    members[1].arrive();
    assert_eq!(members[0].wait(2_000), None);
    assert_eq!(members[0].regs().arrived_mask(0).unwrap().get(), 0b01);

    // A delayed arrival is counted after the delay.
    let (_dir, fabric) = self::fabric(2);
    let mut members = common::formed(&fabric, 3, 2);
    fabric
        .delay_arrivals(0, 1, Duration::from_millis(30))
        .unwrap();
    let start = std::time::Instant::now();
    for m in &mut members {
        m.arrive();
    }
    for m in &members {
        m.wait(usize::MAX).unwrap();
    }
    assert!(start.elapsed() >= Duration::from_millis(30));

    // A delayed release.
    fabric.delay_releases(Duration::from_millis(30));
    let start = std::time::Instant::now();
    for m in &mut members {
        m.arrive();
    }
    for m in &members {
        m.wait(usize::MAX).unwrap();
    }
    assert!(start.elapsed() >= Duration::from_millis(30));
    fabric.delay_releases(Duration::ZERO);

    // A dead member: no release; reclaiming resets its group on its port.
    fabric.mark_dead(1, true).unwrap();
    for m in &mut members {
        m.arrive();
    }
    assert_eq!(members[0].wait(2_000), None);
    let reclaimed = fabric.reclaim_dead();
    assert_eq!(reclaimed.len(), 1);
    assert_eq!((reclaimed[0].group, reclaimed[0].port), (3, 1));
}

#[test]
fn a_corrupted_configuration_fails_the_group_with_mask_mismatch() {
    let (_dir, fabric) = fabric(2);
    let members = common::formed(&fabric, 9, 2);
    fabric.corrupt_mask(1, 9, 0).unwrap();
    fabric.step();
    assert_eq!(members[0].error(), Some("MASK_MISMATCH".into()));
}

#[test]
fn reset_frees_the_group_for_the_next_job() {
    let (_dir, fabric) = fabric(2);
    let members = common::formed(&fabric, 30, 2);
    assert_eq!(fabric.global(0).groups_busy().get(), 1 << 30);
    for m in &members {
        m.regs()
            .control()
            .write(gba_pac::group::CONTROL::RESET::SET);
    }
    for _ in 0..40 {
        fabric.step();
    }
    assert_eq!(fabric.global(0).groups_busy().get(), 0);
    assert_eq!(fabric.global(1).group_enabled().get(), 0);
    // Another job now gets the group at the first try.
    let mut solo = Member::new(&fabric, 1, 30);
    solo.configure(&[1]);
    assert_eq!(solo.wait_configured(), None);
}

#[test]
fn thirty_two_groups_run_at_once() {
    let (_dir, fabric) = fabric(2);
    let mut members: Vec<Member> = (0..32)
        .flat_map(|g| (0..2).map(move |p| (p, g)))
        .map(|(p, g)| Member::new(&fabric, p, g))
        .collect();
    for m in &members {
        m.configure(&[0, 1]);
    }
    for m in &mut members {
        assert_eq!(m.wait_configured(), None);
    }
    assert_eq!(fabric.global(0).groups_busy().get(), u32::MAX);
    for _ in 0..5 {
        for m in &mut members {
            m.arrive();
        }
        for m in &members {
            m.wait(STEPS).expect("released");
        }
    }
    assert_eq!(fabric.global(0).barriers_completed().get(), 32 * 5);
}
