//! One suite every backend must pass (gba-sim's `tests/hal_conformance.rs` runs it on the
//! simulator, plain memory and UIO over a fake sysfs; `examples/conformance.rs` on the kernel
//! driver in the `kernel` stage's guest): the window reads as a GBA with the backend's
//! identity; DMA memory is aligned, zeroed, disjoint and reusable, and so is a group's release
//! flag; progress can be called.
//!
//! What DMA memory a backend promises differs, and the suite tests each promise in full
//! ([`Dma`]): a backend that hands out DMA memory of its own (the simulator's arena, UIO's
//! and VFIO's pinned pages, plain memory) is tested allocation by allocation; the kernel
//! driver gives DMA memory only with a claim (the flag it allocated and wrote into
//! RELEASE_ADDR itself), so there the suite asserts that nothing else is handed out, and tests
//! the claims' flags through a switch that releases them.

use std::time::{Duration, Instant};

use gba_hal::{Backend, Device, Group, GroupConfig, MemberSet};
use gba_pac::global;
use gba_pac::group::ARRIVAL;

/// What DMA memory the backend under test promises.
#[allow(dead_code)] // each includer uses some
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dma {
    /// `alloc_dma` and `alloc_flag` hand out memory at any time: aligned, zeroed, disjoint,
    /// reused first fit.
    Any,
    /// Only a claim comes with DMA memory, its release flag (the kernel driver): `alloc_dma`
    /// and a flag of a group not held are refused by name; a held group's flag is aligned,
    /// zeroed, its own line, written by the switch at a release, and zeroed again when the
    /// group is claimed anew. Needs a switch that steps (the guest's `gba sim run`).
    ClaimOnly,
}

pub fn conformance<B: Backend>(backend: B, port: usize, dma: Dma) {
    let name = format!("{}", DescribeOf(&backend));
    assert!(!name.is_empty());
    let device = Device::new(backend).unwrap_or_else(|e| panic!("{name}: {e}"));
    let id = device.identity();
    assert_eq!(id.port, port, "{name}: PORT_ID");
    assert_eq!(id.max_members, gba_pac::MAX_MEMBERS, "{name}: CAPS");
    assert_eq!(id.max_groups, gba_pac::MAX_GROUPS, "{name}: CAPS");
    assert_eq!(u32::from(id.version_major), global::reset::VERSION >> 16);
    assert_eq!(device.free_groups().0, u32::MAX, "{name}: every group free");

    match dma {
        Dma::Any => any_dma(&device, &name),
        Dma::ClaimOnly => claim_only_dma(&device, &name, port),
    }
    device.progress();
    let snapshot = device.snapshot(0).expect("group 0 exists");
    assert!(!snapshot.ready && snapshot.error.is_none());
    assert!(device.snapshot(gba_pac::MAX_GROUPS).is_err());
}

