//! Property test: the switch against a small reference model of docs/datasheet.md section 4, written
//! here independently of the engine, over random arrival orders and dropped arrivals, with
//! arrivals offered to the fast path (aggregated on the doorbell path) or left to the stepper,
//! members that die after aggregating the last arrival but before releasing, and sequences that
//! start just below the 2^32 wrap. Never an early release (a flag ahead of the model), never a
//! lost one (behind it once the switch has stepped).

mod common;

use common::Member;
use gba_pac::tock_registers::interfaces::Readable;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Event {
    /// Member m arrives at its next episode (ignored while it waits for a release): the
    /// doorbell store only, as a member that dies before the fast path would leave it.
    Arrive(usize),
    /// Member m arrives and offers the arrival to the fast path, as the HAL does.
    FastArrive(usize),
    /// As `FastArrive`, but the member dies right after aggregating: if it completed the
    /// episode, no flag is raised until the switch steps.
    ArriveAndDie(usize),
    /// The switch loses member m's next arrival that it sees.
    Drop(usize),
    /// One switch step.
    Step,
}

fn event(members: usize) -> impl Strategy<Value = Event> {
    prop_oneof![
        2 => (0..members).prop_map(Event::Arrive),
        3 => (0..members).prop_map(Event::FastArrive),
        1 => (0..members).prop_map(Event::ArriveAndDie),
        1 => (0..members).prop_map(Event::Drop),
        3 => Just(Event::Step),
    ]
}

/// The reference: what every member's flag and the ARRIVED_MASK must be.
#[derive(Debug, Default)]
struct Model {
    released: u32,
    /// Arrivals made by each member (its episode counter).
    arrivals: Vec<u32>,
    /// Arrivals of the pending episode the switch has counted.
    counted: Vec<bool>,
    /// The member's arrival for the pending episode was lost.
    lost: Vec<bool>,
    drops_pending: Vec<u32>,
    /// A release the fast path completed whose flags its dead owner never raised: flags may
    /// stay one behind until the next step.
    owed: bool,
}

impl Model {
    fn new(members: usize) -> Self {
        Model {
            released: 0,
            arrivals: vec![0; members],
            counted: vec![false; members],
            lost: vec![false; members],
            drops_pending: vec![0; members],
            owed: false,
        }
    }

    /// The switch counted member m's pending arrival on the fast path (which it may only do
    /// when no drop is armed for m).
    fn aggregated(&mut self, m: usize) -> bool {
        assert_eq!(
            self.drops_pending[m], 0,
            "the fast path took an arrival a drop was armed for"
        );
        assert!(!self.lost[m] && self.arrivals[m] == self.released + 1);
        self.counted[m] = true;
        if self.counted.iter().all(|c| *c) {
            self.released += 1;
            self.counted.iter_mut().for_each(|c| *c = false);
            return true;
        }
        false
    }

    fn waiting(&self, m: usize) -> bool {
        self.arrivals[m] > self.released
    }

    fn step(&mut self) {
        self.owed = false;
        let pending = self.released + 1;
        for m in 0..self.arrivals.len() {
            if self.arrivals[m] == pending && !self.counted[m] && !self.lost[m] {
                if self.drops_pending[m] > 0 {
                    self.drops_pending[m] -= 1;
                    self.lost[m] = true;
                } else {
                    self.counted[m] = true;
                }
            }
        }
        if self.counted.iter().all(|c| *c) {
            self.released += 1;
            self.counted.iter_mut().for_each(|c| *c = false);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_switch_releases_exactly_when_the_model_does(
        members in 2usize..5,
        start in prop_oneof![Just(0u32), Just(u32::MAX - 2)],
        events in proptest::collection::vec(event(4), 1..120),
    ) {
        let (_dir, fabric) = common::fabric(members);
        fabric.start_sequence(12, start).unwrap();
        let mut hosts: Vec<Member> = (0..members).map(|p| Member::new(&fabric, p, 12)).collect();
        let all: Vec<usize> = (0..members).collect();
        for h in &hosts {
            h.configure(&all);
        }
        for h in &mut hosts {
            prop_assert_eq!(h.wait_configured(), None);
        }
        let mut model = Model::new(members);
        for event in events {
            match event.clone() {
                // A member arrives again only once its flag shows the release: after a dead
                // owner's completion it still waits, for the step that raises its flag.
                Event::Arrive(m) if m < members && !model.waiting(m) && hosts[m].released() => {
                    hosts[m].arrive();
                    model.arrivals[m] += 1;
                }
                Event::FastArrive(m) | Event::ArriveAndDie(m)
                    if m < members && !model.waiting(m) && hosts[m].released() =>
                {
                    let word = hosts[m].arrive();
                    model.arrivals[m] += 1;
                    // Deferred arrivals wait in the doorbell for the next step, as in the model.
                    let aggregated = if matches!(event, Event::FastArrive(_)) {
                        fabric.arrive(m, 12, word)
                    } else {
                        fabric.arrive_and_die(m, 12, word).is_some()
                    };
                    if aggregated && model.aggregated(m) && matches!(event, Event::ArriveAndDie(_)) {
                        model.owed = true;
                    }
                }
                Event::Drop(m) if m < members => {
                    fabric.drop_arrivals(m, u64::from(model.drops_pending[m] + 1)).unwrap();
                    model.drops_pending[m] += 1;
                }
                Event::Step => {
                    fabric.step();
                    model.step();
                }
                _ => {}
            }
            let released = start.wrapping_add(model.released);
            for (m, h) in hosts.iter().enumerate() {
                let flag = h.flag();
                let owed = model.owed && flag == released.wrapping_sub(1);
                prop_assert!(flag == released || owed, "member {}'s flag {} against {}", m, flag, released);
            }
            if matches!(event, Event::Step) {
                // The registers are the stepper's bookkeeping: right after a step.
                let arrived = hosts[0].regs().arrived_mask(0).unwrap().get();
                let expected: u64 = (0..members)
                    .filter(|m| model.counted[*m])
                    .map(|m| 1u64 << m)
                    .sum();
                prop_assert_eq!(arrived, expected, "ARRIVED_MASK");
            }
        }
    }
}
