//! The C header (`include/<device>_regs.h`): offsets, masks, shifts, enumerated and reset
//! values, and `static inline` accessors over a `volatile void *` base.
//!
//! C has one flat namespace, so every identifier carries the device, block, register and
//! field names joined by `_` (`GBA_GROUP_CONTROL_RESET_MASK`, `gba_group_control_read`).
//! Joining can make two different paths spell the same identifier (block `a_b` register `c`
//! and block `a` register `b_c`); `identifiers` lets validation refuse such specs, and it
//! sees exactly what the header defines because both come from the same `Header` builder.
//!
//! The header targets C11 and compiles without warnings under
//! `-std=c11 -Wall -Wextra -Werror -pedantic` (the `c_header` test holds it to that).

mod interrupts;
mod register;
mod selftest;

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write as _};

use super::{GeneratedFile, Place, Provenance};
use crate::Validated;
use crate::diagnostic::Diagnostic;
use crate::location::Loc;
use crate::model::{Block, Device};
use crate::names;

/// Macros that `<stddef.h>` and `<stdint.h>` define (C11 7.19, 7.20) without a leading
/// underscore: the header includes them, so it cannot define these names itself.
const STANDARD_MACROS: &[&str] = &[
    "NULL",
    "offsetof",
    "SIZE_MAX",
    "PTRDIFF_MIN",
    "PTRDIFF_MAX",
    "SIG_ATOMIC_MIN",
    "SIG_ATOMIC_MAX",
    "WCHAR_MIN",
    "WCHAR_MAX",
    "WINT_MIN",
    "WINT_MAX",
    "INTPTR_MIN",
    "INTPTR_MAX",
    "UINTPTR_MAX",
    "INTMAX_MIN",
    "INTMAX_MAX",
    "UINTMAX_MAX",
    "INTMAX_C",
    "UINTMAX_C",
];

/// `<stdint.h>`'s macros for each width: `INT8_MIN`, `UINT_LEAST16_MAX`, `INT64_C`, …
fn standard_width_macros() -> impl Iterator<Item = String> {
    [8, 16, 32, 64].into_iter().flat_map(|n| {
        ["", "_LEAST", "_FAST"]
            .into_iter()
            .flat_map(move |kind| {
                [
                    format!("INT{kind}{n}_MIN"),
                    format!("INT{kind}{n}_MAX"),
                    format!("UINT{kind}{n}_MAX"),
                ]
            })
            .chain([format!("INT{n}_C"), format!("UINT{n}_C")])
    })
}

/// The include guard: `<DEVICE>_REGS_H`.
fn guard(device: &Device) -> String {
    format!("{}_REGS_H", names::upper(&device.name))
}

pub fn files(device: &Validated, provenance: &Provenance) -> Vec<GeneratedFile> {
    let header = header(&super::text::map_descriptions(
        device,
        super::text::c_comment,
    ));
    let guard = guard(device);
    let mut contents = provenance.preamble("//");
    contents.push('\n');
    contents.push_str(&format!("#ifndef {guard}\n#define {guard}\n\n"));
    contents.push_str(&header.text);
    contents.push_str(&format!("#endif /* {guard} */\n"));
    let header_name = format!("{}_regs.h", names::lower(&device.name));
    let mut test = provenance.preamble("//");
    test.push_str(
        "//\n// The header's self-test: compile and run it with the header beside it\n\
         // (cc -std=c11 -Wall -Wextra -Werror FILE.c && ./a.out).\n\n",
    );
    test.push_str(&selftest::program(device, &header_name));
    vec![
        GeneratedFile {
            place: Place::Crate,
            path: format!("include/{header_name}"),
            contents,
        },
        GeneratedFile {
            place: Place::Crate,
            path: format!("include/{}_regs_test.c", names::lower(&device.name)),
            contents: test,
        },
    ]
}

/// Every identifier the header defines, with the spec location of the name it comes from: the
/// C naming, a pure function of the device. It runs the same builder as the emitter (so the
/// two cannot disagree) with the text left out.
pub(crate) fn identifiers(device: &Device) -> Vec<(String, Loc)> {
    let mut h = Header {
        names_only: true,
        ..Header::default()
    };
    build(&mut h, device);
    h.identifiers
}

