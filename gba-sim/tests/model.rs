//! Property test: the switch against a small reference model of docs/datasheet.md section 4, written
//! here independently of the engine, over random arrival orders and dropped arrivals.
//! Never an early release (a flag ahead of the model), never a lost one (behind it).

mod common;

use common::Member;
use gba_pac::tock_registers::interfaces::Readable;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Event {
    /// Member m arrives at its next episode (ignored while it waits for a release).
    Arrive(usize),
    /// The switch loses member m's next arrival that it sees.
    Drop(usize),
    /// One switch step.
    Step,
}

fn event(members: usize) -> impl Strategy<Value = Event> {
    prop_oneof![
        4 => (0..members).prop_map(Event::Arrive),
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
}

impl Model {
    fn new(members: usize) -> Self {
        Model {
            released: 0,
            arrivals: vec![0; members],
            counted: vec![false; members],
            lost: vec![false; members],
            drops_pending: vec![0; members],
        }
    }

    fn waiting(&self, m: usize) -> bool {
        self.arrivals[m] > self.released
    }

    fn step(&mut self) {
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
        events in proptest::collection::vec(event(4), 1..120),
    ) {
        let (_dir, fabric) = common::fabric(members);
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
            match event {
                Event::Arrive(m) if m < members && !model.waiting(m) => {
                    hosts[m].arrive();
                    model.arrivals[m] += 1;
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
            for (m, h) in hosts.iter().enumerate() {
                prop_assert_eq!(h.flag(), model.released, "member {}'s flag", m);
            }
            let arrived = hosts[0].regs().arrived_mask(0).unwrap().get();
            let expected: u64 = (0..members)
                .filter(|m| model.counted[*m])
                .map(|m| 1u64 << m)
                .sum();
            prop_assert_eq!(arrived, expected, "ARRIVED_MASK");
        }
    }
}
