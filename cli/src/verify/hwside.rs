//! The checks of what the block gives hardware, where the transport shows it (the RTL's
//! wrapper: PeakRDL-regblock's `hwif_out`), and of the words of a register wider than one
//! transfer. Through the bus alone a write-only doorbell, a single pulse and a strobe read
//! the same whether they work or not; here:
//!
//! - **after reset**, every value hardware reads is the field's reset value, and no pulse
//!   came (a single pulse resetting to 1 pulses once);
//! - **a write** of a register with a pattern of its own: every value hardware reads is the
//!   field's written value; each `swmod` strobe of the register pulses exactly once, each
//!   single pulse written with ones once, and no pulse of another register comes; a read
//!   then strobes no `swmod` (a `swacc` once);
//! - **the words** of a register wider than a transfer (the RTL's 64-bit registers on its
//!   32-bit bus): a word written alone below the last changes nothing until the last word is
//!   written, which commits every word written (`buffer_writes`: low word first); the last
//!   word written alone changes only its own bits; each word reads back alone;
//! - **byte strobes** (a bus that has them: APB4's PSTRB): each byte of a register no wider
//!   than a transfer written alone changes that byte's bits and keeps the others.

use gba_codegen::model::{Field, SideEffect};

use super::checks::{Element, Report, get, hw_value, pattern, put};
use super::{Bus, Pulse};

/// The fields a write gives hardware as they were written: software writes them, with no
/// side effect.
fn plain_written<'a>(e: &'a Element) -> impl Iterator<Item = &'a Field> {
    e.reg
        .fields
        .iter()
        .filter(|f| e.access(f).is_writable() && f.side_effect.is_none())
}

fn single_pulses<'a>(e: &'a Element) -> impl Iterator<Item = &'a Field> {
    e.reg
        .fields
        .iter()
        .filter(|f| f.side_effect.is_some_and(|s| *s == SideEffect::SinglePulse))
}

/// The element and field of a pulse (unrolled names).
fn owner<'e, 'a>(elements: &'e [&'e Element<'a>], pulse: &Pulse) -> Option<(usize, &'a Field)> {
    elements.iter().enumerate().find_map(|(i, e)| {
        let name = pulse.field.strip_prefix(&e.hw)?.strip_prefix('.')?;
        e.reg
            .fields
            .iter()
            .find(|f| *f.name == *name)
            .map(|f| (i, f))
    })
}

pub(super) fn run(
    elements: &[Element],
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let primaries: Vec<&Element> = elements.iter().filter(|e| !e.view).collect();
    bus.reset()?;
    let pulses = bus.take_pulses()?;
    let mut shown = pulses.is_some();
    // After reset: the values hardware reads, and the pulses that came.
    for e in &primaries {
        for f in &e.reg.fields {
            let Some(value) = bus.hw_out(&format!("{}.{}", e.hw, *f.name))? else {
                continue;
            };
            shown = true;
            if f.reset_from
                .is_some_and(|r| *r == gba_codegen::model::ResetFrom::NotReset)
            {
                continue;
            }
            if let Some(want) = e.field_reset(f).map(|bits| hw_value(f, bits)) {
                report.check(
                    value == want,
                    e.field_path(f),
                    "hardware side",
                    format!("after reset it gives hardware {value:#x}, not {want:#x}"),
                );
            }
        }
    }
    if !shown {
        report.not_run.push(
            "every register: hardware side: the transport does not show what the block gives \
             hardware (its values, strobes and pulses)"
                .into(),
        );
        return Ok(());
    }
    if let Some(pulses) = &pulses {
        pulses_as_expected(&primaries, pulses, report, "after reset", &|e, f, p| {
            u64::from(p.signal == "value" && e.field_reset(f).unwrap_or(0) != 0)
        });
    }
    for (i, e) in primaries.iter().enumerate() {
        if !e.reg.fields.iter().any(|f| e.access(f).is_writable()) {
            continue;
        }
        super::views::unlock(elements, e, bus)?;
        bus.take_pulses()?;
        let ones = single_pulses(e).fold(0, |v, f| v | f.bits.mask());
        let written =
            plain_written(e).fold(e.base() | ones, |v, f| put(v, f, get(pattern(i as u64), f)));
        bus.write(e.addr, e.width(), written)?;
        bus.settle()?;
        let what = format!("a write of {:#x} to {}", written, e.path);
        if let Some(pulses) = bus.take_pulses()? {
            pulses_as_expected(&primaries, &pulses, report, &what, &|o, f, p| {
                let mine = std::ptr::eq(o, *e);
                match p.signal.as_str() {
                    "swmod" | "swacc" => u64::from(mine),
                    _ => u64::from(mine && get(written, f) != 0),
                }
            });
        }
        values_as_written(e, bus, report, written, &what)?;
        if e.reg.access.is_readable() {
            bus.read(e.addr, e.width())?;
            let what = format!("a read of {}", e.path);
            if let Some(pulses) = bus.take_pulses()? {
                pulses_as_expected(&primaries, &pulses, report, &what, &|o, _, p| {
                    u64::from(std::ptr::eq(o, *e) && p.signal == "swacc")
                });
            }
        }
        if e.width() > bus.transfer_bits() {
            words(&primaries, i, bus, report)?;
        }
        bus.write(e.addr, e.width(), e.base())?;
        bus.take_pulses()?;
    }
    let transfer = bus.transfer_bits();
    for e in primaries.iter().filter(|e| e.width() > transfer) {
        latched_read(e, bus, report)?;
    }
    bus.reset()?;
    Ok(())
}

