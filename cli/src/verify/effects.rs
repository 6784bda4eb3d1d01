//! The side-effect checks: for every field with a side effect, the behaviour the spec names
//! (`woclr`, `woset`, `wot`, `wzc`, `wzs`, `wzt`, `singlepulse`, `rclr`, `rset`), seen
//! through the bus. A field the backend cannot set from the hardware side, where the check
//! needs that, or whose effect the backend is known not to build ([`Gaps`]), is listed as
//! not run, by register and field. Every write is followed by [`Bus::settle`] before the
//! read that checks its effect.

use gba_codegen::model::{Field, SideEffect};

use super::Bus;
use super::checks::{Element, Report, get, put};
use super::gaps::Gaps;

pub(super) fn run(
    elements: &[Element],
    bus: &mut dyn Bus,
    gaps: &Gaps,
    report: &mut Report,
) -> Result<(), String> {
    bus.reset()?;
    for e in elements {
        for f in &e.reg.fields {
            let Some(effect) = f.side_effect else {
                continue;
            };
            let effect = *effect;
            let place = e.field_path(f);
            if let Some(reason) = gaps.effect(effect) {
                report
                    .not_run
                    .push(format!("{place}: {}: {reason}", effect.keyword()));
                continue;
            }
            if !e.access(f).is_readable() {
                report.not_run.push(format!(
                    "{place}: {}: the field is write-only, so its effect cannot be read back",
                    effect.keyword()
                ));
                continue;
            }
            super::views::unlock(elements, e, bus)?;
            match effect {
                SideEffect::WriteOneToSet => write_one_to_set(e, f, bus, report)?,
                SideEffect::WriteOneToClear | SideEffect::ReadToClear => {
                    cleared(e, f, effect, bus, report)?;
                }
                SideEffect::WriteOneToToggle
                | SideEffect::WriteZeroToClear
                | SideEffect::WriteZeroToSet
                | SideEffect::WriteZeroToToggle => written(e, f, effect, bus, report)?,
                SideEffect::SinglePulse => single_pulse(e, f, bus, report)?,
                SideEffect::ReadToSet => read_to_set(e, f, bus, report)?,
                // What such a read changes is the design's own (a FIFO pops, an interrupt is
                // acknowledged elsewhere): the spec says nothing the bus could check.
                SideEffect::ReadModify | SideEffect::ReadModifyExternal => {
                    report.not_run.push(format!(
                        "{place}: {}: the spec does not say what a read changes",
                        effect.keyword()
                    ));
                }
            }
            bus.reset()?;
        }
    }
    Ok(())
}

/// `woset`: writing 0 keeps it; writing 1s sets it, and it stays set (two reads after the
/// write, then a write of 0). A bit that reads 0 after a write of 1 is not a `woset` bit:
/// a self-clearing bit is `singlepulse` in the spec (gba.yaml's CONTROL.RESET), checked by
/// [`single_pulse`]. (Accepting 0 here let a read mux that returns another register's 0
/// pass for a set bit.)
fn write_one_to_set(
    e: &Element,
    f: &Field,
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let (base, all, place) = (e.base(), f.bits.value_mask(), e.field_path(f));
    bus.write(e.addr, e.width(), base)?;
    bus.settle()?;
    let before = get(bus.read(e.addr, e.width())?, f);
    report.check(
        before == get(e.reset(), f),
        place.clone(),
        "w1s",
        format!("writing 0 made it {before:#x}"),
    );
    bus.write(e.addr, e.width(), put(base, f, all))?;
    bus.settle()?;
    let first = get(bus.read(e.addr, e.width())?, f);
    let second = get(bus.read(e.addr, e.width())?, f);
    if !report.check(
        first == all && second == all,
        place.clone(),
        "w1s",
        format!(
            "writing 1s left it reading {first:#x}, then {second:#x}, not {all:#x} (a bit \
             that clears itself is `singlepulse` in the spec, not `woset`)"
        ),
    ) {
        return Ok(());
    }
    bus.write(e.addr, e.width(), base)?;
    bus.settle()?;
    let after = get(bus.read(e.addr, e.width())?, f);
    report.check(
        after == all,
        place,
        "w1s",
        format!("writing 0 cleared it to {after:#x}"),
    );
    Ok(())
}

/// `woclr` and `rclr`: hardware sets the field, then writing 0 keeps it and writing 1s
/// clears it, or a read returns it and the next read returns 0.
fn cleared(
    e: &Element,
    f: &Field,
    effect: SideEffect,
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let (base, all, place) = (e.base(), f.bits.value_mask(), e.field_path(f));
    if !bus.hw_write(&format!("{}.{}", e.hw, *f.name), all)? {
        report.not_run.push(format!(
            "{place}: {}: the transport cannot make hardware set it",
            effect.keyword()
        ));
        return Ok(());
    }
    let set = get(bus.read(e.addr, e.width())?, f);
    if !report.check(
        set == all,
        place.clone(),
        effect.keyword(),
        format!("hardware set it to {all:#x}, read {set:#x}"),
    ) {
        return Ok(());
    }
    if effect == SideEffect::WriteOneToClear {
        bus.write(e.addr, e.width(), base)?;
        bus.settle()?;
        let kept = get(bus.read(e.addr, e.width())?, f);
        report.check(
            kept == all,
            place.clone(),
            "w1c",
            format!("writing 0 changed it to {kept:#x}"),
        );
        bus.write(e.addr, e.width(), put(base, f, all))?;
        bus.settle()?;
        let cleared = get(bus.read(e.addr, e.width())?, f);
        report.check(
            cleared == 0,
            place,
            "w1c",
            format!("writing 1s left {cleared:#x}"),
        );
    } else {
        let cleared = get(bus.read(e.addr, e.width())?, f);
        report.check(
            cleared == 0,
            place,
            "rc",
            format!("a second read returned {cleared:#x}"),
        );
    }
    Ok(())
}

