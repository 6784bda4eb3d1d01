//! The conformance checks, generated from the spec's model: every register element and
//! field, in the order reset values, read-only, write-only, bit-bash of read-write fields,
//! side effects ([`super::effects`]), hardware writes, write locks and alternate views
//! ([`super::views`]), aliasing. Each failure names the register element and the field in
//! the spec's terms (`group[3].STATUS.READY`). What the backend is known not to build
//! ([`Gaps`]) is listed as not run, by register and field, never passed.
//!
//! The checks write every writable register, the doorbell included: against a real device
//! they are for a board in bring-up, not one in service.

use std::fmt;

use gba_codegen::Device;
use gba_codegen::model::{Access, Field, Register, ResetFrom};

use super::Bus;
use super::gaps::Gaps;
use crate::rtl::unroll::element_name;

#[derive(Debug)]
pub struct Failure {
    /// `group[3].STATUS.READY`.
    pub place: String,
    pub check: &'static str,
    pub detail: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.place, self.check, self.detail)
    }
}

#[derive(Debug, Default)]
pub struct Report {
    pub passed: usize,
    pub failures: Vec<Failure>,
    /// Checks this transport could not run, and why.
    pub not_run: Vec<String>,
}

impl Report {
    /// The not-run notes (`PLACE: CHECK: REASON`) grouped by check and reason, in the order
    /// they first came, each with the places it concerns.
    pub fn not_run_by_reason(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for note in &self.not_run {
            let (place, why) = note.split_once(": ").unwrap_or(("", note));
            match out.iter_mut().find(|(w, _)| w == why) {
                Some((_, places)) => places.push(place.to_string()),
                None => out.push((why.to_string(), vec![place.to_string()])),
            }
        }
        out
    }

    pub(super) fn check(
        &mut self,
        ok: bool,
        place: String,
        check: &'static str,
        detail: String,
    ) -> bool {
        if ok {
            self.passed += 1;
        } else {
            self.failures.push(Failure {
                place,
                check,
                detail,
            });
        }
        ok
    }
}

/// One register element: a register of one block element, one array element of it.
pub(super) struct Element<'a> {
    /// In the spec's terms: `group[3].MEMBER_MASK[2]`.
    pub path: String,
    /// Its block element in the spec's terms: `group[3]`.
    pub block: String,
    /// In the RTL's unrolled terms: `group_3.MEMBER_MASK_2`.
    pub hw: String,
    pub addr: u64,
    pub reg: &'a Register,
    /// An alternate view: the register, or its block, declares `alternate_of`.
    pub view: bool,
    /// Its index in the innermost array holding it (the register's own, else its block's):
    /// what a field with `reset: index` resets to.
    pub index: u64,
    /// The value of each strapped field, where the backend or the command line gives it.
    pub straps: Vec<(String, u64)>,
}

impl Element<'_> {
    pub fn width(&self) -> u32 {
        *self.reg.width
    }
    pub fn field_path(&self, field: &Field) -> String {
        format!("{}.{}", self.path, *field.name)
    }
    pub fn access(&self, field: &Field) -> Access {
        field.effective_access(self.reg)
    }
    /// This element's reset value: the register's, with its index in a `reset: index` field
    /// and each strapped field's known value; a strap without a value is left 0.
    pub fn reset(&self) -> u64 {
        self.reg.element_reset(self.index, |f| self.strap(f)).0
    }
    /// The value of a strapped field, where known.
    pub fn strap(&self, field: &Field) -> Option<u64> {
        self.straps
            .iter()
            .find(|(name, _)| *name == *field.name)
            .map(|(_, v)| *v)
    }
    /// The field's reset bits (as the bus reads them), or `None` for a strap whose value is
    /// not known.
    pub fn field_reset(&self, field: &Field) -> Option<u64> {
        match field.reset_from.map(|r| *r) {
            Some(ResetFrom::Strap) => self.strap(field).map(|v| hw_value(field, v)),
            _ => Some(get(self.reset(), field)),
        }
    }
    /// The reset value with every write side effect's bits at the value that leaves them
    /// (0 for write-1 effects and pulses, 1 for write-0 effects): what a write that means no
    /// change writes.
    pub fn base(&self) -> u64 {
        (self.reset() & !self.reg.write_one_mask()) | self.reg.write_zero_mask()
    }
    /// Read-write fields without side effects: what a bit-bash may write freely.
    pub fn plain_rw(&self) -> impl Iterator<Item = &Field> {
        self.reg
            .fields
            .iter()
            .filter(|f| self.access(f) == Access::ReadWrite && f.side_effect.is_none())
    }
    /// Bits of [`plain_rw`](Self::plain_rw) fields.
    pub fn plain_rw_mask(&self) -> u64 {
        self.plain_rw().fold(0, |m, f| m | f.bits.mask())
    }
    /// Fields whose read value must be stable: readable, no side effect.
    pub fn stable_mask(&self) -> u64 {
        self.reg
            .fields
            .iter()
            .filter(|f| self.access(f).is_readable() && f.side_effect.is_none())
            .fold(0, |m, f| m | f.bits.mask())
    }
}

