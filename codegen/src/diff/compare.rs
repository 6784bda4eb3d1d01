//! The comparison walk and its top level (device header, constants). Each level pairs its
//! items ([`pair`](super::pair)) and judges every difference with the rules in the
//! [module docs](super); blocks are in `blocks`, registers and below in `fields`.

use super::pair::{Pair, pair};
use super::{Change, Class, Diff, ItemKind, Severity, Side};
use crate::location::{Loc, Located};
use crate::model::{Access, Array, Block, Constant, Device, SideEffect};

use Severity::{Breaking, Compatible};

/// Every change from `old` to `new`; empty when the specs say the same thing.
pub fn compare(old: &Device, new: &Device) -> Diff {
    let mut walk = Walk::default();
    walk.device(old, new);
    Diff {
        changes: walk.changes,
    }
}

#[derive(Default)]
pub(super) struct Walk {
    changes: Vec<Change>,
}

pub(super) fn hex(value: u64) -> String {
    format!("{value:#x}")
}

pub(super) fn dotted(path: &[String]) -> String {
    path.join(".")
}

pub(super) fn with(path: &[String], name: &str) -> Vec<String> {
    let mut path = path.to_vec();
    path.push(name.to_string());
    path
}

/// The verdict on an access change, from what old code may do with the item.
pub(super) fn access_verdict(old: Access, new: Access, what: &str) -> (Severity, String) {
    let lost_read = old.is_readable() && !new.is_readable();
    let lost_write = old.is_writable() && !new.is_writable();
    match (lost_read, lost_write) {
        (true, true) => (
            Breaking,
            format!("reads and writes of {what} no longer compile"),
        ),
        (true, false) => (Breaking, format!("reads of {what} no longer compile")),
        (false, true) => (Breaking, format!("writes to {what} no longer compile")),
        (false, false) => (
            Compatible,
            format!("every access that old code makes to {what} is still allowed"),
        ),
    }
}

pub(super) fn side_effect_reason(
    old: Option<SideEffect>,
    new: Option<SideEffect>,
    what: &str,
) -> String {
    match (old, new) {
        (None, Some(SideEffect::WriteOneToClear)) => format!(
            "writing 1 to {what} now clears it: a read-modify-write that writes back a set bit \
             clears it by accident"
        ),
        (None, Some(SideEffect::WriteOneToSet)) => format!(
            "writing 1 to {what} now sets it or triggers an action: writing back a read value \
             can trigger it"
        ),
        (None, Some(SideEffect::ReadToClear)) => {
            format!("reading {what} now clears it: reads that were harmless consume its value")
        }
        (None, Some(effect)) if effect.on_read() => format!(
            "reading {what} now changes it ({}): reads that were harmless consume its value",
            effect.text()
        ),
        (None, Some(effect)) => format!(
            "{what} is now `{}` ({}): a read-modify-write that writes back a read value can \
             trigger it",
            effect.keyword(),
            effect.text()
        ),
        (Some(old), None) => format!(
            "{what} loses `{}`: code that relies on it (to acknowledge, trigger or consume) \
             silently stops working",
            old.keyword()
        ),
        _ => format!("reads and writes of {what} change meaning"),
    }
}

pub(super) fn effect_text(effect: Option<SideEffect>) -> &'static str {
    effect.map_or("none", SideEffect::keyword)
}