/// What the field holds after `value` is written over `current`, by the spec's effect.
pub(super) fn after_write(effect: SideEffect, current: u64, value: u64, all: u64) -> u64 {
    let ones = value & all;
    let zeros = !value & all;
    match effect {
        SideEffect::WriteOneToClear => current & !ones,
        SideEffect::WriteOneToSet => current | ones,
        SideEffect::WriteOneToToggle => current ^ ones,
        SideEffect::WriteZeroToClear => current & !zeros,
        SideEffect::WriteZeroToSet => current | zeros,
        SideEffect::WriteZeroToToggle => current ^ zeros,
        SideEffect::SinglePulse
        | SideEffect::ReadToClear
        | SideEffect::ReadToSet
        | SideEffect::ReadModify
        | SideEffect::ReadModifyExternal => current,
    }
}

/// `wot`, `wzc`, `wzs`, `wzt`: from the field's value (all ones set by hardware first for
/// `wzc`, which can only clear), a write that leaves it, one that acts on every bit, one
/// that leaves it, one that acts on every other bit; after each, the field reads what the
/// effect makes of the value before.
fn written(
    e: &Element,
    f: &Field,
    effect: SideEffect,
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let (base, all, place) = (e.base(), f.bits.value_mask(), e.field_path(f));
    let name = effect.keyword();
    if effect == SideEffect::WriteZeroToClear
        && !bus.hw_write(&format!("{}.{}", e.hw, *f.name), all)?
    {
        report.not_run.push(format!(
            "{place}: {name}: the transport cannot make hardware set it, and only then can \
             writing 0 clear something"
        ));
        return Ok(());
    }
    let mut current = get(bus.read(e.addr, e.width())?, f);
    // What hardware set must read back, or the writes below start from a value nobody
    // chose (a hardware write that stores something else passed before).
    if effect == SideEffect::WriteZeroToClear
        && !report.check(
            current == all,
            place.clone(),
            name,
            format!("hardware set it to {all:#x}, read {current:#x}"),
        )
    {
        return Ok(());
    }
    // In the effect's terms: `neutral` leaves the field, `acting` acts on every bit.
    let neutral = if effect.neutral_write() == Some(true) {
        all
    } else {
        0
    };
    let acting = neutral ^ all;
    let alternate = neutral ^ (0x5555_5555_5555_5555 & all);
    for value in [neutral, acting, neutral, alternate] {
        bus.write(e.addr, e.width(), put(base, f, value))?;
        bus.settle()?;
        let want = after_write(effect, current, value, all);
        let got = get(bus.read(e.addr, e.width())?, f);
        if !report.check(
            got == want,
            place.clone(),
            name,
            format!("writing {value:#x} over {current:#x} made it {got:#x}, not {want:#x}"),
        ) {
            break;
        }
        current = got;
    }
    Ok(())
}

/// `singlepulse`: after writing 1s the field reads 0 by the second read (a read right after
/// the write may still see the one-cycle pulse), and writing 0 leaves it 0. (The pulse itself
/// goes to the hardware side, which the bus cannot see.)
fn single_pulse(
    e: &Element,
    f: &Field,
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let all = f.bits.value_mask();
    for value in [all, 0] {
        bus.write(e.addr, e.width(), put(e.base(), f, value))?;
        bus.settle()?;
        let first = get(bus.read(e.addr, e.width())?, f);
        let got = get(bus.read(e.addr, e.width())?, f);
        report.check(
            got == 0 && (value != 0 || first == 0),
            e.field_path(f),
            "singlepulse",
            format!("writing {value:#x} left it reading {first:#x}, then {got:#x}, not 0"),
        );
    }
    Ok(())
}

/// `rset`: a read returns the value (0, after hardware cleared it, when the transport can
/// make it), and the next read returns all ones.
fn read_to_set(
    e: &Element,
    f: &Field,
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let all = f.bits.value_mask();
    let place = e.field_path(f);
    let cleared = bus.hw_write(&format!("{}.{}", e.hw, *f.name), 0)?;
    let first = get(bus.read(e.addr, e.width())?, f);
    if cleared {
        report.check(
            first == 0,
            place.clone(),
            "rset",
            format!("hardware cleared it, a read returned {first:#x}"),
        );
    }
    let second = get(bus.read(e.addr, e.width())?, f);
    report.check(
        second == all,
        place,
        "rset",
        format!("a read after a read returned {second:#x}, not {all:#x}"),
    );
    Ok(())
}
