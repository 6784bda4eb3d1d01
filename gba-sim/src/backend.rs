//! The simulator as a gba-hal backend: one port of a fabric, opened by its fabric directory
//! and port number (the address `sim:DIR#P`).

use std::fmt;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;

use std::sync::atomic::{AtomicU32, Ordering};

use gba_hal::{Backend, Claim, Combining, DeviceAddress, DmaError, DmaRegion, LocalTeam};
use gba_pac::common::Atomic;

use crate::claim::Taken;
use crate::fabric::Fabric;
use crate::host::MAX_LOCAL;
use crate::port::{DmaBlock, Port};

/// Port `port` of a simulated fabric: its window is shared memory, so registers are reached
/// with atomic accesses, and `progress` steps the switch.
#[derive(Debug)]
pub struct SimBackend {
    port: Port,
    /// This backend value's claim token: pid in the low 32 bits, a per-process serial above,
    /// so that two opens of one port in one process are two owners (issue 13's second race).
    token: u64,
    /// Per group, this value's slot in the claim's local table, plus one (0: none).
    slots: [AtomicU32; crate::layout::GROUPS],
    /// See [`Backend::host_key`]: the boot id, the fabric's host segment and the port.
    host_key: u64,
}

/// The host key of port `p` of `fabric`: its boot id, the host segment file's device and
/// inode (or, for a fabric in this process's memory, its address) and the port, hashed.
fn host_key(fabric: &Fabric, p: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    use std::os::unix::fs::MetadataExt;
    let mut h = std::hash::DefaultHasher::new();
    // Miri cannot open files: its fabrics live in memory, named by their address.
    let on_disk = (!cfg!(miri))
        .then(|| {
            let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
            let m = std::fs::metadata(fabric.dir().join(crate::host::HOSTS_FILE)).ok()?;
            Some((boot, m.dev(), m.ino()))
        })
        .flatten();
    match on_disk {
        Some(identity) => identity.hash(&mut h),
        None => (fabric as *const Fabric as usize, crate::os::my_pid()).hash(&mut h),
    }
    p.hash(&mut h);
    h.finish() | 1
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
        Self::new(Port::open(fabric, port)?)
    }

    /// A port of a fabric this process has mapped already (threads of one process share it).
    pub fn attach(fabric: Arc<Fabric>, port: usize) -> Result<Self, crate::Error> {
        Self::new(Port::attach(fabric, port)?)
    }

    fn new(port: Port) -> Result<Self, crate::Error> {
        let host_key = host_key(port.fabric(), port.number());
        Ok(SimBackend {
            port,
            token: next_token(),
            slots: std::array::from_fn(|_| AtomicU32::new(0)),
            host_key,
        })
    }

    fn slot(&self, group: usize) -> usize {
        (self.slots[group].load(Ordering::Relaxed) as usize).saturating_sub(1)
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

    fn claim_group(&self, group: usize, team: Option<&LocalTeam>) -> Claim {
        let (p, fabric) = (self.port.number(), self.port.fabric());
        if group >= self.slots.len() {
            return Claim::Busy;
        }
        // Alone: a team of one whose key is this backend value's token, so that a second open
        // of the port in this process is another team (issue 13's second race).
        let (key, slot, local, rank) = team.map_or((self.token, 0, 1, 0), |t| {
            (t.key, t.index as usize, t.local as usize, u64::from(t.rank))
        });
        if slot >= MAX_LOCAL || local > MAX_LOCAL {
            return Claim::Busy;
        }
        let taken = fabric.take_claim(p, group, key, slot, local, rank);
        match taken {
            Taken::Won { .. } | Taken::Joined => {
                self.slots[group].store(slot as u32 + 1, Ordering::Relaxed)
            }
            _ => {}
        }
        match taken {
            Taken::Won { .. } => Claim::Won,
            Taken::Wait => Claim::Wait,
            Taken::Busy => Claim::Busy,
            Taken::Joined => {
                let (iova, len) = fabric.claim_flag(p, group);
                match fabric.dma_offset(p, iova) {
                    Some(_) => {
                        let (arena, _) = fabric.arena(p);
                        let host = arena.wrapping_add((iova - crate::layout::IOVA_BASE) as usize);
                        match NonNull::new(host) {
                            Some(host) => Claim::Joined {
                                flag: DmaRegion { host, iova, len },
                            },
                            None => Claim::Busy,
                        }
                    }
                    // A held claim always publishes its flag; anything else is not ours to use.
                    None => {
                        self.leave_group(group);
                        Claim::Busy
                    }
                }
            }
        }
    }

    fn hold_group(&self, group: usize, flag: &DmaRegion) -> bool {
        self.port
            .fabric()
            .hold_claim(self.port.number(), group, flag.iova, flag.len)
    }

    fn leave_group(&self, group: usize) -> bool {
        let slot = self.slot(group);
        self.port
            .fabric()
            .leave_claim(self.port.number(), group, slot)
    }

    fn claimed_groups(&self) -> u32 {
        self.port.fabric().live_claims(self.port.number())
    }

    fn release_group(&self, group: usize) {
        self.port.fabric().free_claim(self.port.number(), group);
    }

    fn combining(&self, group: usize) -> Option<Combining> {
        let (p, fabric) = (self.port.number(), self.port.fabric());
        let local = fabric.claim_local(p, group);
        if local <= 1 {
            return None;
        }
        let (arrivals, entered) = fabric.combining_words(p, group, self.slot(group));
        Some(Combining {
            arrivals: NonNull::new(arrivals)?,
            entered: NonNull::new(entered)?,
            local,
        })
    }

    fn host_key(&self) -> Option<u64> {
        Some(self.host_key)
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.address())
    }
}
