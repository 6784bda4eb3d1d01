//! The claim record's state machine (`gba_hal::claim`) against a small model written
//! independently (an enum of states, not a packed word): random sequences of take, hold,
//! leave, free and process deaths, with the outcome of every step and the record after it
//! compared.

use std::collections::HashSet;
use std::sync::atomic::AtomicU64;

use gba_hal::TeamKey;
use gba_hal::claim::{self, Record, State, Taken};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Model {
    Free,
    Claiming { pid: u64 },
    Held { pid: u64, joined: u64 },
}

#[derive(Clone, Copy, Debug)]
enum Op {
    /// The key's two words: keys that share one word are different keys.
    Take {
        pid: u64,
        key: [u64; 2],
    },
    Hold {
        pid: u64,
    },
    Leave {
        pid: u64,
    },
    Free {
        pid: u64,
    },
    Die {
        pid: u64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (1u64..5, 1u64..3, 1u64..3).prop_map(|(pid, w0, w1)| Op::Take { pid, key: [w0, w1] }),
        2 => (1u64..5).prop_map(|pid| Op::Hold { pid }),
        2 => (1u64..5).prop_map(|pid| Op::Leave { pid }),
        1 => (1u64..5).prop_map(|pid| Op::Free { pid }),
        1 => (1u64..5).prop_map(|pid| Op::Die { pid }),
    ]
}

proptest! {
    #[test]
    fn the_record_follows_the_model(ops in proptest::collection::vec(op(), 1..60)) {
        let cells: Vec<AtomicU64> = (0..6).map(|_| AtomicU64::new(0)).collect();
        let r = Record { word: &cells[0], start: &cells[1], team: [&cells[2], &cells[5]], arrivals: &cells[3], uid: &cells[4] };
        let (mut model, mut team, mut generation) = (Model::Free, [0u64; 2], 0u64);
        let mut dead: HashSet<u64> = HashSet::new();
        for op in ops {
            let live = |s: State, _start: u64| !dead.contains(&s.pid);
            match op {
                Op::Take { pid, key } => {
                    let expected = match model {
                        Model::Free => {
                            model = Model::Claiming { pid };
                            team = key;
                            Taken::Won { over_dead: false }
                        }
                        // A held claim of one's own team is joined whoever lives.
                        Model::Held { pid: p, joined } if team == key => {
                            model = Model::Held { pid: p, joined: joined + 1 };
                            Taken::Joined
                        }
                        Model::Claiming { pid: p } | Model::Held { pid: p, .. } if dead.contains(&p) => {
                            model = Model::Claiming { pid };
                            team = key;
                            generation += 1;
                            Taken::Won { over_dead: true }
                        }
                        Model::Claiming { .. } => Taken::Wait,
                        Model::Held { .. } => Taken::Busy,
                    };
                    let key = TeamKey::from_words(key).expect("words from 1");
                    prop_assert_eq!(r.take(pid, 0, key, &live), expected, "{:?}", op);
                }
                Op::Hold { pid } => {
                    let expected = model == Model::Claiming { pid };
                    if expected {
                        model = Model::Held { pid, joined: 1 };
                    }
                    prop_assert_eq!(r.hold(pid), expected, "{:?}", op);
                }
                Op::Leave { pid } => {
                    let expected = match model {
                        Model::Held { pid: p, joined } if joined > 1 => {
                            model = Model::Held { pid: p, joined: joined - 1 };
                            false
                        }
                        Model::Held { .. } => {
                            model = Model::Claiming { pid };
                            true
                        }
                        _ => false,
                    };
                    prop_assert_eq!(r.leave(pid), expected, "{:?}", op);
                }
                Op::Free { pid } => {
                    if model == (Model::Claiming { pid }) {
                        model = Model::Free;
                        generation += 1;
                    }
                    r.free(pid);
                }
                Op::Die { pid } => {
                    dead.insert(pid);
                }
            }
            let s = r.state();
            let (state, joined, pid) = match model {
                Model::Free => (claim::FREE, 0, 0),
                Model::Claiming { pid } => (claim::CLAIMING, 1, pid),
                Model::Held { pid, joined } => (claim::HELD, joined, pid),
            };
            prop_assert_eq!((s.state, s.joined, s.pid, s.generation), (state, joined, pid, generation & 0xffff), "after {:?}", op);
        }
    }
}
