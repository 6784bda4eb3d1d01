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
//!
//! [`RwW1`] registers hold write-1-to-clear or write-1-to-set bits. Writing back what was read
//! would clear pending events or re-trigger actions, so they do not implement [`Writeable`]
//! (which would give them tock-registers' blanket `modify`); they have inherent `set`, `write`
//! and `modify` instead, and their `modify` writes 0 into every write-1 bit that the given
//! field value does not set.

use core::fmt;
use core::marker::PhantomData;

use core::convert::Infallible;

use tock_registers::debug::{FieldValueEnumCons, FieldValueEnumNil, FieldValueEnumSeq};
use tock_registers::fields::FieldValue;
use tock_registers::interfaces::{Readable, Writeable};
use tock_registers::{LocalRegisterCopy, RegisterLongName, UIntLike};

mod sealed {
    pub trait Sealed {}
}

/// An access mode; implemented by [`Ro`], [`Wo`], [`Rw`] and [`RwW1`] only.
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

// Field definitions. The generated code writes out, per field set, what tock-registers'
// `register_bitfields!` would expand to, minus what costs build time without serving users:
// fields without enumerated values get no module, enum or `TryFromValue` of their own. What
// every field set needs alike is defined here once, or in the macros below.

/// `SET` and `CLEAR` of every field without enumerated values. The generated code names the
/// field's bits in a type alias beside the field constant of the same name,
/// `pub type ENABLE = FieldBits<u64, Register, 0x1, 0>;`, so that `CONTROL::ENABLE::SET`
/// (through the alias) and `CONTROL::ENABLE.val(1)` (through the constant) both work.
/// `MASK` is the field's value mask (`width` ones) and `SHIFT` its lowest bit.
pub struct FieldBits<T, R, const MASK: u64, const SHIFT: usize>(PhantomData<(T, R)>);

macro_rules! field_bits {
    ($($t:ty),*) => {$(
        impl<R: RegisterLongName, const MASK: u64, const SHIFT: usize>
            FieldBits<$t, R, MASK, SHIFT>
        {
            /// All ones.
            pub const SET: FieldValue<$t, R> =
                FieldValue::<$t, R>::new(MASK as $t, SHIFT, MASK as $t);
            /// Zero.
            pub const CLEAR: FieldValue<$t, R> = FieldValue::<$t, R>::new(MASK as $t, SHIFT, 0);
        }
    )*};
}

field_bits!(u8, u16, u32, u64);

impl<T, R, const MASK: u64, const SHIFT: usize> fmt::Debug for FieldBits<T, R, MASK, SHIFT> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FieldBits({MASK:#x} << {SHIFT})")
    }
}

/// `N` fields without enumerated values, then the fields of `Tail`: links of the type-level
/// list that tock-registers' `RegisterDebugInfo::FieldValueEnumTypes` is. `debug()` prints
/// these fields as numbers. One link for a run of fields keeps the list short (most field
/// sets are one run), where `register_bitfields!` gives every field a link and an empty enum.
pub enum RawFields<const N: usize, Tail = FieldValueEnumNil> {
    #[doc(hidden)]
    _Never(Infallible, PhantomData<Tail>),
}

impl<U: UIntLike, const N: usize, Tail: FieldValueEnumSeq<U>> FieldValueEnumSeq<U>
    for RawFields<N, Tail>
{
    fn recurse_try_from_value(data: &mut impl FnMut() -> U, f: &mut impl FnMut(&dyn fmt::Debug)) {
        for _ in 0..N {
            let value = data();
            f(&value);
        }
        Tail::recurse_try_from_value(data, f)
    }
}

impl<const N: usize, Tail> fmt::Debug for RawFields<N, Tail> {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawFields::_Never(never, _) => match *never {},
        }
    }
}

/// A field with enumerated values `E`, then the fields of `Tail`: tock-registers'
/// `FieldValueEnumCons` under a shorter name, with the end of the list as default tail.
pub type EnumField<T, E, Tail = FieldValueEnumNil> = FieldValueEnumCons<T, E, Tail>;

/// The head of a field-set module: `use`s of `Field`, [`EnumField`] and [`RawFields`],
/// `pub struct Register` (the `RegisterLongName` that the register handle and every field value
/// carry) and, with the crate feature `debug`, tock-registers' `RegisterDebugInfo` (what
/// `Readable::debug` prints; it costs a fifth of a large crate's build time, so it is opt-in).
/// `field_set!(u32, CTRL, [EN, MODE, BUSY]);` lists the fields in order; the module defines
/// `type DebugEnums`, the list of the fields' enums, such as
/// `RawFields<1, EnumField<u32, MODE::Value, RawFields<1>>>`.
macro_rules! field_set {
    ($t:ty, $name:ident, [$($field:ident),* $(,)?]) => {
        use tock_registers::fields::Field;

        #[cfg(feature = "debug")]
        #[allow(unused_imports)]
        use crate::common::{EnumField, RawFields};

        /// Names the field set: the register handle and every field value carry it. A
        /// marker, never a value: no `Debug` (deriving it for every field set cost 5% of a
        /// large crate's build).
        #[derive(Clone, Copy)]
        #[allow(missing_debug_implementations)]
        pub struct Register;

        impl tock_registers::RegisterLongName for Register {}

        #[cfg(feature = "debug")]
        impl tock_registers::debug::RegisterDebugInfo<$t> for Register {
            type FieldValueEnumTypes = DebugEnums;

            fn name() -> &'static str {
                stringify!($name)
            }

            fn field_names() -> &'static [&'static str] {
                &[$(stringify!($field)),*]
            }

            fn fields() -> &'static [Field<$t, Self>] {
                &[$($field),*]
            }
        }
    };
}

/// What the module of a field with enumerated values holds besides its values and its
/// `Value` enum: `use`s of `FieldValue` and the field set's `Register`, `SET`, `CLEAR`,
/// `Value: Into<FieldValue>`, and `value(v)`, the private `const fn` that places `v` in the
/// field's bits. `field_values!(u32, 0x3, 28);` for a 2-bit field at bit 28.
macro_rules! field_values {
    ($t:ty, $mask:literal, $shift:literal) => {
        use tock_registers::fields::FieldValue;

        use super::Register;

        /// All ones.
        pub const SET: FieldValue<$t, Register> = value($mask);

        /// Zero.
        pub const CLEAR: FieldValue<$t, Register> = value(0);

        // `Into`, not `From`: coherence compares every `From` impl for `FieldValue` with
        // every other (hundreds in a large crate, quadratic), but `Into` impls only with those
        // for the same enum.
        #[allow(clippy::from_over_into)]
        impl Into<FieldValue<$t, Register>> for Value {
            #[inline]
            fn into(self) -> FieldValue<$t, Register> {
                value(self as $t)
            }
        }

        /// `value` in the field's bits.
        const fn value(value: $t) -> FieldValue<$t, Register> {
            FieldValue::<$t, Register>::new($mask, $shift, value)
        }
    };
}

/// tock-registers' `TryFromValue` for the `Value` enum of the module it is invoked in, which
/// `read_as_enum` needs: `enum_try_from!(u32, [IDLE, BUSY]);` lists the variants.
macro_rules! enum_try_from {
    ($t:ty, [$($variant:ident),* $(,)?]) => {
        impl tock_registers::fields::TryFromValue<$t> for Value {
            type EnumType = Value;

            #[inline]
            fn try_from_value(value: $t) -> Option<Value> {
                $(
                    if value == Value::$variant as $t {
                        return Some(Value::$variant);
                    }
                )*
                None
            }
        }
    };
}

pub(crate) use {enum_try_from, field_set, field_values};