/// A read of a register wider than a transfer is one value: its first word latches every
/// word, so hardware writing a field between the reads of the words does not tear it (the
/// later words read what the first word latched; regblock's `buffer_reads`).
fn latched_read(e: &Element, bus: &mut dyn Bus, report: &mut Report) -> Result<(), String> {
    let word = bus.transfer_bits();
    let first = (1u64 << word) - 1;
    let fields: Vec<&Field> = e
        .reg
        .fields
        .iter()
        .filter(|f| {
            e.access(f) == gba_codegen::model::Access::ReadOnly
                && f.side_effect.is_none()
                && f.bits.mask() & !first != 0
        })
        .collect();
    if fields.is_empty() || e.reg.read_has_effect() {
        return Ok(());
    }
    for f in fields {
        let hw = format!("{}.{}", e.hw, *f.name);
        let all = f.bits.value_mask();
        let (old, new) = (0x5555_5555_5555_5555 & all, 0xaaaa_aaaa_aaaa_aaaa & all);
        if !bus.hw_write(&hw, hw_value(f, old))? {
            return Ok(());
        }
        let low = bus.read(e.addr, word)?;
        bus.hw_write(&hw, hw_value(f, new))?;
        let mut value = low;
        for k in 1..e.width() / word {
            value |= bus.read(e.addr + u64::from(k * word / 8), word)? << (k * word);
        }
        report.check(
            get(value, f) == old,
            e.field_path(f),
            "words",
            format!(
                "hardware wrote {new:#x} between the reads of the first word and the others \
                 (it held {old:#x}): the read returned {:#x}, not {old:#x} (a torn read)",
                get(value, f)
            ),
        );
        bus.hw_write(&hw, hw_value(f, get(e.reset(), f)))?;
    }
    Ok(())
}

/// Checks every value hardware reads of `e`'s plainly written fields against `written`.
fn values_as_written(
    e: &Element,
    bus: &mut dyn Bus,
    report: &mut Report,
    written: u64,
    what: &str,
) -> Result<(), String> {
    for f in plain_written(e) {
        if let Some(value) = bus.hw_out(&format!("{}.{}", e.hw, *f.name))? {
            let want = hw_value(f, get(written, f));
            report.check(
                value == want,
                e.field_path(f),
                "hardware side",
                format!("after {what} it gives hardware {value:#x}, not {want:#x}"),
            );
        }
    }
    Ok(())
}

/// Checks each pulse's cycles against `expected(element, field, pulse)`.
fn pulses_as_expected(
    primaries: &[&Element],
    pulses: &[Pulse],
    report: &mut Report,
    what: &str,
    expected: &dyn Fn(&Element, &Field, &Pulse) -> u64,
) {
    for p in pulses {
        let Some((i, f)) = owner(primaries, p) else {
            continue;
        };
        let want = expected(primaries[i], f, p);
        report.check(
            p.cycles == want,
            primaries[i].field_path(f),
            "hardware side",
            format!(
                "{what}: its {} pulse was high {} cycle(s), not {want}",
                p.signal, p.cycles
            ),
        );
    }
}

