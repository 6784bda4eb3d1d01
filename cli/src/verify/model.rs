//! The checks against a model of the spec's own semantics (a register file in memory that
//! applies every access, side effect, lock and view as the spec says), and against that
//! model broken one way at a time: the checks of locks, single pulses and alternate views,
//! which the RTL does not build yet, must pass on what is right and name what is wrong.

use std::collections::HashMap;
use std::path::Path;

use gba_codegen::model::{Access, SideEffect};

use super::Bus;
use super::checks::{self, Element, get, put};
use super::effects::after_write;
use super::gaps::Gaps;

#[derive(Default, Clone, Copy)]
struct Broken {
    /// Locked registers take writes.
    lock_ignored: bool,
    /// A single pulse stays set.
    pulse_sticks: bool,
    /// `regs.DATA`'s high half reads 0 (so `DATA_HALVES.HIGH` sees no write).
    high_half_missing: bool,
    /// Every element resets to the register's one value (no index in `reset: index`).
    index_ignored: bool,
    /// The checks are told the strap's value (the model's device always has [`STRAP`]).
    strap_known: bool,
    /// A `woset` bit never sets (a write of 1 leaves it 0).
    woset_never_sets: bool,
    /// The read mux returns `regs.W1C.EVENTS` in place of `regs.W1S.BITS` (the same bits).
    read_mux_swapped: bool,
    /// A write to `regs.W1S` also lands its PLAIN bits in `regs.W1C` (a decode too wide).
    decode_too_wide: bool,
    /// A single pulse also pulses on a read of its register (its strobe decoded on reads).
    pulse_on_read: bool,
    /// A single pulse pulses once at reset (its reset value 1).
    pulse_at_reset: bool,
    /// Hardware reads `regs.CFG_A.VALUE` as it was at reset, whatever software wrote.
    hardware_sees_reset: bool,
    /// The model shows nothing of the hardware side (a device's transport).
    hardware_hidden: bool,
    /// msb0 fields are not reversed between the bus and the hardware side (a block built
    /// from `[3:0]` where the spec says msb0): reset to their value's bits unreversed,
    /// driven and shown to hardware as the bus's bits.
    bit_order_dropped: bool,
}

/// The strapped fields' value in the model's device.
const STRAP: u64 = 0x3c;

struct Model<'a> {
    elements: Vec<Element<'a>>,
    bytes: HashMap<u64, u8>,
    broken: Broken,
    /// The cycles each single pulse (its element's hardware name and field) was high since
    /// the last [`Bus::take_pulses`]: one per write of ones.
    pulses: HashMap<String, u64>,
}

impl Broken {
    /// Nothing broken, and the checks told the strap's value: what a test breaks one thing of.
    fn strap_known() -> Self {
        Broken {
            strap_known: true,
            ..Broken::default()
        }
    }
}

impl<'a> Model<'a> {
    fn new(device: &'a gba_codegen::Device, broken: Broken) -> Model<'a> {
        let mut model = Model {
            elements: checks::elements_with(device, &|_| Some(STRAP)),
            bytes: HashMap::new(),
            broken,
            pulses: HashMap::new(),
        };
        model.reset().unwrap();
        model
    }

    fn load(&self, addr: u64, width: u32) -> u64 {
        (0..u64::from(width / 8)).fold(0, |v, i| {
            v | u64::from(*self.bytes.get(&(addr + i)).unwrap_or(&0)) << (8 * i)
        })
    }

    fn store(&mut self, addr: u64, width: u32, value: u64) {
        for i in 0..u64::from(width / 8) {
            self.bytes.insert(addr + i, (value >> (8 * i)) as u8);
        }
    }

    /// The element an access decodes to: the primary register at the address, as hardware
    /// has one storage per address.
    fn decode(&self, addr: u64, width: u32) -> Result<usize, String> {
        self.elements
            .iter()
            .position(|e| e.addr == addr && e.width() == width && !e.view)
            .or_else(|| {
                self.elements
                    .iter()
                    .position(|e| e.addr == addr && e.width() == width)
            })
            .ok_or_else(|| format!("no {width}-bit register at {addr:#x}"))
    }
}

impl Bus for Model<'_> {
    fn read(&mut self, addr: u64, width: u32) -> Result<u64, String> {
        let e = &self.elements[self.decode(addr, width)?];
        let stored = self.load(addr, width);
        let readable = e
            .reg
            .fields
            .iter()
            .filter(|f| e.access(f).is_readable())
            .fold(0, |m, f| m | f.bits.mask());
        let mut after = stored;
        for f in &e.reg.fields {
            match f.side_effect.map(|s| *s) {
                Some(SideEffect::ReadToClear) => after &= !f.bits.mask(),
                Some(SideEffect::ReadToSet) => after |= f.bits.mask(),
                _ => {}
            }
        }
        if self.broken.pulse_on_read {
            for f in e
                .reg
                .fields
                .iter()
                .filter(|f| f.side_effect.is_some_and(|s| *s == SideEffect::SinglePulse))
            {
                *self
                    .pulses
                    .entry(format!("{}.{}", e.hw, *f.name))
                    .or_default() += 1;
            }
        }
        let swapped = self.broken.read_mux_swapped && e.path == "regs.W1S";
        self.store(addr, width, after);
        if swapped {
            let other = self.load(addr - 4, width);
            return Ok(((stored & !0xf) | (other & 0xf)) & readable);
        }
        Ok(stored & readable)
    }

