//! The one table that says how the spec's access and side effects are spelt in the hardware
//! formats, SystemRDL 2.0 and IP-XACT 1685-2014, in both directions: the emitters
//! (`emit::systemrdl`, `emit::ipxact`) and the importers (`import::rdl`, `import::ipxact`)
//! all read it, so that a new side effect is one new row here.
//!
//! Also here: the names of the user-defined properties (SystemRDL) and vendor extensions
//! (IP-XACT, and CMSIS-SVD's) that carry what those formats have no place for, so that
//! writer and reader cannot drift apart, and neither reaches into the other.

use crate::model::{Access, Block, Lock, Register, SideEffect};

/// How one side effect is written in each format.
#[derive(Debug)]
pub struct EffectSpelling {
    pub effect: SideEffect,
    /// SystemRDL: the property (`onwrite` or `onread`) and its value.
    pub rdl_property: &'static str,
    pub rdl_value: &'static str,
    /// IP-XACT: the element (`modifiedWriteValue` or `readAction`) and its value.
    pub ipxact_element: &'static str,
    pub ipxact_value: &'static str,
}

/// Every side effect of the spec format. The names are the formats' own (SystemRDL's
/// `woclr`, IP-XACT's `oneToClear`), never new vocabulary.
pub const EFFECTS: &[EffectSpelling] = &[
    EffectSpelling {
        effect: SideEffect::WriteOneToClear,
        rdl_property: "onwrite",
        rdl_value: "woclr",
        ipxact_element: "modifiedWriteValue",
        ipxact_value: "oneToClear",
    },
    EffectSpelling {
        effect: SideEffect::WriteOneToSet,
        rdl_property: "onwrite",
        rdl_value: "woset",
        ipxact_element: "modifiedWriteValue",
        ipxact_value: "oneToSet",
    },
    EffectSpelling {
        effect: SideEffect::ReadToClear,
        rdl_property: "onread",
        rdl_value: "rclr",
        ipxact_element: "readAction",
        ipxact_value: "clear",
    },
    EffectSpelling {
        effect: SideEffect::WriteOneToToggle,
        rdl_property: "onwrite",
        rdl_value: "wot",
        ipxact_element: "modifiedWriteValue",
        ipxact_value: "oneToToggle",
    },
    EffectSpelling {
        effect: SideEffect::WriteZeroToClear,
        rdl_property: "onwrite",
        rdl_value: "wzc",
        ipxact_element: "modifiedWriteValue",
        ipxact_value: "zeroToClear",
    },
    EffectSpelling {
        effect: SideEffect::WriteZeroToSet,
        rdl_property: "onwrite",
        rdl_value: "wzs",
        ipxact_element: "modifiedWriteValue",
        ipxact_value: "zeroToSet",
    },
    EffectSpelling {
        effect: SideEffect::WriteZeroToToggle,
        rdl_property: "onwrite",
        rdl_value: "wzt",
        ipxact_element: "modifiedWriteValue",
        ipxact_value: "zeroToToggle",
    },
    EffectSpelling {
        effect: SideEffect::ReadToSet,
        rdl_property: "onread",
        rdl_value: "rset",
        ipxact_element: "readAction",
        ipxact_value: "set",
    },
    EffectSpelling {
        effect: SideEffect::ReadModify,
        rdl_property: "onread",
        rdl_value: "ruser",
        ipxact_element: "readAction",
        ipxact_value: "modify",
    },
];

/// The side effect a format without a word for `effect` writes in its place: SystemRDL and
/// IP-XACT say that a read modifies (`ruser`, `modify`) but not that what it modifies lies
/// outside the field (CMSIS-SVD's `modifyExternal`). `None`: the format has the effect's own
/// spelling ([`spelling`]).
pub fn stand_in(effect: SideEffect) -> Option<SideEffect> {
    (effect == SideEffect::ReadModifyExternal).then_some(SideEffect::ReadModify)
}

/// The side effect SystemRDL and IP-XACT write for `effect`: its [`stand_in`], else itself.
pub fn written_as(effect: SideEffect) -> SideEffect {
    stand_in(effect).unwrap_or(effect)
}

