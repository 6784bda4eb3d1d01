//! The little the simulator asks of the operating system: a clock that every process on the
//! machine reads alike, and whether a process is still alive (gba-hal's, which the host
//! segment's claims use on every backend).

/// Nanoseconds of CLOCK_MONOTONIC: the same clock in every process of the machine, so that
/// a deadline written by one process is understood by another. The HAL's own clock.
pub use gba_hal::backends::clock::monotonic_ns;
pub use gba_hal::host::process::{alive, alive_as, my_pid, my_start_time, start_time};
