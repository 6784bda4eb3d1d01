//! The matching rules that the fixture snapshots (cli/tests/diff.rs) do not pin down.

use super::{Class, ItemKind, Severity, compare};
use crate::{names, parse_str};

fn spec(constants: &str, block: &str, registers: &str) -> crate::Device {
    let text = format!(
        "device: {{ name: d }}\nconstants:\n{constants}\nblocks:\n  - name: {block}\n    \
         offset: 0\n    size: 0x100\n    registers:\n{registers}"
    );
    parse_str(&text)
        .unwrap_or_else(|d| panic!("test spec is invalid: {d:?}\n{text}"))
        .into_device()
}

const REGS: &str = "      - { name: A, offset: 0, width: 32, access: rw }\n";

#[test]
fn the_project_spec_against_itself_has_no_change() {
    let device = parse_str(include_str!("../../../gba.yaml")).expect("gba.yaml is valid");
    assert_eq!(compare(&device, &device).changes, []);
    assert_eq!(compare(&device, &device).verdict(), None);
}

#[test]
fn a_change_of_case_alone_is_a_compatible_rename() {
    let old = spec("  []", "dma_chan", REGS);
    let new = spec("  []", "Dma_CHAN", REGS);
    let diff = compare(&old, &new);
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    assert_eq!(diff.changes[0].class, Class::Renamed);
    assert_eq!(diff.verdict(), Some(Severity::Compatible));
    // The verdict relies on this: no generated spelling keeps the case of the spec.
    for name in ["Dma_CHAN", "DMA_chan", "dmA_cHaN"] {
        assert_eq!(names::lower(name), names::lower("dma_chan"));
        assert_eq!(names::upper(name), names::upper("dma_chan"));
        assert_eq!(names::camel(name), names::camel("dma_chan"));
    }
}

#[test]
fn an_underscore_is_part_of_the_name() {
    // `dma_chan` and `DmaChan` generate different types (`DmaChan`, `Dmachan`): a rename.
    let diff = compare(
        &spec("  []", "dma_chan", REGS),
        &spec("  []", "DmaChan", REGS),
    );
    assert_eq!(diff.verdict(), Some(Severity::Breaking));
    assert!(
        diff.changes[0].reason.contains("taken as a rename"),
        "{diff:?}"
    );
}

#[test]
fn an_ambiguous_rename_is_reported_as_removal_and_addition() {
    let constant = |name: &str| format!("  - {{ name: {name}, value: 4, description: Four. }}\n");
    let old = spec(&(constant("A") + &constant("B")), "b", REGS);
    let new = spec(&constant("C"), "b", REGS);
    let diff = compare(&old, &new);
    let classes: Vec<_> = diff
        .changes
        .iter()
        .map(|c| (c.class, c.path.join(".")))
        .collect();
    assert_eq!(
        classes,
        [
            (Class::Removed, "A".to_string()),
            (Class::Removed, "B".to_string()),
            (Class::Added, "C".to_string()),
        ]
    );
}

#[test]
fn a_rename_with_another_change_is_not_taken_for_a_rename() {
    let old = spec("  []", "b", REGS);
    let moved = "      - { name: B, offset: 4, width: 32, access: rw }\n";
    let diff = compare(&old, &spec("  []", "b", moved));
    let kinds: Vec<_> = diff.changes.iter().map(|c| (c.class, c.item)).collect();
    assert_eq!(
        kinds,
        [
            (Class::Removed, ItemKind::Register),
            (Class::Added, ItemKind::Register)
        ]
    );
    assert_eq!(diff.verdict(), Some(Severity::Breaking));
}

#[test]
fn an_access_change_inherited_from_the_register_is_reported_once() {
    let old =
        "      - { name: A, offset: 0, width: 32, access: rw, fields: [{ name: F, bits: 0 }] }\n";
    let new =
        "      - { name: A, offset: 0, width: 32, access: ro, fields: [{ name: F, bits: 0 }] }\n";
    let diff = compare(&spec("  []", "b", old), &spec("  []", "b", new));
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    assert_eq!(diff.changes[0].item, ItemKind::Register);
    assert_eq!(diff.changes[0].class, Class::AccessChanged);
}

