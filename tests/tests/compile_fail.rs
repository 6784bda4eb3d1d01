//! Access modes are types: misuse of a register does not compile. Each case in `ui/` has the
//! compiler's error beside it (`.stderr`), reviewed when it was accepted.

#[test]
fn register_misuse_does_not_compile() {
    // tests/run.sh builds this workspace with clippy's driver as rustc's wrapper. trybuild's
    // crate of the cases would inherit it, and clippy prints types with their whole paths, so
    // the reviewed `.stderr` files would not match.
    // SAFETY: this is the only test of its binary, so no other thread of the process reads or
    // writes the environment while it changes (the harness's main thread only waits for it).
    unsafe { std::env::remove_var("RUSTC_WORKSPACE_WRAPPER") };
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
