//! The generator's arrows point down: parsing and validation know no emitter, and no importer
//! uses an emitter's item (the names writers and readers share live in `interchange.rs`).
//! Checked on the code lines of the sources (comments may name the emitters).

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code lines of `path` that name the `emit` module.
fn reaches_into_emit(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a readable source file");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| line.contains("emit::") || line.contains("use crate::emit"))
        .map(|(n, line)| format!("{}:{}: {}", path.display(), n + 1, line.trim()))
        .collect()
}

#[test]
fn parsing_validation_and_import_know_no_emitter() {
    let mut files: Vec<PathBuf> = [
        "yaml.rs",
        "parse.rs",
        "validate.rs",
        "model.rs",
        "interchange.rs",
    ]
    .iter()
    .map(|f| src().join(f))
    .collect();
    let before = files.len();
    rust_files(&src().join("import"), &mut files);
    assert!(files.len() > before + 5, "the importers went missing");
    let found: Vec<String> = files.iter().flat_map(|f| reaches_into_emit(f)).collect();
    assert!(
        found.is_empty(),
        "these reach into an emitter; move what they share to a module below both \
         (`interchange.rs`, `output.rs`):\n{}",
        found.join("\n")
    );
}
