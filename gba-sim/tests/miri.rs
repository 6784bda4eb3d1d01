//! The switch under Miri: a fabric in ordinary memory (Miri cannot map files), two members on
//! their own threads that configure a group, arrive through the fast path or the stepper and
//! wait, while Miri checks every access of the engine, the combining word and the flags for
//! data races and weak-memory outcomes (a stale configuration read after ENABLE, a flag seen
//! before the arrivals it releases).
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
                    // before combining would.
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
