// Generated from gba.yaml by `gba gen` (gba-codegen 0.1.0).
// Do not edit: change gba.yaml and run `gba gen` again.

//! Register handles: small `Copy` values that hold a raw pointer to one register (and their
//! mechanism) and reach it only through single reads and writes of the register's full width.
//!
//! Two invariants hold for every handle and every method:
//! - no `&` or `&mut` reference to the register's memory is ever created (a reference tells
//!   the compiler the memory is ordinary, which lets it invent, merge or drop accesses);
//! - every access is exactly one read or one write, made by the handle's mechanism ([`Io`]).
//!
//! The mechanism is part of the handle's type:
//!
//! | mechanism | each access is | for |
//! | --- | --- | --- |
//! | [`Volatile`] (the default) | one `read_volatile` / `write_volatile` | device memory: the other party is hardware |
//! | [`Atomic`] | one relaxed atomic load / store (`AtomicU32::from_ptr`, …) | memory shared with other threads or processes (a simulated device, a test bench) |
//! | [`Scoped<'a, M>`](Scoped) | `M`'s | handles that the borrow checker keeps within `'a` |
//! | [`OnBus<'b, B>`](OnBus) | one transaction of the [`Bus`] `B`: a read or write of an address and a width, which may fail | a device behind I2C, SPI, JTAG or a debug link; an RTL simulation |
//!
//! Concurrent volatile accesses from two threads of a program are a data race in Rust's
//! memory model, even when every access is volatile; the atomic mechanism is what makes a
//! register window in shared memory sound. Both mechanisms share the field vocabulary and the
//! access-mode typing below, so code written against one compiles against the other.
//!
//! A device that is not memory is reached through a [`Bus`]: implement its two methods (a read
//! and a write of an address and a [`Width`], each returning `Result`) and open the window with
//! `Device::on_bus(&bus, base)`, which needs no `unsafe` (no memory is touched). The handles
//! are the same types, with the same access modes and fields; only the mechanism differs. Each
//! access a handle makes is one call of the bus (a 64-bit register is one 64-bit call; the bus
//! splits it if its wire is narrower).
//!
//! Every mechanism implements [`Io`] for each register width, with the error of a failed
//! access as [`Transport::Error`]: [`Infallible`] for memory, the bus's own error for
//! [`OnBus`]. So every handle also has fallible methods, `try_get`, `try_read(F)`,
//! `try_is_set(F)`, `try_read_as_enum(F)`, `try_extract`, `try_set`, `try_write(..)`,
//! `try_modify(..)`, `try_read_and_clear`, `try_unlocked(lock)`, typed by access mode exactly
//! as the infallible ones. A driver written with them, generic over `M: Io<u32> + Io<u64>`
//! and returning `M::Error`, runs unchanged over memory and over any bus; over memory the
//! error is `Infallible` (`let Ok(value) = reg.try_get();`) and the code is the same as the
//! infallible methods'. The infallible methods (tock-registers' traits, `set_release`, …)
//! exist for every mechanism whose error is `Infallible`.
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
//! | [`RwW1`] | yes | yes | inherent, never re-triggers a write side effect |
//! | [`RoRc`] | only `read_and_clear` | no | no |
//! | [`RwRc`] | only `read_and_clear` | yes | no |
//! | [`Locked<A, ..>`](Locked) | as `A` | only through [`Reg::unlocked`] | as `A`, once unlocked |
//!
//! [`RwW1`] registers hold bits with write side effects: write 1 to clear, set or toggle
//! (`woclr`, `woset`, `wot`), single pulses (`singlepulse`), and write 0 to clear, set or
//! toggle (`wzc`, `wzs`, `wzt`). Writing back what was read would clear pending events or
//! re-trigger actions, so they do not implement [`Writeable`] (which would give them
//! tock-registers' blanket `modify`); they have inherent `set`, `write` and `modify` instead,
//! and their `modify` writes the neutral value into every such bit that the given field value
//! does not set: 0 into write-1 bits and pulses, 1 into write-0 bits.
//!
//! With the cargo feature `device-side`, `Reg::device_side` gives the device's view of a
//! register: read-write whatever the host's access mode, for device models (simulators) that
//! set read-only status registers and consume write-only doorbells. Drivers never need it.
//! [`RoRc`] and [`RwRc`] registers hold read-to-clear or read-to-set fields (`rclr`, `rset`):
//! every read changes the device.
//! They do not implement [`Readable`] (so neither `read(F)` nor `modify`, whose read would
//! clear them, nor a debugger-style print can clear by accident); their one read is
//! [`Reg::read_and_clear`], which returns the value as a [`LocalRegisterCopy`] to inspect.
//!
//! A register whose writes a bit of another register can lock (`locked_by`, `write_enable`:
//! SystemRDL's `swwel`/`swwe`, OpenTitan's `regwen`) has access mode
//! [`Locked<A, L, MASK, LOCKED>`](Locked): it reads as `A` does, but writes only through the
//! handle that [`Reg::unlocked`] returns after reading the lock register `L` and finding it
//! unlocked (or that [`Reg::assume_unlocked`] returns, for code that knows better). A write
//! that the hardware would ignore without a word so needs a decision in the code.

use core::fmt;
use core::marker::PhantomData;

use core::convert::Infallible;

use tock_registers::debug::{FieldValueEnumCons, FieldValueEnumNil, FieldValueEnumSeq};
use tock_registers::fields::{Field, FieldValue, TryFromValue};
use tock_registers::interfaces::{Readable, Writeable};
use tock_registers::{LocalRegisterCopy, RegisterLongName, UIntLike};

