//! `gba_macros::include_spec!` builds the uart fixture at compile time (`uart-macro-pac`), and
//! the same code drives it and the crate `gba gen` committed (`uart-pac`).

mod common;

use common::Window;

/// One body, written once, run against both crates: `$pac` is the crate, `$device` the
/// window's accessor for it.
macro_rules! uart_behaviour {
    ($pac:ident, $device:ident) => {{
        use $pac::dma_channel::CTRL;
        use $pac::regs::{INT_STATUS, LINE_CTRL};
        use $pac::tock_registers::interfaces::{Debuggable, ReadWriteable, Readable, Writeable};

        let window = Window::new($pac::Device::SIZE);
        let uart = window.$device();
        // Fields, enumerated values, write-1-to-clear bits.
        let line = uart.regs().line_ctrl();
        line.write(LINE_CTRL::WORD_LEN::EIGHT + LINE_CTRL::STOP_BITS::SET);
        line.modify(LINE_CTRL::PARITY::EVEN);
        assert_eq!(
            line.read_as_enum(LINE_CTRL::PARITY),
            Some(LINE_CTRL::PARITY::Value::EVEN)
        );
        assert_eq!(line.get(), (3 << 3) | (1 << 2) | 3);
        let status = uart.regs().int_status();
        let offset = window.offset_of(status.as_ptr().cast());
        window.poke(offset, &0x0001_0305u32.to_le_bytes());
        status.modify(INT_STATUS::OVERRUN::SET);
        assert_eq!(
            window.peek_u32(offset),
            0x0001_0304,
            "only OVERRUN is acknowledged"
        );
        // A register array and a block array with a write-1-to-set bit.
        uart.regs().scratch(3).unwrap().set(0xA3);
        assert_eq!(window.peek(0x17, 1), [0xA3]);
        assert!(uart.regs().scratch(4).is_none());
        let ctrl = uart.dma_channel(1).unwrap().ctrl();
        window.poke(0x126, &0b11u16.to_le_bytes());
        ctrl.modify(CTRL::DIR::TO_DEVICE);
        assert_eq!(window.peek(0x126, 2), [0, 0]);
        assert_eq!($pac::FIFO_DEPTH, 16);
        format!("{:?}", line.debug())
    }};
}

#[test]
fn the_macro_crate_behaves_as_the_generated_crate() {
    let committed = uart_behaviour!(uart_pac, uart);
    let expanded = uart_behaviour!(uart_macro_pac, uart_macro);
    assert_eq!(expanded, committed);
    assert!(
        committed.starts_with("LINE_CTRL { WORD_LEN: EIGHT"),
        "{committed}"
    );
}

#[test]
fn the_macro_crate_has_the_generated_crates_layout() {
    assert_eq!(uart_macro_pac::Device::SIZE, uart_pac::Device::SIZE);
    assert_eq!(
        uart_macro_pac::regs::offset::INT_STATUS,
        uart_pac::regs::offset::INT_STATUS
    );
    assert_eq!(
        uart_macro_pac::regs::reset::LINE_CTRL,
        uart_pac::regs::reset::LINE_CTRL
    );
    assert_eq!(
        uart_macro_pac::dma_channel::DmaChannel::SIZE,
        uart_pac::dma_channel::DmaChannel::SIZE
    );
}
