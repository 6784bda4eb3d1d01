//! The block level of the walk: a block's own attributes and registers, and the array shape
//! that blocks and registers share.

use super::compare::{Walk, array_text, count_text, dotted, hex, with};
use super::pair::{Pair, pair};
use super::{Class, ItemKind, Severity};
use crate::location::Loc;
use crate::model::{Array, Block, Register};

use Severity::{Breaking, Compatible};

impl Walk {
    pub(super) fn block(&mut self, old: &Block, new: &Block) {
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
        self.alternate(
            ItemKind::Block,
            &path,
            (&old.alternate_of, old.name.loc),
            (&new.alternate_of, new.name.loc),
        );
        self.array(
            ItemKind::Block,
            &path,
            (&old.array, old.name.loc),
            (&new.array, new.name.loc),
        );
        let type_of = |b: &Block| b.instance_of.as_ref().map(|t| t.name.value.clone());
        if type_of(old) != type_of(new) {
            let text = |b: &Block| type_of(b).unwrap_or_else(|| "its own".into());
            let loc = |b: &Block| b.instance_of.as_ref().map_or(b.name.loc, |t| t.name.loc);
            self.changed(
                Breaking,
                Class::TypeChanged,
                ItemKind::Block,
                &path,
                "instance_of",
                (text(old), loc(old)),
                (text(new), loc(new)),
                format!(
                    "code that names the block's handle type or module (from `{}`'s type) no \
                     longer compiles; its registers and their addresses are what they were",
                    old.name.value
                ),
            );
        }
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
    pub(super) fn array(
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
}
