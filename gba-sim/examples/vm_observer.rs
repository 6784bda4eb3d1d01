//! The independent observer of `tests/vm/cluster.sh`: watches one group of a fabric whose
//! ports are guests' (per-port windows, guest RAM files) from the host, where every window and
//! every release flag is visible, and checks each sample against the barrier's contract
//! without using the switch's own state:
//!
//! - no member is released from an episode that some member has not arrived at: every flag
//!   (read first) is at most every member's doorbell sequence (read after; both only grow);
//! - no flag ever goes backwards.
//!
//! `vm_observer FABRIC GROUP MEMBERS STOP_FILE`: samples until STOP_FILE exists, then prints
//! `observer: S samples, episodes A..B released, V violations` and the last doorbell and flag
//! of each port; exits 1 if any sample broke the contract (each violation is printed).

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use gba_pac::group::ARRIVAL;
use gba_pac::tock_registers::interfaces::Readable;
use gba_sim::Fabric;

/// Whether wire sequence `a` is at or after `b` (serial-number order on 32 bits).
fn at_or_after(a: u32, b: u32) -> bool {
    a.wrapping_sub(b) as i32 >= 0
}

struct Sample {
    /// Per member: (flag, doorbell sequence), or `None` while its group is not enabled.
    ports: Vec<Option<(u32, u32)>>,
}

fn sample(fabric: &Fabric, group: usize, members: usize) -> Sample {
    let enabled = |p: usize| fabric.global(p).group_enabled().get() & (1 << group) != 0;
    let regs = |p: usize| fabric.window(p).group(group).expect("a group of the spec");
    // Flags first, doorbells after: a release seen implies arrivals already written.
    let flags: Vec<Option<u32>> = (0..members)
        .map(|p| {
            if !enabled(p) {
                return None;
            }
            let addr = regs(p).release_addr().get();
            fabric.dma_word(p, addr).map(|w| w.load() as u32)
        })
        .collect();
    let ports = flags
        .into_iter()
        .enumerate()
        .map(|(p, flag)| {
            let doorbell = regs(p).arrival().device_side().get_acquire();
            let sequence = ((doorbell & ARRIVAL::SEQUENCE.mask << ARRIVAL::SEQUENCE.shift)
                >> ARRIVAL::SEQUENCE.shift) as u32;
            flag.map(|f| (f, sequence))
        })
        .collect();
    Sample { ports }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: vm_observer FABRIC GROUP MEMBERS STOP_FILE";
    let (Some(dir), Some(group), Some(members), Some(stop)) = (
        argv.first(),
        argv.get(1).and_then(|g| g.parse::<usize>().ok()),
        argv.get(2).and_then(|m| m.parse::<usize>().ok()),
        argv.get(3),
    ) else {
        eprintln!("{usage}");
        return ExitCode::from(1);
    };
    let fabric = match Fabric::open(Path::new(dir)) {
        Ok(f) if members <= f.ports() => f,
        Ok(f) => {
            eprintln!(
                "observer: {members} members but the fabric has {} ports",
                f.ports()
            );
            return ExitCode::from(1);
        }
        Err(e) => {
            eprintln!("observer: {e}");
            return ExitCode::from(1);
        }
    };
    let mut last: Vec<Option<u32>> = vec![None; members];
    let (mut samples, mut violations) = (0u64, 0u64);
    let (mut first, mut highest) = (None::<u32>, 0u32);
    let mut latest = sample(&fabric, group, members);
    while !Path::new(stop).exists() {
        latest = sample(&fabric, group, members);
        samples += 1;
        let seen: Vec<(usize, u32, u32)> = latest
            .ports
            .iter()
            .enumerate()
            .filter_map(|(p, s)| s.map(|(f, d)| (p, f, d)))
            .collect();
        for &(p, flag, _) in &seen {
            if let Some(before) = last[p]
                && !at_or_after(flag, before)
            {
                violations += 1;
                println!("observer: port {p}'s flag went back from {before} to {flag}");
            }
            last[p] = Some(flag);
            first.get_or_insert(flag);
            if at_or_after(flag, highest) {
                highest = flag;
            }
            for &(q, _, doorbell) in &seen {
                if !at_or_after(doorbell, flag) {
                    violations += 1;
                    println!(
                        "observer: port {p} released at episode {flag} while port {q} had arrived only at {doorbell}"
                    );
                }
            }
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    println!(
        "observer: {samples} samples, episodes {}..{highest} released, {violations} violations",
        first.unwrap_or(0)
    );
    for (p, s) in latest.ports.iter().enumerate() {
        match s {
            Some((flag, doorbell)) => {
                println!("observer: port {p}: flag {flag}, doorbell {doorbell}")
            }
            None => println!("observer: port {p}: group {group} not enabled"),
        }
    }
    if violations == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
