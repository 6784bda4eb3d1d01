// Generated from gba.yaml by `gba gen` (gba-codegen 0.1.0).
// Do not edit: change gba.yaml and run `gba gen` again.

//! Register handles: small `Copy` values that hold a raw pointer to one register and reach it
//! only through volatile reads and writes of the register's full width.
//!
//! Two invariants hold for every handle and every method:
//! - no `&` or `&mut` reference to device memory is ever created (a reference tells the
//!   compiler the memory is ordinary, which lets it invent, merge or drop accesses);
//! - every access is exactly one volatile read or write.
//!
//! Handles implement tock-registers' [`Readable`] and [`Writeable`] traits, so its field
//! vocabulary works on them: `read(F)`, `read_as_enum(F)`, `is_set(F)`, `write(F::X::SET +
//! F::Y.val(3))`, `modify(..)`, `extract()` into a [`LocalRegisterCopy`]. Bring the traits into
//! scope with `use tock_registers::interfaces::{Readable, Writeable, ReadWriteable};`.
//!
//! Access modes are types, so misuse does not compile:
//!
//! | mode | reads | writes | `modify` |
//! | --- | --- | --- | --- |
//! | [`Ro`] | yes | no | no |
//! | [`Wo`] | no | yes | no |
//! | [`Rw`] | yes | yes | tock-registers' read-modify-write |
//! | [`RwW1`] | yes | yes | inherent, never writes back a 1 into write-1 bits |
//! | [`RoRc`] | only `read_and_clear` | no | no |
//! | [`RwRc`] | only `read_and_clear` | yes | no |
//!
//! [`RwW1`] registers hold write-1-to-clear or write-1-to-set bits. Writing back what was read
//! would clear pending events or re-trigger actions, so they do not implement [`Writeable`]
//! (which would give them tock-registers' blanket `modify`); they have inherent `set`, `write`
//! and `modify` instead, and their `modify` writes 0 into every write-1 bit that the given
//! field value does not set.
//!
//! [`RoRc`] and [`RwRc`] registers hold read-to-clear fields: every read changes the device.
//! They do not implement [`Readable`] (so neither `read(F)` nor `modify`, whose read would
//! clear them, nor a debugger-style print can clear by accident); their one read is
//! [`Reg::read_and_clear`], which returns the value as a [`LocalRegisterCopy`] to inspect.

use core::fmt;
use core::marker::PhantomData;

use tock_registers::fields::FieldValue;
use tock_registers::interfaces::{Readable, Writeable};
use tock_registers::{LocalRegisterCopy, RegisterLongName, UIntLike};

mod sealed {
    pub trait Sealed {}
}

/// An access mode; implemented by [`Ro`], [`Wo`], [`Rw`], [`RwW1`], [`RoRc`] and [`RwRc`]
/// only.
pub trait Access: sealed::Sealed {}
/// Access modes that allow reading.
pub trait CanRead: Access {}
/// Access modes that allow plain writes (and, with [`CanRead`], tock-registers' `modify`).
pub trait CanWrite: Access {}

/// Read-only register.
#[derive(Clone, Copy, Debug)]
pub enum Ro {}
/// Write-only register.
#[derive(Clone, Copy, Debug)]
pub enum Wo {}
/// Read-write register without write side effects.
#[derive(Clone, Copy, Debug)]
pub enum Rw {}
/// Read-write register with write-1-to-clear or write-1-to-set bits.
#[derive(Clone, Copy, Debug)]
pub enum RwW1 {}

impl sealed::Sealed for Ro {}
impl sealed::Sealed for Wo {}
impl sealed::Sealed for Rw {}
impl sealed::Sealed for RwW1 {}
impl Access for Ro {}
impl Access for Wo {}
impl Access for Rw {}
impl Access for RwW1 {}
impl CanRead for Ro {}
impl CanRead for Rw {}
impl CanRead for RwW1 {}
impl CanWrite for Wo {}
impl CanWrite for Rw {}

/// Read-only register whose reads clear fields (read-to-clear).
#[derive(Clone, Copy, Debug)]
pub enum RoRc {}
/// Read-write register whose reads clear fields (read-to-clear).
#[derive(Clone, Copy, Debug)]
pub enum RwRc {}

/// Access modes whose every read clears the read-to-clear fields: they read only through
/// [`Reg::read_and_clear`].
pub trait ReadClears: Access {}

impl sealed::Sealed for RoRc {}
impl sealed::Sealed for RwRc {}
impl Access for RoRc {}
impl Access for RwRc {}
impl ReadClears for RoRc {}
impl ReadClears for RwRc {}
impl CanWrite for RwRc {}

