//! The header's interrupt numbers: for a Cortex-M core, CMSIS's `IRQn_Type` (the core's
//! exceptions negative, the device's interrupts from 0, `NAME_IRQn`) and `__NVIC_PRIO_BITS`,
//! so that the header stands where a CMSIS device header's interrupt part would; for any
//! other device, the same enum prefixed with the device's name (`GBA_NAME_IRQn`,
//! `GBA_IRQn_Type`), since it shares a program with other headers.

use super::{Header, count};
use crate::diagnostic::Diagnostic;
use crate::model::Device;
use crate::names;

/// The Cortex-M exceptions CMSIS lists before the device's interrupts, with the cores that
/// have them (all: `None`; Armv7-M and Armv8-M Mainline: `Some(true)`).
const EXCEPTIONS: &[(&str, i32, bool)] = &[
    ("NonMaskableInt", -14, false),
    ("HardFault", -13, false),
    ("MemoryManagement", -12, true),
    ("BusFault", -11, true),
    ("UsageFault", -10, true),
    ("SVCall", -5, false),
    ("DebugMonitor", -4, true),
    ("PendSV", -2, false),
    ("SysTick", -1, false),
];

pub(super) fn items(h: &mut Header, device: &Device) {
    let target = crate::interrupts::thumb_target(device);
    if device.interrupts.is_empty() && target.is_none() {
        return;
    }
    let upper = names::upper(&device.name);
    h.section("Interrupts");
    let (prefix, type_name) = match target {
        Some(_) => (String::new(), "IRQn_Type".to_string()),
        None => (format!("{upper}_"), format!("{upper}_IRQn_Type")),
    };
    h.comment(
        "",
        if target.is_some() {
            "Interrupt numbers, as CMSIS's IRQn_Type: the core's exceptions below 0, the \
             device's interrupts (NVIC lines) from 0."
        } else {
            "Interrupt numbers: the device's lines at its interrupt controller."
        },
    );
    h.line("typedef enum {");
    if let Some(target) = target {
        let mainline = !(target.starts_with("thumbv6m") || target.starts_with("thumbv8m.base"));
        for (name, number, needs_mainline) in EXCEPTIONS {
            if *needs_mainline && !mainline {
                continue;
            }
            enumerator(h, format!("{name}_IRQn"), &number.to_string(), device);
        }
    }
    for interrupt in &device.interrupts {
        h.comment("    ", &interrupt.description);
        let name = format!("{prefix}{}_IRQn", names::upper(&interrupt.name));
        h.line(format_args!("    {name} = {},", *interrupt.number));
        h.identifiers.push((name, interrupt.name.loc));
    }
    h.line(format_args!("}} {type_name};"));
    h.identifiers.push((type_name, device.name.loc));
    if let Some(bits) = device.cpu.as_ref().and_then(|c| c.nvic_prio_bits.as_ref()) {
        h.comment("", "Bits of priority the NVIC implements.");
        h.define("__NVIC_PRIO_BITS".into(), count(**bits), bits.loc);
    }
    h.line("");
}

fn enumerator(h: &mut Header, name: String, value: &str, device: &Device) {
    h.line(format_args!("    {name} = {value},"));
    h.identifiers.push((name, device.name.loc));
}

/// A C enumerator is an `int`: numbers past 0x7FFF_FFFF cannot be one.
pub(super) fn check(device: &Device, diags: &mut Vec<Diagnostic>) {
    for interrupt in &device.interrupts {
        if *interrupt.number > 0x7FFF_FFFF {
            diags.push(Diagnostic::error(
                format!(
                    "interrupt `{}`: number {} is too large for C",
                    *interrupt.name, *interrupt.number
                ),
                interrupt.number.loc,
                "the header's interrupt numbers are enumerators, which are `int`",
            ));
        }
    }
}