/// SystemRDL's property for a single pulse (a field that clears itself one cycle after a
/// write of 1), and the name of the IP-XACT vendor extension that carries it: IP-XACT
/// 1685-2014 has no such construct. So that tools which do not read our extension still
/// see a bit that a write of 1 sets and that changes by itself, the IP-XACT export also
/// gives the field [`SINGLE_PULSE_IPXACT`]'s `modifiedWriteValue` (as the SVD export does)
/// and `<ipxact:volatile>true` (what peakrdl-ipxact writes for a SystemRDL `singlepulse`).
pub const SINGLE_PULSE: &str = "singlepulse";

/// The standard side effect a single pulse is written as in IP-XACT (beside the extension).
pub const SINGLE_PULSE_IPXACT: SideEffect = SideEffect::WriteOneToSet;

/// The names of a write lock's two polarities, in SystemRDL and in our IP-XACT extension.
pub const LOCK_PROPERTIES: [&str; 2] = ["swwel", "swwe"];

/// SystemRDL's property for a write lock of this polarity, and the name of the IP-XACT
/// vendor extension that carries it (1685-2014 has no write locks, and peakrdl-ipxact
/// drops them): `swwel` (writes ignored while the bit is 1) for `locked_by`, `swwe` (writes
/// allowed while the bit is 1) for `write_enable`.
pub fn lock_property(lock: &Lock) -> &'static str {
    LOCK_PROPERTIES[usize::from(!lock.locked_when)]
}

/// The value of the lock bit that locks, for a SystemRDL property or IP-XACT extension name
/// (`swwel`: 1, `swwe`: 0).
pub fn lock_polarity(property: &str) -> Option<bool> {
    LOCK_PROPERTIES
        .iter()
        .position(|p| *p == property)
        .map(|i| i == 0)
}

/// Whether a register's write lock can be written in SystemRDL and IP-XACT: both the locked
/// register and the lock register are plain registers of the block (SystemRDL's reference
/// from one to the other must stay inside the block's address map, and an alternate view
/// is emitted in an address map of its own), and the locked register has a field software
/// can write (the lock is a property of those fields).
pub fn lock_carried(block: &Block, register: &Register) -> bool {
    let Some(lock) = &register.lock else {
        return true;
    };
    let holder_plain = block
        .registers
        .iter()
        .any(|r| *r.name == *lock.register && r.alternate_of.is_none());
    register.alternate_of.is_none() && holder_plain && !locked_fields(register).is_empty()
}

/// The fields that carry a register's write lock in SystemRDL: its software-writable
/// fields, or the stand-in field `VALUE` of a register without fields.
pub fn locked_fields(register: &Register) -> Vec<&str> {
    if register.fields.is_empty() {
        return if register.access.is_writable() {
            vec!["VALUE"]
        } else {
            Vec::new()
        };
    }
    register
        .fields
        .iter()
        .filter(|f| f.effective_access(register).is_writable())
        .map(|f| f.name.as_str())
        .collect()
}

/// What the SystemRDL and IP-XACT outputs (`format`: their name) cannot carry, as warnings
/// at the spec's location (validation gives them when those outputs are asked for; the
/// emitters leave these out): a write lock of an alternate view, or by a bit of one
/// ([`lock_carried`]).
pub fn check(device: &crate::model::Device, format: &str) -> Vec<crate::Diagnostic> {
    let mut out = Vec::new();
    for block in &device.blocks {
        for register in &block.registers {
            if let Some(lock) = &register.lock
                && !lock_carried(block, register)
            {
                out.push(
                    crate::Diagnostic::warning(
                        format!(
                            "the {format} output cannot carry register `{}`'s write lock",
                            *register.name
                        ),
                        lock.register.loc,
                        "a lock of, or by, an alternate view",
                    )
                    .note(format!(
                        "{format} writes a lock as a reference between two registers of one \
                         address map, and an alternate view has an address map of its own; \
                         the export leaves the lock out"
                    )),
                );
            }
            out.extend(effects_stood_in(block, register, format));
        }
    }
    out
}

