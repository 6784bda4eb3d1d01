//! The backends that need an operating system, the HAL's clock, and [`open_hardware`] /
//! [`open_vfio`]: a hardware device from its address. The simulator's backend lives in gba-sim, above this
//! crate.

mod arena;
pub mod clock;
pub mod kernel;
pub mod kernel_abi;
pub mod memory;
mod open;
mod phys;
pub mod uio;
pub mod vfio;
/// The VFIO descriptor socket; public for the security tests (`tests/security/`), which play
/// the second opener and a squatter from another user.
#[doc(hidden)]
pub mod vfio_share;

pub use kernel::{KernelBackend, KernelError};
pub use memory::MemoryBackend;
pub use open::{OpenError, UIO_SYSFS_ENV, VFIO_IOVA_ENV, open_hardware, open_kernel, open_vfio};
pub use phys::PhysError;
pub use uio::{UioBackend, UioError};
pub use vfio::{IovaChoice, VfioBackend, VfioError};
