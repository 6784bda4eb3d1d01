//! One member of a barrier over any device address, timing each episode: what each guest of
//! `tests/vm/cluster.sh` runs over VFIO or UIO, and what its host peers run over the
//! simulator for comparison. Nothing here knows which backend it drives.
//!
//! `vm_member ADDRESS MEMBERS GROUP EPISODES [--rounds R --pause-ms P] [--then-until-timeout S]
//! [--lone-of L] [--idle-first S]`
//!
//! Members are ports 0..MEMBERS; this one is the port at ADDRESS. After a first episode that
//! waits for everyone (guests boot at different times), R rounds (default 1) of EPISODES timed
//! episodes, each followed by `member P: round r: N episodes, median X ns, p99 Y ns, min Z ns`
//! and, but the last, a sleep of P ms (every member leaves a round's last episode at about the
//! same time, so all sleep together: the host measures its own peers meanwhile, in alternating
//! rounds); then the same line for all rounds together, as `member P: N episodes, …`. With
//! `--then-until-timeout S` it goes on until a wait times out after S seconds (a peer killed),
//! prints the error, which names the missing members, and exits 2. Exit 1: any other failure,
//! printed. With `--lone-of L` this process is the first of L processes of its host sharing the
//! port (host combining, a plain barrier, no `Team`) and the others never come: no first
//! episode, straight to the wait that must time out (EPISODES 0 and `--then-until-timeout S`):
//! what the kernel stage runs to see a plain barrier's timeout text over /dev/gba0. With
//! `--idle-first S` it opens the device, then waits S seconds before it claims: what the
//! lifecycle stage runs across an unbind, to see the error a claim on a revoked port gets (and,
//! first, what `AnyDevice::revoked` says, which a forming team votes).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use gba_barrier::AnyDevice;
use gba_barrier::gba_hal::{GroupConfig, LocalTeam, MemberSet, TeamKey};

/// How long the first episode may wait for the last member to boot and configure.
const START: Duration = Duration::from_secs(600);
/// How long a timed episode may take before the run is a failure.
const EPISODE: Duration = Duration::from_secs(60);

struct Args {
    address: String,
    members: usize,
    group: usize,
    episodes: usize,
    rounds: usize,
    pause: Duration,
    until_timeout: Option<Duration>,
    lone_of: Option<u32>,
    idle_first: Duration,
}

/// The team key of `--lone-of`'s claim (any key: no other process joins it).
const LONE_KEY: TeamKey = TeamKey::from_words([0x10e, 0x10e]).expect("not zero");

const USAGE: &str = "usage: vm_member ADDRESS MEMBERS GROUP EPISODES [--rounds R --pause-ms P] \
                     [--then-until-timeout SECONDS] [--lone-of L] [--idle-first SECONDS]";

fn parse() -> Result<Args, String> {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, what: &str| -> Result<usize, String> {
        let text = argv.get(i).ok_or_else(|| USAGE.to_string())?;
        text.parse()
            .map_err(|_| format!("{what} {text:?} is not a number; {USAGE}"))
    };
    let mut args = Args {
        address: argv.first().ok_or_else(|| USAGE.to_string())?.clone(),
        members: number(1, "MEMBERS")?,
        group: number(2, "GROUP")?,
        episodes: number(3, "EPISODES")?,
        rounds: 1,
        pause: Duration::ZERO,
        until_timeout: None,
        lone_of: None,
        idle_first: Duration::ZERO,
    };
    let mut i = 4;
    while i < argv.len() {
        let value = number(i + 1, &argv[i])?;
        match argv[i].as_str() {
            "--rounds" => args.rounds = value.max(1),
            "--pause-ms" => args.pause = Duration::from_millis(value as u64),
            "--then-until-timeout" => args.until_timeout = Some(Duration::from_secs(value as u64)),
            "--lone-of" => args.lone_of = Some(value.max(2) as u32),
            "--idle-first" => args.idle_first = Duration::from_secs(value as u64),
            other => return Err(format!("unknown option {other:?}; {USAGE}")),
        }
        i += 2;
    }
    Ok(args)
}

/// `N episodes, median X ns, p99 Y ns, min Z ns` of `samples` (sorted here).
fn summary(samples: &mut [u64]) -> String {
    samples.sort_unstable();
    let at = |p: f64| {
        let index = (samples.len() as f64 * p).ceil() as usize;
        samples[index.clamp(1, samples.len()) - 1]
    };
    format!(
        "{} episodes, median {} ns, p99 {} ns, min {} ns",
        samples.len(),
        at(0.5),
        at(0.99),
        samples[0]
    )
}

fn run(args: &Args) -> Result<ExitCode, String> {
    let device = AnyDevice::open_str(Some(&args.address)).map_err(|e| e.to_string())?;
    let port = device.identity().port;
    if !args.idle_first.is_zero() {
        std::thread::sleep(args.idle_first);
        // What a team forming now would vote (gba_barrier::Team: the rank is named for it).
        if let Some(refusal) = device.revoked() {
            println!("member: revoked before the claim: {refusal}");
        }
    }
    let members: MemberSet = (0..args.members).collect();
    let mut config = GroupConfig::new(args.group, members).timeout(Some(START));
    if let Some(local) = args.lone_of {
        config = config.team(LocalTeam {
            key: LONE_KEY,
            local,
            index: 0,
            rank: 0,
        });
    }
    let mut barrier = device.barrier(config).map_err(|e| e.to_string())?;
    // Alone of L, the first episode would never complete: the timed-out wait below is the run.
    if args.lone_of.is_none() {
        barrier.wait(Some(START)).map_err(|e| e.to_string())?;
    }
    let mut all = Vec::with_capacity(args.episodes * args.rounds);
    for round in 1..=args.rounds {
        let mut samples = Vec::with_capacity(args.episodes);
        for _ in 0..args.episodes {
            let start = Instant::now();
            barrier.wait(Some(EPISODE)).map_err(|e| e.to_string())?;
            samples.push(start.elapsed().as_nanos() as u64);
        }
        if samples.is_empty() {
            break;
        }
        all.extend_from_slice(&samples);
        println!("member {port}: round {round}: {}", summary(&mut samples));
        if round < args.rounds {
            std::thread::sleep(args.pause);
        }
    }
    if !all.is_empty() {
        println!("member {port}: {}", summary(&mut all));
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
