//! `gba diff` through the built binary: the report of every change class (text and JSON,
//! as insta snapshots) and every exit status.
//!
//! Each case compares `tests/fixtures/diff/base.yaml` with `tests/fixtures/diff/<case>.yaml`;
//! the header of each case file says what it changes. Paths are given relative to the
//! workspace root so that the locations in the snapshots do not depend on the checkout.

use std::path::{Path, PathBuf};
use std::process::Output;

const BASE: &str = "tests/fixtures/diff/base.yaml";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the cli crate lives in the workspace")
        .to_path_buf()
}

fn gba(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(["--color", "never"])
        .args(args)
        .current_dir(root())
        .output()
        .expect("the gba binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("gba prints UTF-8")
}

/// Runs the text and the JSON report of one case, checks that both agree on the verdict
/// with the exit status, and snapshots both.
fn case(name: &str, expected_status: i32) {
    let new = format!("tests/fixtures/diff/{name}.yaml");
    let human = gba(&["diff", BASE, &new]);
    let json = gba(&["diff", "--json", BASE, &new]);
    for output in [&human, &json] {
        assert_eq!(
            output.status.code(),
            Some(expected_status),
            "{name}: stderr: {}",
            text(&output.stderr)
        );
        assert!(output.stderr.is_empty(), "{name}: {}", text(&output.stderr));
    }
    let report: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("--json prints JSON");
    let verdict = ["none", "compatible", "breaking"][expected_status as usize];
    assert_eq!(report["verdict"], verdict, "{name}");
    let changes = report["changes"].as_array().expect("changes is a list");
    let breaking = changes
        .iter()
        .filter(|c| c["severity"] == "breaking")
        .count();
    assert_eq!(report["summary"]["breaking"], breaking, "{name}");
    assert_eq!(
        report["summary"]["compatible"],
        changes.len() - breaking,
        "{name}"
    );
    insta::assert_snapshot!(format!("{name}_text"), text(&human.stdout));
    insta::assert_snapshot!(format!("{name}_json"), text(&json.stdout));
}

#[test]
fn no_change_exits_0() {
    case("no_change", 0);
}

#[test]
fn additions_are_compatible() {
    case("added", 1);
}

#[test]
fn removals_are_breaking() {
    case("removed", 2);
}

#[test]
fn renames_are_detected_conservatively() {
    case("renamed", 2);
}

#[test]
fn moves_are_breaking() {
    case("moved", 2);
}

#[test]
fn resizes_depend_on_direction() {
    case("resized", 2);
}

#[test]
fn array_shapes() {
    case("arrays", 2);
}

#[test]
fn access_changes_depend_on_what_is_lost() {
    case("access", 2);
}

#[test]
fn side_effect_changes_are_breaking() {
    case("side_effects", 2);
}

#[test]
fn reset_changes_are_compatible() {
    case("reset", 1);
}

#[test]
fn enumerated_values() {
    case("enums", 2);
}

#[test]
fn constants_depend_on_direction() {
    case("constants", 2);
}

#[test]
fn device_header_and_descriptions_are_compatible() {
    case("device", 1);
}

#[test]
fn a_spec_against_itself_has_no_change() {
    let output = gba(&["diff", "gba.yaml", "gba.yaml"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "gba.yaml → gba.yaml: no changes\n");
}

#[test]
fn the_reverse_of_an_addition_is_a_breaking_removal() {
    let output = gba(&["diff", "tests/fixtures/diff/added.yaml", BASE]);
    assert_eq!(output.status.code(), Some(2));
    let report = text(&output.stdout);
    assert!(report.contains("0 compatible changes"), "{report}");
}

#[test]
fn an_invalid_spec_exits_3_with_its_diagnostics() {
    let output = gba(&["diff", BASE, "tests/fixtures/diff/invalid.yaml"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(output.stdout.is_empty());
    insta::assert_snapshot!("invalid_stderr", text(&output.stderr));
}

#[test]
fn both_invalid_specs_are_reported_in_one_run() {
    let invalid = "tests/fixtures/diff/invalid.yaml";
    let output = gba(&["diff", "--json", invalid, invalid]);
    assert_eq!(output.status.code(), Some(3));
    assert!(output.stdout.is_empty(), "no JSON for an invalid spec");
    let stderr = text(&output.stderr);
    assert_eq!(stderr.matches("3 problems found").count(), 2, "{stderr}");
}

#[test]
fn an_unreadable_spec_exits_3() {
    let output = gba(&["diff", BASE, "tests/fixtures/diff/missing.yaml"]);
    assert_eq!(output.status.code(), Some(3));
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("error: cannot read spec tests/fixtures/diff/missing.yaml"),
        "{stderr}"
    );
}

#[test]
fn a_usage_error_exits_3_not_the_breaking_status() {
    let output = gba(&["diff", BASE]);
    assert_eq!(output.status.code(), Some(3));
    assert!(text(&output.stderr).contains("<NEW>"));
}
