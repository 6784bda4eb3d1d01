//! Declares `--cfg loom` (the loom model checks, `tests/loom.rs`) to rustc's cfg checker.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(loom)");
}