pub(super) fn elements(device: &Device) -> Vec<Element<'_>> {
    elements_with(device, &|_| None)
}

/// The elements, each strapped field's value from `strap` (given the field's path in the
/// spec's terms, `global.PORT_ID.PORT`).
pub(super) fn elements_with<'a>(
    device: &'a Device,
    strap: &dyn Fn(&str) -> Option<u64>,
) -> Vec<Element<'a>> {
    let mut out = Vec::new();
    for block in &device.blocks {
        let (count, stride) = block
            .array
            .as_ref()
            .map_or((1, 0), |a| (*a.count, *a.stride));
        for b in 0..count {
            let (bpath, bhw) = if block.array.is_some() {
                (
                    format!("{}[{b}]", *block.name),
                    element_name(&block.name, b),
                )
            } else {
                (block.name.to_string(), block.name.to_string())
            };
            for reg in &block.registers {
                for (r, offset) in reg.element_offsets().enumerate() {
                    let (rpath, rhw) = if reg.array.is_some() {
                        (
                            format!("{}[{r}]", *reg.name),
                            element_name(&reg.name, r as u64),
                        )
                    } else {
                        (reg.name.to_string(), reg.name.to_string())
                    };
                    let path = format!("{bpath}.{rpath}");
                    let straps = reg
                        .fields
                        .iter()
                        .filter(|f| f.reset_from.is_some_and(|r| *r == ResetFrom::Strap))
                        .filter_map(|f| {
                            strap(&format!("{path}.{}", *f.name)).map(|v| (f.name.to_string(), v))
                        })
                        .collect();
                    out.push(Element {
                        path,
                        block: bpath.clone(),
                        hw: format!("{bhw}.{rhw}"),
                        addr: *block.offset + b * stride + offset,
                        reg,
                        view: block.alternate_of.is_some() || reg.alternate_of.is_some(),
                        index: if reg.array.is_some() { r as u64 } else { b },
                        straps,
                    });
                }
            }
        }
    }
    out
}

/// What the hardware side of `field` holds (what `Bus::hw_write` drives and `Bus::hw_out`
/// gives) for the field's bits `bits` as the bus reads them, and back: the bits themselves,
/// or for an msb0 field their reversal (regblock reverses such a field on the bus; the
/// hardware side holds the value). Its own inverse.
pub(super) fn hw_value(field: &Field, bits: u64) -> u64 {
    field.value_of_bits(bits)
}

pub(super) fn get(value: u64, field: &Field) -> u64 {
    (value & field.bits.mask()) >> field.bits.lsb
}

pub(super) fn put(value: u64, field: &Field, field_value: u64) -> u64 {
    (value & !field.bits.mask()) | ((field_value << field.bits.lsb) & field.bits.mask())
}

/// The aliasing check's pattern for the register of this index in this round: in round 0
/// [`pattern`]; in round 1 + 2k all ones where bit k of the index is 1, in round 2 + 2k
/// the complement. Two indices differ in some bit k, so in rounds 1 + 2k and 2 + 2k their
/// registers write all ones and all zeros, each once.
pub(super) fn alias_pattern(index: u64, round: u32) -> u64 {
    if round == 0 {
        return pattern(index);
    }
    let (k, complement) = ((round - 1) / 2, (round - 1) % 2 == 1);
    if ((index >> k) & 1 == 1) != complement {
        u64::MAX
    } else {
        0
    }
}

