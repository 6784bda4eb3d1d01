//! SystemRDL and IP-XACT, both directions: yaml → rdl → yaml and yaml → IP-XACT → yaml are
//! the identity on gba.yaml and every fixture spec, the field's reference front ends accept
//! every export (systemrdl-compiler elaborates the .rdl, peakrdl-ipxact imports the XML), and
//! what a spec cannot carry is warned about, or refused with `--strict`.
//!
//! The Python front ends come from `tests/install.sh`. Without them a test here says so and
//! passes only outside CI: under `CI=true` it fails.

mod common;
use common::{python_has, scratch};

use std::path::{Path, PathBuf};
use std::process::Command;

use gba_codegen::emit::{self, Provenance};
use gba_codegen::import::{Treatment, ipxact as ipxact_import, rdl};
use gba_codegen::{Validated, parse_str, write_spec};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// gba.yaml and every valid fixture spec.
fn specs() -> Vec<PathBuf> {
    let mut specs = vec![
        root().join("gba.yaml"),
        root().join("tests/fixtures/uart/uart.yaml"),
        root().join("tests/fixtures/rp2040/rp2040.yaml"),
        // Every side effect, locks, views, and resets per element and per instance.
        root().join("tests/fixtures/cosim/effects.yaml"),
    ];
    let mut diff: Vec<PathBuf> = std::fs::read_dir(root().join("tests/fixtures/diff"))
        .expect("tests/fixtures/diff exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml") && !p.ends_with("invalid.yaml"))
        .collect();
    diff.sort();
    assert!(diff.len() >= 10, "the diff fixtures went missing");
    specs.extend(diff);
    specs
}

/// The device as SystemRDL and IP-XACT carry it: each instance of a block type is a block of
/// its own there (docs/spec-format.md, "Block types"), so the type is not read back.
fn without_block_types(device: &gba_codegen::Device) -> gba_codegen::Device {
    let mut device = device.clone();
    for block in &mut device.blocks {
        block.instance_of = None;
    }
    device
}

fn load(path: &Path) -> Validated {
    let text = std::fs::read_to_string(path).expect("the spec is readable");
    parse_str(&text).unwrap_or_else(|d| panic!("{}: {d:?}", path.display()))
}

fn provenance(path: &Path) -> Provenance {
    Provenance {
        spec: path.display().to_string(),
        command: "gba gen".into(),
    }
}

/// Spec → SystemRDL → spec through systemrdl-compiler, strictly (no warning at all).
#[test]
fn yaml_to_systemrdl_to_yaml_is_the_identity() {
    if !python_has("systemrdl") {
        return;
    }
    let dir = scratch("interchange-rdl");
    for spec in specs() {
        let device = load(&spec);
        let path = dir.path().join("spec.rdl");
        std::fs::write(&path, emit::render_systemrdl(&device, &provenance(&spec))).unwrap();
        let imported = rdl::import(&path, true).unwrap_or_else(|e| {
            panic!(
                "{}: the SystemRDL export does not import strictly: {e}",
                spec.display()
            )
        });
        let device = without_block_types(&device);
        assert_eq!(imported.device, device, "{}", spec.display());
        assert_eq!(
            write_spec(&imported.device, "h"),
            write_spec(&device, "h"),
            "{}",
            spec.display()
        );
    }
}

/// Spec → IP-XACT → spec, strictly.
#[test]
fn yaml_to_ipxact_to_yaml_is_the_identity() {
    for spec in specs() {
        let device = load(&spec);
        let xml = emit::render_ipxact(&device, &provenance(&spec));
        let imported = ipxact_import::from_str(&xml, true).unwrap_or_else(|e| {
            panic!(
                "{}: the IP-XACT export does not import strictly: {e}",
                spec.display()
            )
        });
        assert_eq!(
            imported.device,
            without_block_types(&device),
            "{}",
            spec.display()
        );
    }
}

