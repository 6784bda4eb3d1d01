//! Changes of the hardware side (`hardware:` sections): compatible for software, which makes
//! the same accesses, but named, since the RTL's ports change with them.

use super::compare::Walk;
use super::{Class, ItemKind, Severity};
use crate::model::Register;

impl Walk {
    /// A register's `external` (implemented outside the block, or in it).
    pub(super) fn register_hardware(&mut self, path: &[String], old: &Register, new: &Register) {
        if old.hardware.external != new.hardware.external {
            let side = |r: &Register| (r.hardware.external.to_string(), r.name.loc);
            let reason = if new.hardware.external {
                "the register is now implemented outside the block (the RTL routes its \
                 accesses to an external interface); software accesses it as before"
            } else {
                "the register is now implemented in the block (no longer external); software \
                 accesses it as before"
            };
            self.changed(
                Severity::Compatible,
                Class::HardwareChanged,
                ItemKind::Register,
                path,
                "external",
                side(old),
                side(new),
                reason.into(),
            );
        }
    }
}
