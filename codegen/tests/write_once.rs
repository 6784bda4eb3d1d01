//! Write-once fields (the spec's `write_once: true`; SystemRDL's `sw = w1`/`rw1`, SVD's and
//! IP-XACT's `writeOnce`/`read-writeOnce`): the first write after reset latches the field.
//! Carried through the spec, SystemRDL (judged by systemrdl-compiler), IP-XACT and SVD and
//! back; refused on a field software cannot write. In the generated Rust a register holding
//! one has no `modify` (whose write would spend the field's one write on what the read gave):
//! the generated crate is built with a driver that reads and writes it whole, and a driver
//! that calls `modify` does not compile. `gba diff` calls a field becoming write-once breaking.

mod common;
use common::{python_has, scratch};

use std::process::Command;

use gba_codegen::emit::{self, GeneratedFile, Provenance};
use gba_codegen::import::{ipxact as ipxact_import, svd as svd_import};
use gba_codegen::model::Device;
use gba_codegen::parse_str;

/// A key register whose `KEY` latches once (read-write-once) beside a plain `MODE`, a
/// write-only-once `ID`, and a plain register.
const SPEC: &str = "device:
  name: chip
  description: A chip with write-once fields.
blocks:
  - name: sec
    description: Security settings.
    offset: 0x0
    size: 0x10
    registers:
      - name: CONFIG
        offset: 0x0
        width: 32
        access: rw
        reset: 0
        fields:
          - { name: KEY, bits: \"7:0\", write_once: true }
          - { name: MODE, bits: \"9:8\" }
      - name: ID
        offset: 0x4
        width: 32
        access: wo
        reset: 0
        fields:
          - { name: ID, bits: \"15:0\", write_once: true }
      - name: DATA
        offset: 0x8
        width: 32
        access: rw
        reset: 0
        fields:
          - { name: VALUE, bits: \"31:0\" }
";

fn provenance() -> Provenance {
    common::provenance("chip.yaml")
}

/// `REGISTER.FIELD access write_once` of every field.
fn once(device: &Device) -> Vec<String> {
    common::each_field(device, |r, f| {
        format!(
            "{}.{} {} {}",
            *r.name,
            *f.name,
            f.effective_access(r).keyword(),
            f.write_once
        )
    })
}

const WANT: [&str; 4] = [
    "CONFIG.KEY rw true",
    "CONFIG.MODE rw false",
    "ID.ID wo true",
    "DATA.VALUE rw false",
];

#[test]
fn write_once_goes_through_the_spec_and_every_interchange_format_and_back() {
    let device = parse_str(SPEC).expect("valid");
    assert_eq!(once(&device), WANT);
    let (text, _) = common::spec_reads_back(&device, "");
    common::assert_occurs(&text, "write_once: true", 2);

    let svd = emit::render_svd(&device, &provenance()).expect("SVD");
    assert!(svd.contains("<access>read-writeOnce</access>"), "{svd}");
    assert!(svd.contains("<access>writeOnce</access>"), "{svd}");
    let back = svd_import::from_str(&svd).expect("SVD imports");
    assert_eq!(once(&back.device), WANT);
    assert!(
        !back.warnings.iter().any(|w| w.message.contains("once")),
        "{:#?}",
        back.warnings
    );

    let (xml, back) = common::ipxact_round_trip(&device, &provenance());
    assert!(
        xml.contains("<ipxact:access>read-writeOnce</ipxact:access>"),
        "{xml}"
    );
    assert!(
        xml.contains("<ipxact:access>writeOnce</ipxact:access>"),
        "{xml}"
    );
    assert_eq!(once(&back), WANT);
    // A register's `writeOnce` makes its fields without an access of their own write-once.
    common::assert_occurs(&xml, "<ipxact:access>write-only</ipxact:access>", 1);
    let register_level = xml
        .replacen("<ipxact:access>writeOnce</ipxact:access>", "", 1)
        .replacen(
            "<ipxact:access>write-only</ipxact:access>",
            "<ipxact:access>writeOnce</ipxact:access>",
            1,
        );
    let back = ipxact_import::from_str(&register_level, true).expect("imports strictly");
    assert_eq!(once(&back.device), WANT);

    if !python_has("systemrdl") {
        return;
    }
    let dir = scratch("write-once");
    let out = common::systemrdl_reads_back(&device, dir.path(), &provenance());
    // The reference front end reads our SystemRDL's write-once fields as such.
    let sw = r#"print(f.parent.inst_name + "." + f.inst_name, f.get_property("sw").name)"#;
    let want = [
        "CONFIG.KEY rw1",
        "CONFIG.MODE rw",
        "ID.ID w1",
        "DATA.VALUE rw",
    ];
    assert_eq!(common::reference_fields(&out, sw), want);

    // The reference IP-XACT importer reads our IP-XACT's write-once fields as such.
    if !python_has("peakrdl_ipxact") {
        return;
    }
    let ipxact = dir.path().join("chip.xml");
    std::fs::write(&ipxact, &xml).unwrap();
    assert_eq!(common::reference_fields(&ipxact, sw), want);
}

#[test]
fn write_once_on_a_field_software_cannot_write_is_refused() {
    let spec = SPEC.replace("access: wo", "access: ro");
    let errors = parse_str(&spec).expect_err("refused");
    let text = format!("{errors:?}");
    assert!(
        text.contains("field `ID` is `write_once` but `ro`"),
        "{text}"
    );
    let spec = SPEC.replacen("write_once: true", "write_once: sometimes", 1);
    let errors = parse_str(&spec).expect_err("refused");
    let text = format!("{errors:?}");
    assert!(
        text.contains("`write_once` must be `true` or `false`"),
        "{text}"
    );
}

fn file<'f>(files: &'f [GeneratedFile], suffix: &str) -> &'f str {
    &files
        .iter()
        .find(|f| f.path.ends_with(suffix))
        .unwrap_or_else(|| panic!("no {suffix}"))
        .contents
}

/// A driver of the generated crate: CONFIG reads and writes whole (KEY latched with MODE in
/// one write); DATA keeps tock-registers' `modify`.
const DRIVER: &str = "use chip::sec::{CONFIG, DATA};
use chip::tock_registers::interfaces::{ReadWriteable, Readable};

#[test]
fn whole_writes() {
    let mut window = vec![0u64; chip::Device::SIZE / 8];
    // SAFETY: `window` is a zeroed, 8-byte-aligned buffer of the whole window, touched only
    // through this handle while it is used.
    let sec = unsafe { chip::Device::from_ptr(window.as_mut_ptr().cast::<u8>()) }.sec();
    sec.config().write(CONFIG::KEY.val(0x5a) + CONFIG::MODE.val(2));
    assert_eq!(sec.config().read(CONFIG::KEY), 0x5a);
    assert_eq!(sec.config().read(CONFIG::MODE), 2);
    sec.data().modify(DATA::VALUE.val(7));
    assert_eq!(sec.data().get(), 7);
}
";

/// A driver that would spend KEY's one write by a read-modify-write of MODE.
const MISUSE: &str = "use chip::sec::CONFIG;
use chip::tock_registers::interfaces::ReadWriteable;

#[test]
fn modify() {
    let mut window = vec![0u64; chip::Device::SIZE / 8];
    // SAFETY: as in the driver test.
    let sec = unsafe { chip::Device::from_ptr(window.as_mut_ptr().cast::<u8>()) }.sec();
    sec.config().modify(CONFIG::MODE.val(1));
}
";

#[test]
fn a_register_holding_a_write_once_field_has_whole_writes_and_no_modify() {
    let device = parse_str(SPEC).expect("valid");
    let files = emit::all(&device, &provenance()).expect("emits");
    let rust: String = files
        .iter()
        .filter(|f| f.path.ends_with(".rs"))
        .map(|f| f.contents.clone())
        .collect();
    assert!(rust.contains("pub enum RwOnce {}"), "{rust}");
    common::assert_occurs(&rust, "crate::common::RwOnce", 1);
    let header = file(&files, "chip_regs.h");
    common::assert_occurs(
        header,
        "write-once (the first write after reset latches it)",
        2,
    );
    assert!(file(&files, "registers.md").contains("rw, write-once"));
    // The header (with its self-test) compiles without warnings.
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["include/chip_regs.h", "include/chip_regs_test.c"] {
        std::fs::write(
            dir.path().join(name.trim_start_matches("include/")),
            file(&files, name),
        )
        .expect("write");
    }
    let gcc = Command::new("gcc")
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-c",
            "-o",
        ])
        .arg(dir.path().join("selftest.o"))
        .arg(dir.path().join("chip_regs_test.c"))
        .output()
        .expect("gcc runs");
    assert!(
        gcc.status.success(),
        "{}",
        String::from_utf8_lossy(&gcc.stderr)
    );

    let (_dir, root) = common::chip_crate(&files, &[("driver", DRIVER), ("misuse", MISUSE)]);
    let run = |test: &str| common::cargo_test(&root, test);
    let output = run("driver");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "the driver test fails:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = run("misuse");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("modify") && stderr.contains("E0599"),
        "`modify` of a register holding a write-once field compiles:\n{stderr}"
    );
}

#[test]
fn gba_diff_reports_a_field_becoming_write_once_as_breaking() {
    use gba_codegen::diff::{Class, Severity, compare};
    let old = parse_str(&SPEC.replacen(", write_once: true", "", 1)).expect("valid");
    let new = parse_str(SPEC).expect("valid");
    let diff = compare(&old, &new);
    let changes: Vec<String> = diff
        .changes
        .iter()
        .map(|c| {
            format!(
                "{:?} {:?} {} {:?}",
                c.severity,
                c.class,
                c.path.join("."),
                c.attribute
            )
        })
        .collect();
    assert_eq!(
        changes,
        ["Breaking AccessChanged sec.CONFIG.KEY Some(\"write_once\")"]
    );
    assert_eq!(diff.verdict(), Some(Severity::Breaking));
    assert!(matches!(diff.changes[0].class, Class::AccessChanged));
    assert!(diff.changes[0].reason.contains("now write-once"));
    assert!(compare(&new, &new).changes.is_empty());
}
