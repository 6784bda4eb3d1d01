//! The hardware side of the spec (`hardware:` sections, issue 38): what the register block's
//! RTL needs and software never sees. SystemRDL's `external` (a register, and each register
//! of an external register file) is carried, not warned about: the spec says it, the
//! SystemRDL export says it again (systemrdl-compiler, the reference front end, elaborates
//! the source and our export to the same registers marked external), the IP-XACT export
//! carries it as `gba:external`, `gba diff` names its change, and the software outputs
//! (Rust, C, SVD) are byte for byte those of the same map without it.
//!
//! The Python front ends come from `tests/install.sh`; without them a test that needs them
//! says so and passes only outside CI (under `CI=true` it fails).

mod common;

use gba_codegen::emit::{self, Provenance};
use gba_codegen::import::{ipxact as ipxact_import, rdl};
use gba_codegen::model::Device;
use gba_codegen::parse_str;

/// A SoC team's mailbox block: a control register in the block, a data register and a
/// register file of two doorbells implemented outside it (a FIFO, another clock domain).
const MAILBOX_RDL: &str = r#"
addrmap mailbox_block {
    default sw = rw;
    reg { field { } ENABLE[0:0] = 0; field { } LEVEL[11:4] = 0x8; } CTRL @ 0x0;
    external reg { field { sw = r; } DATA[31:0] = 0; } RXDATA @ 0x4;
    external regfile {
        reg { field { sw = w; } RING[0:0] = 0; } BELL0 @ 0x0;
        reg { field { } RING[0:0] = 0; } BELL1 @ 0x4;
    } DOORS @ 0x10;
};
addrmap mailbox { mailbox_block mbox @ 0x0; };
"#;

fn provenance() -> Provenance {
    common::provenance("mailbox.yaml")
}

/// `REGISTER external` for every register of `device`, in order.
fn externals(device: &Device) -> Vec<String> {
    common::each_register(device, |r| format!("{} {}", *r.name, r.hardware.external))
}

/// `REGISTER external` of every register as systemrdl-compiler elaborates `file`.
fn reference_externals(file: &std::path::Path) -> Vec<String> {
    common::reference_registers(file, "print(r.inst_name, r.external)")
}

#[test]
fn an_external_register_and_register_file_go_through_the_spec_and_back_unchanged() {
    let Some((dir, source)) = common::rdl_source("hardware-external", "mailbox.rdl", MAILBOX_RDL)
    else {
        return;
    };
    // Carried: the one warning is the register file's flattening into its block (its
    // registers are renamed `DOORS_*`), none names `external`.
    let imported = rdl::import(&source, false).expect("imports");
    let warnings: Vec<String> = imported.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert!(
        warnings[0].contains("flattened into its block"),
        "{warnings:#?}"
    );
    let device = &imported.device;
    let want = [
        "CTRL false",
        "RXDATA true",
        "DOORS_BELL0 true",
        "DOORS_BELL1 true",
    ];
    assert_eq!(externals(device), want);
    // The spec says it, and reads it back; so do our SystemRDL and IP-XACT exports.
    let trip = common::round_trip(device, dir.path(), &provenance());
    let text = &trip.spec;
    common::assert_occurs(text, "hardware:\n          external: true", 3);

    // The reference front end finds the same registers external in our SystemRDL export.
    let reference = ["CTRL False", "RXDATA True", "BELL0 True", "BELL1 True"];
    assert_eq!(reference_externals(&source), reference, "the source itself");
    let ours = [
        "CTRL False",
        "RXDATA True",
        "DOORS_BELL0 True",
        "DOORS_BELL1 True",
    ];
    assert_eq!(reference_externals(&trip.systemrdl), ours, "our SystemRDL");
    let xml = &trip.ipxact;
    common::assert_occurs(xml, "<gba:external>true</gba:external>", 3);
}

