//! `gba bench` through the real binary, small: the JSON shape, every contender, the private
//! fabric removed afterwards, and the plot. No timing is asserted.

use std::process::Command;

#[test]
fn bench_reports_every_contender_as_json_and_cleans_up() {
    let plot = tempfile::NamedTempFile::new().unwrap().into_temp_path();
    let plot_path = plot.with_extension("svg");
    for (mode, expected) in [
        (
            None,
            vec!["gba-sim", "dissemination-shm", "central-counter-shm"],
        ),
        (
            Some("--threads"),
            vec![
                "gba-sim",
                "gba-sim-combined",
                "dissemination-heap",
                "central-counter-heap",
                "std::sync::Barrier",
            ],
        ),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_gba"));
        command.args([
            "bench",
            "--members",
            "2",
            "--iters",
            "200",
            "--rounds",
            "4",
            "--json",
        ]);
        command.arg("--plot").arg(&plot_path);
        if let Some(flag) = mode {
            command.arg(flag);
        }
        let out = command.output().expect("gba runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let json: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("one JSON object on stdout");
        assert_eq!(json["members"], 2);
        assert_eq!(json["iters"], 200);
        let names: Vec<&str> = json["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, expected);
        for result in json["results"].as_array().unwrap() {
            let median = result["median_ns"].as_u64().unwrap();
            let p99 = result["p99_ns"].as_u64().unwrap();
            assert!(median > 0 && p99 >= median, "{result}");
        }
        let svg = std::fs::read_to_string(&plot_path).expect("the plot was written");
        roxmltree::Document::parse(&svg).expect("well-formed SVG");
        for name in &expected {
            let label = name.replace('&', "&amp;");
            assert!(svg.contains(&label), "legend names {name}");
        }
    }
    let leftovers: Vec<_> = std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                // A fabric of a benchmark that is still running (another user's) is not ours.
                .filter(|n| {
                    n.strip_prefix("gba-bench-")
                        .is_some_and(|pid| !std::path::Path::new("/proc").join(pid).exists())
                })
                .collect()
        })
        .unwrap_or_default();
    assert!(
        leftovers.is_empty(),
        "private fabrics left behind: {leftovers:?}"
    );
    let _ = std::fs::remove_file(&plot_path);
}

#[test]
fn bench_refuses_bad_arguments_in_one_line() {
    for args in [["--members", "0"], ["--members", "709"], ["--rounds", "0"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_gba"))
            .arg("bench")
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.lines().count() == 1,
            "{stderr}"
        );
    }
}