/// peakrdl-ipxact imports every exported XML and systemrdl-compiler elaborates what it
/// made of it, with the same registers at the same addresses as the spec (the alternate
/// views are in a memoryRemap, which peakrdl-ipxact leaves out unless asked for its state).
#[test]
fn peakrdl_ipxact_imports_every_export() {
    if !python_has("systemrdl, peakrdl_ipxact") {
        return;
    }
    let dir = scratch("interchange-ipxact");
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for (i, spec) in specs().into_iter().enumerate() {
        let device = load(&spec);
        let path = dir.path().join(format!("{i}.xml"));
        std::fs::write(&path, emit::render_ipxact(&device, &provenance(&spec))).unwrap();
        files.push(path);
        // Register elements outside alternate views, as peakrdl-ipxact sees the map.
        let count: u64 = device
            .blocks
            .iter()
            .filter(|b| b.alternate_of.is_none())
            .map(|b| {
                let blocks = b.array.as_ref().map_or(1, |a| *a.count);
                let registers: u64 = b
                    .registers
                    .iter()
                    .filter(|r| r.alternate_of.is_none())
                    .map(|r| r.array.as_ref().map_or(1, |a| *a.count))
                    .sum();
                blocks * registers
            })
            .sum();
        expected.push(format!("{count}"));
    }
    let script = r#"
import sys
from systemrdl import RDLCompiler, node
from peakrdl_ipxact import IPXACTImporter
for path in sys.argv[1:]:
    compiler = RDLCompiler()
    IPXACTImporter(compiler).import_file(path, remap_state="default")
    root = compiler.elaborate()
    print(sum(1 for n in root.descendants(unroll=True) if isinstance(n, node.RegNode)))
"#;
    let output = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(&files)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "peakrdl-ipxact refused an export:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let counts: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        counts,
        expected,
        "register elements per spec: {:?}",
        specs()
    );
}

/// The committed exports are what the SystemRDL reference front end accepts.
#[test]
fn systemrdl_compiler_elaborates_the_committed_exports() {
    if !python_has("systemrdl") {
        return;
    }
    let file = "gba-pac/gba.rdl";
    let imported = rdl::import(&root().join(file), true).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(imported.warnings.is_empty());
}

const FOREIGN_RDL: &str = r#"
addrmap chip {
    reg {
        field { sw = rw; onwrite = woclr; } DONE[0:0] = 0;
        field { sw = rw; singlepulse; } GO[1:1] = 0;
        field { sw = r; onread = rclr; } COUNT[15:8] = 0;
        field { sw = rw; onwrite = wzc; } ZC[16:16] = 1;
    } STATUS @ 0x0;
    reg {
        field { sw = rw; } LOCKED[0:0] = 0;
        field { sw = rw; } OPEN[1:1] = 0;
    } LOCK @ 0x4;
    reg { field { sw = rw; } DIV[7:0] = 0; field { sw = r; } BUSY[8:8] = 0; } CFG @ 0x8;
    reg { field { sw = rw; } A[0:0] = 0; field { sw = rw; } B[1:1] = 0; } HALF @ 0xC;
    CFG.DIV->swwel = LOCK.LOCKED;
    HALF.A->swwe = LOCK.OPEN;
    regfile {
        reg { field { sw = w; } D[7:0]; } TX @ 0x0;
    } fifo[2] @ 0x10 += 0x8;
    signal { signalwidth = 4; } pins;
    reg { field { sw = r; reset = pins; } STRAPPED[3:0]; field { sw = r; } OTHER[7:4] = 2; } ID @ 0x20;
};
"#;

