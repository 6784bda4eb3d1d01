//! The SVD of a device's interrupts and core: each interrupt is an `<interrupt>` of the
//! peripheral of the block that raises it, and the core a `<cpu>`.
//!
//! What SVD cannot say is written as close as it can: an interrupt of no block goes to the
//! first peripheral (SVD has no device-level list), and one raised by an instance of a block
//! array to the array's peripheral (SVD's `<interrupt>` belongs to every element alike), so
//! that `gba import-svd` reads it back as the first instance's. `<cpu>`'s required elements
//! that the spec does not hold are written as CMSIS's plainest core: revision `r0p0`, little
//! endian, no MPU, no FPU, no vendor SysTick; `nvicPrioBits` is the spec's, else 2 for an
//! Armv6-M or Armv8-M Baseline core and 4 for the others (CMSIS's defaults).

use svd_rs::{self as svd, ValidateLevel};

use super::{EmitError, Output};
use crate::model::Device;

/// The `<cpu>` element, when the spec names a core.
pub(super) fn cpu(device: &Device) -> Option<svd::Cpu> {
    let cpu = device.cpu.as_ref()?;
    let small_core = crate::interrupts::thumb_target(device)
        .is_some_and(|t| t.starts_with("thumbv6m") || t.starts_with("thumbv8m.base"));
    let bits = cpu
        .nvic_prio_bits
        .as_ref()
        .map_or(if small_core { 2 } else { 4 }, |b| {
            u32::try_from(**b).unwrap_or(u32::MAX)
        });
    svd::Cpu::builder()
        .name(cpu.name.value.clone())
        .revision("r0p0".into())
        .endian(svd::Endian::Little)
        .mpu_present(false)
        .fpu_present(false)
        .nvic_priority_bits(bits)
        .has_vendor_systick(false)
        .build(ValidateLevel::Strict)
        .ok()
}

/// `<interruptSources>` (`crate::interchange::svd_ext::INTERRUPT_SOURCES`): the raiser of
/// each interrupt whose `<interrupt>` place does not say it, so that the import reads it
/// back exactly.
pub(super) fn sources(device: &Device) -> String {
    let tag = crate::interchange::svd_ext::INTERRUPT_SOURCES;
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut items = String::new();
    for interrupt in &device.interrupts {
        let is_array = |name: &str| {
            device
                .blocks
                .iter()
                .any(|b| b.name.value == name && b.array.is_some())
        };
        let raiser = match (&interrupt.block, interrupt.index.as_deref().copied()) {
            // The `<interrupt>`'s place says it: the block's peripheral, or the array's,
            // which the import reads as its first instance.
            (Some(block), None) if !is_array(block) => continue,
            (Some(_), Some(0)) => continue,
            (Some(block), None) => format!("<block>{}</block>", escape(block)),
            (Some(block), Some(index)) => {
                format!("<block>{}</block><index>{index}</index>", escape(block))
            }
            (None, _) => String::new(),
        };
        items.push_str(&format!(
            "      <interrupt><name>{}</name>{raiser}</interrupt>\n",
            escape(&interrupt.name)
        ));
    }
    if items.is_empty() {
        return items;
    }
    format!("    <{tag}>\n{items}    </{tag}>\n")
}

/// Adds each interrupt to the peripheral of its block (`peripherals` in block order); an
/// interrupt number past SVD's 32 bits is an error at the number.
pub(super) fn attach(
    device: &Device,
    peripherals: &mut [svd::Peripheral],
) -> Result<(), EmitError> {
    for interrupt in &device.interrupts {
        let at = interrupt
            .block
            .as_ref()
            .and_then(|b| device.blocks.iter().position(|x| x.name.value == b.value))
            .unwrap_or(0);
        let refused = |message: String| EmitError {
            output: Output::Svd,
            message: format!("interrupt `{}`: {message}", *interrupt.name),
            loc: interrupt.number.loc,
        };
        let number = u32::try_from(*interrupt.number).map_err(|_| {
            refused(format!(
                "number {} does not fit SVD's 32-bit <value>",
                *interrupt.number
            ))
        })?;
        let element = svd::Interrupt::builder()
            .name(interrupt.name.value.clone())
            .description((!interrupt.description.is_empty()).then(|| interrupt.description.clone()))
            .value(number)
            .build(ValidateLevel::Strict)
            .map_err(|e| refused(e.to_string()))?;
        if let Some(peripheral) = peripherals.get_mut(at) {
            let info: &mut svd::PeripheralInfo = peripheral;
            info.interrupt.push(element);
        }
    }
    Ok(())
}
