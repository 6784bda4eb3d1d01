//! Why `gba import-rdl` names an msb0 field (`TOP[0:3]`) instead of carrying it as the spec's
//! lsb0 `[3:0]`: in the reference implementations msb0 is not only how a range is written, it
//! mirrors the field's value. systemrdl-compiler elaborates `TOP[0:3]` to `msb = 0`,
//! `lsb = 3` (register bit 0 holds the value's most significant bit), and PeakRDL-regblock
//! bit-reverses such a field on the bus: its reset 0x5 reads back as register bits
//! `1010` (0xA). Software outputs built from lsb0 `[3:0]` with reset 0x5 would expect 0x5 and
//! write every value mirrored, so the import warns at the line and `--strict` refuses
//! (tests/fixtures/rdl_fuzz/msb0.rdl; nothing_silent.rs checks the warning's line). If a new
//! release of either tool changes that meaning, this test fails and the import can carry
//! msb0 as a re-numbering.

mod common;
use common::{python_has, scratch};

use std::process::Command;

#[test]
fn msb0_mirrors_the_value_in_the_reference_compiler_and_rtl() {
    if !python_has("systemrdl, peakrdl_regblock") {
        return;
    }
    let dir = scratch("msb0");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/rdl_fuzz/msb0.rdl");
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

    // So the import names it at the field's line, and strict refuses.
    let imported = gba_codegen::import::rdl::import(&source, false).expect("imports");
    let warning = imported
        .warnings
        .iter()
        .find(|w| w.message.contains("msb0 bit order `[0:3]`"))
        .unwrap_or_else(|| panic!("msb0 not named: {:#?}", imported.warnings));
    assert_eq!(warning.line, Some(7), "{warning:?}");
    assert!(gba_codegen::import::rdl::import(&source, true).is_err());
}
