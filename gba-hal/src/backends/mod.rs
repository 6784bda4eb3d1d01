//! The backends that need an operating system, and [`open`]: a device from its name.

mod arena;
pub mod memory;
mod open;
pub mod sim;
pub mod uio;

pub use memory::MemoryBackend;
pub use open::{AnyDevice, DEVICE_ENV, OpenError, UIO_SYSFS_ENV, open};
pub use sim::SimBackend;
pub use uio::{UioBackend, UioError};
