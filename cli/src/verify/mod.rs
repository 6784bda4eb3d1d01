//! `gba verify`: conformance checks generated from the spec, run over any [`Bus`]: the
//! register block's RTL under Verilator ([`rtl::RtlBus`]), or a port opened through gba-hal
//! ([`device::DeviceBus`]: the simulator, UIO, VFIO), a board's bring-up check.

pub mod checks;
pub mod device;
mod effects;
mod external;
pub mod gaps;
pub mod hal;
mod hwside;
#[cfg(test)]
mod model;
pub mod mutants;
pub mod rtl;
pub mod summary;
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
    /// The value of a strapped field (`reset: strap`, named in the spec's terms:
    /// `global.PORT_ID.PORT`) where this backend knows it; `None` where it does not.
    fn strap(&self, _field: &str) -> Option<u64> {
        None
    }
    /// Makes the device take in the writes made so far before the next read, as a register
    /// block does in the cycle of the write (`gba_hal::Device::settle`: the simulator's
    /// switch steps). The checks call it between a write and the read that checks the
    /// write's effect. No default: a wrapper that forgot to forward it would make every
    /// simulator check read before the switch stepped.
    fn settle(&mut self) -> Result<(), String>;
    /// The value the block drives to hardware for a field hardware reads (named in the
    /// unrolled form), where this transport shows it: PeakRDL-regblock's `hwif_out`.
    fn hw_out(&mut self, _field: &str) -> Result<Option<u64>, String> {
        Ok(None)
    }
    /// Every pulse the block gives hardware (a `swmod` strobe, a single pulse's value), with
    /// the cycles it was high since the last call or reset; then starts counting again.
    /// `None` where this transport shows no pulse.
    fn take_pulses(&mut self) -> Result<Option<Vec<Pulse>>, String> {
        Ok(None)
    }
    /// The widest access of one transfer: a register wider than this is accessed in words of
    /// this width (the RTL's APB4 bus: 32), each of which the word checks read and write
    /// alone. 64 where a 64-bit register is one access.
    fn transfer_bits(&self) -> u32 {
        64
    }
    /// Whether an 8-bit write here writes its byte alone (a bus with byte strobes: APB4's
    /// PSTRB), so that the byte-strobe checks can write each byte of a register alone.
    fn byte_writes(&self) -> bool {
        false
    }
}

/// A pulse to hardware and how many cycles it was high ([`Bus::take_pulses`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pulse {
    /// The field, in the unrolled form (`group_0.ARRIVAL.SEQUENCE`).
    pub field: String,
    /// `swmod` (software wrote the field), `swacc` (software accessed it), or `value` (a
    /// single pulse's value).
    pub signal: String,
    pub cycles: u64,
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
    /// The value of a strapped field (`reset: strap` in the spec), as `FIELD=VALUE` with the
    /// field in the spec's terms (`global.PORT_ID.PORT=3`), for a backend that does not know
    /// it (a board: its straps are its own); repeatable. Without it that reset check is
    /// listed as not run. With `--rtl`, the RTL's strap input is driven with it (else 0).
    #[arg(long = "strap", value_parser = parse_strap)]
    pub straps: Vec<(String, u64)>,
    /// Mutation testing instead of one run of the checks: mutants of the RTL's SystemVerilog
    /// (reset constants, decodes, bit slices, side effects, hardware writes, lock gating,
    /// the read mux; see `cli/src/verify/mutants.rs`), built into one Verilator model, and
    /// the checks run against each: `N` of them spread over the kinds, or `all`. Fails when
    /// fewer than 95 % are killed with their register and field named.
    #[arg(long, requires = "rtl", value_name = "N|all")]
    pub mutants: Option<String>,
    /// With `--mutants`: only the mutants of this register or field, in the RTL's unrolled
    /// names (`group_0.ARRIVAL`, `group_0.CONTROL.RESET`); repeatable.
    #[arg(long = "mutants-of", requires = "mutants", value_name = "PLACE")]
    pub mutants_of: Vec<String>,
    /// Print every place a not-run line concerns (by default, arrays are summarised as
    /// ranges: `group[0..31].STATUS.*`).
    #[arg(long)]
    pub verbose: bool,
    /// Also write the whole report (every failure, every not-run place and why, the counts)
    /// as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Run on a device that is in use (groups busy or claimed), breaking what runs there.
    #[arg(long, requires = "device")]
    pub force: bool,
}

