//! The register map as the generators see it: a device of constants and blocks, blocks of
//! registers, registers of fields, fields of enumerated values.
//!
//! Values written in the spec keep their location ([`Located`]) so that validation can point
//! at them; equality ignores locations.

use crate::location::Located;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    pub name: Located<String>,
    pub description: String,
    /// The version of the register map (free text, for example "1.0").
    pub version: String,
    pub constants: Vec<Constant>,
    pub blocks: Vec<Block>,
}

/// A named number that software needs (limits such as the maximum group count).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constant {
    pub name: Located<String>,
    pub value: Located<u64>,
    pub description: String,
}

/// A block of registers at an offset in the device window, optionally repeated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub name: Located<String>,
    pub description: String,
    pub offset: Located<u64>,
    /// Bytes of the window that one instance of the block owns.
    pub size: Located<u64>,
    pub array: Option<Array>,
    pub registers: Vec<Register>,
    /// The block whose bytes this one is another view of (CMSIS-SVD's `alternatePeripheral`):
    /// only such a declared alternate may overlap another block.
    pub alternate_of: Option<Located<String>>,
}

/// `count` instances, `stride` bytes apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    pub count: Located<u64>,
    pub stride: Located<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl Access {
    pub fn is_readable(self) -> bool {
        matches!(self, Access::ReadOnly | Access::ReadWrite)
    }
    pub fn is_writable(self) -> bool {
        matches!(self, Access::WriteOnly | Access::ReadWrite)
    }
    /// The spelling used in the spec.
    pub fn keyword(self) -> &'static str {
        match self {
            Access::ReadOnly => "ro",
            Access::WriteOnly => "wo",
            Access::ReadWrite => "rw",
        }
    }
}

/// What touching a field does besides storing or returning its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SideEffect {
    /// Writing 1 clears the bit; writing 0 leaves it.
    WriteOneToClear,
    /// Writing 1 sets the bit or triggers an action (self-clearing bits); writing 0 does nothing.
    WriteOneToSet,
    /// Reading returns the value and clears it.
    ReadToClear,
}

impl SideEffect {
    pub fn keyword(self) -> &'static str {
        match self {
            SideEffect::WriteOneToClear => "w1c",
            SideEffect::WriteOneToSet => "w1s",
            SideEffect::ReadToClear => "rc",
        }
    }
    /// True for the effects that make writing back a value read from the register dangerous.
    pub fn is_write_one(self) -> bool {
        matches!(
            self,
            SideEffect::WriteOneToClear | SideEffect::WriteOneToSet
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    pub name: Located<String>,
    pub description: String,
    /// Byte offset from the start of its block.
    pub offset: Located<u64>,
    /// Width in bits: 8, 16, 32 or 64.
    pub width: Located<u32>,
    pub access: Located<Access>,
    pub reset: Located<u64>,
    pub array: Option<Array>,
    pub fields: Vec<Field>,
    /// The register of the same block whose bytes this one is another view of (CMSIS-SVD's
    /// `alternateRegister`): only such a declared alternate may overlap another register.
    pub alternate_of: Option<Located<String>>,
}

impl Register {
    pub fn bytes(&self) -> u64 {
        u64::from(*self.width / 8)
    }

    /// Bits that `modify` must never write back as 1 (write-1-to-clear and write-1-to-set).
    pub fn write_one_mask(&self) -> u64 {
        self.fields
            .iter()
            .filter(|f| f.side_effect.is_some_and(|s| s.is_write_one()))
            .fold(0, |mask, f| mask | f.bits.mask())
    }

    /// Element offsets within the block (one for a plain register).
    pub fn element_offsets(&self) -> impl Iterator<Item = u64> + '_ {
        let (count, stride) = match &self.array {
            Some(a) => (*a.count, *a.stride),
            None => (1, 0),
        };
        (0..count).map(move |i| self.offset.saturating_add(i.saturating_mul(stride)))
    }
}

/// An inclusive bit range `[msb:lsb]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitRange {
    pub msb: u32,
    pub lsb: u32,
}

impl BitRange {
    /// Saturating: validation computes widths of ranges that it is about to reject (reversed,
    /// or `4294967295:0`, whose width does not fit a u32), and must report them, not panic.
    pub fn width(self) -> u32 {
        self.msb.saturating_sub(self.lsb).saturating_add(1)
    }
    /// The field's bits in register position (`width` ones shifted left by `lsb`).
    pub fn mask(self) -> u64 {
        self.value_mask().checked_shl(self.lsb).unwrap_or(0)
    }
    /// The largest value the field can hold (`width` ones).
    pub fn value_mask(self) -> u64 {
        u64::MAX >> (64 - self.width().min(64))
    }
}

impl std::fmt::Display for BitRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.msb == self.lsb {
            write!(f, "[{}]", self.lsb)
        } else {
            write!(f, "[{}:{}]", self.msb, self.lsb)
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: Located<String>,
    pub description: String,
    pub bits: Located<BitRange>,
    /// `None`: the field has its register's access.
    pub access: Option<Located<Access>>,
    pub side_effect: Option<Located<SideEffect>>,
    pub values: Vec<EnumValue>,
}

impl Field {
    pub fn effective_access(&self, register: &Register) -> Access {
        self.access.map_or(*register.access, |a| *a)
    }
}

/// A named value of a field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumValue {
    pub name: Located<String>,
    pub value: Located<u64>,
    pub description: String,
}
