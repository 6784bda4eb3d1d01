//! `gba`: the project's command-line front door.

mod bench;
mod dump;
mod reclaim;
mod rtl;
mod scale;
mod sim;
mod verify;

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use gba_codegen::diff::Severity;
use gba_codegen::emit::Output;
use gba_codegen::project::{self, Target};
use gba_codegen::{Device, Style, Validated};

/// The generator makes and drops millions of small objects on a large vendor file (YAML
/// nodes, token streams, syntax trees): with mimalloc rather than glibc's malloc, `gba
/// import-svd` + `gba gen` of Freescale's MKV58F24.svd take about a quarter less CPU time
/// (tests/bench/README.md). Without transparent huge pages (`no_thp`): on a busy machine the
/// kernel compacted memory to find them, which cost more system time than they saved.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "gba", version, about = "Global Barrier Accelerator tools")]
struct Cli {
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// `--emit` values, one per emitter.
#[derive(Clone, Copy, ValueEnum)]
enum Emit {
    Rust,
    C,
    Svd,
    Docs,
    Systemrdl,
    Ipxact,
}

impl From<Emit> for Output {
    fn from(emit: Emit) -> Output {
        match emit {
            Emit::Rust => Output::Rust,
            Emit::C => Output::C,
            Emit::Svd => Output::Svd,
            Emit::Docs => Output::Docs,
            Emit::Systemrdl => Output::SystemRdl,
            Emit::Ipxact => Output::IpXact,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate every binding from the spec (by default gba.yaml into gba-pac/).
    Gen {
        /// Change nothing; exit 1 and name each stale file if any differs from the spec.
        #[arg(long)]
        check: bool,
        /// Spec to generate from, instead of the project's gba.yaml.
        #[arg(long, requires = "out")]
        spec: Option<PathBuf>,
        /// Crate directory to generate into (with --spec).
        #[arg(long, requires = "spec")]
        out: Option<PathBuf>,
        /// Generate only these outputs (with --spec; default: all).
        #[arg(long, requires = "spec", value_delimiter = ',', value_enum)]
        emit: Vec<Emit>,
    },
    /// Validate a spec and print every problem found (exit 0 when clean, 1 when not).
    Check {
        /// The spec file.
        file: PathBuf,
    },
    /// Compare two specs and say what the change breaks for software built against OLD.
    ///
    /// Exit status: 0 no change, 1 only compatible changes, 2 at least one breaking change,
    /// 3 a spec is unreadable or invalid (or the command line is wrong).
    Diff {
        /// The spec that existing software was built against.
        old: PathBuf,
        /// The changed spec.
        new: PathBuf,
        /// Print the report as JSON (schema: `gba_codegen::diff`'s documentation).
        #[arg(long)]
        json: bool,
    },
    /// Benchmark the GBA barrier (on a private simulator fabric) against software barriers.
    Bench(bench::BenchArgs),
    /// One member process of `gba bench` (started by it).
    #[command(hide = true)]
    BenchMember(bench::MemberArgs),
    /// What the GBA buys from 2 to 708 hosts and beyond: a SimGrid model against OpenMPI's
    /// barriers on a simulated InfiniBand fat tree (needs SimGrid: libsimgrid-dev).
    Scale(scale::ScaleArgs),
    /// The device simulator: create, watch, step, fault and remove a fabric of ports.
    Sim {
        #[command(subcommand)]
        command: sim::SimCommand,
    },
    /// Every register of a device port (or of one group) decoded into fields and values.
    Dump(dump::DumpArgs),
    /// Take over and reset every group of a port whose claimants are all dead (a killed
    /// job's, on UIO and VFIO; a Slurm epilog runs it): prints what it reset, and the claims
    /// left (live ones are not touched).
    Reclaim(reclaim::ReclaimArgs),
    /// The register block's RTL (SystemVerilog, APB4) by PeakRDL-regblock from the spec's
    /// SystemRDL, linted by Verilator (`pip install peakrdl-regblock`, `apt-get install
    /// verilator`).
    Rtl(rtl::RtlArgs),
    /// Conformance checks generated from the spec (reset values, read-only, write-only,
    /// bit-bash, side effects, hardware writes, write locks, alternate views, aliasing)
    /// against the RTL `gba rtl` wrote (built with Verilator, driven over APB4) or a device
    /// (a board's bring-up); exit 1 naming each failing field, listing what was not run.
    Verify(verify::VerifyArgs),
    /// Convert a CMSIS-SVD file into a spec; what the spec cannot carry is listed on stderr.
    ImportSvd {
        /// The SVD file.
        file: PathBuf,
        /// Write the spec here instead of to standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Refuse the file at its first slip, instead of repairing what has an evident
        /// meaning (a misspelt access, a reset value wider than its register, an enumerated
        /// value wider than its field) with a warning each.
        #[arg(long)]
        strict: bool,
    },
    /// Convert a SystemRDL file into a spec, elaborated by systemrdl-compiler (`python3 -m
    /// pip install systemrdl-compiler`; GBA_PYTHON names another interpreter); what the spec
    /// cannot carry is listed on stderr.
    ImportRdl {
        /// The SystemRDL file.
        file: PathBuf,
        /// Write the spec here instead of to standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Refuse the file if anything in it cannot be carried as it is.
        #[arg(long)]
        strict: bool,
    },
    /// Convert an IP-XACT (1685-2014 or 2009) component's memory map into a spec; what the
    /// spec cannot carry is listed on stderr.
    ImportIpxact {
        /// The IP-XACT XML file.
        file: PathBuf,
        /// Write the spec here instead of to standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Refuse the file if anything in it cannot be carried as it is.
        #[arg(long)]
        strict: bool,
        /// Override a parameter, by its `parameterId` or name (1685-2014), or a value by its
        /// `spirit:id` (1685-2009): `--param PORTS=16`; the value is an expression. Repeatable.
        #[arg(long = "param", value_name = "KEY=VALUE", value_parser = key_value)]
        params: Vec<(String, String)>,
    },
}

/// `KEY=VALUE`, for `--param`.
fn key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.trim().is_empty() => {
            Ok((key.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("`{text}` is not KEY=VALUE")),
    }
}

/// `gba diff` exit statuses; scripts tell breaking from compatible by them.
mod diff_status {
    pub const COMPATIBLE: u8 = 1;
    pub const BREAKING: u8 = 2;
    pub const INVALID: u8 = 3;
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            // clap's usage status is 2, which `gba diff` uses for "breaking": a script must
            // not mistake a typo for a verdict.
            let diff = std::env::args().skip(1).any(|arg| arg == "diff");
            return match error.exit_code() {
                0 => ExitCode::SUCCESS,
                _ if diff => ExitCode::from(diff_status::INVALID),
                code => ExitCode::from(u8::try_from(code).unwrap_or(2)),
            };
        }
    };
    let style = match cli.color {
        Color::Always => Style::Color,
        Color::Never => Style::Plain,
        Color::Auto
            if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() =>
        {
            Style::Color
        }
        Color::Auto => Style::Plain,
    };
    match cli.command {
        Command::Gen {
            check,
            spec,
            out,
            emit,
        } => {
            let outputs: Vec<Output> = emit.into_iter().map(Output::from).collect();
            generate(check, spec.zip(out), &outputs, style)
        }
        Command::Check { file } => check_spec(&file, style),
        Command::Verify(args) => {
            let spec = match (&args.spec, project_root()) {
                (Some(spec), _) => spec.clone(),
                (None, Some(root)) => root.join(Target::gba().spec),
                (None, None) => {
                    eprintln!("error: no gba.yaml in this directory or any parent; give --spec");
                    return ExitCode::from(2);
                }
            };
            match verify::run(&args, &spec) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::FAILURE,
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Rtl(args) => {
            let spec = match (&args.spec, project_root()) {
                (Some(spec), _) => spec.clone(),
                (None, Some(root)) => root.join(Target::gba().spec),
                (None, None) if args.rdl.is_some() => PathBuf::new(),
                (None, None) => {
                    eprintln!("error: no gba.yaml in this directory or any parent; give --spec");
                    return ExitCode::from(2);
                }
            };
            match rtl::run(&args, &spec) {
                Ok(_) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::ImportSvd { file, out, strict } => import_svd(&file, out.as_deref(), strict),
        Command::ImportRdl { file, out, strict } => {
            let imported = gba_codegen::import::rdl::import(&file, strict);
            finish_import(&file, out.as_deref(), imported, "import-rdl", "SystemRDL")
        }
        Command::ImportIpxact {
            file,
            out,
            strict,
            params,
        } => {
            use gba_codegen::import::ipxact::{IpXactError, from_str_with};
            let imported = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read it: {e}"))
                .and_then(|xml| {
                    from_str_with(&xml, strict, &params).map_err(|e| match e {
                        // Each number that cannot be evaluated at its FILE:LINE.
                        IpXactError::Expression(problems) => {
                            let lines: Vec<String> = problems
                                .iter()
                                .map(|(line, why)| match line {
                                    Some(line) => format!("{}:{line}: {why}", file.display()),
                                    None => why.clone(),
                                })
                                .collect();
                            format!(
                                "{} number(s) cannot be evaluated, so the file is refused \
                                 (give a parameter's value with --param KEY=VALUE):\n  {}",
                                problems.len(),
                                lines.join("\n  ")
                            )
                        }
                        other => other.to_string(),
                    })
                });
            finish_import(&file, out.as_deref(), imported, "import-ipxact", "IP-XACT")
        }
        Command::Diff { old, new, json } => diff(&old, &new, json, style),
        Command::Sim { command } => sim::run(command),
        Command::Bench(args) => bench::run(args),
        Command::BenchMember(args) => bench::member(args),
        Command::Dump(args) => dump::run(args),
        Command::Reclaim(args) => reclaim::run(args),
        Command::Scale(args) => scale::run(args),
    }
}

fn diff(old_path: &Path, new_path: &Path, json: bool, style: Style) -> ExitCode {
    // Load both before failing, so that one run reports the problems of both specs.
    let (old, new) = (gba_codegen::load(old_path), gba_codegen::load(new_path));
    let (old, new) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            for error in [old.err(), new.err()].into_iter().flatten() {
                eprint!("{}", error.render(style));
            }
            return ExitCode::from(diff_status::INVALID);
        }
    };
    let diff = gba_codegen::diff::compare(&old, &new);
    let (old_name, new_name) = (
        old_path.display().to_string(),
        new_path.display().to_string(),
    );
    if json {
        print!("{}", gba_codegen::diff::json(&diff, &old_name, &new_name));
    } else {
        print!("{}", gba_codegen::diff::human(&diff, &old_name, &new_name));
    }
    match diff.verdict() {
        None => ExitCode::SUCCESS,
        Some(Severity::Compatible) => ExitCode::from(diff_status::COMPATIBLE),
        Some(Severity::Breaking) => ExitCode::from(diff_status::BREAKING),
    }
}

fn generate(
    check: bool,
    custom: Option<(PathBuf, PathBuf)>,
    outputs: &[Output],
    style: Style,
) -> ExitCode {
    let (root, target) = match custom {
        Some((spec, out)) if outputs.is_empty() => (PathBuf::from("."), Target::custom(spec, out)),
        Some((spec, out)) => (
            PathBuf::from("."),
            Target::custom(spec, out).with_outputs(outputs),
        ),
        None => match project_root() {
            Some(root) => (root, Target::gba()),
            None => {
                eprintln!(
                    "error: no gba.yaml in this directory or any parent; run `gba gen` inside \
                     the project, or give --spec and --out"
                );
                return ExitCode::from(2);
            }
        },
    };
    let changes = match project::run(&root, &target, !check) {
        Ok(run) => {
            print_warnings(&run.device, &target.spec, &run.text, style);
            run.changes
        }
        Err(project::GenError::Load(error)) => {
            eprint!("{}", error.render(style));
            return ExitCode::from(2);
        }
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    if check {
        if changes.is_empty() {
            println!(
                "generated files are up to date with {}",
                target.spec.display()
            );
            return ExitCode::SUCCESS;
        }
        eprintln!("error: generated files are stale:");
        for change in &changes {
            eprintln!("  {change}");
        }
        eprintln!("run `{}` to regenerate them", target.command());
        return ExitCode::from(1);
    }
    if changes.is_empty() {
        println!("all generated files were already up to date");
    } else {
        for change in &changes {
            match change {
                project::Staleness::Changed(path) => println!("updated {path}"),
                project::Staleness::Missing(path) => println!("created {path}"),
                project::Staleness::Orphaned(path) => {
                    println!("removed {path} (the spec no longer generates it)")
                }
            }
        }
    }
    ExitCode::SUCCESS
}

fn check_spec(file: &Path, style: Style) -> ExitCode {
    let checked = gba_codegen::read(file).and_then(|text| {
        gba_codegen::parse_str(&text)
            .map(|device| (device, text.clone()))
            .map_err(|diagnostics| gba_codegen::LoadError::Invalid {
                path: file.to_path_buf(),
                text,
                diagnostics,
            })
    });
    match checked {
        Ok((device, text)) => {
            print_warnings(&device, file, &text, style);
            println!("{}: ok ({})", file.display(), summary(&device));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprint!("{}", error.render(style));
            ExitCode::from(1)
        }
    }
}

/// Warnings go to stderr and never change the exit status.
fn print_warnings(device: &Validated, file: &Path, text: &str, style: Style) {
    if !device.warnings().is_empty() {
        eprint!(
            "{}",
            gba_codegen::diagnostic::render(
                device.warnings(),
                &file.display().to_string(),
                text,
                style
            )
        );
    }
}

fn import_svd(file: &Path, out: Option<&Path>, strict: bool) -> ExitCode {
    let xml = match std::fs::read_to_string(file) {
        Ok(xml) => xml,
        Err(error) => {
            eprintln!("error: cannot read {}: {error}", file.display());
            return ExitCode::from(2);
        }
    };
    let mode = if strict {
        gba_codegen::import::svd::Mode::Strict
    } else {
        gba_codegen::import::svd::Mode::Lenient
    };
    let imported = gba_codegen::import::svd::from_str_with(&xml, mode);
    finish_import(file, out, imported, "import-svd", "SVD")
}

/// Prints an import's warnings and writes its spec (`gba import-svd`, `import-rdl`,
/// `import-ipxact`).
fn finish_import<E: std::fmt::Display>(
    file: &Path,
    out: Option<&Path>,
    imported: Result<gba_codegen::import::Imported, E>,
    command: &str,
    format: &str,
) -> ExitCode {
    let imported = match imported {
        Ok(imported) => imported,
        Err(error) => {
            eprintln!("error: {}: {error}", file.display());
            return ExitCode::from(1);
        }
    };
    // One write for all the warnings (a large vendor file has tens of thousands; stderr is
    // unbuffered: a system call each).
    let mut report = String::new();
    for warning in &imported.warnings {
        let _ = match warning.line {
            Some(line) => writeln!(report, "warning: {}:{line}: {warning}", file.display()),
            None => writeln!(report, "warning: {warning}"),
        };
    }
    if let Some(summary) = gba_codegen::import::summary(&imported.warnings) {
        let _ = writeln!(report, "{summary}");
    }
    eprint!("{report}");
    let header = format!(
        "Imported from {} by `gba {command}`, and validated.\nWhat the {format} holds that this spec lacks was listed by the import as warnings.",
        file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned()
        )
    );
    let text = gba_codegen::write_spec(&imported.device, &header);
    match out {
        Some(path) => {
            if let Err(error) = std::fs::write(path, text) {
                eprintln!("error: cannot write {}: {error}", path.display());
                return ExitCode::from(2);
            }
            eprintln!("wrote {} ({})", path.display(), summary(&imported.device));
        }
        None => print!("{text}"),
    }
    ExitCode::SUCCESS
}

fn summary(device: &Device) -> String {
    let registers: usize = device.blocks.iter().map(|b| b.registers.len()).sum();
    let fields: usize = device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .map(|r| r.fields.len())
        .sum();
    format!(
        "{} blocks, {registers} registers, {fields} fields, {} constants",
        device.blocks.len(),
        device.constants.len()
    )
}

/// The nearest directory, from here up, that holds the project's gba.yaml.
fn project_root() -> Option<PathBuf> {
    let here = std::env::current_dir().ok()?;
    here.ancestors()
        .find(|dir| dir.join(Target::gba().spec).is_file())
        .map(Path::to_path_buf)
}
