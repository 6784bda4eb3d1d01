//! Arrays unrolled into one block or register per element, for the RTL path: Verilator 5.006
//! cannot compile PeakRDL-regblock's code for arrays of structures (an internal error on
//! `hwif.group[i].X = …`), so the SystemRDL that regblock reads has no arrays.
//!
//! Element `i` of `NAME` is named [`element_name`]`(NAME, i)` (`group_3`, `MEMBER_MASK_11`);
//! the conformance checks name it back in the spec's terms (`group[3]`).

use gba_codegen::Device;
use gba_codegen::location::Located;

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
                element.registers = block.registers.iter().flat_map(unroll_register).collect();
                element
            })
        })
        .collect();
    out
}

fn unroll_register(register: &gba_codegen::model::Register) -> Vec<gba_codegen::model::Register> {
    if register.array.is_none() {
        return vec![register.clone()];
    }
    register
        .element_offsets()
        .enumerate()
        .map(|(i, offset)| {
            let mut element = register.clone();
            element.name = Located::synthetic(element_name(&register.name, i as u64));
            element.offset = Located::synthetic(offset);
            element.array = None;
            element
        })
        .collect()
}
