//! The committed C header is exactly what cbindgen generates from `src/ffi.rs`.

use std::path::Path;

#[test]
fn the_c_header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("config");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen understands src/ffi.rs")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8");
    let path = crate_dir.join("include/gba_barrier.h");
    if std::env::var_os("GBA_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/gba_barrier.h is stale: run `GBA_BLESS=1 cargo test -p gba-barrier --test header`"
    );
}
