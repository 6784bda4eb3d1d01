//! Claiming and configuring groups through the HAL, on the simulator.

#![allow(clippy::result_large_err)] // HAL errors name member sets; tests return them whole

mod hal_common;
use hal_common as common;

use std::sync::{Arc, Barrier};

use gba_hal::backends::MemoryBackend;
use gba_hal::{Device, Error, ErrorCode, GroupConfig, MemberSet};

fn members(list: &[usize]) -> MemberSet {
    list.iter().copied().collect()
}

#[test]
fn members_agree_on_the_lowest_common_free_group_and_configure_it() {
    let (_dir, fabric) = common::fabric(2);
    let devices: Vec<_> = (0..2).map(|p| common::sim_device(&fabric, p)).collect();
    // Another job already holds group 0 on port 1 alone.
    let other = common::sim_device(&fabric, 1);
    let held = other
        .claim(GroupConfig::new(0, members(&[1])))
        .expect("solo group");
    for _ in 0..64 {
        fabric.step();
    }
    let agreed = devices
        .iter()
        .map(|d| d.free_groups())
        .reduce(|a, b| a.intersection(b))
        .and_then(|set| set.lowest())
        .expect("a free group");
    assert_eq!(agreed, 1, "group 0 is busy on the switch");
    let settled = Barrier::new(2);
    std::thread::scope(|s| {
        let handles: Vec<_> = devices
            .iter()
            .map(|d| {
                let settled = &settled;
                s.spawn(move || {
                    let group = d.claim(GroupConfig::new(agreed, members(&[0, 1])));
                    let id = group.as_ref().map(|g| g.id()).map_err(|e| e.to_string());
                    // Keep the group until both members are READY: dropping it leaves.
                    settled.wait();
                    id
                })
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap().expect("configured"), agreed);
        }
    });
    drop(held);
}

