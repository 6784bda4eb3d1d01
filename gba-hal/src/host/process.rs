//! Processes of this host as the host segment's claims see them: who this process is, and
//! whether a recorded process is still alive (a pid and its start time, so that a reused pid
//! is not taken for the process recorded).

pub fn my_pid() -> u64 {
    u64::from(std::process::id())
}

/// Whether process `pid` exists. A pid can be reused after its process died; the fabric
/// accepts that rare confusion (it only delays noticing a dead process), as lock files do.
pub fn alive(pid: u64) -> bool {
    alive_as(pid, 0)
}

/// Whether `pid` exists for the system (`kill(pid, 0)`; a zombie still does).
fn exists(pid: u64) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// The state (field 3: `Z` for a zombie) and start time (field 22, clock ticks after boot) of
/// process `pid`, from one read of `/proc/PID/stat` into a buffer on the stack: a liveness
/// check is polled while a team-mate configures, so it is one open, one read and one close
/// (reading the file twice, through `read_to_string`'s size probe and growing reads, cost
/// about ten system calls). `None` when unreadable.
fn stat(pid: u64) -> Option<(u8, u64)> {
    use std::io::Read;
    // The fields up to 22 take at most 16 (command) + 21 × 20 (numbers) bytes and spaces.
    let mut buf = [0u8; 1024];
    let n = std::fs::File::open(format!("/proc/{pid}/stat"))
        .ok()?
        .read(&mut buf)
        .ok()?;
    let text = &buf[..n];
    // Field 3 follows the parenthesised command name, which may hold spaces and parentheses.
    let after = &text[text.iter().rposition(|&b| b == b')')? + 1..];
    let mut fields = after.split(|&b| b == b' ').filter(|f| !f.is_empty());
    let state = *fields.next()?.first()?;
    let start = std::str::from_utf8(fields.nth(18)?)
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some((state, start))
}

/// When process `pid` started (`/proc/PID/stat` field 22, clock ticks after boot), so that a
/// pid reused by a new process is not taken for the one recorded. `None` when unreadable.
pub fn start_time(pid: u64) -> Option<u64> {
    stat(pid).map(|(_, start)| start)
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
/// pid alone decides). This process is alive without asking the system. A zombie (exited,
/// not yet reaped by its parent) is dead: it will never release anything it held. One
/// `kill(pid, 0)` and, for a pid that exists, one read of its `/proc/PID/stat` (unreadable:
/// alive, as the pid exists).
pub fn alive_as(pid: u64, start: u64) -> bool {
    if pid == my_pid() {
        return start == 0 || my_start_time() == 0 || start == my_start_time();
    }
    if !exists(pid) {
        return false;
    }
    match stat(pid) {
        Some((state, now)) => state != b'Z' && (start == 0 || now == start),
        None => true,
    }
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

#[cfg(all(test, not(miri)))]
mod tests {
    use super::*;

    /// A child that has exited but is not reaped is a zombie: dead for the claims, though
    /// `kill(pid, 0)` still finds it; reaped, it is gone. Its start time is read while it
    /// lives, and a wrong start time (a reused pid) is not it.
    #[test]
    fn liveness_sees_a_process_its_zombie_and_its_start_time() {
        let mut child = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .expect("sleep runs");
        let pid = u64::from(child.id());
        let start = start_time(pid).expect("/proc/PID/stat readable");
        assert!(start > 0);
        assert!(alive(pid) && alive_as(pid, start) && alive_as(pid, 0));
        assert!(
            !alive_as(pid, start + 1),
            "another start time is another process"
        );
        child.kill().unwrap();
        // Not reaped yet: wait until the kernel has made it a zombie.
        while stat(pid).is_some_and(|(state, _)| state != b'Z') {
            std::thread::yield_now();
        }
        assert!(exists(pid), "a zombie still exists for kill(pid, 0)");
        assert!(
            !alive(pid) && !alive_as(pid, start),
            "but it is dead for the claims"
        );
        child.wait().unwrap();
        assert!(!alive(pid));
        assert_eq!(start_time(my_pid()), Some(my_start_time()));
        assert!(alive_as(my_pid(), my_start_time()));
    }
}
