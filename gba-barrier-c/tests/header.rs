//! The committed C header is exactly what cbindgen generates from `src/lib.rs` and `src/team.rs`, and a change
//! to its declarations comes with a new `GBA_ABI_VERSION`.

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
        .expect("cbindgen understands src/")
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
        "include/gba_barrier.h is stale: run `GBA_BLESS=1 cargo test -p gba-barrier-c --test header`"
    );
}

/// The ABI version and the hash of the header's declarations it was recorded with. When the
/// declarations change, raise `GBA_ABI_VERSION` in `src/lib.rs` by one and record the new
/// pair here (the failure message prints it), with a CHANGELOG entry.
const RECORDED_ABI: (i32, u64) = (4, 0xd1a9_655a_856b_fae4);

/// The value of `#define GBA_ABI_VERSION n` in the header.
fn abi_version(header: &str) -> i32 {
    header
        .lines()
        .find_map(|line| line.trim().strip_prefix("#define GBA_ABI_VERSION "))
        .and_then(|value| value.trim().parse().ok())
        .expect("the header defines GBA_ABI_VERSION as a number")
}

/// FNV-1a over the header's lines that are not comments or blank (so a reworded comment
/// needs no new version), the version's own line
/// left out: what a C caller compiles against.
fn declarations_hash(header: &str) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for line in header.lines().map(str::trim) {
        // `/*`, ` *` and `*/`: the block comment cbindgen writes at the top (where the header
        // says what generates it).
        let comment = line.starts_with("//") || line.starts_with("/*") || line.starts_with('*');
        if line.is_empty() || comment || line.contains("GBA_ABI_VERSION") {
            continue;
        }
        for byte in line.bytes().chain([b'\n']) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

#[test]
fn a_changed_abi_has_a_new_version() {
    let header = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("include/gba_barrier.h"),
    )
    .expect("the header");
    // The header is what cbindgen makes of the Rust constant (`the_c_header_is_current`).
    let version = abi_version(&header);
    let hash = declarations_hash(&header);
    assert_eq!(
        (version, hash),
        RECORDED_ABI,
        "the C ABI's declarations changed (or its version did) since they were recorded: raise \
         GBA_ABI_VERSION in src/lib.rs to {} (if not yet), add a CHANGELOG entry, and record \
         ({}, {hash:#x}) in RECORDED_ABI",
        RECORDED_ABI.0 + 1,
        RECORDED_ABI.0 + 1,
    );
}

#[test]
fn the_declarations_hash_ignores_comments_but_not_declarations() {
    let a = "// one\nint f(void);\n";
    assert_eq!(
        declarations_hash(a),
        declarations_hash("// two\n\nint f(void);\n")
    );
    assert_eq!(
        declarations_hash(a),
        declarations_hash("/*\n * made by x\n */\nint f(void);\n")
    );
    assert_ne!(declarations_hash(a), declarations_hash("int f(int);\n"));
}
