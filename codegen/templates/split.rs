
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
/// `O` is the order of the pieces of a read: [`LowFirst`] (the default, above) or
/// [`UntilStable`] (high, low, high again until the two high reads agree: a free-running
/// counter without a latch). Writes are low piece first in either case.
///
/// The one-access-per-method invariant of the handles becomes one access of each piece, in
/// this order (with [`UntilStable`], a read is three accesses or more). [`get_acquire`](Reg::get_acquire) and [`set_release`](Reg::set_release) give
/// every piece the ordering. On a [`Bus`], each piece is one transaction of width `W`; the
/// first that fails ends the read or write, which may then be partly done.
#[derive(Clone, Copy, Debug)]
pub struct Split<M, W, O = LowFirst>(M, PhantomData<(W, O)>);

/// The read order of a [`Split`] register that its hardware latches (the spec's
/// `split_read: low_first`, the default): each piece read once, least significant first.
#[derive(Clone, Copy, Debug)]
pub struct LowFirst;

/// The read order of a [`Split`] register of two pieces that changes on its own, without a
/// latch (the spec's `split_read: until_stable`: a free-running 64-bit counter on a 32-bit
/// bus): the high piece, the low piece, the high piece again; while the two high reads
/// differ, the low piece and the high piece again, until two high reads in a row agree. The
/// value is then the agreed high piece above the low piece read between them, a value the
/// register held while the low piece was read.
///
/// The loop has no bound, and needs none for a counter: it goes round again only when the
/// high piece changed between two reads, which a counter does once per wrap of its low
/// piece (2<sup>32</sup> counts for a 32-bit piece). A second retry would need a second
/// carry in the very next round, so a counter that advances less than half a wrap of the
/// low piece (2<sup>31</sup> counts) per two accesses is read in at most five accesses. A
/// register whose high piece changes at every read is not a counter and must not say
/// `until_stable`. On a [`Bus`], the first access that fails ends the read.
#[derive(Clone, Copy, Debug)]
pub struct UntilStable;

impl<M, W, O> Split<M, W, O> {
    /// `mechanism`, its accesses split into pieces of `W`.
    #[inline(always)]
    #[allow(dead_code)] // built by the generated block handles of split registers only
    pub(crate) const fn new(mechanism: M) -> Self {
        Split(mechanism, PhantomData)
    }
}

impl<M, W, O> sealed::Sealed for Split<M, W, O> {}

impl<M: Transport, W: Copy, O: Copy> Transport for Split<M, W, O> {
    type Error = M::Error;
}

impl<M: InMemory, W: Copy, O: Copy> InMemory for Split<M, W, O> {}

impl<T, R, A: Access, B: ?Sized, W, O> Reg<T, R, A, Split<OnBus<'_, B>, W, O>> {
    /// The register's address on the bus (of its least significant piece): the window's base
    /// plus the register's offset.
    #[inline(always)]
    pub fn bus_address(self) -> u64 {
        self.io.0.address(self.ptr)
    }
}

/// The writes of `Split<M, narrow, _>` to a `wide` register: least significant piece first.
macro_rules! split_stores {
    ($wide:ty => $narrow:ty) => {
        #[inline(always)]
        unsafe fn try_store(self, ptr: *mut $wide, value: $wide) -> Result<(), M::Error> {
            for i in 0..core::mem::size_of::<$wide>() / core::mem::size_of::<$narrow>() {
                let at = ptr.cast::<$narrow>().wrapping_add(i);
                // Truncation is the point: the piece's bits of the value.
                let piece = (value >> (i as u32 * <$narrow>::BITS)) as $narrow;
                // SAFETY: piece `i` lies inside the register at `ptr`, which the caller
                // vouches for, and is aligned for its type (the register is aligned for the
                // wider one).
                unsafe { self.0.try_store(at, piece) }?;
            }
            Ok(())
        }

        #[inline(always)]
        unsafe fn try_store_release(self, ptr: *mut $wide, value: $wide) -> Result<(), M::Error> {
            for i in 0..core::mem::size_of::<$wide>() / core::mem::size_of::<$narrow>() {
                let at = ptr.cast::<$narrow>().wrapping_add(i);
                let piece = (value >> (i as u32 * <$narrow>::BITS)) as $narrow;
                // SAFETY: as for `try_store`.
                unsafe { self.0.try_store_release(at, piece) }?;
            }
            Ok(())
        }
    };
}

/// A read of `Split<M, narrow, LowFirst>`: each piece once, least significant first, by
/// `M`'s `$load` (`try_load` or `try_load_acquire`).
macro_rules! low_first_load {
    ($self:ident, $ptr:ident, $wide:ty => $narrow:ty, $load:ident) => {{
        let mut value: $wide = 0;
        for i in 0..core::mem::size_of::<$wide>() / core::mem::size_of::<$narrow>() {
            let at = $ptr.cast::<$narrow>().wrapping_add(i);
            // SAFETY: piece `i` lies inside the register at `ptr`, which the caller vouches
            // for, and is aligned for its type (the register is aligned for the wider one).
            let piece = unsafe { $self.0.$load(at) }?;
            value |= <$wide>::from(piece) << (i as u32 * <$narrow>::BITS);
        }
        Ok(value)
    }};
}

/// A read of `Split<M, narrow, UntilStable>` of a register of two pieces: high, low, high
/// again, the last two repeated until two high reads in a row agree (see [`UntilStable`]).
macro_rules! until_stable_load {
    ($self:ident, $ptr:ident, $wide:ty => $narrow:ty, $load:ident) => {{
        let low_at = $ptr.cast::<$narrow>();
        let high_at = low_at.wrapping_add(1);
        // SAFETY: the two pieces lie inside the register at `ptr`, which the caller vouches
        // for, and are aligned for their type (the register is aligned for the wider one).
        let mut high = unsafe { $self.0.$load(high_at) }?;
        loop {
            // SAFETY: as above.
            let low = unsafe { $self.0.$load(low_at) }?;
            // SAFETY: as above.
            let again = unsafe { $self.0.$load(high_at) }?;
            if again == high {
                break Ok((<$wide>::from(high) << <$narrow>::BITS) | <$wide>::from(low));
            }
            high = again;
        }
    }};
}

/// [`Io`] and [`Mechanism`] of `Split<M, narrow, order>` for a `wide` register, its reads
/// made by `$read` (`low_first_load` or `until_stable_load`).
macro_rules! split_io {
    ($order:ty, $read:ident: $($wide:ty => $narrow:ty),* $(,)?) => {$(
        impl<M: Io<$narrow>> Io<$wide> for Split<M, $narrow, $order> {
            #[inline(always)]
            unsafe fn try_load(self, ptr: *mut $wide) -> Result<$wide, M::Error> {
                $read!(self, ptr, $wide => $narrow, try_load)
            }

            split_stores!($wide => $narrow);

            #[inline(always)]
            unsafe fn try_load_acquire(self, ptr: *mut $wide) -> Result<$wide, M::Error> {
                $read!(self, ptr, $wide => $narrow, try_load_acquire)
            }
        }

        impl<M: Mechanism<$narrow>> Mechanism<$wide> for Split<M, $narrow, $order> {
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

split_io!(LowFirst, low_first_load: u16 => u8, u32 => u8, u32 => u16, u64 => u8, u64 => u16, u64 => u32);
// Two pieces only: with more, the high part would itself be read in pieces.
split_io!(UntilStable, until_stable_load: u16 => u8, u32 => u16, u64 => u32);