/// A warning for each field of `register` whose side effect the SystemRDL or IP-XACT output
/// (`format`) carries only in our own property or extension ([`udp::ONREAD`],
/// [`ext::ONREAD`]), which other tools do not read, or as IP-XACT's `modify`, which
/// peakrdl-ipxact cannot import.
fn effects_stood_in<'a>(
    block: &'a Block,
    register: &'a Register,
    format: &'a str,
) -> impl Iterator<Item = crate::Diagnostic> + 'a {
    let rdl = format == "SystemRDL";
    register.fields.iter().filter_map(move |field| {
        let effect = field.side_effect?;
        let (how, why) = match (*effect, rdl) {
            (SideEffect::ReadModify | SideEffect::ReadModifyExternal, true) => (
                format!("as the property `{}` alone", udp::ONREAD),
                "SystemRDL's `onread = ruser` is for `external` registers only (systemrdl-compiler \
                 refuses it on others), which the spec has no place for, and SystemRDL has no \
                 word for a read that changes the device elsewhere: other SystemRDL tools, \
                 PeakRDL-regblock (`gba rtl`) among them, see a plain read"
                    .to_string(),
            ),
            (SideEffect::ReadModify, false) => (
                "as `readAction` `modify`".to_string(),
                "peakrdl-ipxact turns `readAction` `modify` into SystemRDL's `onread = ruser`, \
                 which systemrdl-compiler refuses on a register that is not `external` (IP-XACT \
                 has no such notion): that tool cannot import this file"
                    .to_string(),
            ),
            (SideEffect::ReadModifyExternal, false) => (
                format!("as `readAction` `modify` and the extension `gba:{}`", ext::ONREAD),
                "IP-XACT can say that a read modifies, not that what it modifies lies outside \
                 the field (CMSIS-SVD's `readAction` `modifyExternal`): other tools read \
                 `modify` (and peakrdl-ipxact turns that into SystemRDL's `onread = ruser`, \
                 which systemrdl-compiler refuses on a register that is not `external`)"
                    .to_string(),
            ),
            _ => return None,
        };
        Some(
            crate::Diagnostic::warning(
                format!(
                    "the {format} output writes field `{}.{}.{}`'s side effect `{}` {how}",
                    *block.name,
                    *register.name,
                    *field.name,
                    effect.keyword(),
                ),
                effect.loc,
                "a read that changes the device",
            )
            .note(why),
        )
    })
}

/// SystemRDL has one `encode` per field, for reading and writing alike: a field's values
/// for writing ([`crate::model::Field::write_values`]) are left out of the SystemRDL output,
/// one warning per field (IP-XACT writes them as `usage="write"`).
pub fn write_values_dropped(device: &crate::model::Device) -> Vec<crate::Diagnostic> {
    let mut out = Vec::new();
    for block in &device.blocks {
        for register in &block.registers {
            for field in &register.fields {
                let Some(first) = field.write_values.first() else {
                    continue;
                };
                out.push(
                    crate::Diagnostic::warning(
                        format!(
                            "the SystemRDL output cannot carry the write values of field `{}.{}.{}`",
                            *block.name, *register.name, *field.name
                        ),
                        first.name.loc,
                        "a value for writing",
                    )
                    .note(
                        "SystemRDL's `encode` names one enumeration for reading and writing; \
                         the export writes the values for reading and leaves these out",
                    ),
                );
            }
        }
    }
    out
}

/// The `onwrite`/`onread` spelling of `effect`; `None` for a single pulse, which both
/// formats write apart ([`SINGLE_PULSE`]).
pub fn spelling(effect: SideEffect) -> Option<&'static EffectSpelling> {
    EFFECTS.iter().find(|s| s.effect == effect)
}

/// The side effect a SystemRDL property value means (`onwrite`, `woclr`), if the spec has it.
pub fn from_rdl(property: &str, value: &str) -> Option<SideEffect> {
    EFFECTS
        .iter()
        .find(|s| s.rdl_property == property && s.rdl_value == value)
        .map(|s| s.effect)
}

/// The side effect an IP-XACT element value means (`readAction`, `clear`), if the spec has
/// it.
pub fn from_ipxact(element: &str, value: &str) -> Option<SideEffect> {
    EFFECTS
        .iter()
        .find(|s| s.ipxact_element == element && s.ipxact_value == value)
        .map(|s| s.effect)
}

/// SystemRDL's `sw` for a field's effective access, write-once or not (`w1`, `rw1`).
pub fn rdl_field_sw(access: Access, write_once: bool) -> &'static str {
    match (access, write_once) {
        (Access::WriteOnly, true) => "w1",
        (Access::ReadWrite, true) => "rw1",
        _ => rdl_sw(access),
    }
}

