//! The hardware side of a register map: what the register block's RTL needs and software
//! never sees (the spec's `hardware:` sections). The software outputs (Rust, C, SVD) ignore
//! it; SystemRDL and IP-XACT carry it, and `gba rtl` builds it.

use crate::location::Located;

/// The hardware side of a register (its `hardware:` section).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegisterHardware {
    /// Implemented outside the register block (SystemRDL's `external`): the block decodes
    /// the register's address and routes each access to an interface of its own (request,
    /// write data and byte enables out; acknowledge and read data in), so that the register's
    /// storage and behaviour are the external logic's. Software accesses it as any other.
    pub external: bool,
}

impl RegisterHardware {
    /// True when the section says nothing (the spec writer then leaves it out).
    pub fn is_empty(&self) -> bool {
        *self == RegisterHardware::default()
    }
}

/// How hardware accesses a field (SystemRDL's `hw`): the ports the register block's RTL
/// gives the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HardwareAccess {
    /// `rw`: hardware reads the field's value and writes it (with a write enable).
    ReadWrite,
    /// `r`: hardware reads the value (configuration); only software writes it.
    Read,
    /// `w`: hardware writes the value (status), with a write enable; it keeps its value
    /// until hardware writes it.
    Write,
    /// `na`: hardware neither reads nor writes it (storage for software alone).
    None,
}

impl HardwareAccess {
    /// Every access, in the order the docs list them.
    pub const ALL: [HardwareAccess; 4] = [
        HardwareAccess::ReadWrite,
        HardwareAccess::Read,
        HardwareAccess::Write,
        HardwareAccess::None,
    ];

    /// The spelling in the spec and in SystemRDL (`hw = r`).
    pub fn keyword(self) -> &'static str {
        match self {
            HardwareAccess::ReadWrite => "rw",
            HardwareAccess::Read => "r",
            HardwareAccess::Write => "w",
            HardwareAccess::None => "na",
        }
    }

    /// The access a keyword names; `None` for any other word (SystemRDL's `hw = w1` and
    /// `rw1`, which systemrdl-compiler refuses as meaningless, among them).
    pub fn from_keyword(word: &str) -> Option<Self> {
        HardwareAccess::ALL
            .into_iter()
            .find(|a| a.keyword() == word)
    }

    /// Hardware reads the field: the RTL has an output of its value.
    pub fn reads(self) -> bool {
        matches!(self, HardwareAccess::ReadWrite | HardwareAccess::Read)
    }

    /// Hardware writes the field: the RTL has an input and a write enable for it.
    pub fn writes(self) -> bool {
        matches!(self, HardwareAccess::ReadWrite | HardwareAccess::Write)
    }
}

/// The hardware side of a field (its `hardware:` section).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldHardware {
    /// How hardware accesses the field, when the spec says it; `None`: `gba rtl` decides
    /// from software's access ([`super::Field::hardware_access`]).
    pub access: Option<Located<HardwareAccess>>,
    /// A strobe to hardware, for one cycle, when software modifies the field (SystemRDL's
    /// `swmod`). `gba rtl` adds it to every field of a write-only register on its own (the
    /// doorbell); this states it for any field software writes.
    pub swmod: bool,
    /// A strobe to hardware, for one cycle, when software accesses the field: reads it or
    /// writes it (SystemRDL's `swacc`, as PeakRDL-regblock builds it).
    pub swacc: bool,
}

impl FieldHardware {
    /// True when the section says nothing (the spec writer then leaves it out).
    pub fn is_empty(&self) -> bool {
        *self == FieldHardware::default()
    }
}
