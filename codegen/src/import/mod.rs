//! Importers: other register descriptions turned into the [`model`](crate::model), with a
//! list of everything that could not be carried over.
//!
//! **Architecture invariant:** an importer never drops information silently. What the
//! model cannot hold, and every name it had to change, becomes a [`Warning`]; and the device
//! it returns has passed the same validation as a hand-written spec.

pub mod svd;

/// Something in the source that the imported device does not carry, or carries changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Where in the source: `UART0.UARTDR.DATA`.
    pub at: String,
    /// The line of the source that names the item (or the nearest enclosing item the source
    /// names), when known: `gba import-svd` prints it as `FILE:LINE`.
    pub line: Option<u32>,
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// An imported device and what the import could not carry over.
#[derive(Clone, Debug)]
pub struct Imported {
    pub device: crate::Device,
    pub warnings: Vec<Warning>,
}
