//! The read protocol of a register wider than its bus access (the spec's `split_read`):
//! `low_first` (the default, for hardware that latches the register when its low piece is
//! read) or `until_stable` (high, low, high again until the two high reads agree: a
//! free-running counter without a latch). Carried through the spec, SystemRDL (the
//! user-defined property `gba_split_read`, which systemrdl-compiler elaborates), IP-XACT and
//! SVD (our vendor extensions) and back; refused where it cannot apply; a value the importer
//! does not know is named, never dropped silently. tests/tests/split_access.rs runs the
//! generated Rust and C on a counter that rolls over between the reads.

mod common;

use gba_codegen::emit;
use gba_codegen::import::{ipxact as ipxact_import, rdl, svd as svd_import};
use gba_codegen::model::{Device, SplitRead};
use gba_codegen::parse_str;

/// A RISC-V CLINT's `MTIME` (a free-running 64-bit counter on a 32-bit bus, no latch), a
/// latched 64-bit capture register (the default order, said explicitly), and a plain one.
const CLINT_RDL: &str = r#"
property gba_split_read { type = string; component = reg; };
addrmap clint_block {
    default sw = r;
    reg {
        regwidth = 64;
        accesswidth = 32;
        gba_split_read = "until_stable";
        field { } MTIME[63:0];
    } MTIME @ 0x0;
    reg {
        regwidth = 64;
        accesswidth = 32;
        gba_split_read = "low_first";
        field { } VALUE[63:0] = 0;
    } CAPTURE @ 0x8;
    reg {
        regwidth = 64;
        accesswidth = 32;
        field { } VALUE[63:0] = 0;
    } PLAIN @ 0x10;
};
addrmap clint { clint_block timer @ 0x0; };
"#;

fn protocols(device: &Device) -> Vec<(String, Option<SplitRead>)> {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .map(|r| (r.name.to_string(), r.split_read.as_deref().copied()))
        .collect()
}

/// `REG gba_split_read` of every register, as systemrdl-compiler elaborates `file` (`None`
/// where the property is not set).
fn reference_protocols(file: &std::path::Path) -> Vec<String> {
    common::reference_registers(
        file,
        r#"print(r.inst_name, r.get_property("gba_split_read", default=None))"#,
    )
}

#[test]
fn until_stable_goes_through_the_spec_and_every_interchange_format_and_back() {
    let Some((dir, source)) = common::rdl_source("split-read", "clint.rdl", CLINT_RDL) else {
        return;
    };
    // Carried: the strict import has nothing to warn about... but MTIME has no reset, which
    // the spec carries too.
    let imported = rdl::import(&source, true).expect("imports strictly");
    let device = &imported.device;
    let want = [
        ("MTIME".to_string(), Some(SplitRead::UntilStable)),
        ("CAPTURE".to_string(), Some(SplitRead::LowFirst)),
        ("PLAIN".to_string(), None),
    ];
    assert_eq!(protocols(device), want);

    // The spec, our SystemRDL and our IP-XACT (our vendor extension) carry it, and read back.
    let provenance = common::provenance("clint.yaml");
    let trip = common::round_trip(device, dir.path(), &provenance);
    let (text, validated) = (&trip.spec, &trip.valid);
    assert!(text.contains("split_read: until_stable"), "{text}");
    assert!(text.contains("split_read: low_first"), "{text}");

    // The reference front end reads our SystemRDL export's property as the source's.
    let reference = ["MTIME until_stable", "CAPTURE low_first", "PLAIN None"];
    assert_eq!(reference_protocols(&source), reference, "the source");
    assert_eq!(
        reference_protocols(&trip.systemrdl),
        reference,
        "our SystemRDL"
    );

    // IP-XACT and SVD: our vendor extensions.
    let xml = &trip.ipxact;
    assert!(
        xml.contains("<gba:splitRead>until_stable</gba:splitRead>"),
        "{xml}"
    );
    let svd = emit::render_svd(validated, &provenance).expect("SVD");
    assert!(svd.contains("<splitRead>until_stable</splitRead>"), "{svd}");
    let back = svd_import::from_str(&svd).expect("SVD imports");
    assert_eq!(protocols(&back.device), want);
    // A protocol our extension does not know, or one that cannot apply, is named.
    for (bad, needle) in [
        (
            svd.replacen(
                "<splitRead>until_stable</splitRead>",
                "<splitRead>sometimes</splitRead>",
                1,
            ),
            "the read protocol `sometimes` of `timer.MTIME`",
        ),
        (
            svd.replacen(
                "<accessWidth>32</accessWidth>",
                "<accessWidth>16</accessWidth>",
                1,
            ),
            "the read protocol `until_stable` of `timer.MTIME`",
        ),
    ] {
        let back = svd_import::from_str(&bad).expect("SVD imports");
        assert_eq!(back.device.blocks[0].registers[0].split_read, None);
        assert!(
            back.warnings.iter().any(|w| w.message.contains(needle)),
            "{needle}: {:#?}",
            back.warnings
        );
    }
    let xml_bad = xml.replacen(
        "<gba:splitRead>until_stable</gba:splitRead>",
        "<gba:splitRead>sometimes</gba:splitRead>",
        1,
    );
    let back = ipxact_import::from_str(&xml_bad, false).expect("IP-XACT imports");
    assert!(
        back.warnings.iter().any(|w| w
            .message
            .contains("the read protocol `sometimes` names no read protocol")),
        "{:#?}",
        back.warnings
    );
    assert!(ipxact_import::from_str(&xml_bad, true).is_err());

    // Rust: MTIME's handle reads until stable; the others low piece first.
    let files = emit::all(validated, &provenance).expect("emits");
    let contents = |suffix: &str| common::contents_of(&files, suffix);
    let rust = contents(".rs");
    common::assert_occurs(
        &rust,
        "crate::common::Split<_M, u32, crate::common::UntilStable>",
        1,
    );
    common::assert_occurs(&rust, "crate::common::Split<_M, u32>", 2);
    // C: the loop, for MTIME only.
    let header = contents(".h");
    assert!(
        header.contains(
            "    uint32_t high = piece[1];\n    for (;;) {\n        uint32_t low = piece[0];\n        \
             uint32_t again = piece[1];\n        if (again == high)\n            \
             return ((uint64_t)high << 32) | low;\n        high = again;\n    }\n"
        ),
        "{header}"
    );
    common::assert_occurs(&header, "for (;;)", 1);
    assert!(header.contains("#define CLINT_TIMER_MTIME_READS_UNTIL_STABLE 1"));
    assert!(!header.contains("CLINT_TIMER_CAPTURE_READS_UNTIL_STABLE"));
}