mod sealed {
    pub trait Sealed {}
}

/// An access mode; implemented by [`Ro`], [`Wo`], [`Rw`], [`RwW1`], [`RoRc`], [`RwRc`] and
/// [`Locked`] only.
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
/// Read-write register with write side effects (write-1 or write-0 bits, single pulses).
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

/// How a handle's accesses travel, and how one can fail: the part of a mechanism that does
/// not depend on the register's width. Implemented by [`Volatile`], [`Atomic`], [`Scoped`]
/// and [`OnBus`] only.
pub trait Transport: Copy + sealed::Sealed {
    /// Why an access failed: [`Infallible`] for memory, [`Bus::Error`] on a bus.
    type Error;
}

/// The accesses of a mechanism to registers of type `T` (u8..u64), each returning `Result`.
/// Every handle method goes through one of these; a driver generic over the mechanism names
/// it (`M: Io<u32> + Io<u64>`, errors `M::Error`).
///
/// For memory the pointer is the register's address, and the caller promises what the
/// handle's `from_ptr` contract says about it; on a bus it is the register's offset from the
/// window's base, and no promise is needed.
pub trait Io<T>: Transport {
    /// One read of the register at `ptr`.
    ///
    /// # Safety
    ///
    /// For memory: `ptr` is aligned, valid for reads of one `T` by this mechanism, and not
    /// referenced.
    unsafe fn try_load(self, ptr: *mut T) -> Result<T, Self::Error>;

    /// One write of `value` to the register at `ptr`.
    ///
    /// # Safety
    ///
    /// For memory: `ptr` is aligned, valid for writes of one `T` by this mechanism, and not
    /// referenced.
    unsafe fn try_store(self, ptr: *mut T, value: T) -> Result<(), Self::Error>;

    /// As [`try_store`](Self::try_store), after every earlier memory access of this thread
    /// (see [`Mechanism::store_release`]).
    ///
    /// # Safety
    ///
    /// As for [`try_store`](Self::try_store).
    unsafe fn try_store_release(self, ptr: *mut T, value: T) -> Result<(), Self::Error>;

    /// As [`try_load`](Self::try_load), before every later memory access of this thread (see
    /// [`Mechanism::load_acquire`]).
    ///
    /// # Safety
    ///
    /// As for [`try_load`](Self::try_load).
    unsafe fn try_load_acquire(self, ptr: *mut T) -> Result<T, Self::Error>;
}

/// A memory mechanism, [`Volatile`] or [`Atomic`] (or either [`Scoped`]), for values of type
/// `T`: a zero-sized value whose accesses never fail, so they are also functions of the
/// pointer alone.
///
/// # Safety
///
/// Implemented by this module only (the trait is sealed). Each function makes exactly one
/// access of one `T` at `ptr`, and the caller promises what the handle's `from_ptr` contract
/// says about `ptr`.
pub trait Mechanism<T>: Io<T> + Transport<Error = Infallible> {
    /// The mechanism's value, which carries nothing.
    const VALUE: Self;

    /// One read of the value at `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` is aligned, valid for reads of one `T` by this mechanism, and not referenced.
    unsafe fn load(ptr: *mut T) -> T;

    /// One write of `value` at `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` is aligned, valid for writes of one `T` by this mechanism, and not referenced.
    unsafe fn store(ptr: *mut T, value: T);

    /// One write of `value` at `ptr` that the caller's earlier memory accesses happen before:
    /// whoever observes the value (another thread through an acquire load, or the device)
    /// also observes them. This is how a doorbell publishes the data it announces.
    ///
    /// # Safety
    ///
    /// As for [`store`](Self::store).
    unsafe fn store_release(ptr: *mut T, value: T);

    /// One read of the value at `ptr` that the caller's later memory accesses happen after:
    /// what the writer did before its release store of this value is visible to them.
    ///
    /// # Safety
    ///
    /// As for [`load`](Self::load).
    unsafe fn load_acquire(ptr: *mut T) -> T;
}

/// [`Io`] of a memory mechanism: its [`Mechanism`] functions, which cannot fail.
macro_rules! memory_io {
    ($mechanism:ty, $bound:path) => {
        impl<T: $bound> Io<T> for $mechanism {
            #[inline(always)]
            unsafe fn try_load(self, ptr: *mut T) -> Result<T, Infallible> {
                // SAFETY: forwarded from the caller.
                Ok(unsafe { <Self as Mechanism<T>>::load(ptr) })
            }

            #[inline(always)]
            unsafe fn try_store(self, ptr: *mut T, value: T) -> Result<(), Infallible> {
                // SAFETY: forwarded from the caller.
                unsafe { <Self as Mechanism<T>>::store(ptr, value) };
                Ok(())
            }

            #[inline(always)]
            unsafe fn try_store_release(self, ptr: *mut T, value: T) -> Result<(), Infallible> {
                // SAFETY: forwarded from the caller.
                unsafe { <Self as Mechanism<T>>::store_release(ptr, value) };
                Ok(())
            }

            #[inline(always)]
            unsafe fn try_load_acquire(self, ptr: *mut T) -> Result<T, Infallible> {
                // SAFETY: forwarded from the caller.
                Ok(unsafe { <Self as Mechanism<T>>::load_acquire(ptr) })
            }
        }
    };
}

/// Device memory: every access is one `read_volatile` or `write_volatile`. The default.
///
/// Sound when the other party is hardware. Not for memory that another thread or process
/// also touches: concurrent volatile accesses are a data race (use [`Atomic`]).
#[derive(Clone, Copy, Debug)]
pub struct Volatile;