    fn write(&mut self, addr: u64, width: u32, value: u64) -> Result<(), String> {
        let index = self.decode(addr, width)?;
        let e = &self.elements[index];
        if let Some(lock) = &e.reg.lock
            && !self.broken.lock_ignored
        {
            let holder = self
                .elements
                .iter()
                .find(|l| l.block == e.block && *l.reg.name == *lock.register)
                .unwrap();
            let field = holder
                .reg
                .fields
                .iter()
                .find(|f| *f.name == *lock.field)
                .unwrap();
            if get(self.load(holder.addr, holder.width()), field) == u64::from(lock.locked_when) {
                return Ok(());
            }
        }
        let mut stored = self.load(addr, width);
        for f in e
            .reg
            .fields
            .iter()
            .filter(|f| e.access(f) != Access::ReadOnly)
        {
            let (current, written) = (get(stored, f), get(value, f));
            if f.side_effect.is_some_and(|s| *s == SideEffect::SinglePulse) && written != 0 {
                *self
                    .pulses
                    .entry(format!("{}.{}", e.hw, *f.name))
                    .or_default() += 1;
            }
            let next = match f.side_effect.map(|s| *s) {
                None | Some(SideEffect::ReadToClear | SideEffect::ReadToSet) => written,
                Some(SideEffect::SinglePulse) if !self.broken.pulse_sticks => 0,
                Some(SideEffect::SinglePulse) => written,
                Some(SideEffect::WriteOneToSet) if self.broken.woset_never_sets => current,
                Some(effect) => after_write(effect, current, written, f.bits.value_mask()),
            };
            stored = put(stored, f, next);
        }
        if self.broken.high_half_missing && e.path == "regs.DATA" {
            stored &= 0xffff;
        }
        if self.broken.decode_too_wide && e.path == "regs.W1S" {
            let other = self.load(addr - 4, width);
            self.store(addr - 4, width, (other & !0xff00) | (stored & 0xff00));
        }
        self.store(addr, width, stored);
        Ok(())
    }

    fn reset(&mut self) -> Result<bool, String> {
        self.bytes.clear();
        self.pulses.clear();
        if self.broken.pulse_at_reset {
            self.pulses.insert("regs.PULSE.GO".into(), 1);
        }
        let resets: Vec<(u64, u32, u64)> = self
            .elements
            .iter()
            .filter(|e| !e.view)
            .map(|e| {
                let mut reset = if self.broken.index_ignored {
                    e.reg.element_reset(0, |f| e.strap(f)).0
                } else {
                    e.reset()
                };
                if self.broken.bit_order_dropped {
                    for f in e.reg.fields.iter().filter(|f| f.is_msb0()) {
                        reset = put(reset, f, f.value_of_bits(get(reset, f)));
                    }
                }
                (e.addr, e.width(), reset)
            })
            .collect();
        for (addr, width, value) in resets {
            self.store(addr, width, value);
        }
        Ok(true)
    }

    fn hw_write(&mut self, field: &str, value: u64) -> Result<bool, String> {
        let Some((register, name)) = field.rsplit_once('.') else {
            return Ok(false);
        };
        let Some(e) = self.elements.iter().find(|e| e.hw == register && !e.view) else {
            return Ok(false);
        };
        let Some(f) = e.reg.fields.iter().find(|f| *f.name == name) else {
            return Ok(false);
        };
        let (addr, width) = (e.addr, e.width());
        let value = if self.broken.bit_order_dropped {
            value
        } else {
            // Not `checks::hw_value`: the model reverses on its own, so that the checks'
            // reversal is tested against it.
            f.value_of_bits(value)
        };
        let stored = put(self.load(addr, width), f, value);
        self.store(addr, width, stored);
        Ok(true)
    }

