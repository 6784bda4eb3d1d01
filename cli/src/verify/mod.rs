//! `gba verify`: conformance checks generated from the spec, run over any [`Bus`]: the
//! register block's RTL under Verilator ([`rtl::RtlBus`]), or a port opened through gba-hal
//! ([`device::DeviceBus`]: the simulator, UIO, VFIO), a board's bring-up check.

pub mod checks;
pub mod device;
mod effects;
pub mod gaps;
pub mod hal;
#[cfg(test)]
mod model;
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
    /// Makes the device take in the writes made so far before the next read, as a register
    /// block does in the cycle of the write (`gba_hal::Device::settle`: the simulator's
    /// switch steps). The checks call it between a write and the read that checks the
    /// write's effect; the RTL needs nothing (the default).
    fn settle(&mut self) -> Result<(), String> {
        Ok(())
    }
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("backend").required(true).args(["rtl", "device"])))]
pub struct VerifyArgs {
    /// The spec to check against (default: the project's gba.yaml).
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// The register block's RTL, as `gba rtl --out DIR` wrote it: built with Verilator
    /// (cached in the build directory) and driven over APB4.
    #[arg(long)]
    pub rtl: Option<PathBuf>,
    /// Where to build the Verilator harness (default: DIR/obj).
    #[arg(long, requires = "rtl")]
    pub build: Option<PathBuf>,
    /// A GBA port instead of the RTL: `sim:<fabric-dir>#<port>`, `/dev/uioN` or `vfio:BDF`
    /// (a board's bring-up). The checks write every register of every group.
    #[arg(long)]
    pub device: Option<String>,
    /// Instead of the checks, run gba-hal's own configure sequence (claim group 0, configure,
    /// wait for READY, release) against the RTL, this command playing the switch through the
    /// RTL's hardware-write port.
    #[arg(long, requires = "rtl")]
    pub hal: bool,
    /// Run on a device that is in use (groups busy or claimed), breaking what runs there.
    #[arg(long, requires = "device")]
    pub force: bool,
}

/// Runs `gba verify`: prints each failure, what was not run and a closing count; `Ok(true)`
/// when all passed.
pub fn run(args: &VerifyArgs, spec: &std::path::Path) -> Result<bool, String> {
    let device = gba_codegen::load(spec).map_err(|e| format!("{}: {e}", spec.display()))?;
    let (mut bus, gaps): (Box<dyn Bus>, gaps::Gaps) = match (&args.rtl, &args.device) {
        (Some(dir), _) => {
            let name = gba_codegen::names::lower(&device.name);
            let build = args.build.clone().unwrap_or_else(|| dir.join("obj"));
            let started = std::time::Instant::now();
            let harness = rtl::build(dir, &name, &build)?;
            eprintln!(
                "verify: harness {} ready in {:.1} s",
                harness.display(),
                started.elapsed().as_secs_f64()
            );
            let bus = rtl::RtlBus::start(&harness, &dir.join(format!("{name}_hwif.tsv")))?;
            if args.hal {
                for line in hal::configure_sequence(&device, bus)? {
                    println!("{line}");
                }
                println!("verify: the HAL's configure sequence completed against the RTL");
                return Ok(true);
            }
            (Box::new(bus), gaps::Gaps::rtl(&device))
        }
        (None, Some(address)) => {
            let bus = device::DeviceBus::open(address, args.force)?;
            eprintln!("verify: {}", bus.describe());
            let gaps = bus.gaps();
            (Box::new(bus), gaps)
        }
        (None, None) => return Err("give --rtl DIR or --device ADDR".into()),
    };
    let started = std::time::Instant::now();
    let report = checks::run(&device, bus.as_mut(), &gaps)?;
    for failure in &report.failures {
        println!("FAIL {failure}");
    }
    for (why, places) in report.not_run_by_reason() {
        println!("not run: {why}: {}", places.join(", "));
    }
    println!(
        "verify: {} passed, {} failed, {} not run ({:.1} s)",
        report.passed,
        report.failures.len(),
        report.not_run.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(report.failures.is_empty())
}
