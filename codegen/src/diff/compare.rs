//! The comparison walk: device, constants, blocks, registers, fields, enumerated values, each
//! level matching its items by name (then by rename evidence) and judging every difference
//! with the rules in the [module docs](super).

use super::{Change, Class, Diff, ItemKind, Severity, Side};
use crate::location::{Loc, Located};
use crate::model::{
    Access, Array, Block, Constant, Device, EnumValue, Field, Register, SideEffect,
};
use crate::names;

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
struct Walk {
    changes: Vec<Change>,
}

/// How the items of one level pair up, in the old spec's order, additions last.
enum Pair<'a, T> {
    Same(&'a T, &'a T),
    Renamed(&'a T, &'a T),
    Removed(&'a T),
    Added(&'a T),
}

/// Pairs items by name (ignoring case), then pairs the leftovers as renames where `alike`
/// holds for exactly one candidate in each direction.
fn pair<'a, T>(
    old: &'a [T],
    new: &'a [T],
    name: fn(&T) -> &Located<String>,
    alike: impl Fn(&T, &T) -> bool,
) -> Vec<Pair<'a, T>> {
    let key = |item: &T| names::clash_key(name(item));
    let mut new_used = vec![false; new.len()];
    let mut by_name: Vec<Option<usize>> = Vec::with_capacity(old.len());
    for o in old {
        let found = new.iter().position(|n| key(n) == key(o));
        if let Some(index) = found {
            new_used[index] = true;
        }
        by_name.push(found);
    }
    let unmatched_new: Vec<usize> = (0..new.len()).filter(|&i| !new_used[i]).collect();
    let unmatched_old: Vec<usize> = (0..old.len()).filter(|&i| by_name[i].is_none()).collect();
    let mut pairs = Vec::with_capacity(old.len() + unmatched_new.len());
    for (index, o) in old.iter().enumerate() {
        if let Some(n) = by_name[index] {
            pairs.push(Pair::Same(o, &new[n]));
            continue;
        }
        let candidates: Vec<usize> = unmatched_new
            .iter()
            .copied()
            .filter(|&n| alike(o, &new[n]))
            .collect();
        let unique = match candidates.as_slice() {
            [n] => {
                let rivals = unmatched_old
                    .iter()
                    .filter(|&&other| alike(&old[other], &new[*n]))
                    .count();
                (rivals == 1).then_some(*n)
            }
            _ => None,
        };
        match unique {
            Some(n) => {
                new_used[n] = true;
                pairs.push(Pair::Renamed(o, &new[n]));
            }
            None => pairs.push(Pair::Removed(o)),
        }
    }
    for (index, n) in new.iter().enumerate() {
        if !new_used[index] {
            pairs.push(Pair::Added(n));
        }
    }
    pairs
}

fn hex(value: u64) -> String {
    format!("{value:#x}")
}

fn dotted(path: &[String]) -> String {
    path.join(".")
}

fn with(path: &[String], name: &str) -> Vec<String> {
    let mut path = path.to_vec();
    path.push(name.to_string());
    path
}

/// The verdict on an access change, from what old code may do with the item.
fn access_verdict(old: Access, new: Access, what: &str) -> (Severity, String) {
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

fn side_effect_reason(old: Option<SideEffect>, new: Option<SideEffect>, what: &str) -> String {
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
        (Some(old), None) => format!(
            "{what} loses `{}`: code that relies on it (to acknowledge, trigger or consume) \
             silently stops working",
            old.keyword()
        ),
        _ => format!("reads and writes of {what} change meaning"),
    }
}

fn effect_text(effect: Option<SideEffect>) -> &'static str {
    effect.map_or("none", SideEffect::keyword)
}

