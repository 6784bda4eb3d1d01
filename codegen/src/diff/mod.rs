//! What a change of the register map breaks: `gba diff OLD NEW` compares two validated specs
//! and classifies every difference as **breaking** or **compatible** for software built
//! against the old spec.
//!
//! # What "breaking" means
//!
//! Software "built against OLD" is both its source (written against the bindings generated
//! from OLD) and its binaries (with OLD's offsets, masks and widths compiled in). A change is
//! **breaking** when, on hardware that implements NEW, such software can fail to compile
//! after regenerating the bindings, or can misbehave if it is not rebuilt. It is
//! **compatible** when both keep working unchanged. Each change carries a one-line reason,
//! and where a class is compatible only under an assumption, the reason names it.
//!
//! | change | verdict | why |
//! | --- | --- | --- |
//! | anything added (constant, block, register, field) | compatible | existing code does not name it |
//! | enumerated value added to a readable field | breaking | an exhaustive `match` on the field's generated enum no longer compiles, and old binaries read the new value as unknown |
//! | enumerated value added to a write-only field | compatible | software writes only the values it knows |
//! | anything removed | breaking | code that names it no longer compiles |
//! | renamed (see below), enumerated value renamed | breaking | code that uses the old name no longer compiles |
//! | renamed with only the letter case changed | compatible | the emitters derive every identifier (`lower`, `UPPER`, `Camel`) from the lower-cased name |
//! | block or register offset, field position (lsb), array stride | breaking | old binaries access the old address or bits; rebuilt code is fine |
//! | register width | breaking | the register's integer type and bus access width change |
//! | field made narrower | breaking | values that old code writes may no longer fit |
//! | field made wider at the same lsb | compatible | every old value keeps its meaning; old code sees only the old bits |
//! | array count reduced, or array ↔ single item | breaking | old indices no longer exist / the accessor's signature changes |
//! | array count increased | compatible | old indices stay valid |
//! | block size reduced | breaking | software that maps the old `SIZE` may map beyond the new window |
//! | block size increased | compatible | every old register stays where it was |
//! | access loses read or write (`rw → ro`, `ro → wo`, …) | breaking | reads or writes no longer compile |
//! | access gains read or write (`ro → rw`) | compatible | every old access is still allowed |
//! | register's write lock (`locked_by`, `write_enable`) added, removed or changed (`access_changed`, key `lock`) | breaking | the handle's type changes: writes go through `unlocked(lock)`, or no longer do |
//! | side effect added, removed or changed | breaking | read-modify-write, acknowledge and read patterns silently change meaning |
//! | register's or block's `alternate_of` added, removed or changed | compatible | the generated accessors are the same (the docs say whose bytes the register shares); a move that makes or ends the overlap is reported on its own |
//! | register reset value | compatible | code compiles and accesses the same bits, but software that assumes the reset state may misbehave |
//! | enumerated value's number | breaking | old binaries write and match the old number |
//! | constant decreased | breaking | constants are limits and counts: old software may use more than the new limit |
//! | constant increased | compatible | old software stays within the smaller old limit |
//! | register's `hardware: external`, field's `hardware: access` (`hardware_changed`) | compatible | software makes the same accesses and the generated Rust, C and SVD are the same; the RTL's hardware ports change, which `gba rtl` rebuilds |
//! | device version, device name, descriptions | compatible | documentation only: the generated Rust API does not use them (to revisit if the C emitter prefixes names with the device's) |
//!
//! # Matching and renames
//!
//! Items are matched by name within their parent, ignoring case as validation does (the
//! emitters change case). An old item with no match and a new item with no match are paired
//! as a **rename** only when the evidence is strong and unambiguous: everything except the
//! name is equal (position, shape, access, side effects, reset, description and every child;
//! for an enumerated value, its number, which is unique within its field), and each of the
//! two has exactly one such candidate. Anything less is reported as a removal plus an
//! addition, which is the conservative reading (both are breaking or compatible on their own).
//!
//! Locations come from the specs' [`Located`](crate::location::Located) values; a change
//! carries the old and the new location where the item exists on that side.
//!
//! # Reports
//!
//! [`human`] groups the changes by block and register; each line gives the verdict, what
//! changed (old → new), `file:line:column` on both sides where the item exists, and the
//! reason. [`json`] gives the same for tools:
//!
//! ## JSON schema (version 1)
//!
//! ```text
//! {
//!   "schema_version": 1,
//!   "old": { "file": "<path as given>" },
//!   "new": { "file": "<path as given>" },
//!   "verdict": "none" | "compatible" | "breaking",
//!   "summary": { "breaking": <count>, "compatible": <count> },
//!   "changes": [ {
//!     "severity": "breaking" | "compatible",
//!     "change": "added" | "removed" | "renamed" | "moved" | "resized" | "access_changed"
//!             | "side_effect_changed" | "reset_changed" | "alternate_changed"
//!             | "value_changed"
//!             | "version_changed" | "description_changed",
//!     "item": "device" | "constant" | "block" | "register" | "field" | "enumerated_value",
//!     "path": ["<block>", "<register>", "<field>", "<value>"],   // names down to the item
//!     "attribute": null | "name" | "offset" | "size" | "count" | "stride" | "width"
//!                | "bits" | "access" | "side_effect" | "reset" | "alternate_of" | "lock" | "value"
//!                | "version"
//!                | "description",
//!     "old": null | { "value": "<as text>", "location": null | { "file", "line", "column" } },
//!     "new": <as "old">,
//!     "reason": "<one sentence>"
//!   } ]
//! }
//! ```
//!
//! `path` is `[device]` for the device, `[constant]` for a constant, and starts at the block
//! otherwise; it holds the old names, or the new ones for an addition. `old` is null for an
//! addition and `new` for a removal. Values are text, as in the text report: offsets, sizes,
//! strides and resets in hex; counts, widths and numbers in decimal; bits as `[msb:lsb]`; an
//! array shape (`count` attribute, when an item becomes or stops being an array) as
//! `4 × 0x8` or `single`. A later incompatible schema gets a new
//! `schema_version`; fields may be added to version 1.

