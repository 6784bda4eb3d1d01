//! Register documentation (`registers.md` in the docs directory) with an SVG bitfield diagram
//! per register (`registers/<block>-<register>.svg`).
//!
//! Spec text is prose, not Markdown: `text` escapes what Markdown would otherwise read as
//! markup, so a description renders as written.

mod svg;
mod text;

use std::fmt::Write as _;

use super::{GeneratedFile, Place, Provenance};
use crate::model::{Block, Device, Field, Register};
use crate::names;
use text::{cell, hex, paragraphs};

/// The core, the fixed address and the interrupt lines, when the spec gives them.
fn interrupts(md: &mut String, device: &Device) {
    if let Some(cpu) = &device.cpu {
        let _ = write!(md, "Core: `{}`", text::escape(&cpu.name));
        if let Some(bits) = &cpu.nvic_prio_bits {
            let _ = write!(md, ", {} NVIC priority bits", **bits);
        }
        md.push_str(".\n\n");
    }
    if let Some(address) = &device.address {
        let _ = writeln!(
            md,
            "The window sits at the fixed physical address {}.\n",
            hex(**address)
        );
    }
    if device.interrupts.is_empty() {
        return;
    }
    md.push_str(
        "## Interrupts\n\n| number | name | raised by | description |\n| --- | --- | --- | --- |\n",
    );
    for i in &device.interrupts {
        let raiser = match (&i.block, &i.index) {
            (Some(b), Some(index)) => format!("`{}[{}]`", **b, **index),
            (Some(b), None) => format!("`{}`", **b),
            _ => String::new(),
        };
        let _ = writeln!(
            md,
            "| {} | `{}` | {raiser} | {} |",
            *i.number,
            *i.name,
            cell(&i.description)
        );
    }
    md.push('\n');
}

pub fn files(device: &crate::Validated, provenance: &Provenance) -> Vec<GeneratedFile> {
    let device = &super::text::map_descriptions(device, super::text::markdown);
    let mut files = vec![GeneratedFile {
        place: Place::Docs,
        path: "registers.md".into(),
        contents: markdown(device, provenance),
    }];
    for kind in crate::block_types::kinds(device) {
        let block = &kind.definition;
        for register in &block.registers {
            files.push(GeneratedFile {
                place: Place::Docs,
                path: diagram_path(block, register),
                contents: svg::diagram(block, register, provenance),
            });
        }
    }
    files
}

/// Relative to the docs directory, as `registers.md` links it. `-` cannot occur in a name, so
/// no two registers share a path.
fn diagram_path(block: &Block, register: &Register) -> String {
    format!(
        "registers/{}-{}.svg",
        names::lower(&block.name),
        names::lower(&register.name)
    )
}

/// The HTML anchor of a register's section. Three `-`-separated parts where a block's anchor
/// has two (`block-<name>`), so that no block and register names make them equal.
fn anchor(block: &Block, register: &Register) -> String {
    format!(
        "register-{}-{}",
        names::lower(&block.name),
        names::lower(&register.name)
    )
}

fn markdown(device: &Device, provenance: &Provenance) -> String {
    let mut md = format!("<!--\n{}-->\n\n", provenance.preamble(""));
    let _ = writeln!(md, "# {} registers\n", *device.name);
    md.push_str(&paragraphs(&device.description));
    if !device.version.trim().is_empty() {
        let _ = write!(
            md,
            "Register map version {}. ",
            text::escape(device.version.trim())
        );
    }
    md.push_str(
        "Offsets are in bytes: a block's from the start of the device window, a register's \
         from the start of its block.\n\n",
    );

    if !device.constants.is_empty() {
        md.push_str("## Constants\n\n| name | value | description |\n| --- | --- | --- |\n");
        for constant in &device.constants {
            let _ = writeln!(
                md,
                "| `{}` | {} | {} |",
                *constant.name,
                *constant.value,
                cell(&constant.description)
            );
        }
        md.push('\n');
    }

    interrupts(&mut md, device);

    md.push_str(
        "## Blocks\n\n| block | offset | size | instances | stride | description |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for block in &device.blocks {
        let (count, stride) = match &block.array {
            Some(a) => (a.count.to_string(), hex(*a.stride)),
            None => ("1".into(), "–".into()),
        };
        // An instance of a block type links to the type's section, which lists them all.
        let of_type = match &block.instance_of {
            Some(ty) => format!("Of type `{}`. ", *ty.name),
            None => String::new(),
        };
        let _ = writeln!(
            md,
            "| [`{name}`](#block-{lower}) | {} | {} | {count} | {stride} | {of_type}{} |",
            hex(*block.offset),
            hex(*block.size),
            cell(&block.description),
            name = *block.name,
            lower = names::lower(crate::block_types::type_name(block)),
        );
    }
    md.push('\n');

    for kind in crate::block_types::kinds(device) {
        self::block(&mut md, &kind);
    }
    md
}

