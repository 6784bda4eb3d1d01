//! One member of a barrier over any device address, timing each episode: what each guest of
//! `tests/vm/cluster.sh` runs over VFIO or UIO, and what its host peers run over the
//! simulator for comparison. Nothing here knows which backend it drives.
//!
//! `vm_member ADDRESS MEMBERS GROUP EPISODES [--then-until-timeout SECONDS]`
//!
//! Members are ports 0..MEMBERS; this one is the port at ADDRESS. After a first episode that
//! waits for everyone (guests boot at different times), EPISODES timed episodes, then one line
//! `member P: N episodes, median X ns, p99 Y ns, min Z ns`. With `--then-until-timeout S` it
//! goes on until a wait times out after S seconds (a peer killed), prints the error, which
//! names the missing members, and exits 2. Exit 1: any other failure, printed.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use gba_barrier::AnyDevice;
use gba_barrier::gba_hal::{GroupConfig, MemberSet};

/// How long the first episode may wait for the last member to boot and configure.
const START: Duration = Duration::from_secs(600);
/// How long a timed episode may take before the run is a failure.
const EPISODE: Duration = Duration::from_secs(60);

struct Args {
    address: String,
    members: usize,
    group: usize,
    episodes: usize,
    until_timeout: Option<Duration>,
}

fn parse() -> Result<Args, String> {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: vm_member ADDRESS MEMBERS GROUP EPISODES [--then-until-timeout SECONDS]";
    let number = |i: usize, what: &str| -> Result<usize, String> {
        argv.get(i)
            .ok_or_else(|| usage.to_string())?
            .parse()
            .map_err(|_| format!("{what} {:?} is not a number; {usage}", argv[i]))
    };
    let until_timeout = match argv.get(4).map(String::as_str) {
        None => None,
        Some("--then-until-timeout") => Some(Duration::from_secs(number(5, "SECONDS")? as u64)),
        Some(other) => return Err(format!("unknown option {other:?}; {usage}")),
    };
    Ok(Args {
        address: argv.first().ok_or_else(|| usage.to_string())?.clone(),
        members: number(1, "MEMBERS")?,
        group: number(2, "GROUP")?,
        episodes: number(3, "EPISODES")?,
        until_timeout,
    })
}

fn run(args: &Args) -> Result<ExitCode, String> {
    let device = AnyDevice::open_str(Some(&args.address)).map_err(|e| e.to_string())?;
    let port = device.identity().port;
    let members: MemberSet = (0..args.members).collect();
    let config = GroupConfig::new(args.group, members).timeout(Some(START));
    let mut barrier = device.barrier(config).map_err(|e| e.to_string())?;
    barrier.wait(Some(START)).map_err(|e| e.to_string())?;
    let mut samples = Vec::with_capacity(args.episodes);
    for _ in 0..args.episodes {
        let start = Instant::now();
        barrier.wait(Some(EPISODE)).map_err(|e| e.to_string())?;
        samples.push(start.elapsed().as_nanos() as u64);
    }
    samples.sort_unstable();
    let at =
        |p: f64| samples[((samples.len() as f64 * p).ceil() as usize).clamp(1, samples.len()) - 1];
    if !samples.is_empty() {
        println!(
            "member {port}: {} episodes, median {} ns, p99 {} ns, min {} ns",
            samples.len(),
            at(0.5),
            at(0.99),
            samples[0]
        );
    }
    let Some(timeout) = args.until_timeout else {
        return Ok(ExitCode::SUCCESS);
    };
    let mut more = 0u64;
    loop {
        if let Err(e) = barrier.wait(Some(timeout)) {
            println!("member {port}: after {more} more episodes: {e}");
            return Ok(ExitCode::from(2));
        }
        more += 1;
    }
}

fn main() -> ExitCode {
    let result = parse().and_then(|args| run(&args));
    result.unwrap_or_else(|e| {
        println!("member: error: {e}");
        ExitCode::from(1)
    })
}
