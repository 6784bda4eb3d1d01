//! `GBA_TEAM_TIMING=1`: each rank says on stderr where its team's formation and release spent
//! their time (tests/bench/README.md, "Where a team's formation goes"). Off, it costs one
//! load of a flag read once.

use std::fmt::Write;
use std::time::{Duration, Instant};

/// The environment variable that turns the log on.
pub const TEAM_TIMING_ENV: &str = "GBA_TEAM_TIMING";

pub(super) fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os(TEAM_TIMING_ENV).is_some_and(|v| v != "0"))
}

/// The phases of one formation, each from the end of the previous one.
pub(super) struct Clock {
    start: Instant,
    last: Instant,
    phases: Vec<(&'static str, Duration)>,
}

impl Clock {
    pub(super) fn start() -> Option<Clock> {
        enabled().then(|| {
            let now = Instant::now();
            Clock {
                start: now,
                last: now,
                phases: Vec::new(),
            }
        })
    }

    pub(super) fn lap(clock: &mut Option<Clock>, what: &'static str) {
        if let Some(c) = clock {
            let now = Instant::now();
            c.phases.push((what, now - c.last));
            c.last = now;
        }
    }

    /// One line: `gba-barrier: team rank R of N: OUTCOME in T us (phase t us, ...)`.
    pub(super) fn report(clock: Option<Clock>, rank: u32, size: u32, outcome: &str) {
        let Some(c) = clock else { return };
        let mut line = format!(
            "gba-barrier: team rank {rank} of {size}: {outcome} in {:.1} us (",
            micros(c.start.elapsed())
        );
        for (i, (what, d)) in c.phases.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(line, "{sep}{what} {:.1}", micros(*d));
        }
        line.push_str(")\n");
        say(&line);
    }
}

pub(super) fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// One write of a whole line, so that the ranks' lines do not interleave.
pub(super) fn say(line: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}
