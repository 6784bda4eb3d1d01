//! Names the model can carry: every name a valid identifier, unique (ignoring case) among
//! its siblings, and clear of the names the generated code reserves. Each change is reported.

use std::collections::HashSet;

use super::warnings::Warnings;
use crate::import::Treatment;
use crate::location::Located;
use crate::model::EnumValue;
use crate::names;

/// A valid identifier for `raw`, reporting any change.
pub(super) fn identifier(
    warnings: &mut Warnings,
    raw: &str,
    kind: &str,
    at: &str,
    prefix: &str,
) -> String {
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name = format!(
            "{prefix}{}{name}",
            if name.starts_with('_') { "" } else { "_" }
        );
    }
    if names::problem(&name).is_some() {
        // A keyword in some case form: a trailing underscore makes it an identifier.
        name.push('_');
    }
    if name != raw {
        let why = names::problem(raw).unwrap_or_else(|| "not a valid name".into());
        warnings.warn(
            Treatment::Renamed,
            at,
            format!("{kind} `{raw}` renamed `{name}`: {why}"),
        );
    }
    name
}

/// Makes every name in `items` valid and unique (ignoring case), in order: the first
/// keeps its name, later ones get `_2`, `_3`, …
pub(super) fn rename_all<T>(
    warnings: &mut Warnings,
    items: &mut [T],
    name: impl Fn(&mut T) -> &mut Located<String>,
    kind: &str,
    at: &str,
    accessor: bool,
) {
    let prefix = match kind {
        "block" => "P",
        "register" => "R",
        _ => "F",
    };
    let mut seen = HashSet::new();
    for item in items.iter_mut() {
        let slot = name(item);
        let raw = slot.value.clone();
        let item_at = format!("{at}.{raw}");
        let mut valid = identifier(warnings, &raw, kind, &item_at, prefix);
        if accessor && names::is_reserved_accessor(&valid) {
            let renamed = format!("{valid}_");
            warnings.warn(
                Treatment::Renamed,
                &item_at,
                format!("{kind} `{valid}` renamed `{renamed}`: clashes with a generated method"),
            );
            valid = renamed;
        }
        let unique = unique_name(&valid, &mut seen);
        if unique != valid {
            warnings.warn(
                Treatment::Renamed,
                &item_at,
                format!("{kind} `{valid}` renamed `{unique}`: the name (ignoring case) is taken"),
            );
        }
        slot.value = unique;
    }
}

pub(super) fn rename_values(warnings: &mut Warnings, values: &mut [EnumValue], at: &str) {
    let mut seen = HashSet::new();
    for value in values.iter_mut() {
        let raw = value.name.value.clone();
        let vat = format!("{at}.{raw}");
        let mut valid = identifier(warnings, &raw, "enumerated value", &vat, "V");
        if names::is_reserved_value(&valid) {
            let renamed = format!("{valid}_");
            warnings.warn(
                Treatment::Renamed,
                &vat,
                format!("enumerated value `{valid}` renamed `{renamed}`: reserved in every field"),
            );
            valid = renamed;
        }
        let unique = unique_name(&valid, &mut seen);
        if unique != valid {
            warnings.warn(
                Treatment::Renamed,
                &vat,
                format!("enumerated value `{valid}` renamed `{unique}`: name taken"),
            );
        }
        value.name.value = unique;
    }
}

fn unique_name(name: &str, seen: &mut HashSet<String>) -> String {
    let mut candidate = name.to_string();
    let mut n = 2;
    while !seen.insert(names::clash_key(&candidate)) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    candidate
}
