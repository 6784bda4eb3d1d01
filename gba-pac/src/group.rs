// Generated from gba.yaml by `gba gen` (gba-codegen 0.1.0).
// Do not edit: change gba.yaml and run `gba gen` again.

//! One barrier group as seen from this port: its member set, this member's release
//! flag, control and status, and the arrival doorbell.
//!
//! 32 instances, 0x2000 bytes each, 0x2000 bytes apart from 0x10000 in the device window.

#![allow(non_snake_case, non_camel_case_types, clippy::module_inception)]

/// Handle on one instance of block `group`; `_M` as for [`Device`](crate::Device).
#[derive(Clone, Copy, Debug)]
pub struct Group<_M = crate::common::Volatile> {
    pub(crate) ptr: *mut u8,
    pub(crate) io: _M,
}

// SAFETY: an address and the mechanism `_M`, which is `Send` itself; `from_ptr`/`from_shared_ptr`
// make every access race-free.
unsafe impl<_M: ::core::marker::Send> ::core::marker::Send for Group<_M> {}

// SAFETY: as for `Send`: sharing the handle shares an address and a `Sync` mechanism.
unsafe impl<_M: ::core::marker::Sync> ::core::marker::Sync for Group<_M> {}

impl Group {
    /// Bytes of the window that one instance owns.
    pub const SIZE: usize = 0x2000;
    /// Elements of register array `MEMBER_MASK`.
    pub const MEMBER_MASK_COUNT: usize = 12;
    /// Elements of register array `ARRIVED_MASK`.
    pub const ARRIVED_MASK_COUNT: usize = 12;

    /// The instance at `ptr`, in device memory.
    ///
    /// # Safety
    ///
    /// As for [`Device::from_ptr`](crate::Device::from_ptr), for a mapping of
    /// [`Self::SIZE`] bytes starting at `ptr` instead of the whole window.
    #[inline(always)]
    pub const unsafe fn from_ptr(ptr: *mut u8) -> Self {
        Group {
            ptr,
            io: crate::common::Volatile,
        }
    }
}

impl<'b, _B: crate::common::Bus + ?Sized> Group<crate::common::OnBus<'b, _B>> {
    /// The instance at address `base` of `bus`: every access is one transaction of
    /// `bus`, which may fail (the handles' `try_` methods return its error).
    #[inline(always)]
    pub const fn on_bus(bus: &'b _B, base: u64) -> Self {
        Group {
            ptr: ::core::ptr::null_mut(),
            io: crate::common::OnBus::new(bus, base),
        }
    }
}

impl<_M: crate::common::InMemory> Group<_M> {
    /// The address of the instance's first byte in memory (a handle on a bus has
    /// none; its registers have `bus_address`).
    #[inline(always)]
    pub const fn as_ptr(self) -> *mut u8 {
        self.ptr
    }
}

