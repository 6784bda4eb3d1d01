//! Through real cargo builds of a crate that invokes `include_spec!`: it compiles, cargo
//! rebuilds it when the spec changes (and only then), and a spec problem fails the build with
//! the diagnostic's `file:line:col`.

use std::path::Path;
use std::process::{Command, Output};

fn cargo(dir: &Path) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .args(["build", "--offline"])
        .current_dir(dir)
        // Shared by every run of this test, so that the generator is built once.
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("include-spec"),
        )
        .env("CARGO_TERM_COLOR", "never")
        // tests/run.sh's clippy wrapper lints this workspace's crates, not generated ones.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .output()
        .expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_crate_rebuilds_when_the_spec_changes_and_reports_its_problems() {
    let macros = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = macros.parent().expect("macros/ lives in the project root");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"device\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\ngba-macros = {{ path = {:?} }}\n\
             tock-registers = {{ version = \"0.10\", default-features = false }}\n\n\
             [features]\ndebug = []\ndevice-side = []\nnames = []\n\n[workspace]\n",
            macros.display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/lib.rs"),
        "#![no_std]\ngba_macros::include_spec!(\"spec.yaml\");\n\
         pub const DEPTH: usize = FIFO_DEPTH;\n",
    )
    .unwrap();
    let spec = std::fs::read_to_string(root.join("tests/fixtures/uart/uart.yaml")).unwrap();
    std::fs::write(dir.path().join("spec.yaml"), &spec).unwrap();

    let first = cargo(dir.path());
    assert!(first.status.success(), "{}", text(&first.stderr));
    let again = cargo(dir.path());
    assert!(again.status.success());
    assert!(
        !text(&again.stderr).contains("Compiling device"),
        "nothing changed, nothing rebuilt: {}",
        text(&again.stderr)
    );

    // The device name becomes invalid: the next build reruns the macro, which fails.
    std::fs::write(
        dir.path().join("spec.yaml"),
        spec.replacen("name: uart", "name: 1uart", 1),
    )
    .unwrap();
    let broken = cargo(dir.path());
    let stderr = text(&broken.stderr);
    assert!(!broken.status.success(), "{stderr}");
    assert!(stderr.contains("Compiling device"), "{stderr}");
    assert!(stderr.contains("spec.yaml has problems"), "{stderr}");
    // Where the diagnosis must point: the device's name line, wherever the fixture puts it.
    let (line, text_of_line) = spec
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("name: uart"))
        .expect("the fixture names its device uart");
    let column = text_of_line.find("uart").unwrap() + 1;
    let at = format!("spec.yaml:{}:{column}", line + 1);
    assert!(stderr.contains(&at), "no {at} in {stderr}");
}