/// The C output's rules: C has one namespace, and joining names with `_` can make two paths
/// one identifier (block `a_b` register `c` and block `a` register `b_c` both give
/// `DEV_A_B_C_OFFSET`).
pub(crate) fn check(device: &Device) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let reserved: HashMap<String, &str> = STANDARD_MACROS
        .iter()
        .map(|m| m.to_string())
        .chain(standard_width_macros())
        .map(|m| {
            (
                m,
                "a macro of <stddef.h> or <stdint.h>, which the header includes",
            )
        })
        .chain([(guard(device), "the header's include guard")])
        .collect();
    interrupts::check(device, &mut diags);
    let identifiers = identifiers(device);
    // A large vendor device has hundreds of thousands: room for all at once.
    let mut seen: HashMap<&str, Loc> = HashMap::with_capacity(identifiers.len());
    // One clash of names repeats for each identifier derived from them: report it once.
    let mut reported = HashSet::new();
    for (identifier, loc) in &identifiers {
        let (identifier, loc) = (identifier.as_str(), *loc);
        if let Some(what) = reserved.get(identifier) {
            diags.push(
                Diagnostic::error(
                    format!("`{identifier}` in the C header would clash with {what}"),
                    loc,
                    "this name gives it",
                )
                .note("rename it: C joins names with `_` into one namespace"),
            );
            continue;
        }
        // One lookup for both the question and the insertion (a hash per identifier).
        match seen.entry(identifier) {
            Entry::Occupied(first) if !reported.insert((*first.get(), loc)) => {}
            Entry::Occupied(first) => diags.push(
                Diagnostic::error(
                    format!("two items would both be `{identifier}` in the C header"),
                    loc,
                    "this name gives it",
                )
                .also(*first.get(), "and so does this one")
                .note("rename one of them: C joins names with `_` into one namespace"),
            ),
            Entry::Vacant(slot) => {
                slot.insert(loc);
            }
        }
    }
    diags
}

fn header(device: &Device) -> Header {
    let mut h = Header::default();
    build(&mut h, device);
    h
}

fn build(h: &mut Header, device: &Device) {
    let upper = names::upper(&device.name);
    let mut intro = device.description.trim().to_string();
    if !device.version.trim().is_empty() {
        intro.push_str(&format!(
            "\n\nRegister map version {}.",
            device.version.trim()
        ));
    }
    intro.push_str(
        "\n\nOffsets are in bytes: a block's from the start of the device window, a register's \
         from the start of its block. Masks, reset and enumerated values have the type of \
         their register (64-bit ones are `ULL`), so `~MASK` never loses the upper half. The \
         accessors do no bounds checks: instance and element indices must be below the \
         matching `_COUNT`. Reading a register with read-to-clear fields changes it.",
    );
    h.comment("", &intro);
    h.line("");
    h.line("#include <stddef.h>");
    h.line("#include <stdint.h>");
    h.line("");
    h.line("#ifdef __cplusplus");
    h.line("extern \"C\" {");
    h.line("#endif");
    h.line("");

    h.section("Constants");
    for constant in &device.constants {
        h.comment("", &constant.description);
        h.define(
            format!("{upper}_{}", names::upper(&constant.name)),
            count(*constant.value),
            constant.name.loc,
        );
    }
    h.comment(
        "",
        "Bytes of the device window, from its start to the end of the last block.",
    );
    h.define(
        format!("{upper}_WINDOW_SIZE"),
        unsigned(window_size(device), 32),
        device.name.loc,
    );
    h.line("");
    interrupts::items(h, device);

    for kind in crate::block_types::kinds(device) {
        for instance in &kind.instances {
            self::block(h, device, instance);
        }
        let block = &kind.definition;
        if kind.shared {
            block_type(h, device, block);
        }
        for reg in &block.registers {
            register::items(h, &register::Names::new(device, block, reg));
        }
    }

    h.line("#ifdef __cplusplus");
    h.line("}");
    h.line("#endif");
    h.line("");
}

/// A block's (or block type's) macro prefix, `DEV_BLOCK`, and base function, `dev_block_base`.
fn block_names(device: &Device, block: &Block) -> (String, String) {
    let device_name = &device.name;
    let prefix = format!(
        "{}_{}",
        names::upper(device_name),
        names::upper(&block.name)
    );
    let function = format!(
        "{}_{}_base",
        names::lower(device_name),
        names::lower(&block.name)
    );
    (prefix, function)
}

