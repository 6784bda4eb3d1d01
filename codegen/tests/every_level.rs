//! A problem at one level hides none at another, every message is in the spec's terms with a
//! location, warnings are reported without refusing the spec, and real-sized specs fit the
//! parser's limits.

use gba_codegen::{Diagnostic, LoadError, Severity, parse_str};

fn problems(text: &str) -> Vec<Diagnostic> {
    parse_str(text).expect_err("the spec is invalid")
}

fn messages(diagnostics: &[Diagnostic]) -> Vec<&str> {
    diagnostics.iter().map(|d| d.message.as_str()).collect()
}

#[test]
fn a_missing_device_name_hides_nothing_else() {
    let found = problems(
        "device: { description: d }\nblocks:\n  - { name: b, offset: 0, size: 4, registers: [{ name: R, offset: 2, width: 32, access: rw }] }\n",
    );
    let messages = messages(&found);
    assert!(messages.contains(&"`device` has no `name`"), "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("offset 0x2 is misaligned")),
        "{messages:?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("invalid device name")),
        "{messages:?}"
    );
}

#[test]
fn a_block_that_failed_to_parse_is_not_also_a_missing_block() {
    let found = problems("device: { name: d }\nblocks:\n  - { name: b, offset: 0, siz: 4 }\n");
    let messages = messages(&found);
    assert!(
        messages.contains(&"block `b` has no `size`"),
        "{messages:?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("has no blocks")),
        "{messages:?}"
    );
    // With no block written at all, it is still reported.
    let found = problems("device: { name: d }\n");
    assert!(messages_contain(&found, "device `d` has no blocks"));
}

fn messages_contain(diagnostics: &[Diagnostic], needle: &str) -> bool {
    diagnostics.iter().any(|d| d.message.contains(needle))
}

#[test]
fn integers_past_u64_are_out_of_range() {
    let found = problems(
        "device: { name: d }\nblocks:\n  - { name: b, offset: 18446744073709551616, size: 0x1_0000_0000_0000_0000 }\n",
    );
    let messages = messages(&found);
    assert_eq!(
        messages,
        [
            "block `b`: `offset` is out of range",
            "block `b`: `size` is out of range"
        ]
    );
}

#[test]
fn a_duplicate_key_is_reported_in_our_words_at_both_places() {
    let found = problems(
        "device: { name: d }\nblocks:\n  - name: b\n    offset: 0\n    size: 4\n    size: 8\n",
    );
    assert_eq!(messages(&found), ["duplicate key `size` in a block"]);
    assert_eq!(found[0].primary.loc.line, 6);
    assert_eq!(found[0].secondary[0].loc.line, 5);
}

#[test]
fn a_file_that_is_not_utf8_gets_a_line_and_column() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("spec.yaml");
    std::fs::write(&path, b"device: { name: d }\nblocks: # caf\xe9\n").expect("write");
    match gba_codegen::load(&path) {
        Err(LoadError::Invalid { diagnostics, .. }) => {
            assert_eq!(diagnostics[0].message, "the spec is not UTF-8 text");
            assert_eq!(
                (
                    diagnostics[0].primary.loc.line,
                    diagnostics[0].primary.loc.column
                ),
                (2, 14)
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn reset_bits_in_a_write_only_field_are_a_warning_not_an_error() {
    let device = parse_str(
        "device: { name: d }\nblocks:\n  - name: b\n    offset: 0\n    size: 4\n    registers:\n      - { name: R, offset: 0, width: 32, access: wo, reset: 0x1ff, fields: [{ name: F, bits: \"7:0\" }] }\n",
    )
    .expect("a warning does not refuse the spec");
    let warnings = device.warnings();
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].severity, Severity::Warning);
    assert!(
        warnings[0]
            .message
            .contains("sets bits of write-only field `F`")
    );
    assert!(
        warnings[0].primary.text.contains("0xff"),
        "{:?}",
        warnings[0]
    );
    assert_eq!(warnings[0].primary.loc.line, 7);
}

#[test]
fn a_register_or_block_with_a_broken_key_still_has_its_children_checked() {
    let found = problems(
        "device: { name: d }\nblocks:\n  - name: b\n    offset: x\n    size: 0x10\n    registers:\n      - { name: R, offset: 2, width: 32, access: rw }\n      - name: S\n        offset: 0\n        width: 33\n        access: rw\n        fields:\n          - { name: A, bits: \"3:0\" }\n          - { name: B, bits: \"4:2\" }\n",
    );
    let messages = messages(&found);
    assert_eq!(
        messages,
        [
            "block `b`: `offset` must be an integer, found a string",
            "register `R` (block `b`): offset 0x2 is misaligned",
            "register `S`: width 33 is not a register width",
            "fields `B` and `A` of register `S` overlap",
        ]
    );
}
