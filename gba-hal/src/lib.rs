//! The GBA hardware abstraction layer: what a driver or a runtime embeds.
//!
//! - [`Device`]: a GBA port through a [`Backend`] (UIO hardware, the simulator, plain memory,
//!   or one of your own). Not to be confused with `gba_pac::Device`, the generated register
//!   block, which this `Device` hands out borrowed ([`Device::registers`]) and reaches with
//!   its backend's [`WindowMechanism`] (`Volatile` or `Atomic`; gba-pac's *access mode*, ro/wo/rw,
//!   is another thing). Opening reads DEVICE_ID, VERSION, CAPS and PORT_ID from the device
//!   and refuses anything else by name; limits and identity are never assumed.
//! - [`Device::free_groups`]: the set a member contributes when the members of a job agree on
//!   a group id (docs/datasheet.md section 4: AND of every member's free set, lowest common bit).
//! - [`Device::claim`] with a [`GroupConfig`]: validated against the device before any
//!   register is written, configured as the datasheet says, READY or a named error (a lost
//!   race for the id is the retryable [`Error::GroupBusy`]). The returned [`Group`] resets
//!   and disables the group when dropped, and owns the group's [`ReleaseFlag`].
//! - [`GroupSnapshot`]: members, arrived, missing, sequence, status, counters.
//!
//! Register handles handed out borrow the device (`gba_pac::common::Scoped`), so users of
//! this crate write no `unsafe` and cannot keep a handle past the mapping.
//!
//! Without the default `std` feature the crate is `#![no_std]`: the protocol core for a
//! kernel or firmware driver that implements [`Backend`] itself.

#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
// Errors carry member sets (96 bytes) so that a timeout names who is missing; the core has no
// allocator to box them, and they are returned on cold paths only (open, configure, timeout).
#![allow(clippy::result_large_err)]

// The public modules and who needs them. A driver or runtime needs the crate root and
// `backends` (the backends that open hardware); the others are for authors of a backend, and
// are rebuilt with the host segment (their workspace-only parts are `#[doc(hidden)]`).
#[cfg(feature = "std")]
mod address;
mod arbiter;
mod backend;
// The hardware backends, how to open them, and the clock a backend's `now_ns` reads.
#[cfg(feature = "std")]
pub mod backends;
// `Cell64`: the atomic word `claim`'s state machine runs over (loom's atomics in the models).
pub mod cell;
// The claim record's state machine: in `host::HostSegment`'s signatures.
pub mod claim;
mod config;
mod device;
mod diag;
mod error;
mod group;
// The host segment a backend maps for its port (`HostSegment`, `SegmentArbiter`).
#[cfg(feature = "std")]
pub mod host;
mod identity;
mod members;
mod team_key;
// Memory several processes share (`SharedFile`, `SharedWord`, `SharedError` in
// `host::SegmentError`): the one way a backend maps such memory.
#[cfg(feature = "std")]
pub mod shared;

#[cfg(feature = "std")]
pub use address::{AddressError, DEVICE_ENV, DeviceAddress};
pub use arbiter::{
    Claim, ClaimReport, ClaimSets, ClaimState, DEFAULT_GROUP_QUOTA, Exclusive, HostArbiter,
    LocalSlot, QUOTA_ENV, Reclaimed, Refusal,
};
pub use backend::{Backend, DmaError, DmaRegion, LocalArrivals, LocalTeam, WindowMechanism};
pub use config::{DEFAULT_CONFIGURE_TIMEOUT, GroupConfig};
pub use device::Device;
pub use diag::GroupSnapshot;
pub use error::{Error, Result, refusal};
pub use group::{Group, ReleaseFlag};
pub use identity::{Identity, SUPPORTED_MAJOR};
pub use members::{GroupSet, MemberSet, WORDS as MEMBER_WORDS};
pub use team_key::TeamKey;

/// The ERROR_CODE values, as generated from the spec.
pub use gba_pac::group::STATUS::ERROR_CODE::Value as ErrorCode;
