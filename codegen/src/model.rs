//! The register map as the generators see it: a device of constants and blocks, blocks of
//! registers, registers of fields, fields of enumerated values.
//!
//! Values written in the spec keep their location ([`Located`]) so that validation can point
//! at them; equality ignores locations.

use crate::location::Located;

mod hardware;

pub use hardware::{FieldHardware, HardwareAccess, RegisterHardware};

/// A device: the root of the register map, one address window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// The device's name: the generated crate is `<name>-pac`, the C header `<name>_regs.h`.
    pub name: Located<String>,
    /// What the device is (docs and crate description; may be empty).
    pub description: String,
    /// The version of the register map (free text, for example "1.0").
    pub version: String,
    /// Named numbers that software needs, in spec order.
    pub constants: Vec<Constant>,
    /// The blocks of the window, in spec order.
    pub blocks: Vec<Block>,
    /// The interrupt lines the device raises, by number (empty: none described).
    pub interrupts: Vec<Interrupt>,
    /// The processor the device's registers belong to (CMSIS-SVD's `<cpu>`), for a
    /// microcontroller: it picks the Rust crate's Cortex-M support (`crate::interrupts`).
    pub cpu: Option<Cpu>,
    /// The physical address of the window's base when it is fixed (a microcontroller's, every
    /// SVD's: 0, blocks at their absolute addresses); `None` for a device whose window is
    /// wherever the OS maps it (the GBA, a PCIe device).
    pub address: Option<Located<u64>>,
}

/// An interrupt line: its number at the interrupt controller (a Cortex-M's NVIC: the
/// exception number minus 16), and the block that raises it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupt {
    /// The line's name (a variant of the Rust `Interrupt`, the C `<NAME>_IRQn`).
    pub name: Located<String>,
    /// The line's number at the interrupt controller.
    pub number: Located<u64>,
    /// What raises it (docs; may be empty).
    pub description: String,
    /// The block that raises it (several blocks may share a line; this is the first named).
    pub block: Option<Located<String>>,
    /// The instance of that block, when the block is an array.
    pub index: Option<Located<u64>>,
}

/// A processor core, as CMSIS-SVD's `<cpu>` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// `CM0`, `CM0PLUS`, `CM3`, `CM4`, `CM33`, … (`crate::interrupts::CORES`), or any other
    /// name for a core without Cortex-M support.
    pub name: Located<String>,
    /// Bits of priority the NVIC implements (CMSIS `__NVIC_PRIO_BITS`), when known.
    pub nvic_prio_bits: Option<Located<u64>>,
}

/// A named number that software needs (limits such as the maximum group count).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constant {
    /// The constant's name (upper case by convention: `MAX_GROUPS`).
    pub name: Located<String>,
    /// Its value.
    pub value: Located<u64>,
    /// What it counts or limits (docs; may be empty).
    pub description: String,
}

/// A block of registers at an offset in the device window, optionally repeated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The block's name (Rust module and handle type, C prefix).
    pub name: Located<String>,
    /// What the block is (docs; may be empty).
    pub description: String,
    /// Byte offset of the (first) instance from the start of the window.
    pub offset: Located<u64>,
    /// Bytes of the window that one instance of the block owns.
    pub size: Located<u64>,
    /// `Some`: the block repeats (`group[0..32]`); `None`: one instance.
    pub array: Option<Array>,
    /// The block's registers, in spec order.
    pub registers: Vec<Register>,
    /// The block whose bytes this one is another view of (CMSIS-SVD's `alternatePeripheral`):
    /// only such a declared alternate may overlap another block.
    pub alternate_of: Option<Located<String>>,
    /// The block type this block is one instance of (the spec's `instances`): every block
    /// naming the same type has the same size and registers, and the outputs define the
    /// registers once, for the type (`crate::block_types`). `None`: a type of its own.
    pub instance_of: Option<BlockType>,
}

