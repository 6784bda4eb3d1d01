//! Co-simulation: the register block's RTL (`gba rtl`: PeakRDL-regblock from the spec's
//! SystemRDL) built with Verilator and driven over APB4 by the conformance checks generated
//! from the spec (`gba verify`), and a mutated RTL that must fail naming each mutated
//! register and field.
//!
//! Needs python3 with peakrdl-regblock and verilator (tests/install.sh installs them), and
//! minutes of building: `tests/run.sh cosim` runs these (`cargo test -p gba --test cosim --
//! --ignored`). Builds are kept in the target directory and reused while the RTL is the same.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};

fn gba(args: &[&str]) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    Command::new(env!("CARGO_BIN_EXE_gba"))
        .current_dir(root)
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

fn work(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cosim")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The path of tests/fixtures/cosim/`file`.
fn fixture(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/cosim")
        .join(file);
    path.to_str().unwrap().to_string()
}

/// `gba rtl` of `spec` into `clean/` of `dir`, which must succeed: that directory and what
/// `gba rtl` said.
fn clean_rtl(dir: &Path, spec: &str) -> (String, Output) {
    let clean = dir.join("clean");
    let clean = clean.to_str().unwrap();
    let rtl = gba(&["rtl", "--spec", spec, "--out", clean]);
    assert!(rtl.status.success(), "{}", text(&rtl));
    (clean.to_string(), rtl)
}

/// The `not run …` lines of a `gba verify` report.
fn not_run(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|l| l.starts_with("not run"))
        .collect()
}

#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn gba_yaml_rtl_conforms_to_the_spec() {
    let out = work("gba");
    let out = out.to_str().unwrap();
    let rtl = gba(&["rtl", "--out", out]);
    assert!(rtl.status.success(), "{}", text(&rtl));
    let verify = gba(&["verify", "--rtl", out]);
    let report = text(&verify);
    assert!(verify.status.success(), "{report}");
    assert!(report.contains(", 0 failed"), "{report}");
    let passed: usize = report
        .lines()
        .find_map(|l| l.strip_prefix("verify: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    // At least the bit-bash of the 32 × 12 MEMBER_MASK words (64 bits, walking 1s and 0s).
    assert!(passed > 32 * 12 * 128, "{report}");
}

/// gba.yaml's RTL in a port window of two groups (so that the build is small): the checks
/// and gba-hal's own configure sequence pass on it; then the same RTL with three mutations
/// (a reset value, a field's position and an access mode) fails naming each.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn a_mutated_rtl_fails_naming_the_register_and_field() {
    let dir = work("mutated");
    let spec = dir.join("two_groups.yaml");
    let yaml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../gba.yaml"))
        .unwrap()
        .replace("    count: 32\n", "    count: 2\n");
    std::fs::write(&spec, yaml).unwrap();
    let spec = spec.to_str().unwrap();

    // CONTROL.RESET is the single pulse its description means ("self-clearing, reads as 0"):
    // the HAL waits for RESET to read 0, so as a woset bit (which regblock keeps set until
    // the block's reset) its claim would time out there.
    let flat = dir.join("flat");
    let rtl = gba(&[
        "rtl",
        "--spec",
        spec,
        "--out",
        flat.to_str().unwrap(),
        "--no-lint",
    ]);
    assert!(rtl.status.success(), "{}", text(&rtl));
    let rdl = std::fs::read_to_string(flat.join("gba_flat.rdl")).unwrap();
    assert_eq!(
        rdl.matches("singlepulse;\n            } RESET[1:1]")
            .count(),
        2,
        "the RDL's CONTROL.RESET of each group is a single pulse"
    );
    let clean = dir.join("clean");
    std::fs::create_dir_all(&clean).unwrap();
    let clean_rdl = clean.join("gba_flat.rdl");
    std::fs::write(&clean_rdl, &rdl).unwrap();
    let clean = clean.to_str().unwrap();
    let rtl = gba(&[
        "rtl",
        "--rdl",
        clean_rdl.to_str().unwrap(),
        "--out",
        clean,
        "--no-lint",
    ]);
    assert!(rtl.status.success(), "{}", text(&rtl));
    let verify = gba(&["verify", "--spec", spec, "--rtl", clean]);
    assert!(
        verify.status.success(),
        "the unmutated RTL must pass:\n{}",
        text(&verify)
    );
    hal_configures_group_0(spec, clean);

    let mutations = [
        // global.CAPS.MAX_GROUPS resets to 0x21 instead of 0x20.
        ("} MAX_GROUPS[7:0] = 0x20;", "} MAX_GROUPS[7:0] = 0x21;"),
        // group[0].LOCAL_MEMBER_ID.ID moves up one bit.
        ("} ID[9:0] = 0x0;", "} ID[10:1] = 0x0;"),
        // group[0].MEMBER_COUNT.COUNT becomes read-only.
        (
            "sw = rw;\n            } COUNT[9:0] = 0x0;",
            "sw = r;\n            } COUNT[9:0] = 0x0;",
        ),
    ];
    let mut mutated = rdl.clone();
    for (from, to) in mutations {
        assert!(mutated.contains(from), "the RDL no longer has `{from}`");
        mutated = mutated.replacen(from, to, 1);
    }
    let mutant = dir.join("mutant");
    std::fs::create_dir_all(&mutant).unwrap();
    let mutated_rdl = mutant.join("gba_flat.rdl");
    std::fs::write(&mutated_rdl, mutated).unwrap();
    let mutant = mutant.to_str().unwrap();
    let rtl = gba(&[
        "rtl",
        "--rdl",
        mutated_rdl.to_str().unwrap(),
        "--out",
        mutant,
        "--no-lint",
    ]);
    assert!(rtl.status.success(), "{}", text(&rtl));
    let verify = gba(&["verify", "--spec", spec, "--rtl", mutant]);
    let report = text(&verify);
    assert_eq!(verify.status.code(), Some(1), "{report}");
    for expected in [
        "FAIL global.CAPS.MAX_GROUPS: reset value: expected 0x20, read 0x21",
        "FAIL group[0].LOCAL_MEMBER_ID.ID: bit-bash: walking 1: wrote 0x1, read 0x0",
        "FAIL group[0].MEMBER_COUNT.COUNT: bit-bash: walking 1: wrote 0x1, read 0x0",
    ] {
        assert!(
            report.contains(expected),
            "missing `{expected}` in:\n{report}"
        );
    }
    // The unmutated group is not accused.
    assert!(!report.contains("FAIL group[1]."), "{report}");
}

