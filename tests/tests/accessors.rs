//! The generated GBA accessors reach exactly the bytes and bits the spec says, over a plain
//! memory buffer standing in for the register window.
//!
//! Expected offsets, widths and field positions come from the parsed gba.yaml, never from
//! numbers copied here; the list of accessors below is the only hand-written part, and the
//! test fails if it misses a register the spec has (or names one it lacks).

mod common;

use std::collections::BTreeMap;

use common::Window;
use gba_pac::common::{CanRead, CanWrite, Reg};
use gba_pac::tock_registers::UIntLike;
use gba_pac::tock_registers::debug::RegisterDebugInfo;
use gba_pac::tock_registers::interfaces::{Readable, Writeable};
use gba_pac::{Device, group};

/// What an accessor pointed at: absolute offset in the window, width, and its fields as
/// (name, lsb, value mask).
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    offset: usize,
    bytes: usize,
    fields: Vec<(String, usize, u64)>,
}

type Key = (String, usize, String, usize); // (block, instance, register, element)

fn seen<T, R, A>(
    log: &mut BTreeMap<Key, Seen>,
    window: &Window,
    handle: Reg<T, R, A>,
    key: (&str, usize, &str, usize),
) where
    T: UIntLike + Into<u64> + 'static,
    R: RegisterDebugInfo<T> + 'static,
    A: gba_pac::common::Access,
{
    let fields = R::field_names()
        .iter()
        .zip(R::fields())
        .map(|(name, field)| (name.to_string(), field.shift, field.mask.into()))
        .collect();
    let previous = log.insert(
        (key.0.into(), key.1, key.2.into(), key.3),
        Seen {
            offset: window.offset_of(handle.as_ptr().cast()),
            bytes: size_of::<T>(),
            fields,
        },
    );
    assert!(previous.is_none(), "{key:?} listed twice");
}

/// Every (block, instance, register, element) of the spec with what it must look like.
fn expected() -> BTreeMap<Key, Seen> {
    let device = common::gba_spec();
    let mut expected = BTreeMap::new();
    for block in &device.blocks {
        let (count, stride) = block
            .array
            .as_ref()
            .map_or((1, 0), |a| (*a.count, *a.stride));
        for instance in 0..count {
            let block_base = *block.offset + instance * stride;
            for register in &block.registers {
                for (element, offset) in register.element_offsets().enumerate() {
                    let fields = register
                        .fields
                        .iter()
                        .map(|f| (f.name.to_string(), f.bits.lsb as usize, f.bits.value_mask()))
                        .collect();
                    expected.insert(
                        (
                            block.name.to_string(),
                            instance as usize,
                            register.name.to_string(),
                            element,
                        ),
                        Seen {
                            offset: (block_base + offset) as usize,
                            bytes: register.bytes() as usize,
                            fields,
                        },
                    );
                }
            }
        }
    }
    expected
}

#[test]
fn every_register_and_field_is_where_the_spec_says() {
    let window = Window::new(Device::SIZE);
    let device = window.gba();
    let mut log = BTreeMap::new();
    let g = device.global();
    seen(
        &mut log,
        &window,
        g.device_id(),
        ("global", 0, "DEVICE_ID", 0),
    );
    seen(&mut log, &window, g.version(), ("global", 0, "VERSION", 0));
    seen(&mut log, &window, g.caps(), ("global", 0, "CAPS", 0));
    seen(&mut log, &window, g.port_id(), ("global", 0, "PORT_ID", 0));
    seen(
        &mut log,
        &window,
        g.group_enabled(),
        ("global", 0, "GROUP_ENABLED", 0),
    );
    seen(
        &mut log,
        &window,
        g.groups_busy(),
        ("global", 0, "GROUPS_BUSY", 0),
    );
    seen(
        &mut log,
        &window,
        g.barriers_completed(),
        ("global", 0, "BARRIERS_COMPLETED", 0),
    );
    for i in 0..Device::GROUP_COUNT {
        let grp = device.group(i).expect("index below GROUP_COUNT");
        seen(
            &mut log,
            &window,
            grp.group_id(),
            ("group", i, "GROUP_ID", 0),
        );
        seen(
            &mut log,
            &window,
            grp.member_count(),
            ("group", i, "MEMBER_COUNT", 0),
        );
        seen(
            &mut log,
            &window,
            grp.arrival_count(),
            ("group", i, "ARRIVAL_COUNT", 0),
        );
        seen(
            &mut log,
            &window,
            grp.local_member_id(),
            ("group", i, "LOCAL_MEMBER_ID", 0),
        );
        for e in 0..group::Group::MEMBER_MASK_COUNT {
            seen(
                &mut log,
                &window,
                grp.member_mask(e).unwrap(),
                ("group", i, "MEMBER_MASK", e),
            );
        }
        seen(
            &mut log,
            &window,
            grp.release_addr(),
            ("group", i, "RELEASE_ADDR", 0),
        );
        for e in 0..group::Group::ARRIVED_MASK_COUNT {
            seen(
                &mut log,
                &window,
                grp.arrived_mask(e).unwrap(),
                ("group", i, "ARRIVED_MASK", e),
            );
        }
        seen(&mut log, &window, grp.control(), ("group", i, "CONTROL", 0));
        seen(&mut log, &window, grp.status(), ("group", i, "STATUS", 0));
        seen(&mut log, &window, grp.arrival(), ("group", i, "ARRIVAL", 0));
        seen(
            &mut log,
            &window,
            grp.release_seq(),
            ("group", i, "RELEASE_SEQ", 0),
        );
    }
    let expected = expected();
    let missing: Vec<_> = expected.keys().filter(|k| !log.contains_key(*k)).collect();
    let unknown: Vec<_> = log.keys().filter(|k| !expected.contains_key(*k)).collect();
    assert!(
        missing.is_empty(),
        "spec registers this test does not reach: {missing:?}"
    );
    assert!(
        unknown.is_empty(),
        "accessors the spec does not have: {unknown:?}"
    );
    for (key, want) in &expected {
        assert_eq!(&log[key], want, "{key:?}");
    }
}

