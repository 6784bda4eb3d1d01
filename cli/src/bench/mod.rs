//! `gba bench`: the GBA barrier against software barriers, side by side in one run.
//!
//! It creates a private simulator fabric (removed afterwards, also on Ctrl-C or a failure),
//! starts N member processes (or threads with `--threads`), and runs every contender in
//! alternating short rounds, so that a change of the machine's speed during the run affects
//! all of them alike. Member 0 times every barrier; the table shows the median and p99 and each
//! contender's ratio to the GBA path.

mod plot;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use gba_barrier::Wait;
use gba_barrier::hal::offload;
use gba_barrier::soft::StdBarrier;
use gba_barrier::soft::{Algorithm, SoftBarrier};
use gba_hal::{Device, GroupConfig, LocalTeam, MemberSet, TeamKey};
use gba_sim::SimBackend;
use indicatif::{ProgressBar, ProgressStyle};

/// How long one barrier may take before the benchmark gives up (a member died or hangs).
const WAIT_LIMIT: Duration = Duration::from_secs(60);
const NOTE: &str = "Only ratios between contenders of one run mean anything: on this kind of machine the cache-line transfer time jumps between about 60 and 320 ns every few seconds, and the rounds alternate so that every contender sees the same jumps.";

#[derive(Args)]
pub struct BenchArgs {
    /// Members of every barrier (processes, or threads with --threads).
    #[arg(long, default_value_t = 2)]
    members: usize,
    /// Timed barriers per contender (split into --rounds alternating rounds).
    #[arg(long, default_value_t = 20_000)]
    iters: usize,
    /// Rounds: each contender runs iters/rounds barriers per round, in turn.
    #[arg(long, default_value_t = 10)]
    rounds: usize,
    /// Members are threads of this process (adds std::sync::Barrier as a peer).
    #[arg(long)]
    threads: bool,
    /// Print one JSON object on standard output instead of the table.
    #[arg(long)]
    json: bool,
    /// Also draw the latency distributions (one CDF per contender) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

/// `gba bench-member`: one member process of a running benchmark (started by `gba bench`).
#[derive(Args)]
pub struct MemberArgs {
    #[arg(long)]
    dir: PathBuf,
    #[arg(long)]
    member: usize,
    #[arg(long)]
    members: usize,
    #[arg(long)]
    iters: usize,
    #[arg(long)]
    rounds: usize,
}

/// One contender's timings (sorted, nanoseconds per barrier, as member 0 saw them).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Contender {
    name: String,
    samples: Vec<u64>,
}

impl Contender {
    fn percentile(&self, p: f64) -> u64 {
        if self.samples.is_empty() {
            return 0;
        }
        let index = ((self.samples.len() as f64 * p).ceil() as usize).clamp(1, self.samples.len());
        self.samples[index - 1]
    }

    pub fn median(&self) -> u64 {
        self.percentile(0.5)
    }

    pub fn p99(&self) -> u64 {
        self.percentile(0.99)
    }
}