/// IP-XACT's `access` for a field's effective access, write-once or not (`writeOnce`,
/// `read-writeOnce`).
pub fn ipxact_field_access(access: Access, write_once: bool) -> &'static str {
    match (access, write_once) {
        (Access::WriteOnly, true) => "writeOnce",
        (Access::ReadWrite, true) => "read-writeOnce",
        _ => ipxact_access(access),
    }
}

/// SystemRDL's `sw` for an access.
pub fn rdl_sw(access: Access) -> &'static str {
    match access {
        Access::ReadOnly => "r",
        Access::WriteOnly => "w",
        Access::ReadWrite => "rw",
    }
}

/// The access a SystemRDL `sw` value gives (`w1`, `rw1`: write-once, writable, and the field's
/// `write_once` says the rest; `na`: none).
pub fn from_rdl_sw(sw: &str) -> Option<Access> {
    match sw {
        "r" => Some(Access::ReadOnly),
        "w" | "w1" => Some(Access::WriteOnly),
        "rw" | "wr" | "rw1" => Some(Access::ReadWrite),
        _ => None,
    }
}

/// IP-XACT's `access` for an access.
pub fn ipxact_access(access: Access) -> &'static str {
    match access {
        Access::ReadOnly => "read-only",
        Access::WriteOnly => "write-only",
        Access::ReadWrite => "read-write",
    }
}

/// The access an IP-XACT `access` value gives (`writeOnce`, `read-writeOnce`: writable, and
/// the field's `write_once` says the rest).
pub fn from_ipxact_access(access: &str) -> Option<Access> {
    match access {
        "read-only" => Some(Access::ReadOnly),
        "write-only" | "writeOnce" => Some(Access::WriteOnly),
        "read-write" | "read-writeOnce" => Some(Access::ReadWrite),
        _ => None,
    }
}

/// Whether a SystemRDL `sw`/IP-XACT access is a write-once one (the field's `write_once`).
pub fn is_write_once(access: &str) -> bool {
    matches!(access, "w1" | "rw1" | "writeOnce" | "read-writeOnce")
}

/// Whether a register array's elements interleave with another register's (the RP2040's
/// `CLK_GPOUTn_CTRL`, `_DIV`, `_SELECTED`, 12 bytes apart): SystemRDL and IP-XACT both see
/// an array as one span, so such an array is written element by element (marked, so that
/// the importers fold it back).
pub fn interleaved(block: &Block, register: &Register) -> bool {
    let Some(array) = &register.array else {
        return false;
    };
    if *array.stride == register.bytes() {
        return false;
    }
    let start = *register.offset;
    // systemrdl-compiler's span of an array: count times the stride.
    let end = start
        .saturating_add(array.stride.saturating_mul(*array.count))
        .max(
            start
                .saturating_add(array.stride.saturating_mul(array.count.saturating_sub(1)))
                .saturating_add(register.bytes()),
        );
    block.registers.iter().any(|other| {
        !std::ptr::eq(other, register)
            && other.alternate_of.is_none()
            && other
                .element_offsets()
                .any(|o| o < end && o + other.bytes() > start)
    })
}

/// Whether a block array's span (first byte to its last instance's end) holds another block:
/// the formats see an array as one span, so SystemRDL needs a `bridge` root and IP-XACT one
/// address block per instance.
pub fn interleaved_block(device: &crate::model::Device, block: &Block) -> bool {
    let Some(array) = &block.array else {
        return false;
    };
    let start = *block.offset;
    let end = start
        .saturating_add(array.stride.saturating_mul(array.count.saturating_sub(1)))
        .saturating_add(*block.size);
    device.blocks.iter().any(|other| {
        !std::ptr::eq(other, block)
            && other.alternate_of.is_none()
            && *other.offset < end
            && start < other.offset.saturating_add(*other.size)
    })
}

/// Whether `items` are out of the order of `key`: systemrdl-compiler gives blocks and
/// registers in address order and fields in bit order, so the SystemRDL emitter then states
/// each one's place (`udp::POSITION`).
pub fn out_of_order<T>(items: &[T], key: impl Fn(&T) -> u64) -> bool {
    items.windows(2).any(|w| key(&w[0]) > key(&w[1]))
}

