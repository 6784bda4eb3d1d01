//! Every library crate's public API as a reviewed snapshot: adding, removing or changing a
//! public item fails this test until its snapshot is updated, so the change shows in review.
//!
//! The API comes from rustdoc's JSON output, which needs the nightly toolchain
//! (`rustup run nightly cargo rustdoc … --output-format json`), reduced by `render.rs` to one
//! line per item. These tests are `#[ignore]`d in `cargo test --workspace` (stable) and run by
//! `bash tests/run.sh lint`, or by hand:
//!
//!     cargo test -p gba-tests --test public_api -- --ignored
//!
//! A failure shows the difference. After an intended change, accept it with `cargo insta
//! review` (cargo-insta: `cargo install cargo-insta`), or rerun with `INSTA_UPDATE=always` and
//! read `git diff tests/tests/public_api/snapshots`. A public item that is removed or renamed
//! keeps a path under `#[deprecated]` for a while (on a module, a type alias or a wrapper:
//! rustc ignores `#[deprecated]` on a `pub use`) and a line in CHANGELOG.md.
//!
//! Why not the `public-api` crate: its releases read rustdoc JSON formats 56 (0.51) and 59
//! (0.52), and the installed nightly writes format 57; this reducer checks the format it reads
//! and says what to do when the nightly changes it.

mod render;
mod signature;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// rustdoc's JSON for `package`'s library, built with nightly in a target directory of its
/// own (the outer `cargo test` holds the workspace's).
fn rustdoc_json(package: &str, lib: &str) -> Value {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir).join("public-api"),
        None => root().join("target/public-api"),
    };
    let output = Command::new("rustup")
        .args([
            "run", "nightly", "cargo", "rustdoc", "-q", "--lib", "-p", package,
        ])
        .arg("--target-dir")
        .arg(&target)
        .args(["--", "-Z", "unstable-options", "--output-format", "json"])
        .current_dir(root())
        // The outer cargo's settings are for the stable toolchain.
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .env_remove("RUSTC_WRAPPER")
        .output()
        .unwrap_or_else(|e| panic!("cannot run `rustup` for {package}'s rustdoc JSON: {e}"));
    assert!(
        output.status.success(),
        "`rustup run nightly cargo rustdoc -p {package} -- --output-format json` failed \
         (this test needs the nightly toolchain: `rustup toolchain install nightly`):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let file = target.join("doc").join(format!("{lib}.json"));
    let text = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", file.display()))
}

fn check(package: &str) {
    let lib = package.replace('-', "_");
    let api = render::public_api(&rustdoc_json(package, &lib)).unwrap_or_else(|e| panic!("{e}"));
    let mut settings = insta::Settings::clone_current();
    settings.set_description(format!(
        "The public API of {package}. A change here is a change for the crate's users: \
         review it, record it in CHANGELOG.md, and keep a #[deprecated] path for a removed \
         or renamed item. Update with `cargo insta review`."
    ));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(format!("public_api__{lib}"), api));
}

#[test]
#[ignore = "needs the nightly toolchain; run by `bash tests/run.sh lint`"]
fn gba_pac() {
    check("gba-pac");
}

#[test]
#[ignore = "needs the nightly toolchain; run by `bash tests/run.sh lint`"]
fn gba_hal() {
    check("gba-hal");
}

#[test]
#[ignore = "needs the nightly toolchain; run by `bash tests/run.sh lint`"]
fn gba_sim() {
    check("gba-sim");
}

#[test]
#[ignore = "needs the nightly toolchain; run by `bash tests/run.sh lint`"]
fn gba_barrier() {
    check("gba-barrier");
}

#[test]
#[ignore = "needs the nightly toolchain; run by `bash tests/run.sh lint`"]
fn gba_codegen() {
    check("gba-codegen");
}

#[test]
#[ignore = "needs the nightly toolchain; run by `bash tests/run.sh lint`"]
fn gba_macros() {
    check("gba-macros");
}
