//! The GBA device simulator: the switch of docs/datasheet.md sections 4 and 5 on one machine.
//!
//! A [`Fabric`] is P switch ports in a directory of shared-memory files (by default in the
//! user's runtime directory, [`default_path`]; only its owner may use it). Each port has its
//! own register window, laid out exactly as the hardware's (`gba_pac::Device`), and its own DMA
//! arena; several processes each open their own port, as hosts open their `/dev/gba0`: a
//! [`SimBackend`], gba-hal's `Backend` for a simulated port. The switch model reads and writes the windows
//! through gba-pac's generated definitions, with the atomic mechanism, and steps either
//! cooperatively (a waiting member calls `Backend::progress`, or [`Fabric::progress`]) or in a dedicated loop (`gba sim
//! run`), one step at a time under an inter-process lock that survives a process killed while
//! holding it ([`StepGuard`]). [`Fabric`]'s fault injection ([`Fabric::drop_arrivals`],
//! [`Fabric::mark_dead`], …) does what real fabrics do to software; [`vm`] lays a fabric out
//! for virtual machines.
//!
//! Device addresses (IOVAs) are arena offsets plus a base whose high bits no host pointer has,
//! so a host pointer given to the device where an IOVA belongs is caught as DMA_FAULT.

#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

mod backend;
// Not an API: public for gba-sim/tests/loom.rs, which runs the fast path's arrival word
// over loom's atomics.
#[doc(hidden)]
pub mod arrival_word;
mod engine;
mod error;
mod fabric;
// The `impl Fabric` blocks of fault injection and of the host segment.
mod faults;
mod host;
// Not an API: public for tools that read a switch file from outside and name its words
// (cli/examples/episode_lines.rs) and for this crate's tests; the layout changes with
// LAYOUT_VERSION.
#[doc(hidden)]
pub mod layout;
mod lock;
mod owned;
mod port;
mod status;
pub mod vm;

pub use backend::SimBackend;
pub use error::{Error, Result};
pub use fabric::{Counters, CreateOptions, Creator, Fabric, PATH_ENV, default_path};
pub use gba_hal::Reclaimed;
pub use lock::StepGuard;
pub use status::{GroupReport, Holding, PortReport, error_name, holdings};
