//! The header's self-test (`include/<device>_regs_test.c`), generated with it as
//! `peakrdl-cheader` generates its test: a C program that a hardware team compiles with its
//! own toolchain (`cc -std=c11 -Wall -Werror <device>_regs_test.c && ./a.out`) to learn that
//! the header it ships means the register map it was generated from.
//!
//! - `_Static_assert`s: every offset, size, count, stride, reset value, shift, width and mask
//!   equals the spec's number (written here as a literal from the model, not as the header's
//!   expression), each mask is its shift and width, fits its register, and 64-bit values
//!   have a 64-bit type (so that `~MASK` keeps the upper half).
//! - At run time, over a buffer laid out like the device window: the first and the last
//!   element of every register array in the first and the last block instance is where the
//!   spec puts it, a write lands there with the register's width and a read returns it; and
//!   every field's `_get`/`_set` extracts and replaces exactly its bits.
//!
//! It prints `checked N, failed M` and exits non-zero on any failure. A window larger than
//! [`MAX_WINDOW`] is not allocated: only the static checks and the field helpers run then.

use std::fmt::Write as _;

use super::register::Names;
use super::{count, unsigned, window_size};
use crate::model::{Block, Device, Field, Register};
use crate::names;

/// The largest device window the test allocates (16 MiB).
const MAX_WINDOW: u64 = 1 << 24;

pub(super) fn program(device: &Device, header_name: &str) -> String {
    let upper = names::upper(&device.name);
    let mut c = String::new();
    let w = &mut c;
    let window = window_size(device);
    let runtime = window > 0 && window <= MAX_WINDOW;
    line(w, &format!("#include \"{header_name}\""));
    line(w, "");
    line(w, "#include <stdint.h>");
    line(w, "#include <stdio.h>");
    line(w, "#include <string.h>");
    line(w, "");
    line(
        w,
        "#define CHECK(what, ok) do { checks++; if (!(ok)) { failures++; \
         printf(\"FAILED: %s\\n\", what); } } while (0)",
    );
    line(w, "");
    line(
        w,
        "/* ---- Static checks: the header's numbers are the spec's ---- */",
    );
    line(w, "");
    for constant in &device.constants {
        assert_eq(
            w,
            &format!("{upper}_{}", names::upper(&constant.name)),
            count(*constant.value),
        );
    }
    assert_eq(w, &format!("{upper}_WINDOW_SIZE"), unsigned(window, 32));
    for kind in crate::block_types::kinds(device) {
        for block in &kind.instances {
            let b = format!("{upper}_{}", names::upper(&block.name));
            assert_eq(w, &format!("{b}_OFFSET"), unsigned(*block.offset, 32));
            assert_eq(w, &format!("{b}_SIZE"), unsigned(*block.size, 32));
            if let Some(array) = &block.array {
                assert_eq(w, &format!("{b}_COUNT"), count(*array.count));
                assert_eq(w, &format!("{b}_STRIDE"), unsigned(*array.stride, 32));
            }
        }
        for reg in &kind.definition.registers {
            static_register(w, &Names::new(device, &kind.definition, reg));
        }
    }
    let kinds = defined_blocks(device);
    line(w, "");
    if runtime {
        line(
            w,
            &format!(
                "/* A buffer laid out like the device window ({upper}_WINDOW_SIZE bytes). */\n\
                 static _Alignas(8) unsigned char window[{upper}_WINDOW_SIZE];"
            ),
        );
    } else {
        line(
            w,
            &format!(
                "/* The device window ({window:#x} bytes) is too large to stand in for: the \
                 accessors are not run. */"
            ),
        );
    }
    line(w, "");
    line(w, "int main(void)");
    line(w, "{");
    line(w, "    unsigned long checks = 0, failures = 0;");
    for block in &kinds {
        for reg in &block.registers {
            let n = Names::new(device, block, reg);
            if runtime {
                for element in ends(block, reg) {
                    accessor_checks(w, &n, &element, window);
                }
            }
            for field in &reg.fields {
                field_checks(w, &n, field);
            }
        }
    }
    line(
        w,
        "    printf(\"checked %lu, failed %lu\\n\", checks, failures);",
    );
    line(w, "    return failures == 0 ? 0 : 1;");
    line(w, "}");
    c
}

/// The blocks whose registers the header defines: each block of its own, and each block
/// type once, at offset 0 (its functions take the instance's first byte, which the checks
/// pass as the window's start).
fn defined_blocks(device: &Device) -> Vec<Block> {
    crate::block_types::kinds(device)
        .into_iter()
        .map(|kind| {
            let mut block = kind.definition;
            if kind.shared {
                block.offset.value = 0;
            }
            block
        })
        .collect()
}

