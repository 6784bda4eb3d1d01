
// Registers that hold write-once fields (the spec's `write_once`). Appended to `common.rs`
// only when a register of the device has one, so that the crates of other devices are as
// they were.

/// Read-write register holding a write-once field (the spec's `write_once`, SystemRDL's
/// `sw = w1`/`rw1`, SVD's and IP-XACT's `read-writeOnce`): the first write after reset
/// latches that field, and later writes leave it as it is.
///
/// Every write of the register is a write of the field, so a read-modify-write of a sibling
/// field would spend the field's one write on whatever the read gave (its reset value, right
/// after reset). Such a register therefore has no `modify` (it does not implement
/// [`Writeable`], which would give it tock-registers' blanket `modify`): it reads like [`Rw`]
/// and has inherent whole writes only, [`set`](Reg::set) and [`write`](Reg::write), in which
/// the caller gives the write-once field the value it means to latch.
#[derive(Clone, Copy, Debug)]
pub enum RwOnce {}

impl sealed::Sealed for RwOnce {}
impl Access for RwOnce {}
impl CanRead for RwOnce {}

impl<T: UIntLike, R: RegisterLongName, M: Io<T, Error = Infallible>> Reg<T, R, RwOnce, M> {
    /// Writes the raw value, write-once fields included: the first write after reset latches
    /// them.
    #[inline(always)]
    pub fn set(self, value: T) {
        let Ok(()) = self.try_set(value);
    }

    /// Writes the given fields and zero everywhere else: one write, which latches every
    /// write-once field of the register (at 0 where `field` does not name it).
    #[inline(always)]
    pub fn write(self, field: FieldValue<T, R>) {
        self.set(field.value);
    }
}

impl<T: UIntLike, R: RegisterLongName, M: Io<T>> Reg<T, R, RwOnce, M> {
    /// As [`set`](Self::set), returning the mechanism's error.
    #[inline(always)]
    pub fn try_set(self, value: T) -> Result<(), M::Error> {
        // SAFETY: the contract of `from_ptr` (or `from_parts`): aligned, valid for writes
        // since `RwOnce` writes, never referenced, and accessed concurrently only in the way
        // `M` allows; nothing for a bus.
        unsafe { self.io.try_store(self.ptr, value) }
    }

    /// As [`write`](Self::write), returning the mechanism's error.
    #[inline(always)]
    pub fn try_write(self, field: FieldValue<T, R>) -> Result<(), M::Error> {
        self.try_set(field.value)
    }
}