/// The software outputs ignore the hardware side: Rust, C and SVD of a map with external
/// registers are those of the same map without; the docs say "External".
#[test]
fn the_software_outputs_ignore_external() {
    let spec = |hardware: &str| {
        format!(
            "device: {{ name: d, version: \"1\", description: D. }}\n\
             blocks:\n  - name: b\n    description: B.\n    offset: 0\n    size: 0x10\n    \
             registers:\n      - {{ name: R, description: R., offset: 0, width: 32, \
             access: rw{hardware} }}\n"
        )
    };
    let inside = parse_str(&spec("")).expect("validates");
    let outside = parse_str(&spec(", hardware: { external: true }")).expect("validates");
    assert!(outside.blocks[0].registers[0].hardware.external);
    let files = |device| emit::all(device, &provenance()).expect("emits");
    let (a, b) = (files(&inside), files(&outside));
    assert_eq!(a.len(), b.len());
    let mut software = 0;
    for (a, b) in a.iter().zip(&b) {
        assert_eq!(a.path, b.path);
        let path = a.path.clone();
        if [".rs", ".h", ".c", ".svd"]
            .iter()
            .any(|s| path.ends_with(s))
        {
            assert_eq!(a.contents, b.contents, "{path}");
            software += 1;
        }
    }
    assert!(software >= 3, "Rust, C and SVD were compared");
    let docs = |files: &[gba_codegen::emit::GeneratedFile]| {
        files
            .iter()
            .filter(|f| f.path.ends_with(".md"))
            .map(|f| f.contents.clone())
            .collect::<String>()
    };
    assert!(!docs(&a).contains("External:"));
    assert!(
        docs(&b).contains("External: implemented outside the register block."),
        "{}",
        docs(&b)
    );
}

/// `gba diff` names a register becoming external (or no longer): compatible for software,
/// which accesses it as before.
#[test]
fn diff_names_a_change_of_external() {
    let spec = |hardware: &str| {
        parse_str(&format!(
            "device: {{ name: d, version: \"1\", description: D. }}\n\
             blocks:\n  - name: b\n    description: B.\n    offset: 0\n    size: 0x10\n    \
             registers:\n      - {{ name: R, description: R., offset: 0, width: 32, \
             access: rw{hardware} }}\n"
        ))
        .expect("validates")
    };
    let (inside, outside) = (spec(""), spec(", hardware: { external: true }"));
    let diff = gba_codegen::diff::compare(&inside, &outside);
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    let change = &diff.changes[0];
    assert_eq!(
        (
            change.class.keyword(),
            change.attribute,
            change.severity.keyword()
        ),
        ("hardware_changed", Some("external"), "compatible")
    );
    assert_eq!(change.path, ["b", "R"]);
    assert!(
        gba_codegen::diff::human(&diff, "old.yaml", "new.yaml")
            .contains("hardware side changed (external): false → true")
    );
    assert_eq!(gba_codegen::diff::compare(&outside, &outside).changes, []);
}

#[test]
fn a_hardware_section_with_an_unknown_key_is_refused() {
    let spec = "device: { name: d, version: \"1\", description: D. }\n\
                blocks:\n  - name: b\n    description: B.\n    offset: 0\n    size: 0x10\n    \
                registers:\n      - { name: R, description: R., offset: 0, width: 32, \
                access: rw, hardware: { extrenal: true } }\n";
    let error = format!("{:?}", parse_str(spec).expect_err("refused"));
    assert!(error.contains("unknown key `extrenal`"), "{error}");
    assert!(error.contains("did you mean `external`?"), "{error}");
}

