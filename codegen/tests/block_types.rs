//! Block types: instances of one type at listed offsets share one Rust type, so that a driver
//! written once for the type serves every instance; the C header gives the type's functions
//! once, taking the instance's base. The generated crate is built and its driver test run
//! (`cargo test --offline`, the target directory shared with `accepted_specs_build`).

mod common;

use std::process::Command;

use gba_codegen::emit::{self, Provenance};

const SPEC: &str = "device:
  name: chip
  description: A chip with three ports of one kind at irregular addresses.
blocks:
  - name: port
    description: A GPIO port.
    size: 0x10
    instances:
      - { name: PORTA, offset: 0x0 }
      - { name: PORTB, offset: 0x100, description: The second port near the timer. }
      - { name: PORTC, offset: 0x40 }
    registers:
      - name: OUT
        offset: 0x0
        width: 32
        access: rw
        fields:
          - { name: PIN0, bits: 0 }
          - { name: PIN1, bits: 1 }
      - { name: INPUT, offset: 0x4, width: 32, access: ro }
  - name: timer
    offset: 0x200
    size: 0x10
    registers:
      - { name: COUNT, offset: 0, width: 32, access: ro }
";

/// A driver generic over "a port": it takes the type, whichever instance it is handed.
const DRIVER_TEST: &str = r#"
use chip::port::{Port, OUT};
use chip::tock_registers::interfaces::{ReadWriteable, Readable, Writeable};

/// Sets pin 1 of any port, and reports what the port reads.
fn raise_pin1(port: Port) -> u32 {
    port.out().modify(OUT::PIN1::SET);
    port.out().get()
}

#[test]
fn one_driver_serves_every_instance() {
    let mut window = vec![0u64; chip::Device::SIZE / 8];
    let base = window.as_mut_ptr().cast::<u8>();
    // SAFETY: `window` is a zeroed, 8-byte-aligned buffer of the whole window, touched only
    // through these handles while they are used.
    let device = unsafe { chip::Device::from_ptr(base) };
    let a: Port = device.porta();
    let b: Port = device.portb();
    b.out().set(0b1);
    assert_eq!(raise_pin1(a), 0b10);
    assert_eq!(raise_pin1(b), 0b11);
    assert_eq!(raise_pin1(device.portc()), 0b10);
    let bytes = |offset: usize| {
        // SAFETY: within the window; the handles above are no longer writing.
        unsafe { core::ptr::read_volatile(base.add(offset).cast::<u32>()) }
    };
    assert_eq!(bytes(0x0), 0b10, "PORTA.OUT at 0x0");
    assert_eq!(bytes(0x100), 0b11, "PORTB.OUT at 0x100");
    assert_eq!(bytes(0x40), 0b10, "PORTC.OUT at 0x40");
    assert_eq!(device.timer().count().get(), 0);
}
"#;

fn files() -> Vec<emit::GeneratedFile> {
    let device = gba_codegen::parse_str(SPEC).unwrap_or_else(|d| panic!("{d:#?}"));
    emit::all(
        &device,
        &Provenance {
            spec: "chip.yaml".into(),
            command: "gba gen --spec chip.yaml".into(),
        },
    )
    .expect("emits")
}

fn file<'a>(files: &'a [emit::GeneratedFile], path: &str) -> &'a str {
    &files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no {path}"))
        .contents
}

#[test]
fn a_block_type_is_one_module_and_one_set_of_c_functions() {
    let files = files();
    let rust: Vec<_> = files
        .iter()
        .map(|f| f.path.clone())
        .filter(|p| p.starts_with("src/"))
        .collect();
    assert_eq!(
        rust,
        ["src/lib.rs", "src/common.rs", "src/port.rs", "src/timer.rs"]
    );
    let lib = file(&files, "src/lib.rs");
    for accessor in ["porta", "portb", "portc"] {
        assert!(
            lib.contains(&format!("pub const fn {accessor}(self) -> port::Port<_M>")),
            "{lib}"
        );
    }
    let header = file(&files, "include/chip_regs.h");
    // One set of register functions, for the type; a base per instance.
    assert_eq!(
        header.matches("chip_port_out_write(").count(),
        1,
        "{header}"
    );
    assert!(!header.contains("chip_porta_out_write("), "{header}");
    for (instance, offset) in [("PORTA", "0x0U"), ("PORTB", "0x100U"), ("PORTC", "0x40U")] {
        assert!(
            header.contains(&format!("#define CHIP_{instance}_OFFSET {offset}")),
            "{header}"
        );
    }
    let docs = file(&files, "registers.md");
    assert!(docs.contains("## Block type `port`"), "{docs}");
    assert!(
        docs.contains("- `PORTB` at 0x100: The second port near the timer."),
        "{docs}"
    );
    assert_eq!(docs.matches("### `port.OUT`").count(), 1, "{docs}");
    // The spec writer gives the type back with its instances.
    let device = gba_codegen::parse_str(SPEC).expect("valid");
    let written = gba_codegen::write_spec(&device, "");
    assert_eq!(
        gba_codegen::parse_str(&written).expect("reads back"),
        *device.device()
    );
}

#[test]
fn a_driver_generic_over_a_port_serves_two_instances() {
    let files = files();
    let (_dir, root) = common::chip_crate(&files, &[("driver", DRIVER_TEST)]);
    let output = common::cargo_test(&root, "driver");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "the driver test fails:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The header of a device with a block type compiles without warnings, and its self-test
/// (the type's functions run on an instance's base) passes.
#[test]
fn the_c_header_of_a_block_type_compiles_and_its_self_test_passes() {
    let files = files();
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["include/chip_regs.h", "include/chip_regs_test.c"] {
        std::fs::write(
            dir.path().join(name.trim_start_matches("include/")),
            file(&files, name),
        )
        .expect("write");
    }
    let binary = dir.path().join("selftest");
    let gcc = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o"])
        .arg(&binary)
        .arg(dir.path().join("chip_regs_test.c"))
        .output()
        .expect("gcc runs");
    assert!(
        gcc.status.success(),
        "{}",
        String::from_utf8_lossy(&gcc.stderr)
    );
    let run = Command::new(&binary).output().expect("the self-test runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && stdout.contains("failed 0"),
        "{stdout}"
    );
}