/// Shared memory: every access is one relaxed atomic load or store of the register's width
/// (`AtomicU32::from_ptr` and friends), so several threads or processes may use handles on
/// the same window at once without a data race. [`Reg::get_acquire`] and
/// [`Reg::set_release`] give the stronger orderings a protocol may need.
#[derive(Clone, Copy, Debug)]
pub struct Atomic;

impl sealed::Sealed for Volatile {}
impl sealed::Sealed for Atomic {}

/// A mechanism whose handles point into memory ([`Volatile`], [`Atomic`], either
/// [`Scoped`]), so they have an address (`as_ptr`); a handle [`OnBus`] has a bus address
/// instead. Implemented by this module only.
pub trait InMemory: Transport<Error = Infallible> {}
impl InMemory for Volatile {}
impl InMemory for Atomic {}
impl<M: InMemory> InMemory for Scoped<'_, M> {}
impl Transport for Volatile {
    type Error = Infallible;
}
impl Transport for Atomic {
    type Error = Infallible;
}

impl<T: UIntLike> Mechanism<T> for Volatile {
    const VALUE: Self = Volatile;

    #[inline(always)]
    unsafe fn load(ptr: *mut T) -> T {
        // SAFETY: the caller promises `ptr` is aligned, valid for reads and not referenced.
        unsafe { ptr.read_volatile() }
    }

    #[inline(always)]
    unsafe fn store(ptr: *mut T, value: T) {
        // SAFETY: the caller promises `ptr` is aligned, valid for writes and not referenced.
        unsafe { ptr.write_volatile(value) }
    }

    #[inline(always)]
    unsafe fn store_release(ptr: *mut T, value: T) {
        // A release fence orders the caller's earlier accesses before the volatile store. On
        // x86 it emits no instruction (stores are not reordered with older stores, and an
        // uncached store is not reordered with anything); on weakly ordered machines it is
        // the barrier their memory model asks for. A write-combining mapping additionally
        // needs an `sfence` on x86, which this mechanism does not issue.
        core::sync::atomic::fence(core::sync::atomic::Ordering::Release);
        // SAFETY: the caller promises `ptr` is aligned, valid for writes and not referenced.
        unsafe { ptr.write_volatile(value) }
    }

    #[inline(always)]
    unsafe fn load_acquire(ptr: *mut T) -> T {
        // SAFETY: the caller promises `ptr` is aligned, valid for reads and not referenced.
        let value = unsafe { ptr.read_volatile() };
        // Orders the later accesses after the read (no instruction on x86).
        core::sync::atomic::fence(core::sync::atomic::Ordering::Acquire);
        value
    }
}

memory_io!(Volatile, UIntLike);

/// The atomic type of each register width, for the [`Atomic`] mechanism.
pub trait AtomicWord: UIntLike {
    /// One atomic load at `ptr` with `order`.
    ///
    /// # Safety
    ///
    /// `ptr` is aligned for the atomic type, valid for reads, and every concurrent access to
    /// it is atomic.
    unsafe fn atomic_load(ptr: *mut Self, order: core::sync::atomic::Ordering) -> Self;

    /// One atomic store of `value` at `ptr` with `order`.
    ///
    /// # Safety
    ///
    /// As for [`atomic_load`](Self::atomic_load), valid for writes.
    unsafe fn atomic_store(ptr: *mut Self, value: Self, order: core::sync::atomic::Ordering);
}

macro_rules! atomic_word {
    ($($width:literal: $uint:ty => $atomic:ident),*) => {$(
        #[cfg(target_has_atomic = $width)]
        impl AtomicWord for $uint {
            #[inline(always)]
            unsafe fn atomic_load(ptr: *mut Self, order: core::sync::atomic::Ordering) -> Self {
                // SAFETY: the caller promises alignment (the atomic type has the alignment of
                // the integer on every target with this atomic width), validity, and that
                // every concurrent access is atomic; the reference lives for this one load.
                unsafe { core::sync::atomic::$atomic::from_ptr(ptr) }.load(order)
            }

            #[inline(always)]
            unsafe fn atomic_store(
                ptr: *mut Self,
                value: Self,
                order: core::sync::atomic::Ordering,
            ) {
                // SAFETY: as for `atomic_load`; the `&Atomic*` is a reference to an
                // `UnsafeCell`, which does not claim the memory is ordinary.
                unsafe { core::sync::atomic::$atomic::from_ptr(ptr) }.store(value, order)
            }
        }
    )*};
}

atomic_word!("8": u8 => AtomicU8, "16": u16 => AtomicU16, "32": u32 => AtomicU32, "64": u64 => AtomicU64);

impl<T: AtomicWord> Mechanism<T> for Atomic {
    const VALUE: Self = Atomic;

    #[inline(always)]
    unsafe fn load(ptr: *mut T) -> T {
        // SAFETY: forwarded from the caller, whose handle's contract makes every concurrent
        // access to the window atomic.
        unsafe { T::atomic_load(ptr, core::sync::atomic::Ordering::Relaxed) }
    }

    #[inline(always)]
    unsafe fn store(ptr: *mut T, value: T) {
        // SAFETY: as for `load`.
        unsafe { T::atomic_store(ptr, value, core::sync::atomic::Ordering::Relaxed) }
    }

    #[inline(always)]
    unsafe fn store_release(ptr: *mut T, value: T) {
        // SAFETY: as for `load`.
        unsafe { T::atomic_store(ptr, value, core::sync::atomic::Ordering::Release) }
    }

