//! What a rank knows of itself for its vote: hostname, machine, CPUs, a team key candidate.

use gba_hal::TeamKey;
/// This process's hostname (for messages; empty if unknown).
/// Read once per process: team creation needs it twice, and every communicator creates a
/// team (a process does not move to another UTS namespace while it holds teams).
pub(super) fn hostname() -> String {
    static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NAME.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    })
    .clone()
}

/// This machine: its boot id, hashed (the hostname where there is none); never 0. Processes
/// in other UTS or network namespaces of the machine share it, as they share its cores.
pub(super) fn machine_key() -> u64 {
    use std::hash::{Hash, Hasher};
    static KEY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *KEY.get_or_init(|| {
        let mut h = std::hash::DefaultHasher::new();
        std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
            .unwrap_or_else(|_| hostname())
            .trim()
            .hash(&mut h);
        h.finish() | 1
    })
}

/// The CPUs the calling thread (the one that will wait) may run on, folded into 64 bits (CPU c
/// sets bit c mod 64), from `sched_getaffinity` (a system call: reading `Cpus_allowed_list`
/// from /proc/self/status cost ~17 us of each team's formation); where that fails, from
/// /proc, then the first `available_parallelism` bits. Folding undercounts only past 64 CPUs,
/// where it can make a team yield that need not.
pub(super) fn cpu_summary() -> u64 {
    affinity()
        .or_else(|| {
            let status = std::fs::read_to_string("/proc/self/status").ok()?;
            let list = status
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?;
            fold_cpu_list(list)
        })
        .unwrap_or_else(|| {
            let n = std::thread::available_parallelism()
                .map_or(1, usize::from)
                .min(64);
            if n == 64 { u64::MAX } else { (1 << n) - 1 }
        })
}

/// The calling thread's affinity, folded as [`cpu_summary`] says; `None` when the system call
/// fails or names no CPU.
fn affinity() -> Option<u64> {
    // SAFETY: an all-zero `cpu_set_t` is a valid (empty) set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `set` is writable for `size` bytes, which is what the kernel may write.
    if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
        return None;
    }
    // SAFETY: `cpu_set_t` is a plain array of `c_ulong` words, `size` bytes, initialised
    // above; read as bytes (no alignment needed), 8 at a time, in the words' own byte order.
    let bytes = unsafe { std::slice::from_raw_parts((&raw const set).cast::<u8>(), size) };
    let mask = bytes.chunks_exact(8).fold(0u64, |m, w| {
        m | u64::from_ne_bytes(w.try_into().expect("8 bytes"))
    });
    (mask != 0).then_some(mask)
}

/// A CPU list as the kernel writes it (`0-3,8,10-11`), folded into 64 bits; `None` when it
/// does not parse or names no CPU.
fn fold_cpu_list(list: &str) -> Option<u64> {
    let mut mask = 0u64;
    for part in list.trim().split(',') {
        let (lo, hi) = part.split_once('-').unwrap_or((part, part));
        let (lo, hi): (u32, u32) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
        for c in lo..=hi.min(lo.saturating_add(63)) {
            mask |= 1 << (c % 64);
        }
    }
    (mask != 0).then_some(mask)
}

/// A team key candidate: 128 bits from the kernel's random source ([`TeamKey::draw`]). Rank
/// 0's is the team's. It is the team's secret on a shared node (the kernel driver lets only a
/// holder of the key join, `join_policy=1` any uid with it), so it is drawn, never derived from
/// a pid, a start time, a counter or a hostname, which another user can read or guess.
pub(super) fn team_key() -> TeamKey {
    TeamKey::draw()
}

#[cfg(test)]
mod cpu_tests {
    use super::{affinity, fold_cpu_list};

    #[test]
    fn the_system_call_names_the_cpus_proc_lists() {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let list = status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .unwrap();
        assert_eq!(affinity(), fold_cpu_list(list));
    }

    #[test]
    fn cpu_lists_fold_into_64_bits() {
        assert_eq!(fold_cpu_list("0-1\n"), Some(0b11));
        assert_eq!(fold_cpu_list("0,2-3"), Some(0b1101));
        assert_eq!(fold_cpu_list("64"), Some(1), "CPU 64 folds onto bit 0");
        assert_eq!(fold_cpu_list("0-127"), Some(u64::MAX));
        assert_eq!(fold_cpu_list("x"), None);
        assert_eq!(fold_cpu_list(""), None);
    }
}
