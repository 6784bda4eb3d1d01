//! A register wider than its bus access (`access_width` in the spec, SystemRDL's
//! `accesswidth`): the uart fixture's 64-bit `regs.TIMESTAMP` has `access_width: 32`, so every
//! read and write of it is two 32-bit accesses, the low word first, at the register's address
//! and 4 bytes above. A bus that logs each transaction shows the addresses, widths and order;
//! a memory window shows where the bytes land with the volatile and atomic mechanisms, and
//! the macro-generated crate does the same as the committed one.

mod common;

use std::cell::RefCell;

use common::Window;
use gba_pac::tock_registers::interfaces::{Readable, Writeable};
use uart_pac::common::{Bus, Width};
use uart_pac::regs::TIMESTAMP;

/// The register's offset in the window (`regs` is at 0).
const OFFSET: u64 = 0x30;
const BASE: u64 = 0x4000_0000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Read(u64, Width),
    Write(u64, Width, u64),
}

/// Every address holds what was last written there; every transaction is logged. Accesses
/// to `failing` fail.
#[derive(Default)]
struct LogBus {
    values: RefCell<std::collections::BTreeMap<u64, u64>>,
    log: RefCell<Vec<Op>>,
    failing: Option<u64>,
}

impl Bus for LogBus {
    type Error = u64;

    fn read(&self, address: u64, width: Width) -> Result<u64, u64> {
        self.log.borrow_mut().push(Op::Read(address, width));
        if self.failing == Some(address) {
            return Err(address);
        }
        Ok(self.values.borrow().get(&address).copied().unwrap_or(0))
    }

    fn write(&self, address: u64, width: Width, value: u64) -> Result<(), u64> {
        self.log.borrow_mut().push(Op::Write(address, width, value));
        if self.failing == Some(address) {
            return Err(address);
        }
        self.values.borrow_mut().insert(address, value);
        Ok(())
    }
}

impl LogBus {
    fn take_log(&self) -> Vec<Op> {
        std::mem::take(&mut self.log.borrow_mut())
    }
}

#[test]
fn a_write_is_two_32_bit_bus_writes_low_word_first() {
    let bus = LogBus::default();
    let timestamp = uart_pac::Device::on_bus(&bus, BASE).regs().timestamp();
    assert_eq!(timestamp.bus_address(), BASE + OFFSET);
    timestamp.try_set(0x1122_3344_5566_7788).unwrap();
    assert_eq!(
        bus.take_log(),
        [
            Op::Write(BASE + OFFSET, Width::Bits32, 0x5566_7788),
            Op::Write(BASE + OFFSET + 4, Width::Bits32, 0x1122_3344),
        ]
    );
}

#[test]
fn a_read_is_two_32_bit_bus_reads_low_word_first_and_joins_them() {
    let bus = LogBus::default();
    bus.values.borrow_mut().insert(BASE + OFFSET, 0x89ab_cdef);
    bus.values
        .borrow_mut()
        .insert(BASE + OFFSET + 4, 0x0123_4567);
    let timestamp = uart_pac::Device::on_bus(&bus, BASE).regs().timestamp();
    assert_eq!(timestamp.try_get(), Ok(0x0123_4567_89ab_cdef));
    assert_eq!(
        timestamp.try_read(TIMESTAMP::TICKS),
        Ok(0x0123_4567_89ab_cdef)
    );
    assert_eq!(
        bus.take_log(),
        [
            Op::Read(BASE + OFFSET, Width::Bits32),
            Op::Read(BASE + OFFSET + 4, Width::Bits32),
            Op::Read(BASE + OFFSET, Width::Bits32),
            Op::Read(BASE + OFFSET + 4, Width::Bits32),
        ]
    );
}

#[test]
fn modify_reads_both_pieces_then_writes_both() {
    let bus = LogBus::default();
    bus.values
        .borrow_mut()
        .insert(BASE + OFFSET + 4, 0xffff_ffff);
    let timestamp = uart_pac::Device::on_bus(&bus, BASE).regs().timestamp();
    timestamp.try_modify(TIMESTAMP::TICKS.val(5)).unwrap();
    assert_eq!(
        bus.take_log(),
        [
            Op::Read(BASE + OFFSET, Width::Bits32),
            Op::Read(BASE + OFFSET + 4, Width::Bits32),
            Op::Write(BASE + OFFSET, Width::Bits32, 5),
            Op::Write(BASE + OFFSET + 4, Width::Bits32, 0),
        ]
    );
}

