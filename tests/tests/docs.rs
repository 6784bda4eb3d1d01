//! The register documentation: `registers.md` and one SVG bitfield diagram per register,
//! for the GBA and the uart fixture. Both are committed, and kept current by
//! `generated.rs`; the tests here parse the SVGs and compare what they show with the parsed
//! spec.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use gba_codegen::emit::{GeneratedFile, MARKER};
use gba_codegen::model::Register;
use gba_codegen::project::Target;

use common::root;

fn rendered(target: &Target) -> Vec<GeneratedFile> {
    target.render(&root()).expect("the spec renders")
}

fn file(target: &Target, relative: &str) -> String {
    let path = target.docs.join(relative);
    rendered(target)
        .into_iter()
        .find(|f| Path::new(&f.path) == path)
        .unwrap_or_else(|| panic!("no generated file {}", path.display()))
        .contents
}

fn diagram_path(block: &str, register: &str) -> String {
    format!(
        "registers/{}-{}.svg",
        block.to_lowercase(),
        register.to_lowercase()
    )
}

#[test]
fn every_generated_doc_starts_with_the_marker() {
    for target in [Target::gba(), common::uart_target()] {
        for f in rendered(&target) {
            let head: Vec<&str> = f.contents.lines().take(3).collect();
            assert!(
                head.iter().any(|l| l.contains(MARKER)),
                "{}: no generated-file marker in the first 3 lines",
                f.path
            );
        }
    }
}

#[test]
fn gba_diagrams_show_the_spec() {
    diagrams_show_the_spec(&Target::gba());
}

#[test]
fn uart_diagrams_show_the_spec() {
    diagrams_show_the_spec(&common::uart_target());
}

/// Each register's SVG is well-formed XML and shows every bit number once, every field's
/// name, and reserved bits exactly when some bits belong to no field.
fn diagrams_show_the_spec(target: &Target) {
    let device = common::load_target(target);
    let md = file(target, "registers.md");
    for block in &device.blocks {
        for register in &block.registers {
            let path = diagram_path(&block.name, &register.name);
            assert!(
                md.contains(&format!("]({path})")),
                "registers.md does not show {path}"
            );
            let svg = file(target, &path);
            let doc = roxmltree::Document::parse(&svg)
                .unwrap_or_else(|e| panic!("{path} is not well-formed XML: {e}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg", "{path}");
            let texts: Vec<&str> = doc
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .filter_map(|n| n.text())
                .collect();
            check_bits(&path, register, &texts);
            let labels: BTreeSet<&str> = texts.iter().copied().collect();
            if register.fields.is_empty() {
                assert!(labels.contains(register.name.as_str()), "{path}: no label");
            }
            for field in &register.fields {
                assert!(
                    labels.contains(field.name.as_str()),
                    "{path}: no label for field {}",
                    *field.name
                );
            }
            let covered: u32 = register.fields.iter().map(|f| f.bits.width()).sum();
            let has_gap = !register.fields.is_empty() && covered < *register.width;
            let hatched = doc
                .descendants()
                .any(|n| n.attribute("fill") == Some("url(#reserved)"));
            assert_eq!(hatched, has_gap, "{path}: reserved bits shown wrongly");
        }
    }
}

/// Bit numbers are the only decimal texts above 1 (reset values of wider fields are hex),
/// so every bit of the register must appear and no bit beyond it.
fn check_bits(path: &str, register: &Register, texts: &[&str]) {
    for bit in 0..64u32 {
        let shown = texts.contains(&bit.to_string().as_str());
        if bit < *register.width {
            assert!(shown, "{path}: bit {bit} is not numbered");
        } else {
            assert!(!shown, "{path}: numbers bit {bit}, beyond the register");
        }
    }
}

#[test]
fn field_tables_list_every_field_and_value() {
    for target in [Target::gba(), common::uart_target()] {
        let device = common::load_target(&target);
        let md = file(&target, "registers.md");
        for block in &device.blocks {
            for register in &block.registers {
                for field in &register.fields {
                    let row = format!("| {} | `{}` |", *field.bits, *field.name);
                    assert!(md.contains(&row), "registers.md lacks the row {row}");
                    for value in &field.values {
                        let row = format!("| {} | `{}` |", *value.value, *value.name);
                        assert!(md.contains(&row), "registers.md lacks the value {row}");
                    }
                }
            }
        }
    }
}