fn block(md: &mut String, kind: &crate::block_types::Kind<'_>) {
    let block = &kind.definition;
    let _ = writeln!(
        md,
        "<a id=\"block-{}\"></a>\n\n## Block {}`{}`\n",
        names::lower(&block.name),
        if kind.shared { "type " } else { "" },
        *block.name
    );
    md.push_str(&paragraphs(&block.description));
    let placement = match &block.array {
        None if kind.shared => {
            let mut text = format!(
                "{} instances of {} bytes, each at its own offset in the device window:\n",
                kind.instances.len(),
                hex(*block.size)
            );
            for instance in &kind.instances {
                let _ = write!(
                    text,
                    "\n- `{}` at {}{}",
                    *instance.name,
                    hex(*instance.offset),
                    if instance.description.trim() == block.description.trim() {
                        String::new()
                    } else {
                        format!(": {}", cell(&instance.description))
                    }
                );
            }
            text
        }
        None => format!(
            "One instance at {} in the device window, {} bytes.",
            hex(*block.offset),
            hex(*block.size)
        ),
        Some(a) => format!(
            "{} instances of {} bytes; instance *i* starts at {} + *i* × {} in the device window.",
            *a.count,
            hex(*block.size),
            hex(*block.offset),
            hex(*a.stride)
        ),
    };
    let mut placement = placement;
    if let Some(of) = &block.alternate_of {
        let _ = write!(
            placement,
            " An alternate view of the bytes of block [`{}`](#block-{}) (it overlaps them).",
            of.value,
            names::lower(of)
        );
    }
    let _ = writeln!(md, "{placement}\n");
    if block.registers.is_empty() {
        md.push_str("This block has no registers.\n\n");
        return;
    }

    // Offsets padded to the block's last byte, so the column lines up (0x000 … 0xFFF).
    let digits = format!("{:X}", block.size.saturating_sub(1)).len();
    md.push_str(
        "| offset | register | width | access | reset | description |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for register in &block.registers {
        let _ = writeln!(
            md,
            "| {} | [`{}`](#{}) | {} | {} | {} | {} |",
            padded(*register.offset, digits),
            display_name(register),
            anchor(block, register),
            *register.width,
            register.access.keyword(),
            hex(*register.reset),
            cell(&register.description)
        );
    }
    md.push('\n');
    for register in &block.registers {
        self::register(md, block, register, digits);
    }
}

/// `MEMBER_MASK[12]` for an array, the plain name otherwise.
fn display_name(register: &Register) -> String {
    match &register.array {
        Some(a) => format!("{}[{}]", *register.name, *a.count),
        None => register.name.to_string(),
    }
}

fn padded(value: u64, digits: usize) -> String {
    format!("0x{value:0digits$X}")
}

