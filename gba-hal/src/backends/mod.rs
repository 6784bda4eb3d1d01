//! The backends that need an operating system, the HAL's clock, and [`open_hardware`]: a
//! hardware device from its address. The simulator's backend lives in gba-sim, above this
//! crate.

mod arena;
pub mod clock;
pub mod memory;
mod open;
pub mod uio;

pub use memory::MemoryBackend;
pub use open::{OpenError, UIO_SYSFS_ENV, open_hardware};
pub use uio::{UioBackend, UioError};