/// SystemRDL user-defined properties (declared at the top of every emitted file).
pub mod udp {
    /// addrmap (the device): the spec's `version`.
    pub const VERSION: &str = "gba_version";
    /// addrmap (the device): the spec's constants, an array of `gba_constant` structs.
    pub const CONSTANTS: &str = "gba_constants";
    pub const CONSTANT_STRUCT: &str = "gba_constant";
    /// addrmap (the device): the spec's interrupts, an array of `gba_interrupt` structs
    /// (`value` the number, `block` empty for none, `index` meaningful when `indexed`).
    pub const INTERRUPTS: &str = "gba_interrupts";
    pub const INTERRUPT_STRUCT: &str = "gba_interrupt";
    /// addrmap (the device): the spec's `cpu` and `nvic_prio_bits`.
    pub const CPU: &str = "gba_cpu";
    pub const NVIC_PRIO_BITS: &str = "gba_nvic_prio_bits";
    /// addrmap (the device): the spec's `address`, the window's fixed physical address.
    pub const ADDRESS: &str = "gba_address";
    /// addrmap (a block): the bytes one instance owns.
    pub const SIZE: &str = "gba_size";
    /// addrmap or reg: the block or register this one is another view of.
    pub const ALTERNATE_OF: &str = "gba_alternate_of";
    /// addrmap: holds one alternate register of the named block (SystemRDL lets registers
    /// overlap only across the children of a `bridge` address map).
    pub const VIEW_OF: &str = "gba_view_of";
    /// reg: its place among its block's registers (views are emitted apart from the block).
    pub const POSITION: &str = "gba_position";
    /// reg or field: the spec's access (`ro`, `wo`, `rw`), where the fields do not say it.
    pub const ACCESS: &str = "gba_access";
    /// reg: the reset value, where bits outside every field are set.
    pub const RESET: &str = "gba_reset";
    /// field: `"index"`, the field resets to its element's index (systemrdl-compiler refuses
    /// a dynamic assignment to one array element, so no native form exists). A strapped
    /// field is SystemRDL's own `reset = <signal>`, the signal named [`STRAP_PREFIX`] + field.
    pub const RESET_FROM: &str = "gba_reset_from";
    /// field: a read that modifies (`ruser`) or modifies the device elsewhere (`rext`), by the
    /// spec's keyword. SystemRDL's own `onread = ruser` is for `external` registers only
    /// (systemrdl-compiler refuses it on others), which the spec has no place for, and
    /// SystemRDL has no word for `rext`; declared only when a field has one.
    pub const ONREAD: &str = "gba_onread";
    /// The signal, declared in the register, that a strapped field resets from.
    pub const STRAP_PREFIX: &str = "gba_strap_";
    /// field: stands for a register that has no fields (SystemRDL needs one).
    pub const IMPLICIT: &str = "gba_implicit";
    /// reg: one element of an interleaved register array (a `gba_element` struct: the
    /// array's name, this element's index, the count and the stride).
    pub const ELEMENT: &str = "gba_element";
    /// reg: how software reads a register wider than its `accesswidth`, the spec's
    /// `split_read` (`"until_stable"`; absent for the default, `low_first`). Declared only in
    /// a file that uses it.
    pub const SPLIT_READ: &str = "gba_split_read";
}

/// IP-XACT vendor extensions, in their own namespace.
pub mod ext {
    pub const NAMESPACE: &str = "urn:gba-codegen:ipxact:1";
    pub const PREFIX: &str = "gba";
    /// field: `index` or `strap` (`model::ResetFrom`): 1685-2014 gives a register array one
    /// reset per field, so an element's index cannot be said; a strapped field also has no
    /// `<resets>` (its reset is not known in the description).
    pub const RESET_FROM: &str = "resetFrom";
    /// field: `rext` (`model::SideEffect::ReadModifyExternal`), beside `readAction` `modify`
    /// ([`super::stand_in`]): 1685-2014 cannot say that a read changes the device outside
    /// the field.
    pub const ONREAD: &str = "onread";
    /// field: `msb0` (`model::Field::msb0`): 1685-2014 has no bit order, so a field's
    /// `bitOffset` is its lowest bit and this says that bit holds the value's most
    /// significant bit; the field's `<resets>` and enumerated values are values.
    pub const BIT_ORDER: &str = "bitOrder";
    /// The `memoryRemap` state that holds the alternate views.
    pub const ALTERNATE_STATE: &str = "gba_alternate";
    /// register: `true` for a register implemented outside the block
    /// (`model::RegisterHardware::external`, SystemRDL's `external`), which 1685-2014 cannot say.
    pub const EXTERNAL: &str = "external";
    /// field: how hardware accesses it (`model::HardwareAccess`: `rw`, `r`, `w`, `na`,
    /// SystemRDL's `hw`), when the spec says it; 1685-2014 has no hardware access.
    pub const HW: &str = "hw";
    /// field: `true` for a strobe to hardware when software modifies it (SystemRDL `swmod`).
    pub const SWMOD: &str = "swmod";
    /// field: `true` for a strobe to hardware when software accesses it (SystemRDL `swacc`).
    pub const SWACC: &str = "swacc";
}

