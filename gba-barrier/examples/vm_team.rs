//! Host combining on one port: RANKS processes of this host open the device at ADDRESS, form
//! one team (out-of-band through files in DIR, `gba_barrier::team::DirOob`) and run EPISODES
//! barriers; the switch must count each barrier once on the port (the processes are one
//! member). What `tests/vm/cluster.sh` runs in its UIO guests (`/dev/uio0`, uio_pci_generic:
//! the release flag is the host segment's flag page in /dev/shm, found at its physical
//! address), and what runs anywhere else for a quick check.
//!
//! `vm_team ADDRESS RANKS EPISODES DIR [--expect-fallback] [--team SIZE FIRST] [--straggler]`
//!
//! RANKS processes run here: the first starts the others as copies of itself, runs its part
//! and waits for them. Alone they are the whole team; with `--team SIZE FIRST` they are ranks
//! FIRST.. of a team of SIZE whose other ranks run elsewhere (other hosts, other guests) with
//! DIR shared among all (the VM cluster shares it over 9p). Each rank
//! prints `vm_team: rank R: VERDICT, N barriers, port counted +C`; rank 0 then prints
//! `vm_team: ok: …` when every rank was offloaded and every C equals EPISODES. Exit 1 else.
//!
//! A rank that cannot open the device says why and still votes (without a device), so the
//! team falls back together instead of waiting for it. `--expect-fallback` is for a device a
//! second process cannot open (VFIO): every rank must then get the same fallback verdict, and
//! rank 0 prints `vm_team: ok: fallback: …`.
//!
//! `--straggler` (ranks all here): after the EPISODES barriers, the last rank does not arrive
//! at one more; rank 0 waits 3 s for it and prints `vm_team: straggler: ERROR`, the timeout
//! naming the local processes that did not arrive (what the arbiter reports of the claim's
//! local slots), then lets the last rank go.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::Duration;

use gba_barrier::AnyDevice;
use gba_barrier::team::{DirOob, Team, TeamParams, Verdict};

const RANK_ENV: &str = "GBA_VM_TEAM_RANK";
/// How long a rank waits for the others (guests of the VM cluster boot minutes apart on a
/// loaded machine under TCG) and for a barrier.
const LIMIT: Duration = Duration::from_secs(280);

fn run_rank(
    address: &str,
    rank: usize,
    ranks: usize,
    episodes: u64,
    dir: &PathBuf,
    options: &Options,
) -> bool {
    let ok = rank_body(address, rank, ranks, episodes, dir, options);
    if !ok {
        println!("vm_team: rank {rank}: FAILED");
    }
    ok
}

fn rank_body(
    address: &str,
    rank: usize,
    ranks: usize,
    episodes: u64,
    dir: &PathBuf,
    options: &Options,
) -> bool {
    let expect_fallback = options.expect_fallback;
    let device = match AnyDevice::open_str(Some(address)) {
        Ok(device) => Some(device),
        Err(e) => {
            let mut text = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                text += &format!(": {s}");
                source = s.source();
            }
            println!("vm_team: rank {rank}: cannot open {address}: {text}");
            None
        }
    };
    let mut oob = DirOob::new(dir, rank, ranks, LIMIT);
    let params = TeamParams::default();
    let size = ranks as u32;
    let mut team = match Team::create(device.as_ref(), &mut oob, rank as u32, size, &params) {
        Ok(team) => team,
        Err(e) => {
            println!("vm_team: rank {rank}: {e}");
            return false;
        }
    };
    let verdict = team.verdict().clone();
    if expect_fallback || !matches!(verdict, Verdict::Offloaded { .. }) {
        println!("vm_team: rank {rank}: {verdict}");
        return expect_fallback && matches!(verdict, Verdict::Fallback { .. });
    }
    let Some(device) = device else {
        return false;
    };
    let before = device.barriers_completed();
    for k in 0..episodes {
        if let Err(e) = team.wait(Some(LIMIT)) {
            println!("vm_team: rank {rank}: episode {k}: {e}");
            return false;
        }
    }
    if options.straggler {
        straggle(&mut team, rank, ranks, dir);
    }
    // The switch's bookkeeping may trail the release (the simulator's fast path counts at its
    // next step): let it settle, bounded, before comparing.
    let mut counted = device.barriers_completed() - before;
    for _ in 0..1000 {
        if counted >= episodes {
            break;
        }
        device.progress();
        std::thread::sleep(Duration::from_millis(1));
        counted = device.barriers_completed() - before;
    }
    println!("vm_team: rank {rank}: {verdict}, {episodes} barriers, port counted +{counted}");
    counted == episodes
}

