//! SystemRDL 2.0 (`<device>.rdl`), for hardware flows (PeakRDL and the like).
//!
//! Mapping: the device is the root `addrmap` (its type name is the device's name); a block
//! a child `addrmap` at its offset, a block array an `addrmap` array (`name[count] @ offset
//! += stride`); a register a `reg` (`regwidth`, and
//! `accesswidth` when its bus access is narrower), a register array a `reg` array; a field a
//! `field` with `sw`, its part of the register's reset value, `onwrite`/`onread` for its side
//! effect (`crate::interchange::EFFECTS`) or `singlepulse`, and an `enum` (`encode`) for its
//! values (an msb0 field is written low index first, `TOP[0:3]`, and its reset is its value,
//! the register's bits reversed); a write lock is `swwel` (`locked_by`) or `swwe` (`write_enable`) on each
//! writable field of the locked register, a reference to the lock bit; a strapped field
//! (`reset: strap`) resets from a `signal` of its register, `gba_strap_<FIELD>`.
//!
//! SystemRDL has no place for the rest, so user-defined properties declared at the top of the
//! file carry it (`crate::interchange::udp`): the version, the constants, a block's size, the
//! spec's access where the fields do not say it, reset bits outside every field, a field that
//! resets to its element's index (`gba_reset_from`: no native form), a stand-in
//! field for a register without fields, and alternate views. SystemRDL lets registers
//! overlap only when one is read-only and the other write-only, and address maps only under a
//! `bridge` root: so a device with alternates is a `bridge`, and each alternate register is
//! emitted in an address map of its own (`gba_view_of`) at its block's offset.

use std::fmt::Write;

use super::{GeneratedFile, Place, Provenance};
use crate::Validated;
use crate::interchange::{self, udp};
use crate::model::{Block, Device, Field, Register, ResetFrom};

pub fn files(device: &Validated, provenance: &Provenance) -> Vec<GeneratedFile> {
    vec![GeneratedFile {
        place: Place::Crate,
        path: format!("{}.rdl", crate::names::lower(&device.name)),
        contents: render(device, provenance),
    }]
}

/// SystemRDL 2.0's keywords: a name that is one is written escaped (`\field`), which the
/// language reads as the plain name.
const KEYWORDS: &[&str] = &[
    "abstract",
    "accesstype",
    "addressingtype",
    "addrmap",
    "alias",
    "all",
    "bit",
    "boolean",
    "bothedge",
    "compact",
    "component",
    "componentwidth",
    "constraint",
    "default",
    "encode",
    "enum",
    "external",
    "false",
    "field",
    "fullalign",
    "hw",
    "inside",
    "internal",
    "level",
    "longint",
    "mem",
    "na",
    "negedge",
    "nonsticky",
    "number",
    "onreadtype",
    "onwritetype",
    "posedge",
    "property",
    "r",
    "rclr",
    "ref",
    "reg",
    "regalign",
    "regfile",
    "rset",
    "ruser",
    "rw",
    "rw1",
    "signal",
    "string",
    "struct",
    "sw",
    "this",
    "true",
    "type",
    "unsigned",
    "w",
    "w1",
    "wclr",
    "woclr",
    "woset",
    "wot",
    "wr",
    "wset",
    "wuser",
    "wzc",
    "wzs",
    "wzt",
];

fn ident(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("\\{name}")
    } else {
        name.to_string()
    }
}

/// A string literal: `\\` and `\"` are the escapes systemrdl-compiler reads back (and its
/// preprocessor needs a lone backslash doubled to see where the string ends).
fn string(text: &str) -> String {
    format!(
        "\"{}\"",
        super::text::xml(text)
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
    )
}

/// The declarations of the device-level properties that carry the spec's interrupts, core
/// and fixed address, when the device has any (so that other files stay as they were).
/// A read that modifies (`ruser`, `rext`): written as our property [`udp::ONREAD`], since
/// SystemRDL's `onread = ruser` needs an `external` register.
fn read_modifies(effect: crate::model::SideEffect) -> bool {
    use crate::model::SideEffect;
    matches!(
        effect,
        SideEffect::ReadModify | SideEffect::ReadModifyExternal
    )
}

