//! External registers (`hardware: external`) on a backend that does not implement them (the
//! RTL of `gba rtl`, whose wrapper stands in for the logic outside the block with plain
//! storage of the bits software can write): only the routing of their accesses to the
//! external interface is checked, and each register is named as not checked beyond that.
//!
//! - **reset**: each plain readable field reads its reset value (the stand-in's reset comes
//!   from the spec, so this proves the read path: decode, request, read data, acknowledge);
//! - **routing**: every external register is written with a pattern of its own, then every
//!   one is read back (twice, the second time with the complements): each plain read-write
//!   field reads what its register was written, each read-only one its reset. A decode that
//!   reaches another external register, a write that misses its word or a read mux that
//!   returns another register's value reads wrong.
//!
//! Fields with a side effect or written once are left to the external logic: the stand-in
//! stores them plainly, so a check of their behaviour would check the stand-in.

use gba_codegen::model::{Access, ResetFrom};

use super::Bus;
use super::checks::{Element, Report, pattern};

/// One checked part of an external register: a plain field, or the whole register when it
/// has no fields.
struct Part {
    place: String,
    mask: u64,
    access: Access,
    /// The reset value in place (under `mask`), when it has one.
    reset: Option<u64>,
}

fn parts(e: &Element) -> Vec<Part> {
    let whole = u64::MAX >> (64 - e.width());
    if e.reg.fields.is_empty() {
        return vec![Part {
            place: e.path.clone(),
            mask: whole,
            access: *e.reg.access,
            reset: Some(e.reset() & whole),
        }];
    }
    e.reg
        .fields
        .iter()
        .filter(|f| f.side_effect.is_none() && !f.write_once)
        .map(|f| Part {
            place: e.field_path(f),
            mask: f.bits.mask(),
            access: e.access(f),
            reset: match f.reset_from.map(|r| *r) {
                Some(ResetFrom::NotReset | ResetFrom::Strap) => None,
                _ => e.field_reset(f).map(|v| (v << f.bits.lsb) & f.bits.mask()),
            },
        })
        .collect()
}

/// Runs the routing checks of `outside` (the external registers) and lists each as not
/// checked beyond them, with `reason`.
pub(super) fn run(
    outside: &[Element],
    bus: &mut dyn Bus,
    reason: &str,
    report: &mut Report,
) -> Result<(), String> {
    let outside: Vec<&Element> = outside.iter().filter(|e| !e.view).collect();
    for e in &outside {
        report.not_run.push(format!("{}: {reason}", e.path));
    }
    if outside.is_empty() {
        return Ok(());
    }
    bus.reset()?;
    for e in &outside {
        let value = bus.read(e.addr, e.width())?;
        for part in parts(e).iter().filter(|p| p.access.is_readable()) {
            let Some(want) = part.reset else { continue };
            let got = value & part.mask;
            report.check(
                got == want,
                part.place.clone(),
                "external reset",
                format!("expected {want:#x} in place, read {got:#x} (register {value:#x})"),
            );
        }
    }
    for complement in [false, true] {
        let written: Vec<u64> = outside
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let p = pattern(i as u64) ^ if complement { u64::MAX } else { 0 };
                p & (u64::MAX >> (64 - e.width()))
            })
            .collect();
        for (e, value) in outside.iter().zip(&written) {
            if e.reg.access.is_writable() {
                bus.write(e.addr, e.width(), *value)?;
            }
        }
        for (e, value) in outside.iter().zip(&written) {
            let got = bus.read(e.addr, e.width())?;
            for part in parts(e) {
                let want = match part.access {
                    Access::ReadWrite => value & part.mask,
                    Access::ReadOnly => match part.reset {
                        Some(reset) => reset,
                        None => continue,
                    },
                    Access::WriteOnly => continue,
                };
                report.check(
                    got & part.mask == want,
                    part.place.clone(),
                    "external routing",
                    format!(
                        "after every external register was written (this one with {value:#x}), \
                         expected {want:#x} in place, read {:#x} (register {got:#x} at {:#x})",
                        got & part.mask,
                        e.addr
                    ),
                );
            }
        }
    }
    Ok(())
}
