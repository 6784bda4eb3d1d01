//! Specs built to hurt the validator: it must answer quickly with diagnostics, never panic,
//! overflow or take quadratic time.

fn problems(spec: &str) -> Vec<String> {
    match gba_codegen::parse_str(spec) {
        Ok(_) => panic!("accepted:\n{spec}"),
        Err(diagnostics) => diagnostics.into_iter().map(|d| d.message).collect(),
    }
}

#[test]
fn a_bit_range_at_the_end_of_u32_is_reported_not_overflowed() {
    let found = problems(
        "device: { name: d }\nblocks:\n  - name: b\n    offset: 0\n    size: 8\n    registers:\n      - name: R\n        offset: 0\n        width: 8\n        access: rw\n        fields:\n          - { name: X, bits: \"4294967295:0\" }\n          - { name: Y, bits: 4294967295 }\n",
    );
    assert!(
        found
            .iter()
            .any(|m| m.contains("`X`") && m.contains("outside its register")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|m| m.contains("`Y`") && m.contains("outside its register")),
        "{found:?}"
    );
}

#[test]
fn huge_self_overlapping_arrays_are_not_expanded() {
    let found = problems(
        "device: { name: d }\nblocks:\n  - name: b\n    offset: 0\n    size: 0x100000000\n    count: 1000000\n    stride: 0\n    registers:\n      - { name: A, offset: 0, width: 64, access: rw, count: 1000000, stride: 0 }\n      - { name: B, offset: 0, width: 64, access: rw, count: 400000 }\n      - { name: C, offset: 0, width: 64, access: rw, count: 400000 }\n",
    );
    assert!(
        found.iter().any(|m| m.contains("stride 0x0 does not fit")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|m| m.contains("instances of block `b` overlap each other")),
        "{found:?}"
    );
    // B and C coincide element for element: one report for the pair, not 400 000.
    assert_eq!(
        found
            .iter()
            .filter(|m| m.contains("`C` and `B` overlap"))
            .count(),
        1,
        "{found:?}"
    );
}

#[test]
fn many_overlaps_are_capped() {
    let mut spec = String::from(
        "device: { name: d }\nblocks:\n  - name: b\n    offset: 0\n    size: 8\n    registers:\n",
    );
    for i in 0..2000 {
        spec.push_str(&format!(
            "      - {{ name: R{i}, offset: 0, width: 32, access: rw }}\n"
        ));
    }
    let found = problems(&spec);
    let overlaps = found.iter().filter(|m| m.contains("overlap")).count();
    assert!((1..=64).contains(&overlaps), "{overlaps} overlap reports");
}
