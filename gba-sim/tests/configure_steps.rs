//! What configuring a group costs the switch, counted in steps (not timed): one step per
//! CONTROL store, whichever group it is and whatever else runs on the fast path.
//!
//! Issue 14's regression: the switch noticed a RESET or a new ENABLE only when its scan of
//! idle groups (a few groups per step) reached the group, and while every busy group ran on
//! the fast path a waiter stepped at most every `QUIET_STEP_NS`. An `MPI_Comm_dup` cost
//! ~500 µs of such steps. Now the host tells the switch which group it wrote
//! (`Backend::after_control`), and the switch looks at that group in a step at once.

mod common;

use std::sync::Arc;
use std::time::Duration;

use gba_hal::{Backend, Device, DmaError, DmaRegion, GroupConfig, HostArbiter, MemberSet};
use gba_sim::{Fabric, SimBackend};

const WORLD: usize = 0;

/// A fabric whose group WORLD (ports 0 and 1) has run a few episodes on the fast path and
/// been stepped since: the state in which every waiter's step is throttled.
fn fabric_with_world_on_the_fast_path(ports: usize) -> (Arc<Fabric>, Vec<common::Member>) {
    let fabric = Arc::new(Fabric::in_memory(ports).expect("fabric"));
    let mut world = common::formed(&fabric, WORLD, 2);
    for episode in 1..=3 {
        for (p, m) in world.iter_mut().enumerate() {
            let word = m.arrive();
            assert!(
                fabric.arrive(p, WORLD, word),
                "episode {episode} aggregated"
            );
        }
    }
    fabric.step();
    assert!(world.iter().all(|m| m.released()));
    (fabric, world)
}

fn members(ports: &[usize]) -> MemberSet {
    ports.iter().copied().collect()
}

#[test]
fn a_group_of_one_takes_exactly_one_step_per_control_store_whichever_group_it_is() {
    let (fabric, _world) = fabric_with_world_on_the_fast_path(3);
    let device = Device::new(SimBackend::attach(fabric.clone(), 2).expect("attach")).expect("GBA");
    // Every group, so that some are as far from the idle-group scan as can be.
    for g in 1..gba_sim::layout::GROUPS {
        let before = fabric.counters().steps;
        let config = GroupConfig::new(g, members(&[2])).timeout(Some(Duration::from_secs(10)));
        let group = device.claim(config).expect("configured");
        // RESET: one step, which resets the port; ENABLE: one step, which joins the only
        // member and sets READY. Each wait loop finds its condition true before it steps.
        assert_eq!(
            fabric.counters().steps - before,
            2,
            "group {g}: steps to configure"
        );
        drop(group);
        assert_eq!(
            fabric.counters().steps - before,
            3,
            "group {g}: steps to release"
        );
    }
}

/// The simulator, except that waiting does not step it: the switch steps only when a host's
/// store tells it to (a doorbell, a CONTROL store). A configuration that needs any other step
/// never becomes READY and fails with the HAL's timeout.
struct StepsOnStoresOnly(SimBackend);

// SAFETY: every method but `progress` (which does nothing) forwards to the `SimBackend`,
// which keeps the trait's promises.
unsafe impl Backend for StepsOnStoresOnly {
    type Mechanism = <SimBackend as Backend>::Mechanism;
    fn window(&self) -> *mut u8 {
        self.0.window()
    }
    fn alloc_dma(&self, len: usize) -> Result<DmaRegion, DmaError> {
        self.0.alloc_dma(len)
    }
    fn free_dma(&self, region: DmaRegion) {
        self.0.free_dma(region)
    }
    fn progress(&self) {}
    fn after_doorbell(&self, group: usize, doorbell: u64) {
        self.0.after_doorbell(group, doorbell)
    }
    fn after_control(&self, group: usize) {
        self.0.after_control(group)
    }
    fn now_ns(&self) -> u64 {
        self.0.now_ns()
    }
    fn host(&self) -> &dyn HostArbiter {
        self.0.host()
    }
    fn describe(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.describe(f)
    }
}

#[test]
fn two_members_configure_with_no_step_but_those_their_control_stores_trigger() {
    let (fabric, _world) = fabric_with_world_on_the_fast_path(4);
    let group = gba_sim::layout::GROUPS - 1;
    let before = fabric.counters().steps;
    // Both keep their group until both are READY (a member that leaves clears READY).
    let both = Arc::new(std::sync::Barrier::new(2));
    let configured: Vec<_> = [2, 3]
        .map(|port| {
            let fabric = fabric.clone();
            let both = both.clone();
            std::thread::spawn(move || {
                let backend = SimBackend::attach(fabric, port).expect("attach");
                let device = Device::new(StepsOnStoresOnly(backend)).expect("GBA");
                let config = GroupConfig::new(group, members(&[2, 3]))
                    .timeout(Some(Duration::from_secs(10)));
                let outcome = device.claim(config).map_err(|e| e.to_string());
                both.wait();
                outcome.map(drop)
            })
        })
        .into_iter()
        .map(|t| t.join().expect("member thread"))
        .collect();
    assert!(
        configured.iter().all(Result::is_ok),
        "READY with no waiter stepping: {configured:?}"
    );
    // Four stores (RESET and ENABLE on each port), then two RESETs at the drops. Each store
    // steps through one `progress` call, which runs at most 4 steps back to back
    // (MAX_STEPS_PER_CALL, for the other member's kicks).
    let steps = fabric.counters().steps - before;
    assert!(
        (1..=6 * 4).contains(&steps),
        "{steps} steps for 6 CONTROL stores"
    );
}
