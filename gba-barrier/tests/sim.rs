//! The offloaded barrier on the simulator through gba-hal: episodes across the 2^32 wrap,
//! timeouts that name the missing member, and device errors.

use std::sync::Arc;
use std::time::Duration;

use gba_barrier::hal::offload;
use gba_barrier::{Missing, WaitError};
use gba_hal::{Device, GroupConfig, MemberSet};
use gba_sim::SimBackend;

fn fabric(ports: usize) -> (tempfile::TempDir, Arc<gba_sim::Fabric>) {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        tempfile::tempdir_in("/dev/shm")
    } else {
        tempfile::tempdir()
    }
    .unwrap();
    let fabric = gba_sim::Fabric::create(&dir.path().join("fabric"), ports).unwrap();
    (dir, Arc::new(fabric))
}

fn device(fabric: &Arc<gba_sim::Fabric>, port: usize) -> Device<SimBackend> {
    Device::new(SimBackend::attach(fabric.clone(), port).unwrap()).unwrap()
}

fn all(n: usize) -> MemberSet {
    (0..n).collect()
}

#[test]
fn episodes_run_across_the_two_to_the_32_wrap() {
    let (_dir, fabric) = fabric(2);
    fabric.start_sequence(3, u32::MAX - 9).unwrap();
    let devices: Vec<_> = (0..2).map(|p| device(&fabric, p)).collect();
    std::thread::scope(|s| {
        for d in &devices {
            s.spawn(move || {
                let mut barrier =
                    offload(d, GroupConfig::new(3, all(2)), None).expect("configured");
                assert_eq!(barrier.episode(), u64::from(u32::MAX - 9));
                for _ in 0..20 {
                    barrier
                        .wait(Some(Duration::from_secs(30)))
                        .expect("released");
                }
                // The host counts on in 64 bits; the wire wrapped.
                assert_eq!(barrier.episode(), u64::from(u32::MAX) + 11);
                let mut pending = barrier.arrive().unwrap();
                while !pending.test() {}
                // Stay until the other member is done too.
                barrier.wait(Some(Duration::from_secs(30))).unwrap();
            });
        }
    });
    use gba_pac::tock_registers::interfaces::Readable;
    assert_eq!(fabric.global(0).barriers_completed().get(), 22);
}

#[test]
fn a_timeout_names_the_missing_member_and_a_device_error_is_reported() {
    let (_dir, fabric) = fabric(2);
    let devices: Vec<_> = (0..2).map(|p| device(&fabric, p)).collect();
    let mut barriers: Vec<_> = std::thread::scope(|s| {
        let h: Vec<_> = devices
            .iter()
            .map(|d| s.spawn(move || offload(d, GroupConfig::new(8, all(2)), None).unwrap()))
            .collect();
        h.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let error = match barriers[0].wait(Some(Duration::from_millis(100))) {
        Ok(()) => panic!(
            "released without member 1: {}",
            barriers[0].port().group_handle().snapshot()
        ),
        Err(error) => error,
    };
    match &*error {
        WaitError::Timeout {
            episode, missing, ..
        } => {
            assert_eq!(*episode, 1);
            assert_eq!(*missing, Missing::Members([1].into_iter().collect()));
        }
        other => panic!("{other}"),
    }
    assert!(error.to_string().contains("GBA group 8"), "{error}");
    // Member 1 arrives late: the episode completes, and member 0 finishes it.
    barriers[1].wait(Some(Duration::from_secs(10))).unwrap();
    barriers[0]
        .pending()
        .unwrap()
        .wait(Some(Duration::from_secs(10)))
        .unwrap();
    // A corrupted configuration fails the group; the waiting member hears of it by name.
    fabric.corrupt_mask(1, 8, 0).unwrap();
    let error = barriers[0].wait(Some(Duration::from_secs(10))).unwrap_err();
    assert!(matches!(&*error, WaitError::Device { .. }), "{error}");
    assert!(error.to_string().contains("MASK_MISMATCH"), "{error}");
}
