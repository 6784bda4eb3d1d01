//! A register's fields as a tock-registers `register_bitfields!` invocation, plus the
//! write-1 mask for registers whose `modify` must not write back write-1 bits.
//!
//! The invocation is written as text (prettyplease cannot lay out a macro body), so every
//! piece interpolated here is a validated identifier, a number, or a `///` comment line.

use std::fmt::Write;

use super::number;
use crate::model::{Field, Register};
use crate::names;

/// The `register_bitfields!` invocation for `register` (empty for a register without fields).
pub(super) fn register(register: &Register) -> String {
    if register.fields.is_empty() {
        return String::new();
    }
    let ty = format!("u{}", *register.width);
    let module = names::upper(&register.name);
    let mut out = format!("tock_registers::register_bitfields![{ty},\n");
    comment(
        &mut out,
        "    ",
        &format!("Fields of register `{}`.", *register.name),
    );
    let _ = writeln!(out, "    pub {module} [");
    for field in &register.fields {
        self::field(&mut out, field, register);
    }
    out.push_str("    ]\n];\n");
    // Only read-write registers get the masking `modify` that needs the mask.
    let mask = register.write_one_mask();
    if mask != 0 && *register.access == crate::model::Access::ReadWrite {
        let _ = write!(
            out,
            "\nimpl crate::common::WriteOneBits<{ty}> for {module}::Register {{\n    \
             const MASK: {ty} = {};\n}}\n",
            number(mask)
        );
    }
    out
}

fn field(out: &mut String, field: &Field, register: &Register) {
    let mut text = format!(
        "Bits {}, {}",
        *field.bits,
        field.effective_access(register).keyword()
    );
    if let Some(effect) = field.side_effect {
        let _ = write!(text, ", {}", effect.keyword());
    }
    text.push('.');
    if !field.description.trim().is_empty() {
        text = format!("{}\n\n{text}", field.description.trim());
    }
    comment(out, "        ", &text);
    let head = format!(
        "        {} OFFSET({}) NUMBITS({})",
        names::upper(&field.name),
        field.bits.lsb,
        field.bits.width()
    );
    if field.values.is_empty() {
        let _ = writeln!(out, "{head} [],");
        return;
    }
    let _ = writeln!(out, "{head} [");
    for value in &field.values {
        comment(out, "            ", &value.description);
        let _ = writeln!(
            out,
            "            {} = {},",
            names::upper(&value.name),
            number(*value.value)
        );
    }
    out.push_str("        ],\n");
}

/// `///` lines; a description's own line breaks are kept.
fn comment(out: &mut String, indent: &str, text: &str) {
    for line in text.trim_end().lines() {
        let line = line.trim_end();
        if line.is_empty() {
            let _ = writeln!(out, "{indent}///");
        } else {
            let _ = writeln!(out, "{indent}/// {line}");
        }
    }
}
