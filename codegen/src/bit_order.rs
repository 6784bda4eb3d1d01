//! msb0 fields (the spec's `bit_order: msb0`, SystemRDL's `TOP[0:3]`): the field's lowest
//! register bit holds the value's most significant bit, so a value and the bits that hold it
//! are each other's reversal within the field's width. This is the meaning of the reference
//! tools: systemrdl-compiler elaborates `TOP[0:3]` to `msb = 0`, `lsb = 3`, and
//! PeakRDL-regblock bit-reverses such a field on the bus (a reset of 0x5 in a 4-bit field
//! reads back as register bits `1010`; `codegen/tests/msb0.rs`). Every software output
//! reverses between the two; the functions here are the one definition the emitters and
//! `gba verify` share.

/// `bits` (the low `width` bits; higher ones are ignored) in reverse order: bit 0 becomes
/// bit `width - 1`. Its own inverse. `width` is 1 to 64 (0 gives 0).
pub fn reverse(bits: u64, width: u32) -> u64 {
    match width {
        0 => 0,
        w if w >= 64 => bits.reverse_bits(),
        w => (bits & ((1 << w) - 1)).reverse_bits() >> (64 - w),
    }
}

#[cfg(test)]
mod tests {
    use super::reverse;
    use proptest::prelude::*;

    /// The reference model, written bit by bit without `reverse_bits`: bit `i` of the input
    /// goes to bit `width - 1 - i`.
    fn model(bits: u64, width: u32) -> u64 {
        let mut out = 0;
        for i in 0..width {
            if bits >> i & 1 == 1 {
                out |= 1 << (width - 1 - i);
            }
        }
        out
    }

    #[test]
    fn the_reference_tools_example_reads_back_mirrored() {
        // regblock: reset 0x5 of a 4-bit msb0 field reads as register bits 1010.
        assert_eq!(reverse(0x5, 4), 0xA);
        assert_eq!(reverse(0b1, 3), 0b100);
        assert_eq!(reverse(0x1, 64), 1 << 63);
        assert_eq!(reverse(0xFF, 4), 0xF, "bits above the width are ignored");
    }

    proptest! {
        #[test]
        fn reverse_is_the_bit_by_bit_mirror_and_its_own_inverse(
            bits in any::<u64>(),
            width in 1u32..=64,
        ) {
            let field = if width == 64 { bits } else { bits & ((1 << width) - 1) };
            prop_assert_eq!(reverse(bits, width), model(field, width));
            prop_assert_eq!(reverse(reverse(bits, width), width), field);
        }
    }
}