#[test]
fn alternate_of_changes_are_compatible_and_reported_as_such() {
    // B, 64 bits, overlaps both A and D: it may be declared a view of either.
    let regs = |a: &str, of: &str| {
        format!(
            "      - {{ name: {a}, offset: 0, width: 32, access: rw }}\n      - {{ name: D, offset: 4, \
             width: 32, access: rw }}\n      - {{ name: B, offset: 0, width: 64, access: ro, \
             alternate_of: {of} }}\n"
        )
    };
    let old = spec("  []", "b", &regs("A", "A"));
    // A renamed in case only takes its alternate along: one change, the rename.
    let diff = compare(&old, &spec("  []", "b", &regs("a", "a")));
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    assert_eq!(diff.changes[0].class, Class::Renamed);
    let diff = compare(&old, &spec("  []", "b", &regs("A", "D")));
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    let change = &diff.changes[0];
    assert_eq!(
        (change.class, change.item, change.attribute, change.severity),
        (
            Class::AlternateChanged,
            ItemKind::Register,
            Some("alternate_of"),
            Severity::Compatible
        )
    );
    assert_eq!(change.old.as_ref().map(|s| s.value.as_str()), Some("A"));
    assert_eq!(change.new.as_ref().map(|s| s.value.as_str()), Some("D"));
    assert_eq!(change.path, ["b", "B"]);
    assert!(super::json(&diff, "old", "new").contains("\"change\": \"alternate_changed\""));
}

#[test]
fn a_blocks_alternate_of_is_compared_as_a_registers_is() {
    // C lies on A's bytes; it may be declared a view of A, or of nothing when it moves off.
    let blocks = |c_offset: &str, of: &str| {
        let text = format!(
            "device: {{ name: d }}\nblocks:\n  - {{ name: A, offset: 0, size: 0x100 }}\n  \
             - {{ name: B, offset: 0x100, size: 0x100 }}\n  - {{ name: C, offset: {c_offset}, \
             size: 0x100{of} }}\n"
        );
        parse_str(&text)
            .unwrap_or_else(|d| panic!("test spec is invalid: {d:?}\n{text}"))
            .into_device()
    };
    let old = blocks("0", ", alternate_of: A");
    let diff = compare(&old, &blocks("0x100", ", alternate_of: B"));
    let alternate: Vec<_> = diff
        .changes
        .iter()
        .filter(|c| c.class == Class::AlternateChanged)
        .collect();
    assert_eq!(alternate.len(), 1, "{diff:?}");
    let change = alternate[0];
    assert_eq!(
        (change.item, change.attribute, change.severity),
        (ItemKind::Block, Some("alternate_of"), Severity::Compatible)
    );
    assert_eq!(change.old.as_ref().map(|s| s.value.as_str()), Some("A"));
    assert_eq!(change.new.as_ref().map(|s| s.value.as_str()), Some("B"));
    assert_eq!(change.path, ["C"]);
    assert!(
        change
            .reason
            .contains("block `C` is declared a view of another block's bytes")
    );
    // The move is its own change.
    assert!(
        diff.changes.iter().any(|c| c.class == Class::Moved),
        "{diff:?}"
    );
    // Declared or not, on bytes of its own: one compatible change.
    let diff = compare(&blocks("0x200", ""), &blocks("0", ", alternate_of: A"));
    assert!(
        diff.changes
            .iter()
            .any(|c| c.class == Class::AlternateChanged
                && c.old.as_ref().is_some_and(|s| s.value == "none"))
    );
}

#[test]
fn a_write_lock_added_or_changed_is_a_breaking_access_change() {
    let regs = |lock: &str| {
        format!(
            "      - {{ name: L, offset: 0, width: 32, access: rw, fields: [{{ name: A, bits: 0 }}, \
             {{ name: B, bits: 1 }}] }}\n      - {{ name: R, offset: 4, width: 32, access: rw{lock} }}\n"
        )
    };
    let none = spec("  []", "b", &regs(""));
    let by_a = spec("  []", "b", &regs(", locked_by: L.A"));
    let enable_b = spec("  []", "b", &regs(", write_enable: L.B"));
    assert_eq!(compare(&by_a, &by_a).changes, []);
    for (old, new, was, is) in [
        (&none, &by_a, "none", "locked_by L.A"),
        (&by_a, &enable_b, "locked_by L.A", "write_enable L.B"),
        (&by_a, &none, "locked_by L.A", "none"),
    ] {
        let diff = compare(old, new);
        assert_eq!(diff.changes.len(), 1, "{diff:?}");
        let change = &diff.changes[0];
        assert_eq!(
            (change.class, change.attribute, change.severity),
            (Class::AccessChanged, Some("lock"), Severity::Breaking)
        );
        assert_eq!(change.old.as_ref().map(|s| s.value.as_str()), Some(was));
        assert_eq!(change.new.as_ref().map(|s| s.value.as_str()), Some(is));
        assert_eq!(change.path, ["b", "R"]);
    }
}