/// A block type that several blocks are instances of, at listed offsets (CMSIS-SVD's
/// `derivedFrom` peripherals: GPIOA…GPIOI of one `GPIO` type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockType {
    /// The type's name: Rust module `name` and handle type `Name`, C prefix `<DEVICE>_<NAME>`.
    pub name: Located<String>,
    /// What the type is (each instance has its own `description` besides).
    pub description: String,
}

/// `count` instances, `stride` bytes apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// How many elements (at least 1).
    pub count: Located<u64>,
    /// Bytes from the start of one element to the start of the next.
    pub stride: Located<u64>,
}

/// What software may do with a register or field: the spec's `ro`, `wo`, `rw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Access {
    /// `ro`: software reads it; the generated code has no write.
    ReadOnly,
    /// `wo`: software writes it; the generated code has no read.
    WriteOnly,
    /// `rw`: reads and writes.
    ReadWrite,
}

impl Access {
    /// `ro` or `rw`.
    pub fn is_readable(self) -> bool {
        matches!(self, Access::ReadOnly | Access::ReadWrite)
    }
    /// `wo` or `rw`.
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

/// What touching a field does besides storing or returning its value. The spec spells each
/// as SystemRDL does (`onwrite`/`onread` values, `singlepulse`), which IP-XACT's
/// `modifiedWriteValue`/`readAction` and CMSIS-SVD's `modifiedWriteValues`/`readAction` name
/// alike; the spec's first spellings (`w1c`, `w1s`, `rc`) stay accepted as aliases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SideEffect {
    /// Writing 1 clears the bit; writing 0 leaves it (`woclr`, alias `w1c`).
    WriteOneToClear,
    /// Writing 1 sets the bit or triggers an action; writing 0 does nothing (`woset`, alias
    /// `w1s`).
    WriteOneToSet,
    /// Writing 1 inverts the bit; writing 0 leaves it (`wot`).
    WriteOneToToggle,
    /// Writing 0 clears the bit; writing 1 leaves it (`wzc`).
    WriteZeroToClear,
    /// Writing 0 sets the bit; writing 1 leaves it (`wzs`).
    WriteZeroToSet,
    /// Writing 0 inverts the bit; writing 1 leaves it (`wzt`).
    WriteZeroToToggle,
    /// Writing 1 starts something for one cycle, and the bit clears itself: it reads 0
    /// again at once (`singlepulse`).
    SinglePulse,
    /// Reading returns the value and clears it (`rclr`, alias `rc`).
    ReadToClear,
    /// Reading returns the value and sets every bit (`rset`).
    ReadToSet,
    /// Reading changes the field in a way the description says (a FIFO pops, a counter
    /// moves): SystemRDL's `onread = ruser`, CMSIS-SVD's and IP-XACT's `readAction` `modify`.
    ReadModify,
    /// Reading changes something else in the device, not the field itself (CMSIS-SVD's
    /// `readAction` `modifyExternal`; `rext`). SystemRDL and IP-XACT have no word for it: their
    /// exports write `ruser`/`modify` and say what is lost.
    ReadModifyExternal,
}

impl SideEffect {
    /// Every side effect, in the order the docs list them.
    pub const ALL: [SideEffect; 11] = [
        SideEffect::WriteOneToClear,
        SideEffect::WriteOneToSet,
        SideEffect::WriteOneToToggle,
        SideEffect::WriteZeroToClear,
        SideEffect::WriteZeroToSet,
        SideEffect::WriteZeroToToggle,
        SideEffect::SinglePulse,
        SideEffect::ReadToClear,
        SideEffect::ReadToSet,
        SideEffect::ReadModify,
        SideEffect::ReadModifyExternal,
    ];