/// tests/fixtures/cosim/effects.yaml: one register per side effect, write locks and
/// alternate views. Its RTL passes every check that runs (the views through their primary's
/// address), and what PeakRDL-regblock is not given is listed as not run; an RTL with three effects swapped and an element's index reset lost
/// fails naming each register and field.
/// `gba verify --rtl DIR` with DIR relative to the working directory (the harness is built by
/// make in another directory, where a relative source path named nothing).
#[test]
#[ignore = "needs verilator and peakrdl-regblock: run by tests/run.sh cosim"]
fn an_rtl_directory_relative_to_the_working_directory_is_verified() {
    let dir = work("relative");
    let spec = &fixture("effects.yaml");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_gba"))
            .current_dir(&dir)
            .args(args)
            .output()
            .unwrap()
    };
    let rtl = run(&["rtl", "--spec", spec, "--out", "rtl"]);
    assert!(rtl.status.success(), "{}", text(&rtl));
    let verify = run(&["verify", "--spec", spec, "--rtl", "rtl"]);
    let report = text(&verify);
    assert!(verify.status.success(), "{report}");
    assert!(report.contains(", 0 failed"), "{report}");
}

/// tests/fixtures/cosim/software_only.yaml: no field is written by hardware, so
/// PeakRDL-regblock generates no `hwif_in`; the wrapper declares and connects only the
/// interfaces regblock made (it declared `hwif_in` always, and Verilator refused the RTL).
#[test]
#[ignore = "needs verilator and peakrdl-regblock: run by tests/run.sh cosim"]
fn a_block_no_field_of_which_hardware_writes_is_verified() {
    let dir = work("software_only");
    let spec = &fixture("software_only.yaml");
    let (clean, _) = clean_rtl(&dir, spec);
    let writes = std::fs::read_to_string(Path::new(&clean).join("swonly_hwif.tsv")).unwrap();
    assert_eq!(
        writes.lines().filter(|l| !l.starts_with('#')).count(),
        0,
        "{writes}"
    );
    let wrapper = std::fs::read_to_string(Path::new(&clean).join("swonly_rtl.sv")).unwrap();
    assert!(!wrapper.contains("hwif_in"), "{wrapper}");
    assert!(wrapper.contains(".hwif_out"), "{wrapper}");
    let verify = gba(&["verify", "--spec", spec, "--rtl", &clean]);
    let report = text(&verify);
    assert!(verify.status.success(), "{report}");
    assert!(report.contains(", 0 failed"), "{report}");
}

