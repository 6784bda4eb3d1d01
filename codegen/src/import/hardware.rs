//! The hardware side of an imported register or field (`model::RegisterHardware`), from the
//! elaborated tree that SystemRDL and IP-XACT imports share.

use super::tree::{FieldNode, Node};
use crate::location::Located;
use crate::model::{FieldHardware, HardwareAccess, RegisterHardware};

/// The register's hardware side: `external` (of the register, or of a register file holding
/// it: systemrdl-compiler marks each register of an external register file).
pub(super) fn register(node: &Node) -> RegisterHardware {
    RegisterHardware {
        external: node.external,
    }
}

/// The field's hardware side: its hardware access where the file states it (SystemRDL's
/// `hw`, assigned to the field or by `default`; SystemRDL's default `rw` left unsaid is the
/// spec's absent access), and its strobes (`swmod`, `swacc`). `Err`: an access the spec has no word for, with what to say.
pub(super) fn field(f: &FieldNode) -> Result<FieldHardware, String> {
    let access = match f.hw.as_deref() {
        None => None,
        Some(word) => match HardwareAccess::from_keyword(word.trim()) {
            Some(access) => Some(Located::synthetic(access)),
            None => {
                return Err(format!(
                    "the hardware access `{word}` is not carried (known: `rw`, `r`, `w`, `na`)"
                ));
            }
        },
    };
    Ok(FieldHardware {
        access,
        swmod: f.swmod,
        swacc: f.swacc,
    })
}
