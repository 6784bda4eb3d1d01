
// Registers wider than their bus access (the spec's `access_width`). Appended to `common.rs`
// only when a register of the device has one, so that the crates of other devices are as
// they were.

/// The mechanism of a register wider than its bus access (the spec's `access_width`,
/// SystemRDL's `accesswidth`: a 64-bit timer on a 32-bit bus): each read or write of the
/// register's `T` is made as `core::mem::size_of::<T>() / core::mem::size_of::<W>()` accesses of type `W` by
/// mechanism `M`, **least significant piece first**, at increasing addresses: bits
/// `[W::BITS-1:0]` at the register's address, the next piece `core::mem::size_of::<W>()` bytes above
/// (SystemRDL's default, `littleendian`, subword order), whatever the processor's byte order.
///
/// Why that order: a register block that buffers wide registers (PeakRDL-regblock's
/// `buffer_reads` and `buffer_writes`, which `gba rtl` turns on) latches the whole register
/// when its low piece is read and commits a write when its high piece is written, so a value
/// read or written low piece first is whole. On a block without such buffering, another agent
/// (the hardware, a counter) may change the register between the pieces: the value read may
/// then mix two states, and a write is seen in two steps.
///
/// The one-access-per-method invariant of the handles becomes one access of each piece, in
/// this order. [`get_acquire`](Reg::get_acquire) and [`set_release`](Reg::set_release) give
/// every piece the ordering. On a [`Bus`], each piece is one transaction of width `W`; the
/// first that fails ends the read or write, which may then be partly done.
#[derive(Clone, Copy, Debug)]
pub struct Split<M, W>(M, PhantomData<W>);

impl<M, W> Split<M, W> {
    /// `mechanism`, its accesses split into pieces of `W`.
    #[inline(always)]
    #[allow(dead_code)] // built by the generated block handles of split registers only
    pub(crate) const fn new(mechanism: M) -> Self {
        Split(mechanism, PhantomData)
    }
}

impl<M, W> sealed::Sealed for Split<M, W> {}

impl<M: Transport, W: Copy> Transport for Split<M, W> {
    type Error = M::Error;
}

impl<M: InMemory, W: Copy> InMemory for Split<M, W> {}

impl<T, R, A: Access, B: ?Sized, W> Reg<T, R, A, Split<OnBus<'_, B>, W>> {
    /// The register's address on the bus (of its least significant piece): the window's base
    /// plus the register's offset.
    #[inline(always)]
    pub fn bus_address(self) -> u64 {
        self.io.0.address(self.ptr)
    }
}

/// [`Io`] and [`Mechanism`] of `Split<M, narrow>` for a `wide` register.
macro_rules! split_io {
    ($($wide:ty => $narrow:ty),* $(,)?) => {$(
        impl<M: Io<$narrow>> Io<$wide> for Split<M, $narrow> {
            #[inline(always)]
            unsafe fn try_load(self, ptr: *mut $wide) -> Result<$wide, M::Error> {
                let mut value: $wide = 0;
                for i in 0..core::mem::size_of::<$wide>() / core::mem::size_of::<$narrow>() {
                    let at = ptr.cast::<$narrow>().wrapping_add(i);
                    // SAFETY: piece `i` lies inside the register at `ptr`, which the caller
                    // vouches for, and is aligned for its type (the register is aligned for
                    // the wider one).
                    let piece = unsafe { self.0.try_load(at) }?;
                    value |= <$wide>::from(piece) << (i as u32 * <$narrow>::BITS);
                }
                Ok(value)
            }

            #[inline(always)]
            unsafe fn try_store(self, ptr: *mut $wide, value: $wide) -> Result<(), M::Error> {
                for i in 0..core::mem::size_of::<$wide>() / core::mem::size_of::<$narrow>() {
                    let at = ptr.cast::<$narrow>().wrapping_add(i);
                    // Truncation is the point: the piece's bits of the value.
                    let piece = (value >> (i as u32 * <$narrow>::BITS)) as $narrow;
                    // SAFETY: as for `try_load`.
                    unsafe { self.0.try_store(at, piece) }?;
                }
                Ok(())
            }

            #[inline(always)]
            unsafe fn try_store_release(self, ptr: *mut $wide, value: $wide) -> Result<(), M::Error> {
                for i in 0..core::mem::size_of::<$wide>() / core::mem::size_of::<$narrow>() {
                    let at = ptr.cast::<$narrow>().wrapping_add(i);
                    let piece = (value >> (i as u32 * <$narrow>::BITS)) as $narrow;
                    // SAFETY: as for `try_load`.
                    unsafe { self.0.try_store_release(at, piece) }?;
                }
                Ok(())
            }

            #[inline(always)]
            unsafe fn try_load_acquire(self, ptr: *mut $wide) -> Result<$wide, M::Error> {
                let mut value: $wide = 0;
                for i in 0..core::mem::size_of::<$wide>() / core::mem::size_of::<$narrow>() {
                    let at = ptr.cast::<$narrow>().wrapping_add(i);
                    // SAFETY: as for `try_load`.
                    let piece = unsafe { self.0.try_load_acquire(at) }?;
                    value |= <$wide>::from(piece) << (i as u32 * <$narrow>::BITS);
                }
                Ok(value)
            }
        }

        impl<M: Mechanism<$narrow>> Mechanism<$wide> for Split<M, $narrow> {
            const VALUE: Self = Split(M::VALUE, PhantomData);

            #[inline(always)]
            unsafe fn load(ptr: *mut $wide) -> $wide {
                let io: Self = Split(M::VALUE, PhantomData);
                // SAFETY: forwarded from the caller.
                let Ok(value) = unsafe { io.try_load(ptr) };
                value
            }

            #[inline(always)]
            unsafe fn store(ptr: *mut $wide, value: $wide) {
                let io: Self = Split(M::VALUE, PhantomData);
                // SAFETY: forwarded from the caller.
                let Ok(()) = unsafe { io.try_store(ptr, value) };
            }

            #[inline(always)]
            unsafe fn store_release(ptr: *mut $wide, value: $wide) {
                let io: Self = Split(M::VALUE, PhantomData);
                // SAFETY: forwarded from the caller.
                let Ok(()) = unsafe { io.try_store_release(ptr, value) };
            }

            #[inline(always)]
            unsafe fn load_acquire(ptr: *mut $wide) -> $wide {
                let io: Self = Split(M::VALUE, PhantomData);
                // SAFETY: forwarded from the caller.
                let Ok(value) = unsafe { io.try_load_acquire(ptr) };
                value
            }
        }
    )*};
}

split_io!(u16 => u8, u32 => u8, u32 => u16, u64 => u8, u64 => u16, u64 => u32);
