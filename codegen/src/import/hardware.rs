//! The hardware side of an imported register or field (`model::RegisterHardware`), from the
//! elaborated tree that SystemRDL and IP-XACT imports share.

use super::tree::Node;
use crate::model::RegisterHardware;

/// The register's hardware side: `external` (of the register, or of a register file holding
/// it: systemrdl-compiler marks each register of an external register file).
pub(super) fn register(node: &Node) -> RegisterHardware {
    RegisterHardware {
        external: node.external,
    }
}
