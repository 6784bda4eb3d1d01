//! What the generated handles do beyond addressing: write-1 bits survive `modify`, enumerated
//! fields keep every raw value, register-less fields and odd widths work (uart fixture).

mod common;

use common::Window;
use gba_pac::group::{CONTROL, STATUS};
use gba_pac::tock_registers::interfaces::{ReadWriteable, Readable, Writeable};
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
