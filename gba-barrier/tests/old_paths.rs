//! The 0.1 module paths still name the same items during their deprecation period
//! (`src/old_paths.rs`, CHANGELOG.md "Deprecated"): code written against them compiles, with
//! warnings, and means what it meant.

#![allow(deprecated)]

use std::any::TypeId;

use gba_barrier::{backoff, device, error, offload, port};

struct NoPort;

impl gba_barrier::Port for NoPort {
    fn group(&self) -> u32 {
        0
    }
    fn member(&self) -> u32 {
        0
    }
    fn ring(&self, _word: u64) {}
    fn flag(&self) -> u64 {
        0
    }
    fn diagnose(&self) -> gba_barrier::Diagnosis {
        gba_barrier::Diagnosis::default()
    }
}

/// A function generic over the old trait path accepts an implementation of the new one.
fn takes_old_port<P: port::Port>(_: &P) {}

#[test]
fn every_old_path_names_the_item_at_the_root() {
    let same = |old: TypeId, new: TypeId| assert_eq!(old, new);
    same(
        TypeId::of::<backoff::WaitPolicy>(),
        TypeId::of::<gba_barrier::WaitPolicy>(),
    );
    assert_eq!(backoff::WAIT_POLICY_ENV, gba_barrier::WAIT_POLICY_ENV);
    same(
        TypeId::of::<device::AnyDevice>(),
        TypeId::of::<gba_barrier::AnyDevice>(),
    );
    same(
        TypeId::of::<device::AnyBarrier>(),
        TypeId::of::<gba_barrier::AnyBarrier>(),
    );
    same(
        TypeId::of::<device::Error>(),
        TypeId::of::<gba_barrier::AnyError>(),
    );
    same(TypeId::of::<error::Who>(), TypeId::of::<gba_barrier::Who>());
    same(
        TypeId::of::<error::Missing>(),
        TypeId::of::<gba_barrier::Missing>(),
    );
    same(
        TypeId::of::<error::DeviceFault>(),
        TypeId::of::<gba_barrier::DeviceFault>(),
    );
    same(
        TypeId::of::<error::WaitError>(),
        TypeId::of::<gba_barrier::WaitError>(),
    );
    same(
        TypeId::of::<error::Result<()>>(),
        TypeId::of::<gba_barrier::Result<()>>(),
    );
    same(
        TypeId::of::<offload::Barrier<NoPort>>(),
        TypeId::of::<gba_barrier::Barrier<NoPort>>(),
    );
    same(
        TypeId::of::<port::Diagnosis>(),
        TypeId::of::<gba_barrier::Diagnosis>(),
    );
    takes_old_port(&NoPort);
    port::release_before_doorbell();

    let error = std::io::Error::other("outer");
    assert_eq!(error::chain(&error), gba_barrier::error_chain(&error));
}