    /// The canonical spelling in the spec (SystemRDL's).
    pub fn keyword(self) -> &'static str {
        match self {
            SideEffect::WriteOneToClear => "woclr",
            SideEffect::WriteOneToSet => "woset",
            SideEffect::WriteOneToToggle => "wot",
            SideEffect::WriteZeroToClear => "wzc",
            SideEffect::WriteZeroToSet => "wzs",
            SideEffect::WriteZeroToToggle => "wzt",
            SideEffect::SinglePulse => "singlepulse",
            SideEffect::ReadToClear => "rclr",
            SideEffect::ReadToSet => "rset",
            SideEffect::ReadModify => "ruser",
            SideEffect::ReadModifyExternal => "rext",
        }
    }

    /// The spelling, canonical or alias (the spec's first names), that means this effect.
    pub fn from_keyword(word: &str) -> Option<SideEffect> {
        match word {
            "w1c" => Some(SideEffect::WriteOneToClear),
            "w1s" => Some(SideEffect::WriteOneToSet),
            "rc" => Some(SideEffect::ReadToClear),
            _ => SideEffect::ALL.into_iter().find(|e| e.keyword() == word),
        }
    }

    /// What the effect does, in words (C comments, docs).
    pub fn text(self) -> &'static str {
        match self {
            SideEffect::WriteOneToClear => "write 1 to clear",
            SideEffect::WriteOneToSet => "write 1 to set",
            SideEffect::WriteOneToToggle => "write 1 to toggle",
            SideEffect::WriteZeroToClear => "write 0 to clear",
            SideEffect::WriteZeroToSet => "write 0 to set",
            SideEffect::WriteZeroToToggle => "write 0 to toggle",
            SideEffect::SinglePulse => "write 1 for a single pulse, reads 0",
            SideEffect::ReadToClear => "cleared by reading",
            SideEffect::ReadToSet => "set by reading",
            SideEffect::ReadModify => "changed by reading",
            SideEffect::ReadModifyExternal => "reading changes the device elsewhere",
        }
    }

    /// The value that leaves the field as it is when written (what `modify` writes into a
    /// field it does not change): `Some(false)` for the write-1 effects and single pulses,
    /// `Some(true)` for the write-0 effects, `None` for effects a write does not trigger.
    pub fn neutral_write(self) -> Option<bool> {
        match self {
            SideEffect::WriteOneToClear
            | SideEffect::WriteOneToSet
            | SideEffect::WriteOneToToggle
            | SideEffect::SinglePulse => Some(false),
            SideEffect::WriteZeroToClear
            | SideEffect::WriteZeroToSet
            | SideEffect::WriteZeroToToggle => Some(true),
            SideEffect::ReadToClear
            | SideEffect::ReadToSet
            | SideEffect::ReadModify
            | SideEffect::ReadModifyExternal => None,
        }
    }

    /// True for the effects that make writing back a value read from the register dangerous.
    pub fn is_write_one(self) -> bool {
        self.neutral_write() == Some(false)
    }

    /// True for the effects of a write (the field must be writable).
    pub fn on_write(self) -> bool {
        self.neutral_write().is_some()
    }

    /// True for the effects of a read (the field must be readable, and no read is plain).
    pub fn on_read(self) -> bool {
        !self.on_write()
    }
}

/// A register whose writes are ignored while a bit of another register of its block holds
/// a value (SystemRDL's `swwel` when that value is 1, `swwe` when it is 0; OpenTitan's
/// `regwen`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lock {
    /// The register of the same block that holds the lock bit.
    pub register: Located<String>,
    /// Its one-bit field.
    pub field: Located<String>,
    /// The value of that bit that locks: 1 for `locked_by`, 0 for `write_enable`.
    pub locked_when: bool,
}

impl Lock {
    /// The spec's key for this polarity.
    pub fn keyword(&self) -> &'static str {
        if self.locked_when {
            "locked_by"
        } else {
            "write_enable"
        }
    }
}