    fn strap(&self, _field: &str) -> Option<u64> {
        self.broken.strap_known.then_some(STRAP)
    }

    /// The model applies every write at once.
    fn settle(&mut self) -> Result<(), String> {
        Ok(())
    }

    /// What hardware reads of a field software writes: its stored value.
    fn hw_out(&mut self, field: &str) -> Result<Option<u64>, String> {
        if self.broken.hardware_hidden {
            return Ok(None);
        }
        let Some((register, name)) = field.rsplit_once('.') else {
            return Ok(None);
        };
        let Some(e) = self.elements.iter().find(|e| e.hw == register && !e.view) else {
            return Ok(None);
        };
        let Some(f) = e
            .reg
            .fields
            .iter()
            .find(|f| *f.name == name && e.access(f).is_writable() && f.side_effect.is_none())
        else {
            return Ok(None);
        };
        if self.broken.hardware_sees_reset && field == "regs.CFG_A.VALUE" {
            return Ok(Some(get(e.reset(), f)));
        }
        let bits = get(self.load(e.addr, e.width()), f);
        if self.broken.bit_order_dropped {
            return Ok(Some(bits));
        }
        Ok(Some(f.value_of_bits(bits)))
    }

    /// Every single pulse of a primary register, with its count.
    fn take_pulses(&mut self) -> Result<Option<Vec<super::Pulse>>, String> {
        if self.broken.hardware_hidden {
            return Ok(None);
        }
        let mut out = Vec::new();
        for e in self.elements.iter().filter(|e| !e.view) {
            for f in e
                .reg
                .fields
                .iter()
                .filter(|f| f.side_effect.is_some_and(|s| *s == SideEffect::SinglePulse))
            {
                let field = format!("{}.{}", e.hw, *f.name);
                out.push(super::Pulse {
                    cycles: self.pulses.get(&field).copied().unwrap_or(0),
                    field,
                    signal: "value".into(),
                });
            }
        }
        self.pulses.clear();
        Ok(Some(out))
    }
}

fn effects_map() -> gba_codegen::Device {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/cosim/effects.yaml");
    gba_codegen::load(&path).unwrap().into_device()
}

fn run(broken: Broken) -> checks::Report {
    let device = effects_map();
    let mut model = Model::new(&device, broken);
    checks::run(&device, &mut model, &Gaps::default()).unwrap()
}

/// The model shows nothing of what the block gives hardware: those checks are not run.
const HARDWARE_SIDE: &str = "every register: hardware side: the transport does not show what \
                             the block gives hardware (its values, strobes and pulses)";

/// The model writes whole registers only: the byte-strobe checks are not run.
const BYTE_STROBES: &str = "every register: byte strobes: the transport writes whole \
                            registers only, so no byte is written alone";

fn failures(report: &checks::Report) -> Vec<String> {
    report.failures.iter().map(|f| f.to_string()).collect()
}

#[test]
fn the_spec_s_own_semantics_pass_every_check() {
    let report = run(Broken::strap_known());
    assert_eq!(failures(&report), Vec::<String>::new());
    assert_eq!(report.not_run, [BYTE_STROBES]);
    assert!(report.passed > 400, "{}", report.passed);
    // A transport that shows no hardware side says so.
    let report = run(Broken {
        hardware_hidden: true,
        ..Broken::strap_known()
    });
    assert_eq!(failures(&report), Vec::<String>::new());
    assert_eq!(report.not_run, [HARDWARE_SIDE, BYTE_STROBES]);
}

/// A block that does not reverse its msb0 fields (built from `[3:0]`): named at both, by
/// their reset, and at the hardware-written one by what hardware writes.
#[test]
fn an_msb0_field_that_is_not_reversed_is_named() {
    let report = run(Broken {
        bit_order_dropped: true,
        ..Broken::strap_known()
    });
    let failures = failures(&report);
    for want in [
        "regs.ORDER.TOP: reset value: expected 0xa, read 0x5",
        "regs.ORDER_STATUS.LEVEL: reset value: expected 0x8, read 0x1",
        "regs.ORDER_STATUS.LEVEL: hardware write",
    ] {
        assert!(
            failures.iter().any(|f| f.starts_with(want)),
            "no `{want}` in {failures:#?}"
        );
    }
    assert!(
        failures.iter().all(|f| f.starts_with("regs.ORDER")),
        "{failures:#?}"
    );
}

