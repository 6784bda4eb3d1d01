//! A GBA port opened through gba-hal (`sim:DIR#PORT`, `/dev/uioN`, `vfio:BDF`) as a [`Bus`]:
//! the checks' reads and writes go to its mapped register window with the backend's own
//! mechanism (volatile accesses for MMIO, atomic ones for the simulator's shared memory;
//! `gba_hal::Device::read_raw`/`write_raw`), for a board's bring-up.
//!
//! A device cannot be reset from here, nor its hardware side driven: reset values are
//! checked as found, and the checks that need hardware to set a field are listed as not
//! run. The checks write every writable register of every group, so a device in use (a
//! group enabled, or claimed by a process) is refused unless the caller says `--force`.

use gba_barrier::AnyDevice;
use gba_barrier::error_chain as chain;
use gba_hal::DeviceAddress;

use super::Bus;
use super::gaps::Gaps;

pub struct DeviceBus {
    device: AnyDevice,
}

impl DeviceBus {
    /// Opens `address`; refuses a device in use unless `force`.
    pub fn open(address: &str, force: bool) -> Result<DeviceBus, String> {
        let parsed: DeviceAddress = address.parse().map_err(|e| format!("{e}"))?;
        if let DeviceAddress::Kernel(path) = &parsed {
            return Err(format!(
                "{}: the kernel driver maps only a held group's run-time page, and the checks \
                 need the whole register window: verify the board before loading gba.ko, \
                 through UIO or VFIO (`--device /dev/uioN` or `vfio:BDF`)",
                path.display()
            ));
        }
        let device = AnyDevice::open(&parsed).map_err(|e| chain(&e))?;
        let bus = DeviceBus { device };
        if !force && let Some(busy) = bus.in_use() {
            return Err(format!(
                "{address} is in use ({busy}): `gba verify --device` writes every register of \
                 every group, which would break the barriers running there; run it on a \
                 board in bring-up, or pass --force to disturb it anyway"
            ));
        }
        Ok(bus)
    }

    /// What says the device is in use: groups busy on the switch or held by a process.
    fn in_use(&self) -> Option<String> {
        let groups = self.device.identity().max_groups;
        let free = self.device.free_groups().iter().count();
        let claims = self.device.host_claims();
        if free == groups && claims.is_empty() {
            return None;
        }
        Some(format!(
            "{} of its {groups} groups busy or held, {} claim(s){}",
            groups - free,
            claims.len(),
            claims
                .first()
                .map_or(String::new(), |c| format!(", the first: {c}"))
        ))
    }

    /// What the device cannot show: nothing is known to be missing (a device that lacks an
    /// effect fails its check). The simulator's window is shared memory, which stores what
    /// any host writes, but its switch ignores a store into a read-only register, drops a
    /// doorbell outside a group and ends a pulse at its next step, which
    /// [`Bus::settle`] runs (`gba_hal::Device::settle`).
    pub fn gaps(&self) -> Gaps {
        Gaps::default()
    }

    pub fn describe(&self) -> String {
        self.device.to_string()
    }
}

impl Bus for DeviceBus {
    fn read(&mut self, addr: u64, width: u32) -> Result<u64, String> {
        usize::try_from(addr)
            .ok()
            .and_then(|a| self.device.read_raw(a, width))
            .ok_or_else(|| outside(addr, width))
    }

    fn write(&mut self, addr: u64, width: u32, value: u64) -> Result<(), String> {
        match usize::try_from(addr) {
            Ok(a) if self.device.write_raw(a, width, value) => Ok(()),
            _ => Err(outside(addr, width)),
        }
    }

    fn reset(&mut self) -> Result<bool, String> {
        Ok(false)
    }

    fn hw_write(&mut self, _field: &str, _value: u64) -> Result<bool, String> {
        Ok(false)
    }

    /// A simulator port knows its strap: PORT_ID.PORT is the port number of its address
    /// (`sim:DIR#PORT`). A board's straps are its own (`--strap`).
    fn strap(&self, field: &str) -> Option<u64> {
        match self.device.address() {
            DeviceAddress::Sim { port, .. } if field == PORT_STRAP => u64::try_from(*port).ok(),
            _ => None,
        }
    }

    fn settle(&mut self) -> Result<(), String> {
        self.device.settle();
        Ok(())
    }
}

/// gba.yaml's one strapped field, in the spec's terms.
const PORT_STRAP: &str = "global.PORT_ID.PORT";

fn outside(addr: u64, width: u32) -> String {
    format!(
        "the device window ({:#x} bytes) has no {width}-bit register at {addr:#x}: only aligned \
         32- and 64-bit accesses inside it; is --spec the device's own map?",
        gba_pac::Device::SIZE
    )
}
