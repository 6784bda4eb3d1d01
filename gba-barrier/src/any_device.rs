//! Any device by its address, and a barrier that shares its device: what a driver or a
//! runtime holds without knowing which backend is behind it.
//!
//! Opening lives here, above gba-hal and gba-sim, because it is the lowest crate that knows
//! both: gba-hal opens hardware ([`gba_hal::backends::open_hardware`]), gba-sim is a backend
//! built on gba-hal. [`AnyDevice::open`] takes a [`DeviceAddress`] of either kind and gives one
//! type; [`AnyDevice::barrier`] gives an [`AnyBarrier`] that keeps the device alive (an `Arc`),
//! so a driver can store both in one struct. The C ABI (`gba_device_open`) is built on it.

// Errors carry addresses and member sets so that messages name them; they are returned on cold
// paths only (open, configure), as in gba-hal.
#![allow(clippy::result_large_err)]

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gba_hal::backends::{
    KernelBackend, OpenError, UioBackend, VfioBackend, open_hardware, open_kernel, open_vfio,
};
use gba_hal::{DeviceAddress, GroupConfig, GroupSet, GroupSnapshot, Identity};
#[cfg(feature = "sim")]
use gba_sim::SimBackend;

use crate::barrier::Barrier;
use crate::hal::{HalPort, ProgressHook};
use crate::{Wait, WaitError, Who};

/// One opened device of either kind, shared: clones are the same device.
#[derive(Clone)]
pub struct AnyDevice {
    inner: Arc<Inner>,
}

struct Inner {
    /// Teams' barriers kept after their team was dropped, for a later team of the same ranks
    /// (`team/cache.rs`). Declared before `device`: fields drop in order, and a parked
    /// barrier borrows the device (dropping it releases its group).
    parked: Mutex<Vec<Parked>>,
    device: Backends,
    address: DeviceAddress,
    hook: ProgressHook,
}

enum Backends {
    #[cfg(feature = "sim")]
    Sim(gba_hal::Device<SimBackend>),
    Uio(gba_hal::Device<UioBackend>),
    Vfio(gba_hal::Device<VfioBackend>),
    Kernel(gba_hal::Device<KernelBackend>),
}

/// Runs `$body` with `$d` bound to the generic `gba_hal::Device` of either backend.
macro_rules! on_device {
    ($device:expr, $d:ident => $body:expr) => {
        match $device {
            #[cfg(feature = "sim")]
            Backends::Sim($d) => $body,
            Backends::Uio($d) => $body,
            Backends::Vfio($d) => $body,
            Backends::Kernel($d) => $body,
        }
    };
}

impl AnyDevice {
    /// Opens the device at `address`: a simulator port, a UIO device node or a PCI device bound
    /// to vfio-pci.
    pub fn open(address: &DeviceAddress) -> Result<Self, OpenError> {
        let device = match address {
            #[cfg(not(feature = "sim"))]
            DeviceAddress::Sim { .. } => {
                return Err(OpenError::NeedsSimulator {
                    address: address.clone(),
                });
            }
            #[cfg(feature = "sim")]
            DeviceAddress::Sim { fabric, port } => {
                let backend =
                    SimBackend::open(fabric, *port).map_err(|source| OpenError::Backend {
                        address: address.clone(),
                        source: Box::new(source),
                    })?;
                Backends::Sim(gba_hal::Device::new(backend).map_err(|source| {
                    OpenError::Device {
                        address: address.clone(),
                        source,
                    }
                })?)
            }
            DeviceAddress::Uio(_) => Backends::Uio(open_hardware(address)?),
            DeviceAddress::Vfio(_) => Backends::Vfio(open_vfio(address)?),
            DeviceAddress::Kernel(_) => Backends::Kernel(open_kernel(address)?),
        };
        Ok(AnyDevice {
            inner: Arc::new(Inner {
                parked: Mutex::new(Vec::new()),
                device,
                address: address.clone(),
                hook: ProgressHook::default(),
            }),
        })
    }

    /// Opens the device named by `text` (`sim:DIR#P`, `/dev/uioN`, `vfio:0000:00:04.0`), or by the `GBA_DEVICE`
    /// environment variable when `None`.
    pub fn open_str(text: Option<&str>) -> Result<Self, OpenError> {
        Self::open(&DeviceAddress::parse_or_env(text)?)
    }

    /// The address the device was opened at (`sim:DIR#P`, `/dev/uioN`, `vfio:…`).
    pub fn address(&self) -> &DeviceAddress {
        &self.inner.address
    }

    /// What the device says about itself: DEVICE_ID, VERSION, CAPS (its limits) and this port's
    /// PORT_ID.
    pub fn identity(&self) -> &Identity {
        on_device!(&self.inner.device, d => d.identity())
    }