fn block(h: &mut Header, device: &Device, block: &Block) {
    let (prefix, function) = block_names(device, block);
    let loc = block.name.loc;
    h.section(format_args!("Block {}", *block.name));
    if !h.names_only {
        let mut about = block.description.trim().to_string();
        if let Some(of) = &block.alternate_of {
            if !about.is_empty() {
                about.push_str("\n\n");
            }
            about.push_str(&format!(
                "An alternate view of the bytes of block {} (it overlaps them).",
                of.value
            ));
        }
        if let Some(ty) = &block.instance_of {
            if !about.is_empty() {
                about.push_str("\n\n");
            }
            about.push_str(&format!(
                "An instance of block type {}: its registers' functions take {function}(base).",
                *ty.name
            ));
        }
        h.comment("", &about);
    }
    h.define(format!("{prefix}_OFFSET"), unsigned(*block.offset, 32), loc);
    h.define(format!("{prefix}_SIZE"), unsigned(*block.size, 32), loc);
    match &block.array {
        Some(array) => {
            h.define(format!("{prefix}_COUNT"), count(*array.count), loc);
            h.define(format!("{prefix}_STRIDE"), unsigned(*array.stride, 32), loc);
            h.comment(
                "",
                format_args!(
                    "The first byte of instance `instance` (below {prefix}_COUNT) of block {}.",
                    *block.name
                ),
            );
            h.function(
                function,
                loc,
                "volatile void *",
                "volatile void *base, uint32_t instance",
                || {
                    format!(
                        "return (volatile uint8_t *)base + {prefix}_OFFSET + (size_t)instance * \
                         {prefix}_STRIDE;"
                    )
                },
            );
        }
        None => {
            h.comment("", format_args!("The first byte of block {}.", *block.name));
            h.function(
                function,
                loc,
                "volatile void *",
                "volatile void *base",
                || format!("return (volatile uint8_t *)base + {prefix}_OFFSET;"),
            );
        }
    }
}

/// A block type's own section: its size, and the base function that its registers'
/// functions start from, which for a type is the instance's first byte itself (the caller
/// passes `<device>_<instance>_base(base)`), as CMSIS passes `GPIOB` to a `GPIO_TypeDef *`.
fn block_type(h: &mut Header, device: &Device, block: &Block) {
    let (prefix, function) = block_names(device, block);
    let loc = block.name.loc;
    h.section(format_args!("Block type {}", *block.name));
    let mut about = block.description.trim().to_string();
    if !about.is_empty() {
        about.push_str("\n\n");
    }
    about.push_str(&format!(
        "The functions of block type {} take the first byte of an instance as `base` \
         (`{}_<instance>_base(base)`), so that one driver serves every instance.",
        *block.name,
        names::lower(&device.name)
    ));
    h.comment("", &about);
    h.define(format!("{prefix}_SIZE"), unsigned(*block.size, 32), loc);
    h.comment("", "The first byte of the instance: `base` itself.");
    h.function(
        function,
        loc,
        "volatile void *",
        "volatile void *base",
        || "return base;".to_string(),
    );
}

/// The end of the last block instance; saturates rather than wraps (validation refuses
/// blocks that reach past 2^64, but the emitter must not panic on what it is handed).
fn window_size(device: &Device) -> u64 {
    device
        .blocks
        .iter()
        .map(|b| {
            let (count, stride) = b.array.as_ref().map_or((1, 0), |a| (*a.count, *a.stride));
            b.offset
                .saturating_add(count.saturating_sub(1).saturating_mul(stride))
                .saturating_add(*b.size)
        })
        .max()
        .unwrap_or(0)
}

/// An unsigned hexadecimal literal for a value of a `bits`-wide register (or 32 for
/// offsets): `ULL` for 64-bit registers and for any value past 32 bits, `U` otherwise.
/// Formatted only when displayed (see `Header::line`).
pub(super) fn unsigned(value: u64, bits: u32) -> Literal {
    let suffix = if bits > 32 || value > u64::from(u32::MAX) {
        "ULL"
    } else {
        "U"
    };
    Literal {
        value,
        hex: true,
        suffix,
    }
}

/// An unsigned decimal literal, for counts and limits.
pub(super) fn count(value: u64) -> Literal {
    let suffix = if value > u64::from(u32::MAX) {
        "ULL"
    } else {
        "U"
    };
    Literal {
        value,
        hex: false,
        suffix,
    }
}

/// An integer literal: `0x1F` + `U` or decimal `31` + `U`.
pub(super) struct Literal {
    value: u64,
    hex: bool,
    suffix: &'static str,
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Literal { value, suffix, .. } = self;
        if self.hex {
            write!(f, "0x{value:X}{suffix}")
        } else {
            write!(f, "{value}{suffix}")
        }
    }
}

/// The header text and the identifiers it defines, built together so they cannot disagree.
#[derive(Default)]
struct Header {
    text: String,
    identifiers: Vec<(String, Loc)>,
    /// Collect the identifiers only (for the C check): no text.
    names_only: bool,
}

impl Header {
    // Text is taken as `impl Display` (a `format_args!` at the call site) and formatted only
    // here, so that collecting names formats no text: the import's C check builds a vendor
    // device's whole header this way, and formatting was a quarter of its time.
    fn line(&mut self, line: impl fmt::Display) {
        if self.names_only {
            return;
        }
        // Writing to a String cannot fail.
        let _ = writeln!(self.text, "{line}");
    }

    fn section(&mut self, title: impl fmt::Display) {
        if self.names_only {
            return;
        }
        self.line(format_args!(
            "/* ---- {} ---- */",
            comment_text(&title.to_string())
        ));
        self.line("");
    }