fn count_text(count: usize, noun: &str) -> String {
    match count {
        0 => format!("no {noun}s"),
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

fn array_text(array: &Option<Array>) -> String {
    match array {
        Some(a) => format!("{} × {}", *a.count, hex(*a.stride)),
        None => "single".into(),
    }
}

impl Walk {
    #[allow(clippy::too_many_arguments)]
    fn push(
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
    fn changed(
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

    fn added(&mut self, item: ItemKind, path: Vec<String>, loc: Loc, reason: String) {
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

    fn removed(&mut self, item: ItemKind, path: Vec<String>, loc: Loc) {
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

    fn renamed(
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
    fn spelling(
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

    fn description(&mut self, item: ItemKind, path: &[String], old: (&str, Loc), new: (&str, Loc)) {
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

    fn block(&mut self, old: &Block, new: &Block) {
        let path = vec![old.name.value.clone()];
        self.spelling(ItemKind::Block, &path, &old.name, &new.name);
        self.description(
            ItemKind::Block,
            &path,
            (&old.description, old.name.loc),
            (&new.description, new.name.loc),
        );
        if old.offset != new.offset {
            self.changed(
                Breaking,
                Class::Moved,
                ItemKind::Block,
                &path,
                "offset",
                (hex(*old.offset), old.offset.loc),
                (hex(*new.offset), new.offset.loc),
                "old binaries access every register of the block at the old address; rebuilt \
                 code is unaffected"
                    .into(),
            );
        }
        if old.size != new.size {
            let (severity, reason) = if *new.size < *old.size {
                (
                    Breaking,
                    "the block shrinks: software that maps the old `SIZE` may map beyond the \
                     new window"
                        .to_string(),
                )
            } else {
                (
                    Compatible,
                    "the block grows: every old register is still where it was".to_string(),
                )
            };
            self.changed(
                severity,
                Class::Resized,
                ItemKind::Block,
                &path,
                "size",
                (hex(*old.size), old.size.loc),
                (hex(*new.size), new.size.loc),
                reason,
            );
        }
        self.array(
            ItemKind::Block,
            &path,
            (&old.array, old.name.loc),
            (&new.array, new.name.loc),
        );
        let alike = |o: &Register, n: &Register| {
            Register {
                name: n.name.clone(),
                ..o.clone()
            } == *n
        };
        for pair in pair(&old.registers, &new.registers, |r| &r.name, alike) {
            match pair {
                Pair::Same(o, n) => self.register(&path, o, n),
                Pair::Renamed(o, n) => self.renamed(
                    ItemKind::Register,
                    &with(&path, &o.name),
                    &o.name,
                    &n.name,
                    format!(
                        "same offset {}, width {}, access {}, reset {}, array shape {}, {} and the \
                         same description",
                        hex(*o.offset),
                        *o.width,
                        o.access.keyword(),
                        hex(*o.reset),
                        array_text(&o.array),
                        count_text(o.fields.len(), "field"),
                    ),
                ),
                Pair::Removed(o) => {
                    self.removed(ItemKind::Register, with(&path, &o.name), o.name.loc)
                }
                Pair::Added(n) => self.added(
                    ItemKind::Register,
                    with(&path, &n.name),
                    n.name.loc,
                    "register added: existing code does not use it".into(),
                ),
            }
        }
    }

    /// Array shape of a block or register; `name_loc` stands for "single" on a side without
    /// an array.
    fn array(
        &mut self,
        item: ItemKind,
        path: &[String],
        old: (&Option<Array>, Loc),
        new: (&Option<Array>, Loc),
    ) {
        let what = format!("{} `{}`", item.noun(), dotted(path));
        match (old.0, new.0) {
            (None, None) => {}
            (None, Some(a)) => self.changed(
                Breaking,
                Class::Resized,
                item,
                path,
                "count",
                (array_text(old.0), old.1),
                (array_text(new.0), a.count.loc),
                format!("{what} becomes an array: its accessor now takes an index"),
            ),
            (Some(a), None) => self.changed(
                Breaking,
                Class::Resized,
                item,
                path,
                "count",
                (array_text(old.0), a.count.loc),
                (array_text(new.0), new.1),
                format!(
                    "{what} is no longer an array: its accessor takes no index and its count \
                     constant is gone"
                ),
            ),
            (Some(a), Some(b)) => {
                if a.count != b.count {
                    let (severity, reason) = if *b.count < *a.count {
                        (
                            Breaking,
                            match *a.count - *b.count {
                                1 => format!(
                                    "element {} of {what} no longer exists: old code that \
                                     indexes it gets `None`, or reaches outside without the check",
                                    *b.count
                                ),
                                _ => format!(
                                    "elements {} to {} of {what} no longer exist: old code that \
                                     indexes them gets `None`, or reaches outside without the \
                                     check",
                                    *b.count,
                                    *a.count - 1
                                ),
                            },
                        )
                    } else {
                        (
                            Compatible,
                            format!("{what} gains elements; every old index stays valid"),
                        )
                    };
                    self.changed(
                        severity,
                        Class::Resized,
                        item,
                        path,
                        "count",
                        (a.count.to_string(), a.count.loc),
                        (b.count.to_string(), b.count.loc),
                        reason,
                    );
                }
                if a.stride != b.stride {
                    self.changed(
                        Breaking,
                        Class::Moved,
                        item,
                        path,
                        "stride",
                        (hex(*a.stride), a.stride.loc),
                        (hex(*b.stride), b.stride.loc),
                        format!(
                            "every element of {what} after the first moves: old binaries \
                             compute the old addresses"
                        ),
                    );
                }
            }
        }
    }

    fn register(&mut self, block: &[String], old: &Register, new: &Register) {
        let path = with(block, &old.name);
        let what = format!("register `{}`", dotted(&path));
        self.spelling(ItemKind::Register, &path, &old.name, &new.name);
        self.description(
            ItemKind::Register,
            &path,
            (&old.description, old.name.loc),
            (&new.description, new.name.loc),
        );
        if old.offset != new.offset {
            self.changed(
                Breaking,
                Class::Moved,
                ItemKind::Register,
                &path,
                "offset",
                (hex(*old.offset), old.offset.loc),
                (hex(*new.offset), new.offset.loc),
                format!("old binaries access {what} at the old offset; rebuilt code is unaffected"),
            );
        }
        if old.width != new.width {
            self.changed(
                Breaking,
                Class::Resized,
                ItemKind::Register,
                &path,
                "width",
                (old.width.to_string(), old.width.loc),
                (new.width.to_string(), new.width.loc),
                format!(
                    "the value type of {what} changes from u{} to u{} and the bus access width \
                     with it",
                    *old.width, *new.width
                ),
            );
        }
        if old.access != new.access {
            let (severity, reason) = access_verdict(*old.access, *new.access, &what);
            self.changed(
                severity,
                Class::AccessChanged,
                ItemKind::Register,
                &path,
                "access",
                (old.access.keyword().into(), old.access.loc),
                (new.access.keyword().into(), new.access.loc),
                reason,
            );
        }
        if old.reset != new.reset {
            self.changed(
                Compatible,
                Class::ResetChanged,
                ItemKind::Register,
                &path,
                "reset",
                (hex(*old.reset), old.reset.loc),
                (hex(*new.reset), new.reset.loc),
                "code still compiles and accesses the same bits, but software that assumes the \
                 reset state may misbehave"
                    .into(),
            );
        }
        self.array(
            ItemKind::Register,
            &path,
            (&old.array, old.name.loc),
            (&new.array, new.name.loc),
        );
        let alike = |o: &Field, n: &Field| {
            Field {
                name: n.name.clone(),
                ..o.clone()
            } == *n
        };
        for pair in pair(&old.fields, &new.fields, |f| &f.name, alike) {
            match pair {
                Pair::Same(o, n) => self.field(&path, (old, o), (new, n)),
                Pair::Renamed(o, n) => self.renamed(
                    ItemKind::Field,
                    &with(&path, &o.name),
                    &o.name,
                    &n.name,
                    format!(
                        "same bits {}, access, side effect, {} and the same description",
                        *o.bits,
                        count_text(o.values.len(), "enumerated value"),
                    ),
                ),
                Pair::Removed(o) => self.removed(ItemKind::Field, with(&path, &o.name), o.name.loc),
                Pair::Added(n) => self.added(
                    ItemKind::Field,
                    with(&path, &n.name),
                    n.name.loc,
                    "field added: existing code does not use it".into(),
                ),
            }
        }
    }

    fn field(
        &mut self,
        register: &[String],
        (old_register, old): (&Register, &Field),
        (new_register, new): (&Register, &Field),
    ) {
        let path = with(register, &old.name);
        let what = format!("field `{}`", dotted(&path));
        self.spelling(ItemKind::Field, &path, &old.name, &new.name);
        self.description(
            ItemKind::Field,
            &path,
            (&old.description, old.name.loc),
            (&new.description, new.name.loc),
        );
        let (a, b) = (*old.bits, *new.bits);
        let bits = ((a.to_string(), old.bits.loc), (b.to_string(), new.bits.loc));
        if a.lsb != b.lsb {
            self.changed(
                Breaking,
                Class::Moved,
                ItemKind::Field,
                &path,
                "bits",
                bits.0,
                bits.1,
                format!("old binaries shift and mask {what} at its old position"),
            );
        } else if a.msb != b.msb {
            let (severity, reason) = if b.width() < a.width() {
                (
                    Breaking,
                    format!(
                        "{what} narrows from {} to {} bits: values that old code writes may no \
                         longer fit",
                        a.width(),
                        b.width()
                    ),
                )
            } else {
                (
                    Compatible,
                    format!(
                        "{what} widens at the same position: every old value keeps its meaning"
                    ),
                )
            };
            self.changed(
                severity,
                Class::Resized,
                ItemKind::Field,
                &path,
                "bits",
                bits.0,
                bits.1,
                reason,
            );
        }
        let old_access = old.effective_access(old_register);
        let new_access = new.effective_access(new_register);
        // A change inherited from the register is reported once, on the register.
        if old.access != new.access && old_access != new_access {
            let (severity, reason) = access_verdict(old_access, new_access, &what);
            let loc = |field: &Field, register: &Register| {
                field.access.map_or(register.access.loc, |a| a.loc)
            };
            self.changed(
                severity,
                Class::AccessChanged,
                ItemKind::Field,
                &path,
                "access",
                (old_access.keyword().into(), loc(old, old_register)),
                (new_access.keyword().into(), loc(new, new_register)),
                reason,
            );
        }
        if old.side_effect != new.side_effect {
            let loc = |field: &Field| field.side_effect.map_or(field.name.loc, |s| s.loc);
            let (o, n) = (old.side_effect.map(|s| *s), new.side_effect.map(|s| *s));
            self.changed(
                Breaking,
                Class::SideEffectChanged,
                ItemKind::Field,
                &path,
                "side_effect",
                (effect_text(o).into(), loc(old)),
                (effect_text(n).into(), loc(new)),
                side_effect_reason(o, n, &what),
            );
        }
        // Numbers are unique within a field (validation), so an unchanged number under a new
        // name is the same encoding renamed.
        let alike = |o: &EnumValue, n: &EnumValue| o.value == n.value;
        for pair in pair(&old.values, &new.values, |v| &v.name, alike) {
            match pair {
                Pair::Same(o, n) => self.enum_value(&path, o, n),
                Pair::Renamed(o, n) => self.renamed(
                    ItemKind::EnumValue,
                    &with(&path, &o.name),
                    &o.name,
                    &n.name,
                    format!(
                        "same number {}, which no other value of the field has",
                        *o.value
                    ),
                ),
                Pair::Removed(o) => {
                    self.removed(ItemKind::EnumValue, with(&path, &o.name), o.name.loc)
                }
                Pair::Added(n) => {
                    let (severity, reason) = if new_access.is_readable() {
                        (
                            Breaking,
                            format!(
                                "an exhaustive `match` on the values of {what} no longer \
                                 compiles, and old binaries read {} as an unknown value",
                                *n.value
                            ),
                        )
                    } else {
                        (
                            Compatible,
                            format!(
                                "{what} is write-only: software writes only the values it knows"
                            ),
                        )
                    };
                    let new = Side::at(n.name.value.clone(), n.name.loc);
                    self.push(
                        severity,
                        Class::Added,
                        ItemKind::EnumValue,
                        with(&path, &n.name),
                        None,
                        None,
                        Some(new),
                        reason,
                    );
                }
            }
        }
    }

    fn enum_value(&mut self, field: &[String], old: &EnumValue, new: &EnumValue) {
        let path = with(field, &old.name);
        self.spelling(ItemKind::EnumValue, &path, &old.name, &new.name);
        if old.value != new.value {
            self.changed(
                Breaking,
                Class::ValueChanged,
                ItemKind::EnumValue,
                &path,
                "value",
                (old.value.to_string(), old.value.loc),
                (new.value.to_string(), new.value.loc),
                format!(
                    "old binaries write and compare the number {} for `{}`",
                    *old.value,
                    dotted(&path)
                ),
            );
        }
        self.description(
            ItemKind::EnumValue,
            &path,
            (&old.description, old.name.loc),
            (&new.description, new.name.loc),
        );
    }
}
