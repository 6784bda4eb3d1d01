//! Model → spec text (YAML in the format `parse` reads), for importers.
//!
//! The output is deterministic (items in model order, keys in a fixed order), reads like a
//! hand-written spec (addresses in hex, counts and bit numbers in decimal, multi-line text as
//! `|-` blocks) and parses back through [`crate::parse_str`] to an equal model. Strings are
//! left plain only when no YAML reader could take them for anything else.

use std::fmt::Write;

use crate::model::{Block, Device, Field, FieldHardware, Register, RegisterHardware};

/// The spec for `device`, starting with `header` (each line becomes a `#` comment).
pub fn write(device: &Device, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        if line.is_empty() {
            out.push_str("#\n");
        } else {
            let _ = writeln!(out, "# {line}");
        }
    }
    out.push_str("device:\n");
    key_str(&mut out, 2, "name", &device.name);
    if !device.version.is_empty() {
        // Quoted always: a version such as 1.0 must stay text.
        let _ = writeln!(out, "  version: {}", quoted(&device.version));
    }
    key_text(&mut out, 2, "description", &device.description);
    if let Some(cpu) = &device.cpu {
        key_str(&mut out, 2, "cpu", &cpu.name);
        if let Some(bits) = &cpu.nvic_prio_bits {
            let _ = writeln!(out, "  nvic_prio_bits: {}", **bits);
        }
    }
    if let Some(address) = &device.address {
        let _ = writeln!(out, "  address: {:#x}", **address);
    }

    if !device.constants.is_empty() {
        out.push_str("\nconstants:\n");
        for constant in &device.constants {
            item_name(&mut out, 2, &constant.name);
            let _ = writeln!(out, "    value: {}", *constant.value);
            key_text(&mut out, 4, "description", &constant.description);
        }
    }

    if !device.interrupts.is_empty() {
        out.push_str("\ninterrupts:\n");
        for interrupt in &device.interrupts {
            item_name(&mut out, 2, &interrupt.name);
            let _ = writeln!(out, "    number: {}", *interrupt.number);
            if let Some(block) = &interrupt.block {
                key_str(&mut out, 4, "block", block);
            }
            if let Some(index) = &interrupt.index {
                let _ = writeln!(out, "    index: {}", **index);
            }
            key_text(&mut out, 4, "description", &interrupt.description);
        }
    }

    out.push_str("\nblocks:\n");
    // A block type is written once, at its first instance, with all its instances (the
    // importers keep them together, so that the spec reads back in the same order).
    for (i, kind) in crate::block_types::kinds(device).iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if kind.shared {
            write_block_type(&mut out, kind);
        } else {
            write_block(&mut out, &kind.definition);
        }
    }
    out
}

fn write_block_type(out: &mut String, kind: &crate::block_types::Kind<'_>) {
    let block = &kind.definition;
    item_name(out, 2, &block.name);
    key_text(out, 4, "description", &block.description);
    let _ = writeln!(out, "    size: {:#x}", *block.size);
    out.push_str("    instances:\n");
    for instance in &kind.instances {
        item_name(out, 6, &instance.name);
        let _ = writeln!(out, "        offset: {:#x}", *instance.offset);
        if instance.description.is_empty() && !block.description.is_empty() {
            // An absent description would read back as the type's.
            out.push_str("        description: \"\"\n");
        } else if instance.description != block.description {
            key_text(out, 8, "description", &instance.description);
        }
    }
    write_registers(out, block);
}

fn write_block(out: &mut String, block: &Block) {
    item_name(out, 2, &block.name);
    key_text(out, 4, "description", &block.description);
    let _ = writeln!(out, "    offset: {:#x}", *block.offset);
    let _ = writeln!(out, "    size: {:#x}", *block.size);
    if let Some(of) = &block.alternate_of {
        key_str(out, 4, "alternate_of", of);
    }
    if let Some(array) = &block.array {
        let _ = writeln!(out, "    count: {}", *array.count);
        let _ = writeln!(out, "    stride: {:#x}", *array.stride);
    }
    write_registers(out, block);
}

fn write_registers(out: &mut String, block: &Block) {
    if !block.registers.is_empty() {
        out.push_str("    registers:\n");
        for register in &block.registers {
            write_register(out, register);
        }
    }
}

