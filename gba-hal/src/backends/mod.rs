//! The backends that need an operating system, the HAL's clock ([`monotonic_ns`]), and [`open_hardware`] /
//! [`open_vfio`]: a hardware device from its address. The simulator's backend lives in gba-sim, above this
//! crate.

// Each backend type has one path, `gba_hal::backends::X`; the modules are private.
mod arena;
mod clock;
mod kernel;
// The driver's ioctl ABI: internal to the kernel backend (`tests/kernel_abi.rs` compiles this
// file on its own to check it against `driver/gba_ioctl.h`).
pub(crate) mod kernel_abi;
mod memory;
mod open;
mod phys;
mod revoked;
mod uio;
pub(crate) mod vfio;
/// The VFIO descriptor socket; public for the security tests (`tests/security/`), which play
/// the second opener and a squatter from another user.
#[doc(hidden)]
pub mod vfio_share;

pub use clock::monotonic_ns;
pub use kernel::{KernelBackend, KernelError};
pub use memory::MemoryBackend;
pub use open::{OpenError, UIO_SYSFS_ENV, VFIO_IOVA_ENV, open_hardware, open_kernel, open_vfio};
pub use phys::PhysError;
pub use uio::{DEFAULT_SYSFS as DEFAULT_UIO_SYSFS, UioBackend, UioError};
pub use vfio::{DEFAULT_DEV_VFIO, DEFAULT_PCI_SYSFS, IovaChoice, VfioBackend, VfioError};