/// The declaration of [`udp::ONREAD`], when a field of the device needs it.
fn read_effect_property(device: &Device) -> String {
    let used = device.blocks.iter().any(|b| {
        b.registers.iter().any(|r| {
            r.fields
                .iter()
                .any(|f| f.side_effect.is_some_and(|e| read_modifies(*e)))
        })
    });
    if used {
        format!(
            "property {} {{ type = string; component = field; }};\n\n",
            udp::ONREAD
        )
    } else {
        String::new()
    }
}

fn interrupt_properties(device: &Device) -> String {
    let mut out = String::new();
    if !device.interrupts.is_empty() {
        out.push_str(&format!(
            "struct {s} {{ string name; longint unsigned value; string desc; string block; \
             longint unsigned index; boolean indexed; }};\n\
             property {p} {{ type = {s}[]; component = addrmap; }};\n",
            s = udp::INTERRUPT_STRUCT,
            p = udp::INTERRUPTS,
        ));
    }
    if device.cpu.is_some() {
        out.push_str(&format!(
            "property {} {{ type = string; component = addrmap; }};\n\
             property {} {{ type = longint unsigned; component = addrmap; }};\n",
            udp::CPU,
            udp::NVIC_PRIO_BITS
        ));
    }
    if device.address.is_some() {
        out.push_str(&format!(
            "property {} {{ type = longint unsigned; component = addrmap; }};\n",
            udp::ADDRESS
        ));
    }
    if device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .any(|r| r.access_pieces() > 1 && r.split_read.is_some())
    {
        out.push_str(&format!(
            "property {} {{ type = string; component = reg; }};\n",
            udp::SPLIT_READ
        ));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The values of those properties in the device's address map.
fn interrupt_values(device: &Device) -> String {
    let mut out = String::new();
    if !device.interrupts.is_empty() {
        let _ = writeln!(out, "    {} = '{{", udp::INTERRUPTS);
        for (i, irq) in device.interrupts.iter().enumerate() {
            let comma = if i + 1 < device.interrupts.len() {
                ","
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "        {}'{{name:{}, value:{}, desc:{}, block:{}, index:{}, indexed:{}}}{comma}",
                udp::INTERRUPT_STRUCT,
                string(&irq.name),
                *irq.number,
                string(&irq.description),
                string(irq.block.as_deref().map_or("", String::as_str)),
                irq.index.as_deref().copied().unwrap_or(0),
                irq.index.is_some()
            );
        }
        out.push_str("    };\n");
    }
    if let Some(cpu) = &device.cpu {
        let _ = writeln!(out, "    {} = {};", udp::CPU, string(&cpu.name));
        if let Some(bits) = &cpu.nvic_prio_bits {
            let _ = writeln!(out, "    {} = {};", udp::NVIC_PRIO_BITS, **bits);
        }
    }
    if let Some(address) = &device.address {
        let _ = writeln!(out, "    {} = {:#x};", udp::ADDRESS, **address);
    }
    out
}

fn desc(out: &mut String, indent: usize, text: &str) {
    if !text.is_empty() {
        let _ = writeln!(out, "{:indent$}desc = {};", "", string(text));
    }
}

/// The device as one SystemRDL 2.0 `addrmap` (the text of `<device>.rdl`), starting with
/// the preamble. What SystemRDL cannot carry (single pulses, the write locks of alternate
/// views) is left out: [`warnings`](super::warnings) lists it.
pub fn render(device: &Device, provenance: &Provenance) -> String {
    let mut out = provenance.preamble("//");
    out.push_str(&format!(
        "\n// User-defined properties for what SystemRDL has no place for (gba-codegen).\n\
         property {v} {{ type = string; component = addrmap; }};\n\
         struct {s} {{ string name; longint unsigned value; string desc; }};\n\
         property {c} {{ type = {s}[]; component = addrmap; }};\n\
         property {size} {{ type = longint unsigned; component = addrmap; }};\n\
         property {alt} {{ type = string; component = addrmap | reg; }};\n\
         property {view} {{ type = string; component = addrmap; }};\n\
         property {pos} {{ type = longint unsigned; component = addrmap | reg | field; }};\n\
         property {acc} {{ type = string; component = reg | field; }};\n\
         property {reset} {{ type = longint unsigned; component = reg; }};\n\
         property {imp} {{ type = boolean; component = reg | field; }};\n\
         property {rf} {{ type = string; component = field; }};\n\
         struct {el}_t {{ string array; longint unsigned index; longint unsigned count; longint unsigned stride; }};\n\
         property {el} {{ type = {el}_t; component = reg; }};\n\n",
        el = udp::ELEMENT,
        v = udp::VERSION,
        s = udp::CONSTANT_STRUCT,
        c = udp::CONSTANTS,
        size = udp::SIZE,
        alt = udp::ALTERNATE_OF,
        view = udp::VIEW_OF,
        pos = udp::POSITION,
        acc = udp::ACCESS,
        reset = udp::RESET,
        imp = udp::IMPLICIT,
        rf = udp::RESET_FROM,
    ));
    out.push_str(&interrupt_properties(device));
    out.push_str(&read_effect_property(device));
    let _ = writeln!(out, "addrmap {} {{", ident(&device.name));
    let has_alternates = device
        .blocks
        .iter()
        .any(|b| b.alternate_of.is_some() || b.registers.iter().any(|r| r.alternate_of.is_some()));
    if has_alternates {
        out.push_str("    bridge;\n");
    }
    desc(&mut out, 4, &device.description);
    let _ = writeln!(out, "    {} = {};", udp::VERSION, string(&device.version));
    if !device.constants.is_empty() {
        let _ = writeln!(out, "    {} = '{{", udp::CONSTANTS);
        for (i, c) in device.constants.iter().enumerate() {
            let comma = if i + 1 < device.constants.len() {
                ","
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "        {}'{{name:{}, value:{:#x}, desc:{}}}{comma}",
                udp::CONSTANT_STRUCT,
                string(&c.name),
                *c.value,
                string(&c.description)
            );
        }
        out.push_str("    };\n");
    }
    out.push_str(&interrupt_values(device));
    let primaries: Vec<&Block> = device
        .blocks
        .iter()
        .filter(|b| b.alternate_of.is_none())
        .collect();
    let placed = interchange::out_of_order(&primaries, |b| *b.offset);
    for (position, block) in device.blocks.iter().enumerate() {
        out.push('\n');
        write_block(&mut out, block, position, placed);
    }
    out.push_str("};\n");
    out
}

/// `name[count] @ offset += stride` (or `name @ offset`).
fn placement(name: &str, offset: u64, array: Option<&crate::model::Array>) -> String {
    match array {
        Some(a) => format!(
            "{}[{}] @ {offset:#x} += {:#x}",
            ident(name),
            *a.count,
            *a.stride
        ),
        None => format!("{} @ {offset:#x}", ident(name)),
    }
}

fn write_block(out: &mut String, block: &Block, position: usize, placed: bool) {
    out.push_str("    addrmap {\n");
    desc(out, 8, &block.description);
    let _ = writeln!(out, "        {} = {:#x};", udp::SIZE, *block.size);
    if let Some(of) = &block.alternate_of {
        let _ = writeln!(out, "        {} = {};", udp::ALTERNATE_OF, string(of));
    }
    if placed || block.alternate_of.is_some() {
        let _ = writeln!(out, "        {} = {position};", udp::POSITION);
    }
    let primaries: Vec<&Register> = block
        .registers
        .iter()
        .filter(|r| r.alternate_of.is_none())
        .collect();
    let placed = interchange::out_of_order(&primaries, |r| *r.offset);
    if primaries.is_empty() {
        // SystemRDL needs a child in every address map: a stand-in register.
        let _ = writeln!(
            out,
            "        reg {{ {imp} = true; field {{ sw = r; {imp} = true; }} VALUE[7:0] = 0; }} gba_empty @ 0x0;",
            imp = udp::IMPLICIT
        );
    }
    for (position, register) in block.registers.iter().enumerate() {
        if register.alternate_of.is_some() {
            continue;
        }
        let position = placed.then_some(position);
        if interchange::interleaved(block, register) {
            write_elements(out, register, position);
        } else {
            write_register(out, 8, register, position);
        }
    }
    write_locks(out, block);
    let _ = writeln!(
        out,
        "    }} {};",
        placement(&block.name, *block.offset, block.array.as_ref())
    );
    for (position, register) in block.registers.iter().enumerate() {
        if register.alternate_of.is_none() {
            continue;
        }
        out.push_str("    addrmap {\n");
        let _ = writeln!(out, "        {} = {};", udp::VIEW_OF, string(&block.name));
        write_register(out, 8, register, Some(position));
        let _ = writeln!(
            out,
            "    }} {};",
            placement(
                &format!("{}__{}", *block.name, *register.name),
                *block.offset,
                block.array.as_ref()
            )
        );
    }
}

/// The block's write locks, after its registers: SystemRDL resolves a reference to another
/// register only in the address map that holds both, so each locked field gets its `swwel`
/// (`locked_by`) or `swwe` (`write_enable`) by a dynamic assignment here
/// (`REG.FIELD->swwel = LOCK.BIT;`), which a register array's elements all take. A lock the
/// formats cannot carry is left out, as validation warned (`interchange::check`).
fn write_locks(out: &mut String, block: &Block) {
    for register in &block.registers {
        let Some(lock) = &register.lock else { continue };
        if !interchange::lock_carried(block, register) {
            continue;
        }
        let names: Vec<String> = if interchange::interleaved(block, register) {
            (0..register.array.as_ref().map_or(1, |a| *a.count))
                .map(|i| format!("{}_{i}", *register.name))
                .collect()
        } else {
            vec![register.name.to_string()]
        };
        for name in &names {
            for field in interchange::locked_fields(register) {
                let _ = writeln!(
                    out,
                    "        {}.{}->{} = {}.{};",
                    ident(name),
                    ident(field),
                    interchange::lock_property(lock),
                    ident(&lock.register),
                    ident(&lock.field)
                );
            }
        }
    }
}

/// An interleaved register array, one register per element (`NAME_0`, `NAME_1`, …), each
/// marked with `udp::ELEMENT`.
fn write_elements(out: &mut String, register: &Register, position: Option<usize>) {
    let Some(array) = &register.array else {
        return write_register(out, 8, register, position);
    };
    for (index, offset) in register.element_offsets().enumerate() {
        let element = Register {
            name: crate::location::Located::synthetic(format!("{}_{index}", *register.name)),
            offset: crate::location::Located::synthetic(offset),
            array: None,
            ..register.clone()
        };
        write_register_as(
            out,
            8,
            &element,
            position,
            Some((&register.name, index, *array.count, *array.stride)),
        );
    }
}

fn write_register(out: &mut String, indent: usize, register: &Register, position: Option<usize>) {
    write_register_as(out, indent, register, position, None);
}

fn write_register_as(
    out: &mut String,
    indent: usize,
    register: &Register,
    position: Option<usize>,
    element: Option<(&str, usize, u64, u64)>,
) {
    let pad = " ".repeat(indent);
    // `external`: the block routes the register's accesses to logic outside it.
    let external = if register.hardware.external {
        "external "
    } else {
        ""
    };
    let _ = writeln!(out, "{pad}{external}reg {{");
    let inner = indent + 4;
    let _ = writeln!(out, "{pad}    regwidth = {};", *register.width);
    if register.access_pieces() > 1 {
        let _ = writeln!(out, "{pad}    accesswidth = {};", register.access_bits());
        if let Some(protocol) = &register.split_read {
            let _ = writeln!(
                out,
                "{pad}    {} = {};",
                udp::SPLIT_READ,
                string(protocol.keyword())
            );
        }
    }
    desc(out, inner, &register.description);
    let _ = writeln!(
        out,
        "{pad}    {} = {};",
        udp::ACCESS,
        string(register.access.keyword())
    );
    let field_bits = register.fields.iter().fold(0, |m, f| m | f.bits.mask());
    if *register.reset & !field_bits != 0 && !register.fields.is_empty() {
        let _ = writeln!(out, "{pad}    {} = {:#x};", udp::RESET, *register.reset);
    }
    if let Some(of) = &register.alternate_of {
        let _ = writeln!(out, "{pad}    {} = {};", udp::ALTERNATE_OF, string(of));
    }
    if let Some(position) = position {
        let _ = writeln!(out, "{pad}    {} = {position};", udp::POSITION);
    }
    if let Some((name, index, count, stride)) = element {
        let _ = writeln!(
            out,
            "{pad}    {el} = {el}_t'{{array:{}, index:{index}, count:{count}, stride:{stride:#x}}};",
            string(name),
            el = udp::ELEMENT
        );
    }
    if register.fields.is_empty() {
        let _ = writeln!(
            out,
            "{pad}    field {{ sw = {}; {} = true; }} VALUE[{}:0] = {:#x};",
            interchange::rdl_sw(*register.access),
            udp::IMPLICIT,
            *register.width - 1,
            *register.reset
        );
    }
    // A strapped field resets from a signal of its register (PeakRDL-regblock makes it an
    // input of the hardware interface).
    for field in &register.fields {
        if field.reset_from.is_some_and(|r| *r == ResetFrom::Strap) {
            let _ = writeln!(
                out,
                "{pad}    signal {{ signalwidth = {}; desc = {}; }} {}{};",
                field.bits.width(),
                string(&format!("The strapped reset value of {}.", *field.name)),
                udp::STRAP_PREFIX,
                *field.name
            );
        }
    }
    let placed = interchange::out_of_order(&register.fields, |f| u64::from(f.bits.lsb));
    for (position, field) in register.fields.iter().enumerate() {
        write_field(out, inner, register, field, placed.then_some(position));
    }
    let _ = writeln!(
        out,
        "{pad}}} {};",
        placement(&register.name, *register.offset, register.array.as_ref())
    );
}

fn write_field(
    out: &mut String,
    indent: usize,
    register: &Register,
    field: &Field,
    position: Option<usize>,
) {
    let pad = " ".repeat(indent);
    let _ = writeln!(out, "{pad}field {{");
    desc(out, indent + 4, &field.description);
    if let Some(position) = position {
        let _ = writeln!(out, "{pad}    {} = {position};", udp::POSITION);
    }
    if !field.values.is_empty() {
        let _ = writeln!(out, "{pad}    enum {}_e {{", *field.name);
        for value in &field.values {
            let body = if value.description.is_empty() {
                String::new()
            } else {
                format!(" {{ desc = {}; }}", string(&value.description))
            };
            let _ = writeln!(
                out,
                "{pad}        {} = {:#x}{body};",
                ident(&value.name),
                *value.value
            );
        }
        let _ = writeln!(out, "{pad}    }};");
        let _ = writeln!(out, "{pad}    encode = {}_e;", *field.name);
    }
    let _ = writeln!(
        out,
        "{pad}    sw = {};",
        interchange::rdl_field_sw(field.effective_access(register), field.write_once)
    );
    if let Some(hw) = &field.hardware.access {
        let _ = writeln!(out, "{pad}    hw = {};", hw.keyword());
    }
    for (property, set) in [
        ("swmod", field.hardware.swmod),
        ("swacc", field.hardware.swacc),
    ] {
        if set {
            let _ = writeln!(out, "{pad}    {property};");
        }
    }
    if let Some(access) = &field.access {
        let _ = writeln!(
            out,
            "{pad}    {} = {};",
            udp::ACCESS,
            string(access.keyword())
        );
    }
    if let Some(effect) = field.side_effect.filter(|e| read_modifies(**e)) {
        let _ = writeln!(
            out,
            "{pad}    {} = {};",
            udp::ONREAD,
            string(effect.keyword())
        );
    } else if let Some(effect) = field.side_effect {
        match interchange::spelling(*effect) {
            Some(s) => {
                let _ = writeln!(out, "{pad}    {} = {};", s.rdl_property, s.rdl_value);
            }
            None => {
                let _ = writeln!(out, "{pad}    {};", interchange::SINGLE_PULSE);
            }
        }
    }
    // A field's reset is its value: an msb0 field's bits reversed.
    let reset = field.value_of_bits((*register.reset & field.bits.mask()) >> field.bits.lsb);
    let reset = match field.reset_from.map(|r| *r) {
        None => format!(" = {reset:#x}"),
        Some(ResetFrom::Index) => {
            let _ = writeln!(out, "{pad}    {} = \"index\";", udp::RESET_FROM);
            format!(" = {reset:#x}")
        }
        Some(ResetFrom::Strap) => {
            let _ = writeln!(
                out,
                "{pad}    reset = {}{};",
                udp::STRAP_PREFIX,
                *field.name
            );
            String::new()
        }
        // SystemRDL's own "not reset": no `reset` at all.
        Some(ResetFrom::NotReset) => String::new(),
    };
    // msb0 is written as SystemRDL writes it, the range low index first (`TOP[0:3]`):
    // systemrdl-compiler elaborates it to `msb` at the low register bit.
    let (left, right) = if field.is_msb0() {
        (field.bits.lsb, field.bits.msb)
    } else {
        (field.bits.msb, field.bits.lsb)
    };
    let _ = writeln!(
        out,
        "{pad}}} {}[{left}:{right}]{reset};",
        ident(&field.name)
    );
}
