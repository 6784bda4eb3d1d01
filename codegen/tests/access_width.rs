//! A register wider than its bus access (SystemRDL's `accesswidth` below `regwidth`: a 64-bit
//! `MTIME` on a 32-bit bus) is carried, not warned about (issue 38): the spec says
//! `access_width`, the SystemRDL and IP-XACT exports say it again, and systemrdl-compiler,
//! the reference front end, elaborates the source and our export to the same widths. The
//! generated Rust and C access the register in pieces (tests/tests/split_access.rs runs them).
//!
//! The Python front ends come from `tests/install.sh`; without them a test that needs them
//! says so and passes only outside CI (under `CI=true` it fails).

mod common;

use gba_codegen::emit;
use gba_codegen::import::rdl;
use gba_codegen::model::{Device, Register};
use gba_codegen::parse_str;

/// A SoC team's timer: a 64-bit time on a 32-bit bus, a 32-bit compare on a 16-bit bus, a
/// 64-bit register whose access width is its own (no split), and a plain 32-bit register.
const TIMER_RDL: &str = r#"
addrmap clint_block {
    default sw = rw;
    reg {
        regwidth = 64;
        accesswidth = 32;
        field { } MTIME[63:0] = 0;
    } MTIME @ 0x0;
    reg {
        regwidth = 32;
        accesswidth = 16;
        field { } LO[15:0] = 0;
        field { } HI[31:16] = 0;
    } MTIMECMP @ 0x8;
    reg {
        regwidth = 64;
        accesswidth = 64;
        field { } WIDE[63:0] = 0;
    } WHOLE @ 0x10;
    reg {
        field { } BIT[0:0] = 0;
    } PLAIN @ 0x18;
};
addrmap clint { clint_block timer @ 0x0; };
"#;

fn register<'d>(device: &'d Device, name: &str) -> &'d Register {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .find(|r| *r.name == name)
        .unwrap_or_else(|| panic!("no register {name}"))
}

fn access_widths(device: &Device) -> Vec<(String, Option<u32>)> {
    ["MTIME", "MTIMECMP", "WHOLE", "PLAIN"]
        .iter()
        .map(|n| {
            (
                n.to_string(),
                register(device, n).access_width.as_deref().copied(),
            )
        })
        .collect()
}

/// `REG regwidth accesswidth` of every register, as systemrdl-compiler elaborates `file`.
fn reference_widths(file: &std::path::Path) -> Vec<String> {
    common::reference_registers(
        file,
        r#"print(r.inst_name, r.get_property("regwidth"), r.get_property("accesswidth"))"#,
    )
}

#[test]
fn systemrdl_accesswidth_goes_through_the_spec_and_back_unchanged() {
    let Some((dir, source)) = common::rdl_source("access-width", "clint.rdl", TIMER_RDL) else {
        return;
    };
    // Carried: no warning at all (strict import succeeds).
    let imported = rdl::import(&source, true).expect("imports strictly: nothing to warn about");
    let device = &imported.device;
    assert_eq!(
        access_widths(device),
        [
            ("MTIME".into(), Some(32)),
            ("MTIMECMP".into(), Some(16)),
            ("WHOLE".into(), None),
            ("PLAIN".into(), None),
        ]
    );
    // The spec says it, and reads it back; so do our SystemRDL and IP-XACT exports.
    let trip = common::round_trip(device, dir.path(), &common::provenance("clint.yaml"));
    let text = &trip.spec;
    assert!(text.contains("access_width: 32"), "{text}");
    assert!(text.contains("access_width: 16"), "{text}");

    // The reference front end elaborates our SystemRDL export to the source's widths.
    let want = [
        "MTIME 64 32",
        "MTIMECMP 32 16",
        "WHOLE 64 64",
        "PLAIN 32 32",
    ];
    assert_eq!(reference_widths(&source), want, "the source itself");
    assert_eq!(reference_widths(&trip.systemrdl), want, "our SystemRDL");
    let xml = &trip.ipxact;
    assert!(
        xml.contains("<gba:accessWidth>32</gba:accessWidth>"),
        "{xml}"
    );

    // Rust and C access the split registers in pieces, and say so; the others whole.
    let files = emit::all(&trip.valid, &common::provenance("clint.yaml")).expect("emits");
    let contents = |suffix: &str| common::contents_of(&files, suffix);
    let rust = contents(".rs");
    assert!(rust.contains("crate::common::Split<_M, u32>"), "{rust}");
    assert!(rust.contains("crate::common::Split<_M, u16>"), "{rust}");
    common::assert_occurs(&rust, "crate::common::Split::new(self.io)", 2);
    assert!(rust.contains("least significant piece first"), "{rust}");
    let header = contents(".h");
    assert!(
        header.contains("#define CLINT_TIMER_MTIME_ACCESS_WIDTH 32"),
        "{header}"
    );
    assert!(
        header.contains(
            "piece[0] = (uint32_t)(value >> 0);\n    piece[1] = (uint32_t)(value >> 32);"
        ),
        "{header}"
    );
    assert!(
        header.contains("value |= (uint32_t)piece[1] << 16;"),
        "{header}"
    );
    assert!(
        !header.contains("CLINT_TIMER_WHOLE_ACCESS_WIDTH"),
        "{header}"
    );
}

#[test]
fn a_spec_access_width_that_is_no_bus_access_of_the_register_is_refused() {
    for (width, access, needle) in [
        (
            32,
            48,
            "access_width 48 is not a bus access of a 32-bit register",
        ),
        (
            32,
            64,
            "access_width 64 is not a bus access of a 32-bit register",
        ),
        (
            16,
            0,
            "access_width 0 is not a bus access of a 16-bit register",
        ),
    ] {
        let spec = format!(
            "device: {{ name: d, version: \"1\", description: D. }}\n\
             blocks:\n  - name: b\n    description: B.\n    offset: 0\n    size: 0x10\n    \
             registers:\n      - {{ name: R, description: R., offset: 0, width: {width}, \
             access: rw, access_width: {access} }}\n"
        );
        let error = format!("{:?}", parse_str(&spec).expect_err("refused"));
        assert!(error.contains(needle), "{error}");
    }
}