    /// This port's host arbitration, whatever the backend (see [`gba_hal::Backend::host`]).
    pub fn host(&self) -> &dyn gba_hal::HostArbiter {
        use gba_hal::Backend;
        on_device!(&self.inner.device, d => d.backend().host())
    }

    /// See [`gba_hal::HostArbiter::revoked`]: the refusal every claim on this port gets now
    /// that the driver revoked it, if it did.
    pub fn revoked(&self) -> Option<gba_hal::Refusal> {
        self.host().revoked()
    }

    /// See [`gba_hal::HostArbiter::host_key`].
    pub fn host_key(&self) -> Option<u64> {
        self.host().host_key()
    }

    /// Every claim of this port that is not free, as its arbiter reports it (the host
    /// segment's on the simulator, UIO and VFIO).
    pub fn host_claims(&self) -> Vec<gba_hal::ClaimReport> {
        self.host().claim_list()
    }

    /// See [`gba_hal::Device::free_groups`].
    pub fn free_groups(&self) -> GroupSet {
        on_device!(&self.inner.device, d => d.free_groups())
    }

    /// See [`gba_hal::Device::reclaim_dead`]: takes over and resets this port's groups whose
    /// claims only dead processes hold (on the simulator, the other ports' too), and says
    /// what it reset.
    pub fn reclaim_dead(&self) -> Vec<gba_hal::Reclaimed> {
        on_device!(&self.inner.device, d => d.reclaim_dead())
    }

    /// Lets the device make progress (steps the simulator; nothing on hardware).
    pub fn progress(&self) {
        on_device!(&self.inner.device, d => d.progress())
    }

    /// See [`gba_hal::Device::settle`].
    pub fn settle(&self) {
        on_device!(&self.inner.device, d => d.settle())
    }

    /// See [`gba_hal::Device::snapshot`].
    pub fn snapshot(&self, group: usize) -> gba_hal::Result<GroupSnapshot> {
        on_device!(&self.inner.device, d => d.snapshot(group))
    }

    /// See [`gba_hal::Device::read_raw`].
    pub fn read_raw(&self, offset: usize, width: u32) -> Option<u64> {
        on_device!(&self.inner.device, d => d.read_raw(offset, width))
    }

    /// See [`gba_hal::Device::write_raw`].
    pub fn write_raw(&self, offset: usize, width: u32, value: u64) -> bool {
        on_device!(&self.inner.device, d => d.write_raw(offset, width, value))
    }

    /// BARRIERS_COMPLETED of this port: episodes completed in all its groups.
    pub fn barriers_completed(&self) -> u64 {
        use gba_pac::tock_registers::interfaces::Readable;
        // The kernel driver maps no global page: its copy in the window is from the open.
        if let Backends::Kernel(d) = &self.inner.device {
            return d.backend().barriers_completed().unwrap_or(0);
        }
        on_device!(&self.inner.device, d => d.registers().global().barriers_completed().get())
    }

    /// Takes every barrier parked in this device (oldest first), for a team's vote.
    pub(crate) fn unpark_all(&self) -> Vec<(ParkTag, AnyBarrier)> {
        let parked = std::mem::take(&mut *lock(&self.inner.parked));
        parked
            .into_iter()
            .map(|p| {
                let barrier = AnyBarrier {
                    kind: p.kind,
                    _device: self.inner.clone(),
                };
                (p.tag, barrier)
            })
            .collect()
    }

    /// Installs a function the barriers of this device call while they wait (`None` clears
    /// it).
    ///
    /// # Safety
    ///
    /// As [`ProgressHook::set`]: `function` may be called with `argument` from any thread that
    /// waits on a barrier of this device, for as long as it is installed.
    pub unsafe fn set_progress_hook(
        &self,
        function: Option<crate::hal::HookFn>,
        argument: *mut std::ffi::c_void,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { self.inner.hook.set(function, argument) }
    }

    /// Claims and configures `config`'s group and returns this member's barrier over it (see
    /// [`gba_hal::Device::claim`]). The barrier holds the device: it may outlive this handle.
    pub fn barrier(&self, config: GroupConfig) -> gba_hal::Result<AnyBarrier> {
        self.barrier_until(config, || false)
    }

