//! What the generated handles do beyond addressing: write-1 bits survive `modify`, enumerated
//! fields keep every raw value, register-less fields and odd widths work (uart fixture).

mod common;

use common::Window;
use gba_pac::group::{CONTROL, STATUS};
use gba_pac::tock_registers::interfaces::{Debuggable, ReadWriteable, Readable, Writeable};
use uart_pac::dma_channel::CTRL;
use uart_pac::regs::{INT_STATUS, LINE_CTRL};

#[test]
fn modify_never_writes_back_a_write_one_to_set_bit() {
    let window = Window::new(gba_pac::Device::SIZE);
    let control = window.gba().group(5).unwrap().control();
    let offset = window.offset_of(control.as_ptr().cast());
    // The device reads RESET back as 1 (a reset in progress) and ARM as 1.
    window.poke(offset, &0b110u64.to_le_bytes());
    control.modify(CONTROL::ENABLE::SET);
    assert_eq!(
        window.peek_u64(offset),
        0b101,
        "RESET must not be re-triggered"
    );
    control.modify(CONTROL::RESET::SET);
    assert_eq!(
        window.peek_u64(offset),
        0b111,
        "an explicit RESET::SET is written"
    );
    control.write(CONTROL::ENABLE::SET + CONTROL::ARM::SET);
    assert_eq!(window.peek_u64(offset), 0b101);
}

#[test]
fn modify_never_clears_pending_write_one_to_clear_events() {
    let window = Window::new(uart_pac::Device::SIZE);
    let status = window.uart().regs().int_status();
    let offset = window.offset_of(status.as_ptr().cast());
    // RX_READY and OVERRUN pending, three characters waiting, LOOPBACK on.
    window.poke(offset, &0x0001_0305u32.to_le_bytes());
    status.modify(INT_STATUS::LOOPBACK::CLEAR);
    assert_eq!(
        window.peek_u32(offset),
        0x0000_0300,
        "pending W1C bits are written as 0, so they stay pending"
    );
    window.poke(offset, &0x0001_0305u32.to_le_bytes());
    status.modify(INT_STATUS::OVERRUN::SET);
    assert_eq!(
        window.peek_u32(offset),
        0x0001_0304,
        "only OVERRUN is acknowledged"
    );
}

/// EVENTS holds two write-0-to-clear events, a write-1-to-toggle LED and a single pulse
/// beside a plain field: `modify` of the plain field writes 1 into the write-0 bits and 0
/// into the write-1 bits, so nothing is acknowledged, toggled or pulsed by the write-back.
#[test]
fn modify_writes_every_side_effect_bit_as_its_neutral_value() {
    use uart_pac::regs::EVENTS;
    let window = Window::new(uart_pac::Device::SIZE);
    let events = window.uart().regs().events();
    let offset = window.offset_of(events.as_ptr().cast());
    // Neither event pending (they read 0), the LED on, FLUSH reading 1 (a pulse under way).
    window.poke(offset, &0b1100u32.to_le_bytes());
    events.modify(EVENTS::MODE.val(2));
    assert_eq!(
        window.peek_u32(offset),
        0x0000_0203,
        "wzc bits written as 1 (not acknowledged), wot and singlepulse bits as 0 (not \
         toggled, not pulsed)"
    );
    // Asked for, each effect is written.
    window.poke(offset, &0u32.to_le_bytes());
    events.modify(EVENTS::BREAK_SEEN::CLEAR + EVENTS::LED::SET + EVENTS::FLUSH::SET);
    assert_eq!(
        window.peek_u32(offset),
        0b1110,
        "only BREAK_SEEN written as 0"
    );
}

/// BAUD_FINE is locked while LOCK.CFG_LOCK is 1; TEST_CTRL is writable while LOCK.TEST_EN
/// is 1. A write goes through the handle `unlocked` gives after reading the lock.
#[test]
fn a_locked_register_is_written_only_once_its_lock_is_read_open() {
    use uart_pac::regs::{BAUD_FINE, LOCK, TEST_CTRL};
    let window = Window::new(uart_pac::Device::SIZE);
    let regs = window.uart().regs();
    let lock = regs.lock();
    let lock_offset = window.offset_of(lock.as_ptr().cast());
    let baud_offset = window.offset_of(regs.baud_fine().as_ptr().cast());

    let fine = regs
        .baud_fine()
        .unlocked(lock)
        .expect("CFG_LOCK reads 0: unlocked");
    fine.write(BAUD_FINE::FRACTION.val(21));
    assert_eq!(window.peek(baud_offset, 2), 21u16.to_le_bytes());
    // Reads need no unlocking.
    assert_eq!(regs.baud_fine().read(BAUD_FINE::FRACTION), 21);

    lock.modify(LOCK::CFG_LOCK::SET);
    assert!(
        regs.baud_fine().unlocked(lock).is_none(),
        "CFG_LOCK reads 1"
    );
    // TEST_CTRL has the other polarity: locked while TEST_EN is 0.
    assert!(regs.test_ctrl().unlocked(lock).is_none(), "TEST_EN reads 0");
    window.poke(lock_offset, &[0b10]);
    let test = regs.test_ctrl().unlocked(lock).expect("TEST_EN reads 1");
    test.write(TEST_CTRL::LOOP_TX_RX::SET);
    assert_eq!(regs.test_ctrl().read(TEST_CTRL::LOOP_TX_RX), 1);
    // The caller who knows better says so in the code.
    regs.baud_fine().assume_unlocked().set(5);
    assert_eq!(window.peek(baud_offset, 2), 5u16.to_le_bytes());
}

