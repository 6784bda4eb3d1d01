//! msb0 fields (`bit_order: msb0`; SystemRDL's `TOP[0:3]`) are carried, and every software
//! output reads and writes the value, not the mirrored bits. The meaning is the reference
//! tools': systemrdl-compiler elaborates `TOP[0:3]` to `msb = 0`, `lsb = 3` (register bit 0
//! holds the value's most significant bit), and PeakRDL-regblock bit-reverses the field on the
//! bus, so its reset 0x5 reads back as register bits `1010` (0xA). If a new release of either
//! tool changes that meaning, the first test fails.
//!
//! - the import of tests/fixtures/rdl_fuzz/msb0.rdl carries it (no warning; `--strict`
//!   accepts), and our SystemRDL export elaborates to the same msb/lsb and reset;
//! - the spec, IP-XACT (`gba:bitOrder`) and SVD (`<msb0Fields>`) carry it there and back;
//! - the generated Rust crate, given the register bits regblock produces (1010), reads 0x5,
//!   and a write of 0x5 puts 1010 on the bus; the C header's `_get`/`_set` likewise;
//! - `gba diff` names a change of bit order.

mod common;
use common::{chip_crate, python_has, scratch};

use std::process::Command;

use gba_codegen::emit::{self, Provenance};
use gba_codegen::import::svd as svd_import;
use gba_codegen::model::Device;
use gba_codegen::parse_str;

fn fixture() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/rdl_fuzz/msb0.rdl")
}

fn provenance() -> Provenance {
    common::provenance("chip.yaml")
}

/// `REGISTER.FIELD [msb:lsb] msb0|lsb0 reset-bits` of every field.
fn orders(device: &Device) -> Vec<String> {
    common::each_field(device, |r, f| {
        format!(
            "{}.{} {} {} {:#x}",
            *r.name,
            *f.name,
            *f.bits,
            if f.is_msb0() { "msb0" } else { "lsb0" },
            (*r.reset & f.bits.mask()) >> f.bits.lsb
        )
    })
}

#[test]
fn msb0_mirrors_the_value_in_the_reference_compiler_and_rtl_and_the_import_carries_it() {
    if !python_has("systemrdl, peakrdl_regblock") {
        return;
    }
    let dir = scratch("msb0");
    let source = fixture();
    let script = r#"
import sys
from systemrdl import RDLCompiler
from peakrdl_regblock import RegblockExporter
from peakrdl_regblock.cpuif.apb4 import APB4_Cpuif
from peakrdl_regblock.udps import ALL_UDPS
c = RDLCompiler()
for u in ALL_UDPS:
    c.register_udp(u)
c.compile_file(sys.argv[1])
root = c.elaborate()
for f in root.find_by_path("msb0.R").fields():
    print("field", f.inst_name, f.msb, f.lsb, f.get_property("reset"))
RegblockExporter().export(root, sys.argv[2], cpuif_cls=APB4_Cpuif)
"#;
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(&source)
        .arg(dir.path())
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // msb (the value's most significant bit) at register bit 0, lsb at bit 3.
    assert_eq!(String::from_utf8_lossy(&output.stdout), "field TOP 0 3 5\n");
    let rtl = std::fs::read_to_string(dir.path().join("msb0.sv")).expect("regblock's RTL");
    // The readback of the field is its stored value bit-reversed ({<<{...}}: reset 4'h5
    // reads as 4'b1010), and a write stores the bus data bit-reversed.
    assert!(rtl.contains("field_storage.R.TOP.value <= 4'h5;"), "{rtl}");
    assert!(
        rtl.contains("readback_data_var[3:0] = {<<{field_storage.R.TOP.value}};"),
        "{rtl}"
    );
    assert!(
        rtl.contains("assign decoded_wr_data_bswap = {<<{decoded_wr_data}};"),
        "{rtl}"
    );

    // So the import carries it: bits [3:0], msb0, and the register's reset is the bits
    // the bus reads (1010). The one warning is the fixture's register in the root map.
    let imported = gba_codegen::import::rdl::import(&source, false).expect("imports");
    assert_eq!(imported.warnings.len(), 1, "{:#?}", imported.warnings);
    assert!(
        imported.warnings[0].message.contains("root address map"),
        "{:#?}",
        imported.warnings
    );
    assert_eq!(orders(&imported.device), ["R.TOP [3:0] msb0 0xa"]);

    // Our SystemRDL export means the same to the reference compiler: TOP[0:3] = 0x5.
    let device = gba_codegen::validate(imported.device.clone(), &[]).expect("valid");
    let ours = common::systemrdl_reads_back(&device, dir.path(), &provenance());
    let rdl = std::fs::read_to_string(&ours).unwrap();
    assert!(rdl.contains("} TOP[0:3] = 0x5;"), "{rdl}");
    let script = r#"print(f.inst_name, f.msb, f.lsb, f.get_property("reset"))"#;
    assert_eq!(common::reference_fields(&ours, script), ["TOP 0 3 5"]);
}