/// tests/fixtures/cosim/hardware.yaml: registers implemented outside the block
/// (`hardware: external`), and fields whose hardware access the spec states. `gba rtl` routes
/// the external registers to PeakRDL-regblock's external interface and its wrapper stands in
/// for the logic behind it; `gba verify` checks that routing (reset and written values read
/// back, a 64-bit register on the 32-bit bus word by word) and names each external register
/// as checked only so far. A read mux that returns another external register's data fails
/// naming the register and field. A stated hardware access gives the field exactly the
/// ports it says (a read-only field hardware only reads has no write port, and the checks
/// do not look for one).
#[test]
#[ignore = "needs verilator and peakrdl-regblock: run by tests/run.sh cosim"]
fn the_hardware_side_external_registers_and_stated_hardware_access() {
    let dir = work("external");
    let spec = &fixture("hardware.yaml");
    let (clean, _) = clean_rtl(&dir, spec);
    let clean = clean.as_str();
    let regs = std::fs::read_to_string(Path::new(clean).join("hwmap_regs.sv")).unwrap();
    for register in ["MAILBOX", "BELL", "STAMP"] {
        assert!(
            regs.contains(&format!("assign hwif_out.regs.{register}.req = ")),
            "{register} has no external interface"
        );
    }
    // The hardware writes (`hw_sel`) and the values hardware reads (`out_sel`): each field's
    // stated access, the uniform rule where none is stated.
    let rows = |file: &str, column: usize| -> Vec<String> {
        std::fs::read_to_string(Path::new(clean).join(file))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let cells: Vec<&str> = l.split('\t').collect();
                cells[column..].join(" ")
            })
            .collect()
    };
    assert_eq!(
        rows("hwmap_hwif.tsv", 1),
        [
            "regs.STATUS.COUNT 8",
            "regs.CONFIG.TUNE 4",
            "regs.LEVELS.LIVE 8"
        ]
    );
    assert_eq!(
        rows("hwmap_hwout.tsv", 2),
        [
            "regs.CTRL.ENABLE value 1",
            "regs.CTRL.LEVEL value 8",
            "regs.CONFIG.MODE value 4",
            "regs.CONFIG.TUNE value 4",
            "regs.LEVELS.FIXED value 8",
            "regs.CONFIG.MODE swmod 1",
            "regs.CONFIG.TUNE swacc 1"
        ]
    );
    let verify = gba(&["verify", "--spec", spec, "--rtl", clean, "--verbose"]);
    let report = text(&verify);
    assert!(verify.status.success(), "{report}");
    let not_run = not_run(&report);
    assert_eq!(not_run.len(), 1, "{report}");
    assert!(
        not_run[0].starts_with("not run: external: implemented outside the block")
            && not_run[0].ends_with(": regs.MAILBOX, regs.BELL, regs.STAMP"),
        "{report}"
    );
    assert!(report.contains(", 0 failed"), "{report}");

    // BELL's read data from MAILBOX's interface, in regblock's read mux; MODE's and TUNE's
    // strobes tied low.
    let broken = dir.join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    for file in std::fs::read_dir(clean).unwrap() {
        let file = file.unwrap().path();
        if file.is_file() {
            std::fs::copy(&file, broken.join(file.file_name().unwrap())).unwrap();
        }
    }
    let mux = "readback_data_var = hwif_in.regs.BELL.rd_data;";
    assert!(regs.contains(mux), "regblock's read mux changed:\n{regs}");
    std::fs::write(
        broken.join("hwmap_regs.sv"),
        regs.replace(mux, "readback_data_var = hwif_in.regs.MAILBOX.rd_data;")
            .lines()
            .map(|line| {
                // ... and the stated strobes that never strobe.
                for strobe in ["CONFIG.MODE.swmod", "CONFIG.TUNE.swacc"] {
                    let assign = format!("    assign hwif_out.regs.{strobe} = ");
                    if line.starts_with(&assign) {
                        return format!("{assign}1'b0;");
                    }
                }
                line.to_string()
            })
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .unwrap();
    let verify = gba(&["verify", "--spec", spec, "--rtl", broken.to_str().unwrap()]);
    let report = text(&verify);
    assert!(!verify.status.success(), "{report}");
    for check in ["external reset", "external routing"] {
        assert!(
            report.contains(&format!("FAIL regs.BELL.RING: {check}")),
            "{check}: {report}"
        );
    }
    assert!(!report.contains("FAIL regs.MAILBOX"), "{report}");
    for (field, strobe) in [("MODE", "swmod"), ("TUNE", "swacc")] {
        assert!(
            report.contains(&format!(
                "FAIL regs.CONFIG.{field}: hardware side: a write of "
            )) && report.contains(&format!("its {strobe} pulse was high 0 cycle(s), not 1")),
            "{field} {strobe}: {report}"
        );
    }
}

