//! The spec's `hardware:` sections (`model::RegisterHardware`): what the register block's RTL
//! needs and software never sees.

use super::MapReader;
use crate::diagnostic::Diagnostic;
use crate::location::Located;
use crate::model::RegisterHardware;
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
