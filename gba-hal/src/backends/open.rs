//! `sim:<fabric-dir>#<port>` or `/dev/uioN` → an opened device.

use std::path::{Path, PathBuf};

use super::sim::SimBackend;
use super::uio::{DEFAULT_SYSFS, UioBackend, UioError};
use crate::device::Device;

/// The environment variable naming the device when none is given.
pub const DEVICE_ENV: &str = "GBA_DEVICE";
/// The environment variable overriding UIO's sysfs root (tests use a fake tree).
pub const UIO_SYSFS_ENV: &str = "GBA_UIO_SYSFS";

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(
        "no device given and {DEVICE_ENV} is not set: name one, e.g. `sim:/dev/shm/gba-fabric#0` (a simulator port) or `/dev/uio0`"
    )]
    NoDeviceNamed,

    #[error(
        "cannot understand the device name {spec:?}: {reason}; use `sim:<fabric-dir>#<port>` or `/dev/uioN`"
    )]
    BadName { spec: String, reason: &'static str },

    #[error("cannot open simulator port {port} of {}", fabric.display())]
    Sim {
        fabric: PathBuf,
        port: usize,
        #[source]
        source: gba_sim::Error,
    },

    #[error("cannot open UIO device {}", device.display())]
    Uio {
        device: PathBuf,
        #[source]
        source: UioError,
    },

    #[error("{spec} is not a usable GBA")]
    Device {
        spec: String,
        #[source]
        source: crate::Error,
    },
}

/// A device of either kind. Code that wants one type for both matches once, then works with
/// the generic [`Device`].
#[derive(Debug)]
pub enum AnyDevice {
    Sim(Device<SimBackend>),
    Uio(Device<UioBackend>),
}

impl AnyDevice {
    /// Opens the device named `spec` (`sim:<fabric-dir>#<port>` or `/dev/uioN`), or by the
    /// `GBA_DEVICE` environment variable when `None`: the same as [`open`].
    pub fn open(spec: Option<&str>) -> Result<AnyDevice, OpenError> {
        open(spec)
    }

    pub fn identity(&self) -> &crate::Identity {
        match self {
            AnyDevice::Sim(d) => d.identity(),
            AnyDevice::Uio(d) => d.identity(),
        }
    }
}

impl std::fmt::Display for AnyDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnyDevice::Sim(d) => d.fmt(f),
            AnyDevice::Uio(d) => d.fmt(f),
        }
    }
}

/// Opens the device named `spec`, or by the `GBA_DEVICE` environment variable when `None`.
pub fn open(spec: Option<&str>) -> Result<AnyDevice, OpenError> {
    let spec = match spec {
        Some(spec) => spec.to_string(),
        None => std::env::var(DEVICE_ENV).map_err(|_| OpenError::NoDeviceNamed)?,
    };
    let device_error = |source| OpenError::Device {
        spec: spec.clone(),
        source,
    };
    if let Some(rest) = spec.strip_prefix("sim:") {
        let (dir, port) = rest.rsplit_once('#').ok_or(OpenError::BadName {
            spec: spec.clone(),
            reason: "a simulator name ends in #<port>",
        })?;
        let port: usize = port.parse().map_err(|_| OpenError::BadName {
            spec: spec.clone(),
            reason: "the port after # is not a number",
        })?;
        let fabric = PathBuf::from(dir);
        let backend = SimBackend::open(&fabric, port).map_err(|source| OpenError::Sim {
            fabric,
            port,
            source,
        })?;
        return Device::new(backend)
            .map(AnyDevice::Sim)
            .map_err(device_error);
    }
    let path = Path::new(&spec);
    let is_uio = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("uio"));
    if !is_uio {
        return Err(OpenError::BadName {
            spec: spec.clone(),
            reason: "it is neither a simulator port nor a UIO device node",
        });
    }
    let sysfs = std::env::var_os(UIO_SYSFS_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SYSFS));
    let backend = UioBackend::open(path, &sysfs).map_err(|source| OpenError::Uio {
        device: path.to_path_buf(),
        source,
    })?;
    Device::new(backend)
        .map(AnyDevice::Uio)
        .map_err(device_error)
}
