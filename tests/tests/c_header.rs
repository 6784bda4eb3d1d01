//! The committed C headers, checked by a C compiler against numbers taken from the parsed
//! spec: every offset, mask, shift, width, enumerated and reset value as a `_Static_assert`,
//! and every accessor run over a plain memory buffer standing in for the device window.
//!
//! The expected numbers and identifiers are computed here from the model, not by the
//! emitter, so that a wrong emitter cannot agree with itself.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use gba_codegen::model::{Block, Device, Field, Register, SideEffect};
use gba_codegen::project::Target;

const CFLAGS: &[&str] = &[
    "-std=c11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-O2",
];

use common::root;

fn header_path(target: &Target, device: &Device) -> PathBuf {
    root()
        .join(&target.out)
        .join(format!("include/{}_regs.h", device.name.to_lowercase()))
}

#[test]
fn gba_header_agrees_with_the_spec() {
    compile_and_run(&Target::gba());
}

#[test]
fn uart_header_agrees_with_the_spec() {
    compile_and_run(&common::uart_target());
}

/// The self-test generated with each header (`include/<device>_regs_test.c`), as committed:
/// it compiles warning-free beside its header and its checks pass when run.
#[test]
fn generated_self_tests_compile_and_pass() {
    for target in [Target::gba(), common::uart_target()] {
        let device = common::load_target(&target);
        let test = selftest_path(&target, &device);
        let binary = scratch(&device, "selftest").join("selftest");
        let output = gcc(&test, &binary);
        assert!(
            output.status.success(),
            "gcc {} rejected {}:\n{}",
            CFLAGS.join(" "),
            test.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        let run = Command::new(&binary).output().expect("run the self-test");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "{}: {stdout}", test.display());
        assert!(stdout.contains(", failed 0"), "{stdout}");
    }
}

/// The self-test bites: a header whose mask, shift, offset or reset value is wrong does not
/// compile against it, and the message names the macro.
#[test]
fn the_self_test_refuses_a_header_that_disagrees_with_the_spec() {
    let target = Target::gba();
    let device = common::load_target(&target);
    let header = std::fs::read_to_string(header_path(&target, &device)).expect("the header");
    let test = std::fs::read_to_string(selftest_path(&target, &device)).expect("the test");
    for (from, to, named) in [
        (
            "#define GBA_GROUP_CONTROL_OFFSET 0x1000U",
            "#define GBA_GROUP_CONTROL_OFFSET 0x1004U",
            "GBA_GROUP_CONTROL_OFFSET",
        ),
        (
            "#define GBA_GROUP_CONTROL_ENABLE_SHIFT 0",
            "#define GBA_GROUP_CONTROL_ENABLE_SHIFT 1",
            "GBA_GROUP_CONTROL_ENABLE_SHIFT",
        ),
    ] {
        assert!(header.contains(from), "the header no longer has {from:?}");
        let dir = scratch(&device, "mutated");
        std::fs::write(dir.join("gba_regs.h"), header.replace(from, to)).unwrap();
        std::fs::write(dir.join("gba_regs_test.c"), &test).unwrap();
        let output = gcc(&dir.join("gba_regs_test.c"), &dir.join("selftest"));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{to:?} compiled");
        assert!(stderr.contains(named), "{stderr}");
    }
}

fn selftest_path(target: &Target, device: &Device) -> PathBuf {
    root().join(&target.out).join(format!(
        "include/{}_regs_test.c",
        device.name.to_lowercase()
    ))
}

fn scratch(device: &Device, what: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c_header")
        .join(format!("{}-{what}", device.name.as_str()));
    std::fs::create_dir_all(&dir).expect("create the temporary directory");
    dir
}

fn gcc(source: &Path, binary: &Path) -> std::process::Output {
    Command::new("gcc")
        .args(CFLAGS)
        .arg(source)
        .arg("-o")
        .arg(binary)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run gcc ({e}): the C header tests need gcc on PATH (apt-get install gcc)"
            )
        })
}