/// A read-to-clear field in a read-write register, and a read-to-set one: both read only
/// through `read_and_clear`; PEAK's other field is still written (`set`).
#[test]
fn read_to_clear_and_read_to_set_fields_read_only_by_read_and_clear() {
    use uart_pac::regs::{PEAK, SEMAPHORE};
    let window = Window::new(uart_pac::Device::SIZE);
    let regs = window.uart().regs();
    let peak = regs.peak();
    let offset = window.offset_of(peak.as_ptr().cast());
    peak.write(PEAK::THRESHOLD.val(12));
    window.poke(offset, &[9, 12]);
    let value = peak.read_and_clear();
    assert_eq!(
        (value.read(PEAK::LEVEL), value.read(PEAK::THRESHOLD)),
        (9, 12)
    );
    let semaphore = regs.semaphore();
    let at = window.offset_of(semaphore.as_ptr().cast());
    window.poke(at, &[1]);
    assert!(semaphore.read_and_clear().is_set(SEMAPHORE::TAKEN));
}

#[test]
fn plain_read_write_registers_use_read_modify_write() {
    let window = Window::new(uart_pac::Device::SIZE);
    let line = window.uart().regs().line_ctrl();
    let offset = window.offset_of(line.as_ptr().cast());
    line.write(LINE_CTRL::WORD_LEN::EIGHT + LINE_CTRL::STOP_BITS::SET);
    line.modify(LINE_CTRL::PARITY::EVEN);
    assert_eq!(
        window.peek(offset, 2),
        ((3u16 << 3) | (1 << 2) | 3).to_le_bytes()
    );
    assert_eq!(line.read(LINE_CTRL::PARITY), 3);
}

#[test]
fn enumerated_fields_keep_values_the_spec_does_not_name() {
    let window = Window::new(gba_pac::Device::SIZE);
    let status = window.gba().group(0).unwrap().status();
    let offset = window.offset_of(status.as_ptr().cast());
    window.poke(offset, &((5u64 << 8) | 0b1000).to_le_bytes());
    assert_eq!(
        status.read_as_enum(STATUS::ERROR_CODE),
        Some(STATUS::ERROR_CODE::Value::DMA_FAULT)
    );
    assert!(status.is_set(STATUS::ERROR));
    window.poke(offset, &(0xA7u64 << 8).to_le_bytes());
    assert_eq!(
        status.read_as_enum::<STATUS::ERROR_CODE::Value>(STATUS::ERROR_CODE),
        None
    );
    assert_eq!(
        status.read(STATUS::ERROR_CODE),
        0xA7,
        "the raw value is still readable"
    );

    let uart = Window::new(uart_pac::Device::SIZE);
    let line = uart.uart().regs().line_ctrl();
    let offset = uart.offset_of(line.as_ptr().cast());
    for (raw, named) in [
        (0u16, Some(LINE_CTRL::PARITY::Value::NONE)),
        (2, None),
        (3, Some(LINE_CTRL::PARITY::Value::EVEN)),
        (6, None),
        (7, Some(LINE_CTRL::PARITY::Value::SPACE)),
    ] {
        uart.poke(offset, &(raw << 3).to_le_bytes());
        assert_eq!(
            line.read_as_enum(LINE_CTRL::PARITY),
            named,
            "PARITY = {raw}"
        );
        assert_eq!(line.read(LINE_CTRL::PARITY), raw);
    }
}

#[test]
fn a_read_to_clear_register_is_read_only_by_read_and_clear() {
    use uart_pac::regs::ERROR_COUNT;
    let window = Window::new(uart_pac::Device::SIZE);
    let errors = window.uart().regs().error_count();
    let offset = window.offset_of(errors.as_ptr().cast());
    window.poke(offset, &7u32.to_le_bytes());
    let value = errors.read_and_clear();
    assert_eq!(value.read(ERROR_COUNT::COUNT), 7);
    assert_eq!(value.get(), 7);
}