impl<_M: ::core::marker::Copy> Group<_M> {
    /// The index of this group block.
    ///
    /// Offset `0x0`, 32 bits, read-only, reset `0x0`.
    ///
    /// Reset: `ID` resets to its element's index (element i reads i); the reset value given has 0 in its bits.
    #[inline(always)]
    pub const fn group_id(
        self,
    ) -> crate::common::Reg<u32, GROUP_ID::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x0..0x4 lie inside the 0x2000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x0).cast(), self.io)
        }
    }

    /// Number of members of the group; must equal the number of bits set in MEMBER_MASK.
    ///
    /// Offset `0x4`, 32 bits, read-write, reset `0x0`.
    #[inline(always)]
    pub const fn member_count(
        self,
    ) -> crate::common::Reg<u32, MEMBER_COUNT::Register, crate::common::Rw, _M> {
        // SAFETY: bytes 0x4..0x8 lie inside the 0x2000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x4).cast(), self.io)
        }
    }

    /// Members that have arrived for the pending episode.
    ///
    /// Offset `0x8`, 32 bits, read-only, reset `0x0`.
    #[inline(always)]
    pub const fn arrival_count(
        self,
    ) -> crate::common::Reg<u32, ARRIVAL_COUNT::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x8..0xc lie inside the 0x2000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x8).cast(), self.io)
        }
    }

    /// This port's member id in the group; must equal PORT_ID.
    ///
    /// Offset `0xc`, 32 bits, read-write, reset `0x0`.
    #[inline(always)]
    pub const fn local_member_id(
        self,
    ) -> crate::common::Reg<u32, LOCAL_MEMBER_ID::Register, crate::common::Rw, _M> {
        // SAFETY: bytes 0xc..0x10 lie inside the 0x2000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 4, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0xc).cast(), self.io)
        }
    }

    /// The 708-bit member set: member m is bit m % 64 of word m / 64. Bits 708 to 767
    /// (word 11, bits 4 to 63) are reserved and must be 0.
    ///
    /// Offset `0x10 + index * 0x8`, 12 elements, 64 bits, read-write, reset `0x0`.
    ///
    /// Element `index`, or `None` when `index >= 12`.
    #[inline(always)]
    pub const fn member_mask(
        self,
        index: usize,
    ) -> ::core::option::Option<
        crate::common::Reg<u64, MEMBER_MASK::Register, crate::common::Rw, _M>,
    > {
        if index < 12 {
            // SAFETY: the bound was checked just above.
            ::core::option::Option::Some(unsafe { self.member_mask_unchecked(index) })
        } else {
            ::core::option::Option::None
        }
    }

    /// Element `index` of `MEMBER_MASK`, without the bounds check.
    ///
    /// # Safety
    ///
    /// `index` must be less than 12 (`MEMBER_MASK_COUNT`).
    #[inline(always)]
    pub const unsafe fn member_mask_unchecked(
        self,
        index: usize,
    ) -> crate::common::Reg<u64, MEMBER_MASK::Register, crate::common::Rw, _M> {
        // SAFETY: `index < 12` (the promise of the caller), so the element lies within 0x10..0x70,
        // inside the 0x2000-byte block that the contract of `from_ptr` makes valid; offset and
        // stride are multiples of 8, so the pointer is aligned (on a bus, `from_parts` requires
        // nothing).
        unsafe {
            crate::common::Reg::from_parts(
                self.ptr.wrapping_add(0x10 + index * 0x8).cast(),
                self.io,
            )
        }
    }

    /// Device address (IOVA) of this member's release flag. The switch writes the
    /// completed episode's sequence number there; an unmapped or misaligned address
    /// fails the episode with DMA_FAULT.
    ///
    /// Offset `0x80`, 64 bits, read-write, reset `0x0`.
    #[inline(always)]
    pub const fn release_addr(
        self,
    ) -> crate::common::Reg<u64, RELEASE_ADDR::Register, crate::common::Rw, _M> {
        // SAFETY: bytes 0x80..0x88 lie inside the 0x2000-byte block that the contract of `from_ptr`
        // makes valid, and the offset is a multiple of 8, so the pointer is aligned (on a bus,
        // `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x80).cast(), self.io)
        }
    }

    /// Members that have arrived for the pending episode, in MEMBER_MASK's layout.
    ///
    /// Offset `0x100 + index * 0x8`, 12 elements, 64 bits, read-only, reset `0x0`.
    ///
    /// Element `index`, or `None` when `index >= 12`.
    #[inline(always)]
    pub const fn arrived_mask(
        self,
        index: usize,
    ) -> ::core::option::Option<
        crate::common::Reg<u64, ARRIVED_MASK::Register, crate::common::Ro, _M>,
    > {
        if index < 12 {
            // SAFETY: the bound was checked just above.
            ::core::option::Option::Some(unsafe { self.arrived_mask_unchecked(index) })
        } else {
            ::core::option::Option::None
        }
    }

    /// Element `index` of `ARRIVED_MASK`, without the bounds check.
    ///
    /// # Safety
    ///
    /// `index` must be less than 12 (`ARRIVED_MASK_COUNT`).
    #[inline(always)]
    pub const unsafe fn arrived_mask_unchecked(
        self,
        index: usize,
    ) -> crate::common::Reg<u64, ARRIVED_MASK::Register, crate::common::Ro, _M> {
        // SAFETY: `index < 12` (the promise of the caller), so the element lies within
        // 0x100..0x160, inside the 0x2000-byte block that the contract of `from_ptr` makes valid;
        // offset and stride are multiples of 8, so the pointer is aligned (on a bus, `from_parts`
        // requires nothing).
        unsafe {
            crate::common::Reg::from_parts(
                self.ptr.wrapping_add(0x100 + index * 0x8).cast(),
                self.io,
            )
        }
    }

    /// Enables, arms and resets the group on this port.
    ///
    /// Offset `0x1000`, 64 bits, read-write with write-1 bits, reset `0x0`.
    #[inline(always)]
    pub const fn control(
        self,
    ) -> crate::common::Reg<u64, CONTROL::Register, crate::common::RwW1, _M> {
        // SAFETY: bytes 0x1000..0x1008 lie inside the 0x2000-byte block that the contract of
        // `from_ptr` makes valid, and the offset is a multiple of 8, so the pointer is aligned (on
        // a bus, `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x1000).cast(), self.io)
        }
    }

    /// State of the group on this port.
    ///
    /// Offset `0x1008`, 64 bits, read-only, reset `0x0`.
    #[inline(always)]
    pub const fn status(
        self,
    ) -> crate::common::Reg<u64, STATUS::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x1008..0x1010 lie inside the 0x2000-byte block that the contract of
        // `from_ptr` makes valid, and the offset is a multiple of 8, so the pointer is aligned (on
        // a bus, `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x1008).cast(), self.io)
        }
    }

    /// The arrival doorbell. Storing (member id << 32) | (episode mod 2^32) arrives at the
    /// barrier; the store must be ordered after the caller's earlier memory writes.
    ///
    /// Offset `0x1010`, 64 bits, write-only, reset `0x0`.
    #[inline(always)]
    pub const fn arrival(
        self,
    ) -> crate::common::Reg<u64, ARRIVAL::Register, crate::common::Wo, _M> {
        // SAFETY: bytes 0x1010..0x1018 lie inside the 0x2000-byte block that the contract of
        // `from_ptr` makes valid, and the offset is a multiple of 8, so the pointer is aligned (on
        // a bus, `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x1010).cast(), self.io)
        }
    }

    /// The last completed episode.
    ///
    /// Offset `0x1018`, 64 bits, read-only, reset `0x0`.
    #[inline(always)]
    pub const fn release_seq(
        self,
    ) -> crate::common::Reg<u64, RELEASE_SEQ::Register, crate::common::Ro, _M> {
        // SAFETY: bytes 0x1018..0x1020 lie inside the 0x2000-byte block that the contract of
        // `from_ptr` makes valid, and the offset is a multiple of 8, so the pointer is aligned (on
        // a bus, `from_parts` requires nothing).
        unsafe {
            crate::common::Reg::from_parts(self.ptr.wrapping_add(0x1018).cast(), self.io)
        }
    }
}