#[test]
fn a_strap_of_unknown_value_is_not_run_never_passed() {
    let report = run(Broken::default());
    assert_eq!(failures(&report), Vec::<String>::new());
    let expected: Vec<String> = (0..4)
        .map(|i| {
            format!(
                "regs.IDS[{i}].STRAP: reset value: strapped (fixed per device instance), and \
                 neither the backend nor --strap regs.IDS[{i}].STRAP=VALUE gives its value"
            )
        })
        .chain([BYTE_STROBES.to_string()])
        .collect();
    assert_eq!(report.not_run, expected);
    // Told a wrong value, the check fails and says what it expected.
    let device = effects_map();
    let mut model = Model::new(&device, Broken::default());
    let mut wrong = WrongStrap(&mut model);
    let report = checks::run(&device, &mut wrong, &Gaps::default()).unwrap();
    assert_eq!(
        failures(&report),
        (0..4)
            .map(|i| format!(
                "regs.IDS[{i}].STRAP: reset value: expected 0x7, read 0x3c (register {:#x} at {:#x})",
                0x5a_3c00 | i,
                0x40 + 4 * i
            ))
            .collect::<Vec<_>>()
    );
}

/// The model, with the checks told that every strap is 7.
struct WrongStrap<'m, 'a>(&'m mut Model<'a>);

impl Bus for WrongStrap<'_, '_> {
    fn read(&mut self, addr: u64, width: u32) -> Result<u64, String> {
        self.0.read(addr, width)
    }
    fn write(&mut self, addr: u64, width: u32, value: u64) -> Result<(), String> {
        self.0.write(addr, width, value)
    }
    fn reset(&mut self) -> Result<bool, String> {
        self.0.reset()
    }
    fn hw_write(&mut self, field: &str, value: u64) -> Result<bool, String> {
        self.0.hw_write(field, value)
    }
    fn settle(&mut self) -> Result<(), String> {
        self.0.settle()
    }
    fn strap(&self, _field: &str) -> Option<u64> {
        Some(7)
    }
}

#[test]
fn an_element_that_does_not_read_its_index_is_named() {
    let report = run(Broken {
        index_ignored: true,
        ..Broken::strap_known()
    });
    assert_eq!(
        failures(&report),
        (1..4)
            .map(|i| format!(
                "regs.IDS[{i}].INDEX: reset value: expected {i:#x}, read 0x0 (register 0x5a3c00 at {:#x})",
                0x40 + 4 * i
            ))
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_lock_that_does_not_lock_is_named() {
    let report = run(Broken {
        lock_ignored: true,
        ..Broken::default()
    });
    assert_eq!(
        failures(&report),
        [
            "regs.CFG_A.VALUE: write lock: with LOCK.FREEZE = 1 (locked) a write of 0xc2f6 was not ignored: it reads 0xc2f6, not 0x3d09",
            "regs.CFG_B.VALUE: write lock: with LOCK.UNLOCK = 0 (locked) a write of 0x2109 was not ignored: it reads 0x2109, not 0xdef6",
        ]
    );
}

/// A single pulse that also pulses on reads, or at reset, reads 0 through the bus like a
/// right one: the hardware side's pulse counts name it.
#[test]
fn a_pulse_on_reads_or_at_reset_is_named() {
    let report = run(Broken {
        pulse_on_read: true,
        ..Broken::strap_known()
    });
    assert_eq!(
        failures(&report),
        [
            "regs.PULSE.GO: hardware side: a read of regs.PULSE: its value pulse was high 1 cycle(s), not 0"
        ]
    );
    let report = run(Broken {
        pulse_at_reset: true,
        ..Broken::strap_known()
    });
    assert_eq!(
        failures(&report),
        ["regs.PULSE.GO: hardware side: after reset: its value pulse was high 1 cycle(s), not 0"]
    );
}

/// Software's writes must reach hardware: a field hardware reads as it was at reset is named.
#[test]
fn a_value_hardware_does_not_see_is_named() {
    let report = run(Broken {
        hardware_sees_reset: true,
        ..Broken::strap_known()
    });
    let failures = failures(&report);
    assert!(
        !failures.is_empty()
            && failures
                .iter()
                .all(|f| f.starts_with("regs.CFG_A.VALUE: hardware side: after a write of 0x")),
        "{failures:?}"
    );
}

#[test]
fn a_pulse_that_stays_is_named() {
    let report = run(Broken {
        pulse_sticks: true,
        ..Broken::default()
    });
    assert_eq!(
        failures(&report),
        ["regs.PULSE.GO: singlepulse: writing 0x1 left it reading 0x1, then 0x1, not 0"]
    );
}

#[test]
fn a_view_that_does_not_see_the_write_is_named() {
    let report = run(Broken {
        high_half_missing: true,
        ..Broken::default()
    });
    let failures = failures(&report);
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("regs.DATA_HALVES.HIGH: alternate view: ")
                && f.contains(" written through regs.DATA reads 0x0 through regs.DATA_HALVES")),
        "{failures:#?}"
    );
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("regs_debug.DATA.VALUE: alternate view: ")),
        "{failures:#?}"
    );
}