#[test]
fn fixture_shapes_work_end_to_end() {
    let window = Window::new(uart_pac::Device::SIZE);
    let uart = window.uart();
    // A register without fields: raw get/set only.
    let baud = uart.regs().baud_div();
    baud.set(0x1234);
    assert_eq!(
        window.peek(window.offset_of(baud.as_ptr().cast()), 2),
        [0x34, 0x12]
    );
    assert_eq!(baud.get(), 0x1234);
    // A byte-wide register array with stride 1.
    for i in 0..uart_pac::regs::Regs::SCRATCH_COUNT {
        uart.regs().scratch(i).unwrap().set(0xA0 + i as u8);
    }
    assert_eq!(window.peek(0x14, 4), [0xA0, 0xA1, 0xA2, 0xA3]);
    assert!(uart.regs().scratch(4).is_none());
    // A sparse block array: channel 1 is 0x20 after channel 0, with a W1S bit in CTRL.
    let ctrl = uart.dma_channel(1).unwrap().ctrl();
    assert_eq!(window.offset_of(ctrl.as_ptr().cast()), 0x100 + 0x20 + 0x6);
    window.poke(0x126, &0b11u16.to_le_bytes());
    ctrl.modify(CTRL::DIR::TO_DEVICE);
    assert_eq!(
        window.peek(0x126, 2),
        [0, 0],
        "START is not re-triggered, DIR cleared"
    );
    assert!(uart.dma_channel(2).is_none());
    assert_eq!(uart_pac::FIFO_DEPTH, 16);
}

#[test]
fn reset_values_are_the_specs() {
    let spec = common::gba_spec();
    let reset = |block: &str, register: &str| {
        spec.blocks
            .iter()
            .find(|b| *b.name == block)
            .and_then(|b| b.registers.iter().find(|r| *r.name == register))
            .map(|r| *r.reset)
            .unwrap_or_else(|| panic!("{block}.{register} not in the spec"))
    };
    assert_eq!(
        u64::from(gba_pac::global::reset::DEVICE_ID),
        reset("global", "DEVICE_ID")
    );
    assert_eq!(
        u64::from(gba_pac::global::reset::CAPS),
        reset("global", "CAPS")
    );
    assert_eq!(
        u64::from(gba_pac::global::reset::VERSION),
        reset("global", "VERSION")
    );
    assert_eq!(gba_pac::group::reset::CONTROL, reset("group", "CONTROL"));
    // The spec agrees with itself: CAPS reads the limits that the constants state.
    let caps =
        gba_pac::tock_registers::LocalRegisterCopy::<u32, gba_pac::global::CAPS::Register>::new(
            gba_pac::global::reset::CAPS,
        );
    assert_eq!(
        caps.read(gba_pac::global::CAPS::MAX_GROUPS) as usize,
        gba_pac::MAX_GROUPS
    );
    assert_eq!(
        caps.read(gba_pac::global::CAPS::MAX_MEMBERS) as usize,
        gba_pac::MAX_MEMBERS
    );
    assert_eq!(gba_pac::Device::GROUP_COUNT, gba_pac::MAX_GROUPS);
}

#[test]
fn debug_names_every_field_and_its_named_value() {
    let window = Window::new(gba_pac::Device::SIZE);
    let status = window.gba().group(0).unwrap().status();
    let offset = window.offset_of(status.as_ptr().cast());
    window.poke(offset, &((5u64 << 8) | 0b1001).to_le_bytes());
    assert_eq!(
        format!("{:?}", status.debug()),
        "STATUS { READY: 1, ACTIVE: 0, COMPLETE: 0, ERROR: 1, ERROR_CODE: DMA_FAULT }"
    );
    window.poke(offset, &(0xA7u64 << 8).to_le_bytes());
    assert_eq!(
        format!("{:?}", status.debug()),
        "STATUS { READY: 0, ACTIVE: 0, COMPLETE: 0, ERROR: 0, ERROR_CODE: 167 }",
        "a value the spec does not name prints as a number"
    );

    // Enumerated fields between plain ones keep their places.
    let uart = Window::new(uart_pac::Device::SIZE);
    let line = uart.uart().regs().line_ctrl();
    line.write(LINE_CTRL::WORD_LEN::EIGHT + LINE_CTRL::STOP_BITS::SET + LINE_CTRL::PARITY::EVEN);
    let printed = format!("{:?}", line.debug());
    assert!(
        printed.starts_with("LINE_CTRL { WORD_LEN: EIGHT, STOP_BITS: 1, PARITY: EVEN"),
        "{printed}"
    );
}

