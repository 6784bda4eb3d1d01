//! The last pass: the device as `gba check` sees it. Every rule that `check` applies runs
//! here, the common validation and each output's own naming rules (Rust, C, SVD, docs), so
//! that a spec the import writes is one that `check` accepts. A problem reported at an
//! item's name (a C identifier two paths share, a Rust accessor with a doubled underscore, a
//! handle type equal to a field module, …) is fixed by renaming that item, and each rename is
//! reported with the item's path and the rule that required it. What renaming cannot fix is
//! returned for the importer to report.
//!
//! To know which item a diagnostic is about, every name gets a location of its own first (a
//! synthetic one: imported items have no place in a spec file yet); they are cleared again
//! at the end.

use std::collections::HashMap;

use super::warnings::Warnings;
use crate::Diagnostic;
use crate::Output;
use crate::import::Treatment;
use crate::location::{Loc, Located};
use crate::model::Device;
use crate::names;

/// Rounds of check-and-rename; each round fixes every name a problem points at, and a
/// rename rarely causes a new problem, so a few rounds suffice.
const ROUNDS: usize = 8;

/// Renames of one item after which it is left as it is (its problem is not its name).
const RENAMES_PER_ITEM: usize = 2;

/// Where a name lives in the device.
#[derive(Clone, Copy, Debug)]
enum Item {
    Device,
    Constant(usize),
    Block(usize),
    Register(usize, usize),
    Field(usize, usize, usize),
    Value(usize, usize, usize, usize),
    WriteValue(usize, usize, usize, usize),
    Interrupt(usize),
}

/// Renames until every check passes; returns the problems renaming could not fix (empty when
/// the device is valid for every output).
pub(crate) fn legalise(warnings: &mut Warnings, device: &mut Device) -> Vec<Diagnostic> {
    let items = tag(device);
    let by_loc: HashMap<Loc, usize> = items
        .iter()
        .enumerate()
        .map(|(id, _)| (loc(id), id))
        .collect();
    let mut renames = vec![0usize; items.len()];
    let mut problems = Vec::new();
    for _ in 0..ROUNDS {
        problems = crate::validated::problems(device, &Output::ALL);
        let mut fixed = false;
        let mut done = std::collections::HashSet::new();
        for problem in &problems {
            let Some(&id) = by_loc.get(&problem.primary.loc) else {
                continue;
            };
            if renames[id] >= RENAMES_PER_ITEM || !done.insert(id) {
                continue;
            }
            renames[id] += 1;
            rename(warnings, device, items[id], &problem.message);
            fixed = true;
        }
        if !fixed {
            break;
        }
    }
    untag(device);
    problems
}

/// The synthetic location of item `id` (line 0 is never a real one).
fn loc(id: usize) -> Loc {
    Loc {
        line: 0,
        column: u32::try_from(id + 1).unwrap_or(u32::MAX),
        byte_start: id + 1,
        byte_len: 0,
    }
}

fn tag(device: &mut Device) -> Vec<Item> {
    let mut items = Vec::new();
    let mut next = |slot: &mut Located<String>, item: Item| {
        slot.loc = loc(items.len());
        items.push(item);
    };
    next(&mut device.name, Item::Device);
    for (c, constant) in device.constants.iter_mut().enumerate() {
        next(&mut constant.name, Item::Constant(c));
    }
    for (i, interrupt) in device.interrupts.iter_mut().enumerate() {
        next(&mut interrupt.name, Item::Interrupt(i));
    }
    for (b, block) in device.blocks.iter_mut().enumerate() {
        next(&mut block.name, Item::Block(b));
        for (r, register) in block.registers.iter_mut().enumerate() {
            next(&mut register.name, Item::Register(b, r));
            for (f, field) in register.fields.iter_mut().enumerate() {
                next(&mut field.name, Item::Field(b, r, f));
                for (v, value) in field.values.iter_mut().enumerate() {
                    next(&mut value.name, Item::Value(b, r, f, v));
                }
                for (v, value) in field.write_values.iter_mut().enumerate() {
                    next(&mut value.name, Item::WriteValue(b, r, f, v));
                }
            }
        }
    }
    items
}

fn untag(device: &mut Device) {
    device.name.loc = Loc::default();
    for constant in &mut device.constants {
        constant.name.loc = Loc::default();
    }
    for interrupt in &mut device.interrupts {
        interrupt.name.loc = Loc::default();
    }
    for block in &mut device.blocks {
        block.name.loc = Loc::default();
        for register in &mut block.registers {
            register.name.loc = Loc::default();
            for field in &mut register.fields {
                field.name.loc = Loc::default();
                for value in field.values.iter_mut().chain(&mut field.write_values) {
                    value.name.loc = Loc::default();
                }
            }
        }
    }
}