    #[inline(always)]
    unsafe fn load_acquire(ptr: *mut T) -> T {
        // SAFETY: as for `load`.
        unsafe { T::atomic_load(ptr, core::sync::atomic::Ordering::Acquire) }
    }
}

memory_io!(Atomic, AtomicWord);

/// Mechanism `M`, for handles that may be used only during `'a`: every handle of a
/// `Device<Scoped<'a, M>>` carries `'a` in its type, so the borrow checker keeps it from
/// outliving the mapping it points into. A layer that owns a mapping (a HAL) hands out
/// scoped handles with [`Device::scoped`](crate::Device::scoped), and its users need no
/// `unsafe` and cannot keep a handle past the mapping's end. Accesses are `M`'s.
#[derive(Clone, Copy, Debug)]
pub struct Scoped<'a, M>(M, PhantomData<&'a ()>);

impl<M> Scoped<'_, M> {
    /// `mechanism`, scoped.
    #[inline(always)]
    pub(crate) const fn new(mechanism: M) -> Self {
        Scoped(mechanism, PhantomData)
    }
}

impl<M> sealed::Sealed for Scoped<'_, M> {}

impl<M: Transport> Transport for Scoped<'_, M> {
    type Error = M::Error;
}

impl<T, M: Io<T>> Io<T> for Scoped<'_, M> {
    #[inline(always)]
    unsafe fn try_load(self, ptr: *mut T) -> Result<T, M::Error> {
        // SAFETY: forwarded; the scope only restricts how long the handle is used.
        unsafe { self.0.try_load(ptr) }
    }

    #[inline(always)]
    unsafe fn try_store(self, ptr: *mut T, value: T) -> Result<(), M::Error> {
        // SAFETY: as for `try_load`.
        unsafe { self.0.try_store(ptr, value) }
    }

    #[inline(always)]
    unsafe fn try_store_release(self, ptr: *mut T, value: T) -> Result<(), M::Error> {
        // SAFETY: as for `try_load`.
        unsafe { self.0.try_store_release(ptr, value) }
    }

    #[inline(always)]
    unsafe fn try_load_acquire(self, ptr: *mut T) -> Result<T, M::Error> {
        // SAFETY: as for `try_load`.
        unsafe { self.0.try_load_acquire(ptr) }
    }
}

impl<T, M: Mechanism<T>> Mechanism<T> for Scoped<'_, M> {
    const VALUE: Self = Scoped(M::VALUE, PhantomData);

    #[inline(always)]
    unsafe fn load(ptr: *mut T) -> T {
        // SAFETY: forwarded; the scope only restricts how long the handle is used.
        unsafe { M::load(ptr) }
    }

    #[inline(always)]
    unsafe fn store(ptr: *mut T, value: T) {
        // SAFETY: as for `load`.
        unsafe { M::store(ptr, value) }
    }

    #[inline(always)]
    unsafe fn store_release(ptr: *mut T, value: T) {
        // SAFETY: as for `load`.
        unsafe { M::store_release(ptr, value) }
    }

    #[inline(always)]
    unsafe fn load_acquire(ptr: *mut T) -> T {
        // SAFETY: as for `load`.
        unsafe { M::load_acquire(ptr) }
    }
}

/// A transaction interface to a device: a read or a write of an address and a width, either
/// of which may fail. Implement it for whatever reaches the device (an I2C, SPI or JTAG
/// adapter, a remote debug link, an RTL simulator) and open the register window on it with
/// `Device::on_bus(&bus, base)`; every access of a handle is then one call of this trait.
///
/// The methods take `&self`, because handles are `Copy` values that all share one bus: a
/// transport that needs `&mut` keeps its state in a `RefCell` (one thread) or a `Mutex`.
/// A call returns when the transaction is complete, so transactions happen in call order.
/// Handles on a bus are `Send` and `Sync` only when the bus is `Sync`.
pub trait Bus {
    /// Why a transaction failed (a NACK, a timeout, a broken link); returned unchanged by
    /// every `try_` method of the handles.
    type Error;

    /// Reads `width` bits at `address` (aligned to the width). Bits of the result above
    /// `width` are ignored.
    fn read(&self, address: u64, width: Width) -> Result<u64, Self::Error>;

    /// Writes the low `width` bits of `value` at `address` (aligned to the width); the bits
    /// above `width` are zero.
    fn write(&self, address: u64, width: Width, value: u64) -> Result<(), Self::Error>;
}

/// The width of one bus transaction: the register's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// A `u8` register.
    Bits8,
    /// A `u16` register.
    Bits16,
    /// A `u32` register.
    Bits32,
    /// A `u64` register.
    Bits64,
}

impl Width {
    /// 8, 16, 32 or 64.
    #[inline]
    pub const fn bits(self) -> u32 {
        match self {
            Width::Bits8 => 8,
            Width::Bits16 => 16,
            Width::Bits32 => 32,
            Width::Bits64 => 64,
        }
    }

    /// 1, 2, 4 or 8.
    #[inline]
    pub const fn bytes(self) -> u64 {
        self.bits() as u64 / 8
    }
}

/// A register value type as a bus carries it: its [`Width`], and its value in a `u64`.
/// Implemented for `u8`, `u16`, `u32` and `u64` only.
pub trait BusWord: UIntLike + sealed::Sealed {
    /// The width of a transaction of this type.
    const WIDTH: Width;

    /// The value, zero-extended.
    fn to_bus(self) -> u64;

    /// The low bits of what the bus read.
    fn from_bus(value: u64) -> Self;
}