#[test]
fn a_field_s_reset_from_an_index_or_strap_is_a_compatible_reset_change() {
    let register = |from: &str| {
        format!(
            "      - {{ name: A, offset: 0, width: 32, access: ro, count: 4, fields: [\
             {{ name: F, bits: \"3:0\"{from} }}] }}\n"
        )
    };
    let old = spec("  []", "b", &register(""));
    for (from, keyword) in [(", reset: index", "index"), (", reset: strap", "strap")] {
        let new = spec("  []", "b", &register(from));
        let diff = compare(&old, &new);
        assert_eq!(diff.changes.len(), 1, "{diff:?}");
        assert_eq!(diff.changes[0].class, Class::ResetChanged);
        assert_eq!(diff.changes[0].item, ItemKind::Field);
        assert_eq!(diff.verdict(), Some(Severity::Compatible));
        let shown = format!("{:?}", diff.changes[0]);
        assert!(shown.contains(keyword), "{shown}");
    }
}

#[test]
fn a_blocks_type_is_compared() {
    // GPIOA and GPIOB as two blocks of their own, then as instances of one type `gpio`.
    let regs = "    registers:\n      - { name: ODR, offset: 0, width: 32, access: rw }\n";
    let own = parse_str(&format!(
        "device: {{ name: d }}\nblocks:\n  - name: GPIOA\n    offset: 0\n    size: 0x100\n{regs}  \
         - name: GPIOB\n    offset: 0x100\n    size: 0x100\n{regs}"
    ))
    .expect("valid")
    .into_device();
    let typed = parse_str(&format!(
        "device: {{ name: d }}\nblocks:\n  - name: gpio\n    size: 0x100\n    instances:\n      \
         - {{ name: GPIOA, offset: 0 }}\n      - {{ name: GPIOB, offset: 0x100 }}\n{regs}"
    ))
    .expect("valid")
    .into_device();
    let diff = compare(&own, &typed);
    let changes: Vec<_> = diff
        .changes
        .iter()
        .map(|c| {
            (
                c.class,
                c.severity,
                c.path.clone(),
                c.old.as_ref().map(|s| s.value.clone()),
                c.new.as_ref().map(|s| s.value.clone()),
            )
        })
        .collect();
    let typed_as = |block: &str| {
        (
            Class::TypeChanged,
            Severity::Breaking,
            vec![block.to_string()],
            Some("its own".to_string()),
            Some("gpio".to_string()),
        )
    };
    assert_eq!(changes, [typed_as("GPIOA"), typed_as("GPIOB")], "{diff:?}");
    assert!(super::json(&diff, "old", "new").contains("\"change\": \"type_changed\""));
}

#[test]
fn values_for_writing_are_compared_apart_from_those_for_reading() {
    let field = |write: &str| {
        format!(
            "      - name: R\n        offset: 0\n        width: 32\n        access: rw\n        \
             fields:\n          - name: F\n            bits: \"0\"\n            values:\n              \
             - {{ name: INPUT, value: 0 }}\n              - {{ name: OUTPUT, value: 1 }}\n{write}"
        )
    };
    let writes = "            write_values:\n              - { name: DRIVE, value: 1 }\n";
    let old = spec("  []", "b", &field(""));
    let new = spec("  []", "b", &field(writes));
    let diff = compare(&old, &new);
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    let change = &diff.changes[0];
    assert_eq!(
        (change.class, change.severity, change.path.clone()),
        (
            Class::Added,
            Severity::Compatible,
            ["b", "R", "F", "DRIVE (write)"].map(String::from).to_vec()
        )
    );
    let diff = compare(&new, &old);
    assert_eq!(diff.changes.len(), 1, "{diff:?}");
    assert_eq!(
        (diff.changes[0].class, diff.changes[0].severity),
        (Class::Removed, Severity::Breaking)
    );
}

#[test]
fn a_registers_access_width_and_read_order_are_breaking_access_changes() {
    let reg =
        |extra: &str| format!("      - {{ name: T, offset: 0, width: 64, access: ro{extra} }}\n");
    let whole = spec("  []", "b", &reg(""));
    let halves = spec("  []", "b", &reg(", access_width: 32"));
    let stable = spec(
        "  []",
        "b",
        &reg(", access_width: 32, split_read: until_stable"),
    );
    assert_eq!(compare(&stable, &stable).changes, []);
    for (old, new, attribute, was, is) in [
        (&whole, &halves, "access_width", "64 bits", "32 bits"),
        (&halves, &whole, "access_width", "32 bits", "64 bits"),
        (&halves, &stable, "split_read", "low_first", "until_stable"),
    ] {
        let diff = compare(old, new);
        assert_eq!(diff.changes.len(), 1, "{diff:?}");
        let change = &diff.changes[0];
        assert_eq!(
            (change.class, change.attribute, change.severity),
            (Class::AccessChanged, Some(attribute), Severity::Breaking)
        );
        assert_eq!(change.old.as_ref().map(|s| s.value.as_str()), Some(was));
        assert_eq!(change.new.as_ref().map(|s| s.value.as_str()), Some(is));
        assert_eq!(change.path, ["b", "T"]);
    }
}