#[test]
#[ignore = "needs verilator and peakrdl-regblock: run by tests/run.sh cosim"]
fn every_side_effect_of_the_effects_map_and_three_mutants() {
    let dir = work("effects");
    let spec = &fixture("effects.yaml");
    let (clean, rtl) = clean_rtl(&dir, spec);
    let clean = clean.as_str();
    assert!(
        text(&rtl).contains("2 alternate view(s) left out of the RTL"),
        "{}",
        text(&rtl)
    );
    // A strap is an input of the wrapper, which the instantiating design drives.
    let wrapper = std::fs::read_to_string(Path::new(clean).join("effects_rtl.sv")).unwrap();
    assert!(
        wrapper.contains("input wire [7:0] strap_regs_IDS_2_STRAP"),
        "{wrapper}"
    );
    // One strap driven non-zero (`--strap`), the others left 0: each reads what it is given.
    let verify = gba(&[
        "verify",
        "--spec",
        spec,
        "--rtl",
        clean,
        "--strap",
        "regs.IDS[2].STRAP=0x5c",
        // Every place by name (not summarised as ranges), for the assertions below.
        "--verbose",
    ]);
    let report = text(&verify);
    assert!(verify.status.success(), "{report}");
    // The effects regblock builds are checked, not skipped.
    let not_run = not_run(&report);
    for field in [
        "regs.W1C.EVENTS",
        "regs.W1S.BITS",
        "regs.WOT.BITS",
        "regs.WZC.EVENTS",
        "regs.WZS.BITS",
        "regs.WZT.BITS",
        "regs.RCLR.COUNT",
        "regs.RSET.TAKEN",
        // Per-element and strapped resets: the RTL's element i resets to i, and a strap
        // input reads what the harness drives it with (0 unless `--strap`), which the RTL
        // backend says.
        "regs.IDS[3].INDEX",
        "regs.IDS[0].STRAP",
        "regs.IDS[2].STRAP",
        // msb0 fields: regblock reverses them on the bus; their resets, writes and hardware
        // side are checked as values (their `bit order` mutants are among those killed below).
        "regs.ORDER.TOP",
        "regs.ORDER_STATUS.LEVEL",
    ] {
        assert!(
            !not_run.iter().any(|l| l.contains(field)),
            "{field} was not checked:\n{report}"
        );
    }
    // The views are not built in the RTL, but both share their primary's address and width,
    // which the RTL decodes to the primary: checked through it (a write through one reads
    // back through the other), not listed as not run.
    assert!(!report.contains("not run: alternate view"), "{report}");
    // Single pulses and locks: checked once the SystemRDL carries them (the report then
    // passes them, as the model tests in cli/src/verify/model.rs show the checks do on what
    // implements them); until then named, with that reason.
    for place in [
        "regs.PULSE.GO",
        "regs.CFG_A (locked_by LOCK.FREEZE)",
        "regs.CFG_B (write_enable LOCK.UNLOCK)",
    ] {
        for line in not_run.iter().filter(|l| l.contains(place)) {
            assert!(
                line.contains(
                    "the SystemRDL that PeakRDL-regblock builds the RTL from cannot carry"
                ),
                "{place}: {line}"
            );
        }
    }

    // Every mutant of the block's SystemVerilog is killed: PULSE.GO's single pulse (which
    // reads 0 through the bus whether it pulsed or not) is seen on the hardware side.
    mutants_are_killed(spec, clean, "all", &[]);

    let rdl = std::fs::read_to_string(Path::new(clean).join("effects_flat.rdl")).unwrap();
    let mutations = [
        // WOT.BITS sets instead of toggling; WZS.BITS toggles instead of setting; reading
        // RSET.TAKEN clears it instead of setting it.
        ("onwrite = wot;", "onwrite = woset;"),
        ("onwrite = wzs;", "onwrite = wzt;"),
        ("onread = rset;", "onread = rclr;"),
        // Element 2 of IDS resets to 0 instead of its index.
        ("INDEX[3:0] = 0x2;", "INDEX[3:0] = 0x0;"),
    ];
    let mut mutated = rdl.clone();
    for (from, to) in mutations {
        assert_eq!(mutated.matches(from).count(), 1, "the RDL's `{from}`");
        mutated = mutated.replacen(from, to, 1);
    }
    let mutant = dir.join("mutant");
    std::fs::create_dir_all(&mutant).unwrap();
    let mutated_rdl = mutant.join("effects_flat.rdl");
    std::fs::write(&mutated_rdl, mutated).unwrap();
    let mutant = mutant.to_str().unwrap();
    let rdl_arg = mutated_rdl.to_str().unwrap();
    let rtl = gba(&["rtl", "--rdl", rdl_arg, "--out", mutant, "--no-lint"]);
    assert!(rtl.status.success(), "{}", text(&rtl));
    let verify = gba(&["verify", "--spec", spec, "--rtl", mutant]);
    let report = text(&verify);
    assert_eq!(verify.status.code(), Some(1), "{report}");
    let failures: Vec<&str> = report.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(
        failures,
        [
            "FAIL regs.IDS[2].INDEX: reset value: expected 0x2, read 0x0 (register 0x5a0000 at 0x48)",
            "FAIL regs.WOT.BITS: wot: writing 0xf over 0x5 made it 0xf, not 0xa",
            "FAIL regs.WZS.BITS: wzs: writing 0xa over 0xf made it 0xa, not 0xf",
            "FAIL regs.RSET.TAKEN: rset: a read after a read returned 0x0, not 0x1",
        ],
        "{report}"
    );
}

