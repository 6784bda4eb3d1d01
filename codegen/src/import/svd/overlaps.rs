//! SVD allows overlaps (alternate registers, aliased peripherals). A register that overlaps
//! one kept earlier becomes its declared alternate (`alternate_of`); a field that overlaps
//! another is left out; a block whose declared size reaches into the next is cut to what its
//! registers need, and one whose registers overlap another block is left out. Each is
//! reported.

use super::MAX_ELEMENTS;
use super::warnings::Warnings;
use crate::location::Located;
use crate::model::{Block, Field, Register};

pub(super) fn drop_register_overlaps(
    warnings: &mut Warnings,
    registers: &mut Vec<Register>,
    at: &str,
) {
    // Accepted extents never overlap each other, so for a new extent only the accepted
    // one starting last before its end can intersect it: one ordered-map lookup each.
    let mut taken: std::collections::BTreeMap<u64, (u64, usize)> = Default::default();
    let mut elements = 0u64;
    let mut kept: Vec<Register> = Vec::new();
    let mut kept_at: Vec<usize> = Vec::new();
    let mut alternates: Vec<(usize, Register)> = Vec::new();
    for (index, register) in registers.drain(..).enumerate() {
        let count = register.array.as_ref().map_or(1, |a| *a.count);
        elements = elements.saturating_add(count);
        if elements > MAX_ELEMENTS {
            warnings.warn(
                format!("{at}.{}", *register.name),
                format!("more than {MAX_ELEMENTS} register elements in the block: left out"),
            );
            continue;
        }
        let extents: Vec<(u64, u64)> = register
            .element_offsets()
            .map(|o| (o, o.saturating_add(register.bytes())))
            .collect();
        let clash = extents.iter().find_map(|&(s, e)| {
            let (_, &(end, owner)) = taken.range(..e).next_back()?;
            (end > s).then_some(owner)
        });
        if let Some(owner) = clash {
            // Another view of the same bytes (CMSIS-SVD's alternateRegister, or a plain
            // overlap): kept as an alternate of the register it meets first.
            let of = kept[owner].name.value.clone();
            warnings.warn(
                format!("{at}.{}", *register.name),
                format!(
                    "overlaps register `{of}`: imported as its alternate (`alternate_of: {of}`)"
                ),
            );
            let mut register = register;
            register.alternate_of = Some(Located::synthetic(of));
            alternates.push((index, register));
            continue;
        }
        for (s, e) in extents {
            taken.insert(s, (e, kept.len()));
        }
        kept.push(register);
        kept_at.push(index);
    }
    // In source order again.
    let mut all: Vec<(usize, Register)> = kept_at.into_iter().zip(kept).collect();
    all.extend(alternates);
    all.sort_by_key(|(index, _)| *index);
    *registers = all.into_iter().map(|(_, r)| r).collect();
}

pub(super) fn drop_field_overlaps(warnings: &mut Warnings, fields: &mut Vec<Field>, at: &str) {
    let mut used = 0u64;
    fields.retain(|f| {
        let mask = f.bits.mask();
        if used & mask != 0 {
            warnings.warn(
                format!("{at}.{}", *f.name),
                "overlaps another field: left out",
            );
            return false;
        }
        used |= mask;
        true
    });
}

/// Blocks may not overlap in our format. A block whose declared size reaches into the
/// next is cut to what its registers need; one whose registers overlap another block
/// is left out.
pub(super) fn fit_blocks(warnings: &mut Warnings, blocks: &mut Vec<Block>) {
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| (*blocks[i].offset, i));
    let mut keep = vec![true; blocks.len()];
    let mut previous: Option<usize> = None;
    for &i in &order {
        let start = *blocks[i].offset;
        if let Some(p) = previous {
            let end = extent_end(&blocks[p]);
            if end > start {
                let needed = registers_end(&blocks[p]).max(1);
                if blocks[p].array.is_none() && blocks[p].offset.saturating_add(needed) <= start {
                    let size = start - *blocks[p].offset;
                    blocks[p].size = Located::synthetic(size);
                } else {
                    warnings.warn(
                        blocks[i].name.value.clone(),
                        format!(
                            "overlaps block `{}` (an aliased peripheral?): left out",
                            *blocks[p].name
                        ),
                    );
                    keep[i] = false;
                    continue;
                }
            }
        }
        previous = Some(i);
    }
    let mut index = 0;
    blocks.retain(|_| {
        index += 1;
        keep[index - 1]
    });
}

fn extent_end(block: &Block) -> u64 {
    let span = match &block.array {
        Some(a) => a.count.saturating_sub(1).saturating_mul(*a.stride),
        None => 0,
    };
    block
        .offset
        .saturating_add(span)
        .saturating_add(*block.size)
}

fn registers_end(block: &Block) -> u64 {
    block
        .registers
        .iter()
        .filter_map(|r| {
            r.element_offsets()
                .last()
                .map(|o| o.saturating_add(r.bytes()))
        })
        .max()
        .unwrap_or(0)
}
