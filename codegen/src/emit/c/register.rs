//! One register's part of the header: its offset, reset value and array shape, each field's
//! shift, width, mask and enumerated values, and the pointer, read, write and field helpers.

use std::fmt;

use super::{Header, Literal, count, unsigned};
use crate::model::{Block, Device, Field, Register, SideEffect};
use crate::names;

/// How a register's identifiers are spelled.
pub(super) struct Names<'a> {
    pub(super) block: &'a Block,
    pub(super) reg: &'a Register,
    /// `GBA_GROUP_CONTROL`: prefix of the register's macros.
    pub(super) upper: String,
    /// `gba_group_control`: prefix of its functions.
    pub(super) lower: String,
    /// `gba_group_base`: the block instance's base function.
    block_base: String,
}

impl<'a> Names<'a> {
    pub(super) fn new(device: &Device, block: &'a Block, reg: &'a Register) -> Self {
        let path = |case: fn(&str) -> String| {
            format!(
                "{}_{}_{}",
                case(&device.name),
                case(&block.name),
                case(&reg.name)
            )
        };
        Names {
            block,
            reg,
            upper: path(names::upper),
            lower: path(names::lower),
            block_base: format!(
                "{}_{}_base",
                names::lower(&device.name),
                names::lower(&block.name)
            ),
        }
    }

    /// `uint8_t` … `uint64_t`.
    fn ty(&self) -> Uint {
        Uint(*self.reg.width)
    }

    /// A value of this register as a literal of its width.
    pub(super) fn literal(&self, value: u64) -> Literal {
        unsigned(value, *self.reg.width)
    }
}

/// The C type `uint<N>_t`, formatted only when displayed.
#[derive(Clone, Copy)]
struct Uint(u32);

impl fmt::Display for Uint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "uint{}_t", self.0)
    }
}

pub(super) fn items(h: &mut Header, n: &Names<'_>) {
    let reg = n.reg;
    let loc = reg.name.loc;
    if !h.names_only {
        summary(h, n);
    }
    h.define(
        format!("{}_OFFSET", n.upper),
        unsigned(*reg.offset, 32),
        loc,
    );
    h.define(
        format!("{}_RESET_VALUE", n.upper),
        n.literal(*reg.reset),
        loc,
    );
    if reg.access_pieces() > 1 {
        h.define(format!("{}_ACCESS_WIDTH", n.upper), reg.access_bits(), loc);
    }
    if reg.reads_until_stable() {
        h.define(format!("{}_READS_UNTIL_STABLE", n.upper), "1", loc);
    }
    if crate::emit::reset_note(reg).is_some() {
        h.define(
            format!("{}_RESET_FIXED_MASK", n.upper),
            n.literal(reg.fixed_reset_mask()),
            loc,
        );
    }
    let write_one = reg.write_one_mask();
    if write_one != 0 {
        h.comment(
            "",
            format_args!(
                "Bits of {} that act when written as 1 (write-1-to-clear, -set, -toggle, single \
                 pulses): clear them in a value read back before writing it.",
                *reg.name
            ),
        );
        h.define(format!("{}_W1_MASK", n.upper), n.literal(write_one), loc);
    }
    let write_zero = reg.write_zero_mask();
    if write_zero != 0 {
        h.comment(
            "",
            format_args!(
                "Bits of {} that act when written as 0 (write-0-to-clear, -set, -toggle): set \
                 them in a value read back before writing it.",
                *reg.name
            ),
        );
        h.define(format!("{}_W0_MASK", n.upper), n.literal(write_zero), loc);
    }
    if let Some(array) = &reg.array {
        h.define(format!("{}_COUNT", n.upper), count(*array.count), loc);
        h.define(
            format!("{}_STRIDE", n.upper),
            unsigned(*array.stride, 32),
            loc,
        );
    }
    h.line("");
    for field in &reg.fields {
        field_macros(h, n, field);
    }
    accessors(h, n);
    for field in &reg.fields {
        field_helpers(h, n, field);
    }
}

