//! `gba verify --device`: the spec's conformance checks against a port opened through
//! gba-hal, here a simulator fabric the test creates (the simulator is the reference model
//! of gba.yaml's device). Its window is shared memory, but its switch undoes a store into a
//! read-only register, drops a doorbell outside a group and ends RESET's pulse when it
//! steps, which the checks make it do between a write and the read that checks it
//! (`Device::settle`): those checks run and pass. What it cannot show (a reset, hardware
//! writes) is listed as not run, with the reason; a device in use is refused.

use std::path::Path;
use std::process::{Command, Output};

use gba_hal::{Backend, Claim, MemberSet};

fn gba(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gba"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .args(args)
        .output()
        .unwrap()
}

fn text(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn fabric(dir: &Path) -> String {
    let path = dir.join("fabric");
    let out = gba(&[
        "sim",
        "create",
        "--ports",
        "2",
        "--path",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    path.to_str().unwrap().to_string()
}

#[test]
fn the_simulator_passes_every_check_it_can_show() {
    let dir = tempfile::tempdir().unwrap();
    let fabric = fabric(dir.path());
    let verify = gba(&["verify", "--device", &format!("sim:{fabric}#1")]);
    let report = text(&verify);
    // GROUP_ID reads g in group block g (`reset: index`) and PORT_ID the port, a strap the
    // simulator's address gives (`reset: strap`): no failure, and both were checked.
    assert_eq!(verify.status.code(), Some(0), "{report}");
    let expected: Vec<String> = Vec::new();
    assert!(!report.contains("FAIL"), "{report}");
    assert!(!report.contains("strapped"), "{report}");
    // The bit-bash of every group's 12 MEMBER_MASK words ran (64 bits, walking 1s and 0s),
    // and the side effect it can show.
    let passed: usize = report
        .lines()
        .find_map(|l| l.strip_prefix("verify: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 32 * 12 * 128, "{report}");
    // What it cannot show is named, with the reason, by register and field: a reset,
    // hardware writes, what the block gives hardware and byte writes, nothing else (read-only,
    // write-only and RESET's single pulse run).
    let reasons: Vec<String> = report
        .lines()
        .filter_map(|l| l.strip_prefix("not run: "))
        .map(|l| l.split(": ").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        reasons,
        [
            "reset value",
            "hardware writes",
            "hardware side",
            "byte strobes"
        ],
        "{report}"
    );
    for expected in [
        "not run: hardware writes: the transport cannot drive it: global.DEVICE_ID.ID, ",
        "not run: reset value: the transport cannot reset the device, so the values are checked as found: every register",
        "not run: hardware side: the transport does not show what the block gives hardware (its values, strobes and pulses): every register",
        "not run: byte strobes: the transport writes whole registers only, so no byte is written alone: every register",
    ] {
        assert!(
            report.contains(expected),
            "missing `{expected}` in:\n{report}"
        );
    }
    // At a glance: the 32 groups' fields as ranges, a register whose every field is listed as
    // `REG.*` (the whole list is behind --verbose and --json).
    assert!(
        report.contains(
            "group[0..31].ARRIVED_MASK[0..11].MEMBERS, group[0..31].STATUS.*, group[0..31].RELEASE_SEQ.SEQUENCE\n"
        ),
        "{report}"
    );
    let json = dir.path().join("report.json");
    let verbose = gba(&[
        "verify",
        "--device",
        &format!("sim:{fabric}#1"),
        "--verbose",
        "--json",
        json.to_str().unwrap(),
    ]);
    let verbose_text = text(&verbose);
    assert!(
        verbose_text.contains("group[31].STATUS.READY, ") && !verbose_text.contains("[0..31]"),
        "{verbose_text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let places: usize = json["not_run"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["places"].as_array().unwrap().len())
        .sum();
    assert_eq!(places, 652, "{json:#}");
    // The not-run count: the reset, hardware-side and byte-strobe lines and the 9 global and
    // 32 * 20 group read-only fields whose hardware writes it cannot drive.
    assert!(report.contains(" failed, 652 not run"), "{report}");
    // The checks leave the registers as they found them: a second run finds the same.
    let again = gba(&["verify", "--device", &format!("sim:{fabric}#1")]);
    let again_failures: Vec<String> = String::from_utf8_lossy(&again.stdout)
        .lines()
        .filter(|l| l.starts_with("FAIL"))
        .map(str::to_string)
        .collect();
    assert_eq!(again_failures, expected);
}

#[test]
fn a_strap_given_on_the_command_line_is_what_the_check_expects() {
    let dir = tempfile::tempdir().unwrap();
    let fabric = fabric(dir.path());
    let address = format!("sim:{fabric}#1");
    // The command line overrides what the backend knows: port 1 is not strapped 5.
    let wrong = gba(&[
        "verify",
        "--device",
        &address,
        "--strap",
        "global.PORT_ID.PORT=5",
    ]);
    let failures: Vec<String> = String::from_utf8_lossy(&wrong.stdout)
        .lines()
        .filter(|l| l.starts_with("FAIL"))
        .map(str::to_string)
        .collect();
    assert_eq!(
        failures,
        ["FAIL global.PORT_ID.PORT: reset value: expected 0x5, read 0x1 (register 0x1 at 0xc)"],
        "{}",
        text(&wrong)
    );
    // A field that is not strapped is refused, naming those that are.
    let typo = gba(&[
        "verify",
        "--device",
        &address,
        "--strap",
        "global.PORT_ID.ID=1",
    ]);
    let report = text(&typo);
    assert_eq!(typo.status.code(), Some(2), "{report}");
    assert!(
        report.contains("--strap global.PORT_ID.ID: no field of ")
            && report.contains("the strapped fields are: global.PORT_ID.PORT"),
        "{report}"
    );
}

#[test]
fn a_device_in_use_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let fabric = fabric(dir.path());
    // This process holds group 5 of port 0, as a running job would.
    let backend = gba_sim::SimBackend::open(Path::new(&fabric), 0).unwrap();
    let host = backend.host();
    assert_eq!(host.claim(5, None, &MemberSet::new()), Claim::Won);
    let flag = backend.alloc_flag(5, 64).unwrap();
    assert!(host.hold(5, &flag));

    let address = format!("sim:{fabric}#0");
    let refused = gba(&["verify", "--device", &address]);
    let report = text(&refused);
    assert_eq!(refused.status.code(), Some(2), "{report}");
    assert!(
        report.contains(&format!("error: {address} is in use (1 of its 32 groups busy or held, 1 claim(s), the first: g5=")),
        "{report}"
    );
    assert!(
        report.contains("pass --force to disturb it anyway"),
        "{report}"
    );
    assert!(!report.contains("verify: "), "no check ran:\n{report}");

    let forced = gba(&["verify", "--device", &address, "--force"]);
    assert!(
        String::from_utf8_lossy(&forced.stdout).contains("passed"),
        "{}",
        text(&forced)
    );
}

#[test]
fn the_kernel_driver_is_refused_by_name() {
    let out = gba(&["verify", "--device", "/dev/gba0"]);
    let report = text(&out);
    assert_eq!(out.status.code(), Some(2), "{report}");
    assert!(
        report
            .contains("error: /dev/gba0: the kernel driver maps only a held group's run-time page"),
        "{report}"
    );
}
