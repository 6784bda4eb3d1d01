//! Helpers of the tests that run the reference front ends (systemrdl-compiler,
//! peakrdl-ipxact) beside the importers (interchange, nothing_silent, access_width, split_read …)
//! and carry a device through the spec and every interchange format (`round_trip` and its
//! parts), so that each test says only what its feature adds.

// Each test crate that includes this module uses some of its helpers, none uses all.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gba_codegen::emit::{self, GeneratedFile, Provenance};
use gba_codegen::import::{ipxact, rdl};
use gba_codegen::model::{Device, Field, Register};
use gba_codegen::{Validated, parse_str, write_spec};

/// Whether `python3` has the given modules; `false` (with a note) outside CI, a failure
/// under `CI=true`.
pub fn python_has(modules: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let message = format!(
            "python3 lacks {modules}: run `bash tests/install.sh` (or `python3 -m pip install \
             systemrdl-compiler peakrdl-ipxact`)"
        );
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        eprintln!("NOT RUN: {message}");
    }
    ok
}

/// The SystemRDL `text` written as `file` in a scratch directory named `test` (kept while the
/// directory lives), for systemrdl-compiler and our importer to read; `None` (the test says
/// why and passes, outside CI) where python3 lacks systemrdl-compiler.
pub fn rdl_source(test: &str, file: &str, text: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    if !python_has("systemrdl") {
        return None;
    }
    let dir = scratch(test);
    let source = dir.path().join(file);
    std::fs::write(&source, text).expect("write the SystemRDL source");
    Some((dir, source))
}

/// A temporary directory named after the test (`gba-NAME-…`), removed when dropped.
pub fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("gba-{name}-"))
        .tempdir()
        .expect("a temporary directory")
}

