//! A member's episode loop over the HAL's primitives (the barrier crate builds the real one),
//! and fixtures.

#![allow(dead_code)] // each test file uses a different part
#![allow(clippy::result_large_err)] // a timeout returns the whole snapshot, once

use std::sync::Arc;
use std::time::{Duration, Instant};

use gba_hal::{Backend, Device, Group, GroupSnapshot};
use gba_pac::group::ARRIVAL;
use gba_sim::SimBackend;

/// A fabric in a new temporary directory, in /dev/shm where there is one (memory, as the
/// simulator is meant to run).
pub fn fabric(ports: usize) -> (tempfile::TempDir, Arc<gba_sim::Fabric>) {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        tempfile::tempdir_in("/dev/shm")
    } else {
        tempfile::tempdir()
    }
    .expect("temporary directory");
    let fabric = gba_sim::Fabric::create(&dir.path().join("fabric"), ports).expect("fabric");
    (dir, Arc::new(fabric))
}

pub fn sim_device(fabric: &Arc<gba_sim::Fabric>, port: usize) -> Device<SimBackend> {
    Device::new(SimBackend::attach(fabric.clone(), port).expect("attach")).expect("a GBA")
}

/// Port `port` of the fabric at `fabric`, opened by a process of its own.
pub fn open_sim(fabric: &str, port: usize) -> Device<SimBackend> {
    Device::new(SimBackend::open(std::path::Path::new(fabric), port).expect("open")).expect("a GBA")
}

/// Arrives at episode `episode` of `group`.
pub fn arrive<B: Backend>(group: &Group<'_, B>, episode: u64) {
    let word = ARRIVAL::MEMBER_ID.val(group.member_id() as u64)
        + ARRIVAL::SEQUENCE.val(u64::from(episode as u32));
    group.doorbell().set_release(word.value);
}

/// Waits until `episode` is released, or returns what the group looks like at the timeout.
pub fn wait<B: Backend>(
    group: &Group<'_, B>,
    episode: u64,
    timeout: Duration,
) -> Result<(), GroupSnapshot> {
    let start = Instant::now();
    loop {
        let flag = group.flag().load() as u32;
        if (flag.wrapping_sub(episode as u32) as i32) >= 0 {
            return Ok(());
        }
        if start.elapsed() > timeout {
            return Err(group.snapshot());
        }
        group.device().progress();
        std::thread::yield_now();
    }
}
