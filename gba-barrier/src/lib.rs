//! Barriers for the Global Barrier Accelerator, and the software barriers they fall back to.
//!
//! - [`offload::Barrier`]: one member's barrier over a configured GBA group, generic over the
//!   [`Port`] trait, which [`hal::HalPort`] implements over a gba-hal group (hardware or
//!   simulator). `wait`, and split-phase
//!   `arrive` → [`offload::Pending`] → `test`/`wait`.
//! - [`soft`]: sense-reversing central counter and dissemination barriers over shared memory,
//!   for threads (heap cells) and for processes (a shared-memory file), and a wrapper over
//!   `std::sync::Barrier`. They are the fallback and the benchmark's peers.
//! - [`Wait`]: the `wait(timeout)` every barrier here shares.
//! - [`protocol`]: episode numbers, wire sequences, serial comparison, the doorbell word.
//!
//! All atomics go through the private `primitive` module so that `--cfg loom` model-checks
//! the protocol (`tests/loom.rs`, run by `gba-barrier/loom.sh`).

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod backoff;
pub mod combine;
#[cfg(not(loom))]
pub mod device;
pub mod error;
#[cfg(not(loom))]
pub mod fallback;
#[cfg(not(loom))]
pub mod hal;
pub mod offload;
pub mod port;
pub(crate) mod primitive;
pub mod protocol;
pub mod soft;
#[cfg(not(loom))]
pub mod team;

use std::time::Duration;

pub use backoff::{WAIT_POLICY_ENV, WaitPolicy};
#[cfg(not(loom))]
pub use device::{AnyBarrier, AnyDevice, Error as AnyError};
pub use error::{DeviceFault, Missing, Result, WaitError, Who};
/// The HAL this crate is built on, so that a caller's `DeviceAddress`, `GroupConfig` and
/// `MemberSet` are the very types `AnyDevice` takes.
#[cfg(not(loom))]
pub use gba_hal;
pub use offload::{Barrier, Pending};
pub use port::{Diagnosis, Port, release_before_doorbell};

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