/// What a SystemRDL file holds that the spec cannot is warned about, item by item, with the
/// file's line; `--strict` refuses the file instead.
#[test]
fn foreign_systemrdl_warns_and_strict_refuses() {
    if !python_has("systemrdl") {
        return;
    }
    let dir = scratch("interchange-foreign");
    let path = dir.path().join("chip.rdl");
    std::fs::write(&path, FOREIGN_RDL).unwrap();
    let imported = rdl::import(&path, false).expect("imports leniently");
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    let has = |needle: &str| messages.iter().any(|m| m.contains(needle));
    // `wzc`, `singlepulse` and a lock of every writable field are carried: no warning.
    assert!(!has("wzc"), "{messages:#?}");
    assert!(!has("singlepulse"), "{messages:#?}");
    assert!(!has("CFG"), "{messages:#?}");
    // A lock of some of a register's writable fields is not: the spec locks registers.
    assert!(
        has("chip.HALF.A: `swwe` by `LOCK.OPEN` on some of the register's writable fields only"),
        "{messages:#?}"
    );
    let zc = imported
        .device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .flat_map(|r| &r.fields)
        .find(|f| *f.name == "ZC")
        .expect("field ZC");
    assert_eq!(
        zc.side_effect.map(|e| *e),
        Some(gba_codegen::model::SideEffect::WriteZeroToClear)
    );
    assert!(
        has("register file array `fifo[2]` unrolled"),
        "{messages:#?}"
    );
    assert!(imported.warnings.iter().all(|w| w.line.is_some()));
    assert!(
        imported
            .warnings
            .iter()
            .any(|w| w.treatment == Treatment::Reshaped)
    );
    let block = &imported.device.blocks[0];
    let status = &block.registers[0];
    let effect = |name: &str| {
        status
            .fields
            .iter()
            .find(|f| *f.name == name)
            .and_then(|f| f.side_effect.map(|s| s.keyword()))
    };
    assert_eq!(effect("DONE"), Some("woclr"));
    assert_eq!(effect("COUNT"), Some("rclr"));
    assert_eq!(effect("GO"), Some("singlepulse"));
    assert_eq!(*status.reset, 1 << 16);
    let names: Vec<&str> = block.registers.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "STATUS", "LOCK", "CFG", "HALF", "fifo0_TX", "fifo1_TX", "ID"
        ]
    );
    // A reset from a signal is a strap, carried without a warning.
    let id = &block.registers[6];
    assert_eq!(
        id.fields[0].reset_from.map(|r| *r),
        Some(gba_codegen::model::ResetFrom::Strap)
    );
    assert_eq!(*id.reset, 0x20);
    assert!(!has("chip.ID"), "{messages:#?}");
    assert_eq!(*block.registers[5].offset, 0x18);
    let lock = block.registers[2].lock.as_ref().expect("CFG is locked");
    assert_eq!(
        (
            lock.register.as_str(),
            lock.field.as_str(),
            lock.locked_when
        ),
        ("LOCK", "LOCKED", true)
    );
    assert_eq!(block.registers[3].lock, None);
    let refused = rdl::import(&path, true).expect_err("--strict refuses");
    assert!(
        refused.to_string().contains("`swwe` by `LOCK.OPEN`"),
        "{refused}"
    );
}

/// A file systemrdl-compiler refuses is refused with its message.
#[test]
fn invalid_systemrdl_is_refused_with_the_compilers_message() {
    if !python_has("systemrdl") {
        return;
    }
    let dir = scratch("interchange-invalid");
    let path = dir.path().join("bad.rdl");
    std::fs::write(&path, "addrmap x { reg { field {} F[40:0]; } R; };\n").unwrap();
    let error = rdl::import(&path, false).expect_err("refused").to_string();
    assert!(
        error.contains("systemrdl-compiler refused the file"),
        "{error}"
    );
    assert!(error.contains("bad.rdl"), "{error}");
}