macro_rules! bus_word {
    ($($uint:ty => $width:ident),*) => {$(
        impl sealed::Sealed for $uint {}

        impl BusWord for $uint {
            const WIDTH: Width = Width::$width;

            #[inline(always)]
            fn to_bus(self) -> u64 {
                u64::from(self)
            }

            #[inline(always)]
            fn from_bus(value: u64) -> Self {
                // Truncation is the contract: the bits above the width are ignored.
                value as $uint
            }
        }
    )*};
}

bus_word!(u8 => Bits8, u16 => Bits16, u32 => Bits32, u64 => Bits64);

/// Every access is one transaction of the bus `B`, at the window's base plus the register's
/// offset. Handles on a bus are opened with `Device::on_bus(&bus, base)` (or a block's
/// `on_bus`) and borrow the bus for `'b`.
pub struct OnBus<'b, B: ?Sized> {
    bus: &'b B,
    base: u64,
}

impl<'b, B: ?Sized> OnBus<'b, B> {
    /// The window at `base` on `bus`.
    #[inline(always)]
    pub(crate) const fn new(bus: &'b B, base: u64) -> Self {
        OnBus { bus, base }
    }

    /// The bus address of the register whose offset in the window `ptr` holds.
    #[inline(always)]
    pub(crate) fn address<T>(self, ptr: *mut T) -> u64 {
        self.base.wrapping_add(ptr.addr() as u64)
    }
}

impl<B: ?Sized> Clone for OnBus<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: ?Sized> Copy for OnBus<'_, B> {}

impl<B: ?Sized> fmt::Debug for OnBus<'_, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnBus")
            .field("base", &format_args!("{:#x}", self.base))
            .finish_non_exhaustive()
    }
}

impl<B: ?Sized> sealed::Sealed for OnBus<'_, B> {}

impl<B: Bus + ?Sized> Transport for OnBus<'_, B> {
    type Error = B::Error;
}

impl<T: BusWord, B: Bus + ?Sized> Io<T> for OnBus<'_, B> {
    #[inline]
    unsafe fn try_load(self, ptr: *mut T) -> Result<T, B::Error> {
        self.bus.read(self.address(ptr), T::WIDTH).map(T::from_bus)
    }

    #[inline]
    unsafe fn try_store(self, ptr: *mut T, value: T) -> Result<(), B::Error> {
        self.bus.write(self.address(ptr), T::WIDTH, value.to_bus())
    }

    #[inline]
    unsafe fn try_store_release(self, ptr: *mut T, value: T) -> Result<(), B::Error> {
        // The bus orders its own transactions (each call completes before it returns); the
        // fence orders this thread's earlier memory accesses, which the write may announce.
        core::sync::atomic::fence(core::sync::atomic::Ordering::Release);
        // SAFETY: no requirement on a bus.
        unsafe { self.try_store(ptr, value) }
    }

    #[inline]
    unsafe fn try_load_acquire(self, ptr: *mut T) -> Result<T, B::Error> {
        // SAFETY: no requirement on a bus.
        let value = unsafe { self.try_load(ptr) };
        core::sync::atomic::fence(core::sync::atomic::Ordering::Acquire);
        value
    }
}

/// Read-only register whose reads clear fields (read-to-clear).
#[derive(Clone, Copy, Debug)]
pub enum RoRc {}
/// Read-write register whose reads clear fields (read-to-clear).
#[derive(Clone, Copy, Debug)]
pub enum RwRc {}

/// Access modes whose every read changes the read-to-clear (or read-to-set) fields: they read
/// only through [`Reg::read_and_clear`].
pub trait ReadClears: Access {}

impl sealed::Sealed for RoRc {}
impl sealed::Sealed for RwRc {}
impl Access for RoRc {}
impl Access for RwRc {}
impl ReadClears for RoRc {}
impl ReadClears for RwRc {}
impl CanWrite for RwRc {}

/// The write side-effect bits of a register with [`RwW1`] access, implemented by the
/// generated code on the register's tock-registers name type.
pub trait WriteOneBits<T: UIntLike>: RegisterLongName {
    /// Bits where writing 1 clears, sets, toggles or pulses; `modify` writes them as 0 unless
    /// the field value being written sets them.
    const MASK: T;
    /// Bits where writing 0 clears, sets or toggles; `modify` writes them as 1 unless the
    /// field value being written sets them.
    const ZERO_MASK: T;
}

/// The access mode of a register whose writes are ignored while bits `MASK` of register `L`
/// (the lock register's field set) read `LOCKED` (`MASK` for `locked_by`, 0 for
/// `write_enable`). Reads are `A`'s; writes need [`Reg::unlocked`].
pub struct Locked<A, L, const MASK: u64, const LOCKED: u64>(Infallible, PhantomData<(A, L)>);

impl<A, L, const MASK: u64, const LOCKED: u64> fmt::Debug for Locked<A, L, MASK, LOCKED> {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {}
    }
}

impl<A, L, const MASK: u64, const LOCKED: u64> sealed::Sealed for Locked<A, L, MASK, LOCKED> {}
impl<A: Access, L, const MASK: u64, const LOCKED: u64> Access for Locked<A, L, MASK, LOCKED> {}
impl<A: CanRead, L, const MASK: u64, const LOCKED: u64> CanRead for Locked<A, L, MASK, LOCKED> {}
impl<A: ReadClears, L, const MASK: u64, const LOCKED: u64> ReadClears
    for Locked<A, L, MASK, LOCKED>
{
}