/// A pattern per register for the aliasing check (splitmix64: distinct, dense in ones).
pub(super) fn pattern(index: u64) -> u64 {
    let mut z = index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Runs every check; `Err` only when the transport itself fails. `gaps`: what the backend
/// is known not to build, whose checks are listed as not run.
pub fn run(device: &Device, bus: &mut dyn Bus, gaps: &Gaps) -> Result<Report, String> {
    // A strapped field (`reset: strap`) whose value the backend does not know
    // ([`Bus::strap`]) has its reset check listed as not run.
    let strap = |path: &str| bus.strap(path);
    let mut elements = elements_with(device, &strap);
    let mut report = Report::default();
    if let Some(reason) = &gaps.alternates {
        // The backend builds no view: a view's address reaches the primary register there.
        // A view with its primary's address and width is still checked, through it: the
        // alternate checks write through one and read through the other, which proves the
        // view's fields lie on the primary's bits as the spec says (the other checks skip
        // views). Any other view has nothing at its address to check: not run.
        let coincides = |v: &Element| {
            elements
                .iter()
                .any(|p| !p.view && p.addr == v.addr && p.width() == v.width())
        };
        let lone: Vec<String> = elements
            .iter()
            .filter(|e| e.view && !coincides(e))
            .map(|e| e.path.clone())
            .collect();
        for path in &lone {
            report
                .not_run
                .push(format!("{path}: alternate view: {reason}"));
        }
        elements.retain(|e| !lone.contains(&e.path));
    }
    if let Some(reason) = &gaps.external {
        let (outside, inside) = elements.into_iter().partition(|e| e.reg.hardware.external);
        elements = inside;
        super::external::run(&outside, bus, reason, &mut report)?;
    }
    reserved_bits(&elements, bus, &mut report)?;
    reset_values(&elements, bus, &mut report)?;
    write_once_not_run(&mut elements, &mut report);
    read_only(&elements, bus, gaps, &mut report)?;
    write_only(&elements, bus, gaps, &mut report)?;
    bit_bash(&elements, bus, &mut report)?;
    super::effects::run(&elements, bus, gaps, &mut report)?;
    hardware_writes(&elements, bus, &mut report)?;
    super::hwside::run(&elements, bus, &mut report)?;
    super::hwside::byte_lanes(&elements, bus, &mut report)?;
    super::views::locks(&elements, bus, gaps, &mut report)?;
    super::views::alternates(&elements, bus, &mut report)?;
    aliasing(&elements, bus, &mut report)?;
    Ok(report)
}

/// Registers holding a write-once field (`write_once`): their reads after power-up (reserved
/// bits, reset values) are checked; every later check writes patterns and expects each write
/// to land, which a latched field refuses after the first. Those are listed as not run.
fn write_once_not_run(elements: &mut Vec<Element>, report: &mut Report) {
    elements.retain(|e| {
        let once: Vec<&str> = e
            .reg
            .fields
            .iter()
            .filter(|f| f.write_once)
            .map(|f| f.name.as_str())
            .collect();
        if once.is_empty() {
            return true;
        }
        report.not_run.push(format!(
            "{}: write-once field {}: the checks that write the register expect every write \
             to land",
            e.path,
            once.join(", ")
        ));
        false
    });
}

/// Bits outside every field read 0. Checked first, on the first reads after power-up, from
/// the highest address down: a read that latches another register's read buffer (a wide
/// register's words beyond the first come from it, and it is not reset) then comes after
/// that register's own words are read, which see what the buffer powered up with unless
/// their own first word latched it.
fn reserved_bits(
    elements: &[Element],
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let mut readable: Vec<&Element> = elements
        .iter()
        .filter(|e| !e.view && e.reg.access.is_readable())
        .collect();
    readable.sort_by_key(|e| std::cmp::Reverse(e.addr));
    for e in readable {
        let defined = e.reg.fields.iter().fold(0, |m, f| m | f.bits.mask());
        let reserved = (u64::MAX >> (64 - e.width())) & !defined;
        if reserved == 0 {
            continue;
        }
        let value = bus.read(e.addr, e.width())?;
        report.check(
            value & reserved == 0,
            e.path.clone(),
            "reserved bits",
            format!(
                "read {:#x} where no field is (the register's bits {reserved:#x})",
                value & reserved
            ),
        );
    }
    Ok(())
}

fn reset_values(
    elements: &[Element],
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    if !bus.reset()? {
        report
            .not_run
            .push("every register: reset value: the transport cannot reset the device, so the values are checked as found".into());
    }
    for e in elements.iter().filter(|e| e.reg.access.is_readable()) {
        let value = bus.read(e.addr, e.width())?;
        // A field that is not reset has no value to check: it holds what it powered up with.
        let reset = |f: &&Field| f.reset_from.is_none_or(|r| *r != ResetFrom::NotReset);
        for f in e
            .reg
            .fields
            .iter()
            .filter(|f| e.access(f).is_readable())
            .filter(reset)
        {
            let Some(want) = e.field_reset(f) else {
                report.not_run.push(format!(
                    "{}: reset value: strapped (fixed per device instance), and neither the \
                     backend nor --strap {}=VALUE gives its value",
                    e.field_path(f),
                    e.field_path(f)
                ));
                continue;
            };
            let got = get(value, f);
            report.check(
                got == want,
                e.field_path(f),
                "reset value",
                format!(
                    "expected {want:#x}, read {got:#x} (register {:#x} at {:#x})",
                    value, e.addr
                ),
            );
        }
    }
    Ok(())
}

fn read_only(
    elements: &[Element],
    bus: &mut dyn Bus,
    gaps: &Gaps,
    report: &mut Report,
) -> Result<(), String> {
    bus.reset()?;
    // A write through a read-only view may reach the other view's storage (a FIFO's faces):
    // the alternate checks say what a view's write does.
    for e in elements.iter().filter(|e| !e.view) {
        let ro: Vec<&Field> = e
            .reg
            .fields
            .iter()
            .filter(|f| e.access(f) == Access::ReadOnly && f.side_effect.is_none())
            .collect();
        if ro.is_empty() {
            continue;
        }
        if let Some(reason) = &gaps.read_only {
            for f in ro {
                report
                    .not_run
                    .push(format!("{}: read-only: {reason}", e.field_path(f)));
            }
            continue;
        }
        // Compared with what the field held before the write, not with its reset value: the
        // reset check says whether that is right (on a device that cannot be reset, the
        // value found), this one only that the write did not change it.
        let before = bus.read(e.addr, e.width())?;
        let flipped = ro.iter().fold(e.base(), |v, f| {
            (v & !f.bits.mask()) | (!before & f.bits.mask())
        });
        bus.write(e.addr, e.width(), flipped)?;
        bus.settle()?;
        let value = bus.read(e.addr, e.width())?;
        for f in ro {
            let want = get(before, f);
            let got = get(value, f);
            report.check(
                got == want,
                e.field_path(f),
                "read-only",
                format!(
                    "a write of {:#x} changed it from {want:#x} to {got:#x}",
                    get(flipped, f)
                ),
            );
        }
        bus.write(e.addr, e.width(), e.base())?;
    }
    Ok(())
}

fn write_only(
    elements: &[Element],
    bus: &mut dyn Bus,
    gaps: &Gaps,
    report: &mut Report,
) -> Result<(), String> {
    bus.reset()?;

    for e in elements
        .iter()
        .filter(|e| *e.reg.access == Access::WriteOnly && !e.view)
    {
        let mask = e.reg.fields.iter().fold(0, |m, f| m | f.bits.mask()) & !e.reg.write_one_mask();
        let written = 0xa5a5_a5a5_a5a5_a5a5 & mask;
        if written == 0 {
            continue;
        }
        if let Some(reason) = &gaps.write_only {
            report
                .not_run
                .push(format!("{}: write-only: {reason}", e.path));
            continue;
        }
        bus.write(e.addr, e.width(), written)?;
        bus.settle()?;
        // A write-only register may refuse the read (an error response) or answer anything
        // but what was written.
        if let Ok(value) = bus.read(e.addr, e.width()) {
            report.check(
                value & written != written,
                e.path.clone(),
                "write-only",
                format!("a read returned the value written ({written:#x})"),
            );
        } else {
            report.passed += 1;
        }
    }
    Ok(())
}

fn bit_bash(elements: &[Element], bus: &mut dyn Bus, report: &mut Report) -> Result<(), String> {
    bus.reset()?;
    for e in elements {
        let base = e.base();
        let mut unlocked = false;
        for f in e.plain_rw() {
            if !unlocked {
                super::views::unlock(elements, e, bus)?;
                unlocked = true;
            }
            let all = f.bits.value_mask();
            'field: for k in 0..f.bits.width() {
                for (kind, v) in [("walking 1", 1u64 << k), ("walking 0", all ^ (1u64 << k))] {
                    bus.write(e.addr, e.width(), put(base, f, v))?;
                    let value = bus.read(e.addr, e.width())?;
                    let what = format!("{kind}: wrote {v:#x}");
                    if !field_alone(report, e, f, value, v, base, "bit-bash", &what) {
                        break 'field;
                    }
                }
            }
            bus.write(e.addr, e.width(), base)?;
        }
    }
    Ok(())
}

