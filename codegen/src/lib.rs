//! `gba-codegen`: reads a register-map spec (`gba.yaml`), validates it with precise
//! diagnostics, and emits the bindings generated from it.
//!
//! The public API is the facade its users (the `gba` tool, `gba-macros`, the tests) need:
//!
//! - **parse and validate**: [`load`]/[`load_for`] (a file), [`parse_str`]/[`parse_str_for`]
//!   (text), [`validate()`] (a [`model::Device`] built in code), each giving a [`Validated`]
//!   device or every [`Diagnostic`] found, which [`diagnostic::render`] prints with snippets;
//! - **the model**: [`model`], the spec as data, every item [`Located`] in its source;
//! - **emit**: [`emit`], every [`Output`] as files, or one interchange format as text;
//!   [`write_spec`] prints a model back as a spec; [`project`] places the files of a
//!   generated crate and checks them for staleness (`gba gen`, `gba gen --check`);
//! - **import**: [`import`], CMSIS-SVD, SystemRDL and IP-XACT turned into a model, with a
//!   warning for everything that could not be carried;
//! - **diff**: [`diff`], what a change between two specs breaks for the code generated from
//!   them.
//!
//! Inside, the pipeline is `yaml` (text → located node tree) → `parse` (tree → model,
//! reporting every structural problem) → `validate` (semantic checks, every problem at once;
//! it knows no output) → `emit` (one emitter per output kind, each with its own checks, which
//! [`validate()`] runs after the common ones). Nothing in this crate knows about the GBA:
//! every device-specific fact comes from the spec.

#![warn(missing_docs)]

pub mod bit_order;
mod block_types;
pub mod diagnostic;
pub mod diff;
pub mod emit;
pub mod import;
mod interchange;
mod interrupts;
mod location;
pub mod model;
mod names;
mod output;
mod parse;
pub mod project;
mod spec_writer;
mod validate;
mod validated;
mod yaml;

use std::path::{Path, PathBuf};

pub use diagnostic::{Diagnostic, Severity, Style};
pub use location::{Loc, Located};
pub use model::Device;
pub use output::Output;
pub use spec_writer::write as write_spec;
pub use validated::{Validated, validate};

/// Parses and validates spec text for every output. On failure, every problem found, in
/// source order.
pub fn parse_str(text: &str) -> Result<Validated, Vec<Diagnostic>> {
    parse_str_for(text, &Output::ALL)
}

/// Parses and validates spec text for the given outputs only (a crate that emits only Rust
/// is not refused for names that would clash in C).
pub fn parse_str_for(text: &str, outputs: &[Output]) -> Result<Validated, Vec<Diagnostic>> {
    let tree = yaml::parse_tree(text).map_err(|d| vec![*d])?;
    let mut diagnostics = Vec::new();
    let Some(parsed) = parse::device(&tree, text, &mut diagnostics) else {
        sort(&mut diagnostics);
        return Err(diagnostics);
    };
    if diagnostics.is_empty() {
        return validate(parsed.device, outputs);
    }
    // The broken items were left out; what remains is still checked, so that one run shows
    // every problem (the output checks wait for a clean device). Problems that only the
    // left-out items cause are not reported again.
    let device = &parsed.device;
    diagnostics.extend(validate::device(device).into_iter().filter(|d| {
        let stand_in_name = parsed.missing_name == Some(d.primary.loc);
        let no_blocks = device.blocks.is_empty()
            && parsed.blocks_written > 0
            && d.primary.loc == device.name.loc
            && d.message.ends_with("has no blocks");
        !stand_in_name && !no_blocks
    }));
    for block in &parsed.partial_blocks {
        diagnostics.extend(validate::registers_only(block));
    }
    for register in &parsed.partial_registers {
        diagnostics.extend(validate::fields_only(register));
    }
    sort(&mut diagnostics);
    Err(diagnostics)
}

pub(crate) fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| (d.primary.loc.line, d.primary.loc.column));
}

/// A spec file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read spec {}: {source}", path.display())]
    Read {
        /// The spec's path, as given.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The spec was read but has problems: [`LoadError::render`] prints them with snippets.
    #[error("spec {} has {} problem(s)", path.display(), diagnostics.len())]
    Invalid {
        /// The spec's path, as given.
        path: PathBuf,
        /// The spec's text (the snippets are cut from it).
        text: String,
        /// Every problem found, in source order.
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

/// Reads, parses and validates the spec at `path` for every output.
pub fn load(path: &Path) -> Result<Validated, LoadError> {
    load_for(path, &Output::ALL)
}

/// Reads, parses and validates the spec at `path` for the given outputs.
pub fn load_for(path: &Path, outputs: &[Output]) -> Result<Validated, LoadError> {
    let text = read(path)?;
    parse_str_for(&text, outputs).map_err(|diagnostics| LoadError::Invalid {
        path: path.to_path_buf(),
        text,
        diagnostics,
    })
}

/// The spec's text. A file that is not UTF-8 is reported at the first bad byte, by line and
/// column, like any other problem in the spec.
pub fn read(path: &Path) -> Result<String, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let bytes = error.into_bytes();
        // The text up to the bad byte, and the rest lossily, so that the snippet shows it.
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let before = String::from_utf8_lossy(&bytes[..valid]);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let loc = location::Loc {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
            byte_start: before.len(),
            byte_len: 1,
        };
        LoadError::Invalid {
            path: path.to_path_buf(),
            text,
            diagnostics: vec![Diagnostic::error(
                "the spec is not UTF-8 text",
                loc,
                "this byte is not valid UTF-8",
            )],
        }
    })
}
