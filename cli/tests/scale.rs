//! `gba scale` through the real binary: the model's invariants, the table for a small host
//! set as a snapshot, the plot, and every kind of bad input. These tests need SimGrid
//! (`libsimgrid-dev`, installed by tests/run.sh): without it they fail, they do not skip.
//! Nothing here depends on the machine's speed: the model reports simulated time.

use std::process::{Command, Output};

fn gba_scale(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gba"))
        .arg("scale")
        .args(args)
        .output()
        .expect("gba runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = gba_scale(&[args, &["--json"]].concat());
    assert!(
        out.status.success(),
        "gba scale {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object on stdout")
}

/// contender name → latencies in the order of the host counts.
fn series(json: &serde_json::Value, name: &str) -> Vec<f64> {
    json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            row["results"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["name"] == name)
                .unwrap_or_else(|| panic!("{name} in {row}"))["latency_ns"]
                .as_f64()
                .unwrap()
        })
        .collect()
}

#[test]
fn software_barriers_grow_with_the_host_count() {
    let json = json(&["--hosts", "2,4,8,16,32,64"]);
    for name in [
        "ompi-default",
        "ompi-bruck",
        "ompi-recursive-doubling",
        "dissemination",
    ] {
        let latency = series(&json, name);
        assert!(
            latency.windows(2).all(|w| w[1] > w[0]),
            "{name} should pay one more round per doubling: {latency:?}"
        );
        // log2(64) = 6 rounds against 1 at 2 hosts: at least 4 times slower.
        assert!(
            latency[5] > 4.0 * latency[0],
            "{name} from 2 to 64 hosts: {latency:?}"
        );
    }
}

#[test]
fn the_gba_stays_within_its_band() {
    // The band, from the model's parameters (scale/README.md): no faster than one trip
    // (2 PCIe crossings + 2 links + the pipeline), no slower than that plus every arrival and
    // every release serialised.
    let json = json(&["--contenders", "gba", "--hosts", "2,8,128,708"]);
    let gba = &json["parameters"]["gba"];
    let link = json["parameters"]["link_latency_ns"].as_f64().unwrap();
    let floor =
        2.0 * gba["pcie_ns"].as_f64().unwrap() + 2.0 * link + gba["switch_ns"].as_f64().unwrap();
    let per_member = gba["arrival_ns"].as_f64().unwrap() + gba["release_ns"].as_f64().unwrap();
    let latency = series(&json, "gba");
    for (hosts, latency) in [2.0, 8.0, 128.0, 708.0].iter().zip(&latency) {
        let ceiling = floor + hosts * per_member + 1.0;
        assert!(
            (floor..=ceiling).contains(latency),
            "gba at {hosts} hosts: {latency} ns outside {floor}..={ceiling}"
        );
    }
    // The stated band of the README: 0.8 to 1.5 µs from 2 to 708 hosts.
    assert!(
        latency.iter().all(|l| (800.0..=1500.0).contains(l)),
        "{latency:?}"
    );
}

#[test]
fn results_are_deterministic() {
    let args = ["--hosts", "2,12,33", "--json"];
    let (first, second) = (gba_scale(&args), gba_scale(&args));
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn table_for_a_small_host_set() {
    let out = gba_scale(&["--hosts", "2,4,8"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!(String::from_utf8(out.stdout).unwrap());
}

#[test]
fn plot_draws_every_contender_and_the_measurements() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scale.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(["scale", "--hosts", "2,4", "--plot"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    roxmltree::Document::parse(&svg).expect("well-formed SVG");
    for label in [
        "gba",
        "ompi-default",
        "ompi-bruck",
        "ompi-recursive-doubling",
        "dissemination",
        "published measurements",
        "SHArP allreduce",
    ] {
        assert!(svg.contains(label), "the plot names {label}");
    }
}

#[test]
fn bad_inputs_are_refused_with_a_reason() {
    for (args, expected) in [
        (
            &["--hosts", "0"][..],
            "0 is outside the model's range 2 to 4096",
        ),
        (
            &["--hosts", "1"][..],
            "1 is outside the model's range 2 to 4096",
        ),
        (
            &["--hosts", "8,4097"][..],
            "4097 is outside the model's range 2 to 4096",
        ),
        (
            &["--hosts", "eight"][..],
            "invalid value 'eight' for '--hosts",
        ),
        (
            &["--contenders", "gba,sharp"][..],
            "invalid value 'sharp' for '--contenders",
        ),
        (
            &["--arrival-ns", "1e9"][..],
            "--arrival-ns: 1000000000 is not a time",
        ),
    ] {
        let out = gba_scale(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed a table");
    }
    let out = gba_scale(&["--contenders", "sharp"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("possible values: gba, ompi-default"),
        "{stderr}"
    );
}

#[test]
fn missing_simgrid_is_named_with_what_to_install() {
    let out = Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(["scale", "--hosts", "2"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("apt-get install libsimgrid-dev"),
        "{stderr}"
    );
    assert!(stderr.contains("smpicc, smpirun"), "{stderr}");
}

#[test]
fn committed_plot_is_current() {
    // docs/scale.svg is generated: the default run must draw it byte for byte.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scale.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(["scale", "--plot"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh = std::fs::read_to_string(&path).unwrap();
    let committed = std::fs::read_to_string(root.join("docs/scale.svg")).unwrap_or_default();
    assert!(
        fresh == committed,
        "docs/scale.svg is stale: run `cargo run --release -q -p gba -- scale --plot docs/scale.svg`"
    );
}
