//! The register level of the walk: a register's own attributes, its fields and their
//! enumerated values.

use super::compare::{
    Walk, access_verdict, count_text, dotted, effect_text, hex, side_effect_reason, with,
};
use super::pair::{Pair, pair};
use super::{Class, ItemKind, Severity, Side};
use crate::location::{Loc, Located};
use crate::model::{EnumValue, Field, Register, SplitRead};
use crate::names;

use Severity::{Breaking, Compatible};

impl Walk {
    pub(super) fn register(&mut self, block: &[String], old: &Register, new: &Register) {
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
        self.bus_access(&path, old, new);
        self.register_hardware(&path, old, new);
        if old.lock != new.lock {
            let side = |register: &Register| match &register.lock {
                Some(lock) => (
                    format!("{} {}.{}", lock.keyword(), *lock.register, *lock.field),
                    lock.register.loc,
                ),
                None => ("none".to_string(), register.name.loc),
            };
            let what = format!("register `{}`", dotted(&path));
            self.changed(
                Breaking,
                Class::AccessChanged,
                ItemKind::Register,
                &path,
                "lock",
                side(old),
                side(new),
                format!(
                    "the write lock of {what} changed: its handle's type changes (writes go \
                     through `unlocked(lock)` with the new lock bit, or directly without one)"
                ),
            );
        }
        self.alternate(
            ItemKind::Register,
            &path,
            (&old.alternate_of, old.name.loc),
            (&new.alternate_of, new.name.loc),
        );
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

    /// `alternate_of` of a register or block, compared as names are matched (ignoring
    /// case). Compatible: the generated API is the same either way (it documents whose bytes
    /// the item shares); a move that makes or ends an overlap is reported as its own change.
    pub(super) fn alternate(
        &mut self,
        kind: ItemKind,
        path: &[String],
        (old, old_loc): (&Option<Located<String>>, Loc),
        (new, new_loc): (&Option<Located<String>>, Loc),
    ) {
        let key = |of: &Option<Located<String>>| of.as_ref().map(|of| names::clash_key(of));
        if key(old) == key(new) {
            return;
        }
        let side = |of: &Option<Located<String>>, loc: Loc| match of {
            Some(of) => (of.value.clone(), of.loc),
            None => ("none".to_string(), loc),
        };
        let noun = kind.keyword();
        let what = format!("{noun} `{}`", dotted(path));
        let reason = match (old, new) {
            (None, Some(of)) => format!(
                "{what} is declared another view of the bytes of `{}`: its accessors are the \
                 same (an offset or size change that makes the overlap is reported on its own)",
                **of
            ),
            (Some(of), None) => format!(
                "{what} is no longer declared a view of the bytes of `{}`: its accessors are the \
                 same (a change that ends the overlap is reported on its own)",
                **of
            ),
            _ => format!(
                "{what} is declared a view of another {noun}'s bytes: its accessors are the \
                 same (a {noun} renamed carries its alternates with it)"
            ),
        };
        self.changed(
            Compatible,
            Class::AlternateChanged,
            kind,
            path,
            "alternate_of",
            side(old, old_loc),
            side(new, new_loc),
            reason,
        );
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
        if old.write_once != new.write_once {
            self.write_once_changed(&path, old, new, &what);
        }
        self.field_hardware(&path, (old_register, old), (new_register, new));
        if old.is_msb0() != new.is_msb0() {
            self.bit_order_changed(&path, old, new, &what);
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
        if old.reset_from != new.reset_from {
            let loc = |field: &Field| field.reset_from.map_or(field.name.loc, |r| r.loc);
            let text = |field: &Field| {
                field
                    .reset_from
                    .map_or("the register's reset", |r| r.keyword())
                    .to_string()
            };
            self.changed(
                Compatible,
                Class::ResetChanged,
                ItemKind::Field,
                &path,
                "reset",
                (text(old), loc(old)),
                (text(new), loc(new)),
                "code still compiles and accesses the same bits, but software that assumes the \
                 reset state may misbehave"
                    .into(),
            );
        }
        self.values(
            &path,
            &what,
            new_access,
            (&old.values, &new.values),
            Use::Read,
        );
        // The values for writing, where the field has its own (`write_values`): compared
        // apart, as `NAME (write)`, since a name may be in both lists.
        self.values(
            &path,
            &what,
            new_access,
            (&old.write_values, &new.write_values),
            Use::Write,
        );
    }

    /// One list of a field's values against its other version.
    fn values(
        &mut self,
        path: &[String],
        what: &str,
        new_access: crate::model::Access,
        (old, new): (&[EnumValue], &[EnumValue]),
        usage: Use,
    ) {
        let path = path.to_vec();
        let name = |v: &EnumValue| -> Located<String> {
            match usage {
                Use::Read => v.name.clone(),
                Use::Write => Located {
                    value: format!("{} (write)", *v.name),
                    loc: v.name.loc,
                },
            }
        };
        let (old, new): (Vec<EnumValue>, Vec<EnumValue>) = (
            old.iter()
                .map(|v| EnumValue {
                    name: name(v),
                    ..v.clone()
                })
                .collect(),
            new.iter()
                .map(|v| EnumValue {
                    name: name(v),
                    ..v.clone()
                })
                .collect(),
        );
        // Numbers are unique within a field (validation), so an unchanged number under a new
        // name is the same encoding renamed.
        let alike = |o: &EnumValue, n: &EnumValue| o.value == n.value;
        for pair in pair(&old, &new, |v| &v.name, alike) {
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
                    let (severity, reason) = if new_access.is_readable() && usage == Use::Read {
                        (
                            Breaking,
                            format!(
                                "an exhaustive `match` on the values of {what} no longer \
                                 compiles, and old binaries read {} as an unknown value",
                                *n.value
                            ),
                        )
                    } else if usage == Use::Write {
                        (
                            Compatible,
                            format!(
                                "a new value for writing {what}: software writes only the \
                                 values it knows"
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

/// Which of a field's lists of values a value is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    /// `values`: what a read gives (and a write takes, when the field has no `write_values`).
    Read,
    /// `write_values`.
    Write,
}

impl Walk {
    /// A register's bus access: how many accesses of what width reach it (`access_width`), and
    /// in what order its pieces are read (`split_read`). Both change the accesses a driver
    /// makes, so both break: a binary built for the old one tears or over-reads the register.
    fn bus_access(&mut self, path: &[String], old: &Register, new: &Register) {
        let what = format!("register `{}`", dotted(path));
        // A width change alone is `resized` (its access width follows it): reported here only
        // when either side is reached in pieces and the pieces differ.
        let split = old.access_pieces() > 1 || new.access_pieces() > 1;
        if split && old.access_bits() != new.access_bits() {
            let side = |r: &Register| {
                let loc = r.access_width.as_ref().map_or(r.name.loc, |w| w.loc);
                (format!("{} bits", r.access_bits()), loc)
            };
            self.changed(
                Breaking,
                Class::AccessChanged,
                ItemKind::Register,
                path,
                "access_width",
                side(old),
                side(new),
                format!(
                    "{what} is reached in other pieces: {} × {}-bit accesses before, {} × {}-bit \
                     now; old binaries make the old accesses",
                    old.access_pieces(),
                    old.access_bits(),
                    new.access_pieces(),
                    new.access_bits()
                ),
            );
        }
        let order = |r: &Register| {
            r.split_read
                .as_ref()
                .map_or(SplitRead::LowFirst, |o| o.value)
        };
        if order(old) != order(new) {
            let side = |r: &Register| {
                let o = order(r);
                let loc = r.split_read.as_ref().map_or(r.name.loc, |o| o.loc);
                (o.keyword().to_string(), loc)
            };
            self.changed(
                Breaking,
                Class::AccessChanged,
                ItemKind::Register,
                path,
                "split_read",
                side(old),
                side(new),
                format!(
                    "{what}'s pieces are read in another order: old binaries read it the old \
                     way, which tears on hardware that wants the new one"
                ),
            );
        }
    }
}

impl Walk {
    /// A field became write-once, or stopped being so. Either way the register's generated
    /// handle changes (write-once registers have no `modify`), and code that relied on later
    /// writes, or on only one, now misbehaves: breaking.
    fn write_once_changed(&mut self, path: &[String], old: &Field, new: &Field, what: &str) {
        let text = |field: &Field| if field.write_once { "true" } else { "false" };
        let reason = if new.write_once {
            format!(
                "{what} is now write-once: the first write after reset latches it, and its \
                 register loses `modify`"
            )
        } else {
            format!("{what} is no longer write-once: every write changes it")
        };
        self.changed(
            Breaking,
            Class::AccessChanged,
            ItemKind::Field,
            path,
            "write_once",
            (text(old).into(), old.name.loc),
            (text(new).into(), new.name.loc),
            reason,
        );
    }

    /// A field's bit order changed (`bit_order`): each bit of its value now lies at the
    /// mirrored position, so every value written or read by old binaries is reversed:
    /// breaking, and reported as a move of the value's bits.
    fn bit_order_changed(&mut self, path: &[String], old: &Field, new: &Field, what: &str) {
        let text = |field: &Field| if field.is_msb0() { "msb0" } else { "lsb0" };
        self.changed(
            Breaking,
            Class::Moved,
            ItemKind::Field,
            path,
            "bit_order",
            (text(old).into(), old.name.loc),
            (text(new).into(), new.name.loc),
            format!(
                "{what}'s value now lies in its bits {}: old binaries read and write every \
                 value bit-reversed",
                if new.is_msb0() {
                    "reversed (msb0: its lowest bit holds the value's most significant bit)"
                } else {
                    "in lsb0 order"
                }
            ),
        );
    }
}
