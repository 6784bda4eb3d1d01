//! A hardware address → an opened device. Simulator addresses are opened above this crate
//! (gba-barrier's `AnyDevice`), where the simulator backend is known.

use std::path::PathBuf;

use super::kernel::KernelBackend;
use super::uio::{DEFAULT_SYSFS, UioBackend};
use super::vfio::{IovaChoice, VfioBackend};
use crate::address::{AddressError, DeviceAddress};
use crate::device::Device;

/// The environment variable overriding UIO's sysfs root (tests use a fake tree).
pub const UIO_SYSFS_ENV: &str = "GBA_UIO_SYSFS";

/// The environment variable choosing the VFIO backend's IOVAs: `physical` for IOVA = physical
/// address ([`IovaChoice::Physical`]), anything else or unset for [`IovaChoice::Bump`].
pub const VFIO_IOVA_ENV: &str = "GBA_VFIO_IOVA";

/// Why a device could not be opened. The cause is the `source`, shown once in the chain.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The text is no device address.
    #[error(transparent)]
    Address(#[from] AddressError),

    #[error(
        "{address} is a simulator port, which this crate cannot open: open it with gba_barrier::AnyDevice::open (gba-barrier's default `sim` feature) or gba_sim::SimBackend"
    )]
    /// A simulator address, which gba-hal cannot open.
    NeedsSimulator {
        /// The address.
        address: DeviceAddress,
    },

    #[error(
        "{address} is not a UIO device: open it with gba_hal::backends::open_vfio, open_kernel or gba_barrier::AnyDevice::open"
    )]
    /// Not a UIO device ([`open_hardware`]).
    NotUio {
        /// The address.
        address: DeviceAddress,
    },

    #[error("{address} is not a VFIO device (`vfio:0000:00:04.0`)")]
    /// Not a VFIO device ([`open_vfio`]).
    NotVfio {
        /// The address.
        address: DeviceAddress,
    },

    #[error("{address} is not a port of the kernel driver (`/dev/gbaN`)")]
    /// Not a kernel driver port ([`open_kernel`]).
    NotKernel {
        /// The address.
        address: DeviceAddress,
    },

    #[error("{address} cannot be opened")]
    /// The backend could not open the device.
    Backend {
        /// The address.
        address: DeviceAddress,
        #[source]
        /// The backend's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },

    #[error("{address} is not a usable GBA")]
    /// The device opened but is no usable GBA (its identity registers say why).
    Device {
        /// The address.
        address: DeviceAddress,
        #[source]
        /// What its registers said.
        source: crate::Error,
    },
}

/// Opens a hardware device (`/dev/uioN`, maps read from `GBA_UIO_SYSFS` or `/sys/class/uio`).
pub fn open_hardware(address: &DeviceAddress) -> Result<Device<UioBackend>, OpenError> {
    let path = match address {
        DeviceAddress::Uio(path) => path,
        DeviceAddress::Sim { .. } => {
            return Err(OpenError::NeedsSimulator {
                address: address.clone(),
            });
        }
        DeviceAddress::Vfio(_) | DeviceAddress::Kernel(_) => {
            return Err(OpenError::NotUio {
                address: address.clone(),
            });
        }
    };
    let sysfs = std::env::var_os(UIO_SYSFS_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SYSFS));
    let backend = UioBackend::open(path, &sysfs).map_err(|source| OpenError::Backend {
        address: address.clone(),
        source: Box::new(source),
    })?;
    Device::new(backend).map_err(|source| OpenError::Device {
        address: address.clone(),
        source,
    })
}

/// Opens a PCI device bound to vfio-pci (`vfio:0000:00:04.0`), IOVAs chosen by
/// `GBA_VFIO_IOVA`.
pub fn open_vfio(address: &DeviceAddress) -> Result<Device<VfioBackend>, OpenError> {
    let DeviceAddress::Vfio(bdf) = address else {
        return Err(OpenError::NotVfio {
            address: address.clone(),
        });
    };
    let iova = match std::env::var(VFIO_IOVA_ENV).as_deref() {
        Ok("physical") => IovaChoice::Physical,
        _ => IovaChoice::Bump,
    };
    let backend = VfioBackend::open(bdf, iova).map_err(|source| OpenError::Backend {
        address: address.clone(),
        source: Box::new(source),
    })?;
    Device::new(backend).map_err(|source| OpenError::Device {
        address: address.clone(),
        source,
    })
}

/// Opens a port of the kernel driver (`/dev/gba0`).
pub fn open_kernel(address: &DeviceAddress) -> Result<Device<KernelBackend>, OpenError> {
    let DeviceAddress::Kernel(path) = address else {
        return Err(OpenError::NotKernel {
            address: address.clone(),
        });
    };
    let backend = KernelBackend::open(path).map_err(|source| OpenError::Backend {
        address: address.clone(),
        source: Box::new(source),
    })?;
    Device::new(backend).map_err(|source| OpenError::Device {
        address: address.clone(),
        source,
    })
}