/// A register: a word of `width` bits at an offset in its block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    /// The register's name (Rust accessor and type, C macro prefix).
    pub name: Located<String>,
    /// What the register does (docs; may be empty).
    pub description: String,
    /// Byte offset from the start of its block.
    pub offset: Located<u64>,
    /// Width in bits: 8, 16, 32 or 64.
    pub width: Located<u32>,
    /// The access of fields that do not set their own, and of the register as a whole.
    pub access: Located<Access>,
    /// The value after reset (bits under a field with `reset_from` are 0 here).
    pub reset: Located<u64>,
    /// `Some`: the register repeats within its block; `None`: one element.
    pub array: Option<Array>,
    /// The register's fields, in spec order (none: the register is one value).
    pub fields: Vec<Field>,
    /// The register of the same block whose bytes this one is another view of (CMSIS-SVD's
    /// `alternateRegister`): only such a declared alternate may overlap another register.
    pub alternate_of: Option<Located<String>>,
    /// The bit of another register whose value ignores writes to this one.
    pub lock: Option<Lock>,
    /// The width in bits of one bus access to the register, when narrower than `width`
    /// (SystemRDL's `accesswidth`: a 64-bit timer on a 32-bit bus). Software then reads and
    /// writes it as `width / access_width` accesses of that width, least significant first
    /// (see [`Register::access_pieces`]). `None`: one access of the whole register.
    pub access_width: Option<Located<u32>>,
    /// How software reads the pieces of a register wider than its bus access: `None` is
    /// [`SplitRead::LowFirst`]. Writes are always least significant piece first.
    pub split_read: Option<Located<SplitRead>>,
    /// What the register block's RTL needs of the register beyond its software view (the
    /// spec's `hardware:` section; empty for most registers).
    pub hardware: RegisterHardware,
}

/// The order in which software reads the pieces of a register wider than its bus access
/// (the spec's `split_read`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitRead {
    /// Once each, least significant piece first (the default): for a register block that
    /// latches the whole register when its low piece is read (PeakRDL-regblock's
    /// `buffer_reads`, which `gba rtl` turns on).
    LowFirst,
    /// High piece, low piece, high piece again, repeated until the two high reads agree:
    /// for a free-running counter without such a latch. Two pieces only.
    UntilStable,
}

impl SplitRead {
    /// The spec's keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            SplitRead::LowFirst => "low_first",
            SplitRead::UntilStable => "until_stable",
        }
    }

    /// The protocol a keyword names.
    pub fn from_keyword(keyword: &str) -> Option<Self> {
        match keyword {
            "low_first" => Some(SplitRead::LowFirst),
            "until_stable" => Some(SplitRead::UntilStable),
            _ => None,
        }
    }
}

impl Register {
    /// Width in bytes (1, 2, 4 or 8).
    pub fn bytes(&self) -> u64 {
        u64::from(*self.width / 8)
    }

    /// The width in bits of one access: `access_width` when it is narrower than the register,
    /// else the register's width.
    pub fn access_bits(&self) -> u32 {
        match &self.access_width {
            Some(w) if **w < *self.width => **w,
            _ => *self.width,
        }
    }

    /// How many accesses of [`access_bits`](Self::access_bits) make one read or write of the
    /// register: 1 unless the register is wider than its bus access.
    pub fn access_pieces(&self) -> u32 {
        *self.width / self.access_bits().max(1)
    }

    /// True when software reads the register high–low–high until the two high pieces
    /// agree ([`SplitRead::UntilStable`]); false for one access or low piece first.
    pub fn reads_until_stable(&self) -> bool {
        self.access_pieces() == 2
            && self.split_read.as_deref().copied() == Some(SplitRead::UntilStable)
    }

    /// Bits that `modify` must never write back as 1 (write-1-to-clear, -set, -toggle and
    /// single pulses).
    pub fn write_one_mask(&self) -> u64 {
        self.write_mask(false)
    }

    /// Bits that `modify` must never write back as 0 (write-0-to-clear, -set, -toggle).
    pub fn write_zero_mask(&self) -> u64 {
        self.write_mask(true)
    }

    /// Bits with a write side effect (either of the above).
    pub fn write_effect_mask(&self) -> u64 {
        self.write_one_mask() | self.write_zero_mask()
    }

    fn write_mask(&self, neutral: bool) -> u64 {
        self.fields
            .iter()
            .filter(|f| {
                f.side_effect
                    .is_some_and(|s| s.neutral_write() == Some(neutral))
            })
            .fold(0, |mask, f| mask | f.bits.mask())
    }

