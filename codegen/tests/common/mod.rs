//! Helpers of the tests that run the reference front ends (systemrdl-compiler,
//! peakrdl-ipxact) beside the importers (interchange, nothing_silent, access_width, split_read …).

use std::process::Command;

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
#[allow(dead_code)] // not every test crate asks the reference front ends itself
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
