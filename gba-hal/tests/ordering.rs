//! The configuration a member writes happens-before the ENABLE the switch acts on: the HAL
//! stores CONTROL = ENABLE|ARM with release ordering, so a switch that reads CONTROL with
//! acquire sees this member's MEMBER_MASK, MEMBER_COUNT and RELEASE_ADDR. x86 would hide a
//! relaxed store; Miri's weak-memory emulation does not (`cargo +nightly miri test -p gba-hal
//! --test ordering`, run by `tests/run.sh`), which is what this test is for.

use std::sync::atomic::{AtomicBool, Ordering};

use gba_hal::backends::MemoryBackend;
use gba_hal::{Device, GroupConfig, MemberSet};
use gba_pac::common::Atomic;
use gba_pac::group::STATUS::ERROR_CODE::Value as ErrorCode;
use gba_pac::group::{CONTROL, MEMBER_COUNT, STATUS};
use gba_pac::tock_registers::interfaces::{ReadWriteable, Readable, Writeable};

/// A toy switch for group 0 of one port: completes RESETs, and on ENABLE (read with acquire)
/// checks the configuration, answering READY or MASK_MISMATCH as a switch would.
fn toy_switch(regs: gba_pac::group::Group<Atomic>, expected: MemberSet, done: &AtomicBool) {
    let control = regs.control().device_side();
    while !done.load(Ordering::Acquire) {
        let value = control.get_acquire();
        if value & CONTROL::RESET::SET.value != 0 {
            control.set(0);
            regs.status().device_side().set(0);
        } else if value & CONTROL::ENABLE::SET.value != 0
            && !regs.status().is_set(STATUS::READY)
            && !regs.status().is_set(STATUS::ERROR)
        {
            let mask = MemberSet(std::array::from_fn(|w| {
                regs.member_mask(w).map_or(0, |r| r.get())
            }));
            let count = regs.member_count().read(MEMBER_COUNT::COUNT);
            let answer = if mask == expected && count == expected.count() {
                STATUS::READY::SET
            } else {
                STATUS::ERROR::SET + STATUS::ERROR_CODE::MASK_MISMATCH
            };
            regs.status().device_side().modify(answer);
        }
        std::thread::yield_now();
    }
}

#[test]
fn the_switch_sees_the_configuration_written_before_enable() {
    let device = Device::new(MemoryBackend::new(0)).expect("a GBA");
    let members: MemberSet = [0, 1, 70, 130].into_iter().collect();
    // SAFETY: the memory backend's window: Device::SIZE bytes, page-aligned, alive for as long
    // as `device` (which outlives the scope below), and reached only atomically.
    let window = unsafe { gba_pac::Device::from_shared_ptr(device.registers().as_ptr()) };
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| toy_switch(window.group(0).expect("group 0"), members, &done));
        let claimed = device.claim(
            GroupConfig::new(0, members).timeout(Some(std::time::Duration::from_millis(60_000))),
        );
        let result = claimed.as_ref().map(|_| ()).map_err(|e| e.to_string());
        drop(claimed);
        done.store(true, Ordering::Release);
        assert_eq!(
            result,
            Ok(()),
            "a stale configuration gives {:?}",
            ErrorCode::MASK_MISMATCH
        );
    });
}
