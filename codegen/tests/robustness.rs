//! Inputs that once made, or could make, parsing or rendering panic, hang or exhaust memory:
//! each must give diagnostics, never a crash. Cases found by the fuzzer (codegen/fuzz) say so.

use gba_codegen::{Style, diagnostic, parse_str};

/// Parses `text` and renders its diagnostics; returns the rendered report.
fn problems(text: &str) -> String {
    let diagnostics = parse_str(text).expect_err("the spec is invalid");
    assert!(!diagnostics.is_empty());
    diagnostic::render(&diagnostics, "t.yaml", text, Style::Plain)
}

const HEADER: &str =
    "device: { name: d }\nblocks:\n  - name: b\n    offset: 0\n    size: 0x100\n    registers:\n";

#[test]
fn a_bit_range_as_wide_as_u32_with_values() {
    let text = format!(
        "{HEADER}      - name: R\n        offset: 0\n        width: 32\n        access: rw\n        \
         fields:\n          - name: F\n            bits: \"4294967295:0\"\n            values:\n              \
         - {{ name: A, value: 1 }}\n"
    );
    let report = problems(&text);
    assert!(report.contains("lies outside its register"), "{report}");
}

#[test]
fn deep_nesting() {
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let report = problems(&text);
    assert!(
        report.contains("exceeds a limit of the YAML reader"),
        "{report}"
    );
}

#[test]
fn an_alias_bomb() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..30 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let report = problems(&text);
    assert!(
        report.contains("exceeds a limit of the YAML reader"),
        "{report}"
    );
}