    /// True when a field changes on every read (no read of the register is plain).
    pub fn read_has_effect(&self) -> bool {
        self.fields
            .iter()
            .any(|f| f.side_effect.is_some_and(|s| s.on_read()))
    }

    /// Bits whose reset is the same in every element and every instance of the device:
    /// all but the fields with a `reset_from` (an index, a strap, or no reset at all).
    pub fn fixed_reset_mask(&self) -> u64 {
        let varying = self
            .fields
            .iter()
            .filter(|f| f.reset_from.is_some())
            .fold(0, |m, f| m | f.bits.mask());
        width_mask(*self.width) & !varying
    }

    /// The reset value of one element, given the index of the innermost array holding the
    /// register (its own, else its block's; 0 when there is none) and the value of each
    /// strapped field (`None`: unknown, left 0). Bits not in the result's known mask are
    /// those of strapped fields whose value was not given and those of fields not reset.
    pub fn element_reset(&self, index: u64, strap: impl Fn(&Field) -> Option<u64>) -> (u64, u64) {
        let mut value = *self.reset;
        let mut known = width_mask(*self.width);
        for f in &self.fields {
            let part = match f.reset_from.map(|r| *r) {
                None => continue,
                Some(ResetFrom::Index) => Some(index),
                Some(ResetFrom::Strap) => strap(f),
                Some(ResetFrom::NotReset) => None,
            };
            match part {
                Some(v) => {
                    let bits = f.value_of_bits(v & f.bits.value_mask());
                    value = (value & !f.bits.mask())
                        | (bits.checked_shl(f.bits.lsb).unwrap_or(0) & f.bits.mask());
                }
                None => known &= !f.bits.mask(),
            }
        }
        (value, known)
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

/// `width` ones.
pub fn width_mask(width: u32) -> u64 {
    u64::MAX >> (64 - width.clamp(1, 64))
}

/// An inclusive bit range `[msb:lsb]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitRange {
    /// The most significant bit (inclusive, 0-based from the register's lsb).
    pub msb: u32,
    /// The least significant bit.
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

/// A field: a range of a register's bits with a meaning of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name (Rust method and type, C macro).
    pub name: Located<String>,
    /// What the field means (docs; may be empty).
    pub description: String,
    /// Which bits of the register it occupies.
    pub bits: Located<BitRange>,
    /// `None`: the field has its register's access.
    pub access: Option<Located<Access>>,
    /// What an access does besides reading or writing the value (write 1 to clear, clear on
    /// read, …); `None`: nothing.
    pub side_effect: Option<Located<SideEffect>>,
    /// Writable once after reset (`write_once: true`; SystemRDL's `sw = w1`/`rw1`, SVD's and
    /// IP-XACT's `writeOnce`/`read-writeOnce`): the first write after reset latches the field,
    /// later writes leave it. Any write of its register spends it, so that register has no
    /// read-modify-write (`modify`) in the generated code: only whole writes.
    pub write_once: bool,
    /// `Some`: the field's reset is not its part of the register's `reset` (whose bits under
    /// the field are then 0) but its array index or a strap, or it has none (not reset).
    pub reset_from: Option<Located<ResetFrom>>,
    /// msb0 bit order (the spec's `bit_order: msb0`, SystemRDL's `TOP[0:3]`): the field's
    /// lowest register bit, `bits.lsb`, holds the value's most significant bit, so the value
    /// is the field's bits reversed (see [`crate::bit_order`]). `bits` is still written
    /// `msb:lsb` in register positions. A no-op on a one-bit field. Register-wide values
    /// (`Register::reset`, a whole-register read) are bits; field values (a field's reset,
    /// its enumerated values, what an accessor reads or writes) are values.
    pub msb0: bool,
    /// Named values of the field (for both reads and writes unless `write_values` is set).
    pub values: Vec<EnumValue>,
    /// The values a write takes, where they differ from those a read gives (CMSIS-SVD's
    /// `enumeratedValues` with `usage` write beside one with `usage` read): then `values`
    /// are the read side only. Empty: `values` serve both.
    pub write_values: Vec<EnumValue>,
    /// What the register block's RTL needs of the field beyond its software view (the spec's
    /// `hardware:` section; empty for most fields).
    pub hardware: FieldHardware,
}

/// Where a field's reset value comes from when it differs between the elements of an array
/// or between instances of the device, which one register `reset` cannot say; or that it has
/// none: a flop that reset does not touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResetFrom {
    /// The index of the element: of the register's own array, else of its block's
    /// (`group[g].GROUP_ID.ID` resets to g).
    Index,
    /// Fixed per device instance by pins or fuses, known only at run time (a switch port's
    /// number).
    Strap,
    /// Not reset: the field holds whatever it powered up with until it is written (SVD's bits
    /// outside `resetMask`, an IP-XACT field without `<resets>`, a SystemRDL field without
    /// `reset`). "No reset" is a statement about the flop, not a 0.
    NotReset,
}

