//! `gba sim …`: create, watch, step, fault and remove a simulator fabric.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use gba_sim::{Fabric, GroupReport};

#[derive(Args)]
pub struct PathArg {
    /// The fabric directory (default: $GBA_SIM_FABRIC, else `fabric` in your runtime directory:
    /// $XDG_RUNTIME_DIR/gba, /tmp/gba-UID, or /run/gba for root). Accepted
    /// anywhere after `sim`, before or after a fault's name.
    #[arg(long, global = true, value_parser = non_empty_path)]
    path: Option<PathBuf>,
}

/// A size in bytes: digits, optionally followed by K, M or G (binary units).
fn parse_size(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => text.split_at(i),
        None => (text, ""),
    };
    let shift = match unit {
        "" => 0,
        "K" | "k" => 10,
        "M" | "m" => 20,
        "G" | "g" => 30,
        _ => {
            return Err(format!(
                "{text:?} is not a size: use bytes, or a number and K, M or G (e.g. 256M)"
            ));
        }
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            format!("{text:?} is not a size: use bytes, or a number and K, M or G (e.g. 256M)")
        })
}

/// A path that is not empty (an empty one would name the current directory by accident).
fn non_empty_path(text: &str) -> Result<PathBuf, String> {
    if text.is_empty() {
        return Err("the path is empty: give the fabric's directory".into());
    }
    Ok(PathBuf::from(text))
}

impl PathArg {
    fn resolve(&self) -> PathBuf {
        self.path
            .clone()
            .or_else(|| std::env::var_os(gba_sim::PATH_ENV).map(PathBuf::from))
            .unwrap_or_else(gba_sim::default_path)
    }
}

