//! Where generated files go, writing them (`gba gen`) and checking that the committed ones
//! are current (`gba gen --check`, and the staleness test).

use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::LoadError;
use crate::emit::{self, GeneratedFile, MARKER, Output, Place, Provenance};

/// One spec and the crate directory its bindings are generated into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The spec, relative to the project root.
    pub spec: PathBuf,
    /// The generated crate's directory, relative to the project root.
    pub out: PathBuf,
    /// Where documentation goes, relative to the project root.
    pub docs: PathBuf,
    /// Which outputs this target has (all of them unless said otherwise).
    pub outputs: Vec<Output>,
}

impl Target {
    /// The project's own: `gba.yaml` into `gba-pac/`.
    pub fn gba() -> Self {
        Target {
            spec: "gba.yaml".into(),
            out: "gba-pac".into(),
            docs: "docs".into(),
            outputs: Output::ALL.to_vec(),
        }
    }

    /// Any other spec: everything, documentation included, goes into the crate directory.
    pub fn custom(spec: PathBuf, out: PathBuf) -> Self {
        Target {
            spec,
            docs: out.clone(),
            out,
            outputs: Output::ALL.to_vec(),
        }
    }

    /// The same target with only some outputs (a vendor PAC kept for benchmarks needs only
    /// its Rust sources).
    pub fn with_outputs(mut self, outputs: &[Output]) -> Self {
        let mut outputs = outputs.to_vec();
        outputs.sort();
        outputs.dedup();
        self.outputs = outputs;
        self
    }

    /// The command that regenerates this target, as written in preambles and error messages.
    pub fn command(&self) -> String {
        if *self == Target::gba() {
            "gba gen".into()
        } else {
            let mut command = format!(
                "gba gen --spec {} --out {}",
                slash(&self.spec),
                slash(&self.out)
            );
            if self.outputs != Output::ALL {
                let kinds: Vec<&str> = self.outputs.iter().map(|o| o.keyword()).collect();
                command.push_str(&format!(" --emit {}", kinds.join(",")));
            }
            command
        }
    }

    /// Every file this target generates, paths relative to the project root: with the Rust
    /// sources, the crate's `Cargo.toml`, unless the crate directory has one that `gba gen`
    /// did not write. A spec that fails validation for this target's outputs, or an output
    /// that cannot be written, is a [`LoadError::Invalid`] with every problem located in the
    /// spec.
    pub fn render(&self, root: &Path) -> Result<Vec<GeneratedFile>, LoadError> {
        Ok(self.rendered(root)?.files)
    }

    /// As [`render`](Self::render), with the spec the files came from (for its warnings).
    fn rendered(&self, root: &Path) -> Result<Rendered, LoadError> {
        let path = within(root, &self.spec);
        let text = crate::read(&path)?;
        let invalid = |diagnostics| LoadError::Invalid {
            path: path.clone(),
            text: text.clone(),
            diagnostics,
        };
        let device = crate::parse_str_for(&text, &self.outputs).map_err(invalid)?;
        let provenance = Provenance {
            spec: slash(&self.spec),
            command: self.command(),
        };
        let mut files = emit::selected(&device, &provenance, &self.outputs)
            .map_err(|e| invalid(vec![e.diagnostic()]))?;
        if self.outputs.contains(&Output::Rust)
            && !hand_written(&within(root, &self.out).join("Cargo.toml"))
        {
            files.push(emit::rust::manifest::file(&device, &provenance));
        }
        let files = files
            .into_iter()
            .map(|file| {
                let dir = match file.place {
                    Place::Crate => &self.out,
                    Place::Docs => &self.docs,
                };
                GeneratedFile {
                    path: slash(&dir.join(&file.path)),
                    ..file
                }
            })
            .collect();
        Ok(Rendered {
            files,
            device,
            text,
        })
    }
}

struct Rendered {
    files: Vec<GeneratedFile>,
    device: crate::Validated,
    text: String,
}

/// What one run of `gba gen` (or `gba gen --check`) found, with the spec it parsed once:
/// the command prints the spec's warnings from it.
#[derive(Debug)]
pub struct Run {
    /// The files written or removed (with `--check`: the stale ones, nothing touched).
    pub changes: Vec<Staleness>,
    /// The spec, validated for the target's outputs.
    pub device: crate::Validated,
    /// The spec's text, for the warnings' snippets.
    pub text: String,
}

/// Whether `path` exists and was not written by `gba gen` (it lacks the marker in its
/// first lines): a crate manifest the user keeps, such as a workspace member's, which the
/// generated one must not replace.
fn hand_written(path: &Path) -> bool {
    fs::read_to_string(path).is_ok_and(|text| !text.lines().take(3).any(|l| l.contains(MARKER)))
}

/// Why a generated file does not match what the spec generates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Staleness {
    /// The file differs from what the spec generates.
    Changed(String),
    /// The spec generates the file but it does not exist.
    Missing(String),
    /// A generated file that the spec no longer generates (a removed block, say).
    Orphaned(String),
}

impl std::fmt::Display for Staleness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Staleness::Changed(p) => write!(f, "{p}: differs from what the spec generates"),
            Staleness::Missing(p) => write!(f, "{p}: missing"),
            Staleness::Orphaned(p) => write!(f, "{p}: generated, but no longer by the spec"),
        }
    }
}

/// Why `gba gen` or `gba gen --check` could not run.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// The spec could not be read or is invalid.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A generated file or its directory could not be read, written or removed.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done (`write`, `read`, `create`, `remove`).
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
}