    /// A `/* */` comment; `indent` precedes each line.
    fn comment(&mut self, indent: &str, text: impl fmt::Display) {
        if self.names_only {
            return;
        }
        let text = text.to_string();
        if text.trim().is_empty() {
            return;
        }
        let text = comment_text(text.trim());
        let lines = wrap(&text, COMMENT_WIDTH);
        if let [single] = lines.as_slice() {
            self.line(format_args!("{indent}/* {single} */"));
            return;
        }
        self.line(format_args!("{indent}/*"));
        for line in &lines {
            if line.is_empty() {
                self.line(format_args!("{indent} *"));
            } else {
                self.line(format_args!("{indent} * {line}"));
            }
        }
        self.line(format_args!("{indent} */"));
    }

    fn define(&mut self, name: String, value: impl fmt::Display, loc: Loc) {
        self.line(format_args!("#define {name} {value}"));
        self.identifiers.push((name, loc));
    }

    /// A `static inline` function; `body` is called for the text only.
    fn function(
        &mut self,
        name: String,
        loc: Loc,
        returns: impl fmt::Display,
        params: impl fmt::Display,
        body: impl FnOnce() -> String,
    ) {
        if !self.names_only {
            let returns = returns.to_string();
            let space = if returns.ends_with('*') { "" } else { " " };
            self.line(format_args!(
                "static inline {returns}{space}{name}({params})"
            ));
            self.line("{");
            for line in body().lines() {
                self.line(format_args!("    {line}"));
            }
            self.line("}");
            self.line("");
        }
        self.identifiers.push((name, loc));
    }
}

/// Columns of comment text, so that comment lines stay within about 100 characters.
const COMMENT_WIDTH: usize = 92;

/// `text` with each line longer than `width` broken at spaces (a longer word stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for line in text.lines() {
        let mut current = String::new();
        for word in line.split(' ') {
            if !current.is_empty() && current.len() + 1 + word.len() > width {
                lines.push(std::mem::take(&mut current));
            } else if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        lines.push(current);
    }
    lines
}

/// Text that cannot end or nest a `/* */` comment (`-Wcomment`) nor form a trigraph
/// (`-std=c11` enables them, and `??/` at a line end would splice lines): a space goes
/// between `*` and `/`, `/` and `*`, and two `?`.
fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous = '\0';
    for c in text.chars() {
        if matches!((previous, c), ('*', '/') | ('/', '*') | ('?', '?')) {
            out.push(' ');
        }
        out.push(c);
        previous = c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_cannot_close_nest_or_splice() {
        assert_eq!(comment_text("a */ b /* c"), "a * / b / * c");
        assert_eq!(comment_text("*/*/"), "* / * /");
        assert_eq!(comment_text("what??/"), "what? ?/");
    }

    #[test]
    fn joined_names_that_collide_are_refused() {
        let spec = "device: { name: dev, version: '1', description: d }
blocks:
  - name: a_b
    description: d
    offset: 0x0
    size: 0x10
    registers:
      - { name: C, description: d, offset: 0x0, width: 32, access: rw }
  - name: a
    description: d
    offset: 0x10
    size: 0x10
    registers:
      - { name: B_C, description: d, offset: 0x0, width: 32, access: rw }
";
        let diagnostics = crate::parse_str(spec).expect_err("the spec collides in C");
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert!(
            messages.contains(&"two items would both be `DEV_A_B_C_OFFSET` in the C header"),
            "{messages:?}"
        );
    }

    #[test]
    fn the_check_sees_exactly_what_the_header_defines() {
        let device = crate::parse_str(include_str!("../../../../tests/fixtures/uart/uart.yaml"))
            .expect("the uart spec is valid");
        let emitted = header(&device);
        assert_eq!(identifiers(&device), emitted.identifiers);
        for (identifier, _) in &emitted.identifiers {
            assert!(
                emitted.text.contains(&format!("#define {identifier} "))
                    || emitted.text.contains(&format!("{identifier}(")),
                "{identifier} is not in the header"
            );
        }
    }

    #[test]
    fn long_lines_wrap_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh x\n\ny", 4), ["abcdefgh", "x", "", "y"]);
    }

    #[test]
    fn literals_are_wide_enough() {
        assert_eq!(unsigned(0x4742_4131, 32).to_string(), "0x47424131U");
        assert_eq!(unsigned(1, 64).to_string(), "0x1ULL");
        assert_eq!(unsigned(1 << 40, 32).to_string(), "0x10000000000ULL");
        assert_eq!(unsigned(u64::MAX, 64).to_string(), "0xFFFFFFFFFFFFFFFFULL");
    }
}
