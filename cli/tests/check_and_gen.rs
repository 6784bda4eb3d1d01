//! `gba check` and `gba gen` through the real binary: exit codes, and what they print.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gba(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the gba binary runs")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn check_accepts_the_projects_spec() {
    let out = gba(&root(), &["check", "gba.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The counts come from the spec, so that a register added to gba.yaml needs no edit here.
    let spec = gba_codegen::load(&root().join("gba.yaml")).expect("gba.yaml validates");
    let registers: usize = spec.blocks.iter().map(|b| b.registers.len()).sum();
    let expected = format!(
        "gba.yaml: ok ({} blocks, {registers} registers",
        spec.blocks.len()
    );
    assert!(
        text(&out.stdout).starts_with(&expected),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn check_reports_every_problem_and_exits_1() {
    let out = gba(
        &root(),
        &["check", "tests/fixtures/invalid/many_problems.yaml"],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--> tests/fixtures/invalid/many_problems.yaml:4:3"),
        "{stderr}"
    );
    assert!(stderr.ends_with("8 problems found\n"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "NO_COLOR is honoured");
}

#[test]
fn check_of_a_missing_file_says_so() {
    let out = gba(&root(), &["check", "no/such/spec.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read spec no/such/spec.yaml"));
}

#[test]
fn gen_check_names_stale_files_and_the_command() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(root().join("gba.yaml"), dir.path().join("gba.yaml")).unwrap();
    let out = gba(dir.path(), &["gen", "--check"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("gba-pac/src/group.rs: missing"), "{stderr}");
    assert!(
        stderr.contains("run `gba gen` to regenerate them"),
        "{stderr}"
    );
    assert!(
        !dir.path().join("gba-pac").exists(),
        "--check changes nothing"
    );

    let out = gba(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = gba(dir.path(), &["gen", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn gen_of_an_invalid_spec_shows_the_diagnostics_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("gba.yaml"),
        "device:\n  name: 1x\nblocks: []\n",
    )
    .unwrap();
    let out = gba(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("invalid device name"), "{stderr}");
    assert!(stderr.contains("has no blocks"), "{stderr}");
    assert!(!dir.path().join("gba-pac").exists());
}

#[test]
fn warnings_are_printed_and_do_not_fail_check_or_gen() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("w.yaml"),
        "device: { name: w }\nblocks:\n  - name: b\n    offset: 0\n    size: 4\n    registers:\n      - { name: R, offset: 0, width: 32, access: wo, reset: 1, fields: [{ name: F, bits: 0 }] }\n",
    )
    .expect("write the spec");
    let out = gba(dir.path(), &["check", "w.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(
            "warning: register `R` (block `b`): reset value 0x1 sets bits of write-only field `F`"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("--> w.yaml:7:"), "{stderr}");
    let out = gba(
        dir.path(),
        &["gen", "--spec", "w.yaml", "--out", "pac", "--emit", "rust"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Once: from the spec that `gen` parsed to generate, not from a second parse.
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.matches("sets bits of write-only field `F`").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn gen_writes_a_crate_that_builds_with_nothing_added() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("tests/fixtures/uart/uart.yaml"),
        dir.path().join("uart.yaml"),
    )
    .unwrap();
    let out = gba(
        dir.path(),
        &["gen", "--spec", "uart.yaml", "--out", "uart-pac"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let manifest = std::fs::read_to_string(dir.path().join("uart-pac/Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"uart-pac\""), "{manifest}");
    assert!(
        manifest.contains("tock-registers = { version = \"0.10\""),
        "{manifest}"
    );
    assert!(manifest.contains("\ndebug = []\n"), "{manifest}");
    assert!(manifest.contains("\ndevice-side = []\n"), "{manifest}");
    assert!(manifest.contains("\nnames = []\n"), "{manifest}");
    // The crate builds as written, offline, with every feature; the target directory is
    // shared between runs so that tock-registers is built once.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generated-crates");
    let build = Command::new(cargo)
        .args(["build", "--offline", "--quiet", "--all-features"])
        .current_dir(dir.path().join("uart-pac"))
        .env("CARGO_TARGET_DIR", &target)
        // tests/run.sh's clippy wrapper lints this workspace's crates, not generated ones.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .output()
        .expect("cargo runs");
    assert!(build.status.success(), "{}", text(&build.stderr));
    // The manifest is a generated file like the others: checked, and not stale.
    let out = gba(
        dir.path(),
        &["gen", "--check", "--spec", "uart.yaml", "--out", "uart-pac"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn gen_keeps_a_hand_written_manifest() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("tests/fixtures/uart/uart.yaml"),
        dir.path().join("uart.yaml"),
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("pac")).unwrap();
    let mine = "[package]\nname = \"mine\"\n";
    std::fs::write(dir.path().join("pac/Cargo.toml"), mine).unwrap();
    let out = gba(dir.path(), &["gen", "--spec", "uart.yaml", "--out", "pac"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("pac/Cargo.toml")).unwrap(),
        mine
    );
}

#[test]
fn import_svd_cites_every_warning_as_file_and_line_repairs_included() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("chip.svd"),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<device schemaVersion=\"1.3\">\n\
         <name>chip</name><version>1</version><description>d</description>\n\
         <addressUnitBits>8</addressUnitBits><width>32</width><size>32</size>\n\
         <peripherals><peripheral><name>P</name><baseAddress>0x40000000</baseAddress>\n\
         <registers><register><name>R</name><addressOffset>0</addressOffset>\n\
         <access>read</access>\n\
         </register><register><name>r</name><addressOffset>4</addressOffset>\n\
         </register></registers></peripheral></peripherals></device>\n",
    )
    .expect("write the SVD");
    let out = gba(
        dir.path(),
        &["import-svd", "chip.svd", "--out", "chip.yaml"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    // A repair of the XML (line 7) and a rename of the import (line 8) look alike.
    assert!(
        stderr.contains("warning: chip.svd:7: P.R: <access>read</access> read as `read-only`\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning: chip.svd:8: P.r: register `r` renamed `r_2`"),
        "{stderr}"
    );
    assert!(!stderr.contains("line "), "{stderr}");
    // The last line counts them by what was done.
    assert!(
        stderr.contains(
            "\n2 warning(s): the items above are not carried over as they are (1 renamed, \
             1 repaired)\n"
        ),
        "{stderr}"
    );
}
