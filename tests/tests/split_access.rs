//! A register wider than its bus access (`access_width` in the spec, SystemRDL's
//! `accesswidth`): the uart fixture's 64-bit `regs.TIMESTAMP` has `access_width: 32`, so every
//! read and write of it is two 32-bit accesses, the low word first, at the register's address
//! and 4 bytes above. A bus that logs each transaction shows the addresses, widths and order;
//! a memory window shows where the bytes land with the volatile and atomic mechanisms, and
//! the macro-generated crate does the same as the committed one.
//!
//! `regs.UPTIME` (`split_read: until_stable`) is a free-running counter without a latch: a
//! bus whose counter advances at every access shows the read high, low, high, and the retry
//! when the counter carries into the high word between the two high reads.

mod common;

use std::cell::RefCell;

use common::Window;
use gba_pac::tock_registers::interfaces::{Readable, Writeable};
use uart_pac::common::{Bus, Width};
use uart_pac::regs::{TIMESTAMP, UPTIME};

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

/// A free-running 64-bit counter without a latch at `at` (low word) and `at + 4` (high
/// word), which advances by `step` after every access; every transaction is logged.
struct CounterBus {
    at: u64,
    count: std::cell::Cell<u64>,
    step: u64,
    log: RefCell<Vec<(Op, u64)>>,
}

impl CounterBus {
    fn new(at: u64, count: u64) -> Self {
        CounterBus {
            at,
            count: std::cell::Cell::new(count),
            step: 1,
            log: RefCell::default(),
        }
    }
}

impl Bus for CounterBus {
    type Error = u64;

    fn read(&self, address: u64, width: Width) -> Result<u64, u64> {
        let count = self.count.get();
        self.count.set(count.wrapping_add(self.step));
        let value = match address.wrapping_sub(self.at) {
            0 => count & 0xffff_ffff,
            4 => count >> 32,
            _ => return Err(address),
        };
        // (the access, the word it returned)
        self.log
            .borrow_mut()
            .push((Op::Read(address, width), value));
        Ok(value)
    }

    fn write(&self, address: u64, _: Width, _: u64) -> Result<(), u64> {
        Err(address)
    }
}

#[test]
fn until_stable_reads_high_low_high_once_when_the_high_word_holds() {
    let bus = CounterBus::new(BASE + 0x38, 0x0000_0007_0000_0100);
    let uptime = uart_pac::Device::on_bus(&bus, BASE).regs().uptime();
    assert_eq!(uptime.bus_address(), BASE + 0x38);
    // High (7) at count ..100, low at ..101, high (7) again at ..102: agreed.
    assert_eq!(uptime.try_get(), Ok(0x0000_0007_0000_0101));
    assert_eq!(
        bus.log.take(),
        [
            (Op::Read(BASE + 0x3c, Width::Bits32), 7),
            (Op::Read(BASE + 0x38, Width::Bits32), 0x101),
            (Op::Read(BASE + 0x3c, Width::Bits32), 7),
        ]
    );
    assert_eq!(uptime.try_read(UPTIME::TICKS), Ok(0x0000_0007_0000_0104));
}

#[test]
fn until_stable_reads_again_when_the_counter_carries_between_the_high_reads() {
    // The low word rolls over between the first high read and the second: the first pair
    // (high 1, low 0xffff_ffff) would be 0x1_ffff_ffff against a counter already at
    // 0x2_0000_0000; the read goes round once more and returns a value the counter held.
    let bus = CounterBus::new(BASE + 0x38, 0x0000_0001_ffff_fffe);
    let uptime = uart_pac::Device::on_bus(&bus, BASE).regs().uptime();
    assert_eq!(uptime.try_get(), Ok(0x0000_0002_0000_0001));
    assert_eq!(
        bus.log.take(),
        [
            (Op::Read(BASE + 0x3c, Width::Bits32), 1),
            (Op::Read(BASE + 0x38, Width::Bits32), 0xffff_ffff),
            (Op::Read(BASE + 0x3c, Width::Bits32), 2),
            (Op::Read(BASE + 0x38, Width::Bits32), 1),
            (Op::Read(BASE + 0x3c, Width::Bits32), 2),
        ]
    );
    // The same counter read low word first (TIMESTAMP's order, for a latching register)
    // tears: low 0xffff_ffff, then high 2 after the carry, a value 2^32 ahead of the count.
    let bus = CounterBus::new(BASE + 0x30, 0x0000_0001_ffff_ffff);
    let timestamp = uart_pac::Device::on_bus(&bus, BASE).regs().timestamp();
    assert_eq!(timestamp.try_get(), Ok(0x0000_0002_ffff_ffff));
}

