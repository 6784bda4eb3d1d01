//! The one table that says how the spec's access and side effects are spelt in the hardware
//! formats, SystemRDL 2.0 and IP-XACT 1685-2014, in both directions: the emitters
//! (`emit::systemrdl`, `emit::ipxact`) and the importers (`import::rdl`, `import::ipxact`)
//! all read it, so that a new side effect is one new row here.
//!
//! Also here: the names of the user-defined properties (SystemRDL) and vendor extensions
//! (IP-XACT) that carry what those formats have no place for, so that writer and reader
//! cannot drift apart.

use crate::model::{Access, Block, Register, SideEffect};

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
];

/// The spelling of `effect`.
pub fn spelling(effect: SideEffect) -> &'static EffectSpelling {
    EFFECTS
        .iter()
        .find(|s| s.effect == effect)
        .expect("every side effect has a row in interchange::EFFECTS")
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

/// SystemRDL's `sw` for an access.
pub fn rdl_sw(access: Access) -> &'static str {
    match access {
        Access::ReadOnly => "r",
        Access::WriteOnly => "w",
        Access::ReadWrite => "rw",
    }
}

/// The access a SystemRDL `sw` value gives (`w1`, `rw1`: write-once, carried as writable;
/// `na`: none).
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

/// The access an IP-XACT `access` value gives (`writeOnce`, `read-writeOnce`: carried as
/// writable).
pub fn from_ipxact_access(access: &str) -> Option<Access> {
    match access {
        "read-only" => Some(Access::ReadOnly),
        "write-only" | "writeOnce" => Some(Access::WriteOnly),
        "read-write" | "read-writeOnce" => Some(Access::ReadWrite),
        _ => None,
    }
}

/// Whether a SystemRDL `sw`/IP-XACT access is a write-once one (carried as plain writable,
/// with a warning).
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
    let end = start
        .saturating_add(array.stride.saturating_mul(array.count.saturating_sub(1)))
        .saturating_add(register.bytes());
    block.registers.iter().any(|other| {
        !std::ptr::eq(other, register)
            && other.alternate_of.is_none()
            && other
                .element_offsets()
                .any(|o| o < end && o + other.bytes() > start)
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
    /// field: stands for a register that has no fields (SystemRDL needs one).
    pub const IMPLICIT: &str = "gba_implicit";
    /// reg: one element of an interleaved register array (a `gba_element` struct: the
    /// array's name, this element's index, the count and the stride).
    pub const ELEMENT: &str = "gba_element";
}

/// IP-XACT vendor extensions, in their own namespace.
pub mod ext {
    pub const NAMESPACE: &str = "urn:gba-codegen:ipxact:1";
    pub const PREFIX: &str = "gba";
}
