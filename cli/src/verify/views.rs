//! The checks of write locks (`locked_by`, `write_enable`: a locked register ignores writes
//! until its lock bit allows them) and of alternate views (a write through one view of some
//! bytes is read through every other view of them, bit for bit), and the helpers that keep
//! the other checks' writes out of a lock's way.

use gba_codegen::model::{Access, Field};

use super::Bus;
use super::checks::{Element, Report, get, pattern, put};
use super::gaps::Gaps;

/// The element and field that hold `e`'s lock bit (in `e`'s block element), and the bit's
/// value that unlocks.
fn lock_of<'e, 'a>(
    elements: &'e [Element<'a>],
    e: &Element,
) -> Option<(&'e Element<'a>, &'a Field, u64)> {
    let lock = e.reg.lock.as_ref()?;
    let holder = elements
        .iter()
        .find(|l| l.block == e.block && !l.view && *l.reg.name == *lock.register)?;
    let field = holder.reg.fields.iter().find(|f| *f.name == *lock.field)?;
    Some((holder, field, u64::from(!lock.locked_when)))
}

/// The bits of `e` that lock other registers of its block, and their values that unlock.
pub(super) fn lock_bits(elements: &[Element], e: &Element) -> (u64, u64) {
    let mut mask = 0;
    let mut value = 0;
    for other in elements.iter().filter(|o| o.block == e.block) {
        if let Some((holder, field, unlocked)) = lock_of(elements, other)
            && std::ptr::eq(holder, e)
        {
            mask |= field.bits.mask();
            value = put(value, field, unlocked);
        }
    }
    (mask, value)
}

/// Writes `e`'s lock bit (if it has one) to the value that unlocks it, so that a check's
/// writes to `e` land.
pub(super) fn unlock(elements: &[Element], e: &Element, bus: &mut dyn Bus) -> Result<(), String> {
    if let Some((holder, field, unlocked)) = lock_of(elements, e) {
        bus.write(
            holder.addr,
            holder.width(),
            put(holder.base(), field, unlocked),
        )?;
    }
    Ok(())
}

/// For every locked register: with the lock bit unlocking, a write lands; with it locking,
/// a write is ignored. Failures name the locked register's field.
pub(super) fn locks(
    elements: &[Element],
    bus: &mut dyn Bus,
    gaps: &Gaps,
    report: &mut Report,
) -> Result<(), String> {
    bus.reset()?;
    for (i, e) in elements.iter().enumerate() {
        let Some(lock) = &e.reg.lock else {
            continue;
        };
        let bit = format!("{}.{}", *lock.register, *lock.field);
        let place = format!("{} ({} {bit})", e.path, lock.keyword());
        if let Some(reason) = &gaps.locks {
            report
                .not_run
                .push(format!("{place}: write lock: {reason}"));
            continue;
        }
        let Some((holder, field, unlocked)) = lock_of(elements, e) else {
            report.not_run.push(format!(
                "{place}: write lock: its lock bit is not a register element of this block"
            ));
            continue;
        };
        if holder.access(field) != Access::ReadWrite || field.side_effect.is_some() {
            report.not_run.push(format!(
                "{place}: write lock: {bit} is not a plain read-write bit, so the check cannot \
                 set it both ways"
            ));
            continue;
        }
        let rw = e.plain_rw_mask();
        if rw == 0 || !e.reg.access.is_readable() {
            report.not_run.push(format!(
                "{place}: write lock: no plain read-write field to see a write land"
            ));
            continue;
        }
        let set_lock = |bus: &mut dyn Bus, value: u64| {
            bus.write(
                holder.addr,
                holder.width(),
                put(holder.base(), field, value),
            )
        };
        let first = (e.base() & !rw) | (pattern(i as u64) & rw);
        let second = first ^ rw;
        set_lock(bus, unlocked)?;
        bus.write(e.addr, e.width(), first)?;
        let landed = bus.read(e.addr, e.width())?;
        set_lock(bus, unlocked ^ 1)?;
        bus.write(e.addr, e.width(), second)?;
        let kept = bus.read(e.addr, e.width())?;
        for f in e.plain_rw() {
            let ok = report.check(
                get(landed, f) == get(first, f),
                e.field_path(f),
                "write lock",
                format!(
                    "with {bit} = {unlocked} (unlocked) a write of {:#x} read back {:#x}",
                    get(first, f),
                    get(landed, f)
                ),
            );
            if ok {
                report.check(
                    get(kept, f) == get(first, f),
                    e.field_path(f),
                    "write lock",
                    format!(
                        "with {bit} = {} (locked) a write of {:#x} was not ignored: it reads {:#x}, not {:#x}",
                        unlocked ^ 1,
                        get(second, f),
                        get(kept, f),
                        get(first, f)
                    ),
                );
            }
        }
        set_lock(bus, unlocked)?;
        bus.write(e.addr, e.width(), e.base())?;
        bus.write(holder.addr, holder.width(), holder.base())?;
    }
    Ok(())
}

