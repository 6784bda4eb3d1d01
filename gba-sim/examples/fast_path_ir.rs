//! Instructions of one fast-path episode, for callgrind (deterministic where timings are not):
//! a group of one member on an in-memory fabric, so that every arrival completes its episode
//! and takes the owner's whole path (doorbell store, `after_doorbell`: the combining exchange
//! and the flag store, then the poll of the flag). Cache-line transfers are not counted here
//! (one core); see docs/design/fast-path.md for those.
//!
//! ```text
//! cargo build --release -p gba-sim --example fast_path_ir
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg target/release/examples/fast_path_ir 100000
//! callgrind_annotate --inclusive=yes /tmp/cg | grep fast_path_ir::episode   # ÷ 100000
//! ```

use std::sync::Arc;

use gba_hal::{Backend, Device, Group, GroupConfig, MemberSet};
use gba_pac::group::ARRIVAL;
use gba_sim::{Fabric, SimBackend};

/// One episode, not inlined so that callgrind counts it as a function.
#[inline(never)]
fn episode(group: &Group<'_, SimBackend>, sequence: u32) {
    let word = (ARRIVAL::MEMBER_ID.val(group.member_id() as u64)
        + ARRIVAL::SEQUENCE.val(u64::from(sequence)))
    .value;
    group.doorbell().set_release(word);
    group.device().backend().after_doorbell(group.id(), word);
    while group.flag().load() as u32 != sequence {
        std::hint::spin_loop();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let episodes: u32 = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 100_000,
    };
    let fabric = Arc::new(Fabric::in_memory(1)?);
    let device = Device::new(SimBackend::attach(fabric, 0)?)?;
    let group = device.claim(GroupConfig::new(1, MemberSet::from_iter([0])))?;
    let start = group.start_sequence();
    for i in 1..=episodes {
        episode(&group, start.wrapping_add(i));
    }
    println!("{episodes} episodes, flag at {}", group.flag().load());
    Ok(())
}