/// Renames `item`: first its underscores tidied (no doubled, leading or trailing `_`), which
/// is what most imported names need; when that changes nothing, or the tidy name is taken
/// by a sibling, the first free `NAME_2`, `NAME_3`, … (ignoring case).
fn rename(warnings: &mut Warnings, device: &mut Device, item: Item, why: &str) {
    let (at, kind, siblings) = describe(device, item);
    let slot = name_mut(device, item);
    let old = slot.value.clone();
    let tidy = tidy(&old);
    let free = |candidate: &str| {
        names::problem(candidate).is_none()
            && !siblings
                .iter()
                .any(|s| names::clash_key(s) == names::clash_key(candidate))
    };
    let new = if tidy != old && free(&tidy) {
        tidy
    } else {
        (2..)
            .map(|n| format!("{tidy}_{n}"))
            .find(|c| free(c))
            .unwrap_or_else(|| format!("{tidy}_"))
    };
    warnings.warn(
        Treatment::Renamed,
        format!("{at}{old}"),
        format!("{kind} `{old}` renamed `{new}` so that `gba check` accepts it: {why}"),
    );
    slot.value = new.clone();
    // The alternates of this register (in its block) or block follow it.
    let alternates: Vec<&mut Option<Located<String>>> = match item {
        Item::Register(b, _) => device.blocks[b]
            .registers
            .iter_mut()
            .map(|r| &mut r.alternate_of)
            .collect(),
        Item::Block(_) => device
            .blocks
            .iter_mut()
            .map(|b| &mut b.alternate_of)
            .collect(),
        _ => Vec::new(),
    };
    for of in alternates.into_iter().flatten() {
        if of.value == old {
            of.value = new.clone();
        }
    }
    // So do the interrupts it raises.
    if let Item::Block(_) = item {
        for raiser in device
            .interrupts
            .iter_mut()
            .filter_map(|i| i.block.as_mut())
        {
            if raiser.value == old {
                raiser.value = new.clone();
            }
        }
    }
}

/// `CMP__A_` → `CMP_A`.
fn tidy(name: &str) -> String {
    let parts: Vec<&str> = name.split('_').filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        return name.to_string();
    }
    parts.join("_")
}

/// The path of the item's parent (`UART.CTRL.`), what kind of item it is, and the names
/// of its siblings (itself excluded).
fn describe(device: &Device, item: Item) -> (String, &'static str, Vec<String>) {
    let others = |names: Vec<&Located<String>>, me: usize| -> Vec<String> {
        names
            .into_iter()
            .enumerate()
            .filter(|(i, _)| *i != me)
            .map(|(_, n)| n.value.clone())
            .collect()
    };
    match item {
        Item::Device => (String::new(), "device", Vec::new()),
        Item::Constant(c) => (
            String::new(),
            "constant",
            others(device.constants.iter().map(|c| &c.name).collect(), c),
        ),
        Item::Interrupt(i) => (
            String::new(),
            "interrupt",
            others(device.interrupts.iter().map(|i| &i.name).collect(), i),
        ),
        Item::Block(b) => (
            String::new(),
            "block",
            others(device.blocks.iter().map(|b| &b.name).collect(), b),
        ),
        Item::Register(b, r) => {
            let block = &device.blocks[b];
            (
                format!("{}.", *block.name),
                "register",
                others(block.registers.iter().map(|r| &r.name).collect(), r),
            )
        }
        Item::Field(b, r, f) => {
            let block = &device.blocks[b];
            let register = &block.registers[r];
            (
                format!("{}.{}.", *block.name, *register.name),
                "field",
                others(register.fields.iter().map(|f| &f.name).collect(), f),
            )
        }
        Item::Value(b, r, f, v) => {
            let block = &device.blocks[b];
            let register = &block.registers[r];
            let field = &register.fields[f];
            (
                format!("{}.{}.{}.", *block.name, *register.name, *field.name),
                "enumerated value",
                others(field.values.iter().map(|v| &v.name).collect(), v),
            )
        }
        Item::WriteValue(b, r, f, v) => {
            let block = &device.blocks[b];
            let register = &block.registers[r];
            let field = &register.fields[f];
            // A new name must not be a read value's either (one name, one number).
            let mut siblings = others(field.write_values.iter().map(|v| &v.name).collect(), v);
            siblings.extend(field.values.iter().map(|v| v.name.value.clone()));
            (
                format!("{}.{}.{}.", *block.name, *register.name, *field.name),
                "write value",
                siblings,
            )
        }
    }
}

fn name_mut(device: &mut Device, item: Item) -> &mut Located<String> {
    match item {
        Item::Device => &mut device.name,
        Item::Constant(c) => &mut device.constants[c].name,
        Item::Block(b) => &mut device.blocks[b].name,
        Item::Interrupt(i) => &mut device.interrupts[i].name,
        Item::Register(b, r) => &mut device.blocks[b].registers[r].name,
        Item::Field(b, r, f) => &mut device.blocks[b].registers[r].fields[f].name,
        Item::Value(b, r, f, v) => &mut device.blocks[b].registers[r].fields[f].values[v].name,
        Item::WriteValue(b, r, f, v) => {
            &mut device.blocks[b].registers[r].fields[f].write_values[v].name
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tidy;

    #[test]
    fn tidy_underscores() {
        assert_eq!(tidy("CMP_"), "CMP");
        assert_eq!(tidy("A__B_"), "A_B");
        assert_eq!(tidy("_"), "_");
    }
}
