// Generated from gba.yaml by `gba gen` (gba-codegen 0.1.0).
// Do not edit: change gba.yaml and run `gba gen` again.

//! Identity, limits and counters of this port.
//!
//! One instance at 0x0 in the device window, 0x1000 bytes.

#![allow(non_snake_case, non_camel_case_types, clippy::module_inception)]

/// Handle on one instance of block `global`; `_M` as for [`Device`](crate::Device).
#[derive(Clone, Copy, Debug)]
pub struct Global<_M = crate::common::Volatile> {
    pub(crate) ptr: *mut u8,
    pub(crate) io: _M,
}

// SAFETY: an address and the mechanism `_M`, which is `Send` itself; `from_ptr`/`from_shared_ptr`
// make every access race-free.
unsafe impl<_M: ::core::marker::Send> ::core::marker::Send for Global<_M> {}

// SAFETY: as for `Send`: sharing the handle shares an address and a `Sync` mechanism.
unsafe impl<_M: ::core::marker::Sync> ::core::marker::Sync for Global<_M> {}

impl Global {
    /// Bytes of the window that one instance owns.
    pub const SIZE: usize = 0x1000;

    /// The instance at `ptr`, in device memory.
    ///
    /// # Safety
    ///
    /// As for [`Device::from_ptr`](crate::Device::from_ptr), for a mapping of
    /// [`Self::SIZE`] bytes starting at `ptr` instead of the whole window.
    #[inline(always)]
    pub const unsafe fn from_ptr(ptr: *mut u8) -> Self {
        Global {
            ptr,
            io: crate::common::Volatile,
        }
    }
}

impl<'b, _B: crate::common::Bus + ?Sized> Global<crate::common::OnBus<'b, _B>> {
    /// The instance at address `base` of `bus`: every access is one transaction of
    /// `bus`, which may fail (the handles' `try_` methods return its error).
    #[inline(always)]
    pub const fn on_bus(bus: &'b _B, base: u64) -> Self {
        Global {
            ptr: ::core::ptr::null_mut(),
            io: crate::common::OnBus::new(bus, base),
        }
    }
}

impl<_M: crate::common::InMemory> Global<_M> {
    /// The address of the instance's first byte in memory (a handle on a bus has
    /// none; its registers have `bus_address`).
    #[inline(always)]
    pub const fn as_ptr(self) -> *mut u8 {
        self.ptr
    }
}

impl<_M: ::core::marker::Copy> Global<_M> {
    /// Identifies the device; any other value means this is not a GBA.
    ///
    /// Offset `0x0`, 32 bits, read-only, reset `0x47424131`.
    #[inline(always)]
    pub const fn device_id(
        self,
    ) -> crate::common::Reg<u32, DEVICE_ID::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x0..0x4 lie inside the 0x1000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x0).cast(), self.io)
        }
    }

    /// Version of the register map that the device implements.
    ///
    /// Offset `0x4`, 32 bits, read-only, reset `0x10001`.
    #[inline(always)]
    pub const fn version(
        self,
    ) -> crate::common::Reg<u32, VERSION::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x4..0x8 lie inside the 0x1000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x4).cast(), self.io)
        }
    }

    /// Limits of this device, so that software reads them instead of assuming them.
    ///
    /// Offset `0x8`, 32 bits, read-only, reset `0x2c420`.
    #[inline(always)]
    pub const fn caps(
        self,
    ) -> crate::common::Reg<u32, CAPS::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x8..0xc lie inside the 0x1000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x8).cast(), self.io)
        }
    }

    /// The switch port of this host, which is its member id in every group.
    ///
    /// Offset `0xc`, 32 bits, read-only, reset `0x0`.
    ///
    /// Reset: `PORT` is strapped: fixed per device instance, known only at run time; the reset value given has 0 in its bits.
    #[inline(always)]
    pub const fn port_id(
        self,
    ) -> crate::common::Reg<u32, PORT_ID::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0xc..0x10 lie inside the 0x1000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0xc).cast(), self.io)
        }
    }

    /// Which groups are enabled on this port.
    ///
    /// Offset `0x10`, 32 bits, read-only, reset `0x0`.
    #[inline(always)]
    pub const fn group_enabled(
        self,
    ) -> crate::common::Reg<u32, GROUP_ENABLED::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x10..0x14 lie inside the 0x1000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x10).cast(), self.io)
        }
    }

    /// Which groups are enabled on at least one port of the switch (map 1.1). Members
    /// agree on a free group id by combining their free masks (AND of the complements)
    /// and taking the lowest common bit.
    ///
    /// Offset `0x14`, 32 bits, read-only, reset `0x0`.
    #[inline(always)]
    pub const fn groups_busy(
        self,
    ) -> crate::common::Reg<u32, GROUPS_BUSY::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x14..0x18 lie inside the 0x1000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x14).cast(), self.io)
        }
    }

    /// Barrier episodes completed that involved this port.
    ///
    /// Offset `0x18`, 64 bits, read-only, reset `0x0`.
    #[inline(always)]
    pub const fn barriers_completed(
        self,
    ) -> crate::common::Reg<u64, BARRIERS_COMPLETED::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x18..0x20 lie inside the 0x1000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 8, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x18).cast(), self.io)
        }
    }
}