fn compile_and_run(target: &Target) {
    let device = common::load_target(target);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c_header")
        .join(device.name.as_str());
    std::fs::create_dir_all(&dir).expect("create the temporary directory");
    let source = dir.join("check.c");
    let binary = dir.join("check");
    std::fs::write(&source, program(&device, &header_path(target, &device)))
        .expect("write the C program");

    let output = match Command::new("gcc")
        .args(CFLAGS)
        .arg(&source)
        .arg("-o")
        .arg(&binary)
        .output()
    {
        Ok(output) => output,
        Err(error) => panic!(
            "cannot run gcc ({error}): the C header test needs gcc on PATH \
             (apt-get install gcc); it does not skip, so that CI cannot pass without it"
        ),
    };
    assert!(
        output.status.success(),
        "gcc {} rejected {}:\n{}",
        CFLAGS.join(" "),
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let run = Command::new(&binary).output().expect("run the C program");
    assert!(
        run.status.success(),
        "the C checks failed ({}):\n{}{}",
        run.status,
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("checked "),
        "the C program did not report its checks: {stdout}"
    );
}

/// Identifier prefixes: `GBA_GROUP_CONTROL` and `gba_group_control`.
fn prefix(parts: &[&str]) -> (String, String) {
    let joined = parts.join("_");
    (joined.to_uppercase(), joined.to_lowercase())
}

fn mask(field: &Field) -> u128 {
    ((1u128 << field.bits.width()) - 1) << field.bits.lsb
}

fn program(device: &Device, header: &Path) -> String {
    let mut c = String::new();
    let dev = device.name.as_str();
    let (dev_upper, _) = prefix(&[dev]);
    writeln!(c, "#include \"{}\"", header.display()).unwrap();
    c.push_str(
        "#include <stdio.h>\n#include <string.h>\n\n\
         #define CHECK(what, ok) do { checks++; if (!(ok)) { failures++; \
         printf(\"FAILED: %s\\n\", what); } } while (0)\n\n\
         _Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, \
         \"the checks below lay registers out little-endian, as the device does\");\n\n",
    );

    // Static checks: every number the header defines, against the model.
    for constant in &device.constants {
        static_eq(
            &mut c,
            &format!("{dev_upper}_{}", constant.name.to_uppercase()),
            u128::from(*constant.value),
        );
    }
    let window = window_size(device);
    static_eq(
        &mut c,
        &format!("{dev_upper}_WINDOW_SIZE"),
        u128::from(window),
    );
    for block in &device.blocks {
        let (b, _) = prefix(&[dev, &block.name]);
        static_eq(&mut c, &format!("{b}_OFFSET"), u128::from(*block.offset));
        static_eq(&mut c, &format!("{b}_SIZE"), u128::from(*block.size));
        if let Some(array) = &block.array {
            static_eq(&mut c, &format!("{b}_COUNT"), u128::from(*array.count));
            static_eq(&mut c, &format!("{b}_STRIDE"), u128::from(*array.stride));
        }
        for reg in &block.registers {
            let (r, _) = prefix(&[dev, &block.name, &reg.name]);
            static_eq(&mut c, &format!("{r}_OFFSET"), u128::from(*reg.offset));
            static_eq(&mut c, &format!("{r}_RESET_VALUE"), u128::from(*reg.reset));
            static_size(&mut c, &format!("{r}_RESET_VALUE"), reg);
            // The write-1 and write-0 bits, computed here from the fields, not from the
            // model's helpers.
            let effect_mask = |ones: bool| {
                reg.fields
                    .iter()
                    .filter(|f| {
                        f.side_effect.is_some_and(|s| {
                            if ones {
                                matches!(
                                    *s,
                                    SideEffect::WriteOneToClear
                                        | SideEffect::WriteOneToSet
                                        | SideEffect::WriteOneToToggle
                                        | SideEffect::SinglePulse
                                )
                            } else {
                                matches!(
                                    *s,
                                    SideEffect::WriteZeroToClear
                                        | SideEffect::WriteZeroToSet
                                        | SideEffect::WriteZeroToToggle
                                )
                            }
                        })
                    })
                    .fold(0, |m, f| m | mask(f))
            };
            for (ones, suffix) in [(true, "W1_MASK"), (false, "W0_MASK")] {
                let bits = effect_mask(ones);
                if bits != 0 {
                    static_eq(&mut c, &format!("{r}_{suffix}"), bits);
                    static_size(&mut c, &format!("{r}_{suffix}"), reg);
                }
            }
            if let Some(array) = &reg.array {
                static_eq(&mut c, &format!("{r}_COUNT"), u128::from(*array.count));
                static_eq(&mut c, &format!("{r}_STRIDE"), u128::from(*array.stride));
            }
            for field in &reg.fields {
                let f = format!("{r}_{}", field.name.to_uppercase());
                static_eq(&mut c, &format!("{f}_SHIFT"), u128::from(field.bits.lsb));
                static_eq(
                    &mut c,
                    &format!("{f}_WIDTH"),
                    u128::from(field.bits.width()),
                );
                static_eq(&mut c, &format!("{f}_MASK"), mask(field));
                // `~MASK` must keep the register's upper bits.
                static_size(&mut c, &format!("{f}_MASK"), reg);
                for value in &field.values {
                    static_eq(
                        &mut c,
                        &format!("{f}_{}", value.name.to_uppercase()),
                        u128::from(*value.value),
                    );
                }
            }
        }
    }

    // Run-time checks: the accessors over a buffer laid out like the device window.
    writeln!(
        c,
        "\nstatic _Alignas(8) unsigned char window[{window}];\n\n\
         int main(void)\n{{\n    unsigned long checks = 0, failures = 0;"
    )
    .unwrap();
    let mut seed = 0u64;
    for block in &device.blocks {
        let (count, stride) = block
            .array
            .as_ref()
            .map_or((1, 0), |a| (*a.count, *a.stride));
        for instance in 0..count {
            let base = *block.offset + instance * stride;
            let (_, b) = prefix(&[dev, &block.name]);
            let instance_arg = block.array.as_ref().map(|_| instance);
            let call = args(instance_arg, None);
            writeln!(
                c,
                "    CHECK(\"{b}_base({instance})\", (volatile unsigned char *){b}_base({call}) \
                 == (volatile unsigned char *)window + {base}ULL);"
            )
            .unwrap();
            for reg in &block.registers {
                for (element, offset) in reg.element_offsets().enumerate() {
                    seed += 1;
                    let index = reg.array.as_ref().map(|_| element as u64);
                    let element = Element {
                        instance: instance_arg,
                        index,
                        offset: base + offset,
                        seed,
                    };
                    accessor_checks(&mut c, device, block, reg, &element);
                }
            }
        }
    }
    c.push_str(
        "    printf(\"checked %lu, failed %lu\\n\", checks, failures);\n\
         \x20   return failures == 0 ? 0 : 1;\n}\n",
    );
    c
}

fn static_eq(c: &mut String, name: &str, expected: u128) {
    writeln!(
        c,
        "_Static_assert({name} == {expected}ULL, \"{name} is not {expected:#x}\");"
    )
    .unwrap();
}

fn static_size(c: &mut String, name: &str, reg: &Register) {
    if *reg.width == 64 {
        writeln!(
            c,
            "_Static_assert(sizeof({name}) == 8, \"{name} of a 64-bit register is narrower\");"
        )
        .unwrap();
    }
}

fn args(instance: Option<u64>, index: Option<u64>) -> String {
    let mut args = String::from("window");
    for i in [instance, index].into_iter().flatten() {
        write!(args, ", {i}").unwrap();
    }
    args
}

/// A value of `width` bits with every byte non-zero and different for each `seed`, so that
/// a write to the wrong place or of the wrong width shows.
fn pattern(seed: u64, width: u32) -> u64 {
    let bytes = (0..u64::from(width / 8)).map(|k| ((seed * 29 + k * 41) % 255 + 1) << (8 * k));
    bytes.fold(0, |value, byte| value | byte)
}

/// One register element in one block instance.
#[derive(Clone, Copy)]
struct Element {
    instance: Option<u64>,
    index: Option<u64>,
    /// From the start of the window.
    offset: u64,
    seed: u64,
}

fn accessor_checks(c: &mut String, device: &Device, block: &Block, reg: &Register, e: &Element) {
    let Element {
        instance,
        index,
        offset,
        seed,
    } = *e;
    let (_, r) = prefix(&[&device.name, &block.name, &reg.name]);
    let width = *reg.width;
    let bytes = width / 8;
    let value = pattern(seed, width);
    let call = args(instance, index);
    let what = format!("{r}({call})");
    let le: Vec<String> = value
        .to_le_bytes()
        .iter()
        .take(bytes as usize)
        .map(|b| format!("{b:#04x}"))
        .collect();
    let le = le.join(", ");
    writeln!(
        c,
        "    {{\n        static const unsigned char expected[{bytes}] = {{{le}}};"
    )
    .unwrap();
    writeln!(c, "        memset(window, 0, sizeof window);").unwrap();
    writeln!(
        c,
        "        CHECK(\"{what} address\", (volatile unsigned char *){r}_ptr({call}) == \
         (volatile unsigned char *)window + {offset}ULL);"
    )
    .unwrap();
    if reg.access.is_writable() {
        writeln!(c, "        {r}_write({call}, {value:#x}ULL);").unwrap();
        writeln!(
            c,
            "        CHECK(\"{what} write lands at {offset:#x}\", \
             memcmp(window + {offset}ULL, expected, {bytes}) == 0);"
        )
        .unwrap();
        // The bytes around the register stay untouched.
        if offset > 0 {
            writeln!(
                c,
                "        CHECK(\"{what} write stays inside\", window[{offset}ULL - 1] == 0);"
            )
            .unwrap();
        }
        if offset + u64::from(bytes) < window_size(device) {
            writeln!(
                c,
                "        CHECK(\"{what} write stays inside\", window[{}ULL] == 0);",
                offset + u64::from(bytes)
            )
            .unwrap();
        }
    } else {
        writeln!(
            c,
            "        memcpy(window + {offset}ULL, expected, {bytes});"
        )
        .unwrap();
    }
    if reg.access.is_readable() {
        writeln!(
            c,
            "        CHECK(\"{what} read\", {r}_read({call}) == {value:#x}ULL);"
        )
        .unwrap();
    }
    writeln!(c, "    }}").unwrap();
    for field in &reg.fields {
        field_checks(c, &r, reg, field, value);
    }
}

fn field_checks(c: &mut String, r: &str, reg: &Register, field: &Field, value: u64) {
    let f = format!("{r}_{}", field.name.to_lowercase());
    let access = field.effective_access(reg);
    let ones = (1u128 << field.bits.width()) - 1;
    let field_value = (u128::from(value) >> field.bits.lsb) & ones;
    let register_ones = (1u128 << *reg.width) - 1;
    if access.is_readable() {
        writeln!(
            c,
            "    CHECK(\"{f}_get\", {f}_get({value:#x}ULL) == {field_value:#x}ULL);"
        )
        .unwrap();
    }
    if access.is_writable() {
        // Setting all ones into zero gives the mask; setting zero into all ones its complement;
        // excess bits of the new field value are dropped.
        let m = mask(field);
        writeln!(
            c,
            "    CHECK(\"{f}_set\", {f}_set(0, {ones:#x}ULL) == {m:#x}ULL);\n\
             \x20   CHECK(\"{f}_set clears\", {f}_set({register_ones:#x}ULL, 0) == {:#x}ULL);",
            register_ones & !m
        )
        .unwrap();
        let narrow = field.bits.width() < *reg.width;
        if narrow {
            writeln!(
                c,
                "    CHECK(\"{f}_set drops excess\", {f}_set(0, {:#x}ULL) == 0);",
                ones + 1
            )
            .unwrap();
        }
    }
}

fn window_size(device: &Device) -> u64 {
    device
        .blocks
        .iter()
        .map(|b| {
            let (count, stride) = b.array.as_ref().map_or((1, 0), |a| (*a.count, *a.stride));
            *b.offset + (count - 1) * stride + *b.size
        })
        .max()
        .unwrap_or(0)
}