/// The comment above the register's items (left out when only names are collected: it is
/// most of the text).
fn summary(h: &mut Header, n: &Names<'_>) {
    let reg = n.reg;
    let mut summary = format!(
        "{}.{}: {}\n\n{}-bit, {}, reset {:#x}.",
        *n.block.name,
        *reg.name,
        reg.description.trim(),
        *reg.width,
        reg.access.keyword(),
        *reg.reset
    );
    if let Some(of) = &reg.alternate_of {
        summary.push_str(&format!(
            " An alternate view of the bytes of {} (it overlaps them).",
            of.value
        ));
    }
    if let Some(lock) = &reg.lock {
        summary.push_str(&format!(
            " Writes are ignored while {}.{} is {} (read it before writing).",
            *lock.register,
            *lock.field,
            u8::from(lock.locked_when)
        ));
    }
    if let Some(array) = &reg.array {
        summary.push_str(&format!(
            " An array of {} elements, {:#x} bytes apart.",
            *array.count, *array.stride
        ));
    }
    if reg.reads_until_stable() {
        summary.push_str(&format!(
            " Accessed as 2 {bits}-bit pieces ({upper}_ACCESS_WIDTH, {upper}_READS_UNTIL_STABLE): \
             _read reads the high piece, the low piece and the high piece again, the last two \
             repeated until two high reads agree (a free-running counter without a latch: the \
             high piece changes once per wrap of the low one, so at most one retry){write}; \
             bits {top}:0 are at the register's offset; never dereference _ptr whole.",
            bits = reg.access_bits(),
            upper = n.upper,
            top = reg.access_bits() - 1,
            write = if reg.access.is_writable() {
                format!(
                    "; _write makes 2 {}-bit accesses, least significant piece first",
                    reg.access_bits()
                )
            } else {
                String::new()
            },
        ));
    } else if reg.access_pieces() > 1 {
        summary.push_str(&format!(
            " Accessed as {pieces} {bits}-bit pieces ({upper}_ACCESS_WIDTH): _read and _write make \
             {pieces} {bits}-bit accesses, least significant piece first, at increasing addresses \
             (bits {top}:0 at the register's offset); never dereference _ptr whole. Another agent \
             may change the register between the pieces unless the hardware buffers them.",
            pieces = reg.access_pieces(),
            bits = reg.access_bits(),
            upper = n.upper,
            top = reg.access_bits() - 1,
        ));
    }
    if let Some(note) = crate::emit::reset_note(reg) {
        summary.push_str(&format!(
            " {note} {}_RESET_FIXED_MASK: the bits whose reset every element and instance \
             shares.",
            n.upper
        ));
    }
    h.comment("", &summary);
}

fn field_macros(h: &mut Header, n: &Names<'_>, field: &Field) {
    let prefix = format!("{}_{}", n.upper, names::upper(&field.name));
    let loc = field.name.loc;
    if !h.names_only {
        let mut summary = format!(
            "{} {}, {}",
            *field.name,
            *field.bits,
            field.effective_access(n.reg).keyword()
        );
        if field.write_once {
            summary.push_str(", write-once (the first write after reset latches it)");
        }
        if field.is_msb0() {
            summary.push_str(&format!(
                ", msb0 (bit {} holds the value's most significant bit: _get and _set reverse \
                 the bits; the values below are values, not bits)",
                field.bits.lsb
            ));
        }
        if let Some(effect) = field.side_effect {
            summary.push_str(&format!(" ({})", effect_text(*effect)));
        }
        summary.push_str(&format!(": {}", field.description.trim()));
        h.comment("", &summary);
    }
    h.define(format!("{prefix}_SHIFT"), field.bits.lsb, loc);
    h.define(format!("{prefix}_WIDTH"), field.bits.width(), loc);
    h.define(format!("{prefix}_MASK"), n.literal(field.bits.mask()), loc);
    if field.is_msb0() {
        h.define(format!("{prefix}_MSB0"), "1", loc);
    }
    for value in &field.values {
        h.comment("", &value.description);
        h.define(
            format!("{prefix}_{}", names::upper(&value.name)),
            n.literal(*value.value),
            value.name.loc,
        );
    }
    // The values a write takes where they differ from the read ones (a name in both lists
    // names one number, so it is defined once).
    for value in field.write_values.iter().filter(|w| {
        !field
            .values
            .iter()
            .any(|v| names::clash_key(&v.name) == names::clash_key(&w.name))
    }) {
        h.comment("", format_args!("For writing. {}", value.description));
        h.define(
            format!("{prefix}_{}", names::upper(&value.name)),
            n.literal(*value.value),
            value.name.loc,
        );
    }
    h.line("");
}

/// What a read does to the fields that a read modifies (`ruser`, `rext`), for the read
/// accessor's comment; empty when none does.
fn read_modifies_note(reg: &Register) -> String {
    let names: Vec<&str> = reg
        .fields
        .iter()
        .filter(|f| {
            f.side_effect.is_some_and(|s| {
                matches!(*s, SideEffect::ReadModify | SideEffect::ReadModifyExternal)
            })
        })
        .map(|f| f.name.as_str())
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(
            " Has a side effect: reading changes the device ({}); read it only to consume it.",
            names.join(", ")
        )
    }
}