impl ResetFrom {
    /// Every kind, in the order the docs list them.
    pub const ALL: [ResetFrom; 3] = [ResetFrom::Index, ResetFrom::Strap, ResetFrom::NotReset];

    /// The spelling in the spec (the field's `reset`).
    pub fn keyword(self) -> &'static str {
        match self {
            ResetFrom::Index => "index",
            ResetFrom::Strap => "strap",
            ResetFrom::NotReset => "none",
        }
    }

    /// The kind a spec keyword names (`index`, `strap`, `none`); `None` for any other word.
    pub fn from_keyword(word: &str) -> Option<ResetFrom> {
        ResetFrom::ALL.into_iter().find(|r| r.keyword() == word)
    }

    /// In words (docs, C comments).
    pub fn text(self) -> &'static str {
        match self {
            ResetFrom::Index => "resets to its element's index",
            ResetFrom::Strap => "strapped: fixed per device instance, known only at run time",
            ResetFrom::NotReset => "not reset: holds whatever it powered up with until written",
        }
    }
}

impl Register {
    /// True when a field of the register is write-once: every write of the register spends
    /// it, so the generated code offers whole writes only, never a read-modify-write.
    pub fn has_write_once(&self) -> bool {
        self.fields.iter().any(|f| f.write_once)
    }
}

impl Field {
    /// The field's own access if it sets one, else its register's.
    pub fn effective_access(&self, register: &Register) -> Access {
        self.access.map_or(*register.access, |a| *a)
    }

    /// How hardware accesses the field: the spec's `hardware: { access }`, else what
    /// `gba rtl` decides from software's access (`codegen/rdl/regblock.py`, the same rule): a
    /// field software writes is read by hardware, unless software clears it (`woclr`, `wzc`,
    /// `rclr`: a status bit); any other field is written by hardware.
    pub fn hardware_access(&self, register: &Register) -> HardwareAccess {
        if let Some(access) = &self.hardware.access {
            return **access;
        }
        let status = self.side_effect.is_some_and(|s| {
            matches!(
                *s,
                SideEffect::WriteOneToClear
                    | SideEffect::WriteZeroToClear
                    | SideEffect::ReadToClear
            )
        });
        if self.effective_access(register).is_writable() && !status {
            HardwareAccess::Read
        } else {
            HardwareAccess::Write
        }
    }

    /// True when the value is the field's bits reversed: msb0 on a field of two bits or
    /// more (on one bit it changes nothing).
    pub fn is_msb0(&self) -> bool {
        self.msb0 && self.bits.width() > 1
    }

    /// The field's value held in its bits `bits` (not shifted: bit 0 the field's lowest
    /// register bit): `bits` itself, or reversed for msb0. Its own inverse.
    pub fn value_of_bits(&self, bits: u64) -> u64 {
        if self.is_msb0() {
            crate::bit_order::reverse(bits, self.bits.width())
        } else {
            bits & self.bits.value_mask()
        }
    }
}

/// A named value of a field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumValue {
    /// The value's name (a variant of the field's Rust enum, a C macro).
    pub name: Located<String>,
    /// The value, in the field's bits (not shifted to the field's position).
    pub value: Located<u64>,
    /// What the value means (docs; may be empty).
    pub description: String,
}
