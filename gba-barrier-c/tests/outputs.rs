//! The C library's files have no hash in their names (`libgba_barrier.so`, `.a`), so they may
//! come from one crate only, and from none that another crate can depend on: otherwise an
//! out-of-tree crate depending on it by path, with the same target directory, would rebuild
//! and overwrite them (with its own copies of gba-hal and the rest inside). So: gba-barrier-c
//! builds them and is no dependency of anything; every other library of the workspace is a
//! Rust library only.

use std::process::Command;

#[test]
fn only_the_c_library_crate_builds_c_libraries_and_nothing_depends_on_it() {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let packages = metadata["packages"].as_array().expect("packages");
    let mut c_libraries = Vec::new();
    for package in packages {
        let name = package["name"].as_str().unwrap();
        for target in package["targets"].as_array().unwrap() {
            let kinds: Vec<&str> = target["crate_types"]
                .as_array()
                .unwrap()
                .iter()
                .map(|kind| kind.as_str().unwrap())
                .collect();
            if kinds
                .iter()
                .any(|kind| ["cdylib", "staticlib"].contains(kind))
            {
                c_libraries.push((
                    name.to_string(),
                    target["name"].as_str().unwrap().to_string(),
                ));
            }
        }
        let depends_on_c = package["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|dependency| dependency["name"] == "gba-barrier-c");
        assert!(
            !depends_on_c,
            "{name} depends on gba-barrier-c, whose outputs have no hash in their names: depend \
             on gba-barrier (the Rust library) instead"
        );
    }
    assert_eq!(
        c_libraries,
        [("gba-barrier-c".to_string(), "gba_barrier".to_string())],
        "C libraries (cdylib/staticlib) belong in gba-barrier-c only"
    );
}
