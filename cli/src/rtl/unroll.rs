//! Arrays unrolled into one block or register per element, for the RTL path: Verilator 5.006
//! cannot compile PeakRDL-regblock's code for arrays of structures (an internal error on
//! `hwif.group[i].X = …`), so the SystemRDL that regblock reads has no arrays.
//!
//! A field that resets to its element's index (`reset: index`) gets that index as a constant
//! reset in each element, so the RTL's element i resets to i: SystemRDL (systemrdl-compiler)
//! cannot assign a reset to one element of an array, but once unrolled there is none.
//!
//! Element `i` of `NAME` is named [`element_name`]`(NAME, i)` (`group_3`, `MEMBER_MASK_11`);
//! the conformance checks name it back in the spec's terms (`group[3]`).

use gba_codegen::Device;
use gba_codegen::Located;
use gba_codegen::model::{Register, ResetFrom};

/// The unrolled name of element `index` of array `name`.
pub fn element_name(name: &str, index: u64) -> String {
    format!("{name}_{index}")
}

/// `device` with every block array and register array replaced by its elements, at their
/// addresses. Alternates keep their names (the RTL path leaves them out before this matters).
pub fn unroll(device: &Device) -> Device {
    let mut out = device.clone();
    out.blocks = device
        .blocks
        .iter()
        .flat_map(|block| {
            let (count, stride) = block
                .array
                .as_ref()
                .map_or((1, 0), |a| (*a.count, *a.stride));
            (0..count).map(move |i| {
                let mut element = block.clone();
                if block.array.is_some() {
                    element.name = Located::synthetic(element_name(&block.name, i));
                    element.offset = Located::synthetic(*block.offset + i * stride);
                    element.array = None;
                }
                element.registers = block
                    .registers
                    .iter()
                    .flat_map(|r| unroll_register(r, block.array.is_some().then_some(i)))
                    .collect();
                element
            })
        })
        .collect();
    out
}

/// The register's elements; `block_index`: the element of its block array, if any.
fn unroll_register(register: &Register, block_index: Option<u64>) -> Vec<Register> {
    if register.array.is_none() {
        return vec![with_index(register.clone(), block_index.unwrap_or(0))];
    }
    register
        .element_offsets()
        .enumerate()
        .map(|(i, offset)| {
            let mut element = register.clone();
            element.name = Located::synthetic(element_name(&register.name, i as u64));
            element.offset = Located::synthetic(offset);
            element.array = None;
            with_index(element, i as u64)
        })
        .collect()
}

/// The register with `index` as the constant reset of every `reset: index` field (the
/// innermost array's index: the register's own, else its block's).
fn with_index(mut register: Register, index: u64) -> Register {
    let (value, _) = register.element_reset(index, |_| None);
    register.reset = Located::synthetic(value);
    for field in &mut register.fields {
        if field.reset_from.is_some_and(|r| *r == ResetFrom::Index) {
            field.reset_from = None;
        }
    }
    register
}