/// The register's `hardware:` section, when it says anything.
fn write_register_hardware(out: &mut String, hardware: &RegisterHardware) {
    if hardware.is_empty() {
        return;
    }
    out.push_str("        hardware:\n");
    if hardware.external {
        out.push_str("          external: true\n");
    }
}

fn write_register(out: &mut String, register: &Register) {
    item_name(out, 6, &register.name);
    key_text(out, 8, "description", &register.description);
    let _ = writeln!(out, "        offset: {:#x}", *register.offset);
    let _ = writeln!(out, "        width: {}", *register.width);
    let _ = writeln!(out, "        access: {}", register.access.keyword());
    if let Some(bits) = &register.access_width {
        let _ = writeln!(out, "        access_width: {}", **bits);
    }
    if let Some(protocol) = &register.split_read {
        let _ = writeln!(out, "        split_read: {}", protocol.keyword());
    }
    let _ = writeln!(out, "        reset: {:#x}", *register.reset);
    if let Some(of) = &register.alternate_of {
        key_str(out, 8, "alternate_of", of);
    }
    if let Some(lock) = &register.lock {
        let bit = format!("{}.{}", *lock.register, *lock.field);
        key_str(out, 8, lock.keyword(), &bit);
    }
    if let Some(array) = &register.array {
        let _ = writeln!(out, "        count: {}", *array.count);
        let _ = writeln!(out, "        stride: {:#x}", *array.stride);
    }
    write_register_hardware(out, &register.hardware);
    if !register.fields.is_empty() {
        out.push_str("        fields:\n");
        for field in &register.fields {
            write_field(out, field);
        }
    }
}

/// The field's `hardware:` section, when it says anything.
fn write_field_hardware(out: &mut String, hardware: &FieldHardware) {
    if hardware.is_empty() {
        return;
    }
    out.push_str("            hardware:\n");
    if let Some(access) = &hardware.access {
        let _ = writeln!(out, "              access: {}", access.keyword());
    }
    for (key, set) in [("swmod", hardware.swmod), ("swacc", hardware.swacc)] {
        if set {
            let _ = writeln!(out, "              {key}: true");
        }
    }
}

fn write_field(out: &mut String, field: &Field) {
    item_name(out, 10, &field.name);
    if field.bits.msb == field.bits.lsb {
        let _ = writeln!(out, "            bits: {}", field.bits.lsb);
    } else {
        let _ = writeln!(
            out,
            "            bits: \"{}:{}\"",
            field.bits.msb, field.bits.lsb
        );
    }
    if let Some(access) = field.access {
        let _ = writeln!(out, "            access: {}", access.keyword());
    }
    if let Some(effect) = field.side_effect {
        let _ = writeln!(out, "            side_effect: {}", effect.keyword());
    }
    if let Some(from) = field.reset_from {
        let _ = writeln!(out, "            reset: {}", from.keyword());
    }
    if field.write_once {
        let _ = writeln!(out, "            write_once: true");
    }
    write_field_hardware(out, &field.hardware);
    if field.msb0 {
        let _ = writeln!(out, "            bit_order: msb0");
    }
    key_text(out, 12, "description", &field.description);
    for (key, values) in [
        ("values", &field.values),
        ("write_values", &field.write_values),
    ] {
        if values.is_empty() {
            continue;
        }
        let _ = writeln!(out, "            {key}:");
        for value in values {
            item_name(out, 14, &value.name);
            let _ = writeln!(out, "                value: {}", *value.value);
            key_text(out, 16, "description", &value.description);
        }
    }
}

/// `- name: X` at `indent`.
fn item_name(out: &mut String, indent: usize, name: &str) {
    let _ = writeln!(out, "{:indent$}- name: {}", "", scalar(name));
}

fn key_str(out: &mut String, indent: usize, key: &str, value: &str) {
    let _ = writeln!(out, "{:indent$}{key}: {}", "", scalar(value));
}

/// A free-text key; nothing when the text is empty (the format's default).
fn key_text(out: &mut String, indent: usize, key: &str, text: &str) {
    if text.is_empty() {
        return;
    }
    if literal_block_ok(text) {
        let _ = writeln!(out, "{:indent$}{key}: |-", "");
        for line in text.lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                let _ = writeln!(out, "{:width$}{line}", "", width = indent + 2);
            }
        }
    } else {
        let _ = writeln!(out, "{:indent$}{key}: {}", "", scalar(text));
    }
}