/// gba.yaml's RTL with two groups, written once for the tests that run its mutants, which
/// share one schemata build; the guard keeps their runs apart (each run writes the schemata
/// sources before it finds the build current).
fn two_groups() -> (MutexGuard<'static, ()>, &'static str, &'static str) {
    static RUNS: Mutex<()> = Mutex::new(());
    static RTL: OnceLock<(String, String)> = OnceLock::new();
    let guard = RUNS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (spec, rtl) = RTL.get_or_init(|| {
        let dir = work("two_groups");
        let spec = dir.join("two_groups.yaml");
        let yaml =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../gba.yaml"))
                .unwrap()
                .replace("    count: 32\n", "    count: 2\n");
        std::fs::write(&spec, yaml).unwrap();
        let rtl = dir.join("rtl");
        let (spec, rtl) = (
            spec.to_str().unwrap().to_string(),
            rtl.to_str().unwrap().to_string(),
        );
        let out = gba(&["rtl", "--spec", &spec, "--out", &rtl, "--no-lint"]);
        assert!(out.status.success(), "{}", text(&out));
        (spec, rtl)
    });
    (guard, spec, rtl)
}

/// The mutants of gba.yaml's two-group RTL that concern `places` (`--mutants-of`, the RTL's
/// names), every one run: the report with each kill and the failure that named it.
fn mutants_of(places: &[&str]) -> String {
    let (_guard, spec, rtl) = two_groups();
    let mut args = vec![
        "verify",
        "--spec",
        spec,
        "--rtl",
        rtl,
        "--mutants",
        "all",
        "--verbose",
    ];
    for place in places {
        args.extend(["--mutants-of", place]);
    }
    let verify = gba(&args);
    let report = text(&verify);
    assert!(verify.status.success(), "{report}");
    report
}

/// Asserts that `report` has the mutant of `kind` and `target` killed by a failure that
/// contains `by` (a check's name: `hardware side`, `words`, `aliasing`).
fn killed(report: &str, kind: &str, target: &str, by: &str) {
    let head = format!(", {kind}, {target}: `");
    assert!(
        report
            .lines()
            .any(|l| l.contains(&head) && l.contains(": killed: ") && l.contains(by)),
        "no {kind} mutant of {target} killed by `{by}`:\n{report}"
    );
}

/// A sample of 40 of gba.yaml's mutants over every kind, every one killed (`gba verify
/// --mutants all` runs all 291: every one killed).
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn a_sample_of_gba_yaml_mutants_is_killed() {
    let (_guard, spec, rtl) = two_groups();
    mutants_are_killed(spec, rtl, "40", &[]);
}

