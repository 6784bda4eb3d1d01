//! Software barriers between OS processes over a shared-memory file: the test binary re-runs
//! itself as the member processes (`child_member`, steered by an environment variable), and
//! every member checks, through a second shared file the barrier never touches, that nobody
//! left episode k before everyone entered it.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use gba_barrier::soft::shm::{ShmBarrier, ShmError};
use gba_barrier::soft::{Algorithm, SoftBarrier};
use memmap2::MmapRaw;

const CHILD: &str = "GBA_BARRIER_TEST_CHILD";
const TIMEOUT: Option<Duration> = Some(Duration::from_secs(60));

/// Files removed when the test ends, however it ends.
struct Cleanup(Vec<PathBuf>);
impl Drop for Cleanup {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

fn shm_path(tag: &str) -> PathBuf {
    let dir = Path::new("/dev/shm");
    let dir = if dir.is_dir() {
        dir.to_owned()
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("gba-barrier-test-{}-{tag}", std::process::id()))
}

/// The independent check: one `u64` per member ("entered episode"), in a shared file.
struct Entered {
    map: MmapRaw,
    members: usize,
}

impl Entered {
    fn create(path: &Path, members: usize) -> Self {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .unwrap();
        f.set_len(8 * members as u64).unwrap();
        Self::open(path, members)
    }

    fn open(path: &Path, members: usize) -> Self {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .unwrap();
        let map = MmapRaw::map_raw(&f).unwrap();
        assert!(map.len() >= 8 * members);
        Entered { map, members }
    }

    fn word(&self, m: usize) -> &AtomicU64 {
        assert!(m < self.members);
        // SAFETY: the mapping is page aligned and at least 8 * members bytes (checked in
        // `open`), so word m is in bounds and aligned; it lives as long as `self`; every
        // process touches these bytes only through atomics.
        unsafe { AtomicU64::from_ptr(self.map.as_mut_ptr().add(8 * m).cast()) }
    }
}

/// One member's run: `episodes` barriers with the check.
fn member_run(barrier: &mut ShmBarrier, entered: &Entered, episodes: u64) {
    let me = barrier.member();
    for k in 1..=episodes {
        entered.word(me).store(k, Ordering::SeqCst);
        barrier.wait(TIMEOUT).unwrap();
        for m in 0..entered.members {
            let e = entered.word(m).load(Ordering::SeqCst);
            assert!(
                e >= k,
                "process member {me} left episode {k} while member {m} had entered only {e}"
            );
        }
    }
}

/// Entry point of a member process (does nothing in a normal test run).
#[test]
#[ignore = "a child process of the tests in this file, started with --ignored"]
fn child_member() {
    let Ok(spec) = std::env::var(CHILD) else {
        return;
    };
    let parts: Vec<&str> = spec.split('|').collect();
    let [barrier_path, entered_path, member, members, episodes] = parts[..] else {
        panic!("bad {CHILD}: {spec}")
    };
    let (member, members, episodes) = (
        member.parse().unwrap(),
        members.parse().unwrap(),
        episodes.parse().unwrap(),
    );
    let mut barrier = SoftBarrier::open(Path::new(barrier_path), member).unwrap();
    let entered = Entered::open(Path::new(entered_path), members);
    member_run(&mut barrier, &entered, episodes);
}

fn run_processes(algorithm: Algorithm, members: usize, episodes: u64) {
    let tag = format!("{}-{members}", algorithm.name());
    let (bpath, epath) = (
        shm_path(&format!("{tag}-barrier")),
        shm_path(&format!("{tag}-entered")),
    );
    let _cleanup = Cleanup(vec![bpath.clone(), epath.clone()]);
    let entered = Entered::create(&epath, members);
    let mut barrier = SoftBarrier::create(&bpath, algorithm, members, 0).unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (1..members)
        .map(|m| {
            Command::new(&exe)
                .args([
                    "--exact",
                    "child_member",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env(
                    CHILD,
                    format!(
                        "{}|{}|{m}|{members}|{episodes}",
                        bpath.display(),
                        epath.display()
                    ),
                )
                // Captured: the child's own "test result" lines must not count as tests here.
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    member_run(&mut barrier, &entered, episodes);
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a member process failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn central_counter_processes() {
    run_processes(Algorithm::CentralCounter, 3, 2000);
}

#[test]
fn dissemination_processes() {
    run_processes(Algorithm::Dissemination, 5, 2000);
}

#[test]
fn open_refuses_taken_and_out_of_range_members_and_non_barriers() {
    let path = shm_path("refusals");
    let junk = shm_path("junk");
    let _cleanup = Cleanup(vec![path.clone(), junk.clone()]);
    let b0 = SoftBarrier::create(&path, Algorithm::Dissemination, 2, 0).unwrap();
    assert!(matches!(
        SoftBarrier::create(&path, Algorithm::Dissemination, 2, 1),
        Err(ShmError::Io { op: "create", .. })
    ));
    let err = SoftBarrier::open(&path, 0).unwrap_err();
    assert!(
        matches!(err, ShmError::MemberTaken { member: 0, pid, .. } if pid == u64::from(std::process::id())),
        "{err:?}"
    );
    let err = SoftBarrier::open(&path, 2).unwrap_err();
    assert!(
        matches!(
            err,
            ShmError::MemberOutOfRange {
                member: 2,
                members: 2,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("out of range"), "{err}");
    // Dropping a handle frees its member.
    drop(b0);
    let b0 = SoftBarrier::open(&path, 0).unwrap();
    assert_eq!(
        (b0.member(), b0.members(), b0.name()),
        (0, 2, "dissemination-shm")
    );

    std::fs::write(&junk, vec![7u8; 4096]).unwrap();
    assert!(matches!(
        SoftBarrier::open(&junk, 0),
        Err(ShmError::NotABarrier { .. })
    ));
    assert!(matches!(
        SoftBarrier::open(&shm_path("absent"), 0),
        Err(ShmError::Io { op: "open", .. })
    ));
    assert!(matches!(
        SoftBarrier::create(&shm_path("zero"), Algorithm::CentralCounter, 0, 0),
        Err(ShmError::BadMemberCount { members: 0 })
    ));
}
