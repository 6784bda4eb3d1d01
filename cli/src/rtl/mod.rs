//! `gba rtl`: the register block's RTL from a spec. The spec goes to SystemRDL (the same
//! emitter as `gba gen --emit systemrdl`, with arrays unrolled: see [`unroll`]), and
//! PeakRDL-regblock, the field's own generator, writes the SystemVerilog with an APB4 CPU
//! interface (`codegen/rdl/regblock.py`, which also says how the hardware side is decided
//! and writes a wrapper with flat ports); `verilator --lint-only` then checks it.

pub mod unroll;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use gba_codegen::emit::{Output, Provenance};

/// The regblock script, run from standard input so that the binary needs no source file.
const REGBLOCK: &str = include_str!("../../../codegen/rdl/regblock.py");

#[derive(clap::Args)]
pub struct RtlArgs {
    /// The spec (default: the project's gba.yaml).
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// Start from this SystemRDL instead of a spec: one `gba rtl` wrote (without arrays),
    /// perhaps edited (the mutation tests do).
    #[arg(long, conflicts_with = "spec")]
    pub rdl: Option<PathBuf>,
    /// The directory to write the RTL into.
    #[arg(long)]
    pub out: PathBuf,
    /// Do not run `verilator --lint-only` on the result.
    #[arg(long)]
    pub no_lint: bool,
}

/// The SystemVerilog sources of the register block `name` in `dir`, in compile order, and
/// its top module (the wrapper with flat ports).
pub fn sources(dir: &Path, name: &str) -> (Vec<PathBuf>, String) {
    (
        vec![
            dir.join(format!("{name}_regs_pkg.sv")),
            dir.join(format!("{name}_regs.sv")),
            dir.join(format!("{name}_rtl.sv")),
        ],
        format!("{name}_rtl"),
    )
}

pub fn python() -> String {
    std::env::var("GBA_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Runs `gba rtl`; returns the device name the files are named after.
pub fn run(args: &RtlArgs, spec: &Path) -> Result<String, String> {
    let started = Instant::now();
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let (rdl, name) = match &args.rdl {
        Some(rdl) => (rdl.clone(), rdl_name(rdl)?),
        None => {
            let device = gba_codegen::load_for(spec, &[Output::SystemRdl])
                .map_err(|e| format!("{}: {e}", spec.display()))?;
            // What the SystemRDL cannot carry (single pulses, locks) is not in the RTL either.
            for warning in device.warnings() {
                eprintln!("warning: {}: {}", spec.display(), warning.message);
            }
            let (device, left_out) = without_alternates(device.into_device());
            if left_out > 0 {
                eprintln!(
                    "warning: {}: {left_out} alternate view(s) left out of the RTL: \
                     PeakRDL-regblock builds one register per address, so each address \
                     reaches its primary register; `gba verify` lists the views' checks as \
                     not run",
                    spec.display()
                );
            }
            let name = device.name.to_ascii_lowercase();
            let provenance = Provenance {
                spec: spec.display().to_string(),
                command: "gba rtl".into(),
            };
            let text = gba_codegen::emit::render_systemrdl(&unroll::unroll(&device), &provenance);
            let rdl = args.out.join(format!("{name}_flat.rdl"));
            std::fs::write(&rdl, text)
                .map_err(|e| format!("cannot write {}: {e}", rdl.display()))?;
            (rdl, name)
        }
    };
    regblock(&rdl, &args.out, &name)?;
    let generated = started.elapsed();
    eprintln!(
        "rtl: {} written by PeakRDL-regblock in {:.2} s",
        args.out.display(),
        generated.as_secs_f64()
    );
    if !args.no_lint {
        let linting = Instant::now();
        lint(&args.out, &name)?;
        eprintln!(
            "rtl: verilator --lint-only clean in {:.2} s",
            linting.elapsed().as_secs_f64()
        );
    }
    Ok(name)
}

/// The device without its alternate views (blocks and registers that declare `alternate_of`),
/// and how many were left out.
fn without_alternates(mut device: gba_codegen::Device) -> (gba_codegen::Device, usize) {
    let blocks = device.blocks.len();
    device.blocks.retain(|b| b.alternate_of.is_none());
    let mut left_out = blocks - device.blocks.len();
    for block in &mut device.blocks {
        let registers = block.registers.len();
        block.registers.retain(|r| r.alternate_of.is_none());
        left_out += registers - block.registers.len();
    }
    (device, left_out)
}

/// The device name of a SystemRDL file `gba rtl` wrote (`gba_flat.rdl` → `gba`).
fn rdl_name(rdl: &Path) -> Result<String, String> {
    let text =
        std::fs::read_to_string(rdl).map_err(|e| format!("cannot read {}: {e}", rdl.display()))?;
    text.lines()
        .find_map(|line| {
            let rest = line.strip_prefix("addrmap ")?;
            Some(rest.trim_end_matches(['{', ' ']).to_ascii_lowercase())
        })
        .ok_or_else(|| format!("{}: no top-level `addrmap NAME {{` line", rdl.display()))
}

fn regblock(rdl: &Path, out: &Path, name: &str) -> Result<(), String> {
    let python = python();
    let mut child = Command::new(&python)
        .arg("-")
        .arg(rdl)
        .arg(out)
        .arg(name)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("cannot run {python}: {e}; set GBA_PYTHON to a Python 3 with peakrdl-regblock")
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(REGBLOCK.as_bytes())
            .map_err(|e| format!("cannot feed the regblock script to {python}: {e}"))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("{python} did not finish: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => Ok(()),
        Some(3) => Err(format!(
            "PeakRDL-regblock is not installed for {python}: {}",
            stderr.trim_end()
        )),
        _ => Err(format!(
            "PeakRDL-regblock refused {}:\n{}",
            rdl.display(),
            stderr.trim_end()
        )),
    }
}

fn lint(dir: &Path, name: &str) -> Result<(), String> {
    let (files, top) = sources(dir, name);
    let output = Command::new("verilator")
        .arg("--lint-only")
        .arg("--top-module")
        .arg(&top)
        .args(&files)
        .output()
        .map_err(|e| {
            format!("cannot run verilator: {e}; install it (apt-get install verilator)")
        })?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "verilator --lint-only refused the RTL in {}:\n{}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim_end()
        ))
    }
}
