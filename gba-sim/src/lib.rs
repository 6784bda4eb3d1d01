//! The GBA device simulator: the switch of docs/datasheet.md sections 4 and 5 on one machine.
//!
//! A [`Fabric`] is P switch ports in a directory of shared-memory files (by default in the
//! user's runtime directory, [`default_path`]; only its owner may use it). Each port has its own register window, laid out exactly as the hardware's
//! (`gba_pac::Device`), and its own DMA arena; several processes each open their own
//! [`Port`], as hosts open their `/dev/gba0`. The switch model ([`engine`]) reads and writes
//! the windows through gba-pac's generated definitions, with the atomic mechanism, and steps
//! either cooperatively (a waiting member calls [`Port::progress`]) or in a dedicated loop
//! (`gba sim run`), one step at a time under an inter-process lock that survives a process
//! killed while holding it. [`faults`] injects what real fabrics do to software.
//!
//! Device addresses (IOVAs) are arena offsets plus [`layout::IOVA_BASE`], so a host pointer
//! given to the device where an IOVA belongs is caught as DMA_FAULT.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

mod backend;
pub mod claim;
pub mod combine;
pub mod engine;
mod error;
mod fabric;
pub mod faults;
pub mod host;
pub mod layout;
mod lock;
pub mod os;
mod port;
mod status;
pub mod vm;

pub use backend::SimBackend;
pub use error::{Error, Result};
pub use fabric::{CreateOptions, Fabric, PATH_ENV, default_path};
pub use lock::StepGuard;
pub use port::{DmaBlock, Port};
pub use status::{GroupReport, Holding, PortReport, error_name, holdings};