/// CMSIS-SVD: the elements under `<vendorExtensions>` that carry what SVD has no element for
/// (`emit::svd` writes them, `import::svd` reads them back).
pub mod svd_ext {
    /// The spec's constants.
    pub const CONSTANTS: &str = "constants";
    /// The single-pulse fields.
    pub const SINGLE_PULSES: &str = "singlePulses";
    /// The msb0 fields (`model::Field::msb0`), `<field>` children holding each one's path:
    /// SVD has no bit order.
    pub const MSB0_FIELDS: &str = "msb0Fields";
    /// The registers' locks.
    pub const LOCKS: &str = "locks";
    /// The fields whose reset is their element's index or a strap (`model::ResetFrom`), one
    /// child each, named by the kind's keyword (`<index>`, `<strap>`), holding the field's
    /// path: SVD has one reset value per register, so the export can only leave those bits
    /// out of `<resetMask>`.
    pub const RESET_FROM: &str = "resetFrom";
    /// Present (`<relocatable>true</relocatable>`) when the device's window is wherever the
    /// OS maps it (no `address` in the spec): SVD's addresses are absolute, and a file
    /// without it is read as a device at fixed addresses.
    pub const RELOCATABLE: &str = "relocatable";
    /// The raiser of each interrupt that an `<interrupt>`'s place cannot say (one raised by
    /// an instance other than the first of a block array, or by no block): `<interrupt>`
    /// children with `<name>` and, when raised by a block, `<block>` and `<index>`.
    pub const INTERRUPT_SOURCES: &str = "interruptSources";
    /// The registers wider than their bus access (`model::Register::access_width`), which
    /// SVD has no element for: `<register>` children with `<name>` (`BLOCK.REGISTER`) and
    /// `<accessWidth>` (bits), and `<splitRead>` (the spec's `split_read`) when the spec says it.
    pub const ACCESS_WIDTHS: &str = "accessWidths";
}

/// What the register's one reset value does not say, in words for documentation (Rust, C,
/// SVD, the docs): which fields reset to their element's index, which are strapped and which
/// are not reset.
/// `None` when every field's reset is its part of the register's. The emitters write it;
/// `import-svd` strips it when it is exactly this text (one definition, so they cannot drift).
pub(crate) fn reset_note(register: &crate::model::Register) -> Option<String> {
    use crate::model::ResetFrom;
    let names = |from: ResetFrom| -> Vec<String> {
        register
            .fields
            .iter()
            .filter(|f| f.reset_from.is_some_and(|r| *r == from))
            .map(|f| format!("`{}`", *f.name))
            .collect()
    };
    let mut parts = Vec::new();
    let index = names(ResetFrom::Index);
    if !index.is_empty() {
        parts.push(format!(
            "{} {} its element's index (element i reads i)",
            index.join(", "),
            if index.len() == 1 {
                "resets to"
            } else {
                "reset to"
            }
        ));
    }
    let strap = names(ResetFrom::Strap);
    if !strap.is_empty() {
        parts.push(format!(
            "{} {} strapped: fixed per device instance, known only at run time",
            strap.join(", "),
            if strap.len() == 1 { "is" } else { "are" }
        ));
    }
    let none = names(ResetFrom::NotReset);
    if !none.is_empty() {
        parts.push(format!(
            "{} {} not reset ({} whatever {} powered up with until written)",
            none.join(", "),
            if none.len() == 1 { "is" } else { "are" },
            if none.len() == 1 {
                "it holds"
            } else {
                "they hold"
            },
            if none.len() == 1 { "it" } else { "they" }
        ));
    }
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "Reset: {}; the reset value given has 0 in {}.",
        parts.join("; "),
        if index.len() + strap.len() + none.len() == 1 {
            "its bits"
        } else {
            "their bits"
        }
    ))
}
