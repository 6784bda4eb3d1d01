//! The C ABI from C11 programs built with `-std=c11 -Wall -Wextra -Werror -pedantic`: every
//! bad input, barriers across processes on the simulator (tests/c/abi_test.c), teams
//! (team_test.c), a handle entered by two threads at once (in_use_test.c), and the library's
//! header beside the generated register header in one translation unit.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fabric of `ports` ports in a fresh directory (in /dev/shm where there is one), removed
/// with the returned guard.
fn fabric(ports: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = if Path::new("/dev/shm").is_dir() {
        tempfile::tempdir_in("/dev/shm")
    } else {
        tempfile::tempdir()
    }
    .unwrap();
    let path = dir.path().join("fabric");
    gba_sim::Fabric::create(&path, ports).unwrap();
    (dir, path)
}

/// `target/<profile>`, where cargo put this crate's static library.
fn artifacts() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/..")
        .to_path_buf()
}

/// Builds the static library and compiles `tests/c/<name>.c` against it into `work`.
fn compile(name: &str, work: &Path) -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    // `cargo test` links the tests against the rlib only; the static library comes from a
    // build of the library target (quick: its dependencies are already built).
    let built = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--lib", "-p", "gba-barrier-c"])
        .current_dir(crate_dir)
        .status()
        .expect("cargo runs");
    assert!(built.success(), "cargo build -p gba-barrier-c --lib failed");
    let library = artifacts().join("libgba_barrier.a");
    assert!(
        library.exists(),
        "{} is missing after the build",
        library.display()
    );
    let program = work.join(name);
    let compiled = Command::new("gcc")
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-O1",
            "-I",
        ])
        .arg(crate_dir.join("include"))
        .arg("-I")
        .arg(regs_include())
        .arg(crate_dir.join(format!("tests/c/{name}.c")))
        .arg(&library)
        .args(["-lpthread", "-ldl", "-lm", "-lrt", "-o"])
        .arg(&program)
        .output()
        .expect("gcc runs (tests/run.sh installs it)");
    assert!(
        compiled.status.success(),
        "gcc failed:\n{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    program
}

/// gba-pac's generated C headers (`gba_regs.h`).
fn regs_include() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../gba-pac/include")
}

/// A program may include `gba_barrier.h` and `gba_regs.h` together, in either order: no macro,
/// type or function is defined twice (the register map's limits are `gba_regs.h`'s alone).
#[test]
fn both_headers_in_one_translation_unit() {
    let work = tempfile::tempdir().unwrap();
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    for (name, first, second) in [
        ("barrier_first.c", "gba_barrier.h", "gba_regs.h"),
        ("regs_first.c", "gba_regs.h", "gba_barrier.h"),
    ] {
        let source = work.path().join(name);
        std::fs::write(
            &source,
            format!(
                "#include \"{first}\"\n#include \"{second}\"\n\
                 _Static_assert(GBA_MEMBER_CAPACITY >= GBA_MAX_MEMBERS, \"a mask holds every member\");\n\
                 int main(void) {{ return GBA_OK; }}\n"
            ),
        )
        .unwrap();
        let out = Command::new("gcc")
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"])
            .args(["-fsyntax-only", "-I"])
            .arg(&include)
            .arg("-I")
            .arg(regs_include())
            .arg(&source)
            .output()
            .expect("gcc runs (tests/run.sh installs it)");
        assert!(
            out.status.success(),
            "{name}: the two headers do not compile together:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn c_program_runs_barriers_across_processes_and_every_bad_input_is_refused() {
    let work = tempfile::tempdir().unwrap();
    let program = compile("abi_test", work.path());
    let (_fabric_dir, fabric) = fabric(4);
    let run = Command::new(&program)
        .arg(&fabric)
        .args(["4", "500"])
        .env_remove("GBA_DEVICE")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("c abi: ok (4 processes, 500 episodes)"),
        "{stdout}\n{stderr}"
    );
    let fabric = gba_sim::Fabric::open(&fabric).unwrap();
    use gba_pac::tock_registers::interfaces::Readable;
    // 500 episodes of the four-member group, plus the 2 solo episodes of the bad-input part on
    // port 0.
    assert_eq!(fabric.global(3).barriers_completed().get(), 500);
    assert_eq!(fabric.global(0).barriers_completed().get(), 502);
}

#[test]
fn c_program_creates_teams_over_its_own_allgather() {
    let work = tempfile::tempdir().unwrap();
    let program = compile("team_test", work.path());
    let (_fabric_dir, fabric) = fabric(3);
    let run = Command::new(&program)
        .arg(&fabric)
        .args(["3", "400"])
        .env_remove("GBA_DEVICE")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("c team: ok (3 processes, 400 episodes"),
        "{stdout}\n{stderr}"
    );
    let fabric = gba_sim::Fabric::open(&fabric).unwrap();
    use gba_pac::tock_registers::interfaces::Readable;
    // The first team on ports 0, 1, 2; the second with ranks 0 and 1 combined on port 0, and
    // port 2: one doorbell per episode and port.
    for (p, n) in [(0, 800), (1, 400), (2, 800)] {
        assert_eq!(fabric.global(p).barriers_completed().get(), n, "port {p}");
    }
}

#[test]
fn c_team_handle_entered_by_two_threads_at_once_is_refused_not_corrupted() {
    let work = tempfile::tempdir().unwrap();
    let program = compile("in_use_test", work.path());
    let (_fabric_dir, fabric) = fabric(2);
    let run = Command::new(&program)
        .arg(&fabric)
        .env_remove("GBA_DEVICE")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("c in use: ok"), "{stdout}\n{stderr}");
    let fabric = gba_sim::Fabric::open(&fabric).unwrap();
    fabric.step();
    use gba_pac::tock_registers::interfaces::Readable;
    // The refused calls added no episode: exactly the two the threads ran.
    for p in 0..2 {
        assert_eq!(fabric.global(p).barriers_completed().get(), 2, "port {p}");
    }
}
