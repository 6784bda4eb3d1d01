//! CMSIS-SVD → [`Device`](crate::model::Device), through svd-parser, in passes, one per file:
//!
//! 1. repair the slips real vendor files contain, with a warning each, unless the import is
//!    strict (`repair.rs`); parse (svd-parser, weak validation so that real vendor files
//!    load), and read our own `<vendorExtensions>` constants (`constants.rs`);
//! 2. resolve every `derivedFrom` (peripherals, clusters, registers, fields, enumerated
//!    values), one chain follower for all five (`derive.rs`); svd-parser then inherits register
//!    properties (size, access, reset) from clusters, peripherals and the device;
//! 3. flatten clusters into their peripheral (`CLUSTER_REGISTER`) (`flatten.rs`);
//! 4. convert SVD items to model items, reporting what the model cannot hold (`convert.rs`);
//! 5. rename what our format cannot spell or what clashes (`rename.rs`);
//! 6. drop what overlaps (`overlaps.rs`);
//! 7. merge runs of numbered registers of one shape into register arrays (`GPIO0_STATUS` …
//!    `GPIO29_STATUS` → `GPIO_STATUS`), and numbered identical peripherals into block arrays
//!    (`arrays.rs`);
//! 8. validate, as `gba check` does for a hand-written spec: the common rules and every
//!    output's own (Rust, C, SVD, docs); a problem at a name is fixed by renaming that item,
//!    reported (`legalise.rs`);
//! 9. make peripherals with the same registers (`derivedFrom` ones among them) instances of
//!    one block type (`types.rs`); a device that validates with its types as it is skips
//!    step 8's rounds (one check instead of two).
//!
//! Passes 3 to 7 run per block and per register, in the order `convert.rs` calls them, so
//! that the warnings come out in source order. Every pass reports to one list of warnings
//! (`warnings.rs`).
//!
//! Kept: peripherals (a `name[%s]` peripheral array becomes a block array), `[%s]` register
//! and cluster arrays (as register arrays), access, `modifiedWriteValues` oneToClear /
//! oneToSet / oneToToggle / zeroToClear / zeroToSet / zeroToToggle, `readAction` clear / set /
//! modify / modifyExternal,
//! enumerated values (a set for reading and one for writing, `values` and `write_values`),
//! reset values, descriptions, and the constants, single pulses, locks
//! and index or strap resets that our own SVD emitter writes into `<vendorExtensions>`. List-style arrays
//! (`UART%s` with `dimIndex`) are expanded into one item per index, which loses nothing.
//! Everything else is reported as a [`Warning`](super::Warning).

mod arrays;
mod constants;
mod convert;
mod derive;
mod flatten;
mod interrupts;
pub(crate) mod legalise;
mod lines;
mod once;
mod overlaps;
mod rename;
mod repair;
mod text;
mod types;
pub(crate) mod warnings;

use svd_rs as svd;

use super::Imported;
use crate::model::{Access, Constant};
use warnings::Warnings;

/// Register elements one block may expand to (as `validate` allows), so that a hostile
/// `dim` cannot make the import run for minutes.
const MAX_ELEMENTS: u64 = 1 << 20;

/// Why an SVD file could not be imported at all.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The text is not an SVD file svd-parser can read; its message.
    #[error("not a valid SVD file: {0}")]
    Parse(String),
    /// A `derivedFrom` could not be resolved (svd-parser's message names it).
    #[error("cannot resolve derivedFrom: {0}")]
    Derive(String),
    /// The importer produced a device that fails validation: a bug in the importer, reported
    /// rather than written out.
    #[error("the imported device does not validate:\n{}", .0.join("\n"))]
    Invalid(Vec<String>),
}

/// How an import treats the slips vendor files contain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Repair what has an evident meaning (`repair.rs`), with a warning each.
    #[default]
    Lenient,
    /// Refuse the file at its first slip.
    Strict,
}

/// Parses SVD text and converts it, leniently.
pub fn from_str(xml: &str) -> Result<Imported, ImportError> {
    from_str_with(xml, Mode::Lenient)
}

