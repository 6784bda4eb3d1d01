//! Who the device is and what it can do, read from its registers: nothing here is assumed.

use gba_pac::global::{self, CAPS, PORT_ID, VERSION};
use gba_pac::tock_registers::interfaces::Readable;

use crate::error::{Error, Result};

/// The major version of the register map this software implements.
pub const SUPPORTED_MAJOR: u16 = (global::reset::VERSION >> 16) as u16;

/// DEVICE_ID, VERSION, CAPS and PORT_ID of an opened device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    /// DEVICE_ID.
    pub device_id: u32,
    /// VERSION's major number.
    pub version_major: u16,
    /// VERSION's minor number.
    pub version_minor: u16,
    /// CAPS.MAX_GROUPS: groups 0..max_groups exist.
    pub max_groups: usize,
    /// CAPS.MAX_MEMBERS: members 0..max_members exist.
    pub max_members: usize,
    /// PORT_ID: this host's switch port, which is its member id in every group.
    pub port: usize,
}

impl Identity {
    /// Reads the identity registers and refuses anything that is not a GBA of a known major
    /// version.
    pub(crate) fn read<M: crate::backend::WindowMechanism>(
        regs: global::Global<M>,
    ) -> Result<Identity> {
        let device_id = regs.device_id().get();
        if device_id != global::reset::DEVICE_ID {
            return Err(Error::NotGba {
                found: device_id,
                expected: global::reset::DEVICE_ID,
            });
        }
        let version = regs.version().extract();
        let major = version.read(VERSION::MAJOR) as u16;
        let minor = version.read(VERSION::MINOR) as u16;
        if major != SUPPORTED_MAJOR {
            return Err(Error::UnsupportedVersion {
                major,
                minor,
                supported: SUPPORTED_MAJOR,
            });
        }
        let caps = regs.caps().extract();
        Ok(Identity {
            device_id,
            version_major: major,
            version_minor: minor,
            max_groups: (caps.read(CAPS::MAX_GROUPS) as usize).min(gba_pac::Device::GROUP_COUNT),
            max_members: (caps.read(CAPS::MAX_MEMBERS) as usize)
                .min(crate::members::MemberSet::CAPACITY),
            port: regs.port_id().read(PORT_ID::PORT) as usize,
        })
    }
}
