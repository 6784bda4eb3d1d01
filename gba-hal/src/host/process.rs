//! Processes of this host as the host segment's claims see them: who this process is (pid,
//! start time, uid, PID namespace), and whether a recorded process is still alive (a pid and
//! its start time, so that a reused pid is not taken for the process recorded; its uid, so
//! that a record naming another user's process is not taken for it; its PID namespace, so
//! that a pid of another namespace is never looked up in ours).

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
    probe(pid) != Probe::Gone
}

/// What `kill(pid, 0)` says of a pid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    /// No such process (ESRCH), or not a pid.
    Gone,
    /// It exists and this process may signal it (same user, or privileged).
    Ours,
    /// It exists and belongs to someone this process may not signal (EPERM).
    Foreign,
}

fn probe(pid: u64) -> Probe {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return Probe::Gone;
    };
    if pid <= 0 {
        return Probe::Gone;
    }
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let rc = unsafe { libc::kill(pid, 0) };
    match std::io::Error::last_os_error().raw_os_error() {
        _ if rc == 0 => Probe::Ours,
        Some(libc::ESRCH) => Probe::Gone,
        _ => Probe::Foreign,
    }
}

/// The state (field 3: `Z` for a zombie) and start time (field 22, clock ticks after boot) of
/// process `pid`, from one read of `/proc/PID/stat` into a buffer on the stack: a liveness
/// check is polled while a team-mate configures, so it is one open, one read and one close
/// (reading the file twice, through `read_to_string`'s size probe and growing reads, cost
/// about ten system calls). `None` when unreadable.
fn stat(pid: u64) -> Option<(u8, u64)> {
    stat_of(&pid.to_string())
}

/// [`stat`] of `/proc/NAME/stat` (NAME a pid, or `self`).
fn stat_of(name: &str) -> Option<(u8, u64)> {
    use std::io::Read;
    // The fields up to 22 take at most 16 (command) + 21 × 20 (numbers) bytes and spaces.
    let mut buf = [0u8; 1024];
    let n = std::fs::File::open(format!("/proc/{name}/stat"))
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
    static START: PerProcess = PerProcess::new();
    START.get(|| {
        if cfg!(miri) {
            0
        } else {
            // `self`, not our pid: in a PID namespace of its own whose /proc is its parent's,
            // a process's pid names another process there.
            stat_of("self").map_or(0, |(_, start)| start)
        }
    })
}

/// A value of this process, read once per process: a child made by `fork` after the parent
/// read it reads its own again. (A `OnceLock` would hand the child its parent's start time,
/// and every other process would then take the child's claims for a dead process's: the
/// recorded start is not the live pid's.)
struct PerProcess(std::sync::Mutex<Option<(u64, u64)>>);

impl PerProcess {
    const fn new() -> Self {
        PerProcess(std::sync::Mutex::new(None))
    }

    fn get(&self, read: impl FnOnce() -> u64) -> u64 {
        let pid = my_pid();
        let mut cached = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match *cached {
            Some((of, value)) if of == pid => value,
            _ => {
                let value = read();
                *cached = Some((pid, value));
                value
            }
        }
    }
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

/// A process a claim record names: what it recorded of itself when it claimed or joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claimant {
    /// In its own PID namespace.
    pub pid: u64,
    /// Its start time (0: unknown).
    pub start: u64,
    /// Its effective uid as [`my_uid`] gives it (`None`: not recorded).
    pub uid: Option<u32>,
    /// Its PID namespace's inode (0: unknown).
    pub pid_ns: u64,
}

/// Whether a process of PID namespace `pid_ns` is in another PID namespace than this one
/// (unknown on either side: no).
pub fn other_pid_namespace(pid_ns: u64) -> bool {
    pid_ns != 0 && my_pid_ns() != 0 && pid_ns != my_pid_ns()
}

/// Whether the claimant still lives, as far as this process can prove it dead. A claimant in
/// another PID namespace is alive: its pid means nothing here (a job in an unprivileged
/// container, `unshare --pid`), so nothing it holds is taken from it. In ours it is dead
/// when its pid does not exist, is a zombie, started at another time, or runs as a user the
/// record does not name (checked when the recorded uid is not this process's, or when this
/// process may not signal it: a record naming another user's process, such as pid 1, is not
/// that process's claim). An existing process this process cannot inspect counts as alive.
pub fn claimant_alive(c: &Claimant) -> bool {
    if other_pid_namespace(c.pid_ns) {
        return true;
    }
    if c.pid == my_pid() {
        return alive_as(c.pid, c.start);
    }
    let probe = probe(c.pid);
    if probe == Probe::Gone || !alive_as(c.pid, c.start) {
        return false;
    }
    match c.uid {
        Some(uid) if probe == Probe::Foreign || uid != my_uid() => {
            uids(c.pid).is_none_or(|uids| uids.contains(&uid))
        }
        _ => true,
    }
}

/// The real, effective, saved and filesystem uids of `pid` (`/proc/PID/status`), as
/// [`my_uid`] expresses uids. `None` when unreadable.
fn uids(pid: u64) -> Option<[u32; 4]> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
    let mut ids = line.split_whitespace().map(|id| id.parse::<u32>().ok());
    let mut out = [0; 4];
    for slot in &mut out {
        *slot = outer_uid(ids.next()??);
    }
    Some(out)
}

/// `uid` of this process's user namespace in its parent's terms (`/proc/self/uid_map`), so
/// that a process in an unprivileged user namespace (`unshare --user --map-root-user`)
/// records the uid it runs as outside, as the kernel sees it. Unmapped or unreadable: as is.
fn outer_uid(uid: u32) -> u32 {
    static MAP: std::sync::OnceLock<Vec<(u32, u32, u32)>> = std::sync::OnceLock::new();
    let map = MAP.get_or_init(|| {
        let text = if cfg!(miri) {
            String::new()
        } else {
            std::fs::read_to_string("/proc/self/uid_map").unwrap_or_default()
        };
        text.lines()
            .filter_map(|l| {
                let mut n = l.split_whitespace().map(|n| n.parse::<u32>().ok());
                Some((n.next()??, n.next()??, n.next()??))
            })
            .collect()
    });
    map.iter()
        .find(|&&(inside, _, count)| uid >= inside && uid - inside < count)
        .map_or(uid, |&(inside, outside, _)| outside + (uid - inside))
}

/// This process's effective uid, in its user namespace's parent's terms (see
/// `outer_uid`): what claim records carry.
pub fn my_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    outer_uid(unsafe { libc::geteuid() })
}

/// The inode of this process's PID namespace (`/proc/self/ns/pid` reads `pid:[INODE]`); 0
/// when unreadable (and under Miri).
pub fn my_pid_ns() -> u64 {
    // Per process: a child forked after `unshare(CLONE_NEWPID)` is in a namespace its parent
    // is not.
    static NS: PerProcess = PerProcess::new();
    NS.get(|| {
        if cfg!(miri) {
            return 0;
        }
        std::fs::read_link("/proc/self/ns/pid")
            .ok()
            .and_then(|link| {
                let link = link.to_string_lossy().into_owned();
                link.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
            })
            .unwrap_or(0)
    })
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
