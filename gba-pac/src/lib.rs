// Generated from gba.yaml by `gba gen` (gba-codegen 0.1.0).
// Do not edit: change gba.yaml and run `gba gen` again.

//! Global Barrier Accelerator: a switch that runs barriers in hardware. Members arrive by
//! an MMIO store; when every member of a group has arrived, the switch writes the release
//! sequence into each member's release flag by DMA. All registers are little-endian.
//!
//! One port window per host: a global block followed by 32 group blocks, two 4 KiB pages
//! apart, so that a driver can map only the groups a job owns.
//!
//! Register map version 1.1.
//!
//! The only `unsafe` a user of this crate writes is [`Device::from_ptr`] (or a block's
//! `from_ptr`); everything reached from there is safe, typed by access mode, and never
//! creates a reference to device memory.

#![cfg_attr(rustfmt, rustfmt::skip)]
#![no_std]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

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
///
/// `_M` is how its registers are reached: [`Volatile`](common::Volatile) for device
/// memory (the default, [`Device::from_ptr`]), [`Atomic`](common::Atomic) for a
/// window in memory shared with other threads or processes
/// ([`Device::from_shared_ptr`]), [`OnBus`](common::OnBus) for a device reached by
/// transactions that may fail ([`Device::on_bus`]).
#[derive(Clone, Copy, Debug)]
pub struct Device<_M = crate::common::Volatile> {
    ptr: *mut u8,
    io: _M,
}

// SAFETY: an address and the mechanism `_M`, which is `Send` itself; `from_ptr`/`from_shared_ptr`
// make every access race-free.
unsafe impl<_M: ::core::marker::Send> ::core::marker::Send for Device<_M> {}

// SAFETY: as for `Send`: sharing the handle shares an address and a `Sync` mechanism.
unsafe impl<_M: ::core::marker::Sync> ::core::marker::Sync for Device<_M> {}

impl Device {
    /// Bytes of the register window, from its base (offset 0, where `from_ptr`'s
    /// pointer points) to the end of the last block instance.
    pub const SIZE: usize = 0x5_0000;
    /// Instances of block `group`.
    pub const GROUP_COUNT: usize = 32;

    /// The device whose register window starts at `ptr`, in device memory: every
    /// access is one volatile read or write.
    ///
    /// # Safety
    ///
    /// For as long as the returned handle, or any block or register handle obtained
    /// from it, is used:
    /// - `ptr` points to a mapping of the whole register window, [`Self::SIZE`] bytes,
    ///   valid for reads and writes;
    /// - `ptr` is aligned to 8 bytes (the widest register), so that every register
    ///   is aligned;
    /// - no Rust reference (`&` or `&mut`) to any byte of the window exists;
    /// - no other thread of this program accesses the window while these handles do,
    ///   unless it is device memory (whose other party is hardware): concurrent
    ///   volatile accesses to ordinary memory are a data race. For a window in memory
    ///   that other threads or processes also access, use
    ///   [`from_shared_ptr`](Device::from_shared_ptr).
    #[inline(always)]
    pub const unsafe fn from_ptr(ptr: *mut u8) -> Self {
        Device {
            ptr,
            io: crate::common::Volatile,
        }
    }
}

impl Device<crate::common::Atomic> {
    /// The device whose register window starts at `ptr`, in memory shared with other
    /// threads or processes: every access is one atomic load or store.
    ///
    /// # Safety
    ///
    /// For as long as the returned handle, or any block or register handle obtained
    /// from it, is used:
    /// - `ptr` points to a mapping of the whole register window,
    ///   [`Device::SIZE`] bytes, valid for reads and writes;
    /// - `ptr` is aligned to 8 bytes (the widest register), so that every register
    ///   is aligned;
    /// - no Rust reference (`&` or `&mut`) to any byte of the window exists;
    /// - every access to the window, by any thread or process, is atomic (these
    ///   handles with the `Atomic` mechanism, or atomics of the same width at the same
    ///   addresses).
    #[inline(always)]
    pub const unsafe fn from_shared_ptr(ptr: *mut u8) -> Self {
        Device {
            ptr,
            io: crate::common::Atomic,
        }
    }
}

impl<'b, _B: crate::common::Bus + ?Sized> Device<crate::common::OnBus<'b, _B>> {
    /// The device whose register window starts at address `base` of `bus`: every
    /// access is one transaction of `bus` (see [`Bus`](crate::common::Bus)), which may
    /// fail, so the handles' `try_` methods return its error. No `unsafe`: no memory
    /// is touched.
    #[inline(always)]
    pub const fn on_bus(bus: &'b _B, base: u64) -> Self {
        Device {
            ptr: ::core::ptr::null_mut(),
            io: crate::common::OnBus::new(bus, base),
        }
    }
}

impl<_M: crate::common::InMemory> Device<_M> {
    /// The base address of the window in memory (a handle on a bus has none; its
    /// registers have `bus_address`).
    #[inline(always)]
    pub const fn as_ptr(self) -> *mut u8 {
        self.ptr
    }
}

impl<_M: ::core::marker::Copy> Device<_M> {
    /// The same window, for use during `'a` only: every handle reached from the
    /// result carries `'a`, so none can outlive a mapping that ends with `'a`.
    #[inline(always)]
    pub const fn scoped<'a>(self) -> Device<crate::common::Scoped<'a, _M>> {
        Device {
            ptr: self.ptr,
            io: crate::common::Scoped::new(self.io),
        }
    }

    /// Block `global` at 0x0..0x1000.
    #[inline(always)]
    pub const fn global(self) -> global::Global<_M> {
        global::Global {
            ptr: self.ptr.wrapping_add(0x0),
            io: self.io,
        }
    }

    /// Instance `index` of block `group`, or `None` when `index >= 32`.
    #[inline(always)]
    pub const fn group(self, index: usize) -> ::core::option::Option<group::Group<_M>> {
        if index < 32 {
            // SAFETY: the bound was checked just above.
            ::core::option::Option::Some(unsafe { self.group_unchecked(index) })
        } else {
            ::core::option::Option::None
        }
    }

    /// Instance `index` of block `group`, without the bounds check.
    ///
    /// # Safety
    ///
    /// `index` must be less than 32 (`GROUP_COUNT`).
    #[inline(always)]
    pub const unsafe fn group_unchecked(self, index: usize) -> group::Group<_M> {
        group::Group {
            ptr: self.ptr.wrapping_add(0x1_0000 + index * 0x2000),
            io: self.io,
        }
    }
}
