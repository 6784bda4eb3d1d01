//! The victim's side of `tests/security/userspace.sh` (issue 25): a job whose state another
//! user attacks. It never trusts the barrier to say it was right: every rank records the
//! episode it entered in a file of its own job, and after each release checks that every
//! rank had entered it.
//!
//! - `security_victim team ADDRESS RANK RANKS OOB_DIR ENTERED_FILE EPISODES`: one rank of a
//!   team over any device address. Prints `completed N` and exits 0; `EARLY RELEASE: …` and
//!   exits 3; any error (a refusal, by name) printed, exit 1.
//! - `security_victim vfio-receive BDF`: asks the first opener of `BDF` on this host for its
//!   descriptors, as a second VFIO opener does. Exit 0 received, 1 refused (printed).
//! - `security_victim vfio-serve BDF SECONDS`: serves two descriptors of `/dev/null` as the
//!   first opener would, for SECONDS. Exit 1 when the name cannot be served (printed).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use gba_barrier::team::{DirOob, Team, TeamParams, Verdict};
use gba_barrier::{AnyDevice, error_chain as chain};
use gba_hal::DeviceAddress;
use gba_hal::backends::vfio_share;

const LIMIT: Option<Duration> = Some(Duration::from_secs(60));

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("team") if args.len() == 7 => team(&args[1..]),
        Some("vfio-receive") if args.len() == 2 => vfio_receive(&args[1]),
        Some("vfio-serve") if args.len() == 3 => vfio_serve(&args[1], &args[2]),
        _ => Err(
            "usage: security_victim team ADDRESS RANK RANKS OOB ENTERED EPISODES | vfio-receive BDF | vfio-serve BDF SECONDS"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Early(text)) => {
            println!("EARLY RELEASE: {text}");
            ExitCode::from(3)
        }
        Err(Failure::Error(text)) => {
            println!("error: {text}");
            ExitCode::from(1)
        }
    }
}

enum Failure {
    Early(String),
    Error(String),
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        // The whole chain: a refusal names its file in the source of an open error.
        Failure::Error(e.to_string())
    }
}

fn number(text: &str) -> Result<usize, Failure> {
    text.parse()
        .map_err(|_| Failure::Error(format!("{text:?} is not a number")))
}

fn team(args: &[String]) -> Result<(), Failure> {
    let address: DeviceAddress = args[0].parse().map_err(|e| Failure::Error(chain(&e)))?;
    let (rank, ranks) = (number(&args[1])?, number(&args[2])?);
    let (oob, entered) = (PathBuf::from(&args[3]), PathBuf::from(&args[4]));
    let episodes = number(&args[5])? as u64;
    let device = AnyDevice::open(&address).map_err(|e| Failure::Error(chain(&e)))?;
    let mut oob = DirOob::new(oob, rank, ranks, Duration::from_secs(60));
    let mut team = Team::create(
        Some(&device),
        &mut oob,
        rank as u32,
        ranks as u32,
        &TeamParams::default(),
    )
    .map_err(|e| Failure::Error(chain(&e)))?;
    if !matches!(team.verdict(), Verdict::Offloaded { .. }) {
        return Err(Failure::Error(format!("not offloaded: {}", team.verdict())));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&entered)?;
    let map = memmap2::MmapOptions::new().len(8 * ranks).map_raw(&file)?;
    let word = |r: usize| {
        assert!(r < ranks);
        // SAFETY: word r of the mapping (8 * ranks bytes, page-aligned), alive while `map`
        // is; every rank reaches the file only atomically.
        unsafe { AtomicU64::from_ptr(map.as_mut_ptr().cast::<u64>().add(r)) }
    };
    for k in 1..=episodes {
        word(rank).store(k, Ordering::SeqCst);
        team.wait(LIMIT).map_err(|e| Failure::Error(chain(&e)))?;
        for r in 0..ranks {
            let other = word(r).load(Ordering::SeqCst);
            if other < k {
                return Err(Failure::Early(format!(
                    "rank {rank} released from episode {k} while rank {r} had entered only {other}"
                )));
            }
        }
    }
    println!("completed {episodes}");
    Ok(())
}

fn vfio_receive(bdf: &str) -> Result<(), Failure> {
    let name = vfio_share::socket_name(bdf)?;
    let expected = vfio_share::Expected::vfio(std::path::Path::new("/dev/vfio"));
    match vfio_share::receive(&name, &expected) {
        Ok(_) => {
            println!("received");
            Ok(())
        }
        Err(vfio_share::ShareError::Refused(what)) => {
            Err(Failure::Error(format!("refused: {what}")))
        }
        Err(vfio_share::ShareError::Unavailable(e)) => {
            Err(Failure::Error(format!("unavailable: {e}")))
        }
    }
}

fn vfio_serve(bdf: &str, seconds: &str) -> Result<(), Failure> {
    let name = vfio_share::socket_name(bdf)?;
    let null = std::fs::File::open("/dev/null")?;
    use std::os::fd::AsRawFd;
    let server = vfio_share::Server::start(&name, null.as_raw_fd(), null.as_raw_fd(), 0)
        .map_err(|e| Failure::Error(format!("cannot serve: {e}")))?;
    println!("serving @{name}");
    std::thread::sleep(Duration::from_secs(number(seconds)? as u64));
    drop(server);
    Ok(())
}