/// Under the RTL's gaps (no view built, a view's address reaching its primary, as this model
/// decodes too) a view with its primary's address and width is still checked through it: a
/// broken high half is named, not listed as not run.
#[test]
fn under_the_rtl_s_gaps_a_view_on_its_primary_s_address_is_still_checked() {
    let device = effects_map();
    let mut model = Model::new(
        &device,
        Broken {
            high_half_missing: true,
            ..Broken::default()
        },
    );
    let report = checks::run(&device, &mut model, &Gaps::rtl(&device)).unwrap();
    let failures = failures(&report);
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("regs.DATA_HALVES.HIGH: alternate view: ")),
        "{failures:#?}"
    );
    assert!(
        !report.not_run.iter().any(|n| n.contains("alternate view")),
        "{:#?}",
        report.not_run
    );
}

#[test]
fn the_rtl_s_gaps_name_what_its_systemrdl_cannot_carry() {
    let device = effects_map();
    let gaps = Gaps::rtl(&device);
    assert!(gaps.alternates.is_some());
    // Carried by the SystemRDL: never a gap.
    for effect in [
        SideEffect::WriteOneToClear,
        SideEffect::WriteOneToToggle,
        SideEffect::WriteZeroToSet,
        SideEffect::ReadToSet,
    ] {
        assert_eq!(gaps.effect(effect), None, "{effect:?}");
    }
}

#[test]
fn the_uart_fixture_s_own_semantics_pass_every_check() {
    // 8- and 16-bit registers, a block array with a gap, an alternate block, a write-only
    // trigger, a read-to-clear field in a read-write register.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/uart/uart.yaml");
    let device = gba_codegen::load(&path).unwrap().into_device();
    let mut model = Model::new(&device, Broken::default());
    let report = checks::run(&device, &mut model, &Gaps::default()).unwrap();
    assert_eq!(failures(&report), Vec::<String>::new());
    assert!(report.passed > 100, "{}", report.passed);
}

#[test]
fn a_woset_bit_that_never_sets_is_named() {
    let report = run(Broken {
        woset_never_sets: true,
        ..Broken::strap_known()
    });
    assert_eq!(
        failures(&report),
        [
            "regs.W1S.BITS: w1s: writing 1s left it reading 0x0, then 0x0, not 0xf (a bit that \
             clears itself is `singlepulse` in the spec, not `woset`)"
        ]
    );
}

/// The mutant that survived before (issue 38): W1S.BITS's read mux returns W1C.EVENTS, which
/// reads 0 like a self-clearing bit would.
#[test]
fn a_read_mux_returning_another_register_is_named() {
    let report = run(Broken {
        read_mux_swapped: true,
        ..Broken::strap_known()
    });
    let failures = failures(&report);
    assert!(
        failures
            .iter()
            .any(|f| f.starts_with("regs.W1S.BITS: w1s: writing 1s left it reading 0x0")),
        "{failures:#?}"
    );
}

#[test]
fn a_write_decode_that_reaches_another_register_is_named() {
    let report = run(Broken {
        decode_too_wide: true,
        ..Broken::strap_known()
    });
    let failures = failures(&report);
    assert!(
        failures.iter().any(|f| f.starts_with(
            "regs.W1C.PLAIN: aliasing: after every register was written with its own pattern"
        )),
        "{failures:#?}"
    );
}

/// The aliasing check's patterns tell any two registers apart on any bits they share, and
/// every register writes both all ones and all zeros: a read of one register's bits that
/// returns another's, or a constant, differs in some round.
#[test]
fn the_aliasing_patterns_are_unique_per_register_on_any_mask() {
    let n = 70u64;
    let bits = u64::from(64 - (n - 1).leading_zeros());
    let rounds = 1 + 2 * bits as u32;
    for mask in [1u64, 0x80, 0x3 << 10, 0xff00, u64::MAX] {
        for i in 0..n {
            let values: Vec<u64> = (0..rounds)
                .map(|r| checks::alias_pattern(i, r) & mask)
                .collect();
            assert!(
                values.contains(&0) && values.contains(&mask),
                "{i} {mask:#x}"
            );
            for j in (0..n).filter(|&j| j != i) {
                assert!(
                    (0..rounds).any(|r| checks::alias_pattern(j, r) & mask != values[r as usize]),
                    "registers {i} and {j} share every pattern on {mask:#x}"
                );
            }
        }
    }
}
