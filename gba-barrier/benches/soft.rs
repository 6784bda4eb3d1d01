//! Software barriers, two members: mean time per barrier episode for each algorithm, over heap
//! cells (threads), over a shared-memory file (the process variant, its members here threads
//! of one process) and `std::sync::Barrier`. The peers of the GBA path in `gba bench`.
//!
//! `cargo bench -p gba-barrier --bench soft`. Each measurement runs the same number of
//! episodes on a peer thread; this machine's cache-line transfer time changes by 5x within
//! seconds, so compare contenders of one run only.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use gba_barrier::Wait;
use gba_barrier::soft::{Algorithm, SoftBarrier, StdBarrier};

const TIMEOUT: Option<Duration> = Some(Duration::from_secs(60));

/// Time `iters` episodes of a two-member barrier, the other member on its own thread.
fn episodes<W: Wait + Send + 'static>(mut pair: Vec<W>, iters: u64) -> Duration {
    let mut peer = pair.pop().unwrap();
    let mut me = pair.pop().unwrap();
    let t = std::thread::spawn(move || {
        for _ in 0..iters {
            peer.wait(TIMEOUT).unwrap();
        }
    });
    me.wait(TIMEOUT).unwrap(); // both running before the clock starts
    let start = Instant::now();
    for _ in 1..iters {
        me.wait(TIMEOUT).unwrap();
    }
    let elapsed = start.elapsed();
    t.join().unwrap();
    elapsed
}

fn shm_pair(algorithm: Algorithm) -> (Vec<SoftBarrier<gba_barrier::soft::shm::ShmCells>>, PathBuf) {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        "/dev/shm".into()
    } else {
        std::env::temp_dir()
    };
    let path = dir.join(format!(
        "gba-barrier-bench-{}-{}",
        std::process::id(),
        algorithm.name()
    ));
    let _ = std::fs::remove_file(&path);
    let b0 = SoftBarrier::create(&path, algorithm, 2, 0).unwrap();
    let b1 = SoftBarrier::open(&path, 1).unwrap();
    std::fs::remove_file(&path).unwrap(); // the mappings stay valid
    (vec![b0, b1], path)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("soft_2_members");
    for algorithm in [Algorithm::CentralCounter, Algorithm::Dissemination] {
        g.bench_function(format!("{}-threads", algorithm.name()), |b| {
            b.iter_custom(|iters| episodes(SoftBarrier::threads(algorithm, 2), iters.max(2)))
        });
        g.bench_function(format!("{}-shm", algorithm.name()), |b| {
            b.iter_custom(|iters| episodes(shm_pair(algorithm).0, iters.max(2)))
        });
    }
    g.bench_function("std-barrier-threads", |b| {
        b.iter_custom(|iters| episodes(StdBarrier::threads(2), iters.max(2)))
    });
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
