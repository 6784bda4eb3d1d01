//! Importers: other register descriptions turned into the [`model`](crate::model), with a
//! list of everything that could not be carried over.
//!
//! **Architecture invariant:** an importer never drops information silently. What the
//! model cannot hold, and every name it had to change, becomes a [`Warning`]; and the device
//! it returns has passed the same validation as a hand-written spec.

mod expr;
mod hardware;
pub mod ipxact;
pub mod rdl;
pub mod svd;
mod tree;
mod tree_interrupts;

pub use tree::TreeError;

/// What the import did with an item it could not carry over as the source has it: each
/// warning says which, so that a summary can count them (`gba import-svd`'s last line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Treatment {
    /// Carried under a new name: the source's is not an identifier, is a keyword, or is
    /// taken.
    Renamed,
    /// Carried in another shape: numbered items as one array, an item that overlaps another
    /// as its alternate view.
    Reshaped,
    /// A slip of the source repaired: a misspelt or too-wide access, a value or an address
    /// block cut to fit, an odd size read at the access that reaches it.
    Repaired,
    /// Something the spec format has no place for (interrupts, read actions, a second list
    /// of values, the CPU): not carried; the item itself is.
    NotRepresented,
    /// An item the spec cannot hold as written (a second name for a value, a value that
    /// does not fit its field, a misaligned register): left out of the spec.
    LeftOut,
}

impl Treatment {
    /// Every treatment, in the order a summary lists them.
    pub const ALL: [Treatment; 5] = [
        Treatment::Renamed,
        Treatment::Reshaped,
        Treatment::Repaired,
        Treatment::NotRepresented,
        Treatment::LeftOut,
    ];

    /// How a summary says it: "3 renamed", "2 left out".
    pub const fn as_str(self) -> &'static str {
        match self {
            Treatment::Renamed => "renamed",
            Treatment::Reshaped => "reshaped",
            Treatment::Repaired => "repaired",
            Treatment::NotRepresented => "not represented",
            Treatment::LeftOut => "left out",
        }
    }
}

/// Something in the source that the imported device does not carry, or carries changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What the import did with the item.
    pub treatment: Treatment,
    /// Where in the source: `UART0.UARTDR.DATA`.
    pub at: String,
    /// The line of the source that names the item (or the nearest enclosing item the source
    /// names), when known: `gba import-svd` prints it as `FILE:LINE`.
    pub line: Option<u32>,
    /// What was done and why, in a sentence.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// The line that closes a list of warnings: how many, and how many of each treatment, so
/// that what was left out stands out of thousands of renames. `None` when there are none.
pub fn summary(warnings: &[Warning]) -> Option<String> {
    if warnings.is_empty() {
        return None;
    }
    let counts: Vec<String> = Treatment::ALL
        .iter()
        .filter_map(|&treatment| {
            let n = warnings.iter().filter(|w| w.treatment == treatment).count();
            (n > 0).then(|| format!("{n} {}", treatment.as_str()))
        })
        .collect();
    Some(format!(
        "{} warning(s): the items above are not carried over as they are ({})",
        warnings.len(),
        counts.join(", ")
    ))
}

/// An imported device and what the import could not carry over.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The device, valid as a hand-written spec would be.
    pub device: crate::Device,
    /// Everything not carried over as the source has it, in source order.
    pub warnings: Vec<Warning>,
}
