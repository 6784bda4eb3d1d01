//! A host's store into a register it may only read, or into a doorbell it may only write,
//! is undone at the switch's next step, as a device ignores it (the window is shared memory,
//! which stores whatever any host writes): gba.yaml's `ro` and `wo` registers, and
//! CONTROL.RESET's single pulse, seen through the generated registers only.

mod common;

use common::{fabric, formed};
use gba_pac::global;
use gba_pac::group::{CONTROL, STATUS};
use gba_pac::tock_registers::interfaces::{Readable, Writeable};

const JUNK32: u32 = 0xdead_beef;
const JUNK64: u64 = 0xdead_beef_f00d_cafe;

#[test]
fn a_store_into_a_global_read_only_register_is_undone_at_the_next_step() {
    let (_dir, fabric) = fabric(2);
    // Port 1's host overwrites what every user of port 1 reads (device_side: the raw store a
    // host with the window mapped can make, whatever gba-pac's host view allows).
    let g = fabric.global(1);
    g.device_id().device_side().set(JUNK32);
    g.version().device_side().set(JUNK32);
    g.caps().device_side().set(JUNK32);
    g.port_id().device_side().set(JUNK32);
    g.group_enabled().device_side().set(JUNK32);
    g.groups_busy().device_side().set(JUNK32);
    g.barriers_completed().device_side().set(JUNK64);
    fabric.step();
    assert_eq!(g.device_id().get(), global::reset::DEVICE_ID);
    assert_eq!(g.version().get(), global::reset::VERSION);
    assert_eq!(g.caps().get(), global::reset::CAPS);
    assert_eq!(g.port_id().read(global::PORT_ID::PORT), 1);
    assert_eq!(g.group_enabled().get(), 0);
    assert_eq!(g.groups_busy().get(), 0);
    assert_eq!(g.barriers_completed().get(), 0);
}

#[test]
fn a_store_into_an_idle_groups_read_only_register_is_undone_when_the_switch_settles() {
    let (_dir, fabric) = fabric(2);
    let regs = fabric.window(0).group(9).unwrap();
    regs.group_id().device_side().set(JUNK32);
    regs.status().device_side().set(JUNK64);
    regs.arrival_count().device_side().set(JUNK32);
    regs.arrived_mask(3).unwrap().device_side().set(JUNK64);
    regs.release_seq().device_side().set(JUNK64);
    // The write-only doorbell of a group the port is not in: no arrival, and it reads back
    // nothing.
    regs.arrival().device_side().set(JUNK64);
    fabric.settle();
    assert_eq!(regs.group_id().get(), 9);
    assert_eq!(regs.status().get(), 0);
    assert_eq!(regs.arrival_count().get(), 0);
    assert_eq!(regs.arrived_mask(3).unwrap().get(), 0);
    assert_eq!(regs.release_seq().get(), 0);
    assert_eq!(regs.arrival().device_side().get(), 0);
}

#[test]
fn reset_is_a_single_pulse_that_reads_zero_once_the_switch_settles() {
    let (_dir, fabric) = fabric(2);
    let control = fabric.window(1).group(20).unwrap().control();
    control.write(CONTROL::RESET::SET);
    fabric.settle();
    assert_eq!(control.get(), 0);
}

#[test]
fn a_busy_group_keeps_the_switchs_state_whatever_a_host_stores() {
    let (_dir, fabric) = fabric(3);
    let mut members = formed(&fabric, 5, 3);
    for m in &mut members {
        m.arrive();
    }
    for m in &members {
        m.wait(10_000).expect("released");
    }
    // Another host clears READY, fakes a release and an error, inflates the counter.
    let regs = members[2].regs();
    regs.status()
        .device_side()
        .write(STATUS::ERROR::SET + STATUS::ERROR_CODE::SEQ_ERROR);
    regs.release_seq().device_side().set(77);
    regs.arrived_mask(0).unwrap().device_side().set(0b111);
    fabric
        .global(2)
        .barriers_completed()
        .device_side()
        .set(1000);
    fabric.step();
    assert!(regs.status().is_set(STATUS::READY), "READY put back");
    assert!(!regs.status().is_set(STATUS::ERROR), "no error");
    assert_eq!(regs.release_seq().get(), 1);
    assert_eq!(regs.arrived_mask(0).unwrap().get(), 0);
    // The switch counts from its own state, not from what was stored: the next episode
    // completes and every counter reads 2.
    for m in &mut members {
        m.arrive();
    }
    for m in &members {
        m.wait(10_000).expect("released");
        assert_eq!(m.flag(), 2);
    }
    fabric.step();
    for p in 0..3 {
        assert_eq!(fabric.global(p).barriers_completed().get(), 2, "port {p}");
        assert_eq!(fabric.window(p).group(5).unwrap().release_seq().get(), 2);
    }
}
