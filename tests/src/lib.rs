//! Tests only: see `tests/`. The crate documentation is the project README, so that its Rust
//! example runs as a doctest.
#![doc = include_str!("../../README.md")]
