//! Puts this crate's `memory.x` where cortex-m-rt's `link.x` finds it.
fn main() {
    println!("cargo:rustc-link-search={}", env!("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=memory.x");
}