fn line(c: &mut String, text: &str) {
    c.push_str(text);
    c.push('\n');
}

fn assert_eq(c: &mut String, name: &str, literal: impl std::fmt::Display) {
    let _ = writeln!(
        c,
        "_Static_assert({name} == {literal}, \"{name} is not {literal}\");"
    );
}

fn static_register(c: &mut String, n: &Names<'_>) {
    let reg = n.reg;
    let r = &n.upper;
    assert_eq(c, &format!("{r}_OFFSET"), unsigned(*reg.offset, 32));
    assert_eq(c, &format!("{r}_RESET_VALUE"), n.literal(*reg.reset));
    wide_enough(c, &format!("{r}_RESET_VALUE"), reg);
    if crate::emit::reset_note(reg).is_some() {
        assert_eq(
            c,
            &format!("{r}_RESET_FIXED_MASK"),
            n.literal(reg.fixed_reset_mask()),
        );
    }
    let write_one = reg.write_one_mask();
    if write_one != 0 {
        assert_eq(c, &format!("{r}_W1_MASK"), n.literal(write_one));
    }
    let write_zero = reg.write_zero_mask();
    if write_zero != 0 {
        assert_eq(c, &format!("{r}_W0_MASK"), n.literal(write_zero));
    }
    if let Some(array) = &reg.array {
        assert_eq(c, &format!("{r}_COUNT"), count(*array.count));
        assert_eq(c, &format!("{r}_STRIDE"), unsigned(*array.stride, 32));
    }
    for field in &reg.fields {
        let f = format!("{r}_{}", names::upper(&field.name));
        let width = field.bits.width();
        assert_eq(c, &format!("{f}_SHIFT"), field.bits.lsb);
        assert_eq(c, &format!("{f}_WIDTH"), width);
        assert_eq(c, &format!("{f}_MASK"), n.literal(field.bits.mask()));
        wide_enough(c, &format!("{f}_MASK"), reg);
        // The mask is its width's ones at its shift, inside the register.
        let ones = if width >= 64 {
            "UINT64_MAX".to_string()
        } else {
            format!("((UINT64_C(1) << {f}_WIDTH) - 1)")
        };
        let _ = writeln!(
            c,
            "_Static_assert((uint64_t){f}_MASK == ({ones} << {f}_SHIFT), \
             \"{f}_MASK is not {f}_WIDTH bits at {f}_SHIFT\");"
        );
        if *reg.width < 64 {
            let _ = writeln!(
                c,
                "_Static_assert(((uint64_t){f}_MASK >> {}) == 0, \"{f}_MASK is wider than \
                 its register\");",
                *reg.width
            );
        }
        for value in &field.values {
            let v = format!("{f}_{}", names::upper(&value.name));
            assert_eq(c, &v, n.literal(*value.value));
            let _ = writeln!(
                c,
                "_Static_assert((((uint64_t){v} << {f}_SHIFT) & ~(uint64_t){f}_MASK) == 0, \
                 \"{v} does not fit its field\");"
            );
        }
    }
}

/// A 64-bit register's values must have a 64-bit type, or `~MASK` loses the upper half.
fn wide_enough(c: &mut String, name: &str, reg: &Register) {
    if *reg.width == 64 {
        let _ = writeln!(
            c,
            "_Static_assert(sizeof({name}) == 8, \"{name} of a 64-bit register is narrower\");"
        );
    }
}

/// One register element in one block instance, as the accessors take it.
struct Element {
    instance: Option<u64>,
    index: Option<u64>,
    /// From the start of the window.
    offset: u64,
}

/// The first and the last element of a register array in the first and the last block
/// instance (each once when they are the same).
fn ends(block: &Block, reg: &Register) -> Vec<Element> {
    let last = |array: &Option<crate::model::Array>| array.as_ref().map(|a| *a.count - 1);
    let mut out: Vec<Element> = Vec::new();
    for instance in [block.array.as_ref().map(|_| 0), last(&block.array)] {
        for index in [reg.array.as_ref().map(|_| 0), last(&reg.array)] {
            if out
                .iter()
                .any(|e| e.instance == instance && e.index == index)
            {
                continue;
            }
            let block_stride = block.array.as_ref().map_or(0, |a| *a.stride);
            let reg_stride = reg.array.as_ref().map_or(0, |a| *a.stride);
            let offset = *block.offset
                + instance.unwrap_or(0) * block_stride
                + *reg.offset
                + index.unwrap_or(0) * reg_stride;
            out.push(Element {
                instance,
                index,
                offset,
            });
        }
    }
    out
}

