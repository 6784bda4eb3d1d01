//! The C header (`include/<device>_regs.h`): offsets, masks, shifts, enumerated and reset
//! values, and `static inline` accessors over a `volatile void *` base.

use super::{GeneratedFile, Provenance};
use crate::model::Device;

/// Not written yet: produces no file.
pub fn files(_device: &Device, _provenance: &Provenance) -> Vec<GeneratedFile> {
    Vec::new()
}
