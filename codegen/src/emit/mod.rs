//! Emitters: one module per output kind, each turning a validated [`Device`] into files.
//!
//! Every emitter is deterministic (the same spec gives byte-identical output) and starts each
//! file with a preamble naming the spec and the command that regenerates it.

use crate::model::Device;

pub mod c;
pub mod docs;
pub mod rust;
pub mod svd;

/// One generated file: where it goes, and its full text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    pub place: Place,
    /// Relative to the directory that `place` names, `/`-separated.
    pub path: String,
    pub contents: String,
}

/// The directory a generated file is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The generated crate (`gba-pac/`): Rust sources, the C header, the SVD.
    Crate,
    /// The documentation directory (`docs/` for the project's own spec).
    Docs,
}

/// Where the output came from, for the preamble.
#[derive(Clone, Debug)]
pub struct Provenance {
    /// The spec file as the user names it (`gba.yaml`).
    pub spec: String,
    /// The command that regenerates the output (`gba gen`).
    pub command: String,
}

impl Provenance {
    /// The preamble lines, each starting with `comment` (`//`, `#`, …).
    pub fn preamble(&self, comment: &str) -> String {
        format!(
            "{comment} Generated from {spec} by `{command}` (gba-codegen {version}).\n\
             {comment} Do not edit: change {spec} and run `{command}` again.\n",
            spec = self.spec,
            command = self.command,
            version = env!("CARGO_PKG_VERSION"),
        )
    }
}

/// The marker every generated file contains, used to recognise stale generated files.
pub const MARKER: &str = "Do not edit: change ";

/// One kind of output; a target generates some or all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Output {
    /// The Rust crate sources (`src/`).
    Rust,
    /// The C header (`include/<device>_regs.h`).
    C,
    /// CMSIS-SVD (`<device>.svd`).
    Svd,
    /// `registers.md` and its diagrams.
    Docs,
}

impl Output {
    pub const ALL: [Output; 4] = [Output::Rust, Output::C, Output::Svd, Output::Docs];

    /// The spelling on the command line (`--emit rust,c`).
    pub fn keyword(self) -> &'static str {
        match self {
            Output::Rust => "rust",
            Output::C => "c",
            Output::Svd => "svd",
            Output::Docs => "docs",
        }
    }

    fn files(self, device: &Device, provenance: &Provenance) -> Vec<GeneratedFile> {
        match self {
            Output::Rust => rust::files(device, provenance),
            Output::C => c::files(device, provenance),
            Output::Svd => svd::files(device, provenance),
            Output::Docs => docs::files(device, provenance),
        }
    }
}

/// Everything every emitter produces for `device`.
pub fn all(device: &Device, provenance: &Provenance) -> Vec<GeneratedFile> {
    selected(device, provenance, &Output::ALL)
}

/// What the chosen emitters produce, in the order of `outputs`.
pub fn selected(
    device: &Device,
    provenance: &Provenance,
    outputs: &[Output],
) -> Vec<GeneratedFile> {
    outputs
        .iter()
        .flat_map(|output| output.files(device, provenance))
        .collect()
}