/// Byte offset of each register within the block (of element 0 for arrays).
pub mod offset {
    /// `GROUP_ID`: bytes from the block's base.
    pub const GROUP_ID: usize = 0x0;
    /// `MEMBER_COUNT`: bytes from the block's base.
    pub const MEMBER_COUNT: usize = 0x4;
    /// `ARRIVAL_COUNT`: bytes from the block's base.
    pub const ARRIVAL_COUNT: usize = 0x8;
    /// `LOCAL_MEMBER_ID`: bytes from the block's base.
    pub const LOCAL_MEMBER_ID: usize = 0xc;
    /// `MEMBER_MASK`: bytes from the block's base.
    pub const MEMBER_MASK: usize = 0x10;
    /// `RELEASE_ADDR`: bytes from the block's base.
    pub const RELEASE_ADDR: usize = 0x80;
    /// `ARRIVED_MASK`: bytes from the block's base.
    pub const ARRIVED_MASK: usize = 0x100;
    /// `CONTROL`: bytes from the block's base.
    pub const CONTROL: usize = 0x1000;
    /// `STATUS`: bytes from the block's base.
    pub const STATUS: usize = 0x1008;
    /// `ARRIVAL`: bytes from the block's base.
    pub const ARRIVAL: usize = 0x1010;
    /// `RELEASE_SEQ`: bytes from the block's base.
    pub const RELEASE_SEQ: usize = 0x1018;
}

