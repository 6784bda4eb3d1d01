//! The host's release-flag memory: one line per group, mapped by every process of the host
//! that opens the port and reachable by the device, so that the winner of a group's claim and
//! its team-mates poll the same flag. Group g's flag is line g: the claim makes the line the
//! group owner's, so no allocator has to work across processes.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicU64, Ordering};

use super::GROUPS;
use crate::backend::{DmaError, DmaRegion};

/// See the module description.
#[derive(Clone, Copy, Debug)]
pub struct FlagLines {
    base: DmaRegion,
}

impl FlagLines {
    /// Bytes of the flag memory: a line per group.
    pub const BYTES: usize = GROUPS * 64;

    /// The flag memory at `host`, which the device reaches at `iova`.
    ///
    /// # Safety
    ///
    /// `host` is 64-byte aligned and valid for reads and writes of [`Self::BYTES`] for as long
    /// as the value (and every region it hands out) is used, the device reaches the same bytes
    /// at `iova`, and every process reaches them only atomically.
    pub unsafe fn new(host: NonNull<u8>, iova: u64) -> Self {
        FlagLines {
            base: DmaRegion {
                host,
                iova,
                len: Self::BYTES,
            },
        }
    }

    /// Group `group`'s line (`len` ≤ 64 bytes of it).
    pub fn line(&self, group: usize, len: usize) -> Option<DmaRegion> {
        (group < GROUPS && len <= 64).then(|| DmaRegion {
            host: NonNull::new(self.base.host.as_ptr().wrapping_add(group * 64))
                .expect("inside the flag memory"),
            iova: self.base.iova + group as u64 * 64,
            len,
        })
    }

    /// [`Backend::alloc_flag`](crate::Backend::alloc_flag): the group's line, zeroed (the
    /// caller won the group's claim, so it is the line's only writer now).
    pub fn alloc(&self, group: usize, len: usize) -> Result<DmaRegion, DmaError> {
        let region = self.line(group, len).ok_or(DmaError {
            reason: "a release flag is one line of a group below MAX_GROUPS",
        })?;
        for i in 0..8 {
            // SAFETY: word i of the group's line: 8-aligned, inside the flag memory (the
            // constructor's contract), reached only atomically.
            unsafe { AtomicU64::from_ptr(region.host.as_ptr().cast::<u64>().add(i)) }
                .store(0, Ordering::Relaxed);
        }
        Ok(region)
    }

    /// A team-mate's published flag (IOVA, length) as this process's view of it: the group's
    /// line, if that is what was published.
    pub fn resolve(&self, group: usize, iova: u64, len: usize) -> Option<DmaRegion> {
        self.line(group, len).filter(|line| line.iova == iova)
    }
}
