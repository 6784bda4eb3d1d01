//! Many episodes on one group, from threads and from separate processes, checked by an
//! independent observer: no member leaves episode k before every member entered it.
//! The rates printed (run with --nocapture) are the simulator's episodes per second.

mod hal_common;
use hal_common as common;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use gba_hal::{Device, GroupConfig, MemberSet};
use gba_pac::tock_registers::interfaces::Readable;
use gba_sim::SimBackend;

const EPISODES: u64 = 10_000;
const TIMEOUT: Duration = Duration::from_secs(60);

/// The observer's memory: `entered[m]` is the last episode member m entered.
struct Entered<'a> {
    words: &'a [AtomicU64],
}

impl Entered<'_> {
    fn enter(&self, m: usize, k: u64) {
        self.words[m].store(k, Ordering::SeqCst);
    }

    /// Panics if some member has not entered episode k although member `m` left it.
    fn check_left(&self, m: usize, k: u64) {
        for (j, word) in self.words.iter().enumerate() {
            let seen = word.load(Ordering::SeqCst);
            assert!(
                seen >= k,
                "member {m} left episode {k} before member {j} entered it (at {seen})"
            );
        }
    }
}

/// One member's part: claim, then `episodes` episodes with the observer's checks.
fn member(
    device: &Device<SimBackend>,
    group: usize,
    members: &MemberSet,
    episodes: u64,
    entered: &Entered<'_>,
) {
    let g = device
        .claim(
            GroupConfig::new(group, *members)
                .timeout(Some(std::time::Duration::from_millis(60_000))),
        )
        .expect("configure");
    let me = g.member_id();
    let start = u64::from(g.start_sequence());
    for k in start + 1..=start + episodes {
        entered.enter(me, k - start);
        common::arrive(&g, k);
        if let Err(snapshot) = common::wait(&g, k, TIMEOUT) {
            panic!("member {me}, episode {k}: timed out: {snapshot}");
        }
        entered.check_left(me, k - start);
    }
    // Nobody may drop (and so leave) the group before everyone saw the last release.
    entered.enter(me, episodes + 1);
    let deadline = Instant::now() + TIMEOUT;
    while entered
        .words
        .iter()
        .any(|w| w.load(Ordering::SeqCst) <= episodes)
    {
        assert!(Instant::now() < deadline, "members never finished");
        device.progress();
        std::thread::yield_now();
    }
}

#[test]
fn two_threads_ten_thousand_episodes() {
    let (_dir, fabric) = common::fabric(2);
    let words: Vec<AtomicU64> = (0..2).map(|_| AtomicU64::new(0)).collect();
    let entered = Entered { words: &words };
    let all: MemberSet = [0, 1].into_iter().collect();
    let start = Instant::now();
    std::thread::scope(|s| {
        for p in 0..2 {
            let fabric = fabric.clone();
            let entered = &entered;
            s.spawn(move || member(&common::sim_device(&fabric, p), 4, &all, EPISODES, entered));
        }
    });
    let rate = EPISODES as f64 / start.elapsed().as_secs_f64();
    eprintln!("threads, 2 members: {EPISODES} episodes, {rate:.0} episodes/s");
    assert_eq!(fabric.global(0).barriers_completed().get(), EPISODES);
}

const CHILD_ENV: &str = "GBA_HAL_TEST_MEMBER";

/// Run as a child process by the test below (`<fabric>,<port>,<members>,<observer file>`).
#[test]
#[ignore = "a child process of two_processes_ten_thousand_episodes, started with --ignored"]
fn child_member() {
    let Ok(args) = std::env::var(CHILD_ENV) else {
        return;
    };
    let parts: Vec<&str> = args.split(',').collect();
    let (fabric, observer) = (parts[0], parts[3]);
    let port: usize = parts[1].parse().unwrap();
    let count: usize = parts[2].parse().unwrap();
    let device = common::open_sim(fabric, port);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(observer)
        .unwrap();
    let map = memmap2::MmapOptions::new()
        .len(8 * count)
        .map_raw(&file)
        .unwrap();
    let shared: &[AtomicU64] = {
        // SAFETY: the mapping is 8 * count bytes, page-aligned, lives until this function
        // returns, and every process of the test accesses it only atomically; a slice of
        // atomics claims nothing about the memory staying unchanged.
        unsafe { std::slice::from_raw_parts(map.as_mut_ptr().cast::<AtomicU64>(), count) }
    };
    let all: MemberSet = (0..count).collect();
    member(&device, 6, &all, EPISODES, &Entered { words: shared });
}

fn spawn_members(fabric: &Path, count: usize, observer: &Path) -> Vec<std::process::Child> {
    (0..count)
        .map(|p| {
            Command::new(std::env::current_exe().unwrap())
                .args(["--exact", "child_member", "--ignored", "--nocapture"])
                .env(
                    CHILD_ENV,
                    format!("{},{p},{count},{}", fabric.display(), observer.display()),
                )
                // The child's own "test result" line would count as a test of this run; its
                // failures still reach stderr and its exit status.
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("spawn a member process")
        })
        .collect()
}

#[test]
fn two_processes_ten_thousand_episodes() {
    let (dir, fabric) = common::fabric(2);
    let observer = dir.path().join("observer");
    std::fs::write(&observer, vec![0u8; 16]).unwrap();
    let start = Instant::now();
    let children = spawn_members(&dir.path().join("fabric"), 2, &observer);
    for mut child in children {
        assert!(child.wait().unwrap().success(), "a member process failed");
    }
    let rate = EPISODES as f64 / start.elapsed().as_secs_f64();
    eprintln!("processes, 2 members: {EPISODES} episodes, {rate:.0} episodes/s (incl. start-up)");
    assert_eq!(fabric.global(1).barriers_completed().get(), EPISODES);
}