/// The write-1 bits of a register with [`RwW1`] access, implemented by the generated code on
/// the register's tock-registers name type.
pub trait WriteOneBits<T: UIntLike>: RegisterLongName {
    /// Bits where writing 1 clears or triggers something; `modify` writes them as 0 unless
    /// the field value being written sets them.
    const MASK: T;
}

/// One register of type `T` (u8..u64), with fields `R` and access mode `A`.
pub struct Reg<T, R, A> {
    ptr: *mut T,
    _marker: PhantomData<(R, A)>,
}

impl<T, R, A: Access> Reg<T, R, A> {
    /// A handle on the register at `ptr`.
    ///
    /// # Safety
    ///
    /// For as long as this handle or any copy of it is used:
    /// - `ptr` is aligned for `T` and valid for volatile reads (if `A` reads) and volatile
    ///   writes (if `A` writes) of one `T`;
    /// - no Rust reference to that memory exists;
    /// - if copies are used from several threads at once, the memory is one where concurrent
    ///   accesses are defined (device registers, or memory only ever accessed volatilely or
    ///   atomically by all parties), because the handle does not synchronise.
    #[inline(always)]
    pub const unsafe fn from_ptr(ptr: *mut T) -> Self {
        Reg {
            ptr,
            _marker: PhantomData,
        }
    }

    /// The register's address.
    #[inline(always)]
    pub const fn as_ptr(self) -> *mut T {
        self.ptr
    }
}

impl<T, R, A> Clone for Reg<T, R, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, R, A> Copy for Reg<T, R, A> {}

impl<T, R, A> fmt::Debug for Reg<T, R, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Reg").field(&self.ptr).finish()
    }
}

// SAFETY: a handle is an address; `from_ptr`'s contract makes whoever created it responsible
// for concurrent use being defined, so moving a copy to another thread adds no new hazard.
unsafe impl<T, R, A> Send for Reg<T, R, A> {}
// SAFETY: as for `Send`: sharing a handle is sharing an address, and every use of it goes
// through `from_ptr`'s contract.
unsafe impl<T, R, A> Sync for Reg<T, R, A> {}

impl<T: UIntLike, R: RegisterLongName, A: CanRead> Readable for Reg<T, R, A> {
    type T = T;
    type R = R;

    #[inline(always)]
    fn get(&self) -> T {
        // SAFETY: `from_ptr`'s contract: aligned, valid for volatile reads since `A` reads,
        // and never referenced.
        unsafe { self.ptr.read_volatile() }
    }
}

impl<T: UIntLike, R: RegisterLongName, A: CanWrite> Writeable for Reg<T, R, A> {
    type T = T;
    type R = R;

    #[inline(always)]
    fn set(&self, value: T) {
        // SAFETY: `from_ptr`'s contract: aligned, valid for volatile writes since `A` writes,
        // and never referenced.
        unsafe { self.ptr.write_volatile(value) }
    }
}

impl<T: UIntLike, R: WriteOneBits<T>> Reg<T, R, RwW1> {
    /// Writes the raw value, write-1 bits included: a 1 there clears or triggers.
    #[inline(always)]
    pub fn set(self, value: T) {
        // SAFETY: `from_ptr`'s contract: aligned, valid for volatile writes since `RwW1`
        // writes, and never referenced.
        unsafe { self.ptr.write_volatile(value) }
    }

    /// Writes the given fields and zero everywhere else.
    #[inline(always)]
    pub fn write(self, field: FieldValue<T, R>) {
        self.set(field.value);
    }

    /// Read-modify-write of the given fields. Write-1 bits are written as 0 unless `field`
    /// sets them, so pending write-1-to-clear events are not cleared and write-1-to-set
    /// actions are not re-triggered by the write-back.
    #[inline(always)]
    pub fn modify(self, field: FieldValue<T, R>) {
        let current = self.get();
        self.set(field.modify(current & !R::MASK));
    }

    /// As [`modify`](Self::modify), starting from a value read earlier instead of reading.
    #[inline(always)]
    pub fn modify_no_read(self, original: LocalRegisterCopy<T, R>, field: FieldValue<T, R>) {
        self.set(field.modify(original.get() & !R::MASK));
    }
}

impl<T: UIntLike, R: RegisterLongName, A: ReadClears> Reg<T, R, A> {
    /// Reads the register, which clears its read-to-clear fields. The value read is
    /// returned as a local copy: `read(F)`, `is_set(F)` and `read_as_enum(F)` on it touch the
    /// device no more.
    #[inline(always)]
    pub fn read_and_clear(self) -> LocalRegisterCopy<T, R> {
        // SAFETY: `from_ptr`'s contract: aligned, valid for volatile reads since `A` reads
        // (through this method only), and never referenced.
        LocalRegisterCopy::new(unsafe { self.ptr.read_volatile() })
    }
}