/// `--straggler`: the last rank skips one barrier and stays alive (its claim held) until
/// rank 0 has timed out on it and printed the error.
fn straggle(team: &mut Team, rank: usize, ranks: usize, dir: &std::path::Path) {
    let done = dir.join("straggler-done");
    if rank == 0 {
        match team.wait(Some(Duration::from_secs(3))) {
            Ok(()) => println!(
                "vm_team: straggler: released although rank {} never arrived",
                ranks - 1
            ),
            Err(e) => println!("vm_team: straggler: {e}"),
        }
        let _ = std::fs::write(&done, "");
    } else if rank == ranks - 1 {
        let start = std::time::Instant::now();
        while !done.exists() && start.elapsed() < LIMIT {
            std::thread::sleep(Duration::from_millis(10));
        }
    } else {
        let _ = team.wait(Some(Duration::from_secs(3)));
    }
}

/// Flags after the four positional arguments: `--expect-fallback`, `--team SIZE FIRST`,
/// `--straggler`.
struct Options {
    expect_fallback: bool,
    size: Option<usize>,
    first: usize,
    straggler: bool,
}

fn options(rest: &[String]) -> Option<Options> {
    let mut options = Options {
        expect_fallback: false,
        size: None,
        first: 0,
        straggler: false,
    };
    let mut rest = rest.iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--expect-fallback" => options.expect_fallback = true,
            "--straggler" => options.straggler = true,
            "--team" => {
                options.size = Some(rest.next()?.parse().ok()?);
                options.first = rest.next()?.parse().ok()?;
            }
            _ => return None,
        }
    }
    Some(options)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: vm_team ADDRESS RANKS EPISODES DIR [--expect-fallback] [--team SIZE FIRST] [--straggler]";
    let (Some([address, here, episodes, dir]), Some(options)) = (
        args.get(..4).and_then(|a| <&[String; 4]>::try_from(a).ok()),
        args.get(4..).and_then(options),
    ) else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let (Ok(here), Ok(episodes)) = (here.parse::<usize>(), episodes.parse::<u64>()) else {
        eprintln!("vm_team: RANKS and EPISODES are numbers\n{usage}");
        return ExitCode::FAILURE;
    };
    let size = options.size.unwrap_or(here);
    if options.first + here > size {
        eprintln!(
            "vm_team: ranks {}.. of {here} do not fit a team of {size}",
            options.first
        );
        return ExitCode::FAILURE;
    }
    let expect_fallback = options.expect_fallback;
    let dir = PathBuf::from(dir);
    if let Ok(rank) = std::env::var(RANK_ENV) {
        let rank = rank.parse().unwrap_or(usize::MAX);
        return if run_rank(address, rank, size, episodes, &dir, &options) {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("vm_team: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("vm_team: cannot find my own binary: {e}");
            return ExitCode::FAILURE;
        }
    };
    let first = options.first;
    let children: Vec<_> = (first + 1..first + here)
        .map(|r| {
            Command::new(&exe)
                .args(&args)
                .env(RANK_ENV, r.to_string())
                .spawn()
        })
        .collect();
    let mut ok = run_rank(address, first, size, episodes, &dir, &options);
    for child in children {
        ok &= child
            .and_then(|mut c| c.wait())
            .is_ok_and(|status| status.success());
    }
    if ok && expect_fallback {
        println!("vm_team: ok: fallback: {here} processes, one verdict");
        ExitCode::SUCCESS
    } else if ok {
        println!(
            "vm_team: ok: {here} processes on one port (ranks {first}..{} of {size}), {episodes} barriers, each counted once",
            first + here - 1
        );
        ExitCode::SUCCESS
    } else {
        println!("vm_team: FAILED");
        ExitCode::FAILURE
    }
}
