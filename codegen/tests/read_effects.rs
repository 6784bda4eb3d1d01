//! Reads that modify (`ruser`: CMSIS-SVD's and IP-XACT's `readAction` `modify`, SystemRDL's
//! `onread = ruser`; `rext`: SVD's `modifyExternal`) and values for writing carried through
//! every format that can say them, and named where one cannot.

mod common;

use common::{python_has, scratch};
use gba_codegen::emit::{self, Provenance};
use gba_codegen::import::{ipxact as ipxact_import, rdl, svd as svd_import};
use gba_codegen::model::SideEffect;
use gba_codegen::{Output, parse_str, write_spec};

/// A FIFO whose data register pops on a read (`ruser`), a status register whose read
/// acknowledges an interrupt elsewhere (`rext`, unless `external` is false), and a direction
/// field read as `Input`/`Output` and written `Drive` (`write_values`).
fn spec(external: bool) -> String {
    let status = if external { "rext" } else { "ruser" };
    format!(
        "device: {{ name: fifo, version: \"1\", description: A FIFO. }}
blocks:
  - name: regs
    description: The FIFO.
    offset: 0x0
    size: 0x10
    registers:
      - name: DATA
        description: The oldest entry.
        offset: 0x0
        width: 32
        access: ro
        fields:
          - {{ name: VALUE, bits: \"7:0\", side_effect: ruser, description: Popped by a read. }}
      - name: STATUS
        description: Why it interrupted.
        offset: 0x4
        width: 32
        access: ro
        fields:
          - {{ name: CAUSE, bits: \"1:0\", side_effect: {status}, description: Read to acknowledge. }}
      - name: DIR
        description: The pin's direction.
        offset: 0x8
        width: 32
        access: rw
        fields:
          - name: PIN0
            bits: \"0\"
            description: Pin 0.
            values:
              - {{ name: Input, value: 0, description: An input. }}
              - {{ name: Output, value: 1, description: An output. }}
            write_values:
              - {{ name: Drive, value: 1, description: Make it an output. }}
"
    )
}

fn provenance() -> Provenance {
    Provenance {
        spec: "fifo.yaml".into(),
        command: "gba gen".into(),
    }
}

fn effect(device: &gba_codegen::Device, register: &str) -> Option<SideEffect> {
    device.blocks[0]
        .registers
        .iter()
        .find(|r| *r.name == register)
        .and_then(|r| r.fields[0].side_effect.map(|s| *s))
}

/// Spec → SVD → spec: `readAction` `modify` and `modifyExternal` are written and read back,
/// with no "not represented" warning.
#[test]
fn svd_carries_modify_and_modify_external() {
    let device = parse_str(&spec(true)).expect("valid");
    assert_eq!(effect(&device, "DATA"), Some(SideEffect::ReadModify));
    assert_eq!(
        effect(&device, "STATUS"),
        Some(SideEffect::ReadModifyExternal)
    );
    let xml = emit::render_svd(&device, &provenance()).expect("renders");
    assert!(xml.contains("<readAction>modify</readAction>"), "{xml}");
    assert!(
        xml.contains("<readAction>modifyExternal</readAction>"),
        "{xml}"
    );
    let back = svd_import::from_str(&xml).expect("imports");
    assert!(
        !back
            .warnings
            .iter()
            .any(|w| w.to_string().contains("readAction")),
        "{:#?}",
        back.warnings
    );
    assert_eq!(write_spec(&back.device, "h"), write_spec(&device, "h"));
    assert_eq!(back.device, *device.device());
}

/// Spec → IP-XACT → spec: `readAction` `modify`, and each `enumeratedValue`'s `usage` sorted
/// back into `values` and `write_values` (the importer once read every value as both).
#[test]
fn ipxact_carries_modify_and_values_by_usage() {
    let device = parse_str(&spec(false)).expect("valid");
    let xml = emit::render_ipxact(&device, &provenance());
    assert!(
        xml.contains("<ipxact:readAction>modify</ipxact:readAction>"),
        "{xml}"
    );
    assert!(xml.contains("usage=\"write\""), "{xml}");
    let back = ipxact_import::from_str(&xml, true).expect("imports strictly");
    assert_eq!(back.device, *device.device());
    let pin = &back.device.blocks[0].registers[2].fields[0];
    let names = |v: &[gba_codegen::model::EnumValue]| -> Vec<String> {
        v.iter().map(|e| e.name.value.clone()).collect()
    };
    assert_eq!(names(&pin.values), ["Input", "Output"]);
    assert_eq!(names(&pin.write_values), ["Drive"]);
}

/// IP-XACT values without `usage` serve both (the schema's default `read-write`), and so do
/// values all `usage="write"` (the spec has no values for writing alone): no `write_values`.
#[test]
fn ipxact_values_of_one_usage_are_plain_values() {
    let device = parse_str(&spec(false)).expect("valid");
    let xml = emit::render_ipxact(&device, &provenance());
    let drive = xml
        .find("<ipxact:enumeratedValue usage=\"write\">")
        .expect("Drive");
    let end = drive
        + xml[drive..]
            .find("</ipxact:enumeratedValue>")
            .expect("its end");
    let without_drive = format!(
        "{}{}",
        &xml[..drive],
        &xml[end + "</ipxact:enumeratedValue>".len()..]
    );
    for (from, to) in [
        (" usage=\"read\"", ""),
        (" usage=\"read\"", " usage=\"write\""),
    ] {
        let back = ipxact_import::from_str(&without_drive.replace(from, to), true)
            .expect("imports strictly");
        let pin = &back.device.blocks[0].registers[2].fields[0];
        let names: Vec<&str> = pin.values.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["Input", "Output"], "usage {to:?}");
        assert!(pin.write_values.is_empty(), "usage {to:?}");
    }
}

/// IP-XACT cannot say "outside the field": `rext` is `readAction` `modify` there, with our
/// extension beside it, which reads back as `rext`; SystemRDL's `onread = ruser` needs an
/// `external` register, so both are our property alone (and peakrdl-ipxact, which turns
/// `modify` into `ruser`, cannot import the IP-XACT). Asking for those outputs warns by the
/// field's name.
#[test]
fn read_effects_beyond_the_formats_are_named() {
    let device = parse_str(&spec(true)).expect("valid");
    for (output, register) in [
        (Output::SystemRdl, "regs.DATA.VALUE"),
        (Output::SystemRdl, "regs.STATUS.CAUSE"),
        (Output::IpXact, "regs.STATUS.CAUSE"),
    ] {
        let warnings = emit::warnings(&device, &[output]);
        assert!(
            warnings.iter().any(|w| w.message.contains(register)),
            "{output}: {warnings:#?}"
        );
    }
    // IP-XACT has `modify`, but peakrdl-ipxact makes it `onread = ruser`, which
    // systemrdl-compiler refuses outside `external` registers: named too.
    assert!(
        emit::warnings(&device, &[Output::IpXact])
            .iter()
            .any(|w| w.message.contains("regs.DATA.VALUE")
                && w.notes.iter().any(|n| n.contains("peakrdl-ipxact"))),
        "IP-XACT's `modify` and peakrdl-ipxact"
    );
    let xml = emit::render_ipxact(&device, &provenance());
    assert!(xml.contains("<gba:onread>rext</gba:onread>"), "{xml}");
    let back = ipxact_import::from_str(&xml, true).expect("imports strictly");
    assert_eq!(back.device, *device.device());
    // A tool that does not read the extension sees `modify`.
    let foreign = xml.replace("<gba:onread>rext</gba:onread>", "");
    let back = ipxact_import::from_str(&foreign, true).expect("imports strictly");
    assert_eq!(effect(&back.device, "STATUS"), Some(SideEffect::ReadModify));
}

/// Spec → SystemRDL → systemrdl-compiler → spec: `ruser` and `rext` in our property, which the
/// compiler accepts (it refuses `onread = ruser` on a register that is not `external`).
#[test]
fn systemrdl_carries_read_effects() {
    if !python_has("systemrdl") {
        return;
    }
    let mut text = spec(true);
    // SystemRDL has one `encode` per field: the values for writing stay out of this test.
    let cut = text
        .find("            write_values:")
        .expect("the spec has them");
    text.truncate(cut);
    let device = parse_str(&text).expect("valid");
    let rdl_text = emit::render_systemrdl(&device, &provenance());
    assert!(rdl_text.contains("gba_onread = \"ruser\";"), "{rdl_text}");
    assert!(rdl_text.contains("gba_onread = \"rext\";"), "{rdl_text}");
    let dir = scratch("read-effects-rdl");
    let path = dir.path().join("fifo.rdl");
    std::fs::write(&path, rdl_text).expect("writes");
    let back = rdl::import(&path, true).expect("systemrdl-compiler elaborates it");
    assert_eq!(back.device, *device.device());
}

/// Rust and C say that reading has a side effect: Rust's register doc names the fields, and
/// the register's only read is `read_and_clear` (access mode `RoRc`: no `get`, so neither
/// tock-registers' `debug()` nor anything else reads it by the way); C's read accessor says
/// so.
#[test]
fn generated_code_says_a_read_has_a_side_effect() {
    let device = parse_str(&spec(true)).expect("valid");
    let files = emit::all(&device, &provenance()).expect("emits");
    let text = |suffix: &str| -> String {
        files
            .iter()
            .filter(|f| f.path.ends_with(suffix))
            .map(|f| f.contents.clone())
            .collect()
    };
    let rust = text(".rs");
    assert!(
        rust.contains("Reg<u32, DATA::Register, crate::common::RoRc, _M>"),
        "{rust}"
    );
    assert!(
        rust.contains("Reg<u32, STATUS::Register, crate::common::RoRc, _M>"),
        "{rust}"
    );
    assert!(
        rust.contains("Reading changes VALUE: every read has a side effect"),
        "{rust}"
    );
    let c = text(".h");
    assert!(
        c.contains("Has a side effect: reading changes the device (CAUSE)"),
        "{c}"
    );
}