#[test]
fn out_of_range_indices_give_none() {
    let window = Window::new(Device::SIZE);
    let device = window.gba();
    let spec = common::gba_spec();
    let group_count = *spec.blocks[1].array.as_ref().unwrap().count as usize;
    assert_eq!(Device::GROUP_COUNT, group_count);
    assert!(device.group(group_count - 1).is_some());
    assert!(device.group(group_count).is_none());
    assert!(device.group(usize::MAX).is_none());
    let grp = device.group(0).unwrap();
    assert!(
        grp.member_mask(group::Group::MEMBER_MASK_COUNT - 1)
            .is_some()
    );
    assert!(grp.member_mask(group::Group::MEMBER_MASK_COUNT).is_none());
    assert!(grp.arrived_mask(usize::MAX).is_none());
}

/// A write through the handle changes exactly the register's bytes, little-endian; a read
/// returns exactly what those bytes hold.
fn write_touches_only<T, R, A: CanWrite>(window: &Window, handle: Reg<T, R, A>, value: T)
where
    T: UIntLike + Into<u64>,
    R: gba_pac::tock_registers::RegisterLongName,
{
    window.clear();
    handle.set(value);
    let offset = window.offset_of(handle.as_ptr().cast());
    let want = value.into().to_le_bytes();
    for (index, byte) in window.bytes().into_iter().enumerate() {
        let inside = (offset..offset + size_of::<T>()).contains(&index);
        let expected = if inside { want[index - offset] } else { 0 };
        assert_eq!(
            byte, expected,
            "byte {index:#x} after writing at {offset:#x}"
        );
    }
}

fn read_sees<T, R, A: CanRead>(window: &Window, handle: Reg<T, R, A>, value: u64)
where
    T: UIntLike + Into<u64>,
    R: gba_pac::tock_registers::RegisterLongName,
{
    window.clear();
    let offset = window.offset_of(handle.as_ptr().cast());
    window.poke(offset, &value.to_le_bytes()[..size_of::<T>()]);
    let mask = u64::MAX >> (64 - 8 * size_of::<T>());
    assert_eq!(handle.get().into(), value & mask, "read at {offset:#x}");
}

#[test]
fn accesses_move_exactly_the_register_bytes() {
    let window = Window::new(Device::SIZE);
    let device = window.gba();
    let g = device.global();
    read_sees(&window, g.device_id(), 0x4742_4131);
    read_sees(&window, g.barriers_completed(), 0x0102_0304_0506_0708);
    for i in [0, 1, Device::GROUP_COUNT - 1] {
        let grp = device.group(i).unwrap();
        write_touches_only(&window, grp.member_count(), 0x2c4u32);
        write_touches_only(
            &window,
            grp.member_mask(11).unwrap(),
            0x8000_0000_0000_000fu64,
        );
        write_touches_only(&window, grp.release_addr(), 0xdead_beef_0000_1000u64);
        write_touches_only(&window, grp.arrival(), (7u64 << 32) | 42);
        read_sees(&window, grp.arrived_mask(3).unwrap(), 1 << 63);
        read_sees(&window, grp.release_seq(), 0xffff_ffff);
        read_sees(&window, grp.status(), 0x0503);
        // CONTROL has a write-1 bit; its raw `set` still writes what it is given.
        window.clear();
        grp.control().set(0x7);
        assert_eq!(
            window.peek_u64(window.offset_of(grp.control().as_ptr().cast())),
            0x7
        );
    }
}
