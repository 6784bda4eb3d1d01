//! `<interrupt>` elements → the spec's device-level `interrupts` list, each attributed to the
//! block instance at its peripheral's base address (found after renames and array merges,
//! so that `UART1`'s line names `uart[1]` when the UARTs became one array).

use std::collections::HashMap;

use svd_rs as svd;

use super::warnings::Warnings;
use super::{clean, rename};
use crate::import::Treatment;
use crate::location::Located;
use crate::model::{Block, Cpu, Interrupt};

/// Every interrupt of the file, by number. A line listed by several peripherals (a shared
/// line, derived peripherals) is carried once, for the first; a second name for a number,
/// a second number for a name, or a number the core's NVIC cannot take is left out, with a
/// warning.
pub(super) fn interrupts(
    warnings: &mut Warnings,
    svd: &svd::Device,
    blocks: &[Block],
    cpu: Option<&Cpu>,
) -> Vec<Interrupt> {
    let lines = cpu.and_then(|cpu| {
        crate::interrupts::CORES
            .iter()
            .find(|(name, _, _)| name.eq_ignore_ascii_case(&cpu.name))
            .map(|(name, _, lines)| (*name, *lines))
    });
    let mut by_name: HashMap<String, u64> = HashMap::new();
    let mut by_number: HashMap<u64, String> = HashMap::new();
    let mut out = Vec::new();
    for peripheral in &svd.peripherals {
        let info: &svd::PeripheralInfo = peripheral;
        let at = super::strip_dim(&info.name);
        for raw in &info.interrupt {
            let number = u64::from(raw.value);
            let name = rename::identifier(warnings, &raw.name, "interrupt", &at, "IRQ");
            let key = crate::names::clash_key(&name);
            match (by_name.get(&key), by_number.get(&number)) {
                (Some(&first), _) if first == number => continue,
                (Some(&first), _) => {
                    warnings.warn(
                        Treatment::LeftOut,
                        &at,
                        format!(
                            "interrupt `{name}` ({number}) left out: `{name}` is already \
                             interrupt {first}"
                        ),
                    );
                    continue;
                }
                (None, Some(first)) => {
                    warnings.warn(
                        Treatment::LeftOut,
                        &at,
                        format!(
                            "interrupt `{name}` ({number}) left out: {number} is already \
                             interrupt `{first}`"
                        ),
                    );
                    continue;
                }
                (None, None) => {}
            }
            if let Some((core, lines)) = lines
                && number >= lines
            {
                warnings.warn(
                    Treatment::LeftOut,
                    &at,
                    format!(
                        "interrupt `{name}` ({number}) left out: a {core} takes interrupts \
                         0..{lines}"
                    ),
                );
                continue;
            }
            by_name.insert(key, number);
            by_number.insert(number, name.clone());
            let (block, index) = match instance_at(blocks, info.base_address) {
                Some((block, index)) => (
                    Some(Located::synthetic(block.to_string())),
                    index.map(Located::synthetic),
                ),
                None => (None, None),
            };
            out.push(Interrupt {
                name: Located::synthetic(name),
                number: Located::synthetic(number),
                description: raw.description.as_deref().map(clean).unwrap_or_default(),
                block,
                index,
            });
        }
    }
    out.sort_by_key(|i| *i.number);
    out
}

/// The block (and instance, for an array) that starts at `address`; a block that is another
/// one's alternate view is taken only when no primary starts there.
fn instance_at(blocks: &[Block], address: u64) -> Option<(&str, Option<u64>)> {
    let found = |block: &Block| -> Option<Option<u64>> {
        match &block.array {
            None => (*block.offset == address).then_some(None),
            Some(array) => {
                let delta = address.checked_sub(*block.offset)?;
                let stride = (*array.stride).max(1);
                (delta % stride == 0 && delta / stride < *array.count).then(|| Some(delta / stride))
            }
        }
    };
    let primaries = blocks.iter().filter(|b| b.alternate_of.is_none());
    let alternates = blocks.iter().filter(|b| b.alternate_of.is_some());
    primaries
        .chain(alternates)
        .find_map(|b| found(b).map(|index| (b.name.as_str(), index)))
}

/// Our own `<interruptSources>` (`emit/svd_interrupts.rs`): the raiser of each interrupt
/// that the `<interrupt>`'s place could not say. An entry that names no interrupt of the
/// file, or no block, is reported and left out.
pub(super) fn apply_sources(
    device: &mut crate::model::Device,
    sources: &[(String, Option<String>, Option<u64>)],
    warnings: &mut Warnings,
) {
    for (name, block, index) in sources {
        let known_block = block
            .as_ref()
            .is_none_or(|b| device.blocks.iter().any(|x| x.name.value == *b));
        match device.interrupts.iter_mut().find(|i| i.name.value == *name) {
            Some(interrupt) if known_block => {
                interrupt.block = block.clone().map(Located::synthetic);
                interrupt.index = index.map(Located::synthetic);
            }
            _ => warnings.warn(
                Treatment::LeftOut,
                "vendorExtensions.interruptSources",
                format!(
                    "`{name}`{} is no interrupt and block of this device: left out",
                    block
                        .as_ref()
                        .map(|b| format!(" (block `{b}`)"))
                        .unwrap_or_default()
                ),
            ),
        }
    }
}
