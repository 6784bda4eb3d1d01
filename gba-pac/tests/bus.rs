//! The bus mechanism: the same typed handles over a transaction interface. A bus in memory
//! (a map of addresses to values, with a log of every transaction) shows what each method
//! sends; a bus that fails shows that the error comes back unchanged, and that nothing after a
//! failed read is written. One driver function, generic over the mechanism, runs over the
//! bus and over memory alike.

use std::cell::RefCell;
use std::collections::BTreeMap;

use gba_pac::common::{Bus, Io, Width};
use gba_pac::group::{self, ARRIVAL, CONTROL, MEMBER_COUNT, MEMBER_MASK, STATUS};
use gba_pac::tock_registers::interfaces::Readable;
use gba_pac::{Device, MAX_GROUPS};

/// One transaction as the bus saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Read(u64, Width),
    Write(u64, Width, u64),
}

#[derive(Debug, PartialEq, Eq)]
struct Nack {
    address: u64,
}

/// A device model of the simplest kind: every address holds what was last written there.
/// Reads of addresses in `failing` answer with a NACK, as would an I2C target that is not
/// there; writes there fail too.
#[derive(Default)]
struct MemoryBus {
    values: RefCell<BTreeMap<u64, u64>>,
    log: RefCell<Vec<Op>>,
    failing: Vec<u64>,
}

impl Bus for MemoryBus {
    type Error = Nack;

    fn read(&self, address: u64, width: Width) -> Result<u64, Nack> {
        self.log.borrow_mut().push(Op::Read(address, width));
        if self.failing.contains(&address) {
            return Err(Nack { address });
        }
        Ok(self.values.borrow().get(&address).copied().unwrap_or(0))
    }

    fn write(&self, address: u64, width: Width, value: u64) -> Result<(), Nack> {
        self.log.borrow_mut().push(Op::Write(address, width, value));
        if self.failing.contains(&address) {
            return Err(Nack { address });
        }
        self.values.borrow_mut().insert(address, value);
        Ok(())
    }
}

impl MemoryBus {
    fn take_log(&self) -> Vec<Op> {
        std::mem::take(&mut self.log.borrow_mut())
    }
}

/// The window's base on the bus: not 0, so that a handle that forgot it would be seen.
const BASE: u64 = 0x4000_0000;

fn group_address(g: u64) -> u64 {
    BASE + 0x1_0000 + g * group::Group::SIZE as u64
}

/// A driver written once against any mechanism: the bound names the widths it uses and the
/// error is the mechanism's. Over memory the error is `Infallible`.
fn configure<M: Io<u32> + Io<u64>>(
    group: group::Group<M>,
    members: &[u64],
    count: u32,
) -> Result<bool, M::Error> {
    for (w, &word) in members.iter().enumerate() {
        if let Some(mask) = group.member_mask(w) {
            mask.try_write(MEMBER_MASK::MEMBERS.val(word))?;
        }
    }
    group
        .member_count()
        .try_write(MEMBER_COUNT::COUNT.val(count))?;
    group
        .control()
        .try_modify(CONTROL::ENABLE::SET + CONTROL::ARM::SET)?;
    group.status().try_is_set(STATUS::READY)
}

#[test]
fn each_access_is_one_transaction_at_base_plus_offset_of_the_register_width() {
    let bus = MemoryBus::default();
    let device = Device::on_bus(&bus, BASE);
    let g3 = device.group(3).unwrap();

    g3.member_count()
        .try_write(MEMBER_COUNT::COUNT.val(5))
        .unwrap();
    g3.member_mask(2).unwrap().try_set(0xf0).unwrap();
    assert_eq!(g3.member_count().try_read(MEMBER_COUNT::COUNT), Ok(5));
    assert_eq!(g3.member_mask(2).unwrap().try_get(), Ok(0xf0));

    let at = group_address(3);
    assert_eq!(
        bus.take_log(),
        [
            Op::Write(at + group::offset::MEMBER_COUNT as u64, Width::Bits32, 5),
            Op::Write(
                at + group::offset::MEMBER_MASK as u64 + 2 * 8,
                Width::Bits64,
                0xf0
            ),
            Op::Read(at + group::offset::MEMBER_COUNT as u64, Width::Bits32),
            Op::Read(
                at + group::offset::MEMBER_MASK as u64 + 2 * 8,
                Width::Bits64
            ),
        ]
    );

    // A register on a bus says where it is on the bus (it has no memory address: `as_ptr`
    // is for memory mechanisms only, tests/ui/bus_as_ptr.rs).
    assert_eq!(
        g3.member_mask(2).unwrap().bus_address(),
        at + group::offset::MEMBER_MASK as u64 + 2 * 8
    );
    assert!(bus.take_log().is_empty());

    // A block opened on its own is at its own base.
    let alone = group::Group::on_bus(&bus, at);
    assert_eq!(alone.member_count().try_get(), Ok(5));
    assert_eq!(
        bus.take_log(),
        [Op::Read(
            at + group::offset::MEMBER_COUNT as u64,
            Width::Bits32
        )]
    );
}

