//! The little the simulator asks of the operating system: a clock that every process on the
//! machine reads alike, and whether a process is still alive.

/// Nanoseconds of CLOCK_MONOTONIC: the same clock in every process of the machine, so that
/// a deadline written by one process is understood by another. The HAL's own clock.
pub use gba_hal::backends::clock::monotonic_ns;

pub fn my_pid() -> u64 {
    u64::from(std::process::id())
}

/// Whether process `pid` exists. A pid can be reused after its process died; the fabric
/// accepts that rare confusion (it only delays noticing a dead process), as lock files do.
pub fn alive(pid: u64) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let rc = unsafe { libc::kill(pid, 0) };
    let exists = rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH);
    // A zombie (exited, not yet reaped by its parent) still exists but will never release
    // anything it held.
    exists && !zombie(pid)
}

fn zombie(pid: libc::pid_t) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            // The state follows the parenthesised command name, which may contain spaces.
            let after = &stat[stat.rfind(')')? + 1..];
            after.split_whitespace().next().map(|state| state == "Z")
        })
        .unwrap_or(false)
}