#[test]
fn split_read_where_it_cannot_apply_is_refused_with_the_reason() {
    for (width, access, access_width, protocol, needle) in [
        (
            64,
            "ro",
            "access_width: 16,",
            "until_stable",
            "split_read until_stable does not apply: until_stable reads a register in two \
             pieces, and this 64-bit register is read in 4",
        ),
        (
            64,
            "wo",
            "access_width: 32,",
            "until_stable",
            "split_read until_stable does not apply: the register is wo (never read)",
        ),
        (
            64,
            "ro",
            "",
            "until_stable",
            "split_read until_stable does not apply: the register is read in one access",
        ),
        (
            32,
            "rw",
            "",
            "low_first",
            "split_read low_first does not apply: the register is read in one access",
        ),
        (
            64,
            "ro",
            "access_width: 32,",
            "sometimes",
            "split_read `sometimes` is not a read protocol",
        ),
    ] {
        let spec = format!(
            "device: {{ name: d, version: \"1\", description: D. }}\n\
             blocks:\n  - name: b\n    description: B.\n    offset: 0\n    size: 0x10\n    \
             registers:\n      - {{ name: R, description: R., offset: 0, width: {width}, \
             access: {access}, {access_width} split_read: {protocol} }}\n"
        );
        let error = format!("{:?}", parse_str(&spec).expect_err("refused"));
        assert!(error.contains(needle), "{needle}\n{error}");
    }
}

#[test]
fn an_imported_protocol_that_cannot_apply_is_named_and_strict_refuses() {
    let Some((_dir, source)) = common::rdl_source(
        "split-read-bad",
        "bad.rdl",
        r#"
property gba_split_read { type = string; component = reg; };
addrmap bad {
    reg {
        regwidth = 64;
        accesswidth = 16;
        gba_split_read = "until_stable";
        field { sw = r; } V[63:0] = 0;
    } FOUR @ 0x0;
    reg {
        regwidth = 64;
        accesswidth = 32;
        gba_split_read = "sometimes";
        field { sw = r; } V[63:0] = 0;
    } ODD @ 0x8;
};
"#,
    ) else {
        return;
    };
    let imported = rdl::import(&source, false).expect("imports with warnings");
    assert_eq!(
        protocols(&imported.device),
        [("FOUR".to_string(), None), ("ODD".to_string(), None)]
    );
    // Named, at the register's line.
    let named = |needle: &str, at: &str| {
        assert!(
            imported
                .warnings
                .iter()
                .any(|w| w.message.contains(needle) && w.at.ends_with(at) && w.line.is_some()),
            "{needle} at {at}: {:#?}",
            imported.warnings
        );
    };
    named(
        "the read protocol `until_stable` needs a readable register of two pieces",
        "FOUR",
    );
    named(
        "the read protocol `sometimes` names no read protocol",
        "ODD",
    );
    assert!(rdl::import(&source, true).is_err(), "strict refuses");
}
