//! Every invalid spec under `fixtures/invalid/` is refused with a located, rustc-style report
//! of every problem in it; the rendered report is the snapshot.

mod common;

use gba_codegen::{Style, diagnostic};

#[test]
fn invalid_specs_are_reported_with_their_locations() {
    let dir = common::root().join("tests/fixtures/invalid");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/invalid exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 15, "the invalid fixtures went missing");
    for path in names {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let diagnostics = match gba_codegen::parse_str(&text) {
            Ok(_) => panic!("{name}.yaml was accepted but is invalid"),
            Err(diagnostics) => diagnostics,
        };
        for d in &diagnostics {
            assert!(
                d.primary.loc.line > 0,
                "{name}: a diagnostic without a location: {d:?}"
            );
        }
        let shown = format!("tests/fixtures/invalid/{name}.yaml");
        let rendered = diagnostic::render(&diagnostics, &shown, &text, Style::Plain);
        insta::assert_snapshot!(name, rendered);
    }
}

#[test]
fn every_problem_is_reported_in_one_run() {
    let text =
        std::fs::read_to_string(common::root().join("tests/fixtures/invalid/many_problems.yaml"))
            .unwrap();
    let diagnostics = gba_codegen::parse_str(&text).unwrap_err();
    let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
    for expected in [
        "unknown key `vendor`",
        "reset value 0x100000000 is too wide",
        "offset 0x2 is misaligned",
        "runs past the end of its block",
        "lies outside its register",
        "overlap",
    ] {
        assert!(
            messages.iter().any(|m| m.contains(expected)),
            "no diagnostic says {expected:?}; got {messages:#?}"
        );
    }
}

#[test]
fn the_projects_spec_is_clean() {
    let text = std::fs::read_to_string(common::root().join("gba.yaml")).unwrap();
    if let Err(diagnostics) = gba_codegen::parse_str(&text) {
        panic!(
            "{}",
            diagnostic::render(&diagnostics, "gba.yaml", &text, Style::Plain)
        );
    }
}