/// A timer as SoC teams write it: `default hw = r;` for the configuration, `hw = w` for the
/// count hardware writes, a field hardware never sees (`hw = na`), ones it reads and writes,
/// told when software accesses one (`swacc`) and modifies the other (`swmod`).
const TIMER_RDL: &str = r#"
addrmap timer_block {
    default sw = rw;
    default hw = r;
    reg {
        field { } ENABLE[0:0] = 0;
        field { } PRESCALE[15:8] = 0x3;
        field { hw = na; } SCRATCH[23:16] = 0;
        field { hw = rw; swacc; } ARM[24:24] = 0;
    } CTRL @ 0x0;
    reg {
        field { sw = r; hw = w; } COUNT[31:0] = 0;
    } VALUE @ 0x4;
    reg {
        field { hw = rw; swmod; } TARGET[31:0] = 0;
    } COMPARE @ 0x8;
};
addrmap timer { timer_block regs @ 0x0; };
"#;

/// `REGISTER.FIELD hw [swmod] [swacc]` of every field of `device`: the stated access, `-`
/// where unstated, and the stated strobes.
fn hardware_accesses(device: &Device) -> Vec<String> {
    common::each_field(device, |r, f| {
        let hw = f.hardware.access.as_deref().map_or("-", |a| a.keyword());
        let strobes = [("swmod", f.hardware.swmod), ("swacc", f.hardware.swacc)]
            .iter()
            .filter(|(_, set)| *set)
            .map(|(s, _)| format!(" {s}"))
            .collect::<String>();
        format!("{}.{} {hw}{strobes}", *r.name, *f.name)
    })
}

/// `REGISTER.FIELD hw [swmod] [swacc]` of every field as systemrdl-compiler elaborates `file`.
fn reference_hw(file: &std::path::Path) -> Vec<String> {
    common::reference_fields(
        file,
        r#"strobes = "".join(f" {s}" for s in ("swmod", "swacc") if f.get_property(s))
print(f"{f.parent.inst_name}.{f.inst_name} {f.get_property('hw').name}{strobes}")"#,
    )
}

#[test]
fn a_fields_hardware_access_goes_through_the_spec_and_back_unchanged() {
    let Some((dir, source)) = common::rdl_source("hardware-access", "timer.rdl", TIMER_RDL) else {
        return;
    };
    // Carried: `default hw = r;` warned once per field before; now nothing to warn about.
    let imported = rdl::import(&source, true).expect("imports strictly: nothing to warn about");
    let device = &imported.device;
    let want = [
        "CTRL.ENABLE r",
        "CTRL.PRESCALE r",
        "CTRL.SCRATCH na",
        "CTRL.ARM rw swacc",
        "VALUE.COUNT w",
        "COMPARE.TARGET rw swmod",
    ];
    assert_eq!(hardware_accesses(device), want);
    let trip = common::round_trip(device, dir.path(), &provenance());
    let text = &trip.spec;
    common::assert_occurs(text, "hardware:\n              access: ", 6);

    // The reference front end elaborates the source, and our export, to the accesses the
    // import gave (the same words, `REGISTER.FIELD hw [swmod] [swacc]`).
    assert_eq!(reference_hw(&source), want, "the source itself");
    assert_eq!(reference_hw(&trip.systemrdl), want, "our SystemRDL");
    let xml = &trip.ipxact;
    common::assert_occurs(xml, "<gba:hw>", 6);
    common::assert_occurs(xml, "<gba:swmod>true</gba:swmod>", 1);
    common::assert_occurs(xml, "<gba:swacc>true</gba:swacc>", 1);
}