/// Compares the committed files with what the spec generates; changes nothing.
pub fn check(root: &Path, target: &Target) -> Result<Vec<Staleness>, GenError> {
    Ok(run(root, target, false)?.changes)
}

/// Writes every generated file whose contents changed and removes orphaned generated files.
/// Returns what was touched.
pub fn write(root: &Path, target: &Target) -> Result<Vec<Staleness>, GenError> {
    Ok(run(root, target, true)?.changes)
}

/// [`write`](fn@write) (`write`: true) or [`check`], with the spec they parsed.
pub fn run(root: &Path, target: &Target, write: bool) -> Result<Run, GenError> {
    let Rendered {
        files,
        device,
        text,
    } = target.rendered(root)?;
    let changes = compare(root, target, &files)?;
    if write {
        apply(root, &files, &changes)?;
    }
    Ok(Run {
        changes,
        device,
        text,
    })
}

fn compare(
    root: &Path,
    target: &Target,
    files: &[GeneratedFile],
) -> Result<Vec<Staleness>, GenError> {
    let mut stale = Vec::new();
    for file in files {
        match fs::read_to_string(root.join(&file.path)) {
            Ok(current) if current == file.contents => {}
            Ok(_) => stale.push(Staleness::Changed(file.path.clone())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                stale.push(Staleness::Missing(file.path.clone()))
            }
            Err(source) => {
                return Err(GenError::Io {
                    action: "read",
                    path: root.join(&file.path),
                    source,
                });
            }
        }
    }
    for orphan in orphans(root, target, files)? {
        stale.push(Staleness::Orphaned(orphan));
    }
    Ok(stale)
}

/// Writes the changed and missing files of `files`, and removes the orphaned ones.
fn apply(root: &Path, files: &[GeneratedFile], changes: &[Staleness]) -> Result<(), GenError> {
    for change in changes {
        match change {
            Staleness::Changed(path) | Staleness::Missing(path) => {
                let file = files.iter().find(|f| &f.path == path);
                let path = root.join(path);
                if let Some(parent) = path.parent() {
                    fs::create_dir_all(parent).map_err(|source| GenError::Io {
                        action: "create",
                        path: parent.to_path_buf(),
                        source,
                    })?;
                }
                let contents = file.map(|f| f.contents.as_str()).unwrap_or_default();
                fs::write(&path, contents).map_err(|source| GenError::Io {
                    action: "write",
                    path,
                    source,
                })?;
            }
            Staleness::Orphaned(path) => {
                let path = root.join(path);
                fs::remove_file(&path).map_err(|source| GenError::Io {
                    action: "remove",
                    path,
                    source,
                })?;
            }
        }
    }
    Ok(())
}

/// Files in the directories this target writes to that carry the generated-file marker but
/// are not among `files`.
fn orphans(root: &Path, target: &Target, files: &[GeneratedFile]) -> Result<Vec<String>, GenError> {
    let mut dirs: Vec<PathBuf> = files
        .iter()
        .filter_map(|f| Path::new(&f.path).parent().map(Path::to_path_buf))
        .collect();
    dirs.sort();
    dirs.dedup();
    let mut orphans = Vec::new();
    for dir in dirs {
        let Ok(entries) = fs::read_dir(root.join(&dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let relative = slash(&dir.join(entry.file_name()));
            if files.iter().any(|f| f.path == relative) || !entry.path().is_file() {
                continue;
            }
            let head: String = fs::read_to_string(entry.path())
                .map(|text| text.lines().take(3).collect::<Vec<_>>().join("\n"))
                .unwrap_or_default();
            if head.contains(MARKER) && head.contains(&slash(&target.spec)) {
                orphans.push(relative);
            }
        }
    }
    orphans.sort();
    Ok(orphans)
}

/// `root/path`, without a leading `./` when the root is the current directory (the path then
/// reads in diagnostics as the user typed it).
fn within(root: &Path, path: &Path) -> PathBuf {
    if root == Path::new(".") {
        path.to_path_buf()
    } else {
        root.join(path)
    }
}

/// A path with `/` separators, for messages and preambles that must not vary by platform:
/// relative to the current directory when it lies below it, with no doubled `/` after the
/// root of an absolute path and no `./`.
fn slash(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let path = cwd
        .as_deref()
        .filter(|_| path.is_absolute())
        .and_then(|cwd| path.strip_prefix(cwd).ok())
        .unwrap_or(path);
    let mut out = String::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::RootDir => out.push('/'),
            Component::Prefix(prefix) => out.push_str(&prefix.as_os_str().to_string_lossy()),
            other => {
                if !out.is_empty() && !out.ends_with('/') {
                    out.push('/');
                }
                out.push_str(&other.as_os_str().to_string_lossy());
            }
        }
    }
    if out.is_empty() { ".".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_in_preambles_have_no_doubled_slash_and_are_relative_where_possible() {
        assert_eq!(slash(Path::new("/tmp/x/spec.yaml")), "/tmp/x/spec.yaml");
        assert_eq!(slash(Path::new("./a/b.yaml")), "a/b.yaml");
        let here = std::env::current_dir().expect("a current directory");
        assert_eq!(slash(&here.join("sub/spec.yaml")), "sub/spec.yaml");
        let target = Target::custom(here.join("s.yaml"), "/tmp/out".into());
        assert_eq!(target.command(), "gba gen --spec s.yaml --out /tmp/out");
    }
}