/// A `|-` block keeps multi-line text exactly when no line could be read as indentation or
/// chomping, and the text has no characters that a block cannot hold.
fn literal_block_ok(text: &str) -> bool {
    text.contains('\n')
        && !text.starts_with([' ', '\t', '\n'])
        && !text.ends_with([' ', '\t', '\n'])
        && !text.contains(" \n")
        && !text.contains('\r')
        && !text.chars().any(|c| c.is_control() && c != '\n')
}

/// Plain when unmistakably a string, double-quoted otherwise.
fn scalar(text: &str) -> String {
    if plain_ok(text) {
        text.to_string()
    } else {
        quoted(text)
    }
}

/// Plain scalars are limited to words, spaces and a little punctuation that YAML gives no
/// meaning inside a scalar, and to words that no YAML version reads as a boolean, null or
/// number.
fn plain_ok(text: &str) -> bool {
    const SPECIAL: &[&str] = &[
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "nan", "inf",
    ];
    let Some(first) = text.chars().next() else {
        return false;
    };
    first.is_ascii_alphabetic()
        && !text.ends_with(' ')
        && !text.contains("  ")
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ' ' | '.' | ',' | '(' | ')' | '/' | '-' | '+' | ';'))
        && !SPECIAL.contains(&text.to_ascii_lowercase().as_str())
        // `.inf`-like and `1e3`-like forms start with a dot or digit; a leading letter is
        // never a number, so only the special words above remain.
        && text.parse::<f64>().is_err()
}

/// A double-quoted YAML string.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_words_are_quoted() {
        for word in ["NO", "on", "Yes", "null", "true", "Off", "y", "N"] {
            assert_eq!(scalar(word), format!("\"{word}\""));
        }
        assert_eq!(scalar("ENABLE"), "ENABLE");
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("# not a comment"), "\"# not a comment\"");
        assert_eq!(quoted("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
    }

    /// The first spellings (`w1c`, `w1s`, `rc`) read as their SystemRDL names, and the
    /// writer writes the canonical name, which reads back the same.
    #[test]
    fn side_effect_aliases_read_as_the_canonical_names() {
        use crate::model::SideEffect;
        let spec = |w1c: &str, w1s: &str, rc: &str| {
            format!(
                "device: {{ name: d }}\nblocks:\n  - name: b\n    offset: 0\n    size: 0x10\n    \
                 registers:\n      - {{ name: R, offset: 0, width: 32, access: rw, fields: [\
                 {{ name: A, bits: 0, side_effect: {w1c} }}, {{ name: B, bits: 1, side_effect: \
                 {w1s} }}, {{ name: C, bits: 2, side_effect: {rc} }}] }}\n"
            )
        };
        let old = crate::parse_str(&spec("w1c", "w1s", "rc")).expect("aliases are accepted");
        let new = crate::parse_str(&spec("woclr", "woset", "rclr")).expect("canonical names");
        assert_eq!(old, new);
        let effects: Vec<_> = new.blocks[0].registers[0]
            .fields
            .iter()
            .map(|f| f.side_effect.map(|s| *s))
            .collect();
        assert_eq!(
            effects,
            [
                Some(SideEffect::WriteOneToClear),
                Some(SideEffect::WriteOneToSet),
                Some(SideEffect::ReadToClear)
            ]
        );
        let text = write(&old, "aliases");
        assert!(
            text.contains("side_effect: woclr") && !text.contains("w1c"),
            "{text}"
        );
        for effect in SideEffect::ALL {
            assert_eq!(SideEffect::from_keyword(effect.keyword()), Some(effect));
        }
    }

    /// A field's `reset: index` and `reset: strap` are written and read back.
    #[test]
    fn a_field_s_reset_from_survives_writing() {
        let text = "device: { name: d }\nblocks:\n  - name: b\n    offset: 0\n    size: 0x100\n    \
                    count: 2\n    registers:\n      - { name: R, offset: 0, width: 32, access: ro, \
                    reset: 0x100, fields: [{ name: I, bits: \"3:0\", reset: index }, \
                    { name: S, bits: \"7:4\", reset: strap }, { name: K, bits: 8 }] }\n";
        let device = crate::parse_str(text).expect("valid");
        let written = write(&device, "resets");
        assert!(
            written.contains("reset: index") && written.contains("reset: strap"),
            "{written}"
        );
        assert_eq!(crate::parse_str(&written).expect("reads back"), device);
    }
}
