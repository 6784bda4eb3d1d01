//! The host segment of the simulator's ports: port p's block of the fabric's `hosts` file,
//! which every process that opens one of the fabric's ports maps. The layout, the claims and
//! the local-arrivals blocks are gba-hal's (`gba_hal::host`), the same for hardware ports; this
//! module only says where each port's block is.

use gba_hal::host::HostSegment;
use gba_hal::host::PORT_BYTES;
use gba_hal::{ClaimReport, LocalSlot};

use crate::fabric::Fabric;

/// The file name in the fabric directory.
pub const HOSTS_FILE: &str = "hosts";

impl Fabric {
    /// Port `p`'s host segment.
    ///
    /// # Panics
    ///
    /// If `p` is not a port of the fabric (a bug of the caller: ports are checked on open).
    pub(crate) fn host_segment(&self, p: usize) -> HostSegment<'_> {
        assert!(p < self.ports(), "port {p} outside the fabric");
        let base = std::ptr::NonNull::new(self.hosts().as_ptr().wrapping_add(p * PORT_BYTES))
            .expect("a mapping is never at address 0");
        // SAFETY: port p's PORT_BYTES of the `hosts` mapping (ports × PORT_BYTES long, checked
        // when the fabric was opened), 64-aligned (page-aligned mapping, PORT_BYTES a multiple
        // of 64), alive while the borrow of `self` lasts, and reached by every process only
        // atomically (shm.rs's invariant).
        unsafe { HostSegment::new(base) }
            .with_quota(self.group_quota())
            .with_name(&format!(
                "{} (port {p})",
                self.dir().join(HOSTS_FILE).display()
            ))
    }

    /// Takes over group `g`'s claim on port `p` if every process of it is dead (for
    /// `reclaim_dead`); see [`HostSegment::take_dead_claim`].
    pub(crate) fn take_dead_claim(&self, p: usize, g: usize) -> Option<u64> {
        self.host_segment(p).take_dead_claim(g)
    }

    /// Frees the claim this process holds as CLAIMING (after the group's reset).
    pub(crate) fn free_claim(&self, p: usize, g: usize) {
        self.host_segment(p).free_claim(g)
    }

    /// The process that holds group `g` on port `p` (its claim record's pid), if any.
    pub fn group_owner(&self, p: usize, g: usize) -> Option<u64> {
        self.host_segment(p).group_owner(g)
    }

    /// Records `owner` as the holder of group `g` on port `p` outside any backend (tests and
    /// tools; backends claim through [`SimBackend`](crate::SimBackend)).
    pub fn set_group_owner(&self, p: usize, g: usize, owner: Option<u64>) {
        self.host_segment(p).set_group_owner(g, owner)
    }

    /// Every claim record of port `p` that is not free.
    pub fn claims(&self, p: usize) -> Vec<ClaimReport> {
        self.host_segment(p).claims()
    }

    /// The local processes of group `g`'s claim on port `p` that have not entered sequence
    /// `seq` (mod 2^32) yet: what a timeout names on this host.
    pub fn local_missing(&self, p: usize, g: usize, seq: u32) -> Vec<LocalSlot> {
        self.host_segment(p).local_missing(g, seq)
    }
}
