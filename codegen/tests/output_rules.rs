//! Each class of spec that once passed `gba check` but broke an output: refused with a
//! located message naming the clash, or generated so that it cannot break. The property test
//! (`accepted_specs_build.rs`) proves the rule in general; these name the cases.

use gba_codegen::emit::{self, Output, Provenance};
use gba_codegen::{Diagnostic, parse_str, parse_str_for};

fn spec(blocks: &str) -> String {
    format!("device: {{ name: dev, version: '1' }}\nblocks:\n{blocks}")
}

fn block(name: &str, registers: &str) -> String {
    format!("  - name: {name}\n    offset: 0\n    size: 0x100\n    registers:\n{registers}")
}

fn refused(text: &str) -> Vec<Diagnostic> {
    match parse_str(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(diagnostics) => diagnostics,
    }
}

/// The one diagnostic whose message contains `needle`, with its line.
fn find<'a>(diagnostics: &'a [Diagnostic], needle: &str) -> &'a Diagnostic {
    diagnostics
        .iter()
        .find(|d| d.message.contains(needle))
        .unwrap_or_else(|| panic!("no `{needle}` among {diagnostics:#?}"))
}

const REG: &str = "      - { name: R, offset: 0, width: 32, access: rw }\n";

#[test]
fn blocks_named_like_the_crates_own_modules_are_refused() {
    for name in ["common", "lib", "tock_registers", "main", "CORE"] {
        let found = refused(&spec(&block(name, REG)));
        let d = find(&found, "clashes with the generated Rust crate");
        assert_eq!(d.primary.loc.line, 3, "{d:?}");
        assert!(d.primary.text.contains(&name.to_lowercase()), "{d:?}");
    }
}

/// Block modules import nothing and the handles' type parameter is `_M`: a block may be
/// called like a helper, an access mode or a prelude item (the awkward spec of
/// `accepted_specs_build.rs` compiles such blocks); only the keyword form `Self` is refused.
#[test]
fn only_a_block_whose_type_would_be_self_is_refused() {
    for name in ["reg", "rw_w1", "option", "send", "m", "atomic"] {
        let text = spec(&block(name, REG));
        parse_str(&text).unwrap_or_else(|d| panic!("{name} refused: {d:#?}"));
    }
    let found = refused(&spec(&block("self_", REG)));
    let d = find(&found, "clashes with the generated Rust code");
    assert!(d.primary.text.contains("`Self`"), "{d:?}");
    assert_eq!(d.primary.loc.line, 3);
}

#[test]
fn a_block_type_and_a_register_field_module_of_the_same_name_are_refused() {
    let registers = "      - name: AB\n        offset: 0\n        width: 32\n        access: rw\n        fields: [{ name: F, bits: 0 }]\n";
    let found = refused(&spec(&block("a_b", registers)));
    let d = find(&found, "would both be `AB` in Rust");
    assert_eq!(d.primary.loc.line, 7);
    assert_eq!(d.secondary[0].loc.line, 3);
}

#[test]
fn an_unchecked_twin_clashing_with_another_accessor_is_refused() {
    let registers = "      - { name: X, offset: 0, width: 32, access: rw, count: 2 }\n      - { name: X_unchecked, offset: 8, width: 32, access: rw }\n";
    let found = refused(&spec(&block("b", registers)));
    let d = find(&found, "would both have the accessor `x_unchecked`");
    assert_eq!(d.primary.loc.line, 8);
}

#[test]
fn c_names_that_clash_with_the_guard_or_standard_macros_are_refused() {
    let text = "device: { name: size }\nconstants:\n  - { name: MAX, value: 1 }\n  - { name: REGS_H, value: 2 }\nblocks:\n  - name: b\n    offset: 0\n    size: 4\n";
    let found = refused(text);
    let d = find(
        &found,
        "`SIZE_MAX` in the C header would clash with a macro of <stddef.h>",
    );
    assert_eq!(d.primary.loc.line, 3);
    let d = find(
        &found,
        "`SIZE_REGS_H` in the C header would clash with the header's include guard",
    );
    assert_eq!(d.primary.loc.line, 4);
    // A target without the C header is not refused for C names.
    assert!(parse_str_for(text, &[Output::Rust, Output::Svd]).is_ok());
}

fn files(text: &str) -> Vec<emit::GeneratedFile> {
    let device = parse_str(text).unwrap_or_else(|d| panic!("{d:#?}"));
    let provenance = Provenance {
        spec: "spec.yaml".into(),
        command: "gba gen".into(),
    };
    emit::all(&device, &provenance).expect("every output is written")
}

#[test]
fn descriptions_cannot_break_rust_c_or_xml() {
    let text = "device: { name: dev, description: \"line\\rbreak\" }\nblocks:\n  - name: b\n    description: \"text\\n\\n    let x = 1; // a doctest?\\n```\\npanic!()\\n```\"\n    offset: 0\n    size: 4\n    registers:\n      - { name: R, offset: 0, width: 32, access: rw, description: \"feed\\f nul\\0 */\" }\n";
    for file in files(text) {
        let body = file.contents;
        assert!(
            !body.contains('\r') && !body.contains('\u{c}') && !body.contains('\0'),
            "{}",
            file.path
        );
        if file.path.ends_with(".rs") {
            assert!(
                !body.contains("///     let"),
                "an indented doc line in {}",
                file.path
            );
            assert!(
                !body.contains("//! ```") && !body.contains("/// ```"),
                "a fence in {}",
                file.path
            );
        }
        if file.path.ends_with(".svd") {
            roxmltree::Document::parse(&body).expect("well-formed XML");
        }
    }
}

#[test]
fn a_block_without_registers_is_a_well_formed_svd_peripheral() {
    let text = "device: { name: dev }\nblocks:\n  - { name: empty, offset: 0, size: 0x10 }\n";
    let svd = files(text)
        .into_iter()
        .find(|f| f.path.ends_with(".svd"))
        .expect("an SVD file");
    let xml = roxmltree::Document::parse(&svd.contents).expect("well-formed XML");
    let peripheral = xml
        .descendants()
        .find(|n| n.has_tag_name("peripheral"))
        .expect("the block is a peripheral");
    assert!(!peripheral.children().any(|n| n.has_tag_name("registers")));
}

#[test]
fn an_svd_that_cannot_hold_the_spec_is_refused_at_the_item() {
    let text = "device: { name: dev }\nblocks:\n  - name: big\n    offset: 0\n    size: 0x100000000\n    registers:\n      - { name: R, offset: 0, width: 32, access: rw }\n";
    let found = refused(text);
    let d = find(&found, "cannot write the SVD output");
    assert_eq!(d.primary.loc.line, 3, "{d:?}");
    assert!(parse_str_for(text, &[Output::Rust]).is_ok());
}

#[test]
fn an_output_the_spec_was_not_validated_for_is_an_error_not_a_file() {
    let text = spec(&block("b", REG));
    let device = parse_str_for(&text, &[Output::Rust]).expect("valid");
    let provenance = Provenance {
        spec: "spec.yaml".into(),
        command: "gba gen".into(),
    };
    let error =
        emit::selected(&device, &provenance, &[Output::C]).expect_err("not validated for C");
    assert_eq!(error.output, Output::C);
}

#[test]
fn without_a_version_no_output_prints_an_empty_one() {
    let text = "device: { name: dev }\nblocks:\n  - { name: b, offset: 0, size: 4 }\n";
    for file in files(text) {
        assert!(
            !file.contents.contains("version ."),
            "{}: {}",
            file.path,
            file.contents
        );
    }
}
