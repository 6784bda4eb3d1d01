//! `gba scale`: what the GBA buys from 2 to 708 hosts and beyond, modelled on SimGrid.
//!
//! The software barriers are real MPI code run by SMPI on a simulated InfiniBand fat tree
//! (OpenMPI's algorithms as SMPI implements them, and the dissemination barrier); the GBA is a
//! SimGrid S4U model of the switch of docs/datasheet.md section 4 over the same links. Sources:
//! `scale/` (the two programs and the README with every parameter and its source).

mod build;
mod params;
mod plot;
mod report;
mod run;

use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

/// The host counts of the default run: powers of two up to 512, and one full GBA.
const DEFAULT_HOSTS: &[usize] = &[2, 4, 8, 16, 32, 64, 128, 256, 512, 708];

#[derive(Args)]
pub struct ScaleArgs {
    /// Host counts to simulate, comma-separated (1 host per rank; at most 4096).
    #[arg(long, value_delimiter = ',', value_name = "N,…")]
    hosts: Vec<usize>,
    /// Contenders, comma-separated (default: all).
    #[arg(long, value_delimiter = ',', value_enum, value_name = "NAME,…")]
    contenders: Vec<Contender>,
    /// The GBA's PCIe crossing, ns (an assumption: see scale/README.md).
    #[arg(long, value_name = "NS")]
    pcie_ns: Option<f64>,
    /// The GBA's pipeline from last arrival to first release, ns (an assumption).
    #[arg(long, value_name = "NS")]
    switch_ns: Option<f64>,
    /// The GBA's cost per arrival, serialised, ns (an assumption).
    #[arg(long, value_name = "NS")]
    arrival_ns: Option<f64>,
    /// The GBA's cost per release write, serialised, ns (an assumption).
    #[arg(long, value_name = "NS")]
    release_ns: Option<f64>,
    /// Print one JSON object on standard output instead of the table.
    #[arg(long)]
    json: bool,
    /// Also draw latency against host count (log scales) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

/// A barrier in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Contender {
    /// The GBA (S4U model of the switch).
    Gba,
    /// OpenMPI's default decision for MPI_Barrier (SMPI's `ompi` selector).
    OmpiDefault,
    /// OpenMPI's Bruck barrier (`ompi_bruck`).
    OmpiBruck,
    /// OpenMPI's recursive-doubling barrier (`ompi_recursivedoubling`).
    OmpiRecursiveDoubling,
    /// The dissemination barrier of gba-barrier, over MPI point-to-point.
    Dissemination,
}

impl Contender {
    const ALL: [Contender; 5] = [
        Contender::Gba,
        Contender::OmpiDefault,
        Contender::OmpiBruck,
        Contender::OmpiRecursiveDoubling,
        Contender::Dissemination,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Contender::Gba => "gba",
            Contender::OmpiDefault => "ompi-default",
            Contender::OmpiBruck => "ompi-bruck",
            Contender::OmpiRecursiveDoubling => "ompi-recursive-doubling",
            Contender::Dissemination => "dissemination",
        }
    }

    /// The barrier program's mode and SMPI's barrier algorithm, or None for the S4U model.
    fn smpi(self) -> Option<(&'static str, &'static str)> {
        match self {
            Contender::Gba => None,
            Contender::OmpiDefault => Some(("mpi", "ompi")),
            Contender::OmpiBruck => Some(("mpi", "ompi_bruck")),
            Contender::OmpiRecursiveDoubling => Some(("mpi", "ompi_recursivedoubling")),
            // The selector is irrelevant: the program calls no MPI_Barrier in this mode.
            Contender::Dissemination => Some(("dissemination", "ompi")),
        }
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The simulated latencies: `latency_ns[h][c]` for `hosts[h]` and `contenders[c]`.
pub struct Table {
    pub hosts: Vec<usize>,
    pub contenders: Vec<Contender>,
    pub latency_ns: Vec<Vec<f64>>,
    pub gba: params::Gba,
}

impl Table {
    /// The GBA's latency at row `h`, if the GBA is a contender.
    pub fn gba_at(&self, h: usize) -> Option<f64> {
        let c = self.contenders.iter().position(|&c| c == Contender::Gba)?;
        Some(self.latency_ns[h][c])
    }

    pub fn at(&self, hosts: usize, contender: Contender) -> Option<f64> {
        let h = self.hosts.iter().position(|&n| n == hosts)?;
        let c = self.contenders.iter().position(|&c| c == contender)?;
        Some(self.latency_ns[h][c])
    }
}

/// Checks the arguments; every problem is named with what is allowed.
fn validate(args: &ScaleArgs) -> Result<(Vec<usize>, Vec<Contender>, params::Gba), String> {
    let mut hosts = if args.hosts.is_empty() {
        DEFAULT_HOSTS.to_vec()
    } else {
        args.hosts.clone()
    };
    if let Some(&bad) = hosts
        .iter()
        .find(|&&n| !(2..=params::MAX_HOSTS).contains(&n))
    {
        return Err(format!(
            "--hosts: {bad} is outside the model's range 2 to {} (a barrier needs 2 hosts; \
             the model's platforms are sized for at most {})",
            params::MAX_HOSTS,
            params::MAX_HOSTS
        ));
    }
    hosts.sort_unstable();
    hosts.dedup();
    let mut contenders = if args.contenders.is_empty() {
        Contender::ALL.to_vec()
    } else {
        args.contenders.clone()
    };
    contenders.sort_by_key(|c| Contender::ALL.iter().position(|a| a == c));
    contenders.dedup();
    let mut gba = params::Gba::default();
    for (name, value, slot) in [
        ("--pcie-ns", args.pcie_ns, &mut gba.pcie_ns),
        ("--switch-ns", args.switch_ns, &mut gba.switch_ns),
        ("--arrival-ns", args.arrival_ns, &mut gba.arrival_ns),
        ("--release-ns", args.release_ns, &mut gba.release_ns),
    ] {
        if let Some(value) = value {
            if !(0.0..=1e6).contains(&value) {
                return Err(format!(
                    "{name}: {value} is not a time from 0 to 1000000 ns"
                ));
            }
            *slot = value;
        }
    }
    Ok((hosts, contenders, gba))
}

pub fn run(args: ScaleArgs) -> ExitCode {
    let (hosts, contenders, gba) = match validate(&args) {
        Ok(valid) => valid,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let model = match build::model() {
        Ok(model) => model,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let jobs: Vec<run::Job> = hosts
        .iter()
        .flat_map(|&hosts| {
            contenders
                .iter()
                .map(move |&contender| run::Job { contender, hosts })
        })
        .collect();
    let latencies = match run::all(&model, &jobs, &gba) {
        Ok(latencies) => latencies,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let table = Table {
        latency_ns: latencies
            .chunks(contenders.len())
            .map(<[f64]>::to_vec)
            .collect(),
        hosts,
        contenders,
        gba,
    };
    if args.json {
        println!("{}", report::json(&table));
    } else {
        print!("{}", report::text(&table));
    }
    if let Some(path) = &args.plot {
        if let Err(e) = plot::draw(path, &table) {
            eprintln!("error: cannot draw {}: {e}", path.display());
            return ExitCode::from(1);
        }
        eprintln!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
