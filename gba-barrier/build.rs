//! Declares `--cfg loom` (the loom model checks, `tests/loom.rs`) to rustc's cfg checker, and
//! compiles the seeds' C hot path (`benches/seed_ref.c`) for the hot-path benchmark only: its
//! objects are linked into bench targets, never into the library.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(loom)");
    println!("cargo::rerun-if-changed=benches/seed_ref.c");
    let objects = cc::Build::new()
        .file("benches/seed_ref.c")
        .opt_level(2)
        .std("c11")
        .warnings(true)
        .extra_warnings(true)
        // As a static link would allow: calls within the file may be inlined even though the
        // functions are exported (the seed's send is inlined into its barrier).
        .flag_if_supported("-fno-semantic-interposition")
        .cargo_metadata(false)
        .compile_intermediates();
    for object in objects {
        println!("cargo::rustc-link-arg-benches={}", object.display());
    }
}
