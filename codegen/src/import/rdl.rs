//! SystemRDL → [`Device`](crate::Device). The reference front end, systemrdl-compiler,
//! compiles and elaborates the file (`codegen/rdl/elaborate.py`, run with `python3`, or the
//! interpreter `GBA_PYTHON` names); the elaborated map comes back as JSON and is converted by
//! `import::tree`, which says what the spec cannot carry.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::Imported;
use super::tree::{self, Format, Node, TreeError};

/// The elaboration script, run from standard input so that the binary needs no file of the
/// source tree.
const ELABORATE: &str = include_str!("../../rdl/elaborate.py");

/// Why a SystemRDL file could not be imported at all.
#[derive(Debug, thiserror::Error)]
pub enum RdlError {
    /// The Python interpreter could not be started.
    #[error("cannot run {python}: {source}; set GBA_PYTHON to a Python 3 with systemrdl-compiler")]
    Spawn {
        /// The interpreter tried (`GBA_PYTHON`, else `python3`).
        python: String,
        /// Why it could not be started.
        source: std::io::Error,
    },
    /// The interpreter (named) cannot import `systemrdl`.
    #[error(
        "systemrdl-compiler is not installed for {0}: run `{0} -m pip install systemrdl-compiler`"
    )]
    NoCompiler(String),
    /// systemrdl-compiler rejected the source; its messages, with file and line.
    #[error("systemrdl-compiler refused the file:\n{0}")]
    Compile(String),
    /// The elaboration script's output could not be read: a bug in this crate.
    #[error("the elaborated map could not be read (a bug, please report): {0}")]
    Json(String),
    /// The elaborated map could not be turned into a valid spec.
    #[error(transparent)]
    Tree(#[from] TreeError),
}

/// Elaborates `path` with systemrdl-compiler and converts it; `strict` refuses the file when
/// anything would be warned about.
pub fn import(path: &Path, strict: bool) -> Result<Imported, RdlError> {
    let top = elaborate(path)?;
    Ok(tree::convert(&top, Format::SystemRdl, strict)?)
}

fn python() -> String {
    std::env::var("GBA_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn elaborate(path: &Path) -> Result<Node, RdlError> {
    let python = python();
    let mut child = Command::new(&python)
        .arg("-")
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| RdlError::Spawn {
            python: python.clone(),
            source,
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(ELABORATE.as_bytes())
            .map_err(|source| RdlError::Spawn {
                python: python.clone(),
                source,
            })?;
    }
    let output = child.wait_with_output().map_err(|source| RdlError::Spawn {
        python: python.clone(),
        source,
    })?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    match output.status.code() {
        Some(0) => {
            serde_json::from_slice(&output.stdout).map_err(|e| RdlError::Json(e.to_string()))
        }
        Some(3) => Err(RdlError::NoCompiler(python)),
        _ => Err(RdlError::Compile(stderr.trim_end().to_string())),
    }
}
