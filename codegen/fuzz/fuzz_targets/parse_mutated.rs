//! Structured input: the bytes are a list of line edits applied to a committed spec, so that
//! almost every input is well-formed YAML of the right shape and the fuzzer spends its time in
//! `parse` and `validate` rather than in the YAML scanner.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = gba_codegen_fuzz::mutate(data);
    gba_codegen_fuzz::check(&text);
});