    /// As [`barrier`](Self::barrier), giving up as soon as `give_up` returns true (see
    /// [`gba_hal::Device::claim_until`]).
    pub fn barrier_until(
        &self,
        config: GroupConfig,
        mut give_up: impl FnMut() -> bool,
    ) -> gba_hal::Result<AnyBarrier> {
        // SAFETY: the 'static is sound: `inner` lives in the `Arc`'s allocation, which does
        // not move and is freed only when the last clone drops. The barrier below stores a
        // clone in `_device`, declared after `kind`, so `kind` (which borrows it) drops first;
        // and no method of `AnyBarrier` hands out anything that carries the 'static borrow.
        let inner: &'static Inner = unsafe { &*Arc::as_ptr(&self.inner) };
        let hook = Some(&inner.hook);
        // The processes known to share this machine: the port's local team (a team sets a
        // better count, over every port of the machine, once it has one), against this
        // process's CPUs.
        let own = config.local_team().map_or(1, |t| t.local as usize);
        #[cfg_attr(not(feature = "sim"), allow(unused_mut))]
        let mut policy = crate::WaitPolicy::for_processes(own);
        #[cfg(feature = "sim")]
        if let Backends::Sim(_) = &inner.device {
            // On the simulator every other member port is on this machine too (the fabric is
            // this machine's memory; a VM guest's port runs on vCPUs that are its threads):
            // at least one process more each, against the machine's online CPUs (the others'
            // affinities are not known here; a process pinned to one core must not count the
            // other members against that core alone). Four processes on ports of their own on
            // two cores then yield instead of spinning the CPU the member they wait for needs.
            let all = own + config.members().len().saturating_sub(1);
            let online = online_cpus();
            if crate::WaitPolicy::for_processes_on(all, online) == crate::WaitPolicy::Yield {
                policy = crate::WaitPolicy::Yield;
            }
        }
        let kind = match &inner.device {
            #[cfg(feature = "sim")]
            Backends::Sim(d) => Kind::Sim(barrier_over(d.claim_until(config, &mut give_up)?, hook)),
            Backends::Uio(d) => Kind::Uio(barrier_over(d.claim_until(config, &mut give_up)?, hook)),
            Backends::Vfio(d) => {
                Kind::Vfio(barrier_over(d.claim_until(config, &mut give_up)?, hook))
            }
            Backends::Kernel(d) => {
                Kind::Kernel(barrier_over(d.claim_until(config, &mut give_up)?, hook))
            }
        };
        let mut barrier = AnyBarrier {
            kind,
            _device: self.inner.clone(),
        };
        barrier.set_wait_policy(policy);
        Ok(barrier)
    }
}

/// This machine's online CPUs (1 if the system does not say).
#[cfg(feature = "sim")]
fn online_cpus() -> usize {
    // SAFETY: sysconf reads a system value; no memory is passed.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(n).ok().filter(|&n| n > 0).unwrap_or(1)
}

/// The barrier over a claimed group, counting episodes from its RELEASE_SEQ (as
/// [`crate::hal::offload`] does).
fn barrier_over<'d, B: gba_hal::Backend>(
    group: gba_hal::Group<'d, B>,
    hook: Option<&'d ProgressHook>,
) -> Barrier<HalPort<'d, B>> {
    let start = u64::from(group.start_sequence());
    Barrier::resume_at(HalPort::new(group, hook), start)
}

impl fmt::Display for AnyDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.address.fmt(f)
    }
}

impl fmt::Debug for AnyDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyDevice")
            .field("address", &self.inner.address)
            .field("identity", self.identity())
            .finish()
    }
}

/// One member's offloaded barrier over a group of an [`AnyDevice`], holding the device.
/// Dropping it resets and releases the group on this port.
pub struct AnyBarrier {
    // Declared before `_device`: fields drop in order, and `kind` borrows the device.
    kind: Kind,
    _device: Arc<Inner>,
}

