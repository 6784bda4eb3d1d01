//! One member process of `cli/benches/lines.sh`: the cache lines of shared memory a barrier
//! episode touches, gba-sim against the software barriers, counted by valgrind (lackey) rather
//! than by reading the code.
//!
//! ```text
//! episode_lines DIR MEMBER MEMBERS EPISODES
//! ```
//!
//! Every member opens its own port of the fabric `DIR/fabric` (created beforehand, `gba sim
//! create`) and the software barriers' files in DIR (member 0 creates them), then runs
//! EPISODES barriers of each contender in turn, after a few untimed ones. Before and after
//! each contender's episodes it loads one of [`MARKS`], whose addresses it prints (with the
//! shared mappings, from /proc/self/maps) on standard error: the script cuts the memory trace
//! there and keeps only the accesses that fall in a shared mapping.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use gba_barrier::Wait;
use gba_barrier::hal::offload;
use gba_barrier::soft::{Algorithm, SoftBarrier};
use gba_hal::{Device, GroupConfig, MemberSet};
use gba_sim::SimBackend;

/// One word per contender and end (begin, end): loaded once each, to mark the trace.
static MARKS: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];
const WARM_UP: usize = 200;

fn mark(i: usize) {
    std::hint::black_box(MARKS[i].load(Ordering::SeqCst));
}

fn soft(
    dir: &Path,
    name: &str,
    algorithm: Algorithm,
    member: usize,
    members: usize,
) -> SoftBarrier<gba_barrier::soft::shm::ShmCells> {
    let path = dir.join(name);
    if member == 0 {
        return SoftBarrier::create(&path, algorithm, members, 0).expect("create the soft barrier");
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        match SoftBarrier::open(&path, member) {
            Ok(b) => return b,
            Err(e) if Instant::now() > deadline => panic!("open {}: {e}", path.display()),
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, member, members, episodes] = &args[..] else {
        eprintln!("usage: episode_lines DIR MEMBER MEMBERS EPISODES");
        std::process::exit(2);
    };
    let dir = Path::new(dir);
    let member: usize = member.parse().expect("MEMBER");
    let members: usize = members.parse().expect("MEMBERS");
    let episodes: usize = episodes.parse().expect("EPISODES");
    let device = Device::new(SimBackend::open(&dir.join("fabric"), member).expect("open the port"))
        .expect("a device");
    let all: MemberSet = (0..members).collect();
    let config = GroupConfig::new(0, all).timeout(Some(Duration::from_secs(120)));
    let mut contenders: Vec<(&str, Box<dyn Wait + '_>)> = vec![
        (
            "gba-sim",
            Box::new(offload(&device, config, None).expect("claim group 0")),
        ),
        (
            "central-counter",
            Box::new(soft(
                dir,
                "central",
                Algorithm::CentralCounter,
                member,
                members,
            )),
        ),
        (
            "dissemination",
            Box::new(soft(
                dir,
                "dissemination",
                Algorithm::Dissemination,
                member,
                members,
            )),
        ),
    ];
    let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
    let dir_text = dir.to_string_lossy();
    for line in maps.lines().filter(|l| l.contains(&*dir_text)) {
        eprintln!("MAP {line}");
    }
    legend(members);
    for (i, (name, _)) in contenders.iter().enumerate() {
        eprintln!("MARK {name} {:p} {:p}", &MARKS[2 * i], &MARKS[2 * i + 1]);
    }
    let wait = Some(Duration::from_secs(120));
    for (i, (_, barrier)) in contenders.iter_mut().enumerate() {
        for _ in 0..WARM_UP {
            barrier.wait(wait).expect("warm-up barrier");
        }
        mark(2 * i);
        for _ in 0..episodes {
            barrier.wait(wait).expect("barrier");
        }
        mark(2 * i + 1);
    }
    // Nobody leaves (and resets the group) before everyone is done.
    contenders[0].1.wait(wait).expect("last barrier");
}

/// Names for the switch file's words that an episode of group 0 may touch, by byte offset.
fn legend(members: usize) {
    use gba_sim::layout as l;
    let mut named = vec![
        (l::header_word(l::H_LOCK), "H_LOCK".to_string()),
        (l::header_word(l::H_STEPS), "H_STEPS".into()),
        (l::header_word(l::H_GROUPS_BUSY), "H_GROUPS_BUSY".into()),
        (l::header_word(l::H_KICKS), "H_KICKS".into()),
        (l::header_word(l::H_ALL_FAST), "H_ALL_FAST".into()),
        (l::header_word(l::H_LAST_STEP_NS), "H_LAST_STEP_NS".into()),
        (
            l::header_word(l::H_CONTROL_WRITTEN),
            "H_CONTROL_WRITTEN".into(),
        ),
        (l::group_word(0, l::G_FLAGS), "G_FLAGS".into()),
        (l::group_word(0, l::G_RELEASE_SEQ), "G_RELEASE_SEQ".into()),
        (l::group_word(0, l::G_MASK), "G_MASK".into()),
        (l::group_word(0, l::G_ARRIVED), "G_ARRIVED".into()),
        (l::fast_word(0, l::F_ARRIVAL_WORD), "F_ARRIVAL_WORD".into()),
        (l::fast_word(0, l::F_FLAG), "F_FLAG[0]".into()),
    ];
    for p in 0..members {
        named.push((l::port_word(p, l::P_DEAD), format!("port{p}.P_DEAD")));
        named.push((
            l::port_word(p, l::P_FAST_MEMBER),
            format!("port{p}.P_FAST_MEMBER[0]"),
        ));
    }
    for (offset, name) in named {
        eprintln!("LABEL switch {offset} {name}");
    }
}
