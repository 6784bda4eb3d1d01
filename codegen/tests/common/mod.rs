//! Helpers of the tests that run the reference front ends (systemrdl-compiler,
//! peakrdl-ipxact) beside the importers: `interchange.rs` and `nothing_silent.rs`.

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