#[test]
fn enumerated_values_convert_into_field_values() {
    let uart = Window::new(uart_pac::Device::SIZE);
    let line = uart.uart().regs().line_ctrl();
    line.write(LINE_CTRL::PARITY::Value::SPACE.into());
    assert_eq!(line.get(), LINE_CTRL::PARITY::SPACE.value);
    assert_eq!(line.read(LINE_CTRL::PARITY), 7);
    assert_eq!(LINE_CTRL::PARITY::SET.value, 7 << 3);
    assert_eq!(LINE_CTRL::PARITY::CLEAR.value, 0);
    assert_eq!(CONTROL::ARM.val(1).value, 1 << 2);
    assert_eq!(CONTROL::ARM::SET.value, CONTROL::ARM.val(1).value);
}

#[test]
fn registers_with_equal_fields_share_one_field_set() {
    use std::any::TypeId;

    use rp2040_pac_gba::{adc, busctrl};
    // ADC's INTF has INTE's fields (same names, bits, access and descriptions): one type.
    assert_eq!(
        TypeId::of::<adc::INTF::Register>(),
        TypeId::of::<adc::INTE::Register>()
    );
    // INTR has the same bits, read-only: a field set of its own.
    assert_ne!(
        TypeId::of::<adc::INTR::Register>(),
        TypeId::of::<adc::INTE::Register>()
    );
    // PERFSEL1's field set differs from PERFSEL0's by its field's name, so it is its own,
    // but the enum of the field is PERFSEL0's.
    assert_ne!(
        TypeId::of::<busctrl::PERFSEL1::Register>(),
        TypeId::of::<busctrl::PERFSEL0::Register>()
    );
    assert_eq!(
        TypeId::of::<busctrl::PERFSEL1::PERFSEL1::Value>(),
        TypeId::of::<busctrl::PERFSEL0::PERFSEL0::Value>()
    );
    // The shared enum converts into either field set's field values, at each one's bits.
    let value = busctrl::PERFSEL0::PERFSEL0::Value::APB_CONTESTED;
    let fields: gba_pac::tock_registers::fields::FieldValue<u32, busctrl::PERFSEL1::Register> =
        value.into();
    assert_eq!(fields.value, value as u32);
}

/// Over a bus the lock is read over the bus too (`try_unlocked`), with the same two
/// polarities; a failed read of the lock is the bus's error, never a guess either way.
#[test]
fn a_locked_register_over_a_bus_is_written_only_once_its_lock_is_read_open() {
    use std::cell::{Cell, RefCell};
    use uart_pac::common::{Bus, Width};
    use uart_pac::regs::{BAUD_FINE, LOCK, TEST_CTRL, offset};

    /// Little-endian bytes; every transaction fails while `down`.
    struct Bytes {
        memory: RefCell<Vec<u8>>,
        down: Cell<bool>,
    }
    impl Bus for Bytes {
        type Error = &'static str;
        fn read(&self, address: u64, width: Width) -> Result<u64, Self::Error> {
            if self.down.get() {
                return Err("no answer");
            }
            let at = address as usize;
            let bytes = &self.memory.borrow()[at..at + width.bytes() as usize];
            Ok(bytes.iter().rev().fold(0, |v, &b| v << 8 | u64::from(b)))
        }
        fn write(&self, address: u64, width: Width, value: u64) -> Result<(), Self::Error> {
            if self.down.get() {
                return Err("no answer");
            }
            let at = address as usize;
            let n = width.bytes() as usize;
            self.memory.borrow_mut()[at..at + n].copy_from_slice(&value.to_le_bytes()[..n]);
            Ok(())
        }
    }

    let bus = Bytes {
        memory: RefCell::new(vec![0; uart_pac::Device::SIZE]),
        down: Cell::new(false),
    };
    let regs = uart_pac::Device::on_bus(&bus, 0).regs();
    let lock = regs.lock();
    let fine = regs.baud_fine().try_unlocked(lock).unwrap();
    fine.expect("CFG_LOCK reads 0: unlocked")
        .try_write(BAUD_FINE::FRACTION.val(21))
        .unwrap();
    assert_eq!(bus.memory.borrow()[offset::BAUD_FINE], 21);

    lock.try_write(LOCK::CFG_LOCK::SET).unwrap();
    assert!(regs.baud_fine().try_unlocked(lock).unwrap().is_none());
    assert!(regs.test_ctrl().try_unlocked(lock).unwrap().is_none());
    lock.try_write(LOCK::TEST_EN::SET).unwrap();
    regs.test_ctrl()
        .try_unlocked(lock)
        .unwrap()
        .expect("TEST_EN reads 1")
        .try_write(TEST_CTRL::LOOP_TX_RX::SET)
        .unwrap();
    assert_eq!(bus.memory.borrow()[offset::TEST_CTRL], 1);

    bus.down.set(true);
    assert_eq!(
        regs.test_ctrl().try_unlocked(lock).map(|h| h.is_some()),
        Err("no answer")
    );
}
