//! Changes of the hardware side (`hardware:` sections): compatible for software, which makes
//! the same accesses, but named, since the RTL's ports change with them. A field's hardware
//! access is compared as the specs state it: where a side leaves it to `gba rtl`, it says so
//! with the access `gba rtl` decides.

use super::compare::Walk;
use super::{Class, ItemKind, Severity};
use crate::model::{Field, Register};

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

    /// A field's stated hardware access (`hardware: { access }`) and strobes (`swmod`,
    /// `swacc`).
    pub(super) fn field_hardware(
        &mut self,
        path: &[String],
        (old_register, old): (&Register, &Field),
        (new_register, new): (&Register, &Field),
    ) {
        for (attribute, was, is) in [
            ("swmod", old.hardware.swmod, new.hardware.swmod),
            ("swacc", old.hardware.swacc, new.hardware.swacc),
        ] {
            if was != is {
                self.changed(
                    Severity::Compatible,
                    Class::HardwareChanged,
                    ItemKind::Field,
                    path,
                    attribute,
                    (was.to_string(), old.name.loc),
                    (is.to_string(), new.name.loc),
                    format!(
                        "the RTL's `{attribute}` strobe to hardware comes or goes; software \
                         accesses the field as before"
                    ),
                );
            }
        }
        if old.hardware.access == new.hardware.access {
            return;
        }
        let side = |register: &Register, field: &Field| match &field.hardware.access {
            Some(access) => (access.keyword().to_string(), access.loc),
            None => (
                format!(
                    "unstated ({} as gba rtl decides)",
                    field.hardware_access(register).keyword()
                ),
                field.name.loc,
            ),
        };
        self.changed(
            Severity::Compatible,
            Class::HardwareChanged,
            ItemKind::Field,
            path,
            "hardware access",
            side(old_register, old),
            side(new_register, new),
            "the RTL's hardware ports of the field follow it; software accesses it as before"
                .into(),
        );
    }
}