/// The DMA part for a backend whose DMA memory is its own to hand out ([`Dma::Any`]).
fn any_dma<B: Backend>(device: &Device<B>, name: &str) {
    let backend = device.backend();
    let a = backend.alloc_dma(64).expect("64 bytes");
    let b = backend.alloc_dma(200).expect("200 bytes");
    let c = backend.alloc_dma(8).expect("8 bytes");
    for r in [a, b, c] {
        assert!(r.host.as_ptr().addr().is_multiple_of(64), "{name}: aligned");
        assert!(r.iova.is_multiple_of(64), "{name}: IOVA aligned");
        assert_ne!(
            r.iova,
            r.host.as_ptr().addr() as u64,
            "{name}: an IOVA is not a pointer"
        );
    }
    // Disjoint cache lines, host and device side alike.
    let mut spans: Vec<(u64, u64)> = [a, b, c]
        .iter()
        .map(|r| (r.iova, r.iova + r.len.div_ceil(64) as u64 * 64))
        .collect();
    spans.sort();
    assert!(
        spans.windows(2).all(|w| w[0].1 <= w[1].0),
        "{name}: overlap {spans:?}"
    );
    // Zeroed, even after reuse of freed memory that was written.
    let word = |r: &gba_hal::DmaRegion| {
        // SAFETY: the region is live, 64-aligned, and reached only atomically.
        unsafe { std::sync::atomic::AtomicU64::from_ptr(r.host.as_ptr().cast()) }
    };
    assert_eq!(word(&b).load(std::sync::atomic::Ordering::Acquire), 0);
    word(&b).store(0xdead, std::sync::atomic::Ordering::Release);
    backend.free_dma(b);
    let again = backend.alloc_dma(200).expect("freed memory is reused");
    assert_eq!(
        again.iova, b.iova,
        "{name}: first fit reuses the freed lines"
    );
    assert_eq!(
        word(&again).load(std::sync::atomic::Ordering::Acquire),
        0,
        "{name}: zeroed"
    );
    for r in [a, again, c] {
        backend.free_dma(r);
    }
    // A group's release flag (what a claim's winner takes): a zeroed line of its own, even
    // where it was written before.
    let flag = backend.alloc_flag(5, 64).expect("a flag");
    assert!(
        flag.host.as_ptr().addr().is_multiple_of(64),
        "{name}: flag aligned"
    );
    assert!(flag.iova.is_multiple_of(64), "{name}: flag IOVA aligned");
    word(&flag).store(0xbeef, std::sync::atomic::Ordering::Release);
    backend.free_flag(5, flag);
    let flag = backend.alloc_flag(5, 64).expect("the flag again");
    assert_eq!(
        word(&flag).load(std::sync::atomic::Ordering::Acquire),
        0,
        "{name}: flag zeroed"
    );
    backend.free_flag(5, flag);
}

/// The DMA part for a backend that gives DMA memory only with a claim ([`Dma::ClaimOnly`]).
fn claim_only_dma<B: Backend>(device: &Device<B>, name: &str, port: usize) {
    let backend = device.backend();
    let refused = backend
        .alloc_dma(64)
        .expect_err("no DMA memory without a claim");
    assert!(
        refused.reason.contains("claim"),
        "{name}: {}",
        refused.reason
    );
    let refused = backend
        .alloc_flag(5, 64)
        .expect_err("no flag of a group not held");
    assert!(
        refused.reason.contains("hold"),
        "{name}: {}",
        refused.reason
    );
    let members: MemberSet = [port].into_iter().collect();
    let claim = |g: usize| {
        device
            .claim(GroupConfig::new(g, members))
            .unwrap_or_else(|e| panic!("{name}: claim group {g}: {e}"))
    };
    let (five, six) = (claim(5), claim(6));
    for g in [&five, &six] {
        assert_eq!(g.flag().load(), 0, "{name}: group {}'s flag zeroed", g.id());
        assert!(
            g.flag().iova().is_multiple_of(64),
            "{name}: flag IOVA aligned"
        );
    }
    assert!(
        five.flag().iova().abs_diff(six.flag().iova()) >= 64,
        "{name}: each flag on a line of its own"
    );
    // The switch writes the flag at a release; the next claim of the group starts from a
    // zeroed flag again.
    let episode = u64::from(five.start_sequence()) + 1;
    release(&five, episode, name);
    assert_ne!(five.flag().load(), 0, "{name}: the release was written");
    drop((five, six));
    let again = claim(5);
    assert_eq!(
        again.flag().load(),
        0,
        "{name}: flag zeroed when claimed anew"
    );
    drop(again);
    assert!(
        backend.alloc_flag(5, 64).is_err(),
        "{name}: a left group's flag is gone"
    );
}

/// Arrives at `episode` of a group of this port alone and waits for its release (bounded: a
/// switch that never steps fails here, naming the group's state).
fn release<B: Backend>(group: &Group<'_, B>, episode: u64, name: &str) {
    let word = ARRIVAL::MEMBER_ID.val(group.member_id() as u64)
        + ARRIVAL::SEQUENCE.val(u64::from(episode as u32));
    group.doorbell().set_release(word.value);
    let start = Instant::now();
    while (group.flag().load() as u32).wrapping_sub(episode as u32) as i32 != 0 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{name}: episode {episode} never released: {:?}",
            group.snapshot()
        );
        group.device().progress();
        std::thread::yield_now();
    }
}

pub struct DescribeOf<'a, B: Backend>(&'a B);
impl<B: Backend> std::fmt::Display for DescribeOf<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.describe(f)
    }
}
