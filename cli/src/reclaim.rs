//! `gba reclaim --device ADDR`: frees the groups of a port that only dead processes hold.
//!
//! On the user-space paths (UIO, VFIO) a killed job's group is reset by the next process of
//! its host that asks for free groups or claims on that port; a node that runs no further GBA
//! job kept it enabled, and busy switch-wide, for ever. A Slurm epilog runs this as root when
//! a job ends (docs/admin.md). It takes over each dead claim with the claim word's
//! compare-exchange (`gba_hal::Device::reclaim_dead`), so a claim a live process holds, or
//! takes meanwhile, is never touched. On the kernel path the driver frees a claim when its
//! last file closes: there is nothing to reclaim, and the claims are listed as `gba dump`
//! lists them.

use std::process::ExitCode;

use clap::Args;
use gba_hal::{ClaimReport, DeviceAddress};

#[derive(Args)]
pub struct ReclaimArgs {
    /// The device: `/dev/uioN`, `vfio:BDF`, `sim:<fabric-dir>#<port>` or `/dev/gbaN` (default:
    /// $GBA_DEVICE).
    #[arg(long)]
    device: Option<String>,
}

pub fn run(args: ReclaimArgs) -> ExitCode {
    let device = match crate::dump::open_device(args.device.as_deref(), "cannot reclaim: ") {
        Ok(device) => device,
        Err(code) => return code,
    };
    let mut out = String::new();
    if matches!(device.address(), DeviceAddress::Kernel(_)) {
        out += &format!(
            "{device}: the kernel driver frees a claim when its last file closes (a killed \
             process's too): nothing is left to reclaim\n"
        );
    } else {
        let reclaimed = device.reclaim_dead();
        // On the simulator, let the switch take the resets in (as `gba dump` steps it); on
        // hardware the device does by itself.
        device.progress();
        if reclaimed.is_empty() {
            out += &format!("{device}: nothing to reclaim\n");
        }
        for r in &reclaimed {
            out += &format!("{device}: reset {r}; its claim is freed\n");
        }
    }
    out += &claims_left(&device.host_claims());
    print!("{out}");
    ExitCode::SUCCESS
}

/// The claims still there, each with why it is left.
fn claims_left(claims: &[ClaimReport]) -> String {
    let mut out = format!("host claims ({}):\n", claims.len());
    for c in claims {
        let why = if c.other_pid_namespace {
            "counts as live (another PID namespace): left alone"
        } else if c.alive {
            "live: left alone"
        } else {
            // Taken over between our look and our compare-exchange, or its group is one this
            // backend cannot reset: another run finds it again.
            "dead, but another process took it over first: run again if it stays"
        };
        out += &format!("  {c} ({why})\n");
    }
    out
}
