//! svd2rust 0.37, used as a library, generates a crate from gba-pac/gba.svd; the committed
//! tests/fixtures/gba-svd2rust crate must be exactly that output (printed by prettyplease).
//! The crate is a workspace member, so `cargo test --workspace` also compiles it: together
//! this proves that the incumbent tool accepts our SVD and produces a crate that builds.
//!
//! After changing gba.yaml and running `gba gen`, refresh the crate with
//! `GBA_BLESS=1 cargo test -p gba-tests --test svd2rust`.

mod common;

const CRATE_SRC: &str = "tests/fixtures/gba-svd2rust/src/lib.rs";

use common::root;

fn generate() -> String {
    let svd = std::fs::read_to_string(root().join("gba-pac/gba.svd")).expect("gba.svd");
    // `Config` is non-exhaustive: start from the default and set what differs.
    let mut config = svd2rust::Config::default();
    config.target = svd2rust::Target::None;
    // Our SVD must pass svd-parser's strict level here too.
    config.strict = true;
    let generation = svd2rust::generate(&svd, &config).expect("svd2rust accepts gba.svd");
    assert!(
        generation.device_specific.is_none(),
        "target none needs no device.x or build.rs"
    );
    let file = syn::parse_file(&generation.lib_rs).expect("svd2rust's output parses");
    format!(
        "// Generated from gba-pac/gba.svd by svd2rust 0.37 (as a library) in tests/tests/svd2rust.rs.\n\
         // Do not edit: change gba.yaml, run `gba gen`, then `GBA_BLESS=1 cargo test -p gba-tests --test svd2rust`.\n\n\
         // prettyplease's layout is the reference; rustfmt would fight it (as for our own PACs).\n\
         #![cfg_attr(rustfmt, rustfmt::skip)]\n{}",
        prettyplease::unparse(&file)
    )
}

#[test]
fn committed_svd2rust_crate_is_what_svd2rust_generates_today() {
    let generated = generate();
    let path = root().join(CRATE_SRC);
    if std::env::var_os("GBA_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write the crate source");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{CRATE_SRC} is stale: run `GBA_BLESS=1 cargo test -p gba-tests --test svd2rust`"
    );
    // The generated API has what gba.svd describes: the group array and its registers.
    for needle in [
        "pub type Group",
        "member_mask",
        "GROUP_ID",
        "pub struct Peripherals",
    ] {
        assert!(
            generated.contains(needle),
            "no `{needle}` in svd2rust's output"
        );
    }
}