/// Checks that `f` reads `v` in `value` and that the register's other stable fields still
/// read as in `base`; `what` says what was done (`walking 1: wrote 0x1`).
#[allow(clippy::too_many_arguments)]
fn field_alone(
    report: &mut Report,
    e: &Element,
    f: &Field,
    value: u64,
    v: u64,
    base: u64,
    check: &'static str,
    what: &str,
) -> bool {
    let others = e.stable_mask() & !f.bits.mask();
    report.check(
        get(value, f) == v,
        e.field_path(f),
        check,
        format!("{what}, read {:#x}", get(value, f)),
    ) && report.check(
        value & others == base & others,
        e.path.clone(),
        check,
        format!(
            "{what} into {} changed other fields: {:#x} instead of {:#x}",
            *f.name,
            value & others,
            base & others
        ),
    )
}

fn hardware_writes(
    elements: &[Element],
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    bus.reset()?;
    // Hardware writes a register's storage: through its primary, not a view.
    for e in elements.iter().filter(|e| !e.view) {
        for f in e.reg.fields.iter().filter(|f| hardware_written(e, f)) {
            let hw = format!("{}.{}", e.hw, *f.name);
            let all = f.bits.value_mask();
            // The other fields must keep what they held: read first where a read changes
            // nothing (a strap's value may not be known), else their reset values.
            let reset = if e.reg.read_has_effect() {
                e.reset()
            } else {
                bus.read(e.addr, e.width())?
            };
            for v in [0x5555_5555_5555_5555 & all, 0xaaaa_aaaa_aaaa_aaaa & all] {
                if !bus.hw_write(&hw, hw_value(f, v))? {
                    report.not_run.push(format!(
                        "{}: hardware writes: the transport cannot drive it",
                        e.field_path(f)
                    ));
                    break;
                }
                let value = bus.read(e.addr, e.width())?;
                let what = format!("hardware wrote {v:#x}");
                if !field_alone(report, e, f, value, v, reset, "hardware write", &what) {
                    break;
                }
            }
            bus.hw_write(&hw, hw_value(f, get(reset, f)))?;
        }
    }
    Ok(())
}