/// Bit `bit` of the address space (byte address × 8 + bit) in element `e`'s value, if `e`
/// covers it.
fn bit_in(e: &Element, bit: u64) -> Option<u32> {
    let start = e.addr * 8;
    (start..start + u64::from(e.width()))
        .contains(&bit)
        .then(|| (bit - start) as u32)
}

/// For every alternate view and every element it shares bytes with, in both directions: a
/// pattern written through one (its plain read-write bits) reads back through the other (its
/// stable readable bits), bit for bit, where both have such a bit. Failures name the field
/// read and the view written.
pub(super) fn alternates(
    elements: &[Element],
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    bus.reset()?;
    for (i, view) in elements.iter().enumerate().filter(|(_, e)| e.view) {
        let (v_start, v_end) = (view.addr, view.addr + view.reg.bytes());
        for other in elements.iter().filter(|o| {
            !std::ptr::eq(*o, view) && o.addr < v_end && v_start < o.addr + o.reg.bytes()
        }) {
            for (from, to) in [(view, other), (other, view)] {
                written_reads_through(i as u64, from, to, elements, bus, report)?;
            }
        }
    }
    Ok(())
}

/// Writes two complementary patterns through `from` and reads each through `to`.
fn written_reads_through(
    seed: u64,
    from: &Element,
    to: &Element,
    elements: &[Element],
    bus: &mut dyn Bus,
    report: &mut Report,
) -> Result<(), String> {
    let rw = from.plain_rw_mask();
    if rw == 0 || !to.reg.access.is_readable() {
        return Ok(());
    }
    let stable = to.stable_mask();
    // The bits of `to` that `from` writes: (bit of `to`, bit of `from`).
    let shared: Vec<(u32, u32)> = (0..to.width())
        .filter(|&j| stable >> j & 1 == 1)
        .filter_map(|j| {
            let i = bit_in(from, to.addr * 8 + u64::from(j))?;
            (rw >> i & 1 == 1).then_some((j, i))
        })
        .collect();
    if shared.is_empty() {
        return Ok(());
    }
    unlock(elements, from, bus)?;
    let p = pattern(seed ^ 0xa17e);
    'patterns: for written in [p, !p] {
        let value = (from.base() & !rw) | (written & rw);
        bus.write(from.addr, from.width(), value)?;
        let read = bus.read(to.addr, to.width())?;
        let want = shared
            .iter()
            .fold(0u64, |w, &(j, i)| w | (value >> i & 1) << j);
        for f in to.reg.fields.iter() {
            let mask = shared
                .iter()
                .filter(|(j, _)| f.bits.mask() >> j & 1 == 1)
                .fold(0u64, |m, &(j, _)| m | 1 << j);
            if mask == 0 {
                continue;
            }
            let ok = report.check(
                read & mask == want & mask,
                to.field_path(f),
                "alternate view",
                format!(
                    "{:#x} written through {} reads {:#x} through {}",
                    get(want & mask, f),
                    from.path,
                    get(read & mask, f),
                    to.path
                ),
            );
            if !ok {
                break 'patterns;
            }
        }
    }
    bus.write(from.addr, from.width(), from.base())?;
    Ok(())
}
