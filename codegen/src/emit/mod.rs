//! Emitters: one module per output kind, each turning a [`Validated`] device into files.
//!
//! Every emitter is deterministic (the same spec gives byte-identical output) and starts each
//! file with a preamble naming the spec and the command that regenerates it. Each output owns
//! its constraints: `check` runs the checks of the outputs a target generates (names that
//! would clash in C, …) as part of validation. An output that still cannot be written is an
//! [`EmitError`] naming the spec location, never a file with a note inside, never a panic.

use crate::Validated;
use crate::diagnostic::Diagnostic;
use crate::location::Loc;
use crate::model::Device;

pub(crate) mod c;
pub(crate) mod docs;
pub(crate) mod ipxact;
pub(crate) mod rust;
pub(crate) mod svd;
mod svd_interrupts;
pub(crate) mod systemrdl;
mod text;

pub use ipxact::render as render_ipxact;
pub use rust::inline::inline_crate;
pub use svd::render as render_svd;
pub use systemrdl::render as render_systemrdl;

/// One generated file: where it goes, and its full text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The directory `path` is relative to.
    pub place: Place,
    /// Relative to the directory that `place` names, `/`-separated.
    pub path: String,
    /// The file's full text, preamble first.
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

pub use crate::output::Output;

/// What each output does, beside its name (`crate::output`): its files and its own rules.
impl Output {
    fn files(
        self,
        device: &Validated,
        provenance: &Provenance,
    ) -> Result<Vec<GeneratedFile>, EmitError> {
        match self {
            Output::Rust => rust::files(device, provenance),
            Output::C => Ok(c::files(device, provenance)),
            Output::Svd => svd::files(device, provenance),
            Output::Docs => Ok(docs::files(device, provenance)),
            Output::SystemRdl => Ok(systemrdl::files(device, provenance)),
            Output::IpXact => Ok(ipxact::files(device, provenance)),
        }
    }

    /// This output's own rules for a device that passed the common checks.
    fn check(self, device: &Device) -> Vec<Diagnostic> {
        match self {
            Output::Rust => rust::check(device),
            Output::C => c::check(device),
            Output::Svd => svd::check(device),
            Output::Docs | Output::SystemRdl | Output::IpXact => Vec::new(),
        }
    }
}

/// The checks of each of `outputs` (run by [`crate::validate`], after the rules of every
/// spec).
pub(crate) fn check(device: &Device, outputs: &[Output]) -> Vec<Diagnostic> {
    let mut outputs = outputs.to_vec();
    outputs.sort();
    outputs.dedup();
    // The checks share nothing but the device they read: all but Rust's run on threads of
    // their own (a vendor device's C check is a tenth of its import). Rust's stays on the
    // calling thread, which inside `include_spec!` is the only one where proc-macro2 may
    // build tokens.
    std::thread::scope(|scope| {
        let threads: Vec<_> = outputs
            .iter()
            .map(|&output| {
                (output != Output::Rust).then(|| scope.spawn(move || output.check(device)))
            })
            .collect();
        outputs
            .iter()
            .zip(threads)
            .flat_map(|(&output, thread)| match thread {
                None => output.check(device),
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            })
            .collect()
    })
}

/// What each of `outputs` cannot carry of the device, as warnings (SystemRDL and IP-XACT:
/// `crate::interchange::check`).
pub fn warnings(device: &Device, outputs: &[Output]) -> Vec<Diagnostic> {
    let mut outputs = outputs.to_vec();
    outputs.sort();
    outputs.dedup();
    outputs
        .iter()
        .flat_map(|&o| match o {
            Output::SystemRdl => {
                let mut out = crate::interchange::check(device, &o.to_string());
                out.extend(crate::interchange::write_values_dropped(device));
                out
            }
            Output::IpXact => crate::interchange::check(device, &o.to_string()),
            Output::Rust | Output::C | Output::Svd | Output::Docs => Vec::new(),
        })
        .collect()
}

/// An output that could not be written for a validated device: the spec location it comes
/// from and why. A limit of the output format that validation does not know, or a bug in an
/// emitter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot write the {output} output: {message}")]
pub struct EmitError {
    /// The output that could not be written.
    pub output: Output,
    /// Why, in a sentence (the value that does not fit, the limit of the format).
    pub message: String,
    /// The part of the spec that cannot be written.
    pub loc: Loc,
}

impl EmitError {
    /// The error as a [`Diagnostic`] at its spec location, to render with the spec's snippet.
    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.to_string(), self.loc, "this part of the spec")
    }
}

/// Everything every emitter the device was validated for produces.
pub fn all(device: &Validated, provenance: &Provenance) -> Result<Vec<GeneratedFile>, EmitError> {
    selected(device, provenance, device.outputs())
}

/// What the chosen emitters produce, in the order of `outputs`. Each of `outputs` must be one
/// the device was validated for; an emitter that fails or panics (a bug) gives an
/// [`EmitError`] at the device's name.
pub fn selected(
    device: &Validated,
    provenance: &Provenance,
    outputs: &[Output],
) -> Result<Vec<GeneratedFile>, EmitError> {
    let mut files = Vec::new();
    for &output in outputs {
        if !device.outputs().contains(&output) {
            return Err(EmitError {
                output,
                message: "the spec was not validated for this output".into(),
                loc: device.name.loc,
            });
        }
        let emitted =
            std::panic::catch_unwind(|| output.files(device, provenance)).unwrap_or_else(|panic| {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("a panic");
                Err(EmitError {
                    output,
                    message: format!("internal error in gba-codegen (please report): {message}"),
                    loc: device.name.loc,
                })
            });
        files.extend(emitted?);
    }
    Ok(files)
}

/// The reset note every output writes: defined beside the names importers read back
/// (`interchange`), since `import-svd` strips exactly this text.
pub(crate) use crate::interchange::reset_note;
