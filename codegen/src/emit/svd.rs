//! CMSIS-SVD (`<device>.svd`), written with svd-rs and svd-encoder.

use super::{GeneratedFile, Provenance};
use crate::model::Device;

/// Not written yet: produces no file.
pub fn files(_device: &Device, _provenance: &Provenance) -> Vec<GeneratedFile> {
    Vec::new()
}