impl<T, R, A: Access, L: RegisterLongName, const MASK: u64, const LOCKED: u64, M: Copy>
    Reg<T, R, Locked<A, L, MASK, LOCKED>, M>
{
    /// Reads the lock register and returns the writable handle if it does not lock this
    /// register now; `None` while it does (a write would be ignored). Another agent may set
    /// the lock between this read and a write through the handle, and the device then ignores
    /// the write: locks are meant to be set once (by boot code, before drivers run), not raced.
    #[inline(always)]
    pub fn unlocked<LT, LA, LM>(self, lock: Reg<LT, L, LA, LM>) -> Option<Reg<T, R, A, M>>
    where
        LT: UIntLike + Into<u64>,
        LA: CanRead,
        LM: Io<LT, Error = Infallible>,
    {
        let Ok(unlocked) = self.try_unlocked(lock);
        unlocked
    }

    /// As [`unlocked`](Self::unlocked), for a lock register whose read may fail (on a bus).
    #[inline(always)]
    #[allow(clippy::type_complexity)] // the writable handle, or none, or the read's error
    pub fn try_unlocked<LT, LA, LM>(
        self,
        lock: Reg<LT, L, LA, LM>,
    ) -> Result<Option<Reg<T, R, A, M>>, LM::Error>
    where
        LT: UIntLike + Into<u64>,
        LA: CanRead,
        LM: Io<LT>,
    {
        let bits: u64 = lock.try_get()?.into() & MASK;
        Ok((bits != LOCKED).then_some(self.assume_unlocked()))
    }

    /// The writable handle, without reading the lock: for code that set the lock itself,
    /// or that reads it otherwise. A write while the register is locked is ignored by the
    /// device.
    #[inline(always)]
    pub const fn assume_unlocked(self) -> Reg<T, R, A, M> {
        Reg {
            ptr: self.ptr,
            io: self.io,
            _marker: PhantomData,
        }
    }
}

/// One register of type `T` (u8..u64), with fields `R`, access mode `A`, reached through
/// mechanism `M` ([`Volatile`] unless the window is shared memory or behind a bus).
pub struct Reg<T, R, A, M = Volatile> {
    /// The register's address in memory; on a bus, its offset from the window's base.
    ptr: *mut T,
    /// Zero-sized for memory; the bus and the window's base for [`OnBus`].
    io: M,
    _marker: PhantomData<(R, A)>,
}

impl<T, R, A: Access, M: Mechanism<T>> Reg<T, R, A, M> {
    /// A handle on the register at `ptr`.
    ///
    /// # Safety
    ///
    /// For as long as this handle or any copy of it is used:
    /// - `ptr` is aligned for `T` and valid for reads (if `A` reads) and writes (if `A`
    ///   writes) of one `T`;
    /// - no Rust reference to that memory exists;
    /// - with [`Volatile`], no other thread of this program accesses the memory while the
    ///   handle does (device registers, whose other party is hardware, are fine): concurrent
    ///   volatile accesses are a data race. With [`Atomic`], every access to the memory by any
    ///   thread or process is atomic.
    #[inline(always)]
    pub const unsafe fn from_ptr(ptr: *mut T) -> Self {
        Reg {
            ptr,
            io: M::VALUE,
            _marker: PhantomData,
        }
    }
}

impl<T, R, A: Access, M: Copy> Reg<T, R, A, M> {
    /// The handle at `ptr` reached through `io`: what the generated block handles build.
    ///
    /// # Safety
    ///
    /// With a memory mechanism, the contract of [`from_ptr`](Self::from_ptr). With [`OnBus`],
    /// none: `ptr` is the register's offset in the bus window and is never dereferenced.
    #[inline(always)]
    #[allow(dead_code)] // a spec without registers builds no handle
    pub(crate) const unsafe fn from_parts(ptr: *mut T, io: M) -> Self {
        Reg {
            ptr,
            io,
            _marker: PhantomData,
        }
    }

}

impl<T, R, A: Access, M: InMemory> Reg<T, R, A, M> {
    /// The register's address in memory. (A handle on a bus has none: it has
    /// [`bus_address`](Reg::bus_address) instead.)
    #[inline(always)]
    pub const fn as_ptr(self) -> *mut T {
        self.ptr
    }
}

impl<T, R, A: Access, B: ?Sized> Reg<T, R, A, OnBus<'_, B>> {
    /// The register's address on the bus: the window's base plus the register's offset.
    #[inline(always)]
    pub fn bus_address(self) -> u64 {
        self.io.address(self.ptr)
    }
}

impl<T, R, A, M: Copy> Clone for Reg<T, R, A, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, R, A, M: Copy> Copy for Reg<T, R, A, M> {}

impl<T, R, A, M> fmt::Debug for Reg<T, R, A, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Reg").field(&self.ptr).finish()
    }
}

// SAFETY: a handle is an address and its mechanism `M`, which is `Send` itself (zero-sized
// for memory; for a bus, a reference to a bus that is `Sync`). Using the address from another
// thread is defined by `from_ptr`'s contract: with `Volatile` the memory is a device's (or
// used by one thread at a time), with `Atomic` every access is atomic; neither allows a data
// race.
unsafe impl<T, R, A, M: Send> Send for Reg<T, R, A, M> {}
// SAFETY: as for `Send`: sharing a handle shares an address and a `Sync` mechanism, and every
// access through it is one access of the kind the `from_ptr` contract made race-free.
unsafe impl<T, R, A, M: Sync> Sync for Reg<T, R, A, M> {}

// The infallible methods, for every mechanism whose accesses cannot fail: each unwraps the
// `try_` method's `Result<_, Infallible>`, which costs no instruction.