/// The lines `script` prints when `python3 -c script ARGS…` runs it: a reference front end's
/// reading of a file. The test fails, with the script's stderr, when the front end refuses.
pub fn reference_lines(script: &str, args: &[&std::ffi::OsStr]) -> Vec<String> {
    let output = Command::new("python3")
        .args(["-c", script])
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "the reference front end refused {args:?}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines `print` (Python, one statement a line) prints for each register (`r`, a
/// `RegNode`) as systemrdl-compiler elaborates `file` (SystemRDL, or IP-XACT, a `.xml` file,
/// through peakrdl-ipxact's importer).
pub fn reference_registers(file: &Path, print: &str) -> Vec<String> {
    reference_each(file, "r", "RegNode", print)
}

/// The lines `print` prints for each field (`f`, a `FieldNode`), as [`reference_registers`].
pub fn reference_fields(file: &Path, print: &str) -> Vec<String> {
    reference_each(file, "f", "FieldNode", print)
}

fn reference_each(file: &Path, name: &str, kind: &str, print: &str) -> Vec<String> {
    let read = if file.extension().is_some_and(|e| e == "xml") {
        "from peakrdl_ipxact import IPXACTImporter\n\
         IPXACTImporter(compiler).import_file(sys.argv[1], remap_state=\"default\")"
    } else {
        "compiler.compile_file(sys.argv[1])"
    };
    let print: String = print.lines().map(|l| format!("        {l}\n")).collect();
    let script = format!(
        "import sys\nfrom systemrdl import RDLCompiler, node\ncompiler = RDLCompiler()\n\
         {read}\nroot = compiler.elaborate()\nfor {name} in root.descendants(unroll=True):\n    \
         if isinstance({name}, node.{kind}):\n{print}"
    );
    reference_lines(&script, &[file.as_os_str()])
}

/// `gba gen`'s provenance of the spec file `spec`, which the exports' headers name.
pub fn provenance(spec: &str) -> Provenance {
    Provenance {
        spec: spec.into(),
        command: "gba gen".into(),
    }
}

/// `describe(register)` of every register of `device`, in order.
pub fn each_register(device: &Device, describe: impl Fn(&Register) -> String) -> Vec<String> {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .map(describe)
        .collect()
}

/// `describe(register, field)` of every field of `device`, in order.
pub fn each_field(device: &Device, describe: impl Fn(&Register, &Field) -> String) -> Vec<String> {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .flat_map(|r| r.fields.iter().map(move |f| (r, f)))
        .map(|(r, f)| describe(r, f))
        .collect()
}

/// The spec `write_spec` writes of `device` (headed `header`), and that spec validated again;
/// the test fails unless it reads back as `device`.
#[track_caller]
pub fn spec_reads_back(device: &Device, header: &str) -> (String, Validated) {
    let text = write_spec(device, header);
    let validated = parse_str(&text).expect("the written spec validates");
    assert_eq!(*validated, *device, "the written spec reads back unchanged");
    (text, validated)
}

/// Our SystemRDL export of `device`, written to `out.rdl` in `dir` (for the reference
/// compiler to read); the test fails unless it imports back strictly as `device`.
#[track_caller]
pub fn systemrdl_reads_back(device: &Validated, dir: &Path, provenance: &Provenance) -> PathBuf {
    let out = dir.join("out.rdl");
    std::fs::write(&out, emit::render_systemrdl(device, provenance)).expect("write out.rdl");
    let back = rdl::import(&out, true).expect("our SystemRDL export imports strictly");
    assert_eq!(
        back.device, **device,
        "our SystemRDL export reads back unchanged"
    );
    out
}

/// Our IP-XACT export of `device` and what our importer reads of it, strictly.
pub fn ipxact_round_trip(device: &Validated, provenance: &Provenance) -> (String, Device) {
    let xml = emit::render_ipxact(device, provenance);
    let back = ipxact::from_str(&xml, true).expect("our IP-XACT export imports strictly");
    (xml, back.device)
}

/// A device carried through the spec and the interchange formats that carry everything
/// (SystemRDL, IP-XACT): what each test then asserts on. Every reading back has been
/// checked equal to the device.
pub struct RoundTrip {
    /// The spec `write_spec` writes (headed `h`).
    pub spec: String,
    /// That spec validated again: what the exports are rendered from.
    pub valid: Validated,
    /// Our SystemRDL export (`out.rdl` in the scratch directory), for the reference compiler.
    pub systemrdl: PathBuf,
    /// Our IP-XACT export.
    pub ipxact: String,
}

/// Writes `device`'s spec and reads it back, then renders SystemRDL (into `dir`) and IP-XACT
/// from it and imports both back strictly; the test fails unless each reads back as `device`.
#[track_caller]
pub fn round_trip(device: &Device, dir: &Path, provenance: &Provenance) -> RoundTrip {
    let (spec, valid) = spec_reads_back(device, "h");
    let systemrdl = systemrdl_reads_back(&valid, dir, provenance);
    let (ipxact, back) = ipxact_round_trip(&valid, provenance);
    assert_eq!(back, *device, "our IP-XACT export reads back unchanged");
    RoundTrip {
        spec,
        valid,
        systemrdl,
        ipxact,
    }
}

/// Fails, showing `text`, unless `needle` stands in it exactly `times` times.
#[track_caller]
pub fn assert_occurs(text: &str, needle: &str, times: usize) {
    assert_eq!(
        text.matches(needle).count(),
        times,
        "`{needle}` in:\n{text}"
    );
}

/// The contents of every file of `files` whose path ends with `suffix`, one after another.
pub fn contents_of(files: &[GeneratedFile], suffix: &str) -> String {
    files
        .iter()
        .filter(|f| f.path.ends_with(suffix))
        .map(|f| f.contents.as_str())
        .collect()
}

/// A crate `chip` of the generated sources (`src/…` of `files`) with `tests` (name, text) as
/// its integration tests, in a temporary directory (kept while the guard lives); returns the
/// guard and the crate's root. The project's lock file pins the same tock-registers, so
/// nothing is downloaded.
pub fn chip_crate(files: &[GeneratedFile], tests: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("chip");
    for file in files.iter().filter(|f| f.path.starts_with("src/")) {
        let path = root.join(&file.path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, &file.contents).expect("write");
    }
    std::fs::create_dir_all(root.join("tests")).expect("mkdir");
    for (name, text) in tests {
        std::fs::write(root.join(format!("tests/{name}.rs")), text).expect("write");
    }
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"chip\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dependencies]\ntock-registers = { version = \"0.10\", default-features = false }\n\n\
         [features]\ndebug = []\ndevice-side = []\nnames = []\n\n[workspace]\n",
    )
    .expect("write Cargo.toml");
    std::fs::copy(workspace().join("Cargo.lock"), root.join("Cargo.lock")).expect("copy lock");
    (dir, root)
}

/// `cargo test --test TEST` of the crate at `root`, warnings denied, in the target directory
/// the accepted-specs builds share (tock-registers is built there once).
pub fn cargo_test(root: &Path, test: &str) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .args(["test", "--offline", "--quiet", "--test", test])
        .current_dir(root)
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target").join("accepted-specs"),
        )
        .env("RUSTFLAGS", "-D warnings")
        // tests/run.sh's clippy wrapper lints this workspace's crates, not generated ones.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .output()
        .expect("cargo runs")
}

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
}
