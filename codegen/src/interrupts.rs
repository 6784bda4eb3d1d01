//! Interrupts and the processor core: the rules a spec's `interrupts` list obeys, and which
//! Cortex-M core a `cpu` name means (the Rust crate's `cortex-m`/`rt` support and the thumb
//! target a crate for that core builds for). Devices that are not Cortex-M keep the list
//! only: no vector table.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::model::Device;
use crate::validate::{name, unique};

/// The Cortex-M cores by their CMSIS-SVD `<cpu><name>`, each with the Rust target a crate
/// for it builds for and the most interrupt lines its NVIC takes.
pub const CORES: &[(&str, &str, u64)] = &[
    ("CM0", "thumbv6m-none-eabi", 32),
    ("CM0PLUS", "thumbv6m-none-eabi", 32),
    ("CM0+", "thumbv6m-none-eabi", 32),
    ("CM1", "thumbv6m-none-eabi", 32),
    ("SC000", "thumbv6m-none-eabi", 32),
    ("CM3", "thumbv7m-none-eabi", 240),
    ("SC300", "thumbv7m-none-eabi", 240),
    ("CM4", "thumbv7em-none-eabihf", 240),
    ("CM7", "thumbv7em-none-eabihf", 240),
    ("CM23", "thumbv8m.base-none-eabi", 240),
    ("CM33", "thumbv8m.main-none-eabihf", 480),
    ("CM35P", "thumbv8m.main-none-eabihf", 480),
    ("CM55", "thumbv8m.main-none-eabihf", 480),
    ("CM85", "thumbv8m.main-none-eabihf", 480),
];

/// The Cortex-M core a `cpu` name means (case ignored), if it is one.
fn core(cpu: &str) -> Option<&'static (&'static str, &'static str, u64)> {
    CORES
        .iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(cpu))
}

/// The Rust target of a crate for the device's core: `None` when it has no Cortex-M core.
pub fn thumb_target(device: &Device) -> Option<&'static str> {
    let cpu = device.cpu.as_ref()?;
    core(&cpu.name).map(|(_, target, _)| *target)
}

/// True when the device's core is a Cortex-M: its crate gets the NVIC interrupt number
/// trait, the `rt` vector table and `device.x` (behind features).
pub fn is_cortex_m(device: &Device) -> bool {
    thumb_target(device).is_some()
}