/// A field hardware writes and software only reads, with no side effect: the hardware-write
/// and aliasing checks drive it. A read-only field whose stated hardware access does not
/// write it (`hardware: { access: r }` or `na`) is a constant: it has no write port to drive.
fn hardware_written(e: &Element, f: &Field) -> bool {
    e.access(f) == Access::ReadOnly && f.side_effect.is_none() && f.hardware_access(e.reg).writes()
}

/// A readable single pulse: it reads 0 at rest.
fn single_pulse(e: &Element, f: &Field) -> bool {
    e.access(f).is_readable()
        && f.side_effect
            .is_some_and(|s| *s == gba_codegen::model::SideEffect::SinglePulse)
}

/// The aliasing check: every primary register is written with a pattern of its own, then
/// every one is read back. One round of distinct patterns cannot tell every pair apart once
/// masked to a register's writable bits (two 1-bit fields match half the time), so rounds
/// follow in which each register writes all ones or all zeros by one bit of its index, and
/// then the complement: any two registers write different values in some round, and every
/// register writes both all ones and all zeros, so a decode that reaches another register,
/// or a read mux that returns another register's value, reads wrong in at least one round
/// whatever the two registers' widths and fields.
fn aliasing(elements: &[Element], bus: &mut dyn Bus, report: &mut Report) -> Result<(), String> {
    bus.reset()?;
    // Views share their primary's bytes (the alternate checks cover them); lock bits keep
    // the value that unlocks, written first, so that every other write lands.
    let primaries: Vec<&Element> = elements.iter().filter(|e| !e.view).collect();
    // What the fields no write targets hold before the writes (on a device that cannot be
    // reset, not their reset values): they must hold it after.
    let mut found = Vec::with_capacity(primaries.len());
    for e in &primaries {
        found.push(if e.reg.access.is_readable() {
            bus.read(e.addr, e.width())?
        } else {
            e.base()
        });
    }
    let index_bits = (usize::BITS - primaries.len().saturating_sub(1).leading_zeros()).max(1);
    let rounds = 1 + 2 * index_bits;
    // Fields already failed: named once, at their first round.
    let mut failed = std::collections::HashSet::new();
    for round in 0..rounds {
        let expected: Vec<u64> = primaries
            .iter()
            .zip(&found)
            .enumerate()
            .map(|(i, (e, &before))| {
                let (held, held_value) = super::views::lock_bits(elements, e);
                let rw = e.plain_rw_mask() & !held;
                (before & !rw & !held) | (alias_pattern(i as u64, round) & rw) | held_value
            })
            .collect();
        // Hardware drives its fields with the round's pattern too (where the transport can),
        // so that a read mux returning a hardware-written field shows; a single pulse reads
        // 0 at rest.
        let expected: Vec<u64> = primaries
            .iter()
            .zip(expected)
            .enumerate()
            .map(|(i, (e, mut want))| {
                for f in e.reg.fields.iter().filter(|f| hardware_written(e, f)) {
                    let hw = format!("{}.{}", e.hw, *f.name);
                    let v = get(alias_pattern(i as u64, round), f);
                    if bus.hw_write(&hw, hw_value(f, v))? {
                        want = put(want, f, v);
                    }
                }
                for f in e.reg.fields.iter().filter(|f| single_pulse(e, f)) {
                    want = put(want, f, 0);
                }
                Ok(want)
            })
            .collect::<Result<_, String>>()?;
        for first in [true, false] {
            for (e, &value) in primaries.iter().zip(&expected) {
                if (super::views::lock_bits(elements, e).0 != 0) == first && e.plain_rw_mask() != 0
                {
                    bus.write(
                        e.addr,
                        e.width(),
                        (value & e.plain_rw_mask()) | (e.base() & !e.plain_rw_mask()),
                    )?;
                }
            }
        }
        for (e, want) in primaries.iter().zip(expected) {
            if !e.reg.access.is_readable() {
                continue;
            }
            let value = bus.read(e.addr, e.width())?;
            for f in e.reg.fields.iter().filter(|f| {
                (e.access(f).is_readable() && f.side_effect.is_none()) || single_pulse(e, f)
            }) {
                let place = e.field_path(f);
                let ok = get(value, f) == get(want, f);
                if !ok && failed.insert(place.clone()) {
                    report.check(
                        false,
                        place,
                        "aliasing",
                        format!(
                            "after every register was written with its own pattern (round {} of {rounds}) it reads {:#x}, not {:#x}: a write to another register reached it, or its read returns another register",
                            round + 1,
                            get(value, f),
                            get(want, f)
                        ),
                    );
                } else if ok && round + 1 == rounds && !failed.contains(&place) {
                    report.passed += 1;
                }
            }
        }
    }
    // Put back what was found (a device keeps its state between runs), locked registers
    // while their locks are still open, and what hardware held.
    for (e, &before) in primaries.iter().zip(&found) {
        for f in e.reg.fields.iter().filter(|f| hardware_written(e, f)) {
            bus.hw_write(
                &format!("{}.{}", e.hw, *f.name),
                hw_value(f, get(before, f)),
            )?;
        }
    }
    for first in [false, true] {
        for (e, &before) in primaries.iter().zip(&found) {
            let rw = e.plain_rw_mask();
            if (super::views::lock_bits(elements, e).0 != 0) == first && rw != 0 {
                bus.write(e.addr, e.width(), (before & rw) | (e.base() & !rw))?;
            }
        }
    }
    Ok(())
}
