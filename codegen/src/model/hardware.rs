//! The hardware side of a register map: what the register block's RTL needs and software
//! never sees (the spec's `hardware:` sections). The software outputs (Rust, C, SVD) ignore
//! it; SystemRDL and IP-XACT carry it, and `gba rtl` builds it.

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
