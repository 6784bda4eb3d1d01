//! The switch under Miri: a fabric in ordinary memory (Miri cannot map files), two members on
//! their own threads that configure a group, arrive through the fast path or the stepper and
//! wait, while Miri checks every access of the engine, the arrival word and the flags for
//! data races and weak-memory outcomes (a stale configuration read after ENABLE, a flag seen
//! before the arrivals it releases).
//!
//! The second test separates the roles: one thread only configures (the host), another only
//! steps (the switch), so the step that reads the configuration never runs on the thread that
//! wrote it. The engine reads CONTROL with acquire; read relaxed, the switch may see ENABLE with
//! the MEMBER_MASK of before (zero) and refuse the member (BAD_MEMBER), which Miri's weak-memory
//! emulation produces for most seeds.
//!
//! `MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -p gba-sim --test miri`
//! (tests/run.sh runs it where a nightly toolchain with Miri is present). It also runs as an
//! ordinary test.

mod common;

use std::sync::Arc;

use common::Member;
use gba_sim::Fabric;

const GROUP: usize = 2;
const EPISODES: u32 = 3;

#[test]
fn members_on_threads_configure_arrive_and_are_released() {
    let fabric = Arc::new(Fabric::in_memory(2).expect("in-memory fabric"));
    let threads: Vec<_> = (0..2)
        .map(|p| {
            let fabric = fabric.clone();
            std::thread::spawn(move || {
                let mut member = Member::new(&fabric, p, GROUP);
                member.configure(&[0, 1]);
                assert_eq!(member.wait_configured(), None, "port {p} configured");
                for episode in 0..EPISODES {
                    let word = member.arrive();
                    // Member 1 leaves every other arrival to the stepper, as a member that died
                    // before aggregating would.
                    if (p == 0 || episode % 2 == 0) && !fabric.arrive(p, GROUP, word) {
                        fabric.progress();
                    }
                    member.wait(usize::MAX).expect("released");
                }
                member.flag()
            })
        })
        .collect();
    for t in threads {
        let flag = t.join().expect("member thread");
        assert_eq!(flag, EPISODES);
    }
    fabric.step();
    for p in 0..2 {
        use gba_pac::tock_registers::interfaces::Readable;
        assert_eq!(
            fabric.global(p).barriers_completed().get(),
            u64::from(EPISODES)
        );
    }
}

#[test]
fn a_switch_on_another_thread_sees_the_whole_configuration_with_enable() {
    use gba_pac::group::STATUS;
    use gba_pac::tock_registers::interfaces::Readable;
    const GROUPS: [usize; 2] = [3, 7];
    let fabric = Arc::new(Fabric::in_memory(2).expect("in-memory fabric"));
    let settled_all = Arc::new(std::sync::Barrier::new(2));
    let host = {
        let fabric = fabric.clone();
        let settled_all = settled_all.clone();
        std::thread::spawn(move || {
            // Configuration, then ENABLE|ARM (release); no RESET, no step on this thread: the
            // groups are fresh.
            let members: Vec<Member> = GROUPS
                .into_iter()
                .enumerate()
                .map(|(p, g)| Member::new(&fabric, p, g))
                .collect();
            for (p, member) in members.iter().enumerate() {
                member.configure_fresh(&[p]);
            }
            // The ports stay attached and the flags allocated until the switch is done.
            settled_all.wait();
        })
    };
    // The switch: steps until each member reads READY or ERROR.
    let settled = |p: usize, g: usize| {
        let status = fabric.window(p).group(g).expect("group").status().extract();
        status.is_set(STATUS::READY) || status.is_set(STATUS::ERROR)
    };
    while !GROUPS.into_iter().enumerate().all(|(p, g)| settled(p, g)) {
        fabric.step();
        std::thread::yield_now();
    }
    settled_all.wait();
    host.join().expect("host thread");
    for (p, g) in GROUPS.into_iter().enumerate() {
        let status = fabric.window(p).group(g).expect("group").status().extract();
        assert!(
            !status.is_set(STATUS::ERROR),
            "port {p} group {g} refused with {}: the switch read ENABLE without the configuration \
             written before it",
            gba_sim::error_name(status.read(STATUS::ERROR_CODE))
        );
    }
}

/// Host combining under Miri: two threads share port 0 as one member (a team of key 7, L = 2)
/// through gba-hal's claim, join and `LocalArrivals` (the raw-pointer atomics of the host
/// segment), one thread has port 1; each episode port 0 rings once, from whichever thread
/// completes the host's count, and all three poll their port's one flag.
#[test]
fn a_host_of_two_threads_is_one_member() {
    use gba_hal::{Backend, Device, GroupConfig, LocalTeam, TeamKey};
    use gba_pac::group::ARRIVAL;
    use gba_sim::SimBackend;
    const LAYOUT: [usize; 3] = [0, 0, 1];
    let fabric = Arc::new(Fabric::in_memory(2).expect("in-memory fabric"));
    let threads: Vec<_> = LAYOUT
        .iter()
        .enumerate()
        .map(|(rank, &p)| {
            let fabric = fabric.clone();
            std::thread::spawn(move || {
                let device = Device::new(SimBackend::attach(fabric, p).unwrap()).unwrap();
                let local = LAYOUT.iter().filter(|&&q| q == p).count() as u32;
                let index = LAYOUT[..rank].iter().filter(|&&q| q == p).count() as u32;
                let team = LocalTeam {
                    key: TeamKey::from_words([7, 7]).unwrap(),
                    local,
                    index,
                    rank: rank as u32,
                };
                let config = GroupConfig::new(GROUP, [0, 1].into_iter().collect())
                    .timeout(None)
                    .team(team);
                let group = device.claim(config).expect("claimed or joined");
                assert_eq!(group.local_arrivals().is_some(), local > 1);
                let mut seq = group.start_sequence();
                for _ in 0..EPISODES {
                    seq = seq.wrapping_add(1);
                    let word = (ARRIVAL::MEMBER_ID.val(p as u64)
                        + ARRIVAL::SEQUENCE.val(u64::from(seq)))
                    .value;
                    let ring = group.local_arrivals().is_none_or(|c| {
                        c.enter(u64::from(seq));
                        (c.add() + 1).is_multiple_of(c.local)
                    });
                    if ring {
                        group.doorbell().set_release(word);
                        device.backend().after_doorbell(GROUP, word);
                    }
                    while group.flag().load() as u32 != seq {
                        device.progress();
                        std::thread::yield_now();
                    }
                }
                seq
            })
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().expect("member thread"), EPISODES);
    }
    fabric.step();
    for p in 0..2 {
        use gba_pac::tock_registers::interfaces::Readable;
        assert_eq!(
            fabric.global(p).barriers_completed().get(),
            u64::from(EPISODES),
            "port {p}: one doorbell per episode"
        );
    }
    assert!(
        fabric.claims(0).is_empty(),
        "the last local leaver released"
    );
}
