//! Builds the model on first use: the SMPI program with `smpicc`, the S4U program with the C++
//! compiler against libsimgrid. Both sources are compiled into this binary, and the results are
//! cached beside it (`<target dir>/<profile>/gba-scale-<hash>/`, or `~/.cache/gba/` when that is
//! not writable), keyed by a hash of the sources and flags, so an edited model rebuilds and an
//! unchanged one never does.

use std::path::{Path, PathBuf};
use std::process::Command;

use indicatif::{ProgressBar, ProgressStyle};

const BARRIER_C: &str = include_str!("../../../scale/barrier.c");
const GBA_CPP: &str = include_str!("../../../scale/gba.cpp");
const CC_FLAGS: &[&str] = &["-O2"];
const CXX_FLAGS: &[&str] = &["-O2", "-std=c++17"];

/// What `gba scale` needs of SimGrid, and how to get it.
pub const INSTALL_HINT: &str = "gba scale needs SimGrid 3.32 or newer (smpicc, smpirun, the S4U headers and \
     libsimgrid): on Debian or Ubuntu, `sudo apt-get install libsimgrid-dev g++`";

/// The two model programs, built.
pub struct Model {
    pub barrier: PathBuf,
    pub gba: PathBuf,
    pub dir: PathBuf,
}

/// Finds a program on PATH.
fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Checks that every tool is present; the error names the missing ones and what to install.
pub fn check_tools() -> Result<(), String> {
    let missing: Vec<&str> = ["smpicc", "smpirun", "g++"]
        .into_iter()
        .filter(|tool| which(tool).is_none())
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{INSTALL_HINT} (not found on PATH: {})",
            missing.join(", ")
        ))
    }
}

/// FNV-1a: a stable hash of the sources and flags, to name the cache directory.
fn fingerprint() -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let parts = [
        BARRIER_C,
        GBA_CPP,
        &CC_FLAGS.join(" "),
        &CXX_FLAGS.join(" "),
    ];
    for part in parts {
        for byte in part.bytes().chain([0u8]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

impl Model {
    fn in_dir(dir: PathBuf) -> Model {
        Model {
            barrier: dir.join("barrier"),
            gba: dir.join("gba-model"),
            dir,
        }
    }

    fn is_built(&self) -> bool {
        self.barrier.is_file() && self.gba.is_file()
    }
}

/// Where the model may be cached: beside the binary (the cargo target directory), else the
/// user's cache directory (a binary installed where its user cannot write).
fn cache_bases() -> Vec<PathBuf> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf));
    let user = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .map(|cache| cache.join("gba"));
    beside.into_iter().chain(user).collect()
}

/// The built model, building it first if nobody has built these sources yet.
pub fn model() -> Result<Model, String> {
    check_tools()?;
    let name = format!("gba-scale-{:016x}", fingerprint());
    let bases = cache_bases();
    if let Some(model) = bases
        .iter()
        .map(|base| Model::in_dir(base.join(&name)))
        .find(Model::is_built)
    {
        return Ok(model);
    }
    let mut unwritable = Vec::new();
    for base in &bases {
        // Build into a private directory, then rename it into place: concurrent first uses
        // (tests run in parallel) each build their own and one rename wins; nobody sees half a
        // build.
        let staging = base.join(format!("gba-scale-build-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&staging);
        if let Err(e) = std::fs::create_dir_all(&staging) {
            unwritable.push(format!("{}: {e}", staging.display()));
            continue;
        }
        if let Err(e) = build_in(&staging) {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
        let model = Model::in_dir(base.join(&name));
        if std::fs::rename(&staging, &model.dir).is_err() {
            // Another process finished first; its build is the same.
            let _ = std::fs::remove_dir_all(&staging);
        }
        return if model.is_built() {
            Ok(model)
        } else {
            Err(format!(
                "the model's build left no programs in {}",
                model.dir.display()
            ))
        };
    }
    Err(format!(
        "no directory to build the model in ({}); set XDG_CACHE_HOME to a writable directory",
        unwritable.join("; ")
    ))
}

fn build_in(dir: &Path) -> Result<(), String> {
    let bar = ProgressBar::new(2);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} building the model: {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))
    };
    write("barrier.c", BARRIER_C)?;
    write("gba.cpp", GBA_CPP)?;
    bar.set_message("smpicc barrier.c (the software barriers, SMPI)");
    compile(
        Command::new("smpicc")
            .args(CC_FLAGS)
            .args(["-o", "barrier", "barrier.c"])
            .current_dir(dir),
        "smpicc barrier.c",
    )?;
    bar.inc(1);
    bar.set_message("g++ gba.cpp (the GBA, S4U)");
    compile(
        Command::new("g++")
            .args(CXX_FLAGS)
            .args(["-o", "gba-model", "gba.cpp", "-lsimgrid"])
            .current_dir(dir),
        "g++ gba.cpp -lsimgrid",
    )?;
    bar.inc(1);
    bar.finish_and_clear();
    Ok(())
}

fn compile(command: &mut Command, what: &str) -> Result<(), String> {
    let out = command
        .output()
        .map_err(|e| format!("cannot run {what}: {e}\n{INSTALL_HINT}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "{what} failed ({}):\n{}\n{INSTALL_HINT}",
        out.status,
        String::from_utf8_lossy(&out.stderr).trim_end()
    ))
}