/// A value of `width` bits whose bytes all differ and none is 0, so that a write of the
/// wrong width or at the wrong place shows.
fn pattern(offset: u64, width: u32) -> u64 {
    (0..u64::from(width / 8))
        .map(|k| ((offset / 4 * 29 + k * 41) % 255 + 1) << (8 * k))
        .fold(0, |value, byte| value | byte)
}

fn accessor_checks(c: &mut String, n: &Names<'_>, e: &Element, window: u64) {
    let reg = n.reg;
    let r = &n.lower;
    let mut call = String::from("window");
    for i in [e.instance, e.index].into_iter().flatten() {
        let _ = write!(call, ", {i}");
    }
    let what = format!("{r}({call})");
    let offset = e.offset;
    let bytes = *reg.width / 8;
    let value = pattern(offset, *reg.width);
    let le: Vec<String> = value.to_le_bytes()[..bytes as usize]
        .iter()
        .map(|b| format!("{b:#04x}"))
        .collect();
    let _ = writeln!(
        c,
        "    {{\n        static const unsigned char bytes[{bytes}] = {{{}}};\n\
         \x20       memset(window, 0, sizeof window);\n\
         \x20       CHECK(\"{what} is at {offset:#x}\", (volatile unsigned char *){r}_ptr({call}) \
         == (volatile unsigned char *)window + {offset}U);",
        le.join(", ")
    );
    let value_literal = n.literal(value);
    if reg.access.is_writable() {
        let _ = writeln!(
            c,
            "        {r}_write({call}, {value_literal});\n\
             \x20       CHECK(\"{what} write lands at {offset:#x}\", \
             memcmp(window + {offset}U, bytes, {bytes}) == 0);"
        );
        if offset > 0 {
            let _ = writeln!(
                c,
                "        CHECK(\"{what} write stays inside\", window[{offset}U - 1] == 0);"
            );
        }
        if offset + u64::from(bytes) < window {
            let _ = writeln!(
                c,
                "        CHECK(\"{what} write stays inside\", window[{}U] == 0);",
                offset + u64::from(bytes)
            );
        }
    } else {
        let _ = writeln!(c, "        memcpy(window + {offset}U, bytes, {bytes});");
    }
    if reg.access.is_readable() {
        let _ = writeln!(
            c,
            "        CHECK(\"{what} read\", {r}_read({call}) == {value_literal});"
        );
    }
    line(c, "    }");
}

fn field_checks(c: &mut String, n: &Names<'_>, field: &Field) {
    let reg = n.reg;
    let f = format!("{}_{}", n.lower, names::lower(&field.name));
    let access = field.effective_access(reg);
    let ones = field.bits.value_mask();
    let mask = field.bits.mask();
    let all = u64::MAX >> (64 - *reg.width);
    if access.is_readable() {
        // From a value of all ones, and from one with only the neighbours set.
        let _ = writeln!(
            c,
            "    CHECK(\"{f}_get\", {f}_get({}) == {});\n\
             \x20   CHECK(\"{f}_get ignores its neighbours\", {f}_get({}) == 0);",
            n.literal(all),
            n.literal(ones),
            n.literal(all & !mask),
        );
        if field.is_msb0() {
            // The field's lowest bit is the value's most significant.
            let _ = writeln!(
                c,
                "    CHECK(\"{f}_get reverses (msb0)\", {f}_get({}) == {});",
                n.literal(1 << field.bits.lsb),
                n.literal(1 << (field.bits.width() - 1)),
            );
        }
    }
    if access.is_writable() {
        let _ = writeln!(
            c,
            "    CHECK(\"{f}_set\", {f}_set(0, {}) == {});\n\
             \x20   CHECK(\"{f}_set clears\", {f}_set({}, 0) == {});",
            n.literal(ones),
            n.literal(mask),
            n.literal(all),
            n.literal(all & !mask),
        );
        if field.bits.width() < *reg.width {
            let _ = writeln!(
                c,
                "    CHECK(\"{f}_set drops excess bits\", {f}_set(0, {}) == 0);",
                n.literal(ones + 1)
            );
        }
        if field.is_msb0() {
            let _ = writeln!(
                c,
                "    CHECK(\"{f}_set reverses (msb0)\", {f}_set(0, 1) == {});",
                n.literal(1 << (field.bits.width() - 1 + field.bits.lsb)),
            );
        }
    }
}