/// A single pulse (CONTROL.RESET) reads 0 through the bus whether it pulsed or not: its
/// reset constant flipped (it pulses at reset) is seen by the pulse counter of the
/// hardware side.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn a_single_pulse_is_seen_on_the_hardware_side() {
    let report = mutants_of(&["group_0.CONTROL.RESET", "group_1.CONTROL.RESET"]);
    assert!(!report.contains("SURVIVED"), "{report}");
    killed(
        &report,
        "reset",
        "group_0.CONTROL.RESET",
        "after reset: its value pulse was high 1 cycle(s), not 0",
    );
}

/// A single pulse's read mux returning a field hardware writes (STATUS.ACTIVE): the aliasing
/// check drives the hardware-written fields with its patterns, and a single pulse reads 0.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn a_read_mux_returning_a_hardware_written_field_is_seen() {
    let report = mutants_of(&["group_1.CONTROL.RESET"]);
    assert!(!report.contains("SURVIVED"), "{report}");
    killed(&report, "read mux", "group_1.CONTROL.RESET", "aliasing");
}

/// The write-only doorbell ARRIVAL: its reset constants and the decodes of its two words
/// reach only hardware (its value and its swmod strobes), which the checks now watch.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn the_write_only_doorbell_is_seen_through_its_value_and_strobes() {
    let report = mutants_of(&["group_0.ARRIVAL"]);
    assert!(!report.contains("SURVIVED"), "{report}");
    killed(
        &report,
        "reset",
        "group_0.ARRIVAL.SEQUENCE",
        "after reset it gives hardware 0x1, not 0x0",
    );
    killed(
        &report,
        "reset",
        "group_0.ARRIVAL.MEMBER_ID",
        "after reset it gives hardware 0x1, not 0x0",
    );
    killed(&report, "decode", "group_0.ARRIVAL", "hardware side");
    assert_eq!(
        report
            .lines()
            .filter(|l| l.contains(", decode, group_0.ARRIVAL: `") && l.contains(": killed: "))
            .count(),
        2,
        "{report}"
    );
}

/// A 64-bit register's high-word decode moved onto its low word (CONTROL): full-width
/// accesses still work, but a low word written alone commits at once; the word checks write
/// each word alone.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn each_word_of_a_64_bit_register_is_written_and_read_alone() {
    let report = mutants_of(&["group_0.CONTROL"]);
    assert!(!report.contains("SURVIVED"), "{report}");
    killed(
        &report,
        "decode",
        "group_0.CONTROL",
        "words: after a write of word 0 alone",
    );
}

/// The decode of a read-only 64-bit register's low word moved away (STATUS, RELEASE_SEQ):
/// the low word reads its fields directly and only latches the read buffer the high word is
/// read from, which holds no field. The buffer is not reset: in silicon, and in the harness,
/// whose flops power up random, a high word read before anything latched it returns
/// garbage, which the first reads after power-up (highest address first) see in the
/// reserved bits.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn a_read_buffer_left_unlatched_shows_its_power_up_garbage() {
    let report = mutants_of(&["group_0.STATUS", "group_0.RELEASE_SEQ"]);
    assert!(!report.contains("SURVIVED"), "{report}");
    killed(
        &report,
        "decode",
        "group_0.STATUS",
        "reserved bits: read 0x",
    );
    killed(
        &report,
        "decode",
        "group_0.RELEASE_SEQ",
        "reserved bits: read 0x",
    );
}

/// A write that clears the bytes it does not strobe (APB4's PSTRB ignored for a field, or a
/// 64-bit register's write buffer's strobes), a mutant kind of its own: full-width writes
/// cannot tell; each byte written alone does.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn a_write_that_clears_the_bytes_it_does_not_strobe_is_seen() {
    let report = mutants_of(&["group_0.MEMBER_COUNT", "group_0.CONTROL"]);
    assert!(!report.contains("SURVIVED"), "{report}");
    killed(
        &report,
        "byte strobe",
        "group_0.MEMBER_COUNT.COUNT",
        "byte strobes: after a write of byte 0 alone",
    );
    killed(
        &report,
        "byte strobe",
        "group_0.CONTROL.ENABLE",
        "byte strobes: after a write of byte 1 alone, then of byte 5",
    );
}

