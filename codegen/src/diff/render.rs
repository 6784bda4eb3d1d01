//! The two reports of a [`Diff`]: grouped text for a person, and JSON for tools.
//! The schema of the JSON report is documented in the [module docs](super).

use std::fmt::Write;

use super::{Change, Class, Diff, ItemKind, Severity, Side};

/// The text report: a summary line, then the changes grouped by block and register, each with
/// its verdict, the old and new places, and the reason.
pub fn human(diff: &Diff, old_path: &str, new_path: &str) -> String {
    let mut out = format!("{old_path} → {new_path}: {}\n", summary(diff));
    let mut group = None;
    for change in &diff.changes {
        let heading = heading(change);
        if group.as_ref() != Some(&heading) {
            let _ = write!(out, "\n{heading}\n");
            group = Some(heading);
        }
        let severity = match change.severity {
            Severity::Breaking => "BREAKING  ",
            Severity::Compatible => "compatible",
        };
        let _ = writeln!(out, "  {severity}  {}", subject(change));
        let pad = " ".repeat(14);
        if let Some(places) = places(change, old_path, new_path) {
            let _ = writeln!(out, "{pad}{places}");
        }
        let _ = writeln!(out, "{pad}{}", change.reason);
    }
    out
}

fn summary(diff: &Diff) -> String {
    if diff.changes.is_empty() {
        return "no changes".into();
    }
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let (breaking, compatible) = (
        diff.count(Severity::Breaking),
        diff.count(Severity::Compatible),
    );
    format!(
        "{breaking} breaking change{}, {compatible} compatible change{}",
        plural(breaking),
        plural(compatible)
    )
}

/// Changes to a register and to its fields and values share one heading.
fn heading(change: &Change) -> String {
    let p = &change.path;
    match change.item {
        ItemKind::Device => format!("device `{}`", p[0]),
        ItemKind::Constant => "constants".into(),
        ItemKind::Block => format!("block `{}`", p[0]),
        ItemKind::Register | ItemKind::Field | ItemKind::EnumValue => {
            format!("block `{}`, register `{}`", p[0], p[1])
        }
    }
}

fn subject(change: &Change) -> String {
    // Below the heading, name the item only when it is not the heading's own.
    let own = match change.item {
        ItemKind::Device | ItemKind::Block | ItemKind::Register => None,
        ItemKind::Constant => Some(change.path[0..].join(".")),
        ItemKind::Field | ItemKind::EnumValue => Some(change.path[2..].join(".")),
    };
    let item = match own {
        Some(name) => format!("{} `{name}` ", change.item.noun()),
        None => String::new(),
    };
    let what = match change.class {
        Class::Added => return format!("{item}added"),
        Class::Removed => return format!("{item}removed"),
        Class::Renamed => "renamed",
        Class::Moved => "moved",
        Class::Resized => "resized",
        Class::AccessChanged => "access changed",
        Class::SideEffectChanged => "side effect changed",
        Class::ResetChanged => "reset value changed",
        Class::AlternateChanged => "alternate_of changed",
        Class::TypeChanged => "instance_of changed",
        Class::ValueChanged => "value changed",
        Class::VersionChanged => "version changed",
        Class::DescriptionChanged => return format!("{item}description changed"),
        Class::HardwareChanged => "hardware side changed",
    };
    let attribute = match (change.class, change.attribute) {
        (Class::Moved | Class::Resized | Class::HardwareChanged, Some(attribute)) => {
            format!(" ({attribute})")
        }
        _ => String::new(),
    };
    let values = match (&change.old, &change.new) {
        (Some(old), Some(new)) => format!(": {} → {}", old.value, new.value),
        _ => String::new(),
    };
    format!("{item}{what}{attribute}{values}")
}

fn place(side: &Option<Side>, path: &str) -> Option<String> {
    let loc = side.as_ref()?.loc?;
    Some(format!("{path}:{}:{}", loc.line, loc.column))
}

fn places(change: &Change, old_path: &str, new_path: &str) -> Option<String> {
    match (place(&change.old, old_path), place(&change.new, new_path)) {
        (Some(old), Some(new)) => Some(format!("{old} → {new}")),
        (Some(old), None) => Some(format!("was at {old}")),
        (None, Some(new)) => Some(format!("now at {new}")),
        (None, None) => None,
    }
}

/// The JSON report (see the schema in the module docs), pretty-printed.
pub fn json(diff: &Diff, old_path: &str, new_path: &str) -> String {
    use serde_json::{Value, json};
    let side = |side: &Option<Side>, path: &str| -> Value {
        match side {
            None => Value::Null,
            Some(side) => json!({
                "value": side.value,
                "location": side.loc.map(|loc| json!({
                    "file": path,
                    "line": loc.line,
                    "column": loc.column,
                })),
            }),
        }
    };
    let changes: Vec<Value> = diff
        .changes
        .iter()
        .map(|c| {
            json!({
                "severity": c.severity.keyword(),
                "change": c.class.keyword(),
                "item": c.item.keyword(),
                "path": c.path,
                "attribute": c.attribute,
                "old": side(&c.old, old_path),
                "new": side(&c.new, new_path),
                "reason": c.reason,
            })
        })
        .collect();
    let report = json!({
        "schema_version": 1,
        "old": { "file": old_path },
        "new": { "file": new_path },
        "verdict": diff.verdict().map_or("none", Severity::keyword),
        "summary": {
            "breaking": diff.count(Severity::Breaking),
            "compatible": diff.count(Severity::Compatible),
        },
        "changes": changes,
    });
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
    text.push('\n');
    text
}