fn register(md: &mut String, block: &Block, register: &Register, digits: usize) {
    let _ = writeln!(
        md,
        "<a id=\"{}\"></a>\n\n### `{}.{}`\n",
        anchor(block, register),
        *block.name,
        display_name(register)
    );
    md.push_str(&paragraphs(&register.description));
    let mut facts = format!(
        "Offset {} in block `{}`; {}-bit, {}, reset {}.",
        padded(*register.offset, digits),
        *block.name,
        *register.width,
        register.access.keyword(),
        hex(*register.reset)
    );
    if let Some(note) = crate::emit::reset_note(register) {
        let _ = write!(facts, " {note}");
    }
    if register.reads_until_stable() {
        let _ = write!(
            facts,
            " Accessed as 2 {}-bit pieces (`access_width`): read high, low, high again until \
             the two high pieces agree (`split_read: until_stable`); written least significant \
             first.",
            register.access_bits()
        );
    } else if register.access_pieces() > 1 {
        let _ = write!(
            facts,
            " Accessed as {} {}-bit pieces (`access_width`), least significant first, at \
             increasing addresses.",
            register.access_pieces(),
            register.access_bits()
        );
    }
    if register.hardware.external {
        facts.push_str(" External: implemented outside the register block.");
    }
    if let Some(of) = &register.alternate_of {
        let _ = write!(
            facts,
            " An alternate view of the bytes of `{}` (it overlaps them).",
            of.value
        );
    }
    if let Some(lock) = &register.lock {
        let _ = write!(
            facts,
            " Writes are ignored while `{}.{}` is {} (`{}`).",
            *lock.register,
            *lock.field,
            u8::from(lock.locked_when),
            lock.keyword()
        );
    }
    if let Some(a) = &register.array {
        let _ = write!(
            facts,
            " An array of {} elements, {} bytes apart.",
            *a.count,
            hex(*a.stride)
        );
    }
    let _ = writeln!(md, "{facts}\n");
    let _ = writeln!(
        md,
        "![Bit fields of {}.{}]({})\n",
        *block.name,
        *register.name,
        diagram_path(block, register)
    );
    if register.fields.is_empty() {
        md.push_str("No fields: the register is one value.\n\n");
        return;
    }
    md.push_str(
        "| bits | field | access | side effect | reset | description |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    let mut fields: Vec<&Field> = register.fields.iter().collect();
    fields.sort_by_key(|f| std::cmp::Reverse(f.bits.lsb));
    for field in &fields {
        let _ = writeln!(
            md,
            "| {} | `{}` | {} | {} | {} | {} |",
            *field.bits,
            *field.name,
            access_cell(register, field),
            field.side_effect.map_or("–".to_string(), |s| format!(
                "`{}` ({})",
                s.keyword(),
                s.text()
            )),
            field_reset(register, field),
            field_description(field)
        );
    }
    md.push('\n');
    for field in fields
        .iter()
        .filter(|f| !f.values.is_empty() || !f.write_values.is_empty())
    {
        let (read, write) = if field.write_values.is_empty() {
            ("Values of", "")
        } else {
            ("Values read from", " (read)")
        };
        let _ = writeln!(
            md,
            "{read} `{}`{write}:\n\n| value | name | description |\n| --- | --- | --- |",
            *field.name
        );
        for value in &field.values {
            let _ = writeln!(
                md,
                "| {} | `{}` | {} |",
                *value.value,
                *value.name,
                cell(&value.description)
            );
        }
        md.push('\n');
        if field.write_values.is_empty() {
            continue;
        }
        let _ = writeln!(
            md,
            "Values written to `{}`:\n\n| value | name | description |\n| --- | --- | --- |",
            *field.name
        );
        for value in &field.write_values {
            let _ = writeln!(
                md,
                "| {} | `{}` | {} |",
                *value.value,
                *value.name,
                cell(&value.description)
            );
        }
        md.push('\n');
    }
}

/// The field's part of the register's reset value, in the field's own units.
pub(super) fn field_reset(register: &Register, field: &Field) -> String {
    match field.reset_from.map(|r| *r) {
        Some(crate::model::ResetFrom::Index) => return "index".into(),
        Some(crate::model::ResetFrom::Strap) => return "strap".into(),
        Some(crate::model::ResetFrom::NotReset) => return "not reset".into(),
        None => {}
    }
    // A value: an msb0 field's bits reversed.
    let value =
        field.value_of_bits((*register.reset & field.bits.mask()) >> field.bits.lsb.min(63));
    if field.bits.width() == 1 {
        value.to_string()
    } else {
        hex(value)
    }
}

/// A field's description cell, after its bit order when that is msb0.
fn field_description(field: &Field) -> String {
    if !field.is_msb0() {
        return cell(&field.description);
    }
    let order = format!(
        "msb0: bit {} holds the value's most significant bit (values and the reset are values, \
         their bits reversed in the register).",
        field.bits.lsb
    );
    if field.description.trim().is_empty() {
        order
    } else {
        format!("{order} {}", cell(&field.description))
    }
}

/// A field's access in the register table: `rw`, `wo`…, and "write-once" where it is.
fn access_cell(register: &Register, field: &Field) -> String {
    let access = field.effective_access(register).keyword();
    if field.write_once {
        format!("{access}, write-once")
    } else {
        access.to_string()
    }
}
