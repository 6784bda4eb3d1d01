//! The HAL's own clock for timeouts: CLOCK_MONOTONIC, which every process of the machine
//! reads alike (a backend that shares deadlines between processes, as the simulator does, may
//! use it too).

/// Nanoseconds of CLOCK_MONOTONIC.
pub fn monotonic_ns() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    debug_assert_eq!(rc, 0);
    (now.tv_sec as u64) * 1_000_000_000 + now.tv_nsec as u64
}
