//! Access modes are types: misuse of a register does not compile. Each case in `ui/` has the
//! compiler's error beside it (`.stderr`), reviewed when it was accepted.

#[test]
fn register_misuse_does_not_compile() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