/// A 64-bit register whose high word is read from its storage rather than from what the
/// low word's read latched (BARRIERS_COMPLETED, a counter hardware writes): a read tears when
/// hardware writes between the words. No mutant kind makes this; the RTL is edited by hand.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and minutes: run by tests/run.sh cosim"]
fn a_torn_read_of_a_64_bit_register_is_seen() {
    let (_guard, spec, rtl) = two_groups();
    let torn = work("torn");
    for file in std::fs::read_dir(rtl).unwrap() {
        let path = file.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, torn.join(path.file_name().unwrap())).unwrap();
        }
    }
    let regs = torn.join("gba_regs.sv");
    let sv = std::fs::read_to_string(&regs).unwrap();
    let latched = "readback_data_var = rbuf_storage.global_.BARRIERS_COMPLETED.data[63:32];";
    assert_eq!(
        sv.matches(latched).count(),
        1,
        "regblock's read of the high word"
    );
    std::fs::write(
        &regs,
        sv.replace(
            latched,
            "readback_data_var = field_storage.global_.BARRIERS_COMPLETED.COUNT.value[63:32];",
        ),
    )
    .unwrap();
    let verify = gba(&["verify", "--spec", spec, "--rtl", torn.to_str().unwrap()]);
    let report = text(&verify);
    assert_eq!(verify.status.code(), Some(1), "{report}");
    let failures: Vec<&str> = report.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(
        failures,
        [
            "FAIL global.BARRIERS_COMPLETED.COUNT: words: hardware wrote 0xaaaaaaaaaaaaaaaa between \
          the reads of the first word and the others (it held 0x5555555555555555): the read \
          returned 0xaaaaaaaa55555555, not 0x5555555555555555 (a torn read)"
        ],
        "{report}"
    );
}

/// Mutation testing (`gba verify --mutants`): `count` mutants of the RTL in `rtl` (reset
/// constants, decodes, bit slices, byte strobes, side effects, hardware writes, lock gating,
/// the read mux), at least 95 % killed with the register and field named; the survivors are
/// exactly `survivors` (`KIND, TARGET` each). CI's sample of gba.yaml is 40 of its 291
/// mutants; `gba verify --mutants all` runs them all.
fn mutants_are_killed(spec: &str, rtl: &str, count: &str, survivors: &[&str]) {
    let verify = gba(&["verify", "--spec", spec, "--rtl", rtl, "--mutants", count]);
    let report = text(&verify);
    assert!(verify.status.success(), "{report}");
    let score = report
        .lines()
        .find(|l| l.starts_with("mutants: "))
        .unwrap_or_else(|| panic!("no score line:\n{report}"));
    assert!(
        score.contains("killed with the register and field named"),
        "{report}"
    );
    let survived: Vec<String> = report
        .lines()
        .filter(|l| l.starts_with("SURVIVED"))
        .map(|l| {
            let inside = l.split_once(" (line ").unwrap().1;
            let mut parts = inside.splitn(3, ", ");
            let _line = parts.next();
            let kind = parts.next().unwrap();
            let target = parts.next().unwrap().split(':').next().unwrap();
            format!("{kind}, {target}")
        })
        .collect();
    // The full run of gba.yaml's (`gba verify --mutants all`, 291) and of effects.yaml's
    // (147) leave none.
    assert_eq!(survived, survivors, "{report}");
}

/// gba-hal's own configure sequence (claim, configure, READY, release) against the RTL in
/// `rtl`, `gba verify --hal` playing the switch through the RTL's hardware port.
fn hal_configures_group_0(spec: &str, rtl: &str) {
    let verify = gba(&["verify", "--spec", spec, "--rtl", rtl, "--hal"]);
    let report = text(&verify);
    assert!(verify.status.success(), "{report}");
    for line in [
        "configured: group[0].MEMBER_MASK[0] = 0x1",
        "configured: group[0].MEMBER_COUNT = 0x1",
        "configured: group[0].LOCAL_MEMBER_ID = 0x0",
        "configured: group[0].CONTROL = 0x5",
        "READY: the HAL's claim returned, start sequence 0",
        "released: group[0].CONTROL = 0x0",
        "hw group_0.STATUS.READY 0x1",
    ] {
        assert!(report.contains(line), "missing `{line}` in:\n{report}");
    }
    // The HAL reset the group (a CONTROL write of RESET alone) before configuring it.
    assert!(report.contains("rtl: w 0x11000 64 0x2\n"), "{report}");
}