fn effect_text(effect: SideEffect) -> &'static str {
    effect.text()
}

fn accessors(h: &mut Header, n: &Names<'_>) {
    let reg = n.reg;
    let loc = reg.name.loc;
    let ty = n.ty();
    let mut params = String::from("volatile void *base");
    let mut args = String::from("base");
    let mut block_args = String::from("base");
    if n.block.array.is_some() {
        params.push_str(", uint32_t instance");
        args.push_str(", instance");
        block_args.push_str(", instance");
    }
    let mut address = format!(
        "(volatile uint8_t *){}({block_args}) + {}_OFFSET",
        n.block_base, n.upper
    );
    if reg.array.is_some() {
        params.push_str(", uint32_t index");
        args.push_str(", index");
        address.push_str(&format!(" + (size_t)index * {}_STRIDE", n.upper));
    }

    h.comment("", format_args!("The address of {}.", *reg.name));
    h.function(
        format!("{}_ptr", n.lower),
        loc,
        format_args!("volatile {ty} *"),
        &params,
        || format!("return (volatile {ty} *)({address});"),
    );
    if reg.access.is_readable() {
        let has = |e: SideEffect| {
            reg.fields
                .iter()
                .any(|f| f.side_effect.is_some_and(|s| *s == e))
        };
        let effect = match (has(SideEffect::ReadToClear), has(SideEffect::ReadToSet)) {
            (true, true) => " Clears the read-to-clear fields and sets the read-to-set ones.",
            (true, false) => " Clears the read-to-clear fields.",
            (false, true) => " Sets the read-to-set fields.",
            (false, false) => "",
        };
        if !h.names_only {
            let note = read_modifies_note(reg);
            h.comment("", format_args!("Reads {}.{effect}{note}", *reg.name));
        }
        h.function(
            format!("{}_read", n.lower),
            loc,
            ty,
            &params,
            || match split_pieces(n) {
                None => format!("return *{}_ptr({args});", n.lower),
                Some((piece, _)) if reg.reads_until_stable() => format!(
                    "volatile {piece} *piece = (volatile {piece} *){}_ptr({args});\n\
                     {piece} high = piece[1];\n\
                     for (;;) {{\n\
                     \x20   {piece} low = piece[0];\n\
                     \x20   {piece} again = piece[1];\n\
                     \x20   if (again == high)\n\
                     \x20       return (({ty})high << {bits}) | low;\n\
                     \x20   high = again;\n\
                     }}",
                    n.lower,
                    bits = reg.access_bits(),
                ),
                Some((piece, parts)) => {
                    let mut body = format!(
                        "volatile {piece} *piece = (volatile {piece} *){}_ptr({args});\n\
                         {ty} value = 0;\n",
                        n.lower
                    );
                    for (i, shift) in parts.iter().enumerate() {
                        body.push_str(&format!("value |= ({ty})piece[{i}] << {shift};\n"));
                    }
                    body.push_str("return value;");
                    body
                }
            },
        );
    }
    if reg.access.is_writable() {
        write_accessor(h, n, &params, &args);
    }
}

fn write_accessor(h: &mut Header, n: &Names<'_>, params: &str, args: &str) {
    let reg = n.reg;
    let ty = n.ty();
    if !h.names_only {
        let mut caution = String::new();
        if reg.write_one_mask() != 0 {
            caution.push_str(&format!(
                " Bits {}_W1_MASK act when written as 1: clear them in a value read back \
                 before writing it.",
                n.upper
            ));
        }
        if reg.write_zero_mask() != 0 {
            caution.push_str(&format!(
                " Bits {}_W0_MASK act when written as 0: set them in a value read back \
                 before writing it.",
                n.upper
            ));
        }
        h.comment("", format_args!("Writes {}.{caution}", *reg.name));
    }
    h.function(
        format!("{}_write", n.lower),
        reg.name.loc,
        "void",
        format_args!("{params}, {ty} value"),
        || match split_pieces(n) {
            None => format!("*{}_ptr({args}) = value;", n.lower),
            Some((piece, parts)) => {
                let mut body = format!(
                    "volatile {piece} *piece = (volatile {piece} *){}_ptr({args});",
                    n.lower
                );
                for (i, shift) in parts.iter().enumerate() {
                    body.push_str(&format!("\npiece[{i}] = ({piece})(value >> {shift});"));
                }
                body
            }
        },
    );
}

/// For a register wider than its bus access: the C type of one piece and each piece's shift,
/// least significant first (the order `_read` and `_write` access them in).
fn split_pieces(n: &Names<'_>) -> Option<(String, Vec<u32>)> {
    let reg = n.reg;
    (reg.access_pieces() > 1).then(|| {
        let bits = reg.access_bits();
        (
            format!("uint{bits}_t"),
            (0..reg.access_pieces()).map(|i| i * bits).collect(),
        )
    })
}

