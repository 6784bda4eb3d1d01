//! `gba-codegen`: reads a register-map spec (`gba.yaml`), validates it with precise
//! diagnostics, and emits the bindings generated from it.
//!
//! Pipeline: [`yaml`] (text → located node tree) → `parse` (tree → [`model`], reporting every
//! structural problem) → `validate` (semantic checks, every problem at once) → [`emit`]
//! (one emitter per output kind) → [`project`] (where the files go, `gen` and `--check`).
//! Beside the pipeline, [`diff`] compares two validated specs and says what a change breaks.
//! The other way round, [`import`] turns other descriptions (CMSIS-SVD) into a model,
//! reporting what it cannot carry, and [`spec_writer`] prints a model as a spec.
//! Nothing in this crate knows about the GBA: every device-specific fact comes from the spec.

pub mod diagnostic;
pub mod diff;
pub mod emit;
pub mod import;
pub mod location;
pub mod model;
pub mod names;
mod parse;
pub mod project;
pub mod spec_writer;
mod validate;
pub mod yaml;

use std::path::{Path, PathBuf};

pub use diagnostic::{Diagnostic, Style};
pub use model::Device;

/// Parses and validates spec text. On failure, every problem found, in source order.
pub fn parse_str(text: &str) -> Result<Device, Vec<Diagnostic>> {
    let tree = yaml::parse_tree(text).map_err(|d| vec![d])?;
    let mut diagnostics = Vec::new();
    let device = parse::device(&tree, text, &mut diagnostics);
    if let Some(device) = &device {
        diagnostics.extend(validate::device(device));
    }
    match device {
        Some(device) if diagnostics.is_empty() => Ok(device),
        _ => {
            sort(&mut diagnostics);
            Err(diagnostics)
        }
    }
}

fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| (d.primary.loc.line, d.primary.loc.column));
}

/// A spec file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read spec {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("spec {} has {} problem(s)", path.display(), diagnostics.len())]
    Invalid {
        path: PathBuf,
        text: String,
        diagnostics: Vec<Diagnostic>,
    },
}

impl LoadError {
    /// The full report: for an invalid spec, every diagnostic with its snippet.
    pub fn render(&self, style: Style) -> String {
        match self {
            LoadError::Read { .. } => format!("error: {self}\n"),
            LoadError::Invalid {
                path,
                text,
                diagnostics,
            } => diagnostic::render(diagnostics, &path.display().to_string(), text, style),
        }
    }
}

/// Reads, parses and validates the spec at `path`.
pub fn load(path: &Path) -> Result<Device, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_str(&text).map_err(|diagnostics| LoadError::Invalid {
        path: path.to_path_buf(),
        text,
        diagnostics,
    })
}
