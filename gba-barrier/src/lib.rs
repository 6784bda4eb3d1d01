//! Barriers for the Global Barrier Accelerator, and the software barriers they fall back to.
//!
//! # Making a barrier
//!
//! **From Rust: [`team::Team::create`].** Every rank of a job opens its host's device
//! ([`AnyDevice::open`], or [`AnyDevice::open_str`] for `GBA_DEVICE`) and creates the team
//! with the job's out-of-band allgather ([`team::OutOfBand`]: the runtime's allgather, a
//! closure, or [`team::DirOob`] over a shared directory). The library agrees on a group, configures it,
//! makes the processes that share a port one member, and gives every rank the same
//! [`team::Verdict`]: offloaded, and [`team::Team::wait`] (or `arrive`/`test`) is the barrier; or a
//! fallback that names its reason and the rank that caused it, and every rank uses its
//! software barrier (for instance one of [`soft`]).
//!
//! **From C: `gba_team_create`**, the same agreement behind a handle, in the C library
//! `libgba_barrier` (crate `gba-barrier-c`, header `gba-barrier-c/include/gba_barrier.h`).
//!
//! ```
//! use std::time::Duration;
//!
//! use gba_barrier::gba_hal::DeviceAddress;
//! use gba_barrier::AnyDevice;
//! use gba_barrier::team::{DirOob, Team, TeamParams};
//!
//! type Error = Box<dyn std::error::Error + Send + Sync>;
//! # fn main() -> Result<(), Error> {
//! # let dir = tempfile::tempdir()?;
//! # let fabric = dir.path().join("fabric");
//! # gba_sim::Fabric::create(&fabric, 2)?;
//! # let exchange = dir.path().join("allgather");
//! # std::fs::create_dir(&exchange)?;
//! // Two ranks, here two threads on the ports of a simulator fabric; on hardware each host
//! // opens its own device ("/dev/gba0") and the allgather is the job's (MPI, PMIx, …).
//! std::thread::scope(|s| {
//!     let ranks = [0, 1].map(|rank| {
//!         let (fabric, exchange) = (&fabric, &exchange);
//!         s.spawn(move || -> Result<(), Error> {
//!             let device = AnyDevice::open(&DeviceAddress::sim(fabric, rank))?;
//!             let mut allgather = DirOob::new(exchange, rank, 2, Duration::from_secs(60));
//!             let params = TeamParams::default();
//!             let mut team = Team::create(Some(&device), &mut allgather, rank as u32, 2, &params)?;
//!             // The same verdict on every rank: here offloaded; a fallback says why.
//!             assert!(team.verdict().is_offloaded(), "{}", team.verdict());
//!             for _ in 0..3 {
//!                 team.wait(Some(Duration::from_secs(10)))?; // errors name who is missing
//!             }
//!             Ok(())
//!         })
//!     });
//!     ranks.into_iter().try_for_each(|rank| rank.join().expect("no panic"))
//! })?;
//! # Ok(())
//! # }
//! ```
//!
//! ## The layers underneath
//!
//! Public for the callers that need them; each does less than the front door.
//!
//! - [`AnyDevice::barrier`] → [`AnyBarrier`]: one member's barrier on a group whose id and
//!   members the caller has agreed on already (a fixed configuration, a driver's own
//!   agreement); no fallback, no host combining. C: `gba_barrier_create`.
//! - [`hal::offload`]: a [`Barrier`] over a group of a typed `gba_hal::Device` (the
//!   benchmarks measure the bare barrier this way, without `AnyDevice`'s dispatch).
//! - [`Barrier::new`] over your own [`Port`]: a new transport, or a model in tests.
//!
//! # Also here
//!
//! - [`Wait`]: the `wait(timeout)` every barrier here shares; its errors ([`WaitError`]) name
//!   the barrier, the episode and who is missing ([`Who`], [`Missing`], [`DeviceFault`]);
//!   [`error_chain`] prints an error with its causes.
//! - [`WaitPolicy`]: spin before yielding, or yield at once (oversubscribed machines).
//! - [`soft`]: central counter and dissemination barriers for threads and processes, and
//!   `std::sync::Barrier` behind [`Wait`].
//!
//! All atomics go through the private `primitive` module so that `--cfg loom` model-checks
//! the protocol (`tests/loom.rs`, run by `gba-barrier/loom.sh`).

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

// Private: their items are re-exported below.
#[cfg(not(loom))]
mod any_device;
mod barrier;
mod port_trait;
pub(crate) mod primitive;
mod protocol;
mod wait_error;
mod wait_loop;

// Public namespaces.
#[cfg(not(loom))]
pub mod hal;
pub mod soft;
#[cfg(not(loom))]
pub mod team;

/// Host combining's arrival counting. Hidden, not private: `tests/loom.rs` model-checks it
/// from outside the crate, and only through public items; it is no API.
#[doc(hidden)]
pub mod combine;

use std::time::Duration;

#[cfg(not(loom))]
pub use any_device::{AnyBarrier, AnyDevice, Error as AnyError};
pub use barrier::{Barrier, Pending};
/// The HAL this crate is built on, so that a caller's `DeviceAddress`, `GroupConfig` and
/// `MemberSet` are the very types `AnyDevice` takes.
#[cfg(not(loom))]
pub use gba_hal;
pub use port_trait::{Arrivals, Diagnosis, Port, release_before_doorbell};
pub use wait_error::{DeviceFault, Missing, Result, WaitError, Who, chain as error_chain};
pub use wait_loop::{WAIT_POLICY_ENV, WaitPolicy};

/// A barrier: `wait` returns once every member has called it for this episode.
///
/// Implemented by the offloaded [`Barrier`] and by every software barrier in [`soft`], so a
/// runtime can fall back, and a benchmark can compare, through one interface.
pub trait Wait {
    /// Arrive and wait until all members have arrived for this episode. `None` waits for
    /// ever; on timeout the error names the barrier, the episode and who is missing.
    fn wait(&mut self, timeout: Option<Duration>) -> Result<()>;

    /// Which barrier this is (for messages and tables).
    fn who(&self) -> Who;
}

impl<W: Wait + ?Sized> Wait for Box<W> {
    fn wait(&mut self, timeout: Option<Duration>) -> Result<()> {
        (**self).wait(timeout)
    }

    fn who(&self) -> Who {
        (**self).who()
    }
}

impl<W: Wait + ?Sized> Wait for &mut W {
    fn wait(&mut self, timeout: Option<Duration>) -> Result<()> {
        (**self).wait(timeout)
    }

    fn who(&self) -> Who {
        (**self).who()
    }
}
