//! Register documentation (`registers.md` in the docs directory) with an SVG bitfield diagram
//! per register.

use super::{GeneratedFile, Provenance};
use crate::model::Device;

pub fn files(_device: &Device, _provenance: &Provenance) -> Vec<GeneratedFile> {
    Vec::new()
}