#[test]
fn a_write_one_modify_over_the_bus_writes_the_pulse_bit_as_zero() {
    let bus = MemoryBus::default();
    let control = Device::on_bus(&bus, BASE).group(0).unwrap().control();
    let at = group_address(0) + group::offset::CONTROL as u64;
    // The device reads back RESET as 1 (a model that kept the last write): a plain
    // read-modify-write would pulse it again.
    bus.values.borrow_mut().insert(at, 0b011);

    control.try_modify(CONTROL::ARM::SET).unwrap();
    assert_eq!(
        bus.take_log(),
        [
            Op::Read(at, Width::Bits64),
            Op::Write(at, Width::Bits64, 0b101)
        ]
    );

    control.try_write(CONTROL::RESET::SET).unwrap();
    assert_eq!(bus.take_log(), [Op::Write(at, Width::Bits64, 0b010)]);
}

#[test]
fn a_failed_transaction_returns_the_bus_error_and_a_failed_read_writes_nothing() {
    let count_at = group_address(1) + group::offset::MEMBER_COUNT as u64;
    let control_at = group_address(1) + group::offset::CONTROL as u64;
    let bus = MemoryBus {
        failing: vec![count_at, control_at],
        ..MemoryBus::default()
    };
    let g1 = Device::on_bus(&bus, BASE).group(1).unwrap();

    assert_eq!(g1.member_count().try_get(), Err(Nack { address: count_at }));
    assert_eq!(
        g1.member_count().try_write(MEMBER_COUNT::COUNT.val(2)),
        Err(Nack { address: count_at })
    );
    assert_eq!(
        g1.member_count().try_modify(MEMBER_COUNT::COUNT.val(2)),
        Err(Nack { address: count_at })
    );
    // The modify stopped at its failed read.
    assert_eq!(
        bus.take_log(),
        [
            Op::Read(count_at, Width::Bits32),
            Op::Write(count_at, Width::Bits32, 2),
            Op::Read(count_at, Width::Bits32),
        ]
    );

    // The driver stops at the first failure and says where.
    assert_eq!(configure(g1, &[0b11], 2), Err(Nack { address: count_at }));
    let log = bus.take_log();
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(
        !log.iter()
            .any(|op| matches!(op, Op::Write(a, ..) if *a == control_at))
    );

    // A neighbour on the same bus is unaffected.
    let g2 = Device::on_bus(&bus, BASE).group(2).unwrap();
    assert_eq!(configure(g2, &[0b11], 2), Ok(false));
}

#[test]
fn one_driver_runs_over_the_bus_and_over_memory() {
    let bus = MemoryBus::default();
    let ready = configure(Device::on_bus(&bus, BASE).group(4).unwrap(), &[1, 2], 2);
    assert_eq!(ready, Ok(false));
    let at = group_address(4);
    let values = bus.values.borrow();
    assert_eq!(values[&(at + group::offset::MEMBER_MASK as u64)], 1);
    assert_eq!(values[&(at + group::offset::MEMBER_MASK as u64 + 8)], 2);
    assert_eq!(values[&(at + group::offset::MEMBER_COUNT as u64)], 2);
    assert_eq!(values[&(at + group::offset::CONTROL as u64)], 0b101);

    // The same function over a window in memory, whose error is `Infallible`.
    let mut window = vec![0u64; Device::SIZE / 8];
    // SAFETY: the vector is Device::SIZE bytes, 8-aligned, not referenced while the handle
    // is used (the vector is not touched until the last access), and used by this thread
    // only.
    let device = unsafe { Device::from_ptr(window.as_mut_ptr().cast()) };
    let group = device.group(4).unwrap();
    let Ok(ready) = configure(group, &[1, 2], 2);
    assert!(!ready);
    assert_eq!(group.member_count().get(), 2);
    assert_eq!(group.member_mask(1).unwrap().get(), 2);
    assert_eq!(group.control().get(), 0b101);
}

#[test]
fn the_access_modes_hold_on_a_bus() {
    let bus = MemoryBus::default();
    let g = Device::on_bus(&bus, BASE).group(MAX_GROUPS - 1).unwrap();
    // The doorbell is write-only: `try_set` and `try_write` exist, `try_get` does not (the
    // compile-fail cases in tests/ui cover the missing methods); STATUS is read-only.
    g.arrival()
        .try_write(ARRIVAL::MEMBER_ID.val(3) + ARRIVAL::SEQUENCE.val(1))
        .unwrap();
    assert_eq!(g.status().try_get(), Ok(0));
    assert_eq!(
        bus.take_log()[0],
        Op::Write(
            group_address(MAX_GROUPS as u64 - 1) + group::offset::ARRIVAL as u64,
            Width::Bits64,
            3 << 32 | 1
        )
    );
}

/// A bus whose error is `Infallible` (a simulator that cannot fail) gets the infallible
/// vocabulary too: tock-registers' `Readable` works on its handles.
#[test]
fn an_infallible_bus_has_the_plain_methods() {
    struct Constant;
    impl Bus for Constant {
        type Error = core::convert::Infallible;
        fn read(&self, _: u64, _: Width) -> Result<u64, Self::Error> {
            Ok(0x1234_5678_9abc_def0)
        }
        fn write(&self, _: u64, _: Width, _: u64) -> Result<(), Self::Error> {
            Ok(())
        }
    }
    let g = Device::on_bus(&Constant, 0).group(0).unwrap();
    // A 32-bit register keeps the low 32 bits of what the bus answered.
    assert_eq!(g.member_count().get(), 0x9abc_def0);
    assert_eq!(g.release_seq().get(), 0x1234_5678_9abc_def0);
}
