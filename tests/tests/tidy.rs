//! House rules for the repository's own documents: every file or directory that
//! ARCHITECTURE.md names in backticks exists, so the map cannot drift silently.

mod common;

use std::path::Path;

/// Every file below `dir`, as `/`-separated paths relative to `root` (build output and git's
/// own directory left out).
fn files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir)
        .expect("readable directory")
        .flatten()
    {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            files(root, &path, out);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let parts: Vec<_> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
}

#[test]
fn every_path_in_architecture_md_exists() {
    let root = common::root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut all = Vec::new();
    files(&root, &root, &mut all);
    let extensions = [".rs", ".md", ".yaml", ".sh", ".h", ".svd", ".toml"];
    let mut checked = 0;
    for (i, span) in text.split('`').enumerate() {
        // Odd pieces are inside backticks; placeholders, globs and paths outside the
        // repository are not single paths.
        if i % 2 == 0 || span.contains(['<', '*', ' ', ':']) || span.starts_with("../") {
            continue;
        }
        let is_dir = span.ends_with('/') && span.len() > 1;
        let is_file = extensions.iter().any(|e| span.ends_with(e));
        if !is_dir && !is_file {
            continue;
        }
        checked += 1;
        let found = if is_dir {
            all.iter()
                .any(|f| f.starts_with(span) || f.contains(&format!("/{span}")))
        } else {
            all.iter()
                .any(|f| f == span || f.ends_with(&format!("/{span}")))
        };
        assert!(
            found,
            "ARCHITECTURE.md names `{span}`, which does not exist"
        );
    }
    assert!(
        checked > 20,
        "only {checked} paths found: the test no longer reads the file"
    );
}