/// Removes the private fabric directory when dropped (also after a failure).
struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn run(args: BenchArgs) -> ExitCode {
    if !(1..=gba_pac::MAX_MEMBERS).contains(&args.members) {
        eprintln!(
            "error: --members must be 1 to {}, not {}",
            gba_pac::MAX_MEMBERS,
            args.members
        );
        return ExitCode::from(1);
    }
    if args.rounds == 0 || args.iters < args.rounds {
        eprintln!(
            "error: --iters ({}) must be at least --rounds ({}), and --rounds at least 1",
            args.iters, args.rounds
        );
        return ExitCode::from(1);
    }
    let base = if Path::new("/dev/shm").is_dir() {
        "/dev/shm"
    } else {
        "/tmp"
    };
    let dir = PathBuf::from(format!("{base}/gba-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitCode::from(1);
    }
    let cleanup = Cleanup(dir.clone());
    {
        let dir = dir.clone();
        let _ = ctrlc::set_handler(move || {
            let _ = std::fs::remove_dir_all(&dir);
            eprintln!("\ninterrupted: removed {}", dir.display());
            std::process::exit(130);
        });
    }
    if let Err(e) = gba_sim::Fabric::create(&dir.join("fabric"), args.members) {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    let result = if args.threads {
        run_threads(&dir, &args)
    } else {
        run_processes(&dir, &args)
    };
    drop(cleanup);
    let contenders = match result {
        Ok(contenders) => contenders,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    report(&args, &contenders)
}

fn report(args: &BenchArgs, contenders: &[Contender]) -> ExitCode {
    let gba = contenders.first().map_or(1, |c| c.median().max(1)) as f64;
    let mode = if args.threads { "threads" } else { "processes" };
    if args.json {
        let results: Vec<serde_json::Value> = contenders
            .iter()
            .map(|c| {
                serde_json::json!({
                    "name": c.name,
                    "median_ns": c.median(),
                    "p99_ns": c.p99(),
                    "ratio_to_gba": c.median() as f64 / gba,
                })
            })
            .collect();
        let object = serde_json::json!({
            "members": args.members,
            "iters": args.iters,
            "rounds": args.rounds,
            "mode": mode,
            "results": results,
            "note": NOTE,
        });
        println!("{object}");
    } else {
        println!(
            "{} members ({mode}), {} barriers per contender in {} alternating rounds; member 0's view",
            args.members, args.iters, args.rounds
        );
        println!(
            "{:<22} {:>12} {:>12} {:>14}",
            "contender", "median ns", "p99 ns", "median / gba"
        );
        for c in contenders {
            println!(
                "{:<22} {:>12} {:>12} {:>14.2}",
                c.name,
                c.median(),
                c.p99(),
                c.median() as f64 / gba
            );
        }
        println!("\n{NOTE}");
    }
    if let Some(path) = &args.plot {
        let title = format!("barrier latency, {} members ({mode})", args.members);
        if let Err(e) = plot::cdf(path, contenders, &title) {
            eprintln!("error: cannot draw {}: {e}", path.display());
            return ExitCode::from(1);
        }
        eprintln!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

fn run_processes(dir: &Path, args: &BenchArgs) -> Result<Vec<Contender>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the gba binary: {e}"))?;
    let mut children = Vec::new();
    for member in 0..args.members {
        let child = Command::new(&exe)
            .arg("bench-member")
            .arg("--dir")
            .arg(dir)
            .args(["--member", &member.to_string()])
            .args(["--members", &args.members.to_string()])
            .args(["--iters", &args.iters.to_string()])
            .args(["--rounds", &args.rounds.to_string()])
            .spawn()
            .map_err(|e| format!("cannot start member {member}: {e}"))?;
        children.push(child);
    }
    let mut failed = Vec::new();
    for (member, mut child) in children.into_iter().enumerate() {
        match child.wait() {
            Ok(status) if status.success() => {}
            Ok(status) => failed.push(format!("member {member} ({status})")),
            Err(e) => failed.push(format!("member {member} ({e})")),
        }
    }
    if !failed.is_empty() {
        return Err(format!("benchmark members failed: {}", failed.join(", ")));
    }
    let text = std::fs::read_to_string(dir.join("results.json"))
        .map_err(|e| format!("member 0 left no results: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("member 0's results are unreadable: {e}"))
}

/// `gba bench-member`: one member process.
pub fn member(args: MemberArgs) -> ExitCode {
    // The process opens its own port, as a host opens its device; the generic `Device` keeps
    // the backend's type, so the hot path has no dispatch on it.
    let opened = SimBackend::open(&args.dir.join("fabric"), args.member)
        .map_err(|e| e.to_string())
        .and_then(|backend| Device::new(backend).map_err(|e| e.to_string()));
    let device = match opened {
        Ok(device) => device,
        Err(e) => {
            eprintln!("error: member {}: {e}", args.member);
            return ExitCode::from(1);
        }
    };
    let soft = |algorithm: Algorithm, file: &str| -> Result<Box<dyn Wait>, String> {
        let path = args.dir.join(file);
        let barrier = if args.member == 0 {
            SoftBarrier::create(&path, algorithm, args.members, 0).map_err(|e| e.to_string())?
        } else {
            let deadline = Instant::now() + WAIT_LIMIT;
            loop {
                match SoftBarrier::open(&path, args.member) {
                    Ok(b) => break b,
                    Err(_) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(1))
                    }
                    Err(e) => return Err(e.to_string()),
                }
            }
        };
        Ok(Box::new(barrier))
    };
    let result = (|| {
        let gba = gba_contender(&device, args.members)?;
        let contenders: Vec<(&str, Box<dyn Wait + '_>)> = vec![
            ("gba-sim", gba),
            (
                "dissemination-shm",
                soft(Algorithm::Dissemination, "dissemination")?,
            ),
            (
                "central-counter-shm",
                soft(Algorithm::CentralCounter, "central")?,
            ),
        ];
        measure(args.member, contenders, args.iters, args.rounds)
    })();
    match result {
        Ok(Some(contenders)) => {
            let json = serde_json::to_string(&contenders).expect("plain data");
            if let Err(e) = std::fs::write(args.dir.join("results.json"), json) {
                eprintln!("error: cannot write the results: {e}");
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Ok(None) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: member {}: {e}", args.member);
            ExitCode::from(1)
        }
    }
}

fn gba_contender<'d>(
    device: &'d Device<SimBackend>,
    members: usize,
) -> Result<Box<dyn Wait + 'd>, String> {
    let all: MemberSet = (0..members).collect();
    // A private fabric: group 0 is free for every member, so they all agree on it.
    let config = GroupConfig::new(0, all).timeout(Some(Duration::from_secs(60)));
    let barrier = offload(device, config, None).map_err(|e| e.to_string())?;
    Ok(Box::new(barrier))
}

/// The team key of the combined contenders (threads of this process: one key, which no other
/// process has reason to hold).
const COMBINED_KEY: TeamKey =
    TeamKey::from_words([0x6761_6263_6f6d_6231, 0x6761_6263_6f6d_6232]).expect("not zero");

/// The same members as threads of one host sharing port 0 (issue 13's host combining): one
/// member of group 1, the arrival completing the host's count rings.
fn combined_contender<'d>(
    device: &'d Device<SimBackend>,
    member: usize,
    members: usize,
) -> Result<Box<dyn Wait + 'd>, String> {
    let team = LocalTeam {
        key: COMBINED_KEY,
        local: members as u32,
        index: member as u32,
        rank: member as u32,
    };
    let config = GroupConfig::new(1, core::iter::once(0).collect())
        .timeout(Some(Duration::from_secs(60)))
        .team(team);
    let barrier = offload(device, config, None).map_err(|e| e.to_string())?;
    Ok(Box::new(barrier))
}

/// Runs every contender in alternating rounds; member 0 returns its timings (sorted).
fn measure(
    member: usize,
    mut contenders: Vec<(&str, Box<dyn Wait + '_>)>,
    iters: usize,
    rounds: usize,
) -> Result<Option<Vec<Contender>>, String> {
    let per_round = iters / rounds;
    let progress = if member == 0 {
        let bar = ProgressBar::new((per_round * rounds * contenders.len()) as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} barriers {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut samples: Vec<Vec<u64>> = vec![Vec::with_capacity(per_round * rounds); contenders.len()];
    for _ in 0..rounds {
        for (index, (name, barrier)) in contenders.iter_mut().enumerate() {
            progress.set_message(name.to_string());
            // One untimed barrier lines the members up before the timed ones.
            barrier.wait(Some(WAIT_LIMIT)).map_err(|e| e.to_string())?;
            for _ in 0..per_round {
                let start = Instant::now();
                barrier.wait(Some(WAIT_LIMIT)).map_err(|e| e.to_string())?;
                samples[index].push(start.elapsed().as_nanos() as u64);
            }
            progress.inc(per_round as u64);
        }
    }
    // Nobody leaves (and resets the GBA group) before everyone is done.
    contenders[0]
        .1
        .wait(Some(WAIT_LIMIT))
        .map_err(|e| e.to_string())?;
    progress.finish_and_clear();
    if member != 0 {
        return Ok(None);
    }
    Ok(Some(
        contenders
            .iter()
            .zip(samples)
            .map(|((name, _), mut samples)| {
                samples.sort_unstable();
                Contender {
                    name: name.to_string(),
                    samples,
                }
            })
            .collect(),
    ))
}

fn run_threads(dir: &Path, args: &BenchArgs) -> Result<Vec<Contender>, String> {
    let fabric = Arc::new(gba_sim::Fabric::open(&dir.join("fabric")).map_err(|e| e.to_string())?);
    let mut dissemination = SoftBarrier::threads(Algorithm::Dissemination, args.members);
    let mut central = SoftBarrier::threads(Algorithm::CentralCounter, args.members);
    let mut std_barriers = StdBarrier::threads(args.members);
    let results = std::thread::scope(|s| {
        let handles: Vec<_> = (0..args.members)
            .map(|member| {
                let fabric = fabric.clone();
                let dissemination = dissemination.remove(0);
                let central = central.remove(0);
                let std_barrier = std_barriers.remove(0);
                s.spawn(move || -> Result<Option<Vec<Contender>>, String> {
                    let backend =
                        SimBackend::attach(fabric.clone(), member).map_err(|e| e.to_string())?;
                    let device = Device::new(backend).map_err(|e| e.to_string())?;
                    let host = SimBackend::attach(fabric, 0).map_err(|e| e.to_string())?;
                    let host = Device::new(host).map_err(|e| e.to_string())?;
                    let contenders: Vec<(&str, Box<dyn Wait + '_>)> = vec![
                        ("gba-sim", gba_contender(&device, args.members)?),
                        (
                            "gba-sim-combined",
                            combined_contender(&host, member, args.members)?,
                        ),
                        ("dissemination-heap", Box::new(dissemination)),
                        ("central-counter-heap", Box::new(central)),
                        ("std::sync::Barrier", Box::new(std_barrier)),
                    ];
                    measure(member, contenders, args.iters, args.rounds)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| "a member thread panicked".to_string())?
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    results
        .into_iter()
        .flatten()
        .next()
        .ok_or_else(|| "member 0 returned no results".to_string())
}
