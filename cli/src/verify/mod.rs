//! `gba verify`: conformance checks generated from the spec, run over any [`Bus`]: the
//! register block's RTL under Verilator ([`rtl::RtlBus`]) today, and the same checks can run
//! against the simulator or a device behind any transport that implements [`Bus`].

pub mod checks;
mod effects;
pub mod gaps;
pub mod rtl;
mod views;

use std::path::PathBuf;

/// A register transport: a read or write of an address and a width (8, 16, 32 or 64 bits),
/// which may fail.
pub trait Bus {
    fn read(&mut self, addr: u64, width: u32) -> Result<u64, String>;
    fn write(&mut self, addr: u64, width: u32, value: u64) -> Result<(), String>;
    /// Puts the device in its reset state; `Ok(false)` when this transport cannot (then the
    /// reset values are checked as they are found).
    fn reset(&mut self) -> Result<bool, String>;
    /// Makes the device's hardware write `value` into a field that hardware writes (named in
    /// the unrolled form: `group_3.STATUS.READY`); `Ok(false)` when this transport cannot
    /// or the field is not one hardware writes.
    fn hw_write(&mut self, field: &str, value: u64) -> Result<bool, String>;
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The spec to check against (default: the project's gba.yaml).
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// The register block's RTL, as `gba rtl --out DIR` wrote it: built with Verilator
    /// (cached in the build directory) and driven over APB4.
    #[arg(long)]
    pub rtl: PathBuf,
    /// Where to build the Verilator harness (default: DIR/obj).
    #[arg(long)]
    pub build: Option<PathBuf>,
}

/// Runs `gba verify`: prints each failure and a closing count; `Ok(true)` when all passed.
pub fn run(args: &VerifyArgs, spec: &std::path::Path) -> Result<bool, String> {
    let device = gba_codegen::load(spec).map_err(|e| format!("{}: {e}", spec.display()))?;
    let name = gba_codegen::names::lower(&device.name);
    let build = args.build.clone().unwrap_or_else(|| args.rtl.join("obj"));
    let started = std::time::Instant::now();
    let harness = rtl::build(&args.rtl, &name, &build)?;
    eprintln!(
        "verify: harness {} ready in {:.1} s",
        harness.display(),
        started.elapsed().as_secs_f64()
    );
    let started = std::time::Instant::now();
    let mut bus = rtl::RtlBus::start(&harness, &args.rtl.join(format!("{name}_hwif.tsv")))?;
    let report = checks::run(&device, &mut bus, &gaps::Gaps::rtl(&device))?;
    for failure in &report.failures {
        println!("FAIL {failure}");
    }
    for note in &report.not_run {
        println!("not run: {note}");
    }
    println!(
        "verify: {} passed, {} failed ({:.1} s)",
        report.passed,
        report.failures.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(report.failures.is_empty())
}