impl<T: UIntLike, R: RegisterLongName, A: CanRead, M: Io<T, Error = Infallible>> Readable
    for Reg<T, R, A, M>
{
    type T = T;
    type R = R;

    #[inline(always)]
    fn get(&self) -> T {
        let Ok(value) = self.try_get();
        value
    }
}

impl<T: UIntLike, R: RegisterLongName, A: CanWrite, M: Io<T, Error = Infallible>> Writeable
    for Reg<T, R, A, M>
{
    type T = T;
    type R = R;

    #[inline(always)]
    fn set(&self, value: T) {
        let Ok(()) = self.try_set(value);
    }
}

impl<T: UIntLike, R: RegisterLongName, A: CanWrite, M: Io<T, Error = Infallible>> Reg<T, R, A, M> {
    /// Writes `value` after every earlier memory access of this thread: whoever sees the
    /// value (the device, or a thread that reads it with an acquire load) also sees them.
    /// No full fence: a release store on [`Atomic`], a release fence and a volatile store on
    /// [`Volatile`] (see [`Mechanism::store_release`] for what that means per machine).
    #[inline(always)]
    pub fn set_release(self, value: T) {
        let Ok(()) = self.try_set_release(value);
    }
}

impl<T: UIntLike, R: RegisterLongName, A: CanRead, M: Io<T, Error = Infallible>> Reg<T, R, A, M> {
    /// Reads the value with acquire ordering: what the writer did before its release store
    /// of this value is visible after this read.
    #[inline(always)]
    pub fn get_acquire(self) -> T {
        let Ok(value) = self.try_get_acquire();
        value
    }
}

#[cfg(feature = "device-side")]
impl<T, R, A: Access, M: Copy> Reg<T, R, A, M> {
    /// The device's view of this register: readable and writable whatever the host's access
    /// mode, so that a device model can set a read-only status register or consume a
    /// write-only doorbell. Write-1 bits are plain bits on this side.
    #[inline(always)]
    pub const fn device_side(self) -> Reg<T, R, Rw, M> {
        Reg {
            ptr: self.ptr,
            io: self.io,
            _marker: PhantomData,
        }
    }
}

impl<T: UIntLike, R: WriteOneBits<T>, M: Io<T, Error = Infallible>> Reg<T, R, RwW1, M> {
    /// Writes the raw value, write-1 bits included: a 1 there clears or triggers.
    #[inline(always)]
    pub fn set(self, value: T) {
        let Ok(()) = self.try_set(value);
    }

    /// Writes the given fields and zero everywhere else.
    #[inline(always)]
    pub fn write(self, field: FieldValue<T, R>) {
        self.set(field.value);
    }

    /// As [`set`](Self::set), after every earlier memory access of this thread (release
    /// ordering, as [`Reg::set_release`] for other access modes): a write-1 bit that starts
    /// something (ENABLE) is seen only after the configuration written before it.
    #[inline(always)]
    pub fn set_release(self, value: T) {
        let Ok(()) = self.try_set_release(value);
    }

    /// As [`write`](Self::write), with release ordering (see [`set_release`](Self::set_release)).
    #[inline(always)]
    pub fn write_release(self, field: FieldValue<T, R>) {
        self.set_release(field.value);
    }

    /// Read-modify-write of the given fields. Write-1 bits are written as 0 and write-0
    /// bits as 1 unless `field` sets them, so pending events are not cleared, toggles do not
    /// flip and actions are not re-triggered by the write-back.
    #[inline(always)]
    pub fn modify(self, field: FieldValue<T, R>) {
        let Ok(()) = self.try_modify(field);
    }

    /// As [`modify`](Self::modify), starting from a value read earlier instead of reading.
    #[inline(always)]
    pub fn modify_no_read(self, original: LocalRegisterCopy<T, R>, field: FieldValue<T, R>) {
        self.set(field.modify((original.get() & !R::MASK) | R::ZERO_MASK));
    }
}

impl<T: UIntLike, R: RegisterLongName, A: ReadClears, M: Io<T, Error = Infallible>>
    Reg<T, R, A, M>
{
    /// Reads the register, which clears its read-to-clear fields. The value read is
    /// returned as a local copy: `read(F)`, `is_set(F)` and `read_as_enum(F)` on it touch the
    /// device no more.
    #[inline(always)]
    pub fn read_and_clear(self) -> LocalRegisterCopy<T, R> {
        let Ok(value) = self.try_read_and_clear();
        value
    }
}

// The fallible methods, for every mechanism: the same vocabulary, typed by access mode the
// same way, each returning the mechanism's error (`Infallible` for memory).

impl<T: UIntLike, R: RegisterLongName, A: CanRead, M: Io<T>> Reg<T, R, A, M> {
    /// The register's value: one read.
    #[inline(always)]
    pub fn try_get(self) -> Result<T, M::Error> {
        // SAFETY: the contract of `from_ptr` (or `from_parts`): aligned, valid for reads since
        // `A` reads, never referenced, and accessed concurrently only in the way `M` allows;
        // nothing for a bus.
        unsafe { self.io.try_load(self.ptr) }
    }

    /// As [`try_get`](Self::try_get), with acquire ordering (see [`Reg::get_acquire`]).
    #[inline(always)]
    pub fn try_get_acquire(self) -> Result<T, M::Error> {
        // SAFETY: as for `try_get`.
        unsafe { self.io.try_load_acquire(self.ptr) }
    }

    /// One read, kept as a local copy to decode without touching the device again.
    #[inline(always)]
    pub fn try_extract(self) -> Result<LocalRegisterCopy<T, R>, M::Error> {
        self.try_get().map(LocalRegisterCopy::new)
    }