pub(super) fn count_text(count: usize, noun: &str) -> String {
    match count {
        0 => format!("no {noun}s"),
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

pub(super) fn array_text(array: &Option<Array>) -> String {
    match array {
        Some(a) => format!("{} × {}", *a.count, hex(*a.stride)),
        None => "single".into(),
    }
}

impl Walk {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push(
        &mut self,
        severity: Severity,
        class: Class,
        item: ItemKind,
        path: Vec<String>,
        attribute: Option<&'static str>,
        old: Option<Side>,
        new: Option<Side>,
        reason: String,
    ) {
        self.changes.push(Change {
            severity,
            class,
            item,
            path,
            attribute,
            old,
            new,
            reason,
        });
    }

    /// A change of one attribute present on both sides.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn changed(
        &mut self,
        severity: Severity,
        class: Class,
        item: ItemKind,
        path: &[String],
        attribute: &'static str,
        old: (String, Loc),
        new: (String, Loc),
        reason: String,
    ) {
        self.push(
            severity,
            class,
            item,
            path.to_vec(),
            Some(attribute),
            Some(Side::at(old.0, old.1)),
            Some(Side::at(new.0, new.1)),
            reason,
        );
    }

    pub(super) fn added(&mut self, item: ItemKind, path: Vec<String>, loc: Loc, reason: String) {
        let severity = Compatible;
        let new = Side::at(path.last().cloned().unwrap_or_default(), loc);
        self.push(
            severity,
            Class::Added,
            item,
            path,
            None,
            None,
            Some(new),
            reason,
        );
    }

    pub(super) fn removed(&mut self, item: ItemKind, path: Vec<String>, loc: Loc) {
        let reason = format!(
            "code that uses {} `{}` no longer compiles",
            item.noun(),
            dotted(&path)
        );
        let old = Side::at(path.last().cloned().unwrap_or_default(), loc);
        self.push(
            Breaking,
            Class::Removed,
            item,
            path,
            None,
            Some(old),
            None,
            reason,
        );
    }

    pub(super) fn renamed(
        &mut self,
        item: ItemKind,
        path: &[String],
        old: &Located<String>,
        new: &Located<String>,
        evidence: String,
    ) {
        let reason = format!(
            "code that uses the old name `{}` no longer compiles (taken as a rename: {evidence})",
            old.value
        );
        self.changed(
            Breaking,
            Class::Renamed,
            item,
            path,
            "name",
            (old.value.clone(), old.loc),
            (new.value.clone(), new.loc),
            reason,
        );
    }

    /// Names matched ignoring case but spelt differently.
    pub(super) fn spelling(
        &mut self,
        item: ItemKind,
        path: &[String],
        old: &Located<String>,
        new: &Located<String>,
    ) {
        if old.value == new.value {
            return;
        }
        // The emitters derive every identifier from the lower-cased name (`lower`, `upper`,
        // `camel`), so a change of case alone changes no generated name; a test holds
        // `names` to this.
        let reason = "only the letter case changed, and every generated name is the same";
        self.changed(
            Compatible,
            Class::Renamed,
            item,
            path,
            "name",
            (old.value.clone(), old.loc),
            (new.value.clone(), new.loc),
            reason.into(),
        );
    }

    pub(super) fn description(
        &mut self,
        item: ItemKind,
        path: &[String],
        old: (&str, Loc),
        new: (&str, Loc),
    ) {
        if old.0 != new.0 {
            self.changed(
                Compatible,
                Class::DescriptionChanged,
                item,
                path,
                "description",
                (old.0.to_string(), old.1),
                (new.0.to_string(), new.1),
                "documentation only: the generated API is the same".into(),
            );
        }
    }

    fn device(&mut self, old: &Device, new: &Device) {
        let path = vec![old.name.value.clone()];
        if old.name.value != new.name.value {
            self.changed(
                Compatible,
                Class::Renamed,
                ItemKind::Device,
                &path,
                "name",
                (old.name.value.clone(), old.name.loc),
                (new.name.value.clone(), new.name.loc),
                "the generated API does not use the device name (only its documentation does)"
                    .into(),
            );
        }
        if old.version != new.version {
            self.changed(
                Compatible,
                Class::VersionChanged,
                ItemKind::Device,
                &path,
                "version",
                (old.version.clone(), Loc::default()),
                (new.version.clone(), Loc::default()),
                "the version is documentation; what changed in the map is listed item by item"
                    .into(),
            );
        }
        self.description(
            ItemKind::Device,
            &path,
            (&old.description, Loc::default()),
            (&new.description, Loc::default()),
        );
        self.constants(&old.constants, &new.constants);
        let alike = |o: &Block, n: &Block| {
            Block {
                name: n.name.clone(),
                ..o.clone()
            } == *n
        };
        for pair in pair(&old.blocks, &new.blocks, |b| &b.name, alike) {
            match pair {
                Pair::Same(o, n) => self.block(o, n),
                Pair::Renamed(o, n) => self.renamed(
                    ItemKind::Block,
                    std::slice::from_ref(&o.name.value),
                    &o.name,
                    &n.name,
                    format!(
                        "same offset {}, size {}, array shape {}, {} and the same description",
                        hex(*o.offset),
                        hex(*o.size),
                        array_text(&o.array),
                        count_text(o.registers.len(), "register"),
                    ),
                ),
                Pair::Removed(o) => {
                    self.removed(ItemKind::Block, vec![o.name.value.clone()], o.name.loc)
                }
                Pair::Added(n) => self.added(
                    ItemKind::Block,
                    vec![n.name.value.clone()],
                    n.name.loc,
                    "block added: existing code does not use it".into(),
                ),
            }
        }
    }

    fn constants(&mut self, old: &[Constant], new: &[Constant]) {
        // A number alone is weak evidence (many limits are 32); a described constant whose
        // value and description both survive is the same constant.
        let alike = |o: &Constant, n: &Constant| {
            !o.description.is_empty() && o.description == n.description && o.value == n.value
        };
        for pair in pair(old, new, |c| &c.name, alike) {
            match pair {
                Pair::Same(o, n) => {
                    let path = vec![o.name.value.clone()];
                    self.spelling(ItemKind::Constant, &path, &o.name, &n.name);
                    if o.value != n.value {
                        let (severity, reason) = if *n.value < *o.value {
                            (
                                Breaking,
                                format!(
                                    "the limit `{}` shrinks: old software may use up to {}, \
                                     beyond the new limit",
                                    o.name.value, *o.value
                                ),
                            )
                        } else {
                            (
                                Compatible,
                                format!(
                                    "the limit `{}` grows: old software stays within the old \
                                     value and does not use the new capacity",
                                    o.name.value
                                ),
                            )
                        };
                        self.changed(
                            severity,
                            Class::ValueChanged,
                            ItemKind::Constant,
                            &path,
                            "value",
                            (o.value.to_string(), o.value.loc),
                            (n.value.to_string(), n.value.loc),
                            reason,
                        );
                    }
                    self.description(
                        ItemKind::Constant,
                        &path,
                        (&o.description, o.name.loc),
                        (&n.description, n.name.loc),
                    );
                }
                Pair::Renamed(o, n) => self.renamed(
                    ItemKind::Constant,
                    std::slice::from_ref(&o.name.value),
                    &o.name,
                    &n.name,
                    format!("same value {} and the same description", *o.value),
                ),
                Pair::Removed(o) => {
                    self.removed(ItemKind::Constant, vec![o.name.value.clone()], o.name.loc)
                }
                Pair::Added(n) => self.added(
                    ItemKind::Constant,
                    vec![n.name.value.clone()],
                    n.name.loc,
                    "constant added: existing code does not use it".into(),
                ),
            }
        }
    }
}