/// Reset value of each register.
pub mod reset {
    /// `GROUP_ID` after reset.
    ///
    /// Reset: `ID` resets to its element's index (element i reads i); the reset value given has 0 in its bits.
    pub const GROUP_ID: u32 = 0x0;
    /// `MEMBER_COUNT` after reset.
    pub const MEMBER_COUNT: u32 = 0x0;
    /// `ARRIVAL_COUNT` after reset.
    pub const ARRIVAL_COUNT: u32 = 0x0;
    /// `LOCAL_MEMBER_ID` after reset.
    pub const LOCAL_MEMBER_ID: u32 = 0x0;
    /// `MEMBER_MASK` after reset.
    pub const MEMBER_MASK: u64 = 0x0;
    /// `RELEASE_ADDR` after reset.
    pub const RELEASE_ADDR: u64 = 0x0;
    /// `ARRIVED_MASK` after reset.
    pub const ARRIVED_MASK: u64 = 0x0;
    /// `CONTROL` after reset.
    pub const CONTROL: u64 = 0x0;
    /// `STATUS` after reset.
    pub const STATUS: u64 = 0x0;
    /// `ARRIVAL` after reset.
    pub const ARRIVAL: u64 = 0x0;
    /// `RELEASE_SEQ` after reset.
    pub const RELEASE_SEQ: u64 = 0x0;
}