    /// The value of `field`: one read.
    #[inline(always)]
    pub fn try_read(self, field: Field<T, R>) -> Result<T, M::Error> {
        self.try_get().map(|value| field.read(value))
    }

    /// Whether any bit of `field` is set: one read.
    #[inline(always)]
    pub fn try_is_set(self, field: Field<T, R>) -> Result<bool, M::Error> {
        self.try_get().map(|value| field.is_set(value))
    }

    /// The value of `field` as its enumeration, `None` for a value the enumeration lacks:
    /// one read.
    #[inline(always)]
    pub fn try_read_as_enum<E: TryFromValue<T, EnumType = E>>(
        self,
        field: Field<T, R>,
    ) -> Result<Option<E>, M::Error> {
        self.try_get().map(|value| field.read_as_enum(value))
    }
}

impl<T: UIntLike, R: RegisterLongName, A: CanWrite, M: Io<T>> Reg<T, R, A, M> {
    /// Writes `value`: one write.
    #[inline(always)]
    pub fn try_set(self, value: T) -> Result<(), M::Error> {
        // SAFETY: the contract of `from_ptr` (or `from_parts`): aligned, valid for writes
        // since `A` writes, never referenced, and accessed concurrently only in the way `M`
        // allows; nothing for a bus.
        unsafe { self.io.try_store(self.ptr, value) }
    }

    /// As [`try_set`](Self::try_set), with release ordering (see [`Reg::set_release`]).
    #[inline(always)]
    pub fn try_set_release(self, value: T) -> Result<(), M::Error> {
        // SAFETY: as for `try_set`.
        unsafe { self.io.try_store_release(self.ptr, value) }
    }

    /// Writes the given fields and zero everywhere else: one write.
    #[inline(always)]
    pub fn try_write(self, field: FieldValue<T, R>) -> Result<(), M::Error> {
        self.try_set(field.value)
    }
}

impl<T: UIntLike, R: RegisterLongName, A: CanRead + CanWrite, M: Io<T>> Reg<T, R, A, M> {
    /// Read-modify-write of the given fields: one read, then one write unless the read
    /// failed.
    #[inline(always)]
    pub fn try_modify(self, field: FieldValue<T, R>) -> Result<(), M::Error> {
        let current = self.try_get()?;
        self.try_set(field.modify(current))
    }
}

impl<T: UIntLike, R: WriteOneBits<T>, M: Io<T>> Reg<T, R, RwW1, M> {
    /// As [`set`](Self::set): writes the raw value, write-1 bits included.
    #[inline(always)]
    pub fn try_set(self, value: T) -> Result<(), M::Error> {
        // SAFETY: the contract of `from_ptr` (or `from_parts`): aligned, valid for writes
        // since `RwW1` writes, never referenced, and accessed concurrently only in the way
        // `M` allows; nothing for a bus.
        unsafe { self.io.try_store(self.ptr, value) }
    }

    /// As [`set_release`](Self::set_release).
    #[inline(always)]
    pub fn try_set_release(self, value: T) -> Result<(), M::Error> {
        // SAFETY: as for `try_set`.
        unsafe { self.io.try_store_release(self.ptr, value) }
    }

    /// As [`write`](Self::write): the given fields and zero everywhere else.
    #[inline(always)]
    pub fn try_write(self, field: FieldValue<T, R>) -> Result<(), M::Error> {
        self.try_set(field.value)
    }

    /// As [`modify`](Self::modify): the write-back never re-triggers a write side effect.
    /// One read, then one write unless the read failed.
    #[inline(always)]
    pub fn try_modify(self, field: FieldValue<T, R>) -> Result<(), M::Error> {
        let current = self.try_get()?;
        self.try_set(field.modify((current & !R::MASK) | R::ZERO_MASK))
    }
}

impl<T: UIntLike, R: RegisterLongName, A: ReadClears, M: Io<T>> Reg<T, R, A, M> {
    /// As [`read_and_clear`](Self::read_and_clear): the one read of a read-to-clear
    /// register, whose value is returned as a local copy.
    #[inline(always)]
    pub fn try_read_and_clear(self) -> Result<LocalRegisterCopy<T, R>, M::Error> {
        // SAFETY: the contract of `from_ptr` (or `from_parts`): aligned, valid for reads
        // since `A` reads (through this method only), never referenced, and accessed
        // concurrently only in the way `M` allows; nothing for a bus.
        unsafe { self.io.try_load(self.ptr) }.map(LocalRegisterCopy::new)
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
#[allow(unused_macros)] // a spec may have no field (or no enumerated value) that needs it
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
#[allow(unused_macros)] // a spec may have no field (or no enumerated value) that needs it
macro_rules! field_values {
    // A field whose writes take values of their own (`write_values`): the read `Value` does
    // not convert into a write.
    (writes, $t:ty, $mask:literal, $shift:literal) => {
        use tock_registers::fields::FieldValue;

        use super::Register;

        /// All ones.
        pub const SET: FieldValue<$t, Register> = value($mask);

        /// Zero.
        pub const CLEAR: FieldValue<$t, Register> = value(0);

        /// `value` in the field's bits.
        const fn value(value: $t) -> FieldValue<$t, Register> {
            FieldValue::<$t, Register>::new($mask, $shift, value)
        }
    };
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
#[allow(unused_macros)] // a spec may have no field (or no enumerated value) that needs it
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

#[allow(unused_imports)] // as for the macros themselves
pub(crate) use {enum_try_from, field_set, field_values};