#[test]
fn two_jobs_claiming_one_group_at_once_one_wins_the_other_may_retry() {
    let (_dir, fabric) = common::fabric(4);
    let devices: Vec<_> = (0..4).map(|p| common::sim_device(&fabric, p)).collect();
    let start = Arc::new(Barrier::new(4));
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = devices
            .iter()
            .enumerate()
            .map(|(p, d)| {
                let start = start.clone();
                s.spawn(move || {
                    let job = if p < 2 { [0, 1] } else { [2, 3] };
                    start.wait();
                    let claim = d.claim(
                        GroupConfig::new(7, members(&job))
                            .timeout(Some(std::time::Duration::from_millis(5_000))),
                    );
                    // Hold the group until every claim settled.
                    let outcome = claim.as_ref().map(|_| ()).map_err(|e| e.to_string());
                    let busy = matches!(&claim, Err(e) if e.is_retryable());
                    start.wait();
                    (p, outcome, busy)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let winners: Vec<usize> = results
        .iter()
        .filter(|r| r.1.is_ok())
        .map(|r| r.0)
        .collect();
    let busy: Vec<usize> = results.iter().filter(|r| r.2).map(|r| r.0).collect();
    assert!(
        winners == [0, 1] || winners == [2, 3],
        "exactly one job wins: {results:?}"
    );
    assert_eq!(
        busy.len(),
        2,
        "the other job gets the retryable error: {results:?}"
    );
    let loser = &results[busy[0]].1;
    assert!(
        loser.as_ref().unwrap_err().contains("GROUP_BUSY"),
        "{loser:?}"
    );
}

/// A group past the device's, past the user's quota, or held already: each refused by name.
#[test]
fn a_thirty_third_group_fails_clearly() {
    let (_dir, fabric) = common::fabric(1);
    let device = common::sim_device(&fabric, 0);
    // The default quota (GBA_GROUP_QUOTA unset in the tests): 8 groups of a port per user.
    let groups: Vec<_> = (0..8)
        .map(|g| {
            device
                .claim(GroupConfig::new(g, members(&[0])))
                .expect("8 groups")
        })
        .collect();
    assert_eq!(device.free_groups().lowest(), Some(8));
    let error = device
        .claim(GroupConfig::new(8, members(&[0])))
        .unwrap_err();
    let uid = gba_hal::host::process::my_uid();
    assert!(
        matches!(
            error,
            Error::ClaimRefused {
                group: 8,
                refusal: gba_hal::Refusal::Quota {
                    held: 8,
                    quota: 8,
                    ..
                }
            }
        ),
        "{error}"
    );
    let text = error.to_string();
    assert!(
        text.contains(&format!("uid {uid} holds 8 groups")) && text.contains("GBA_GROUP_QUOTA"),
        "{text}"
    );
    let error = device
        .claim(GroupConfig::new(32, members(&[0])))
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::NoSuchGroup {
                group: 32,
                groups: 32
            }
        ),
        "{error}"
    );
    let error = device
        .claim(GroupConfig::new(5, members(&[0])))
        .unwrap_err();
    assert!(
        matches!(error, Error::AlreadyClaimed { group: 5 }),
        "{error}"
    );
    drop(groups);
    for _ in 0..64 {
        fabric.step();
    }
    assert_eq!(
        device.free_groups().0,
        u32::MAX,
        "dropping releases every group"
    );
}

#[test]
fn a_configuration_outside_caps_is_refused_before_any_register_is_written() {
    let device = Device::new(MemoryBackend::new(3)).unwrap();
    let before = device.backend().window_bytes();
    let mut too_high = MemberSet::new();
    too_high.insert(3);
    too_high.insert(gba_pac::MAX_MEMBERS);
    let cases = [
        (
            GroupConfig::new(40, members(&[3])),
            "group 40 does not exist",
        ),
        (GroupConfig::new(1, MemberSet::new()), "at least one member"),
        (GroupConfig::new(1, too_high), "member 708 is out of range"),
        (
            GroupConfig::new(1, members(&[0, 1])),
            "this port (3) is not in the member set {0-1}",
        ),
    ];
    for (config, message) in cases {
        let error = device.claim(config).unwrap_err();
        assert!(error.to_string().contains(message), "{error} / {message}");
    }
    assert!(
        device.backend().window_bytes() == before,
        "no register changed"
    );
}

#[test]
fn members_that_disagree_get_mask_mismatch_and_a_silent_member_a_timeout() {
    let (_dir, fabric) = common::fabric(3);
    let a = common::sim_device(&fabric, 0);
    let b = common::sim_device(&fabric, 1);
    let held = a.claim(
        GroupConfig::new(2, members(&[0, 1])).timeout(Some(std::time::Duration::from_millis(50))),
    );
    let error = held.unwrap_err();
    assert!(
        matches!(&error, Error::Timeout { group: 2, missing, .. } if *missing == members(&[1])),
        "{error}"
    );
    std::thread::scope(|s| {
        let first = s.spawn(|| {
            a.claim(
                GroupConfig::new(3, members(&[0, 1]))
                    .timeout(Some(std::time::Duration::from_millis(2_000))),
            )
            .map(|_| ())
        });
        // Member 0 must have joined first (a sleep would race with a loaded machine).
        use gba_pac::tock_registers::interfaces::Readable;
        while fabric.global(0).group_enabled().get() & (1 << 3) == 0 {
            fabric.step();
            std::thread::yield_now();
        }
        let error = b
            .claim(GroupConfig::new(3, members(&[0, 1, 2])))
            .unwrap_err();
        assert!(
            matches!(
                error,
                Error::Refused {
                    group: 3,
                    code: ErrorCode::MASK_MISMATCH
                }
            ),
            "{error}"
        );
        assert!(
            error.to_string().contains("configure the same member set"),
            "{error}"
        );
        let _ = first.join();
    });
}

#[test]
fn a_claim_can_be_given_up_before_its_timeout() {
    let (_dir, fabric) = common::fabric(2);
    let device = common::sim_device(&fabric, 0);
    // Member 1 never configures: READY cannot come. The caller gives up after 100 polls,
    // long before the hour-long timeout.
    let mut polls = 0;
    let config =
        GroupConfig::new(4, members(&[0, 1])).timeout(Some(std::time::Duration::from_secs(3600)));
    let error = device
        .claim_until(config, || {
            polls += 1;
            polls > 100
        })
        .unwrap_err();
    assert!(matches!(error, Error::Cancelled { group: 4 }), "{error}");
    // Given up means undone: the group is this device's to claim again.
    assert!(device.free_groups().contains(4));
}

/// The group quota is the fabric's, recorded by its creator: a fabric made under
/// `GBA_GROUP_QUOTA=3` (in a child process, whose environment is its own) refuses this
/// process a fourth group although its own environment says nothing (the default, 8); a
/// recorded quota outside 1 to GROUPS is refused at open, naming the header word.
#[test]
fn the_quota_is_the_fabrics_creators() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("fabric");
    if let Some(target) = std::env::var_os("GBA_QUOTA_CREATE") {
        gba_sim::Fabric::create(std::path::Path::new(&target), 1).expect("fabric");
        return;
    }
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "the_quota_is_the_fabrics_creators"])
        .env("GBA_QUOTA_CREATE", &path)
        .env(gba_hal::QUOTA_ENV, "3")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let fabric = Arc::new(gba_sim::Fabric::open(&path).expect("the child's fabric"));
    assert_eq!(fabric.group_quota(), 3);
    let device = common::sim_device(&fabric, 0);
    let _held: Vec<_> = (0..3)
        .map(|g| device.claim(GroupConfig::new(g, members(&[0]))).unwrap())
        .collect();
    let error = device
        .claim(GroupConfig::new(3, members(&[0])))
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::ClaimRefused {
                refusal: gba_hal::Refusal::Quota { quota: 3, .. },
                ..
            }
        ),
        "{error}"
    );
    drop(_held);
    drop(device);
    drop(fabric);
    use std::os::unix::fs::FileExt;
    let switch = std::fs::OpenOptions::new()
        .write(true)
        .open(path.join(gba_sim::layout::SWITCH_FILE))
        .unwrap();
    let at = gba_sim::layout::header_word(gba_sim::layout::H_GROUP_QUOTA) as u64;
    switch.write_all_at(&0u64.to_le_bytes(), at).unwrap();
    let error = gba_sim::Fabric::open(&path).unwrap_err().to_string();
    assert!(
        error.contains("group quota of 0") && error.contains("H_GROUP_QUOTA"),
        "{error}"
    );
}
