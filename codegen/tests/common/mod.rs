//! Helpers of the tests that run the reference front ends (systemrdl-compiler,
//! peakrdl-ipxact) beside the importers (interchange, nothing_silent, access_width, split_read …).

// Each test crate that includes this module uses some of its helpers, none uses all.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gba_codegen::emit::GeneratedFile;

/// Whether `python3` has the given modules; `false` (with a note) outside CI, a failure
/// under `CI=true`.
pub fn python_has(modules: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let message = format!(
            "python3 lacks {modules}: run `bash tests/install.sh` (or `python3 -m pip install \
             systemrdl-compiler peakrdl-ipxact`)"
        );
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        eprintln!("NOT RUN: {message}");
    }
    ok
}

/// A temporary directory named after the test (`gba-NAME-…`), removed when dropped.
pub fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("gba-{name}-"))
        .tempdir()
        .expect("a temporary directory")
}

/// The lines `script` prints when `python3 -c script ARGS…` runs it: a reference front end's
/// reading of a file. The test fails, with the script's stderr, when the front end refuses.
pub fn reference_lines(script: &str, args: &[&std::ffi::OsStr]) -> Vec<String> {
    let output = Command::new("python3")
        .args(["-c", script])
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "the reference front end refused {args:?}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// A crate `chip` of the generated sources (`src/…` of `files`) with `tests` (name, text) as
/// its integration tests, in a temporary directory (kept while the guard lives); returns the
/// guard and the crate's root. The project's lock file pins the same tock-registers, so
/// nothing is downloaded.
pub fn chip_crate(files: &[GeneratedFile], tests: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("chip");
    for file in files.iter().filter(|f| f.path.starts_with("src/")) {
        let path = root.join(&file.path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, &file.contents).expect("write");
    }
    std::fs::create_dir_all(root.join("tests")).expect("mkdir");
    for (name, text) in tests {
        std::fs::write(root.join(format!("tests/{name}.rs")), text).expect("write");
    }
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"chip\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dependencies]\ntock-registers = { version = \"0.10\", default-features = false }\n\n\
         [features]\ndebug = []\ndevice-side = []\nnames = []\n\n[workspace]\n",
    )
    .expect("write Cargo.toml");
    std::fs::copy(workspace().join("Cargo.lock"), root.join("Cargo.lock")).expect("copy lock");
    (dir, root)
}

/// `cargo test --test TEST` of the crate at `root`, warnings denied, in the target directory
/// the accepted-specs builds share (tock-registers is built there once).
pub fn cargo_test(root: &Path, test: &str) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .args(["test", "--offline", "--quiet", "--test", test])
        .current_dir(root)
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target").join("accepted-specs"),
        )
        .env("RUSTFLAGS", "-D warnings")
        // tests/run.sh's clippy wrapper lints this workspace's crates, not generated ones.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .output()
        .expect("cargo runs")
}

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
}
