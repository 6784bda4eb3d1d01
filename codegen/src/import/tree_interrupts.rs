//! The interrupts, core and fixed address that our SystemRDL and IP-XACT exports carry
//! (SystemRDL: the user-defined properties `gba_interrupts`, `gba_cpu`, `gba_nvic_prio_bits`
//! and `gba_address`; IP-XACT: the vendor extensions of the same names), read back from the
//! elaborated tree into the device.

use serde::Deserialize;

use crate::location::Located;
use crate::model::{Cpu, Device, Interrupt};

/// One interrupt as both formats write it (`interchange::udp::INTERRUPT_STRUCT`).
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct InterruptNode {
    pub name: String,
    pub number: u64,
    pub desc: String,
    /// Empty: no block.
    pub block: String,
    /// Meaningful when `indexed`.
    pub index: u64,
    pub indexed: bool,
}

/// The device-level items of the tree's root.
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct DeviceExtras {
    pub gba_interrupts: Option<Vec<InterruptNode>>,
    pub gba_cpu: Option<String>,
    pub gba_nvic_prio_bits: Option<u64>,
    pub gba_address: Option<u64>,
}

impl DeviceExtras {
    pub(crate) fn apply(&self, device: &mut Device) {
        device.interrupts = self
            .gba_interrupts
            .iter()
            .flatten()
            .map(|i| Interrupt {
                name: Located::synthetic(i.name.clone()),
                number: Located::synthetic(i.number),
                description: i.desc.clone(),
                block: (!i.block.is_empty()).then(|| Located::synthetic(i.block.clone())),
                index: i.indexed.then(|| Located::synthetic(i.index)),
            })
            .collect();
        device.cpu = self.gba_cpu.as_ref().map(|name| Cpu {
            name: Located::synthetic(name.clone()),
            nvic_prio_bits: self.gba_nvic_prio_bits.map(Located::synthetic),
        });
        device.address = self.gba_address.map(Located::synthetic);
    }
}
