//! Processes of this host as the host segment's claims see them: who this process is, and
//! whether a recorded process is still alive (a pid and its start time, so that a reused pid
//! is not taken for the process recorded).

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

/// When process `pid` started (`/proc/PID/stat` field 22, clock ticks after boot), so that a
/// pid reused by a new process is not taken for the one recorded. `None` when unreadable.
pub fn start_time(pid: u64) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 3 (the state) follows the parenthesised command name, which may hold spaces;
    // field 22 is the 20th after the name.
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(19)?.parse().ok()
}

/// This process's start time (0 when /proc is unreadable, e.g. under Miri: then only the pid
/// is compared).
pub fn my_start_time() -> u64 {
    static START: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *START.get_or_init(|| {
        if cfg!(miri) {
            0
        } else {
            start_time(my_pid()).unwrap_or(0)
        }
    })
}

/// Whether `pid` is alive and is the process that started at `start` (0: not recorded, the
/// pid alone decides). This process is alive without asking the system.
pub fn alive_as(pid: u64, start: u64) -> bool {
    if pid == my_pid() {
        return start == 0 || my_start_time() == 0 || start == my_start_time();
    }
    if !alive(pid) {
        return false;
    }
    start == 0 || start_time(pid).is_none_or(|now| now == start)
}

/// This boot's id (`/proc/sys/kernel/random/boot_id`): a segment of another boot is another
/// host's as far as its claims go. `None` when unreadable (and under Miri).
pub fn boot_id() -> Option<String> {
    if cfg!(miri) {
        return None;
    }
    let id = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    Some(id.trim().to_string())
}
