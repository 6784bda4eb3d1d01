//! Where a device is: [`DeviceAddress`], parsed once from text (`sim:DIR#P`, `/dev/gbaN`,
//! `/dev/uioN`, `vfio:0000:00:04.0`) and
//! shown by `Display` in the same syntax, so that an address is never assembled by hand.
//!
//! This crate opens hardware addresses itself ([`crate::backends::open_hardware`]); a
//! simulator address is opened by the crates that know both (gba-barrier's `AnyDevice`, the
//! `gba` command line), because the simulator is a backend built on top of this crate.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The environment variable naming the device when none is given.
pub const DEVICE_ENV: &str = "GBA_DEVICE";

/// The address of one GBA port.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DeviceAddress {
    /// Port `port` of the simulator fabric in directory `fabric`: `sim:<fabric>#<port>`.
    Sim {
        /// The fabric's directory.
        fabric: PathBuf,
        /// The port.
        port: usize,
    },
    /// A Linux UIO device node: `/dev/uioN`.
    Uio(PathBuf),
    /// A port of the GBA kernel driver (`driver/gba.ko`): `/dev/gbaN`.
    Kernel(PathBuf),
    /// A PCI device bound to vfio-pci: `vfio:<domain:bus:device.function>`, e.g.
    /// `vfio:0000:00:04.0` (the form `lspci -D` prints).
    Vfio(String),
}

/// Why a text is not a device address. Every message says what the syntax is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// No address given, and none in the environment.
    #[error(
        "no device given and {DEVICE_ENV} is not set: name one, e.g. `sim:/dev/shm/gba-fabric#0` (a simulator port) or `/dev/uio0`"
    )]
    NotGiven,

    #[error("the device address is empty; use `sim:<fabric-dir>#<port>` or `/dev/uioN`")]
    /// An empty text.
    Empty,

    #[error(
        "{text:?} names no port: a simulator address ends in #<port>, e.g. `sim:/dev/shm/gba-fabric#0`"
    )]
    /// A simulator address without `#<port>`.
    NoPort {
        /// The text given.
        text: String,
    },

    #[error(
        "{text:?} names no fabric directory before #: use `sim:<fabric-dir>#<port>`, e.g. `sim:/dev/shm/gba-fabric#0`"
    )]
    /// A simulator address without a directory before `#`.
    NoFabric {
        /// The text given.
        text: String,
    },

    #[error("{text:?}: the port after # must be a number (0, 1, …), not {port:?}")]
    /// A simulator port that is not a number.
    BadPort {
        /// The text given.
        text: String,
        /// What stands after `#`.
        port: String,
    },

    #[error(
        "{text:?}: after vfio: comes a full PCI address as `lspci -D` prints it, e.g. `vfio:0000:00:04.0`"
    )]
    /// A `vfio:` address without a full PCI address.
    BadPci {
        /// The text given.
        text: String,
    },

    #[error(
        "{text:?} is neither a simulator port (`sim:<fabric-dir>#<port>`), a kernel driver port (`/dev/gbaN`), a UIO device node (`/dev/uioN`) nor a VFIO device (`vfio:0000:00:04.0`)"
    )]
    /// A text of no known form.
    Unknown {
        /// The text given.
        text: String,
    },
}

impl DeviceAddress {
    /// Port `port` of the fabric in `fabric`.
    pub fn sim(fabric: impl Into<PathBuf>, port: usize) -> Self {
        DeviceAddress::Sim {
            fabric: fabric.into(),
            port,
        }
    }

    /// The address in the `GBA_DEVICE` environment variable.
    pub fn from_env() -> Result<Self, AddressError> {
        std::env::var(DEVICE_ENV)
            .map_err(|_| AddressError::NotGiven)?
            .parse()
    }

    /// `text` parsed, or the `GBA_DEVICE` environment variable when `None`.
    pub fn parse_or_env(text: Option<&str>) -> Result<Self, AddressError> {
        text.map_or_else(Self::from_env, str::parse)
    }
}

impl FromStr for DeviceAddress {
    type Err = AddressError;

    fn from_str(text: &str) -> Result<Self, AddressError> {
        if text.is_empty() {
            return Err(AddressError::Empty);
        }
        if let Some(rest) = text.strip_prefix("sim:") {
            let Some((fabric, port)) = rest.rsplit_once('#') else {
                return Err(AddressError::NoPort { text: text.into() });
            };
            if fabric.is_empty() {
                return Err(AddressError::NoFabric { text: text.into() });
            }
            let port = port.parse().map_err(|_| AddressError::BadPort {
                text: text.into(),
                port: port.into(),
            })?;
            return Ok(DeviceAddress::sim(fabric, port));
        }
        if let Some(bdf) = text.strip_prefix("vfio:") {
            if !crate::backends::vfio::is_pci_address(bdf) {
                return Err(AddressError::BadPci { text: text.into() });
            }
            return Ok(DeviceAddress::Vfio(bdf.to_ascii_lowercase()));
        }
        let path = Path::new(text);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("uio") {
            Ok(DeviceAddress::Uio(path.to_path_buf()))
        } else if name.starts_with("gba") {
            Ok(DeviceAddress::Kernel(path.to_path_buf()))
        } else {
            Err(AddressError::Unknown { text: text.into() })
        }
    }
}

impl fmt::Display for DeviceAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceAddress::Sim { fabric, port } => write!(f, "sim:{}#{port}", fabric.display()),
            DeviceAddress::Uio(path) | DeviceAddress::Kernel(path) => {
                write!(f, "{}", path.display())
            }
            DeviceAddress::Vfio(bdf) => write!(f, "vfio:{bdf}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_round_trip_through_display() {
        for text in [
            "sim:/dev/shm/gba-fabric#0",
            "sim:rel/dir#12",
            "sim:a#b#3",
            "/dev/uio0",
            "/dev/gba0",
            "vfio:0000:00:04.0",
            "vfio:0001:af:1f.7",
        ] {
            let address: DeviceAddress = text.parse().expect(text);
            assert_eq!(address.to_string(), text);
        }
        assert_eq!(
            "/dev/gba1".parse(),
            Ok(DeviceAddress::Kernel("/dev/gba1".into())),
            "a kernel driver port"
        );
        assert_eq!(
            "sim:/f#2".parse(),
            Ok(DeviceAddress::sim("/f", 2)),
            "the port is the part after the last #"
        );
    }

    #[test]
    fn bad_addresses_are_refused_with_their_own_reason() {
        let parse = |text: &str| text.parse::<DeviceAddress>().expect_err(text);
        assert_eq!(parse(""), AddressError::Empty);
        assert!(matches!(parse("sim:#0"), AddressError::NoFabric { .. }));
        assert!(matches!(parse("sim:/f"), AddressError::NoPort { .. }));
        assert!(matches!(parse("sim:/f#x"), AddressError::BadPort { .. }));
        assert!(matches!(parse("sim:/f#-1"), AddressError::BadPort { .. }));
        assert!(matches!(parse("/dev/sda"), AddressError::Unknown { .. }));
        assert!(parse("sim:#0").to_string().contains("no fabric directory"));
        assert!(matches!(parse("vfio:00:04.0"), AddressError::BadPci { .. }));
        assert!(matches!(parse("vfio:"), AddressError::BadPci { .. }));
        assert!(parse("vfio:x").to_string().contains("lspci -D"));
    }
}
