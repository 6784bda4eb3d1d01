//! The simulator as a gba-hal backend: one port of a fabric, opened by its fabric directory
//! and port number (the address `sim:DIR#P`).

use std::fmt;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;

use gba_hal::{Backend, DeviceAddress, DmaError, DmaRegion};
use gba_pac::common::Atomic;

use crate::fabric::Fabric;
use crate::port::{DmaBlock, Port};

/// Port `port` of a simulated fabric: its window is shared memory, so registers are reached
/// with atomic accesses, and `progress` steps the switch.
#[derive(Debug)]
pub struct SimBackend {
    port: Port,
    /// This backend value's claim token: pid in the low 32 bits, a per-process serial above,
    /// so that two opens of one port in one process are two owners (issue 13's second race).
    token: u64,
}

/// The serial of the next backend value in this process (never 0).
fn next_token() -> u64 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static SERIAL: AtomicU32 = AtomicU32::new(1);
    let serial = SERIAL.fetch_add(1, Ordering::Relaxed).max(1);
    (u64::from(serial) << 32) | (crate::os::my_pid() & 0xffff_ffff)
}

impl SimBackend {
    pub fn open(fabric: &Path, port: usize) -> Result<Self, crate::Error> {
        Ok(SimBackend {
            port: Port::open(fabric, port)?,
            token: next_token(),
        })
    }

    /// A port of a fabric this process has mapped already (threads of one process share it).
    pub fn attach(fabric: Arc<Fabric>, port: usize) -> Result<Self, crate::Error> {
        Ok(SimBackend {
            port: Port::attach(fabric, port)?,
            token: next_token(),
        })
    }

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
        let block = self.port.alloc_dma(len).map_err(|_| DmaError {
            reason: "the simulated port's DMA arena is full",
        })?;
        Ok(DmaRegion {
            host: NonNull::new(block.host).ok_or(DmaError {
                reason: "the arena mapping returned a null pointer",
            })?,
            iova: block.iova,
            len: block.len,
        })
    }

    fn free_dma(&self, region: DmaRegion) {
        self.port.free_dma(DmaBlock {
            host: region.host.as_ptr(),
            iova: region.iova,
            len: region.len,
        });
    }

    fn progress(&self) {
        self.port.progress();
    }

    fn after_doorbell(&self, group: usize, doorbell: u64) {
        self.port.arrive(group, doorbell);
    }

    fn after_control(&self, group: usize) {
        self.port.control_written(group);
    }

    fn now_ns(&self) -> u64 {
        crate::os::monotonic_ns()
    }

    fn claim_group(&self, group: usize) -> bool {
        self.port
            .fabric()
            .claim_group(self.port.number(), group, self.token)
    }

    fn claimed_groups(&self) -> u32 {
        let fabric = self.port.fabric();
        (0..crate::layout::GROUPS.min(32))
            .filter(|&g| {
                fabric
                    .group_owner(self.port.number(), g)
                    .is_some_and(crate::os::alive)
            })
            .fold(0, |set, g| set | (1 << g))
    }

    fn release_group(&self, group: usize) {
        self.port
            .fabric()
            .release_group(self.port.number(), group, self.token);
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.address())
    }
}