mod blocks;
mod compare;
mod fields;
mod hardware;
mod pair;
mod render;

pub use compare::compare;
pub use render::{human, json};

use crate::location::Loc;

/// Every change found between two specs, in the old spec's order (additions after the items
/// they follow).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// The changes, in the old spec's order.
    pub changes: Vec<Change>,
}

impl Diff {
    /// How many changes have this verdict.
    pub fn count(&self, severity: Severity) -> usize {
        self.changes
            .iter()
            .filter(|c| c.severity == severity)
            .count()
    }

    /// The most severe verdict, `None` when nothing changed.
    pub fn verdict(&self) -> Option<Severity> {
        self.changes.iter().map(|c| c.severity).max()
    }
}

/// One difference, with its verdict and the reason for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Whether software built against the old spec keeps working (the module's table).
    pub severity: Severity,
    /// What kind of change.
    pub class: Class,
    /// What kind of item changed.
    pub item: ItemKind,
    /// Names from the device down to the item: `["group", "STATUS", "ERROR"]`. The old names
    /// for items that exist in the old spec, the new names for additions.
    pub path: Vec<String>,
    /// What about the item changed, for classes that can concern several attributes
    /// (`offset`, `bits`, `width`, `size`, `count`, `stride`, `name`, `description`, …).
    pub attribute: Option<&'static str>,
    /// The value in the old spec; `None` for an addition.
    pub old: Option<Side>,
    /// The value in the new spec; `None` for a removal.
    pub new: Option<Side>,
    /// Why the verdict is what it is, in a sentence.
    pub reason: String,
}

/// One side of a change: the value as written (or described) and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The value as the spec writes it (`0x10`, `rw`, `7:4`), or described when it has no spelling.
    pub value: String,
    /// `None` when the value was not written in the file (a default).
    pub loc: Option<Loc>,
}

impl Side {
    pub(crate) fn at(value: impl Into<String>, loc: Loc) -> Self {
        Side {
            value: value.into(),
            // Line 0 is what defaults and synthetic values carry.
            loc: (loc.line != 0).then_some(loc),
        }
    }
}

/// Ordered so that the most severe verdict is the maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Software built against the old spec keeps working, rebuilt or not.
    Compatible,
    /// Software built against the old spec can fail to compile after regenerating, or misbehave if not rebuilt.
    Breaking,
}

impl Severity {
    /// The verdict as `gba diff` prints it and its JSON spells it.
    pub fn keyword(self) -> &'static str {
        match self {
            Severity::Compatible => "compatible",
            Severity::Breaking => "breaking",
        }
    }
}

/// What kind of change an item underwent (the JSON report's `class`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// An item that only the new spec has.
    Added,
    /// An item that only the old spec has.
    Removed,
    /// An item taken to be the same under another name (the reason says on what evidence).
    Renamed,
    /// Offset, bit position or array stride: the item is somewhere else.
    Moved,
    /// Width, bit width, array count or block size.
    Resized,
    /// A register's or field's access (`ro`, `wo`, `rw`) or a register's write lock.
    AccessChanged,
    /// A field's side effect (`w1c`, `rclr`, …) added, removed or changed.
    SideEffectChanged,
    /// A register's reset value, or a field's `reset_from`.
    ResetChanged,
    /// A register's or block's `alternate_of`: whose bytes it is another view of.
    AlternateChanged,
    /// A block's `instance_of`: the block type it is an instance of.
    TypeChanged,
    /// A constant's or an enumerated value's number.
    ValueChanged,
    /// The device's `version`.
    VersionChanged,
    /// A description, or the device's name.
    DescriptionChanged,
    /// The hardware side (`hardware:`): a register's `external`, a field's hardware access.
    HardwareChanged,
}

impl Class {
    /// The class as `gba diff` prints it and its JSON spells it (`side_effect_changed`).
    pub fn keyword(self) -> &'static str {
        match self {
            Class::Added => "added",
            Class::Removed => "removed",
            Class::Renamed => "renamed",
            Class::Moved => "moved",
            Class::Resized => "resized",
            Class::AccessChanged => "access_changed",
            Class::SideEffectChanged => "side_effect_changed",
            Class::ResetChanged => "reset_changed",
            Class::AlternateChanged => "alternate_changed",
            Class::TypeChanged => "type_changed",
            Class::ValueChanged => "value_changed",
            Class::VersionChanged => "version_changed",
            Class::DescriptionChanged => "description_changed",
            Class::HardwareChanged => "hardware_changed",
        }
    }
}

/// The kind of item a change is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// The device itself (its name, version, description).
    Device,
    /// A constant.
    Constant,
    /// A block (or an array of blocks).
    Block,
    /// A register (or an array of registers).
    Register,
    /// A field of a register.
    Field,
    /// A named value of a field.
    EnumValue,
}

impl ItemKind {
    /// The kind as `gba diff` prints it and its JSON spells it (`enumerated_value`).
    pub fn keyword(self) -> &'static str {
        match self {
            ItemKind::Device => "device",
            ItemKind::Constant => "constant",
            ItemKind::Block => "block",
            ItemKind::Register => "register",
            ItemKind::Field => "field",
            ItemKind::EnumValue => "enumerated_value",
        }
    }

    /// How a person calls it.
    pub fn noun(self) -> &'static str {
        match self {
            ItemKind::EnumValue => "enumerated value",
            other => other.keyword(),
        }
    }
}

#[cfg(test)]
mod tests;
