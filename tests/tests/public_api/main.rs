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
//! A failure shows the difference. After an intended change, accept it with `bash
//! tests/bless.sh` (or `cargo insta review`) and read `git diff tests/tests/public_api/snapshots`.
//! Until the first release a public item that is removed or renamed simply goes, with a line in
//! CHANGELOG.md; after it, it keeps a path under `#[deprecated]` for one release (on a module, a
//! type alias or a wrapper: rustc ignores `#[deprecated]` on a `pub use`).
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
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
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
         review it and record it in CHANGELOG.md. Update with `bash tests/bless.sh`."
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

/// A rustdoc JSON of another format is refused, naming both formats and what to do (runs
/// without nightly).
#[test]
fn another_format_is_refused_by_name() {
    let other = render::FORMAT_VERSION + 1;
    let json = serde_json::json!({ "format_version": other, "root": 0, "index": {} });
    let error = render::public_api(&json).expect_err("a format the reducer was not written for");
    assert!(error.contains(&format!("format {other}")), "{error}");
    assert!(
        error.contains(&format!("format {}", render::FORMAT_VERSION)),
        "{error}"
    );
    assert!(error.contains("cargo insta review"), "{error}");
}

/// The reducer on a crate of each kind of item it renders, written as rustdoc JSON by hand
/// (runs without nightly): a module, a struct with a public and a hidden field, a method, a
/// trait impl, a re-export of another crate's item and a deprecated function.
#[test]
fn the_reducer_lists_what_a_user_can_name() {
    let path =
        |p: &str| serde_json::json!({ "resolved_path": { "path": p, "id": 99, "args": null } });
    let no_generics = serde_json::json!({ "params": [], "where_predicates": [] });
    let header = serde_json::json!({ "is_const": false, "is_unsafe": false, "is_async": false, "abi": "Rust" });
    let item = |id: u64, name: Option<&str>, inner: serde_json::Value| {
        serde_json::json!({ "id": id, "crate_id": 0, "name": name, "visibility": "public",
            "attrs": [], "deprecation": null, "inner": inner })
    };
    let mut index = serde_json::Map::new();
    let mut put = |v: serde_json::Value| {
        index.insert(v["id"].to_string(), v);
    };
    put(item(
        0,
        Some("demo"),
        serde_json::json!({ "module": { "items": [1, 5, 6, 7] } }),
    ));
    put(item(
        1,
        Some("Port"),
        serde_json::json!({ "struct": {
        "kind": { "plain": { "fields": [2], "has_stripped_fields": true } },
        "generics": no_generics, "impls": [3, 4] } }),
    ));
    put(item(
        2,
        Some("number"),
        serde_json::json!({ "struct_field": { "primitive": "usize" } }),
    ));
    put(item(
        8,
        Some("open"),
        serde_json::json!({ "function": {
        "sig": { "inputs": [["self", { "borrowed_ref": { "lifetime": null, "is_mutable": false,
            "type": { "generic": "Self" } } }], ["path", { "borrowed_ref": { "lifetime": null,
            "is_mutable": false, "type": path("Path") } }]],
            "output": path("Port"), "is_c_variadic": false },
        "generics": no_generics, "header": header } }),
    ));
    put(
        serde_json::json!({ "id": 3, "crate_id": 0, "name": null, "visibility": "default",
        "attrs": [], "deprecation": null, "inner": { "impl": { "is_unsafe": false,
        "generics": no_generics, "trait": null, "for": path("Port"), "items": [8],
        "is_negative": false, "is_synthetic": false, "blanket_impl": null } } }),
    );
    put(
        serde_json::json!({ "id": 4, "crate_id": 0, "name": null, "visibility": "default",
        "attrs": [], "deprecation": null, "inner": { "impl": { "is_unsafe": false,
        "generics": no_generics, "trait": { "path": "Debug", "id": 98, "args": null },
        "for": path("Port"), "items": [], "is_negative": false, "is_synthetic": false,
        "blanket_impl": null } } }),
    );
    put(item(
        5,
        None,
        serde_json::json!({ "use": { "source": "other::Thing", "name": "Thing",
        "id": 97, "is_glob": false } }),
    ));
    let mut old = item(
        6,
        Some("old"),
        serde_json::json!({ "function": {
        "sig": { "inputs": [], "output": null, "is_c_variadic": false },
        "generics": no_generics, "header": header } }),
    );
    old["deprecation"] = serde_json::json!({ "since": "0.1.0", "note": "use `new`" });
    put(old);
    let mut private = item(
        7,
        Some("hidden"),
        serde_json::json!({ "module": { "items": [] } }),
    );
    private["visibility"] = "crate".into();
    put(private);
    let json = serde_json::json!({ "format_version": render::FORMAT_VERSION, "root": 0,
        "index": index, "paths": {}, "external_crates": { "1": { "name": "other" } } });
    let api = render::public_api(&json).expect("the reducer's own format");
    assert_eq!(
        api,
        "pub struct demo::Port\n\
         pub demo::Port::number: usize\n\
         pub fn demo::Port::open(&self, &Path) -> Port\n\
         impl Debug for demo::Port\n\
         pub use demo::Thing = other::Thing\n\
         #[deprecated(since = \"0.1.0\", note = \"use `new`\")] pub fn demo::old()\n"
    );
}
