//! One block type per peripheral kind: blocks with the same size and the same registers
//! (every `derivedFrom` peripheral that overrides nothing, and peripherals the vendor wrote
//! out twice) become instances of one type (`Block::instance_of`), so that the outputs
//! define their registers once and a driver can take the type for any instance. Runs last,
//! on the legal device: renames have made the instances' registers what they will be.
//!
//! The type is named by the `groupName` its instances share (which our SVD output writes), else
//! after what their names share (`GPIOA` … `GPIOI` → `GPIO`, `USART1`, `USART2` → `USART`);
//! where that is no name or is taken, ST's own spelling of a kind (`GPIOx`), else the first
//! instance's name and `_TYPE`.

use std::collections::{HashMap, HashSet};

use super::warnings::Warnings;
use crate::import::Treatment;
use crate::location::Located;
use crate::model::{Block, BlockType, Device};
use crate::names;

/// Groups the blocks of `device` into types, and keeps each type's instances together in
/// the block list (at the first's place), as the spec writes them; should the types' names
/// not validate, the blocks stay types of their own, with a warning.
/// `groups`: each peripheral's `groupName`, by its name.
pub(super) fn group(
    device: &mut Device,
    group_names: &HashMap<String, String>,
    warnings: &mut Warnings,
) {
    if !assign(device, group_names) {
        return;
    }
    // A type's name joins C identifiers and Rust modules of its own: should one clash with
    // something the checks refuse, the blocks stay types of their own, as before. Only the
    // outputs that name types are checked again (the device passed every check before, and
    // SVD, SystemRDL and IP-XACT list the instances as blocks).
    let naming = [crate::Output::Rust, crate::Output::C, crate::Output::Docs];
    let problems = crate::validated::problems(device, &naming);
    if let Some(problem) = problems.first() {
        for block in &mut device.blocks {
            block.instance_of = None;
        }
        warnings.warn(
            Treatment::Reshaped,
            device.name.as_str(),
            format!(
                "peripherals with the same registers kept as separate types: grouping them \
                 would not validate ({})",
                problem.message
            ),
        );
    }
}

/// Makes the blocks with the same registers instances of one type, unchecked; whether any
/// did.
pub(super) fn assign(device: &mut Device, group_names: &HashMap<String, String>) -> bool {
    let candidate = |b: &Block| b.array.is_none() && b.alternate_of.is_none();
    let mut group_of: Vec<Option<usize>> = vec![None; device.blocks.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..device.blocks.len() {
        if group_of[i].is_some() || !candidate(&device.blocks[i]) {
            continue;
        }
        let mut members = vec![i];
        let a = &device.blocks[i];
        for (j, b) in device.blocks.iter().enumerate().skip(i + 1) {
            if group_of[j].is_none()
                && candidate(b)
                && *a.size == *b.size
                && !a.registers.is_empty()
                && a.registers == b.registers
            {
                members.push(j);
            }
        }
        if members.len() < 2 {
            continue;
        }
        for &m in &members {
            group_of[m] = Some(groups.len());
        }
        groups.push(members);
    }
    if groups.is_empty() {
        return false;
    }
    let mut taken: HashSet<String> = device
        .blocks
        .iter()
        .map(|b| names::clash_key(&b.name))
        .collect();
    for members in &groups {
        let instances: Vec<&str> = members
            .iter()
            .map(|&m| device.blocks[m].name.as_str())
            .collect();
        let group = group_names.get(instances[0]).filter(|g| {
            instances
                .iter()
                .all(|i| group_names.get(*i).is_some_and(|h| h == *g))
        });
        let name = type_name(group.map(String::as_str), &instances, &taken);
        taken.insert(names::clash_key(&name));
        let first = &device.blocks[members[0]];
        let ty = BlockType {
            name: Located::synthetic(name),
            description: first.description.clone(),
        };
        for &m in members {
            device.blocks[m].instance_of = Some(ty.clone());
        }
    }
    // Each type's instances together, at its first instance's place.
    let mut blocks: Vec<Option<Block>> = std::mem::take(&mut device.blocks)
        .into_iter()
        .map(Some)
        .collect();
    let mut ordered = Vec::with_capacity(blocks.len());
    for i in 0..blocks.len() {
        match group_of[i] {
            None => ordered.extend(blocks[i].take()),
            Some(g) => {
                for &m in &groups[g] {
                    ordered.extend(blocks[m].take());
                }
            }
        }
    }
    device.blocks = ordered;
    true
}

/// What the instances' names share, if it is a free name; else with an `x`; else the
/// first's with `_TYPE` (free: no block name ends so, or it is numbered until free).
fn type_name(group: Option<&str>, instances: &[&str], taken: &HashSet<String>) -> String {
    let prefix = common_prefix(instances);
    let prefix = prefix.trim_end_matches('_');
    let free = |name: &str| {
        !name.is_empty()
            && names::problem(name).is_none()
            && !names::is_reserved_accessor(name)
            && !taken.contains(&names::clash_key(name))
    };
    if let Some(group) = group.filter(|g| free(g)) {
        return group.to_string();
    }
    if free(prefix) {
        return prefix.to_string();
    }
    let with_x = format!("{prefix}x");
    if prefix.len() > 1 && free(&with_x) {
        return with_x;
    }
    let base = format!("{}_TYPE", instances[0]);
    let mut name = base.clone();
    let mut n = 2;
    while !free(&name) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

fn common_prefix(names: &[&str]) -> String {
    let first = names[0];
    let mut len = first.len();
    for name in &names[1..] {
        len = first
            .bytes()
            .zip(name.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count();
    }
    first[..len].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_named_after_what_their_instances_share() {
        let taken: HashSet<String> = ["GPIOA", "GPIOB", "ADC", "ADC1", "ADC2"]
            .iter()
            .map(|s| names::clash_key(s))
            .collect();
        assert_eq!(type_name(None, &["GPIOA", "GPIOB"], &taken), "GPIO");
        assert_eq!(type_name(Some("PORT"), &["GPIOA", "GPIOB"], &taken), "PORT");
        assert_eq!(type_name(Some("ADC"), &["ADC1", "ADC2"], &taken), "ADCx");
        assert_eq!(type_name(None, &["UART_0", "UART_1"], &taken), "UART");
        assert_eq!(type_name(None, &["A", "B"], &taken), "A_TYPE");
    }
}
