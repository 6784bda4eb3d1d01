//! Host combining on a UIO port (issue 13 on hardware backends): three processes, two of them
//! sharing port 0 as processes of one host, form a team over the UIO backend and run barriers
//! through a simulated switch. Each port's "device" is what a guest of the VM cluster sees,
//! laid out as a fake sysfs: the window is the fabric's `window-P` file (as the PCI resource
//! file), the DMA map (map 1) is the port's guest-RAM file from one page on (UIO maps region
//! N at offset N pages of the device file, and the switch writes RELEASE_ADDR as a
//! guest-physical address into that file). The switch is stepped by this process, as
//! `gba sim run` steps a VM fabric.
//!
//! Without a host segment on UIO the two processes of port 0 fall back (`PortShared`), or,
//! forced, the second configuration clobbers the first and its flag is never written.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use gba_barrier::AnyDevice;
use gba_barrier::team::{DirOob, Team, TeamParams, Verdict};
use gba_hal::DeviceAddress;
use gba_sim::vm::{guest_ram_file, window_file};
use gba_sim::{CreateOptions, Fabric};
use memmap2::{MmapOptions, MmapRaw};

const CHILD: &str = "GBA_UIO_HOST_TEST_CHILD";
const LIMIT: Option<Duration> = Some(Duration::from_secs(60));
const EPISODES: u64 = 150;
/// Rank r's port: ranks 0 and 1 are one host on port 0, rank 2 is port 1.
const PORTS: [usize; 3] = [0, 0, 1];
/// Bus address of map 1: the guest-physical address of the RAM file's second page.
const MAP1_ADDR: u64 = 0x1000;
const MAP1_SIZE: usize = 0x2000;

