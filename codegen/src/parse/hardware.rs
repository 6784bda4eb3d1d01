//! The spec's `hardware:` sections (`model::RegisterHardware`, `model::FieldHardware`): what the
//! register block's RTL needs and software never sees.

use super::MapReader;
use crate::diagnostic::Diagnostic;
use crate::location::Located;
use crate::model::{Access, Field, FieldHardware, HardwareAccess, RegisterHardware};
use crate::yaml::Node;

/// A register's `hardware:` mapping (`external: true`); absent, the default.
pub(super) fn register(
    node: Option<&Located<Node>>,
    what: &str,
    src: &str,
    diags: &mut Vec<Diagnostic>,
) -> RegisterHardware {
    let Some(node) = node else {
        return RegisterHardware::default();
    };
    let Some(mut map) =
        MapReader::new(node, &format!("the hardware section of {what}"), src, diags)
    else {
        return RegisterHardware::default();
    };
    let external = map.optional_bool("external", diags).is_some_and(|e| *e);
    map.finish(&["external"], diags);
    RegisterHardware { external }
}

/// A field's `hardware:` mapping (`access: rw | r | w | na`); absent, the default. `None`
/// when it is malformed (reported).
pub(super) fn field(
    node: Option<&Located<Node>>,
    what: &str,
    src: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<FieldHardware> {
    let Some(node) = node else {
        return Some(FieldHardware::default());
    };
    let mut map = MapReader::new(node, &format!("the hardware section of {what}"), src, diags)?;
    let access = map.optional_str("access", diags);
    let swmod = map.optional_bool("swmod", diags).is_some_and(|b| *b);
    let swacc = map.optional_bool("swacc", diags).is_some_and(|b| *b);
    map.finish(&["access", "swmod", "swacc"], diags);
    let access = match access {
        None => None,
        Some(word) => match HardwareAccess::from_keyword(&word.value) {
            Some(access) => Some(Located::new(access, word.loc)),
            None => {
                diags.push(Diagnostic::error(
                    format!("{what}: `{}` is not a hardware access", word.value),
                    word.loc,
                    "expected rw (hardware reads and writes it), r (reads it), w (writes it) \
                     or na (neither)",
                ));
                return None;
            }
        },
    };
    Some(FieldHardware {
        access,
        swmod,
        swacc,
    })
}

/// What SystemRDL refuses of a field's two accesses (its `sw = w; hw = w;` "is meaningless":
/// nobody could read the field), refused here too so that the exported SystemRDL elaborates.
pub(super) fn check_fields(register: Access, fields: &[Field], diags: &mut Vec<Diagnostic>) {
    for f in fields {
        let sw = f.access.map_or(register, |a| *a);
        let Some(hw) = &f.hardware.access else {
            continue;
        };
        // `sw = w1` (write-once) with `hw = w` is allowed: SystemRDL refuses `sw = w` alone.
        if sw == Access::WriteOnly && !f.write_once && **hw == HardwareAccess::Write {
            diags.push(Diagnostic::error(
                format!(
                    "field `{}`: hardware access `w` of a write-only field: nothing reads it",
                    *f.name
                ),
                hw.loc,
                "software only writes the field and hardware only writes it: give hardware \
                 `r` (or `rw`), or software `rw`",
            ));
        }
    }
}