/// An 8-bit register with a 4-bit msb0 field at bits [3:0] (reset value 0x5, so register
/// bits 1010), a 3-bit msb0 field with values at [7:5], and a 32-bit register with a one-bit
/// field (whose bit order changes nothing) beside a 4-bit msb0 one at [11:8].
const SPEC: &str = "device:
  name: chip
  description: A chip with msb0 fields.
blocks:
  - name: blk
    description: A block.
    offset: 0x0
    size: 0x8
    registers:
      - name: R
        offset: 0x0
        width: 8
        access: rw
        reset: 0xa
        fields:
          - { name: TOP, bits: \"3:0\", bit_order: msb0 }
          - name: MODE
            bits: \"7:5\"
            bit_order: msb0
            values:
              - { name: ONE, value: 1 }
              - { name: SIX, value: 6 }
      - name: W
        offset: 0x4
        width: 32
        access: rw
        reset: 0
        fields:
          - { name: FLAG, bits: 0 }
          - { name: MID, bits: \"11:8\", bit_order: msb0 }
";

const WANT: [&str; 4] = [
    "R.TOP [3:0] msb0 0xa",
    "R.MODE [7:5] msb0 0x0",
    "W.FLAG [0] lsb0 0x0",
    "W.MID [11:8] msb0 0x0",
];

#[test]
fn msb0_goes_through_the_spec_ipxact_and_svd_and_back() {
    let device = parse_str(SPEC).expect("valid");
    assert_eq!(orders(&device), WANT);
    let (text, _) = common::spec_reads_back(&device, "");
    common::assert_occurs(&text, "bit_order: msb0", 3);

    let (xml, back) = common::ipxact_round_trip(&device, &provenance());
    common::assert_occurs(&xml, "<gba:bitOrder>msb0</gba:bitOrder>", 3);
    // A field's reset is its value: TOP's bits 1010 are the value 0x5.
    assert!(xml.contains("<ipxact:value>'h5</ipxact:value>"), "{xml}");
    assert_eq!(orders(&back), WANT);

    let svd = emit::render_svd(&device, &provenance()).expect("SVD");
    assert!(
        svd.contains("<msb0Fields>\n      <field>blk.R.TOP</field>"),
        "{svd}"
    );
    let back = svd_import::from_str(&svd).expect("SVD imports");
    assert_eq!(orders(&back.device), WANT);

    // One bit order per register (SystemRDL's rule): an lsb0 field of two bits beside msb0
    // ones is refused, naming both.
    let spec = SPEC.replace("{ name: FLAG, bits: 0 }", "{ name: FLAG, bits: \"1:0\" }");
    let errors = format!("{:?}", parse_str(&spec).expect_err("refused"));
    assert!(
        errors.contains("field `MID` is msb0 but field `FLAG` is lsb0"),
        "{errors}"
    );
    let spec = SPEC.replacen("bit_order: msb0", "bit_order: backwards", 1);
    let errors = format!("{:?}", parse_str(&spec).expect_err("refused"));
    assert!(
        errors.contains("`bit_order` is `backwards`, not `lsb0` or `msb0`"),
        "{errors}"
    );
}

/// Our SystemRDL of SPEC (msb0 fields with values, a one-bit field beside an msb0 one) means
/// to the reference compiler what the spec says: each msb0 field elaborated with `msb` at its
/// low bit, its reset the value; and it imports back to the same spec.
#[test]
fn our_systemrdl_of_msb0_fields_elaborates_to_the_spec_s_bits_and_values() {
    if !python_has("systemrdl") {
        return;
    }
    let device = parse_str(SPEC).expect("valid");
    let dir = scratch("msb0-rdl");
    let out = common::systemrdl_reads_back(&device, dir.path(), &provenance());
    let script = r#"e = f.get_property("encode")
print(f.parent.inst_name + "." + f.inst_name, f.msb, f.lsb, hex(f.get_property("reset")),
      [(m.name, m.value) for m in e] if e else "")"#;
    assert_eq!(
        common::reference_fields(&out, script),
        [
            "R.TOP 0 3 0x5 ",
            "R.MODE 5 7 0x0 [('ONE', 1), ('SIX', 6)]",
            "W.FLAG 0 0 0x0 ",
            "W.MID 8 11 0x0 ",
        ]
    );
}

#[test]
fn a_change_of_bit_order_is_a_breaking_move() {
    use gba_codegen::diff::{Class, Severity, compare};
    let old = parse_str(SPEC).expect("valid");
    let new = parse_str(&SPEC.replace(
        "{ name: MID, bits: \"11:8\", bit_order: msb0 }",
        "{ name: MID, bits: \"11:8\" }",
    ))
    .expect("valid");
    let diff = compare(&old, &new);
    let changes: Vec<String> = diff
        .changes
        .iter()
        .map(|c| {
            format!(
                "{:?} {:?} {} {:?} {} -> {}",
                c.severity,
                c.class,
                c.path.join("."),
                c.attribute,
                c.old.as_ref().map_or("", |s| &s.value),
                c.new.as_ref().map_or("", |s| &s.value),
            )
        })
        .collect();
    assert_eq!(
        changes,
        ["Breaking Moved blk.W.MID Some(\"bit_order\") msb0 -> lsb0"]
    );
    assert_eq!(diff.verdict(), Some(Severity::Breaking));
    assert!(matches!(diff.changes[0].class, Class::Moved));
    assert!(diff.changes[0].reason.contains("bit-reversed"));
    // A one-bit field's bit order changes nothing.
    let msb0_one = SPEC.replace(
        "{ name: FLAG, bits: 0 }",
        "{ name: FLAG, bits: 0, bit_order: msb0 }",
    );
    let diff = compare(&old, &parse_str(&msb0_one).expect("valid"));
    assert!(diff.changes.is_empty(), "{:?}", diff.changes);
}

/// A driver of the generated crate: the bus holds what regblock's RTL drives.
const DRIVER: &str = "use chip::blk::{R, W};
use chip::tock_registers::interfaces::{ReadWriteable, Readable, Writeable};

#[test]
fn msb0_fields_read_and_write_values() {
    let mut window = vec![0u64; chip::Device::SIZE.div_ceil(8)];
    // SAFETY: `window` is a zeroed, 8-byte-aligned buffer of the whole window, touched only
    // through this handle while it is used.
    let blk = unsafe { chip::Device::from_ptr(window.as_mut_ptr().cast::<u8>()) }.blk();
    // Reset: regblock reads TOP's reset 0x5 as bits 1010.
    blk.r().set(chip::blk::reset::R);
    assert_eq!(blk.r().get(), 0b1010);
    assert_eq!(R::TOP::read(blk.r().get()), 0x5);
    blk.r().write(R::TOP::val(0x1));
    assert_eq!(blk.r().get(), 0b1000, \"value 1 is the field's top bit\");
    blk.r().modify(R::MODE::SIX);
    assert_eq!(blk.r().get(), 0b0110_1000, \"6 = 110 lies as 011 in bits 7:5\");
    assert_eq!(R::MODE::read_as_enum(blk.r().get()), Some(R::MODE::Value::SIX));
    blk.r().modify(R::MODE::Value::ONE.into());
    assert_eq!(blk.r().get() >> 5, 0b100);
    assert_eq!(R::MODE::read(blk.r().get()), 1);
    assert!(blk.r().is_set(R::MODE::BITS));
    // Every value of TOP against a reference written bit by bit: value bit i lies at
    // register bit 3 - i.
    for value in 0..16u8 {
        let mut bits = 0u8;
        for i in 0..4 {
            bits |= ((value >> i) & 1) << (3 - i);
        }
        blk.r().write(R::TOP::val(value));
        assert_eq!(blk.r().get(), bits, \"TOP = {value:#x}\");
        assert_eq!(R::TOP::read(blk.r().get()), value);
    }
    // A one-bit field beside an msb0 one keeps its plain accessors.
    blk.w().write(W::FLAG::SET + W::MID::val(0x3));
    assert_eq!(blk.w().get(), 0xc01);
    assert_eq!(blk.w().read(W::FLAG), 1);
    assert_eq!(W::MID::read(blk.w().get()), 0x3);
    blk.w().modify(W::MID::val(0x8));
    assert_eq!(blk.w().get(), 0x101);
}
";

/// A driver that reads an msb0 field through tock-registers' `Field` (which would mirror
/// its value): it must not compile.
const MISUSE: &str = "use chip::blk::R;
use chip::tock_registers::interfaces::Readable;

#[test]
fn read() {
    let mut window = vec![0u64; chip::Device::SIZE.div_ceil(8)];
    // SAFETY: as in the driver test.
    let blk = unsafe { chip::Device::from_ptr(window.as_mut_ptr().cast::<u8>()) }.blk();
    let _ = blk.r().read(R::TOP);
}
";

#[test]
fn the_generated_rust_reads_and_writes_msb0_values_not_mirrored_bits() {
    let device = parse_str(SPEC).expect("valid");
    let files = emit::all(&device, &provenance()).expect("emits");
    let (_dir, root) = chip_crate(&files, &[("driver", DRIVER), ("misuse", MISUSE)]);
    let output = common::cargo_test(&root, "driver");
    assert!(
        output.status.success() && String::from_utf8_lossy(&output.stdout).contains("1 passed"),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // With every feature (`debug` lists the fields but the msb0 ones, `names`, `device-side`):
    // R's fields are all msb0, so its debug list is empty.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["check", "--offline", "--quiet", "--all-features", "--lib"])
        .current_dir(&root)
        .env(
            "CARGO_TARGET_DIR",
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/accepted-specs"),
        )
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = common::cargo_test(&root, "misuse");
    assert!(
        !output.status.success(),
        "reading an msb0 field as a Field compiled"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    // `R::TOP` is a module, no `Field` constant: "expected value, found module".
    assert!(
        stderr.contains("E0423") && stderr.contains("R::TOP"),
        "{stderr}"
    );
}

#[test]
fn the_generated_c_reads_and_writes_msb0_values_not_mirrored_bits() {
    let Ok(cc) = which_cc() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no C compiler"
        );
        eprintln!("NOT RUN: no C compiler");
        return;
    };
    let device = parse_str(SPEC).expect("valid");
    let files = emit::all(&device, &provenance()).expect("emits");
    let dir = scratch("msb0-c");
    for file in files.iter().filter(|f| f.path.starts_with("include/")) {
        let path = dir.path().join(file.path.trim_start_matches("include/"));
        std::fs::write(path, &file.contents).unwrap();
    }
    let header = std::fs::read_to_string(dir.path().join("chip_regs.h")).unwrap();
    assert!(header.contains("#define CHIP_BLK_R_TOP_MSB0 1"), "{header}");
    let test = "#include <assert.h>\n#include <stdio.h>\n#include \"chip_regs.h\"\n\
        int main(void) {\n\
        assert(chip_blk_r_top_get(CHIP_BLK_R_RESET_VALUE) == 0x5);\n\
        assert(chip_blk_r_top_set(0, 0x1) == 0x8);\n\
        assert(chip_blk_r_mode_set(0, CHIP_BLK_R_MODE_SIX) == 0x60);\n\
        assert(chip_blk_r_mode_get(0x60) == CHIP_BLK_R_MODE_SIX);\n\
        assert(chip_blk_w_mid_set(chip_blk_w_flag_set(0, 1), 3) == 0xc01);\n\
        assert(chip_blk_w_mid_get(0x100) == 0x8);\n\
        puts(\"ok\");\n\
        return 0;\n}\n";
    std::fs::write(dir.path().join("main.c"), test).unwrap();
    for program in ["main.c", "chip_regs_test.c"] {
        let exe = dir.path().join(format!("{program}.out"));
        let built = Command::new(&cc)
            .args([
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Wconversion",
                "-Werror",
                "-o",
            ])
            .arg(&exe)
            .arg(dir.path().join(program))
            .output()
            .expect("cc runs");
        assert!(
            built.status.success(),
            "{program}: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        let ran = Command::new(&exe).output().expect("runs");
        assert!(
            ran.status.success(),
            "{program}: {}{}",
            String::from_utf8_lossy(&ran.stdout),
            String::from_utf8_lossy(&ran.stderr)
        );
    }
}

fn which_cc() -> Result<String, ()> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    Command::new(&cc)
        .arg("--version")
        .output()
        .map(|_| cc)
        .map_err(|_| ())
}