proptest::proptest! {
    /// Against a counter that advances by any step below 2^30 per access (a round of two
    /// accesses moves it less than half a wrap of the low word), from any count: the value
    /// read is exactly the counter's value when the last low word was read (never a torn
    /// mix), and the read is at most five accesses (one retry).
    #[test]
    fn until_stable_returns_a_value_the_counter_held(
        start in 0u64..(1 << 62),
        step in 1u64..(1 << 30),
    ) {
        let bus = CounterBus { step, ..CounterBus::new(BASE + 0x38, start) };
        let uptime = uart_pac::Device::on_bus(&bus, BASE).regs().uptime();
        let value = uptime.try_get().unwrap();
        let log = bus.log.take();
        proptest::prop_assert!(log.len() == 3 || log.len() == 5, "{log:x?}");
        let last_low = log
            .iter()
            .rposition(|(op, _)| *op == Op::Read(BASE + 0x38, Width::Bits32))
            .unwrap();
        proptest::prop_assert_eq!(value, start + last_low as u64 * step, "{:x?}", log);
    }
}

#[test]
fn until_stable_ends_at_the_first_failed_access() {
    // A counter bus at another address: the first access (the high word) fails.
    let bus = CounterBus::new(BASE + 0x100, 0);
    let uptime = uart_pac::Device::on_bus(&bus, BASE).regs().uptime();
    assert_eq!(uptime.try_get(), Err(BASE + 0x3c));
    assert_eq!(bus.count.get(), 1, "one access, then the error");
}

#[test]
fn until_stable_in_memory_and_with_the_atomic_mechanism() {
    let window = Window::new(uart_pac::Device::SIZE);
    window.poke(0x38, &0xdead_beefu32.to_le_bytes());
    window.poke(0x3c, &0x0bad_f00du32.to_le_bytes());
    assert_eq!(window.uart().regs().uptime().get(), 0x0bad_f00d_dead_beef);
    assert_eq!(
        window.uart_macro().regs().uptime().get(),
        0x0bad_f00d_dead_beef
    );
    // SAFETY: the window is Device::SIZE bytes, 4096-aligned, outlives the handle, and this
    // thread alone touches it, through atomic accesses while the handle is used.
    let shared = unsafe { uart_pac::Device::from_shared_ptr(window.uart().as_ptr()) };
    assert_eq!(shared.regs().uptime().get_acquire(), 0x0bad_f00d_dead_beef);
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

/// The C header's `_read` of `regs.UPTIME` (`split_read: until_stable`) compiled by gcc -O2:
/// a 32-bit read of the high word (offset 0x3c), then a loop of the low word (0x38) and the
/// high word again, which jumps back while the two high reads differ. Checked in the
/// assembly (x86-64): the accesses in order, and a conditional jump after the last one to a
/// label between the first and the second.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_c_header_reads_until_stable_in_a_loop() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("split_access");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("until_stable.c");
    std::fs::write(
        &source,
        "#include \"uart_regs.h\"\n\
         uint64_t read_uptime(volatile void *base) { return uart_regs_uptime_read(base); }\n",
    )
    .unwrap();
    let include = common::root().join("tests/fixtures/uart/pac/include");
    let output = std::process::Command::new("gcc")
        .args([
            "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-S", "-o", "-", "-I",
        ])
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
    let body = asm
        .split("read_uptime:")
        .nth(1)
        .and_then(|b| b.split(".cfi_endproc").next())
        .unwrap_or_else(|| panic!("no read_uptime in:\n{asm}"));
    // The function as events: ("access", offset), ("label", name), ("jump", target).
    let mut events = Vec::new();
    for line in body.lines().map(str::trim) {
        if let Some(label) = line.strip_suffix(':') {
            events.push(("label", label.to_string()));
        } else if line.contains("(%rdi)") {
            assert!(line.starts_with("movl"), "a 32-bit access: {line}\n{asm}");
            let offset = line
                .split("(%rdi)")
                .next()
                .and_then(|b| b.rsplit(|c: char| c.is_whitespace() || c == ',').next())
                .unwrap_or_default();
            events.push(("access", offset.to_string()));
        } else if line.starts_with('j') {
            let target = line.split_whitespace().nth(1).unwrap_or_default();
            events.push(("jump", target.to_string()));
        }
    }
    let accesses: Vec<&str> = events
        .iter()
        .filter(|(kind, _)| *kind == "access")
        .map(|(_, offset)| offset.as_str())
        .collect();
    assert_eq!(accesses, ["60", "56", "60"], "{asm}");
    let position = |n: usize| {
        events
            .iter()
            .enumerate()
            .filter(|(_, (kind, _))| *kind == "access")
            .nth(n)
            .map(|(i, _)| i)
            .unwrap()
    };
    let loop_labels: Vec<&String> = events[position(0)..position(1)]
        .iter()
        .filter(|(kind, _)| *kind == "label")
        .map(|(_, name)| name)
        .collect();
    let back = events[position(2)..]
        .iter()
        .any(|(kind, target)| *kind == "jump" && loop_labels.contains(&target));
    assert!(
        back,
        "no jump back to the low word's read after the second high read:\n{asm}"
    );
}