/// Port `p`'s UIO device in the fake sysfs under `root`: `root/dev/uioP`.
fn fake_uio(root: &Path, fabric: &Path, p: usize) -> PathBuf {
    let name = format!("uio{p}");
    let sysfs = root.join("sysfs");
    for (map, size, addr) in [(0, 0x100, 0xfe00_0000u64), (1, MAP1_SIZE, MAP1_ADDR)] {
        let dir = sysfs.join(format!("{name}/maps/map{map}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("size"), format!("{size:#x}\n")).unwrap();
        std::fs::write(dir.join("addr"), format!("{addr:#x}\n")).unwrap();
    }
    std::fs::create_dir_all(sysfs.join(format!("{name}/device"))).unwrap();
    std::os::unix::fs::symlink(
        window_file(fabric, p),
        sysfs.join(format!("{name}/device/resource2")),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("dev")).unwrap();
    let device = root.join("dev").join(&name);
    std::os::unix::fs::symlink(guest_ram_file(fabric, p), &device).unwrap();
    device
}

/// The independent check, in a file the barrier never touches: the episode each rank entered.
fn entered(path: &Path) -> MmapRaw {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    MmapOptions::new()
        .len(8 * PORTS.len())
        .map_raw(&file)
        .unwrap()
}

fn word(map: &MmapRaw, r: usize) -> &AtomicU64 {
    assert!(r < PORTS.len());
    // SAFETY: word r of the mapping (8 * PORTS.len() bytes, page-aligned), alive while the
    // borrow of `map` lasts; every process reaches the file only atomically.
    unsafe { AtomicU64::from_ptr(map.as_mut_ptr().cast::<u64>().add(r)) }
}

/// Entry point of a rank process (does nothing in a normal test run).
#[test]
#[ignore = "a child process of the tests in this file, started with --ignored"]
fn child_rank() {
    let Ok(spec) = std::env::var(CHILD) else {
        return;
    };
    let [root, rank] = spec.split('|').collect::<Vec<_>>()[..] else {
        panic!("bad {CHILD}: {spec}")
    };
    let (root, rank) = (PathBuf::from(root), rank.parse::<usize>().unwrap());
    let address = DeviceAddress::Uio(root.join(format!("dev/uio{}", PORTS[rank])));
    let device = AnyDevice::open(&address).unwrap();
    let mut oob = DirOob::new(root.join("oob"), rank, PORTS.len(), Duration::from_secs(60));
    let mut team = Team::create(
        Some(&device),
        &mut oob,
        rank as u32,
        PORTS.len() as u32,
        &TeamParams::default(),
    )
    .unwrap();
    let verdict = team.verdict().clone();
    println!("verdict {verdict}");
    assert!(
        matches!(verdict, Verdict::Offloaded { .. }),
        "rank {rank}: {verdict}"
    );
    let before = device.barriers_completed();
    let seen = entered(&root.join("entered"));
    for k in 1..=EPISODES {
        word(&seen, rank).store(k, Ordering::SeqCst);
        team.wait(LIMIT).unwrap();
        for r in 0..PORTS.len() {
            let other = word(&seen, r).load(Ordering::SeqCst);
            assert!(
                other >= k,
                "rank {rank} released from {k} before rank {r} entered it"
            );
        }
    }
    // The switch counts an episode in its bookkeeping step, which may come after the release
    // flag that ended the wait (the last arriver releases on the fast path): wait for the
    // count, bounded, and print what it is then.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while device.barriers_completed() - before < EPISODES && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    println!("completed {}", device.barriers_completed() - before);
}

#[test]
fn two_processes_of_a_host_share_a_uio_port_and_the_switch_counts_one_member() {
    let root = tempfile::tempdir_in("/dev/shm").unwrap_or_else(|_| tempfile::tempdir().unwrap());
    let fabric_dir = root.path().join("fabric");
    let options = CreateOptions {
        per_port_windows: true,
        guest_ram: Some(0x10000),
    };
    let fabric = Fabric::create_with(&fabric_dir, 2, options).unwrap();
    for p in 0..2 {
        fake_uio(root.path(), &fabric_dir, p);
    }
    std::fs::create_dir_all(root.path().join("oob")).unwrap();
    std::fs::create_dir_all(root.path().join("segments")).unwrap();
    std::fs::write(root.path().join("entered"), [0u8; 8 * PORTS.len()]).unwrap();

    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..PORTS.len())
        .map(|rank| {
            Command::new(&exe)
                .args(["--exact", "child_rank", "--ignored", "--nocapture"])
                .env(CHILD, format!("{}|{rank}", root.path().display()))
                .env(gba_hal::backends::UIO_SYSFS_ENV, root.path().join("sysfs"))
                .env(gba_hal::host::SEGMENT_DIR_ENV, root.path().join("segments"))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // The switch: stepped here until every rank is done (members of a VM fabric never step).
    let mut children: Vec<_> = children.into_iter().map(Some).collect();
    let mut outputs = vec![None; PORTS.len()];
    let deadline = Instant::now() + Duration::from_secs(120);
    while outputs.iter().any(Option::is_none) {
        fabric.step();
        std::thread::sleep(Duration::from_micros(20));
        for (child, output) in children.iter_mut().zip(&mut outputs) {
            if child
                .as_mut()
                .is_some_and(|c| c.try_wait().unwrap().is_some())
            {
                *output = Some(child.take().unwrap().wait_with_output().unwrap());
            }
        }
        if Instant::now() > deadline {
            for c in children.iter_mut().flatten() {
                let _ = c.kill();
            }
            panic!("the ranks did not finish in 120 s: {outputs:?}");
        }
    }
    for (rank, out) in outputs.into_iter().flatten().enumerate() {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "rank {rank} failed:\n{text}");
        assert!(text.contains("verdict offloaded"), "rank {rank}:\n{text}");
        // Every port counts every episode exactly once: port 0's two processes are one member.
        assert!(
            text.contains(&format!("completed {EPISODES}\n")),
            "rank {rank}:\n{text}"
        );
    }
    // One host segment for port 0's two processes, one for port 1.
    let segments = std::fs::read_dir(root.path().join("segments"))
        .unwrap()
        .count();
    assert_eq!(segments, 2);
}
