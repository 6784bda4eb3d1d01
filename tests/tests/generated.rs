//! Generated files are never stale: each is committed, compared here byte for byte with what
//! the spec generates (the one check of them; `gba gen --check` runs the same comparison), and
//! reviewed as code in its commit's diff. No snapshot repeats their bytes.

mod common;

use gba_codegen::emit::{self, Provenance};
use gba_codegen::project::{self, Target};

fn targets() -> [Target; 2] {
    [Target::gba(), common::uart_target()]
}

/// The same check as `gba gen --check`: fails naming each stale file and the command to run.
#[test]
fn generated_files_are_up_to_date() {
    let root = common::root();
    let mut problems = Vec::new();
    for target in targets() {
        let stale = project::check(&root, &target).unwrap_or_else(|e| panic!("{e}"));
        if !stale.is_empty() {
            let files: Vec<String> = stale.iter().map(|s| format!("  {s}")).collect();
            problems.push(format!("{}\nrun `{}`", files.join("\n"), target.command()));
        }
    }
    assert!(
        problems.is_empty(),
        "generated files are stale:\n{}",
        problems.join("\n")
    );
}

#[test]
fn generation_is_deterministic() {
    let device = common::gba_spec();
    let provenance = Provenance {
        spec: "gba.yaml".into(),
        command: "gba gen".into(),
    };
    assert_eq!(
        emit::all(&device, &provenance),
        emit::all(&device, &provenance)
    );
    let reparsed = common::gba_spec();
    assert_eq!(device, reparsed);
}

#[test]
fn a_stale_file_is_named_with_the_command_to_run() {
    let scratch = std::env::temp_dir().join(format!("gba-stale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::copy(common::root().join("gba.yaml"), scratch.join("gba.yaml")).unwrap();
    let target = Target::gba();
    let written = project::write(&scratch, &target).unwrap();
    assert!(!written.is_empty(), "a fresh directory gets every file");
    assert!(project::check(&scratch, &target).unwrap().is_empty());
    // Hand-edit one generated file and leave an orphan behind.
    let group = scratch.join("gba-pac/src/group.rs");
    let edited = std::fs::read_to_string(&group)
        .unwrap()
        .replace("0x1000", "0x1008");
    std::fs::write(&group, edited).unwrap();
    let orphan = scratch.join("gba-pac/src/old_block.rs");
    std::fs::write(&orphan, "// Generated from gba.yaml by `gba gen`.\n// Do not edit: change gba.yaml and run `gba gen` again.\n").unwrap();
    let stale = project::check(&scratch, &target).unwrap();
    assert_eq!(
        stale,
        vec![
            project::Staleness::Changed("gba-pac/src/group.rs".into()),
            project::Staleness::Orphaned("gba-pac/src/old_block.rs".into()),
        ]
    );
    project::write(&scratch, &target).unwrap();
    assert!(project::check(&scratch, &target).unwrap().is_empty());
    assert!(
        !orphan.exists(),
        "gen removes generated files the spec no longer produces"
    );
    std::fs::remove_dir_all(&scratch).unwrap();
}