fn field_helpers(h: &mut Header, n: &Names<'_>, field: &Field) {
    let ty = n.ty();
    let prefix = format!("{}_{}", n.upper, names::upper(&field.name));
    let function = format!("{}_{}", n.lower, names::lower(&field.name));
    let access = field.effective_access(n.reg);
    // Narrow registers promote to `int`; shifting in the field's own width keeps the
    // arithmetic unsigned and avoids undefined signed overflow.
    let wide = if *n.reg.width > 32 {
        "uint64_t"
    } else {
        "uint32_t"
    };
    if access.is_readable() {
        if field.is_msb0() {
            h.comment(
                "",
                format_args!(
                    "Field {} of a {} value: its bits reversed (msb0: bit {} holds the value's \
                     most significant bit).",
                    *field.name, *n.reg.name, field.bits.lsb
                ),
            );
        } else {
            h.comment(
                "",
                format_args!("Field {} of a {} value.", *field.name, *n.reg.name),
            );
        }
        h.function(
            format!("{function}_get"),
            field.name.loc,
            ty,
            format_args!("{ty} value"),
            || {
                if field.is_msb0() {
                    format!(
                        "{wide} bits = (value & {prefix}_MASK) >> {prefix}_SHIFT;\n\
                         {wide} field = 0;\n\
                         for (unsigned i = 0; i < {prefix}_WIDTH; i++)\n\
                         \x20   field |= ((bits >> i) & 1U) << ({prefix}_WIDTH - 1U - i);\n\
                         return ({ty})field;"
                    )
                } else {
                    format!("return ({ty})((value & {prefix}_MASK) >> {prefix}_SHIFT);")
                }
            },
        );
    }
    if !field.values.is_empty() {
        value_texts(h, n, field, &prefix, &function);
    }
    if access.is_writable() {
        if field.is_msb0() {
            h.comment(
                "",
                format_args!(
                    "`value` with field {} replaced by `field` (its excess bits dropped), its \
                     bits reversed into the field (msb0).",
                    *field.name
                ),
            );
        } else {
            h.comment(
                "",
                format_args!(
                    "`value` with field {} replaced by `field` (its excess bits dropped).",
                    *field.name
                ),
            );
        }
        h.function(
            format!("{function}_set"),
            field.name.loc,
            ty,
            format_args!("{ty} value, {ty} field"),
            || {
                if field.is_msb0() {
                    format!(
                        "{wide} bits = 0;\n\
                         for (unsigned i = 0; i < {prefix}_WIDTH; i++)\n\
                         \x20   bits |= ((({wide})field >> i) & 1U) << ({prefix}_WIDTH - 1U - i);\n\
                         return ({ty})((value & ~{prefix}_MASK) | ((bits << {prefix}_SHIFT) & {prefix}_MASK));"
                    )
                } else {
                    format!(
                        "return ({ty})((value & ~{prefix}_MASK) | \
                         ((({wide})field << {prefix}_SHIFT) & {prefix}_MASK));"
                    )
                }
            },
        );
    }
}

/// `<field>_name(value)` and `<field>_description(value)`: the spec's name and description of
/// each enumerated value, so that C messages use the spec's words ("" for an unnamed value).
fn value_texts(h: &mut Header, n: &Names<'_>, field: &Field, prefix: &str, function: &str) {
    let ty = n.ty();
    let switch = |text: &dyn Fn(&crate::model::EnumValue) -> String| {
        let mut body = String::from("switch (value) {\n");
        for value in &field.values {
            body.push_str(&format!(
                "case {prefix}_{}: return \"{}\";\n",
                names::upper(&value.name),
                c_string(&text(value))
            ));
        }
        body.push_str("default: return \"\";\n}");
        body
    };
    h.comment(
        "",
        format_args!("The spec's name of a value of field {}.", *field.name),
    );
    h.function(
        format!("{function}_name"),
        field.name.loc,
        "const char *",
        format_args!("{ty} value"),
        || switch(&|v| names::upper(&v.name)),
    );
    h.comment(
        "",
        format_args!(
            "The spec's description of a value of field {}, on one line.",
            *field.name
        ),
    );
    h.function(
        format!("{function}_description"),
        field.name.loc,
        "const char *",
        format_args!("{ty} value"),
        || {
            switch(&|v| {
                v.description
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        },
    );
}

/// `text` inside a C string literal: quotes and backslashes escaped, `?` escaped so that no
/// trigraph forms.
fn c_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '"' | '?' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}