#[test]
fn a_failed_piece_ends_the_access_with_the_bus_error() {
    // The high word's write fails: the low word was written, and the error is the bus's.
    let bus = LogBus {
        failing: Some(BASE + OFFSET + 4),
        ..LogBus::default()
    };
    let timestamp = uart_pac::Device::on_bus(&bus, BASE).regs().timestamp();
    assert_eq!(timestamp.try_set(u64::MAX), Err(BASE + OFFSET + 4));
    assert_eq!(timestamp.try_get(), Err(BASE + OFFSET + 4));
    assert_eq!(
        bus.take_log(),
        [
            Op::Write(BASE + OFFSET, Width::Bits32, 0xffff_ffff),
            Op::Write(BASE + OFFSET + 4, Width::Bits32, 0xffff_ffff),
            Op::Read(BASE + OFFSET, Width::Bits32),
            Op::Read(BASE + OFFSET + 4, Width::Bits32),
        ]
    );
    // The low word's read fails: the high word is not read.
    let bus = LogBus {
        failing: Some(BASE + OFFSET),
        ..LogBus::default()
    };
    let timestamp = uart_pac::Device::on_bus(&bus, BASE).regs().timestamp();
    assert_eq!(timestamp.try_get(), Err(BASE + OFFSET));
    assert_eq!(bus.take_log(), [Op::Read(BASE + OFFSET, Width::Bits32)]);
}

#[test]
fn in_memory_the_low_word_is_at_the_register_s_address() {
    let window = Window::new(uart_pac::Device::SIZE);
    let offset = OFFSET as usize;
    let timestamp = window.uart().regs().timestamp();
    assert_eq!(window.offset_of(timestamp.as_ptr().cast()), offset);
    timestamp.set(0x1122_3344_5566_7788);
    assert_eq!(window.peek_u32(offset), 0x5566_7788);
    assert_eq!(window.peek_u32(offset + 4), 0x1122_3344);
    window.poke(offset, &0xdead_beefu32.to_le_bytes());
    window.poke(offset + 4, &0x0bad_f00du32.to_le_bytes());
    assert_eq!(timestamp.get(), 0x0bad_f00d_dead_beef);
    // The registers around it are untouched.
    assert_eq!(window.peek(offset - 8, 8), [0; 8]);
    assert_eq!(window.peek(offset + 8, 8), [0; 8]);
    // With the atomic mechanism: two 32-bit atomic accesses, at the same places.
    window.clear();
    // SAFETY: the window is Device::SIZE bytes, 4096-aligned, outlives the handle, and this
    // thread alone touches it, through atomic accesses while the handle is used.
    let shared = unsafe { uart_pac::Device::from_shared_ptr(window.uart().as_ptr()) };
    let timestamp = shared.regs().timestamp();
    timestamp.set_release(0x1122_3344_5566_7788);
    assert_eq!(window.peek_u32(offset), 0x5566_7788);
    assert_eq!(window.peek_u32(offset + 4), 0x1122_3344);
    assert_eq!(timestamp.get_acquire(), 0x1122_3344_5566_7788);
    // The crate generated by the macro at build time does the same.
    window.clear();
    let timestamp = window.uart_macro().regs().timestamp();
    timestamp.set(0x1122_3344_5566_7788);
    assert_eq!(window.peek_u32(offset), 0x5566_7788);
    assert_eq!(window.peek_u32(offset + 4), 0x1122_3344);
    assert_eq!(timestamp.get(), 0x1122_3344_5566_7788);
}

/// The C header's `_read` and `_write` of the split register, compiled by gcc: the
/// instructions that touch the window are two 32-bit accesses, at offsets 0x30 and 0x34, in
/// that order (x86-64: `movl`; a 64-bit `movq` would be one access). Checked in the assembly
/// because over plain memory a wrong width still moves the right bytes.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_c_header_makes_two_32_bit_accesses_low_word_first() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("split_access");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("split.c");
    std::fs::write(
        &source,
        "#include \"uart_regs.h\"\n\
         void write_ts(volatile void *base, uint64_t v) { uart_regs_timestamp_write(base, v); }\n\
         uint64_t read_ts(volatile void *base) { return uart_regs_timestamp_read(base); }\n",
    )
    .unwrap();
    let include = common::root().join("tests/fixtures/uart/pac/include");
    let output = std::process::Command::new("gcc")
        .args(["-std=c11", "-O2", "-S", "-o", "-", "-I"])
        .arg(&include)
        .arg(&source)
        .output()
        .expect("gcc runs (apt-get install gcc)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let asm = String::from_utf8_lossy(&output.stdout);
    // (mnemonic, offset) of each instruction with a memory operand based on the window
    // pointer (`%rdi`, the first argument), per function.
    let accesses = |function: &str| -> Vec<(String, String)> {
        asm.split(&format!("{function}:"))
            .nth(1)
            .and_then(|body| body.split(".cfi_endproc").next())
            .unwrap_or_else(|| panic!("no {function} in:\n{asm}"))
            .lines()
            .filter(|l| l.contains("(%rdi)"))
            .map(|l| {
                let mut words = l.split_whitespace();
                let mnemonic = words.next().unwrap_or_default().to_string();
                let offset = l
                    .split("(%rdi)")
                    .next()
                    .and_then(|before| {
                        before
                            .rsplit(|c: char| c.is_whitespace() || c == ',')
                            .next()
                    })
                    .unwrap_or_default()
                    .to_string();
                (mnemonic, offset)
            })
            .collect()
    };
    let pair = |m: &str| {
        vec![
            (m.to_string(), "48".to_string()),
            (m.to_string(), "52".to_string()),
        ]
    };
    assert_eq!(accesses("write_ts"), pair("movl"), "{asm}");
    assert_eq!(accesses("read_ts"), pair("movl"), "{asm}");
}