/// Fields of register `GROUP_ID`.
pub mod GROUP_ID {
    crate::common::field_set!(u32, GROUP_ID, [ID]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Equals g for group block g. Bits `[4:0]`, ro.
    pub const ID: Field<u32, Register> = Field::new(0x1f, 0);
    /// `ID` as a type: `ID::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type ID = crate::common::FieldBits<u32, Register, 0x1f, 0>;
}

/// Fields of register `MEMBER_COUNT`.
pub mod MEMBER_COUNT {
    crate::common::field_set!(u32, MEMBER_COUNT, [COUNT]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Member count, 1 to 708. Bits `[9:0]`, rw.
    pub const COUNT: Field<u32, Register> = Field::new(0x3ff, 0);
    /// `COUNT` as a type: `COUNT::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type COUNT = crate::common::FieldBits<u32, Register, 0x3ff, 0>;
}

/// Fields of register `ARRIVAL_COUNT`.
pub mod ARRIVAL_COUNT {
    crate::common::field_set!(u32, ARRIVAL_COUNT, [COUNT]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Arrived members; cleared when the episode completes. Bits `[9:0]`, ro.
    pub const COUNT: Field<u32, Register> = Field::new(0x3ff, 0);
    /// `COUNT` as a type: `COUNT::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type COUNT = crate::common::FieldBits<u32, Register, 0x3ff, 0>;
}

/// Fields of register `LOCAL_MEMBER_ID`.
pub mod LOCAL_MEMBER_ID {
    crate::common::field_set!(u32, LOCAL_MEMBER_ID, [ID]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Member id of this port. Bits `[9:0]`, rw.
    pub const ID: Field<u32, Register> = Field::new(0x3ff, 0);
    /// `ID` as a type: `ID::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type ID = crate::common::FieldBits<u32, Register, 0x3ff, 0>;
}

/// Fields of register `MEMBER_MASK`.
pub mod MEMBER_MASK {
    crate::common::field_set!(u64, MEMBER_MASK, [MEMBERS]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// One bit per member. Bits `[63:0]`, rw.
    pub const MEMBERS: Field<u64, Register> = Field::new(0xffff_ffff_ffff_ffff, 0);
    /// `MEMBERS` as a type: `MEMBERS::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type MEMBERS = crate::common::FieldBits<u64, Register, 0xffff_ffff_ffff_ffff, 0>;
}

/// Fields of register `RELEASE_ADDR`.
pub mod RELEASE_ADDR {
    crate::common::field_set!(u64, RELEASE_ADDR, [ADDR]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// IOVA of the release flag; must be 8-byte aligned. Bits `[63:0]`, rw.
    pub const ADDR: Field<u64, Register> = Field::new(0xffff_ffff_ffff_ffff, 0);
    /// `ADDR` as a type: `ADDR::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type ADDR = crate::common::FieldBits<u64, Register, 0xffff_ffff_ffff_ffff, 0>;
}

/// Fields of register `ARRIVED_MASK`.
pub mod ARRIVED_MASK {
    crate::common::field_set!(u64, ARRIVED_MASK, [MEMBERS]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// One bit per member; cleared when the episode completes. Bits `[63:0]`, ro.
    pub const MEMBERS: Field<u64, Register> = Field::new(0xffff_ffff_ffff_ffff, 0);
    /// `MEMBERS` as a type: `MEMBERS::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type MEMBERS = crate::common::FieldBits<u64, Register, 0xffff_ffff_ffff_ffff, 0>;
}

/// Fields of register `CONTROL`.
pub mod CONTROL {
    crate::common::field_set!(u64, CONTROL, [ENABLE, RESET, ARM]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<3>;

    /// Take part in the group. Bits `[0]`, rw.
    pub const ENABLE: Field<u64, Register> = Field::new(0x1, 0);
    /// `ENABLE` as a type: `ENABLE::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type ENABLE = crate::common::FieldBits<u64, Register, 0x1, 0>;

    /// Writing 1 resets the group's state on this port; self-clearing, reads as 0. Bits `[1]`, rw, singlepulse.
    pub const RESET: Field<u64, Register> = Field::new(0x1, 1);
    /// `RESET` as a type: `RESET::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type RESET = crate::common::FieldBits<u64, Register, 0x1, 1>;

    /// Accept arrivals once the configuration is complete. Bits `[2]`, rw.
    pub const ARM: Field<u64, Register> = Field::new(0x1, 2);
    /// `ARM` as a type: `ARM::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type ARM = crate::common::FieldBits<u64, Register, 0x1, 2>;

    impl crate::common::WriteOneBits<u64> for Register {
        const MASK: u64 = 0x2;

        const ZERO_MASK: u64 = 0x0;
    }
}

/// Fields of register `STATUS`.
pub mod STATUS {
    crate::common::field_set!(u64, STATUS, [READY, ACTIVE, COMPLETE, ERROR, ERROR_CODE]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<4, EnumField<u64, ERROR_CODE::Value>>;

    /// Every member port is configured alike; arrivals are accepted. Bits `[0]`, ro.
    pub const READY: Field<u64, Register> = Field::new(0x1, 0);
    /// `READY` as a type: `READY::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type READY = crate::common::FieldBits<u64, Register, 0x1, 0>;

    /// An episode is pending (at least one member has arrived). Bits `[1]`, ro.
    pub const ACTIVE: Field<u64, Register> = Field::new(0x1, 1);
    /// `ACTIVE` as a type: `ACTIVE::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type ACTIVE = crate::common::FieldBits<u64, Register, 0x1, 1>;

    /// At least one episode has completed. Bits `[2]`, ro.
    pub const COMPLETE: Field<u64, Register> = Field::new(0x1, 2);
    /// `COMPLETE` as a type: `COMPLETE::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type COMPLETE = crate::common::FieldBits<u64, Register, 0x1, 2>;

    /// The group failed; ERROR_CODE says why. Bits `[3]`, ro.
    pub const ERROR: Field<u64, Register> = Field::new(0x1, 3);
    /// `ERROR` as a type: `ERROR::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type ERROR = crate::common::FieldBits<u64, Register, 0x1, 3>;

    /// Why the group failed. Bits `[15:8]`, ro.
    pub const ERROR_CODE: Field<u64, Register> = Field::new(0xff, 8);

    /// Values of field `ERROR_CODE`.
    pub mod ERROR_CODE {
        crate::common::field_values!(u64, 0xff, 8);

        /// No error.
        pub const NONE: FieldValue<u64, Register> = value(0x0);
        /// Member ports disagree on MEMBER_MASK.
        pub const MASK_MISMATCH: FieldValue<u64, Register> = value(0x1);
        /// MEMBER_COUNT differs from the number of bits set in MEMBER_MASK.
        pub const COUNT_MISMATCH: FieldValue<u64, Register> = value(0x2);
        /// LOCAL_MEMBER_ID is not this port, not in MEMBER_MASK, or a reserved mask bit is set.
        pub const BAD_MEMBER: FieldValue<u64, Register> = value(0x3);
        /// An arrival was out of sequence.
        pub const SEQ_ERROR: FieldValue<u64, Register> = value(0x4);
        /// RELEASE_ADDR is unmapped or misaligned.
        pub const DMA_FAULT: FieldValue<u64, Register> = value(0x5);
        /// The group is already enabled by ports whose member set does not include
        /// this port (map 1.1): another job holds it. Agree on another group id and
        /// retry.
        pub const GROUP_BUSY: FieldValue<u64, Register> = value(0x6);

        /// The named values of field `ERROR_CODE`, for `read_as_enum`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u64)]
        pub enum Value {
            /// No error.
            NONE = 0x0,
            /// Member ports disagree on MEMBER_MASK.
            MASK_MISMATCH = 0x1,
            /// MEMBER_COUNT differs from the number of bits set in MEMBER_MASK.
            COUNT_MISMATCH = 0x2,
            /// LOCAL_MEMBER_ID is not this port, not in MEMBER_MASK, or a reserved mask bit is set.
            BAD_MEMBER = 0x3,
            /// An arrival was out of sequence.
            SEQ_ERROR = 0x4,
            /// RELEASE_ADDR is unmapped or misaligned.
            DMA_FAULT = 0x5,
            /// The group is already enabled by ports whose member set does not include
            /// this port (map 1.1): another job holds it. Agree on another group id and
            /// retry.
            GROUP_BUSY = 0x6,
        }

        #[cfg(feature = "names")]
        impl Value {
            /// The value's name in the spec.
            pub const fn name(self) -> &'static str {
                match self {
                    Self::NONE => "NONE",
                    Self::MASK_MISMATCH => "MASK_MISMATCH",
                    Self::COUNT_MISMATCH => "COUNT_MISMATCH",
                    Self::BAD_MEMBER => "BAD_MEMBER",
                    Self::SEQ_ERROR => "SEQ_ERROR",
                    Self::DMA_FAULT => "DMA_FAULT",
                    Self::GROUP_BUSY => "GROUP_BUSY",
                }
            }

            /// The value's description in the spec, on one line.
            pub const fn description(self) -> &'static str {
                match self {
                    Self::NONE => "No error.",
                    Self::MASK_MISMATCH => "Member ports disagree on MEMBER_MASK.",
                    Self::COUNT_MISMATCH => {
                        "MEMBER_COUNT differs from the number of bits set in MEMBER_MASK."
                    }
                    Self::BAD_MEMBER => {
                        "LOCAL_MEMBER_ID is not this port, not in MEMBER_MASK, or a reserved mask bit is set."
                    }
                    Self::SEQ_ERROR => "An arrival was out of sequence.",
                    Self::DMA_FAULT => "RELEASE_ADDR is unmapped or misaligned.",
                    Self::GROUP_BUSY => {
                        "The group is already enabled by ports whose member set does not include this port (map 1.1): another job holds it. Agree on another group id and retry."
                    }
                }
            }
        }

