//! Offload when the GBA can serve, a software barrier when it cannot — and say so, once.
//!
//! Offload is unavailable when there is no device, no free group, more members than the
//! device supports, or the device refuses the group. Every member of a job must make the same
//! choice (a runtime agrees on it collectively, as it agrees on the group id); this module
//! makes the choice for one member and announces a fallback once per process, with the
//! reason, on standard error.
//!
//! Deprecated: the choice is per member, so one member may offload while another falls back
//! and the job hangs. [`crate::team::Team::create`] makes the same choice on every rank.

// The module's own uses of what it deprecates.
#![allow(deprecated)]

use std::fmt;
use std::sync::Once;
use std::time::Duration;

use gba_hal::{Backend, Device, GroupConfig};

use crate::Wait;
use crate::barrier::Barrier;
use crate::hal::{HalPort, ProgressHook, offload};
use crate::wait_error::{Result, Who};

static ANNOUNCED: Once = Once::new();

/// Prints, the first time only in this process, that offload is unavailable and why.
#[deprecated(
    since = "0.2.0",
    note = "use gba_barrier::team::Team::create, whose verdict every rank shares and can print"
)]
pub fn announce(reason: &dyn fmt::Display, software: &str) {
    ANNOUNCED.call_once(|| {
        eprintln!("gba-barrier: offload unavailable ({reason}); running the {software} software barrier instead");
    });
}

/// One member's barrier: on the GBA, or the software barrier it fell back to.
// The offloaded barrier's hot state is cache-padded on purpose; boxing it would put a pointer
// chase on the hot path.
#[allow(clippy::large_enum_variant)]
#[deprecated(
    since = "0.2.0",
    note = "use gba_barrier::team::Team::create: a per-member fallback can split a job"
)]
pub enum Chosen<'d, B: Backend, S: Wait> {
    Offload(Barrier<HalPort<'d, B>>),
    Software(S),
}

impl<B: Backend, S: Wait> fmt::Debug for Chosen<'_, B, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Chosen({})", self.who())
    }
}

impl<'d, B: Backend, S: Wait> Chosen<'d, B, S> {
    /// The offloaded barrier over `config` on `device` if there is a device and it accepts
    /// the group; otherwise `software()`, announced once with the reason.
    pub fn new(
        device: std::result::Result<&'d Device<B>, String>,
        config: GroupConfig,
        hook: Option<&'d ProgressHook>,
        software: impl FnOnce() -> S,
    ) -> Self {
        let reason = match device {
            Ok(device) => match offload(device, config, hook) {
                Ok(barrier) => return Chosen::Offload(barrier),
                Err(error) => error.to_string(),
            },
            Err(reason) => reason,
        };
        let software = software();
        let name = match software.who() {
            Who::Software { name, .. } => name,
            Who::Group { .. } => "other",
        };
        announce(&reason, name);
        Chosen::Software(software)
    }

    pub fn is_offloaded(&self) -> bool {
        matches!(self, Chosen::Offload(_))
    }
}

impl<B: Backend, S: Wait> Wait for Chosen<'_, B, S> {
    fn wait(&mut self, timeout: Option<Duration>) -> Result<()> {
        match self {
            Chosen::Offload(barrier) => barrier.wait(timeout),
            Chosen::Software(software) => software.wait(timeout),
        }
    }

    fn who(&self) -> Who {
        match self {
            Chosen::Offload(barrier) => barrier.who(),
            Chosen::Software(software) => software.who(),
        }
    }
}