/// Runs `gba verify`: prints each failure, what was not run and a closing count; `Ok(true)`
/// when all passed.
pub fn run(args: &VerifyArgs, spec: &std::path::Path) -> Result<bool, String> {
    let device = gba_codegen::load(spec).map_err(|e| format!("{}: {e}", spec.display()))?;
    for (path, _) in &args.straps {
        if !strapped_fields(&device).iter().any(|p| p == path) {
            return Err(format!(
                "--strap {path}: no field of {} with `reset: strap` is called that; the \
                 strapped fields are: {}",
                spec.display(),
                strapped_fields(&device).join(", ")
            ));
        }
    }
    let (bus, gaps): (Box<dyn Bus>, gaps::Gaps) = match (&args.rtl, &args.device) {
        (Some(dir), _) => {
            let name = device.name.to_ascii_lowercase();
            let build = args.build.clone().unwrap_or_else(|| dir.join("obj"));
            if let Some(count) = &args.mutants {
                return mutation_run(args, &device, dir, &name, &build, count);
            }
            let started = std::time::Instant::now();
            let harness = rtl::build(dir, &name, &build)?;
            eprintln!(
                "verify: harness {} ready in {:.1} s",
                harness.display(),
                started.elapsed().as_secs_f64()
            );
            let bus = rtl::RtlBus::start(&harness, &dir.join(format!("{name}_hwif.tsv")))?;
            // The RTL's straps are inputs of its wrapper: drive the ones given, as a board's
            // pins would (the others stay 0, which the backend then says).
            for (path, value) in &args.straps {
                bus.drive_strap(path, *value)?;
            }
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
    let mut bus = GivenStraps {
        bus,
        given: args.straps.clone(),
    };
    let report = checks::run(&device, &mut bus, &gaps)?;
    for failure in &report.failures {
        println!("FAIL {failure}");
    }
    let field_counts: std::collections::HashMap<String, usize> = checks::elements(&device)
        .iter()
        .map(|e| (e.path.clone(), e.reg.fields.len()))
        .collect();
    for (why, places) in report.not_run_by_reason() {
        let listed = if args.verbose {
            places.clone()
        } else {
            summary::summarise(&places, &|r| field_counts.get(r).copied())
        };
        println!("not run: {why}: {}", listed.join(", "));
    }
    if let Some(path) = &args.json {
        let json = serde_json::json!({
            "passed": report.passed,
            "failures": report.failures.iter().map(|f| serde_json::json!({
                "place": f.place, "check": f.check, "detail": f.detail,
            })).collect::<Vec<_>>(),
            "not_run": report.not_run_by_reason().into_iter().map(|(why, places)| {
                serde_json::json!({"why": why, "places": places})
            }).collect::<Vec<_>>(),
        });
        std::fs::write(path, format!("{json:#}\n"))
            .map_err(|e| format!("--json {}: {e}", path.display()))?;
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

/// `gba verify --rtl DIR --mutants N|all`: the schemata RTL (every mutant of DIR's
/// `NAME_regs.sv`, one selected per run) built in BUILD/mutants, then the checks against
/// each chosen mutant; prints the survivors and the score.
fn mutation_run(
    args: &VerifyArgs,
    device: &gba_codegen::Device,
    dir: &std::path::Path,
    name: &str,
    build: &std::path::Path,
    count: &str,
) -> Result<bool, String> {
    let count = match count {
        "all" => usize::MAX,
        n => n
            .parse()
            .map_err(|_| format!("--mutants takes a number or `all`, not `{n}`"))?,
    };
    let regs = dir.join(format!("{name}_regs.sv"));
    let sv = std::fs::read_to_string(&regs)
        .map_err(|e| format!("cannot read {}: {e}", regs.display()))?;
    let (all, schemata) = mutants::generate(&sv);
    let work = build.join("mutants");
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    // Absolute: Verilator's make runs in the build directory.
    let work = work
        .canonicalize()
        .map_err(|e| format!("{}: {e}", work.display()))?;
    for suffix in [
        "_regs_pkg.sv",
        "_rtl.sv",
        "_hwif.tsv",
        "_straps.tsv",
        "_hwout.tsv",
    ] {
        let from = dir.join(format!("{name}{suffix}"));
        if from.exists() {
            std::fs::copy(&from, work.join(format!("{name}{suffix}")))
                .map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
        }
    }
    std::fs::write(work.join(format!("{name}_regs.sv")), schemata)
        .map_err(|e| format!("cannot write {}: {e}", work.display()))?;
    let started = std::time::Instant::now();
    let harness = rtl::build(&work, name, &work.join("obj"))?;
    eprintln!(
        "verify: mutant schemata ({} mutants) built in {:.1} s",
        all.len(),
        started.elapsed().as_secs_f64()
    );
    let of: Vec<mutants::Mutant> = all
        .iter()
        .filter(|m| args.mutants_of.is_empty() || args.mutants_of.iter().any(|p| m.concerns(p)))
        .cloned()
        .collect();
    if of.is_empty() {
        return Err(format!(
            "--mutants-of {}: no mutant concerns it (give a register or field in the RTL's \
             unrolled names, as `gba verify --mutants all --verbose` prints them)",
            args.mutants_of.join(", ")
        ));
    }
    let chosen = mutants::sample(&of, count);
    let started = std::time::Instant::now();
    let straps = args.straps.clone();
    let outcomes = mutants::run(
        device,
        &chosen,
        &harness,
        &work.join(format!("{name}_hwif.tsv")),
        &|bus| {
            for (path, value) in &straps {
                bus.drive_strap(path, *value)?;
            }
            Ok(())
        },
    )?;
    let (text, enough) = mutants::summary(&outcomes, all.len(), args.verbose);
    print!("{text}");
    println!(
        "verify: {} mutants run in {:.1} s",
        outcomes.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = &args.json {
        let json = serde_json::json!({
            "generated": all.len(),
            "mutants": outcomes.iter().map(|o| serde_json::json!({
                "id": o.mutant.id, "line": o.mutant.line, "kind": o.mutant.kind,
                "target": o.mutant.target, "other": o.mutant.other,
                "from": o.mutant.change.0, "to": o.mutant.change.1,
                "killed_by": o.killed_by, "unnamed_failures": o.unnamed,
            })).collect::<Vec<_>>(),
        });
        std::fs::write(path, format!("{json:#}\n"))
            .map_err(|e| format!("--json {}: {e}", path.display()))?;
    }
    Ok(enough)
}

/// A backend with the straps the command line gives (`--strap`), which take precedence over
/// what the backend knows.
struct GivenStraps {
    bus: Box<dyn Bus>,
    given: Vec<(String, u64)>,
}

impl Bus for GivenStraps {
    fn read(&mut self, addr: u64, width: u32) -> Result<u64, String> {
        self.bus.read(addr, width)
    }
    fn write(&mut self, addr: u64, width: u32, value: u64) -> Result<(), String> {
        self.bus.write(addr, width, value)
    }
    fn reset(&mut self) -> Result<bool, String> {
        self.bus.reset()
    }
    fn hw_write(&mut self, field: &str, value: u64) -> Result<bool, String> {
        self.bus.hw_write(field, value)
    }
    fn settle(&mut self) -> Result<(), String> {
        self.bus.settle()
    }
    fn hw_out(&mut self, field: &str) -> Result<Option<u64>, String> {
        self.bus.hw_out(field)
    }
    fn take_pulses(&mut self) -> Result<Option<Vec<Pulse>>, String> {
        self.bus.take_pulses()
    }
    fn transfer_bits(&self) -> u32 {
        self.bus.transfer_bits()
    }
    fn byte_writes(&self) -> bool {
        self.bus.byte_writes()
    }
    fn strap(&self, field: &str) -> Option<u64> {
        self.given
            .iter()
            .find(|(path, _)| path == field)
            .map(|(_, v)| *v)
            .or_else(|| self.bus.strap(field))
    }
}

/// `global.PORT_ID.PORT=3` → (`global.PORT_ID.PORT`, 3).
fn parse_strap(text: &str) -> Result<(String, u64), String> {
    let (path, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: expected FIELD=VALUE, e.g. global.PORT_ID.PORT=3"))?;
    let value = match value.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => value.parse(),
    }
    .map_err(|e| format!("`{text}`: the value is not a number: {e}"))?;
    Ok((path.to_string(), value))
}

/// Every strapped field's path in the spec's terms (arrays expanded).
fn strapped_fields(device: &gba_codegen::Device) -> Vec<String> {
    checks::elements(device)
        .iter()
        .flat_map(|e| {
            e.reg
                .fields
                .iter()
                .filter(|f| {
                    f.reset_from
                        .is_some_and(|r| *r == gba_codegen::model::ResetFrom::Strap)
                })
                .map(|f| e.field_path(f))
                .collect::<Vec<_>>()
        })
        .collect()
}
