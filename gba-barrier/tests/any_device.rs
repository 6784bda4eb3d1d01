//! Devices opened by address, used without knowing the backend: [`AnyDevice`] and the
//! [`AnyBarrier`] that holds its device; split-phase polling that reports a failed group.

mod common;
use common::fabric;

use std::time::Duration;

use gba_barrier::{
    AnyBarrier, AnyDevice, WAIT_POLICY_ENV, WaitError, WaitPolicy, error_chain as chain,
};
use gba_hal::{DeviceAddress, GroupConfig, MemberSet};

/// A driver's own struct: the barrier alone, holding its device.
#[derive(Debug)]
struct Driver {
    barrier: AnyBarrier,
}

#[test]
fn a_barrier_keeps_its_device_and_polling_reports_a_failed_group() {
    let (_dir, path) = fabric(2);
    let members: MemberSet = (0..2).collect();
    let drivers: Vec<Driver> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|p| {
                let address = DeviceAddress::sim(&path, p);
                s.spawn(move || {
                    let device = AnyDevice::open(&address).expect("opens");
                    assert_eq!(device.to_string(), address.to_string());
                    assert_eq!(device.identity().port, p);
                    // The device handle goes away; the barrier keeps the device.
                    let barrier = device.barrier(GroupConfig::new(5, members)).unwrap();
                    Driver { barrier }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let [mut a, mut b] = <[Driver; 2]>::try_from(drivers).unwrap();
    std::thread::scope(|s| {
        s.spawn(|| a.barrier.wait(Some(Duration::from_secs(30))).unwrap());
        s.spawn(|| b.barrier.wait(Some(Duration::from_secs(30))).unwrap());
    });
    // Member 0 arrives alone; the group then fails: polling says so instead of "not yet".
    a.barrier.arrive().unwrap();
    assert_eq!(a.barrier.poll().map(|r| r.ok()), Some(Some(false)));
    gba_sim::Fabric::open(&path)
        .unwrap()
        .corrupt_mask(1, 5, 0)
        .unwrap();
    let error = loop {
        match a.barrier.poll().expect("pending") {
            Ok(false) => std::thread::yield_now(),
            Ok(true) => panic!("released without member 1"),
            Err(error) => break error,
        }
    };
    assert!(matches!(&*error, WaitError::Device { .. }), "{error}");
    assert!(error.to_string().contains("MASK_MISMATCH"), "{error}");
    assert!(
        error
            .to_string()
            .contains("Member ports disagree on MEMBER_MASK."),
        "the spec's description: {error}"
    );
}

#[test]
fn addresses_that_name_no_device_are_refused_with_what_to_do() {
    let (_dir, path) = fabric(2);
    let not_a_fabric = tempfile::NamedTempFile::new().unwrap();
    let cases = [
        (format!("sim:{}#9", path.display()), "port 9 does not exist"),
        (format!("sim:{}", path.display()), "names no port"),
        ("sim:#0".to_string(), "no fabric directory"),
        (
            "sim:/nonexistent/fabric#0".to_string(),
            "no simulator fabric",
        ),
        ("/dev/null".to_string(), "neither a simulator port"),
        (
            format!("sim:{}#0", not_a_fabric.path().display()),
            "not a fabric directory",
        ),
        ("vfio:00:04.0".to_string(), "a full PCI address"),
        // A PCI domain no machine has: the VFIO backend's first check names the fix.
        ("vfio:fffe:ff:1f.7".to_string(), "lspci -D"),
    ];
    for (text, expected) in cases {
        let error = AnyDevice::open_str(Some(&text)).unwrap_err();
        let chain = chain(&error);
        assert!(chain.contains(expected), "{text}: {chain}");
    }
    // Each cause once in the chain.
    let error = AnyDevice::open_str(Some("sim:/nonexistent/fabric#0")).unwrap_err();
    let chain = chain(&error);
    let causes: Vec<&str> = chain.split(": ").collect();
    let unique: std::collections::HashSet<&&str> = causes.iter().collect();
    assert_eq!(unique.len(), causes.len(), "{chain}");
}

/// The policies each member of a teamless barrier over `ports` simulator ports (threads of
/// this process, one per port) is given.
fn policies_over(ports: usize) -> Vec<WaitPolicy> {
    let (_dir, path) = fabric(ports);
    let members: MemberSet = (0..ports).collect();
    // Every barrier is kept until all are made: a member that left at once could leave
    // before a slower one saw READY, which would then wait for it in vain.
    let barriers: Vec<AnyBarrier> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..ports)
            .map(|p| {
                let address = DeviceAddress::sim(&path, p);
                s.spawn(move || {
                    let device = AnyDevice::open(&address).expect("opens");
                    device.barrier(GroupConfig::new(3, members)).unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    barriers.iter().map(AnyBarrier::wait_policy).collect()
}

/// A barrier made without a team on the simulator counts every member port as a process of
/// this machine, against its online CPUs: one member more than CPUs and every member yields
/// from the first miss (each spinning took the CPU the member it waited for needed:
/// raw_barrier np=4 on 2 cores 11.8–16.9 µs an episode spinning, 3.2–4.5 µs yielding); one
/// per CPU and they spin.
#[test]
fn a_teamless_simulator_barrier_yields_when_its_ports_outnumber_the_cpus() {
    assert!(
        std::env::var_os(WAIT_POLICY_ENV).is_none(),
        "{WAIT_POLICY_ENV} overrides the choice this test checks: unset it to run the test"
    );
    // SAFETY: sysconf reads a system value.
    let online = usize::try_from(unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) }).unwrap();
    assert!(
        policies_over(online + 1)
            .iter()
            .all(|&p| p == WaitPolicy::Yield),
        "{} ports on {online} CPUs",
        online + 1
    );
    assert!(
        policies_over(online).iter().all(|&p| p == WaitPolicy::Spin),
        "{online} ports on {online} CPUs"
    );
}
