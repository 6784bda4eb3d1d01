// Generated from gba.yaml by `gba gen` (gba-codegen 0.1.0).
// Do not edit: change gba.yaml and run `gba gen` again.

//! Global Barrier Accelerator: a switch that runs barriers in hardware. Members arrive by
//! an MMIO store; when every member of a group has arrived, the switch writes the release
//! sequence into each member's release flag by DMA. All registers are little-endian.
//!
//! One port window per host: a global block followed by 32 group blocks, two 4 KiB pages
//! apart, so that a driver can map only the groups a job owns.
//!
//! Register map version 1.0.
//!
//! The only `unsafe` a user of this crate writes is [`Device::from_ptr`] (or a block's
//! `from_ptr`); everything reached from there is safe, typed by access mode, and never
//! creates a reference to device memory.

#![cfg_attr(rustfmt, rustfmt::skip)]
#![no_std]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

#[rustfmt::skip]
pub mod common;

/// Identity, limits and counters of this port.
#[rustfmt::skip]
pub mod global;

/// One barrier group as seen from this port: its member set, this member's release
/// flag, control and status, and the arrival doorbell.
#[rustfmt::skip]
pub mod group;

/// The tock-registers version these handles implement, re-exported so that users name
/// the same traits (`gba_pac::tock_registers::interfaces::Readable`).
pub use tock_registers;

/// Concurrent barrier groups per switch.
pub const MAX_GROUPS: usize = 32;

/// Members per group (one per switch port).
pub const MAX_MEMBERS: usize = 708;

/// The device's register window: a `Copy` handle holding its base address.
#[derive(Clone, Copy, Debug)]
pub struct Device {
    ptr: *mut u8,
}

// SAFETY: the handle is an address; the contract of `from_ptr` makes its creator answer for use
// from any thread, so moving it adds no hazard.
unsafe impl Send for Device {}

// SAFETY: as for `Send`: sharing the handle shares only an address.
unsafe impl Sync for Device {}

impl Device {
    /// Bytes of the register window, from its base (offset 0, where `from_ptr`'s
    /// pointer points) to the end of the last block instance.
    pub const SIZE: usize = 0x5_0000;

    /// The device whose register window starts at `ptr`.
    ///
    /// # Safety
    ///
    /// For as long as the returned handle, or any block or register handle obtained
    /// from it, is used:
    /// - `ptr` points to a mapping of the whole register window, [`Self::SIZE`] bytes,
    ///   valid for volatile reads and writes;
    /// - `ptr` is aligned to 8 bytes (the widest register), so that every register
    ///   is aligned;
    /// - no Rust reference (`&` or `&mut`) to any byte of the window exists, and the
    ///   window is accessed only through volatile (or atomic) operations;
    /// - if handles are used from several threads or processes at once, the memory is
    ///   one where concurrent accesses are defined: device registers, or shared memory
    ///   that every party accesses only volatilely or atomically.
    #[inline(always)]
    pub const unsafe fn from_ptr(ptr: *mut u8) -> Self {
        Device { ptr }
    }

    /// The base address of the window.
    #[inline(always)]
    pub const fn as_ptr(self) -> *mut u8 {
        self.ptr
    }

    /// Block `global` at 0x0..0x1000.
    #[inline(always)]
    pub const fn global(self) -> global::Global {
        // SAFETY: the block spans 0x0..0x1000, inside the window that the contract of `from_ptr`
        // makes valid; the offset keeps the 8-byte alignment.
        unsafe { global::Global::from_ptr(self.ptr.wrapping_add(0x0)) }
    }

    /// Instances of block `group`.
    pub const GROUP_COUNT: usize = 32;

    /// Instance `index` of block `group`, or `None` when `index >= 32`.
    #[inline(always)]
    pub const fn group(self, index: usize) -> Option<group::Group> {
        if index < Self::GROUP_COUNT {
            // SAFETY: the bound was checked just above.
            Some(unsafe { self.group_unchecked(index) })
        } else {
            None
        }
    }

    /// Instance `index` of block `group`, without the bounds check.
    ///
    /// # Safety
    ///
    /// `index` must be less than [`Self::GROUP_COUNT`].
    #[inline(always)]
    pub const unsafe fn group_unchecked(self, index: usize) -> group::Group {
        // SAFETY: `index < 32` (the promise of the caller), so the instance lies within
        // 0x10000..0x50000, inside the window that the contract of `from_ptr` makes valid; the
        // stride keeps the 8-byte alignment.
        unsafe {
            group::Group::from_ptr(self.ptr.wrapping_add(0x1_0000 + index * 0x2000))
        }
    }
}