// The offloaded barrier's hot state is cache-padded on purpose.
#[allow(clippy::large_enum_variant)]
enum Kind {
    #[cfg(feature = "sim")]
    Sim(Barrier<HalPort<'static, SimBackend>>),
    Uio(Barrier<HalPort<'static, UioBackend>>),
    Vfio(Barrier<HalPort<'static, VfioBackend>>),
    Kernel(Barrier<HalPort<'static, KernelBackend>>),
}

macro_rules! on_barrier {
    ($kind:expr, $b:ident => $body:expr) => {
        match $kind {
            #[cfg(feature = "sim")]
            Kind::Sim($b) => $body,
            Kind::Uio($b) => $body,
            Kind::Vfio($b) => $body,
            Kind::Kernel($b) => $body,
        }
    };
}

/// What a parked barrier was: its team (rank 0's key, the size), this process's rank in it,
/// the group and the last episode arrived at. A later team reuses the barrier when each of its
/// ranks parked one with the same key, group and episode, at its own rank, and the same size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ParkTag {
    pub key: gba_hal::TeamKey,
    pub rank: u32,
    pub size: u32,
    pub group: u32,
    pub episode: u64,
}

/// A barrier in its device's `parked` list: the group stays claimed and configured.
struct Parked {
    tag: ParkTag,
    kind: Kind,
}

/// A poisoned lock of the parked list is still a list (a panic while pushing or taking leaves
/// it whole).
fn lock(m: &Mutex<Vec<Parked>>) -> std::sync::MutexGuard<'_, Vec<Parked>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl AnyBarrier {
    /// Parks this barrier in its device, its group still claimed and configured, keeping at
    /// most `capacity` parked: the oldest beyond it are dropped (their groups released), as
    /// are all when the device closes.
    pub(crate) fn park(self, tag: ParkTag, capacity: usize) {
        let AnyBarrier {
            kind,
            _device: inner,
        } = self;
        let evicted: Vec<Parked> = {
            let mut parked = lock(&inner.parked);
            parked.push(Parked { tag, kind });
            let over = parked.len().saturating_sub(capacity);
            parked.drain(..over).collect()
        };
        // Released outside the lock, while `inner` (which they borrow) is alive.
        drop(evicted);
        drop(inner);
    }

    /// Arrive and wait for the release; see [`Barrier::wait`].
    pub fn wait(&mut self, timeout: Option<Duration>) -> crate::Result<()> {
        on_barrier!(&mut self.kind, b => b.wait(timeout))
    }

    /// Split phase: arrive without waiting; finish with [`poll`](Self::poll) or
    /// [`wait_pending`](Self::wait_pending).
    pub fn arrive(&mut self) -> crate::Result<()> {
        on_barrier!(&mut self.kind, b => b.arrive().map(drop))
    }

    /// Polls the pending episode once: `Ok(true)` when released, `Ok(false)` not yet, the
    /// device error if the group failed, `None` when no arrival is pending.
    pub fn poll(&mut self) -> Option<crate::Result<bool>> {
        on_barrier!(&mut self.kind, b => b.pending().map(|mut p| p.poll()))
    }

    /// Waits for the pending episode; `None` when no arrival is pending.
    pub fn wait_pending(&mut self, timeout: Option<Duration>) -> Option<crate::Result<()>> {
        on_barrier!(&mut self.kind, b => b.pending().map(|p| p.wait(timeout)))
    }

    /// Whether an arrival is waiting for its release (`poll` and `wait_pending` have something to
    /// do).
    pub fn is_pending(&self) -> bool {
        on_barrier!(&self.kind, b => b.is_pending())
    }

    /// How waits spend the time after their first miss; see [`crate::WaitPolicy`].
    pub fn set_wait_policy(&mut self, policy: crate::WaitPolicy) {
        on_barrier!(&mut self.kind, b => b.set_wait_policy(policy))
    }

    /// How waits spend the time after their first miss (`Spin` unless set).
    pub fn wait_policy(&self) -> crate::WaitPolicy {
        on_barrier!(&self.kind, b => b.wait_policy())
    }

    /// The last episode arrived at.
    pub fn episode(&self) -> u64 {
        on_barrier!(&self.kind, b => b.episode())
    }

    /// The group's state as this port sees it.
    pub fn snapshot(&self) -> GroupSnapshot {
        on_barrier!(&self.kind, b => b.port().group_handle().snapshot())
    }

    /// Which barrier this is, as its errors name it: a GBA group and member, or the software
    /// fallback.
    pub fn who(&self) -> Who {
        on_barrier!(&self.kind, b => b.who())
    }

    /// With host combining, the local processes of this group that have not arrived for the
    /// pending episode, as the port's arbiter reports them.
    pub fn local_missing(&self) -> Vec<gba_hal::LocalSlot> {
        fn missing<B: gba_hal::Backend>(b: &Barrier<HalPort<'_, B>>) -> Vec<gba_hal::LocalSlot> {
            let group = b.port().group_handle();
            if group.local_arrivals().is_none() {
                return Vec::new();
            }
            let seq = crate::protocol::wire_sequence(b.episode());
            group
                .device()
                .backend()
                .host()
                .local_missing(group.id(), seq)
        }
        on_barrier!(&self.kind, b => missing(b))
    }
}

impl Wait for AnyBarrier {
    fn wait(&mut self, timeout: Option<Duration>) -> crate::Result<()> {
        AnyBarrier::wait(self, timeout)
    }

    fn who(&self) -> Who {
        AnyBarrier::who(self)
    }
}

impl fmt::Debug for AnyBarrier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyBarrier({}, episode {})", self.who(), self.episode())
    }
}

/// Any error of the chain open → barrier → wait, for callers that propagate with `?`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The device could not be opened (its address, its absence, permission, not a GBA).
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The device address could not be parsed.
    #[error(transparent)]
    Address(#[from] gba_hal::AddressError),
    /// Claiming or configuring the group failed.
    #[error(transparent)]
    Group(#[from] gba_hal::Error),
    /// A wait failed: it timed out, the group reported an error, or the device went away.
    #[error(transparent)]
    Wait(#[from] Box<WaitError>),
}