/// Byte offset of each register within the block (of element 0 for arrays).
pub mod offset {
    /// `DEVICE_ID`: bytes from the block's base.
    pub const DEVICE_ID: usize = 0x0;
    /// `VERSION`: bytes from the block's base.
    pub const VERSION: usize = 0x4;
    /// `CAPS`: bytes from the block's base.
    pub const CAPS: usize = 0x8;
    /// `PORT_ID`: bytes from the block's base.
    pub const PORT_ID: usize = 0xc;
    /// `GROUP_ENABLED`: bytes from the block's base.
    pub const GROUP_ENABLED: usize = 0x10;
    /// `GROUPS_BUSY`: bytes from the block's base.
    pub const GROUPS_BUSY: usize = 0x14;
    /// `BARRIERS_COMPLETED`: bytes from the block's base.
    pub const BARRIERS_COMPLETED: usize = 0x18;
}

/// Reset value of each register.
pub mod reset {
    /// `DEVICE_ID` after reset.
    pub const DEVICE_ID: u32 = 0x4742_4131;
    /// `VERSION` after reset.
    pub const VERSION: u32 = 0x1_0001;
    /// `CAPS` after reset.
    pub const CAPS: u32 = 0x2_c420;
    /// `PORT_ID` after reset.
    ///
    /// Reset: `PORT` is strapped: fixed per device instance, known only at run time; the reset value given has 0 in its bits.
    pub const PORT_ID: u32 = 0x0;
    /// `GROUP_ENABLED` after reset.
    pub const GROUP_ENABLED: u32 = 0x0;
    /// `GROUPS_BUSY` after reset.
    pub const GROUPS_BUSY: u32 = 0x0;
    /// `BARRIERS_COMPLETED` after reset.
    pub const BARRIERS_COMPLETED: u64 = 0x0;
}

/// Fields of register `DEVICE_ID`.
pub mod DEVICE_ID {
    crate::common::field_set!(u32, DEVICE_ID, [ID]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// 0x4742_4131, "GBA1" in ASCII. Bits `[31:0]`, ro.
    pub const ID: Field<u32, Register> = Field::new(0xffff_ffff, 0);
    /// `ID` as a type: `ID::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type ID = crate::common::FieldBits<u32, Register, 0xffff_ffff, 0>;
}

/// Fields of register `VERSION`.
pub mod VERSION {
    crate::common::field_set!(u32, VERSION, [MAJOR, MINOR]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<2>;

    /// Major version; software refuses a major version it does not know. Bits `[31:16]`, ro.
    pub const MAJOR: Field<u32, Register> = Field::new(0xffff, 16);
    /// `MAJOR` as a type: `MAJOR::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type MAJOR = crate::common::FieldBits<u32, Register, 0xffff, 16>;

    /// Minor version; additions only. Bits `[15:0]`, ro.
    pub const MINOR: Field<u32, Register> = Field::new(0xffff, 0);
    /// `MINOR` as a type: `MINOR::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type MINOR = crate::common::FieldBits<u32, Register, 0xffff, 0>;
}

/// Fields of register `CAPS`.
pub mod CAPS {
    crate::common::field_set!(u32, CAPS, [MAX_GROUPS, MAX_MEMBERS]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<2>;

    /// Number of barrier groups (32). Bits `[7:0]`, ro.
    pub const MAX_GROUPS: Field<u32, Register> = Field::new(0xff, 0);
    /// `MAX_GROUPS` as a type: `MAX_GROUPS::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type MAX_GROUPS = crate::common::FieldBits<u32, Register, 0xff, 0>;

    /// Maximum members per group (708). Bits `[19:8]`, ro.
    pub const MAX_MEMBERS: Field<u32, Register> = Field::new(0xfff, 8);
    /// `MAX_MEMBERS` as a type: `MAX_MEMBERS::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type MAX_MEMBERS = crate::common::FieldBits<u32, Register, 0xfff, 8>;
}

/// Fields of register `PORT_ID`.
pub mod PORT_ID {
    crate::common::field_set!(u32, PORT_ID, [PORT]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Port number, strapped per port. Bits `[11:0]`, ro.
    pub const PORT: Field<u32, Register> = Field::new(0xfff, 0);
    /// `PORT` as a type: `PORT::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type PORT = crate::common::FieldBits<u32, Register, 0xfff, 0>;
}

/// Fields of register `GROUP_ENABLED`.
pub mod GROUP_ENABLED {
    crate::common::field_set!(u32, GROUP_ENABLED, [GROUPS]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Bit g set means group g is enabled on this port. Bits `[31:0]`, ro.
    pub const GROUPS: Field<u32, Register> = Field::new(0xffff_ffff, 0);
    /// `GROUPS` as a type: `GROUPS::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type GROUPS = crate::common::FieldBits<u32, Register, 0xffff_ffff, 0>;
}

/// Fields of register `GROUPS_BUSY`.
pub mod GROUPS_BUSY {
    crate::common::field_set!(u32, GROUPS_BUSY, [GROUPS]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Bit g set means group g is enabled on at least one port. Bits `[31:0]`, ro.
    pub const GROUPS: Field<u32, Register> = Field::new(0xffff_ffff, 0);
    /// `GROUPS` as a type: `GROUPS::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type GROUPS = crate::common::FieldBits<u32, Register, 0xffff_ffff, 0>;
}

/// Fields of register `BARRIERS_COMPLETED`.
pub mod BARRIERS_COMPLETED {
    crate::common::field_set!(u64, BARRIERS_COMPLETED, [COUNT]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Number of completed episodes; wraps at 2^64. Bits `[63:0]`, ro.
    pub const COUNT: Field<u64, Register> = Field::new(0xffff_ffff_ffff_ffff, 0);
    /// `COUNT` as a type: `COUNT::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type COUNT = crate::common::FieldBits<u64, Register, 0xffff_ffff_ffff_ffff, 0>;
}