/// Parses SVD text and converts it.
pub fn from_str_with(xml: &str, mode: Mode) -> Result<Imported, ImportError> {
    let mut warnings = Warnings::default();
    // Our own passes (repairs, `<vendorExtensions>`, line numbers) read one parse of the file
    // as written, and one index of its lines: each pass parsing it again cost a quarter of a
    // large file's import. svd-parser reads the same tree, unless the repairs changed the
    // text (it parses that itself).
    let options = svd_roxmltree::ParsingOptions {
        allow_dtd: true,
        ..svd_roxmltree::ParsingOptions::default()
    };
    let doc = svd_roxmltree::Document::parse_with_options(xml, options).ok();
    let index = lines::LineIndex::new(xml);
    let repaired = match (mode, &doc) {
        (Mode::Lenient, Some(doc)) => repair::repair(xml, doc, &index, &mut warnings),
        // Not well-formed XML: svd-parser reports it.
        _ => None,
    };
    let config = svd_parser::Config::default().validate_level(svd::ValidateLevel::Weak);
    let parsed = match (&repaired, &doc) {
        (None, Some(doc)) => parse_tree(xml, doc, &config)?,
        _ => parse_text(repaired.as_deref().unwrap_or(xml), &config)?,
    };
    // The repairs touch no `<vendorExtensions>` element, so the file as written serves.
    let (constants, extensions) = match &doc {
        Some(doc) => (
            constants::constants(doc, &mut warnings),
            constants::extensions(doc),
        ),
        None => (Vec::new(), constants::Extensions::default()),
    };
    let mut imported = convert(&parsed, constants, extensions, warnings)?;
    // The lines of the file as written: the repairs may remove lines.
    if let Some(doc) = &doc {
        lines::Lines::of(doc, &index).cite(&mut imported.warnings);
    }
    Ok(imported)
}

/// What `svd_parser::parse_with_config(xml, config)` returns, read from `doc`, the tree of
/// `xml` that the import parsed already. The text itself goes to svd-parser where its own
/// parse would differ (a DTD, which it refuses), and where it fails: its message, with the
/// item's line and path, is built from its own parse.
fn parse_tree(
    xml: &str,
    doc: &svd_roxmltree::Document,
    config: &svd_parser::Config,
) -> Result<svd::Device, ImportError> {
    use svd_parser::Parse;
    use svd_parser::elementext::ElementExt;
    let root = doc.root();
    let tree = (!xml.contains("<!DOCTYPE"))
        .then(|| root.get_child("device"))
        .flatten()
        .and_then(|device| svd::Device::parse(&device, config).ok());
    match tree {
        Some(device) => Ok(device),
        None => parse_text(xml, config),
    }
}

/// svd-parser's own parse of `xml`.
fn parse_text(xml: &str, config: &svd_parser::Config) -> Result<svd::Device, ImportError> {
    svd_parser::parse_with_config(xml, config).map_err(|e| ImportError::Parse(format!("{e:#}")))
}

/// Converts an already parsed SVD device (constants come only from [`from_str`]).
pub fn from_device(device: &svd::Device) -> Result<Imported, ImportError> {
    convert(
        device,
        Vec::new(),
        constants::Extensions::default(),
        Warnings::default(),
    )
}

fn convert(
    parsed: &svd::Device,
    constants: Vec<Constant>,
    extensions: constants::Extensions,
    mut warnings: Warnings,
) -> Result<Imported, ImportError> {
    let mut resolved = derive::resolve(parsed)?;
    svd_parser::expand::expand_properties(&mut resolved);
    let mut device = convert::device(&mut warnings, &resolved, constants);
    if extensions.relocatable {
        device.address = None;
    }
    interrupts::apply_sources(&mut device, &extensions.interrupt_sources, &mut warnings);
    extensions.apply(&mut device, &mut warnings);
    let groups = resolved
        .peripherals
        .iter()
        .filter_map(|p| Some((strip_dim(&p.name), p.group_name.clone()?)))
        .collect();
    // Most devices need no rename: one check of every output, of the device with its block
    // types, settles them (the check is most of a large file's import). Any other goes the
    // long way: renames (each round checks again), then the types (checked once more).
    let mut typed = device.clone();
    if types::assign(&mut typed, &groups)
        && crate::validated::problems(&typed, &crate::Output::ALL).is_empty()
    {
        device = typed;
    } else {
        let problems = legalise::legalise(&mut warnings, &mut device);
        if !problems.is_empty() {
            return Err(ImportError::Invalid(
                problems.iter().map(|d| d.message.clone()).collect(),
            ));
        }
        types::group(&mut device, &groups, &mut warnings);
    }
    Ok(Imported {
        device,
        warnings: warnings.into_vec(),
    })
}

/// The width of the bus access that reaches a register of `declared` bits: the next of 8,
/// 16, 32 and 64 bits (as svd2rust and chiptool access a 24-bit register, and a 1-bit one
/// where the vendor meant one byte); `None` for 0 or more than 64 bits.
fn access_width(declared: u32) -> Option<u32> {
    (1..=64)
        .contains(&declared)
        .then(|| declared.next_power_of_two().max(8))
}

/// `UART[%s]` → `UART`, `UART%s` → `UART`.
fn strip_dim(name: &str) -> String {
    name.replace("[%s]", "").replace("%s", "")
}

fn plain_access(access: svd::Access) -> Access {
    match access {
        svd::Access::ReadOnly => Access::ReadOnly,
        svd::Access::WriteOnly | svd::Access::WriteOnce => Access::WriteOnly,
        svd::Access::ReadWrite | svd::Access::ReadWriteOnce => Access::ReadWrite,
    }
}

/// Descriptions as text: `\n` sequences as paragraphs, the XML's indentation gone
/// (`text.rs`).
fn clean(text: &str) -> String {
    text::description(text)
}
