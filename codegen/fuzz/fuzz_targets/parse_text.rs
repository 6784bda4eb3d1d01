//! Arbitrary bytes, read as spec text when they are UTF-8: parsing and validation must return
//! `Ok` or diagnostics, and rendering those diagnostics must not panic either.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Specs are read with `read_to_string`, so non-UTF-8 input never reaches the parser.
    if let Ok(text) = std::str::from_utf8(data) {
        gba_codegen_fuzz::check(text);
    }
});