#[derive(Subcommand)]
pub enum SimCommand {
    /// Create a fabric of N ports and print its path.
    Create {
        /// Ports (switch ports, one per host): 1 to 708.
        #[arg(long)]
        ports: usize,
        /// One window file per port (`window-P`, padded to a power of two), for a virtual
        /// machine whose ivshmem BAR shows the port (docs/driver.md).
        #[arg(long)]
        per_port_windows: bool,
        /// Also create each port's guest RAM file (`guest-P.ram`, SIZE bytes; suffix K, M or
        /// G), for QEMU's memory-backend-file: releases then go to RELEASE_ADDR as a
        /// guest-physical address in it.
        #[arg(long, value_name = "SIZE", value_parser = parse_size)]
        guest_ram: Option<u64>,
        #[command(flatten)]
        path: PathArg,
    },
    /// Show every formed group and every port: members, arrivals, sequence, errors, counters.
    Status {
        #[command(flatten)]
        path: PathArg,
        /// Refresh in place twice a second until interrupted.
        #[arg(long, conflicts_with = "json")]
        watch: bool,
        /// Print one JSON document (for scripts) instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Step the switch in a dedicated loop (instead of cooperatively from waiting members).
    Run {
        #[command(flatten)]
        path: PathArg,
    },
    /// Inject a fault into a running fabric.
    Fault {
        #[command(subcommand)]
        fault: FaultCommand,
        #[command(flatten)]
        path: PathArg,
    },
    /// Remove a fabric.
    Destroy {
        #[command(flatten)]
        path: PathArg,
    },
}

#[derive(Subcommand)]
pub enum FaultCommand {
    /// Lose member PORT's next COUNT arrivals.
    Drop {
        #[arg(long)]
        port: usize,
        #[arg(long, default_value_t = 1)]
        count: u64,
    },
    /// Count member PORT's next COUNT arrivals only MS milliseconds late.
    Delay {
        #[arg(long)]
        port: usize,
        #[arg(long)]
        ms: u64,
        #[arg(long, default_value_t = 1)]
        count: u64,
    },
    /// Hold every release MS milliseconds after the last arrival (0: no delay).
    DelayReleases {
        #[arg(long)]
        ms: u64,
    },
    /// Mark member PORT dead (its arrivals are ignored), or alive again with --alive.
    Dead {
        #[arg(long)]
        port: usize,
        #[arg(long)]
        alive: bool,
    },
    /// Flip bit MEMBER of PORT's MEMBER_MASK for GROUP (the group fails with MASK_MISMATCH).
    Corrupt {
        #[arg(long)]
        port: usize,
        #[arg(long)]
        group: usize,
        #[arg(long)]
        member: usize,
    },
    /// Reset every group configured by a process that no longer exists, or by a dead port.
    Reclaim,
}

pub fn run(command: SimCommand) -> ExitCode {
    match command {
        SimCommand::Create {
            ports,
            per_port_windows,
            guest_ram,
            path,
        } => {
            let path = path.resolve();
            let options = gba_sim::CreateOptions {
                per_port_windows,
                guest_ram,
            };
            match Fabric::create_with(&path, ports, options) {
                Ok(_) => {
                    println!("{}", path.display());
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e),
            }
        }
        SimCommand::Status { path, watch, json } => with_fabric(&path.resolve(), |fabric| {
            if json {
                println!("{}", status_json(fabric));
                return;
            }
            if !watch {
                print!("{}", status_text(fabric));
                return;
            }
            loop {
                // Home and clear, then the table: refreshed in place.
                print!("\x1b[H\x1b[2J{}", status_text(fabric));
                use std::io::Write;
                let _ = std::io::stdout().flush();
                std::thread::sleep(Duration::from_millis(500));
            }
        }),
        SimCommand::Run { path } => with_fabric(&path.resolve(), |fabric| {
            eprintln!(
                "stepping the switch of {} ({} ports); stop with Ctrl-C",
                fabric.dir().display(),
                fabric.ports()
            );
            loop {
                fabric.step();
                std::thread::yield_now();
            }
        }),
        SimCommand::Fault { fault, path } => {
            let path = path.resolve();
            let fabric = match Fabric::open(&path) {
                Ok(f) => f,
                Err(e) => return fail(&e),
            };
            let result = match fault {
                FaultCommand::Drop { port, count } => fabric.drop_arrivals(port, count),
                FaultCommand::Delay { port, ms, count } => {
                    fabric.delay_arrivals(port, count, Duration::from_millis(ms))
                }
                FaultCommand::DelayReleases { ms } => {
                    fabric.delay_releases(Duration::from_millis(ms));
                    Ok(())
                }
                FaultCommand::Dead { port, alive } => fabric.mark_dead(port, !alive),
                FaultCommand::Corrupt {
                    port,
                    group,
                    member,
                } => fabric.corrupt_mask(port, group, member),
                FaultCommand::Reclaim => {
                    let reclaimed = fabric.reclaim_dead();
                    for r in &reclaimed {
                        match r.pid {
                            Some(pid) => println!(
                                "reset group {} on port {} (configured by dead process {pid})",
                                r.group, r.port
                            ),
                            None => println!(
                                "reset group {} on port {} (port marked dead)",
                                r.group, r.port
                            ),
                        }
                    }
                    if reclaimed.is_empty() {
                        println!("nothing to reclaim: every group's owner is alive");
                    }
                    Ok(())
                }
            };
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(&e),
            }
        }
        SimCommand::Destroy { path } => match Fabric::destroy(&path.resolve()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
    }
}

fn with_fabric(path: &Path, body: impl FnOnce(&Fabric)) -> ExitCode {
    match Fabric::open(path) {
        Ok(fabric) => {
            body(&fabric);
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}

fn fail(error: &gba_sim::Error) -> ExitCode {
    // The cause (an OS error) is the source: shown once, after the message.
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    eprintln!("error: {text}");
    ExitCode::from(1)
}

/// The status table of `gba sim status`.
pub fn status_text(fabric: &Fabric) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let gba_sim::Creator {
        pid: creator,
        alive: creator_alive,
    } = fabric.creator();
    let gba_sim::Counters {
        steps,
        lock_recoveries: recoveries,
    } = fabric.counters();
    let _ = writeln!(
        out,
        "fabric {} — {} ports, {steps} switch steps, {recoveries} lock recoveries, created by pid {creator}{}",
        fabric.dir().display(),
        fabric.ports(),
        if creator_alive { "" } else { " (exited)" }
    );
    let groups = fabric.group_reports();
    if groups.is_empty() {
        let _ = writeln!(out, "\nno group is enabled on any port");
    } else {
        let _ = writeln!(
            out,
            "\n{:<6} {:<18} {:<18} {:<18} {:<6} {:>12}  problems",
            "group", "members", "joined", "arrived", "ready", "release seq"
        );
        for g in &groups {
            let _ = writeln!(out, "{}", group_row(g));
        }
    }
    let _ = writeln!(out, "\n{:<6} {:>12}  processes", "port", "completed");
    let mut stale = Vec::new();
    for p in fabric.port_reports() {
        let processes: Vec<String> = p
            .openers
            .iter()
            .map(|(pid, alive)| {
                if !alive {
                    stale.push((p.port, *pid));
                }
                format!("{pid}{}", if *alive { "" } else { " (dead)" })
            })
            .collect();
        if p.barriers_completed == 0 && processes.is_empty() && !p.dead {
            continue;
        }
        let owners: Vec<String> = p.claims.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            out,
            "{:<6} {:>12}  {}{}{}",
            p.port,
            p.barriers_completed,
            if processes.is_empty() {
                "-".to_string()
            } else {
                processes.join(", ")
            },
            if owners.is_empty() {
                String::new()
            } else {
                format!("; groups held: {}", owners.join(", "))
            },
            if p.dead { "  [marked dead]" } else { "" }
        );
    }
    // What each job holds, as its claims name it: a group counts once across the ports.
    let claims: Vec<_> = fabric
        .port_reports()
        .into_iter()
        .flat_map(|p| p.claims)
        .collect();
    let held = gba_sim::holdings(&claims);
    if !held.is_empty() {
        let _ = writeln!(out, "\ngroups held per claimant:");
        for h in &held {
            let _ = writeln!(out, "  {h}");
        }
    }
    if !stale.is_empty() {
        let _ = writeln!(
            out,
            "\n{} dead process(es) left state behind: `gba sim fault reclaim` resets their groups; `gba sim destroy` removes an abandoned fabric",
            stale.len()
        );
    }
    out
}

fn group_row(g: &GroupReport) -> String {
    let missing = g.members.minus(&g.arrived);
    let mut problems = Vec::new();
    if let Some(error) = &g.error {
        problems.push(format!("ERROR {error}"));
    }
    for (port, error) in &g.refused {
        problems.push(format!("port {port}: {error}"));
    }
    if !g.arrived.is_empty() {
        problems.push(format!("waiting for {missing}"));
    }
    format!(
        "{:<6} {:<18} {:<18} {:<18} {:<6} {:>12}  {}",
        g.group,
        g.members.to_string(),
        g.joined.to_string(),
        g.arrived.to_string(),
        if g.ready { "yes" } else { "no" },
        g.release_seq,
        if problems.is_empty() {
            "-".to_string()
        } else {
            problems.join("; ")
        }
    )
}

/// `gba sim status --json`: what the table shows, as one document (the switch is stepped
/// first, as for the table). Scripts read this; the table's layout may change.
pub fn status_json(fabric: &Fabric) -> serde_json::Value {
    use serde_json::json;
    let gba_sim::Creator {
        pid: creator,
        alive: creator_alive,
    } = fabric.creator();
    let gba_sim::Counters {
        steps,
        lock_recoveries: recoveries,
    } = fabric.counters();
    let groups: Vec<_> = fabric
        .group_reports()
        .iter()
        .map(|g| {
            json!({
                "group": g.group,
                "members": g.members.iter().collect::<Vec<_>>(),
                "joined": g.joined.iter().collect::<Vec<_>>(),
                "arrived": g.arrived.iter().collect::<Vec<_>>(),
                "ready": g.ready,
                "release_seq": g.release_seq,
                "error": g.error,
                "refused": g.refused.iter().map(|(port, error)| json!({"port": port, "error": error})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let ports: Vec<_> = fabric
        .port_reports()
        .iter()
        .map(|p| {
            json!({
                "port": p.port,
                "barriers_completed": p.barriers_completed,
                "dead": p.dead,
                "processes": p.openers.iter().map(|(pid, alive)| json!({"pid": pid, "alive": alive})).collect::<Vec<_>>(),
                "claims": p.claims.iter().map(claim_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    let claims: Vec<_> = fabric
        .port_reports()
        .into_iter()
        .flat_map(|p| p.claims)
        .collect();
    json!({
        "fabric": fabric.dir(),
        "holders": holders_json(&gba_sim::holdings(&claims)),
        "ports": fabric.ports(),
        "switch_steps": steps,
        "lock_recoveries": recoveries,
        "creator": {"pid": creator, "alive": creator_alive},
        "groups": groups,
        "port_reports": ports,
    })
}

/// The groups held per uid and per claimant pid, in the `--json` documents of `gba sim status`
/// and `gba dump`.
pub(crate) fn holders_json(held: &[gba_sim::Holding]) -> serde_json::Value {
    use serde_json::json;
    held.iter()
        .map(|h| {
            json!({
                "uid": h.uid,
                "groups": h.groups.len(),
                "group_ids": h.groups,
                "pids": h.pids.iter().map(|(pid, groups)| json!({
                    "pid": pid, "groups": groups.len(), "group_ids": groups,
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// One claim in the `--json` documents of `gba sim status` and `gba dump`.
pub(crate) fn claim_json(c: &gba_hal::ClaimReport) -> serde_json::Value {
    serde_json::json!({
        "group": c.group,
        "state": c.state.to_string(),
        "pid": c.pid,
        "uid": c.uid,
        "alive": c.alive,
        "other_pid_namespace": c.other_pid_namespace,
        // 128 bits: a hex string (a JSON number holds 53 bits exactly).
        "team_key": c.team_key.map(|k| format!("{k:#x}")),
        "joined": c.joined,
        "local": c.local,
    })
}
