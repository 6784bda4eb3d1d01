//! The simulator as a gba-hal backend: one port of a fabric, opened by its fabric directory
//! and port number (the address `sim:DIR#P`).

use std::fmt;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;

use gba_hal::{
    Backend, Claim, ClaimReport, DeviceAddress, DmaError, DmaRegion, HostArbiter, LocalArrivals,
    LocalSlot, LocalTeam, MemberSet,
};
use gba_pac::common::Atomic;

use gba_hal::host::SegmentArbiter;

use crate::fabric::Fabric;
use crate::port::Port;

/// Port `port` of a simulated fabric: its window is shared memory, so registers are reached
/// with atomic accesses, and `progress` steps the switch.
#[derive(Debug)]
pub struct SimBackend {
    port: Port,
    /// The port's arbiter: its host segment, in the fabric's `hosts` file. Its host key is
    /// the boot id, the `hosts` file and the port.
    host: SimArbiter,
}

/// The host segment's arbiter, and what more a fabric can do, every port's host state being
/// in it: a process that wins a group's claim first resets that group on every other port
/// where a dead process left it (see `Fabric::claim_reclaiming`), so that a killed job's
/// half-configured group does not refuse, or hang, the next job that uses the same group id;
/// and `free_groups` takes over and resets the dead claims of the other ports
/// (`Fabric::reclaim_other_ports`), so that the group is free again for a team that does not
/// use every port the dead job did.
struct SimArbiter {
    inner: SegmentArbiter,
    fabric: Arc<Fabric>,
    port: usize,
}

impl fmt::Debug for SimArbiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

impl HostArbiter for SimArbiter {
    fn claim(&self, group: usize, team: Option<&LocalTeam>, members: &MemberSet) -> Claim {
        self.fabric
            .claim_reclaiming(group, self.port, || self.inner.claim(group, team, members))
    }

    fn hold(&self, group: usize, flag: &DmaRegion) -> bool {
        self.inner.hold(group, flag)
    }

    fn leave(&self, group: usize) -> bool {
        self.inner.leave(group)
    }

    fn release(&self, group: usize) {
        self.inner.release(group)
    }

    fn claimed_groups(&self) -> gba_hal::GroupSet {
        self.inner.claimed_groups()
    }

    fn claim_sets(&self) -> gba_hal::ClaimSets {
        self.inner.claim_sets()
    }

    fn take_dead(&self, group: usize) -> bool {
        self.inner.take_dead(group)
    }

    fn reclaim_other_ports(
        &self,
        groups: gba_hal::GroupSet,
        each: &mut dyn FnMut(&gba_hal::Reclaimed),
    ) {
        self.fabric.reclaim_other_ports(self.port, groups, each)
    }

    fn local_arrivals(&self, group: usize) -> Option<LocalArrivals> {
        self.inner.local_arrivals(group)
    }

    fn host_key(&self) -> Option<u64> {
        self.inner.host_key()
    }

    fn claims(&self, each: &mut dyn FnMut(&ClaimReport)) {
        self.inner.claims(each)
    }

    fn local_slots(&self, group: usize, each: &mut dyn FnMut(&LocalSlot)) {
        self.inner.local_slots(group, each)
    }
}

/// The host key of port `p` of `fabric` (gba-hal's: boot id, the `hosts` file's identity and
/// the port; for a fabric in this process's memory, its address and this pid).
fn host_key(fabric: &Fabric, p: usize) -> u64 {
    gba_hal::host::host_key(&fabric.dir().join(crate::host::HOSTS_FILE), p).unwrap_or_else(|| {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        (
            fabric as *const Fabric as usize,
            gba_hal::host::process::my_pid(),
            p,
        )
            .hash(&mut h);
        h.finish() | 1
    })
}

impl SimBackend {
    /// Opens port `port` of the fabric in the directory `fabric`.
    pub fn open(fabric: &Path, port: usize) -> Result<Self, crate::Error> {
        Self::new(Port::open(fabric, port)?)
    }

    /// A port of a fabric this process has mapped already (threads of one process share it).
    pub fn attach(fabric: Arc<Fabric>, port: usize) -> Result<Self, crate::Error> {
        Self::new(Port::attach(fabric, port)?)
    }

    fn new(port: Port) -> Result<Self, crate::Error> {
        let (p, fabric) = (port.number(), port.fabric().clone());
        let host_key = host_key(&fabric, p);
        // A team-mate's flag is a line of this port's arena, which every process maps.
        let resolve = move |_group, iova, len: usize| {
            // The whole flag inside the port's arena (the segment's words are checked, not
            // trusted: a length reaching past the arena is no flag of a team-mate's).
            let offset = fabric.dma_offset(p, iova)? % crate::layout::ARENA_SIZE;
            if len > crate::layout::ARENA_SIZE - offset {
                return None;
            }
            let (arena, _) = fabric.arena(p);
            let host = arena.wrapping_add((iova - crate::layout::IOVA_BASE) as usize);
            Some(DmaRegion {
                host: NonNull::new(host)?,
                iova,
                len,
            })
        };
        // SAFETY: the segment and the arena are the fabric's mappings, which the `Arc<Fabric>`
        // held by `port` (and by `resolve`) keeps mapped for as long as the arbiter lives.
        let inner = unsafe {
            SegmentArbiter::new(
                port.fabric().host_segment(p),
                Some(host_key),
                Box::new(resolve),
            )
        };
        let host = SimArbiter {
            inner,
            fabric: port.fabric().clone(),
            port: p,
        };
        Ok(SimBackend { port, host })
    }

    /// The fabric the port belongs to.
    pub fn fabric(&self) -> &Arc<Fabric> {
        self.port.fabric()
    }

    /// This port's address, `sim:DIR#P`.
    pub fn address(&self) -> DeviceAddress {
        DeviceAddress::sim(self.port.fabric().dir(), self.port.number())
    }
}

// SAFETY: the window is port p's slice of the fabric's `windows` mapping, held alive by the
// `Arc<Fabric>` inside `port` (it does not move with this value), Device::SIZE bytes,
// page-aligned, never referenced, and accessed by every party atomically. DMA blocks come
// from the port's arena: cache-line aligned and sized, zeroed, reachable at their IOVA, and
// accessed atomically by the switch and the host.
unsafe impl Backend for SimBackend {
    type Mechanism = Atomic;

    fn window(&self) -> *mut u8 {
        self.port.window().as_ptr()
    }

    fn alloc_dma(&self, len: usize) -> Result<DmaRegion, DmaError> {
        self.port.alloc_dma(len).map_err(|_| DmaError {
            reason: "the simulated port's DMA arena is full",
        })
    }

    fn free_dma(&self, region: DmaRegion) {
        self.port.free_dma(region);
    }

    fn progress(&self) {
        self.port.progress();
    }

    fn settle(&self) {
        self.port.fabric().settle();
    }

    fn after_doorbell(&self, group: usize, doorbell: u64) {
        self.port.arrive(group, doorbell);
    }

    fn after_control(&self, group: usize) {
        self.port.control_written(group);
    }

    fn now_ns(&self) -> u64 {
        gba_hal::backends::monotonic_ns()
    }

    fn host(&self) -> &dyn HostArbiter {
        &self.host
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.address())
    }
}