/// The words of element `i`, wider than one transfer: each word below the last written
/// alone waits for the last, which commits them; the last alone changes only its bits.
fn words(
    primaries: &[&Element],
    i: usize,
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let e = primaries[i];
    let word = bus.transfer_bits();
    let count = e.width() / word;
    let word_mask = (1u64 << word) - 1;
    let writable = plain_written(e).fold(0, |m, f| m | f.bits.mask());
    if writable == 0 {
        return Ok(());
    }
    let readable = e.reg.access.is_readable();
    let stable = e.stable_mask() & writable;
    // From `before` (what a full write left), the words of `after` one at a time.
    let before = (pattern(i as u64) & writable) | (e.base() & !writable);
    let after = (!pattern(i as u64) & writable) | (e.base() & !writable);
    bus.write(e.addr, e.width(), before)?;
    bus.take_pulses()?;
    for k in 0..count {
        let shift = k * word;
        bus.write(
            e.addr + u64::from(shift / 8),
            word,
            (after >> shift) & word_mask,
        )?;
        bus.settle()?;
        let last = k + 1 == count;
        let want = if last { after } else { before };
        let what = format!(
            "a write of word {k} alone ({} of {count}, {})",
            k + 1,
            if last {
                "the last, which commits the words written"
            } else {
                "which waits for the last"
            }
        );
        check_register(e, bus, report, want, stable, readable, &what, "words")?;
        if let Some(pulses) = bus.take_pulses()? {
            pulses_as_expected(primaries, &pulses, report, &what, &|o, _, p| {
                u64::from(last && std::ptr::eq(o, e) && p.signal != "value")
            });
        }
    }
    // The last word alone: its bits change, the others keep theirs.
    let shift = (count - 1) * word;
    let high = u64::MAX << shift;
    let last = (after & !high) | (before & high);
    bus.write(
        e.addr + u64::from(shift / 8),
        word,
        (last >> shift) & word_mask,
    )?;
    bus.settle()?;
    let what = format!("a write of the last word ({}) alone", count - 1);
    check_register(e, bus, report, last, stable, readable, &what, "words")?;
    if let Some(pulses) = bus.take_pulses()? {
        pulses_as_expected(primaries, &pulses, report, &what, &|o, f, p| {
            u64::from(std::ptr::eq(o, e) && p.signal != "value" && f.bits.mask() & high != 0)
        });
    }
    Ok(())
}

/// Checks `e` against `want`: its stable writable bits read back word by word, and every
/// value hardware reads.
/// `Ok(false)` when something failed.
#[allow(clippy::too_many_arguments)]
fn check_register(
    e: &Element,
    bus: &mut dyn Bus,
    report: &mut Report,
    want: u64,
    stable: u64,
    readable: bool,
    what: &str,
    check: &'static str,
) -> Result<bool, String> {
    let failures = report.failures.len();
    if readable && stable != 0 {
        let word = bus.transfer_bits();
        let mut value = 0;
        for k in 0..e.width() / word {
            value |= bus.read(e.addr + u64::from(k * word / 8), word)? << (k * word);
        }
        for f in plain_written(e).filter(|f| f.bits.mask() & stable != 0) {
            report.check(
                get(value, f) == get(want, f),
                e.field_path(f),
                check,
                format!(
                    "after {what} it reads {:#x}, not {:#x}",
                    get(value, f),
                    get(want, f)
                ),
            );
        }
    }
    values_as_written(e, bus, report, want, what)?;
    Ok(report.failures.len() == failures)
}

/// Each byte of every register with plainly written fields written alone (an 8-bit write:
/// one byte strobe): that byte's written bits take the byte, every other bit keeps its
/// value. A byte below a wide register's last word waits for the last word, so the same
/// byte of the last word is written after it, which commits the two bytes alone.
pub(super) fn byte_lanes(
    elements: &[Element],
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    if !bus.byte_writes() {
        report.not_run.push(
            "every register: byte strobes: the transport writes whole registers only, so no \
             byte is written alone"
                .into(),
        );
        return Ok(());
    }
    bus.reset()?;
    let primaries: Vec<&Element> = elements.iter().filter(|e| !e.view).collect();
    for (i, e) in primaries.iter().enumerate() {
        let written = plain_written(e).fold(0, |m, f| m | f.bits.mask());
        if written == 0 {
            continue;
        }
        let readable = e.reg.access.is_readable();
        let stable = e.stable_mask() & written;
        let bytes = u64::from(e.width() / 8);
        let word_bytes = u64::from(bus.transfer_bits().min(e.width()) / 8);
        let last_word = bytes - word_bytes;
        // From a pattern and from its complement, so that every bit holds both 0 and 1
        // while the other bytes are written.
        'starts: for start in [pattern(i as u64), !pattern(i as u64)] {
            super::views::unlock(elements, e, bus)?;
            let mut want = (start & written) | (e.base() & !written);
            bus.write(e.addr, e.width(), want)?;
            // Every byte, those without such bits too (written with what leaves their
            // fields as they are): a write that clears the bytes it does not strobe shows.
            for b in 0..bytes {
                let next = (!want & written) | (e.base() & !written);
                let mut lanes = vec![b];
                if b < last_word {
                    lanes.push(last_word + b % word_bytes);
                }
                for &lane in &lanes {
                    bus.write(e.addr + lane, 8, (next >> (8 * lane)) & 0xff)?;
                }
                bus.settle()?;
                let mask = lanes.iter().fold(0, |m, lane| m | 0xff << (8 * lane)) & written;
                want = (want & !mask) | (next & mask);
                let what = match lanes[..] {
                    [_, commit] => format!(
                        "a write of byte {b} alone, then of byte {commit} (the last word's, \
                         which commits)"
                    ),
                    _ => format!("a write of byte {b} alone"),
                };
                if !check_register(
                    e,
                    bus,
                    report,
                    want,
                    stable,
                    readable,
                    &what,
                    "byte strobes",
                )? {
                    break 'starts;
                }
            }
        }
        bus.write(e.addr, e.width(), e.base())?;
    }
    Ok(())
}