        crate::common::enum_try_from!(
            u64, [NONE, MASK_MISMATCH, COUNT_MISMATCH, BAD_MEMBER, SEQ_ERROR, DMA_FAULT,
            GROUP_BUSY]
        );
    }
}

/// Fields of register `ARRIVAL`.
pub mod ARRIVAL {
    crate::common::field_set!(u64, ARRIVAL, [SEQUENCE, MEMBER_ID]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<2>;

    /// The episode number modulo 2^32; must be RELEASE_SEQ + 1. Bits `[31:0]`, wo.
    pub const SEQUENCE: Field<u64, Register> = Field::new(0xffff_ffff, 0);
    /// `SEQUENCE` as a type: `SEQUENCE::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type SEQUENCE = crate::common::FieldBits<u64, Register, 0xffff_ffff, 0>;

    /// The arriving member's id. Bits `[63:32]`, wo.
    pub const MEMBER_ID: Field<u64, Register> = Field::new(0xffff_ffff, 32);
    /// `MEMBER_ID` as a type: `MEMBER_ID::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type MEMBER_ID = crate::common::FieldBits<u64, Register, 0xffff_ffff, 32>;
}

/// Fields of register `RELEASE_SEQ`.
pub mod RELEASE_SEQ {
    crate::common::field_set!(u64, RELEASE_SEQ, [SEQUENCE]);
    #[cfg(feature = "debug")]
    type DebugEnums = RawFields<1>;

    /// Episode number modulo 2^32; compare in serial-number arithmetic. Bits `[31:0]`, ro.
    pub const SEQUENCE: Field<u64, Register> = Field::new(0xffff_ffff, 0);
    /// `SEQUENCE` as a type: `SEQUENCE::SET` (every bit of the field 1) and `::CLEAR` (0), to write or compare.
    pub type SEQUENCE = crate::common::FieldBits<u64, Register, 0xffff_ffff, 0>;
}