/// IP-XACT that is not ours: a second memory map, an alternate register and a memoryRemap
/// are warned about; 1685-2009's register-level reset is read.
#[test]
fn foreign_ipxact_warns_and_strict_refuses() {
    let xml = r#"<?xml version="1.0"?>
<spirit:component xmlns:spirit="http://www.spiritconsortium.org/XMLSchema/SPIRIT/1.5">
  <spirit:vendor>v</spirit:vendor><spirit:library>l</spirit:library>
  <spirit:name>chip</spirit:name><spirit:version>2</spirit:version>
  <spirit:memoryMaps>
    <spirit:memoryMap><spirit:name>main</spirit:name>
      <spirit:addressBlock><spirit:name>ctl</spirit:name>
        <spirit:baseAddress>0x100</spirit:baseAddress><spirit:range>0x10</spirit:range>
        <spirit:width>32</spirit:width>
        <spirit:register><spirit:name>CTRL</spirit:name><spirit:addressOffset>4</spirit:addressOffset>
          <spirit:size>32</spirit:size><spirit:access>read-write</spirit:access>
          <spirit:reset><spirit:value>0x5</spirit:value></spirit:reset>
          <spirit:field><spirit:name>EN</spirit:name><spirit:bitOffset>0</spirit:bitOffset>
            <spirit:bitWidth>1</spirit:bitWidth>
            <spirit:modifiedWriteValue>oneToClear</spirit:modifiedWriteValue></spirit:field>
          <spirit:field><spirit:name>MODE</spirit:name><spirit:bitOffset>1</spirit:bitOffset>
            <spirit:bitWidth>2</spirit:bitWidth>
            <spirit:modifiedWriteValue>zeroToToggle</spirit:modifiedWriteValue></spirit:field>
          <spirit:alternateRegisters><spirit:alternateRegister><spirit:name>CTRL_ALT</spirit:name>
          </spirit:alternateRegister></spirit:alternateRegisters>
        </spirit:register>
      </spirit:addressBlock>
    </spirit:memoryMap>
    <spirit:memoryMap><spirit:name>debug</spirit:name></spirit:memoryMap>
  </spirit:memoryMaps>
</spirit:component>"#;
    let imported = ipxact_import::from_str(xml, false).expect("imports leniently");
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    let has = |needle: &str| messages.iter().any(|m| m.contains(needle));
    assert!(has("memory map `debug`"), "{messages:#?}");
    assert!(has("alternate register `CTRL_ALT`"), "{messages:#?}");
    // `zeroToToggle` is carried: no warning, and the field has it.
    assert!(!has("zeroToToggle"), "{messages:#?}");
    let register = &imported.device.blocks[0].registers[0];
    let mode = register.fields.iter().find(|f| *f.name == "MODE").unwrap();
    assert_eq!(
        mode.side_effect.map(|e| *e),
        Some(gba_codegen::model::SideEffect::WriteZeroToToggle)
    );
    assert_eq!((*register.offset, *register.reset), (4, 5));
    assert_eq!(*imported.device.blocks[0].offset, 0x100);
    assert_eq!(
        register.fields[0].side_effect.map(|s| s.keyword()),
        Some("woclr")
    );
    let refused = ipxact_import::from_str(xml, true).expect_err("--strict refuses");
    assert!(refused.to_string().contains("CTRL_ALT"), "{refused}");
}

#[test]
fn not_ipxact_is_refused_clearly() {
    let error = ipxact_import::from_str("<device/>", false)
        .expect_err("refused")
        .to_string();
    assert!(error.contains("root element is <device>"), "{error}");
    let error = ipxact_import::from_str("<component", false)
        .expect_err("refused")
        .to_string();
    assert!(error.starts_with("not XML"), "{error}");
}

/// A write lock SystemRDL and IP-XACT cannot carry (an alternate view's: the reference would
/// cross address maps) is warned about by name when those outputs are asked for, and left
/// out of both exports; the uart fixture's locks and single pulse are carried (the identity
/// tests above), so it gets no such warning.
#[test]
fn what_the_exports_do_not_carry_is_warned_by_name() {
    use gba_codegen::emit::Output;
    let uart = std::fs::read_to_string(root().join("tests/fixtures/uart/uart.yaml")).unwrap();
    let outputs = [Output::SystemRdl, Output::IpXact];
    let device = gba_codegen::parse_str_for(&uart, &outputs).expect("uart.yaml is valid");
    assert!(
        device
            .warnings()
            .iter()
            .all(|w| !w.message.contains("cannot carry")),
        "{:#?}",
        device.warnings()
    );
    let spec = r#"
device: { name: chip, version: "1" }
blocks:
  - name: regs
    offset: 0x0
    size: 0x10
    registers:
      - name: LOCK
        offset: 0x0
        width: 32
        access: rw
        fields: [{ name: HELD, bits: 0 }]
      - name: CFG
        offset: 0x4
        width: 32
        access: ro
      - name: CFG_W
        offset: 0x4
        width: 32
        access: wo
        alternate_of: CFG
        locked_by: LOCK.HELD
"#;
    let device = gba_codegen::parse_str_for(spec, &outputs).expect("the spec is valid");
    let warnings: Vec<&str> = device
        .warnings()
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    for format in ["SystemRDL", "IP-XACT"] {
        let expected = format!("the {format} output cannot carry register `CFG_W`'s write lock");
        assert!(warnings.contains(&expected.as_str()), "{warnings:#?}");
    }
    let rdl = emit::render_systemrdl(&device, &provenance(Path::new("chip.yaml")));
    assert!(!rdl.contains("swwel"), "{rdl}");
    let xml = emit::render_ipxact(&device, &provenance(Path::new("chip.yaml")));
    assert!(!xml.contains("swwel"), "{xml}");
}