/// The software outputs ignore a field's hardware access; `gba diff` names its change.
#[test]
fn the_software_outputs_ignore_a_fields_hardware_access_and_diff_names_it() {
    let spec = |hardware: &str| {
        parse_str(&format!(
            "device: {{ name: d, version: \"1\", description: D. }}\n\
             blocks:\n  - name: b\n    description: B.\n    offset: 0\n    size: 0x10\n    \
             registers:\n      - name: R\n        description: R.\n        offset: 0\n        \
             width: 32\n        access: rw\n        fields:\n          - {{ name: F, bits: \
             \"3:0\", description: F.{hardware} }}\n"
        ))
        .expect("validates")
    };
    let (unstated, stated) = (spec(""), spec(", hardware: { access: na }"));
    let strobed = spec(", hardware: { access: na, swacc: true }");
    let files = |device| emit::all(device, &provenance()).expect("emits");
    let plain = files(&unstated);
    for (a, b) in [files(&stated), files(&strobed)]
        .iter()
        .flat_map(|other| plain.iter().zip(other))
    {
        if [".rs", ".h", ".c", ".svd", ".md"]
            .iter()
            .any(|s| a.path.ends_with(s))
        {
            assert_eq!(a.contents, b.contents, "{}", a.path);
        }
    }
    let diff = gba_codegen::diff::compare(&unstated, &stated);
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    let change = &diff.changes[0];
    assert_eq!(
        (
            change.class.keyword(),
            change.attribute,
            change.severity.keyword()
        ),
        ("hardware_changed", Some("hardware access"), "compatible")
    );
    assert_eq!(change.path, ["b", "R", "F"]);
    assert_eq!(
        change.old.as_ref().map(|s| s.value.as_str()),
        Some("unstated (r as gba rtl decides)")
    );
    assert_eq!(change.new.as_ref().map(|s| s.value.as_str()), Some("na"));
    let diff = gba_codegen::diff::compare(&stated, &strobed);
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    assert_eq!(
        (diff.changes[0].class.keyword(), diff.changes[0].attribute),
        ("hardware_changed", Some("swacc"))
    );
}

#[test]
fn a_hardware_access_the_spec_has_no_word_for_or_systemrdl_refuses_is_refused() {
    let spec = |access: &str, hw: &str| {
        format!(
            "device: {{ name: d, version: \"1\", description: D. }}\n\
             blocks:\n  - name: b\n    description: B.\n    offset: 0\n    size: 0x10\n    \
             registers:\n      - name: R\n        description: R.\n        offset: 0\n        \
             width: 32\n        access: {access}\n        fields:\n          - {{ name: F, \
             bits: \"3:0\", description: F., hardware: {{ access: {hw} }} }}\n"
        )
    };
    let error = format!("{:?}", parse_str(&spec("rw", "w1")).expect_err("refused"));
    assert!(error.contains("`w1` is not a hardware access"), "{error}");
    // SystemRDL's `sw = w; hw = w;` "is meaningless" (nothing reads the field).
    let error = format!("{:?}", parse_str(&spec("wo", "w")).expect_err("refused"));
    assert!(
        error.contains("hardware access `w` of a write-only field"),
        "{error}"
    );
    assert!(parse_str(&spec("wo", "r")).is_ok());
}

/// An IP-XACT file whose `gba:hw` names no hardware access the spec has (a hand edit, another
/// tool's value) is not carried, and says so at the field; `--strict` refuses it.
#[test]
fn an_ipxact_hardware_access_the_spec_has_no_word_for_is_named() {
    let spec = parse_str(
        "device: { name: d, version: \"1\", description: D. }\n\
         blocks:\n  - name: b\n    description: B.\n    offset: 0\n    size: 0x10\n    \
         registers:\n      - name: R\n        description: R.\n        offset: 0\n        \
         width: 32\n        access: rw\n        fields:\n          - { name: F, bits: \
         \"3:0\", description: F., hardware: { access: r } }\n",
    )
    .expect("validates");
    let xml = emit::render_ipxact(&spec, &provenance());
    assert!(xml.contains("<gba:hw>r</gba:hw>"), "{xml}");
    let xml = xml.replace("<gba:hw>r</gba:hw>", "<gba:hw>w1</gba:hw>");
    let imported = ipxact_import::from_str(&xml, false).expect("imports");
    let warnings: Vec<String> = imported.warnings.iter().map(ToString::to_string).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("b.R.F") && w.contains("the hardware access `w1` is not carried")),
        "{warnings:#?}"
    );
    let field = &imported.device.blocks[0].registers[0].fields[0];
    assert_eq!(field.hardware.access, None);
    assert!(
        ipxact_import::from_str(&xml, true).is_err(),
        "--strict refuses"
    );
}