/// The rules of the `interrupts` list: names are identifiers, unique (ignoring case) and
/// numbers unique; the block named exists, and `index` names one of its instances; on a
/// Cortex-M core, the number is one the NVIC takes.
pub(crate) fn validate(device: &Device, diags: &mut Vec<Diagnostic>) {
    unique(
        device.interrupts.iter().map(|i| &i.name),
        "interrupt",
        "the device",
        diags,
    );
    let limit = device
        .cpu
        .as_ref()
        .and_then(|cpu| core(&cpu.name))
        .map(|(name, _, lines)| (*name, *lines));
    let mut numbers: HashMap<u64, &str> = HashMap::new();
    for interrupt in &device.interrupts {
        name(&interrupt.name, "interrupt", diags);
        let number = *interrupt.number;
        if let Some(first) = numbers.get(&number) {
            diags.push(Diagnostic::error(
                format!(
                    "interrupt `{}`: number {number} is also interrupt `{first}`'s",
                    *interrupt.name
                ),
                interrupt.number.loc,
                "a number is one line of the interrupt controller",
            ));
        } else {
            numbers.insert(number, &interrupt.name);
        }
        if let Some((core, lines)) = limit
            && number >= lines
        {
            diags.push(Diagnostic::error(
                format!(
                    "interrupt `{}`: number {number} is too large",
                    *interrupt.name
                ),
                interrupt.number.loc,
                format!("a {core} takes interrupts 0..{lines}"),
            ));
        }
        let block = interrupt.block.as_ref().and_then(|name| {
            let found = device.blocks.iter().find(|b| b.name.value == name.value);
            if found.is_none() {
                diags.push(Diagnostic::error(
                    format!("interrupt `{}`: no block `{}`", *interrupt.name, name.value),
                    name.loc,
                    "expected the name of a block of this spec",
                ));
            }
            found
        });
        match (&interrupt.index, &interrupt.block) {
            (Some(index), None) => diags.push(Diagnostic::error(
                format!("interrupt `{}`: `index` without `block`", *interrupt.name),
                index.loc,
                "`index` names an instance of the block given as `block`",
            )),
            (Some(index), Some(_)) => {
                if let Some(block) = block {
                    let count = block.array.as_ref().map(|a| *a.count);
                    if count.is_none_or(|count| **index >= count) {
                        diags.push(Diagnostic::error(
                            format!(
                                "interrupt `{}`: block `{}` has no instance {}",
                                *interrupt.name, *block.name, **index
                            ),
                            index.loc,
                            match count {
                                Some(count) => format!("the block has {count} instances"),
                                None => "the block is not an array".to_string(),
                            },
                        ));
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::parse_str;

    const BLOCKS: &str = "blocks:\n  - { name: timer, offset: 0x1000, size: 0x100, count: 2, \
                          registers: [] }\n  - { name: uart, offset: 0x0, size: 0x100 }\n";

    fn check(interrupts: &str) -> Vec<String> {
        let spec = format!("device: {{ name: d, cpu: CM0 }}\n{BLOCKS}interrupts:\n{interrupts}");
        match parse_str(&spec) {
            Ok(_) => Vec::new(),
            Err(diags) => diags.into_iter().map(|d| d.message).collect(),
        }
    }

    #[test]
    fn a_well_formed_list_is_accepted_and_kept() {
        let spec = format!(
            "device: {{ name: d, cpu: CM3, nvic_prio_bits: 4, address: 0x0 }}\n{BLOCKS}\
             interrupts:\n  - {{ name: TIMER1, number: 9, block: timer, index: 1 }}\n  \
             - {{ name: UART0, number: 2, block: uart, description: Serial. }}\n"
        );
        let device = parse_str(&spec).map_err(|d| format!("{d:?}")).unwrap();
        assert_eq!(device.interrupts.len(), 2);
        assert_eq!(*device.interrupts[0].number, 9);
        assert_eq!(device.interrupts[0].index.as_deref(), Some(&1));
        assert_eq!(super::thumb_target(&device), Some("thumbv7m-none-eabi"));
        assert_eq!(device.address.as_deref(), Some(&0));
    }

    #[test]
    fn each_broken_rule_is_reported() {
        assert_eq!(
            check(
                "  - { name: A, number: 1 }\n  - { name: a, number: 2 }\n  \
                 - { name: B, number: 1 }\n  - { name: C, number: 32 }\n  \
                 - { name: D, number: 3, block: nope }\n  \
                 - { name: E, number: 4, block: timer, index: 2 }\n  \
                 - { name: F, number: 5, block: uart, index: 0 }\n  \
                 - { name: G, number: 6, index: 0 }\n"
            ),
            [
                "duplicate interrupt name `a` in the device",
                "interrupt `B`: number 1 is also interrupt `A`'s",
                "interrupt `C`: number 32 is too large",
                "interrupt `D`: no block `nope`",
                "interrupt `E`: block `timer` has no instance 2",
                "interrupt `F`: block `uart` has no instance 0",
                "interrupt `G`: `index` without `block`",
            ]
        );
    }

    /// The SVD export reads back as the spec: interrupts of an instance past the first, of a
    /// whole block array and of no block (SVD's `<interrupt>` cannot say those: our
    /// `<interruptSources>` does), the core, and the fixed address.
    #[test]
    fn the_svd_export_reads_back_exactly() {
        let spec = format!(
            "device: {{ name: d, cpu: CM4, nvic_prio_bits: 3, address: 0x4000_0000 }}\n\
             {BLOCKS}interrupts:\n  - {{ name: T0, number: 1, block: timer, index: 0 }}\n  \
             - {{ name: T1, number: 2, block: timer, index: 1 }}\n  \
             - {{ name: TALL, number: 3, block: timer, description: Both. }}\n  \
             - {{ name: U, number: 4, block: uart }}\n  - {{ name: SOFT, number: 5 }}\n"
        );
        let device = parse_str(&spec).map_err(|d| format!("{d:?}")).unwrap();
        let provenance = crate::emit::Provenance {
            spec: "d.yaml".into(),
            command: "gba gen".into(),
        };
        let xml = crate::emit::svd::render(&device, &provenance).unwrap();
        assert!(
            xml.contains("<baseAddress>0x40001000</baseAddress>"),
            "{xml}"
        );
        let imported = crate::import::svd::from_str(&xml).unwrap();
        let back = imported.device;
        assert_eq!(back.interrupts, device.interrupts);
        assert_eq!(back.cpu, device.cpu);
        // The blocks moved to their absolute addresses: the window now starts at 0.
        assert_eq!(back.address.as_deref(), Some(&0));
        assert!(
            !imported
                .warnings
                .iter()
                .any(|w| w.message.contains("interrupt")),
            "{:?}",
            imported.warnings
        );
    }

    #[test]
    fn a_core_that_is_not_cortex_m_has_no_target_and_no_limit() {
        let spec = format!(
            "device: {{ name: d, cpu: other }}\n{BLOCKS}interrupts:\n  \
             - {{ name: BIG, number: 1000 }}\n"
        );
        let device = parse_str(&spec).map_err(|d| format!("{d:?}")).unwrap();
        assert_eq!(super::thumb_target(&device), None);
    }
}
