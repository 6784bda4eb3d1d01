//! The hot path: arrive + one poll of an already-released flag, ours against the seeds' C.
//!
//! Both run over the same stand-in for the register window: a zeroed, page-aligned heap
//! buffer of `Device::SIZE` bytes, reached through gba-pac's `Device::from_ptr` (ours) or the
//! seed's pointer arithmetic (C), and a release flag in ordinary memory that is already
//! released. The doorbell stores land in RAM instead of an uncached window, so this measures
//! the CPU work of the path, not the device's latency.
//!
//! `cargo bench -p gba-barrier --bench hot_path` runs criterion. With the environment variable
//! `GBA_HOT_PATH_CALLS=N` the binary instead makes N calls of each contender and exits: that is
//! what `benches/callgrind.sh` counts instructions over.

use std::alloc::{Layout, alloc_zeroed};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use gba_barrier::{Barrier, Diagnosis, Port, release_before_doorbell};
use gba_pac::Device;
use gba_pac::group::Group;
use gba_pac::tock_registers::interfaces::Writeable;

const GROUP: usize = 3;
const MEMBER: u32 = 5;
/// A flag that releases episodes 1 ..= 2^31 - 1 (serial comparison).
const RELEASED: u64 = (1 << 31) - 1;
/// Episodes run on one barrier before it is started again below the flag.
const CHUNK: u64 = 1 << 30;

/// A port over gba-pac's generated handles: the doorbell is a volatile store through
/// `Reg::set` after the release ordering of `release_before_doorbell`; the flag an acquire load.
struct PacPort {
    group: Group,
    flag: &'static AtomicU64,
}

impl Port for PacPort {
    fn group(&self) -> u32 {
        GROUP as u32
    }
    fn member(&self) -> u32 {
        MEMBER
    }
    #[inline(always)]
    fn ring(&self, word: u64) {
        release_before_doorbell();
        self.group.arrival().set(word);
    }
    #[inline(always)]
    fn flag(&self) -> u64 {
        self.flag.load(Ordering::Acquire)
    }
    fn diagnose(&self) -> Diagnosis {
        Diagnosis::default()
    }
}

#[repr(C)]
struct SeedDevice {
    base_addr: *mut u8,
}

#[repr(C)]
struct SeedState {
    release_flag: *const u64,
}

#[repr(C)]
struct SeedModule {
    device: *mut SeedDevice,
    local_state: SeedState,
    group_id: u32,
    member_id: u32,
    barrier_sequence: u32,
}

unsafe extern "C" {
    fn gba_seed_barrier(m: *mut SeedModule) -> i32;
    fn gba_seed_barrier_loop(m: *mut SeedModule, n: u64) -> u64;
    fn gba_seed_arrive_poll(
        d: *mut SeedDevice,
        s: *mut SeedState,
        group: u32,
        member: u32,
        seq: u32,
    ) -> bool;
    fn gba_seed_loop(d: *mut SeedDevice, s: *mut SeedState, group: u32, member: u32, n: u64)
    -> u64;
}

/// The stand-in register window: `Device::SIZE` zeroed bytes, page aligned, never freed, and
/// never referenced (only its address is kept).
fn window() -> *mut u8 {
    let layout = Layout::from_size_align(Device::SIZE, 4096).unwrap();
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { alloc_zeroed(layout) };
    assert!(!ptr.is_null(), "out of memory");
    ptr
}

struct Fixture {
    barrier: Barrier<PacPort>,
    seed_device: SeedDevice,
    seed_state: SeedState,
    seed_module: SeedModule,
}

fn fixture() -> Fixture {
    let base = window();
    // SAFETY: `base` is a live allocation of `Device::SIZE` bytes, 4096-aligned, never freed;
    // no reference to it exists, and it is touched only through the handles (volatile) and,
    // from one thread, by the C reference (volatile stores to the same register).
    let device = unsafe { Device::from_ptr(base) };
    let flag: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(RELEASED)));
    // The C reference's flag: released for every 32-bit sequence under its `>=`.
    let seed_flag: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(u64::MAX)));
    Fixture {
        barrier: Barrier::new(PacPort {
            group: device.group(GROUP).unwrap(),
            flag,
        }),
        seed_device: SeedDevice { base_addr: base },
        seed_state: SeedState {
            release_flag: seed_flag.as_ptr(),
        },
        seed_module: SeedModule {
            device: Box::leak(Box::new(SeedDevice { base_addr: base })),
            local_state: SeedState {
                release_flag: seed_flag.as_ptr(),
            },
            group_id: GROUP as u32,
            member_id: MEMBER,
            barrier_sequence: 0,
        },
    }
}

impl Fixture {
    /// Start the barrier again below the flag once a chunk of episodes has run.
    fn rewind_if_needed(&mut self, coming: u64) {
        if self.barrier.episode() + coming >= RELEASED {
            let port = PacPort {
                group: self.barrier.port().group,
                flag: self.barrier.port().flag,
            };
            self.barrier = Barrier::new(port);
        }
    }
}

/// Ours, as a function: one `wait` that finds the flag released, its `Result` passed on as a
/// runtime's barrier function would.
#[inline(never)]
fn ours_once(barrier: &mut Barrier<PacPort>) -> gba_barrier::Result<()> {
    barrier.wait(None)
}

/// Ours, inlined into a loop of `n` barriers.
#[inline(never)]
fn ours_loop(barrier: &mut Barrier<PacPort>, n: u64) -> u64 {
    let mut released = 0;
    for _ in 0..n {
        released += u64::from(barrier.wait(None).is_ok());
    }
    released
}

/// The C reference, as a function.
#[inline(never)]
fn seed_once(f: &mut Fixture, seq: u32) -> bool {
    // SAFETY: both pointers point to live `repr(C)` structs of the layout the C code declares;
    // the window and the flag they point to live for the whole program.
    unsafe {
        gba_seed_arrive_poll(
            &mut f.seed_device,
            &mut f.seed_state,
            GROUP as u32,
            MEMBER,
            seq,
        )
    }
}

fn seed_loop(f: &mut Fixture, n: u64) -> u64 {
    // SAFETY: as in `seed_once`.
    unsafe {
        gba_seed_loop(
            &mut f.seed_device,
            &mut f.seed_state,
            GROUP as u32,
            MEMBER,
            n,
        )
    }
}

/// The seed's barrier function (sequence kept in its module), as a function.
#[inline(never)]
fn seed_barrier_once(f: &mut Fixture) -> i32 {
    // SAFETY: the module is a live `repr(C)` struct of the C layout; its device and flag
    // pointers point to allocations that live for the whole program.
    unsafe { gba_seed_barrier(&mut f.seed_module) }
}

fn seed_barrier_loop(f: &mut Fixture, n: u64) -> u64 {
    // SAFETY: as in `seed_barrier_once`.
    unsafe { gba_seed_barrier_loop(&mut f.seed_module, n) }
}

fn bench(c: &mut Criterion) {
    let mut f = fixture();
    let mut g = c.benchmark_group("hot_path");
    g.bench_function("gba-barrier wait, inlined loop", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let n = left.min(CHUNK);
                f.rewind_if_needed(n);
                let start = Instant::now();
                assert_eq!(black_box(ours_loop(&mut f.barrier, n)), n);
                total += start.elapsed();
                left -= n;
            }
            total
        })
    });
    g.bench_function("seed C, inlined loop", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            assert_eq!(black_box(seed_loop(&mut f, iters)), iters);
            start.elapsed()
        })
    });
    g.bench_function("gba-barrier wait, function call", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let n = left.min(CHUNK);
                f.rewind_if_needed(n);
                let start = Instant::now();
                for _ in 0..n {
                    black_box(ours_once(&mut f.barrier)).unwrap();
                }
                total += start.elapsed();
                left -= n;
            }
            total
        })
    });
    g.bench_function("seed C, function call", |b| {
        let mut seq = 0u32;
        b.iter(|| {
            seq = seq.wrapping_add(1);
            black_box(seed_once(&mut f, seq))
        })
    });
    g.bench_function("seed C barrier function, inlined loop", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            assert_eq!(black_box(seed_barrier_loop(&mut f, iters)), iters);
            start.elapsed()
        })
    });
    g.bench_function("seed C barrier function, function call", |b| {
        b.iter(|| black_box(seed_barrier_once(&mut f)))
    });
    g.finish();
}

/// Count mode for callgrind: N calls of each contender, nothing else.
fn count(n: u64) {
    let mut f = fixture();
    let mut released = 0;
    for i in 1..=n {
        released += u64::from(ours_once(&mut f.barrier).is_ok());
        released += u64::from(seed_once(&mut f, i as u32));
        released += u64::from(seed_barrier_once(&mut f) == 0);
    }
    released += ours_loop(&mut f.barrier, n);
    released += seed_loop(&mut f, n);
    released += seed_barrier_loop(&mut f, n);
    assert_eq!(
        released,
        6 * n,
        "a contender did not find the flag released"
    );
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(n) = std::env::var("GBA_HOT_PATH_CALLS") {
        count(n.parse().expect("GBA_HOT_PATH_CALLS: a number of calls"));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
