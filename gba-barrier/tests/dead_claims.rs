//! A job killed with SIGKILL mid-team leaves claims of dead processes and groups half
//! configured on the simulator's switch; the next job on the same fabric must complete (it
//! reclaims what the dead left), and every wait here is bounded, so a regression fails with a
//! message instead of hanging.
//!
//! The killed job is two separate processes (this test binary run again as a child), either on
//! ports 0 and 1 or both on port 0 (host combining), killed at several points: while the
//! winner of a claim waits for READY (its claim CLAIMING, its port joined, another member
//! never came; a team-mate on its port waiting for the claim), after the team was formed
//! (claims HELD, group READY), and while one rank has arrived at a barrier and the other has
//! not. The next job is what bench.sh's `raw_barrier` does — group 0 on ports 0 and 1, fixed —
//! or a team's formation, which must find the dead job's group free again; then a team.
//! Before the fix, the fixed-group job was refused (MASK_MISMATCH) or waited for READY until
//! its limit, and the dead job's group stayed busy switch-wide for ever.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use gba_barrier::AnyDevice;
use gba_barrier::team::{DirOob, Team, TeamParams};
use gba_hal::{DeviceAddress, GroupConfig, LocalTeam, MemberSet, TeamKey};

const CHILD_ENV: &str = "GBA_DEAD_CLAIMS_CHILD";

/// Every wait of the test and of its children: long enough never to be reached by a working
/// library on a loaded machine, short enough that a hang fails CI with a message.
const LIMIT: Duration = Duration::from_secs(60);

/// Run as a child process by the tests below: `MODE,FABRIC,PORT,RANK,SIZE,OOB-DIR`. Prints
/// `stage NAME` at each point the parent may kill it, then sleeps until killed. In an
/// ordinary test run the variable is unset and this does nothing.
#[test]
#[ignore = "a child process of the tests below, started with --ignored"]
fn child_member_until_killed() {
    let Ok(args) = std::env::var(CHILD_ENV) else {
        return;
    };
    let a: Vec<&str> = args.split(',').collect();
    let (mode, fabric, port) = (a[0], Path::new(a[1]), a[2].parse::<usize>().unwrap());
    let (rank, size) = (a[3].parse::<u32>().unwrap(), a[4].parse::<u32>().unwrap());
    let stage = |name: &str| println!("stage {name}");
    let device = AnyDevice::open(&DeviceAddress::sim(fabric, port)).expect("child opens");
    match mode {
        // Claims group 0 for ports 0, 1 and 2 as rank RANK of SIZE processes of one team on
        // this port: the first wins, configures and waits for a READY that never comes (port
        // 2 has nobody); a team-mate on the same port waits for the claim to be held.
        "claim" => {
            let members: MemberSet = [0, 1, 2].into_iter().collect();
            let team = LocalTeam {
                key: TeamKey::from_words([0x7e57, 0x7e57]).unwrap(),
                local: size,
                index: rank,
                rank,
            };
            let config = GroupConfig::new(0, members)
                .timeout(Some(LIMIT * 4))
                .team(team);
            stage("claiming");
            let result = device.barrier(config);
            panic!("the claim returned: {:?}", result.err());
        }
        "team" | "arrived" => {
            let mut oob = DirOob::new(a[5], rank as usize, size as usize, LIMIT);
            let mut team =
                Team::create(Some(&device), &mut oob, rank, size, &TeamParams::default())
                    .expect("the killed job's team forms");
            assert!(team.verdict().is_offloaded(), "{}", team.verdict());
            for _ in 0..10 {
                team.wait(Some(LIMIT)).expect("a barrier of the killed job");
            }
            stage("formed");
            if mode == "arrived" && rank == 0 {
                team.arrive().expect("rank 0 arrives");
                stage("arrived");
            }
        }
        other => panic!("unknown child mode {other}"),
    }
    std::thread::sleep(LIMIT * 10);
}

/// A child process and the lines it prints, read by a thread (so that waiting for a stage
/// is bounded).
struct Member {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Member {
    fn spawn(mode: &str, fabric: &Path, port: usize, rank: u32, size: u32, oob: &Path) -> Self {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "child_member_until_killed",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(
                CHILD_ENV,
                format!(
                    "{mode},{},{port},{rank},{size},{}",
                    fabric.display(),
                    oob.display()
                ),
            )
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn a member");
        let out = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in out.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Member { child, lines }
    }

    /// Waits (bounded) for the child to print `stage NAME`; kills it and fails otherwise.
    fn reach(&mut self, name: &str) {
        let want = format!("stage {name}");
        loop {
            match self.lines.recv_timeout(LIMIT) {
                Ok(line) if line.ends_with(&want) => return,
                Ok(_) => {}
                Err(e) => {
                    self.kill();
                    panic!("a member of the job to kill never reached stage {name:?} ({e:?})");
                }
            }
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill(); // SIGKILL
        let _ = self.child.wait();
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The claim record of `group` on `port` as `gba sim status` would show it, for messages.
fn claims(fabric: &Path, port: usize) -> String {
    match AnyDevice::open(&DeviceAddress::sim(fabric, port)) {
        Ok(d) => format!("{:?}", d.host_claims()),
        Err(e) => e.to_string(),
    }
}

/// Runs `f` on a thread and fails the test, naming `what`, if it has not finished within
/// [`LIMIT`] (the thread is left behind; the test process ends with the failure).
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(LIMIT * 3)
        .unwrap_or_else(|_| panic!("{what} did not finish: the library hung"))
}

/// The next job, as `raw_barrier` runs it: group 0 on ports 0 and 1, one thread (own device
/// value) per port, 100 barriers, every wait bounded.
fn raw_job(fabric: &Path) {
    let path = fabric.to_path_buf();
    let result = bounded("the next job's fixed group 0 (raw_barrier)", move || {
        let fabric = path;
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..2)
                .map(|port| {
                    let fabric = &fabric;
                    s.spawn(move || -> Result<(), String> {
                        let device = AnyDevice::open(&DeviceAddress::sim(fabric, port))
                            .map_err(|e| e.to_string())?;
                        let members: MemberSet = [0, 1].into_iter().collect();
                        let config = GroupConfig::new(0, members).timeout(Some(LIMIT));
                        let mut b = device
                            .barrier(config)
                            .map_err(|e| format!("port {port}: {e}"))?;
                        for _ in 0..100 {
                            b.wait(Some(LIMIT))
                                .map_err(|e| format!("port {port}: {e}"))?;
                        }
                        Ok(())
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .collect::<Vec<_>>()
        })
    });
    for r in result {
        r.unwrap_or_else(|e| {
            panic!(
                "the next job on the fabric failed: {e}\nclaims on port 0: {}\nclaims on port 1: {}",
                claims(fabric, 0),
                claims(fabric, 1)
            )
        });
    }
}

/// The next job as a team of two processes' worth (two threads, own devices) on ports 0 and 1:
/// it must offload, not fall back for want of a group.
fn team_job(fabric: &Path, oob: &Path) {
    let (fabric, oob) = (fabric.to_path_buf(), oob.to_path_buf());
    std::fs::create_dir_all(&oob).unwrap();
    let result = bounded("the next job's team", move || {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..2u32)
                .map(|rank| {
                    let (fabric, oob) = (&fabric, &oob);
                    s.spawn(move || -> Result<(), String> {
                        let device = AnyDevice::open(&DeviceAddress::sim(fabric, rank as usize))
                            .map_err(|e| e.to_string())?;
                        let mut oob = DirOob::new(oob, rank as usize, 2, LIMIT);
                        let mut team =
                            Team::create(Some(&device), &mut oob, rank, 2, &TeamParams::default())
                                .map_err(|e| e.to_string())?;
                        if !team.verdict().is_offloaded() {
                            return Err(format!("rank {rank} fell back: {}", team.verdict()));
                        }
                        for _ in 0..100 {
                            team.wait(Some(LIMIT))
                                .map_err(|e| format!("rank {rank}: {e}"))?;
                        }
                        Ok(())
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .collect::<Vec<_>>()
        })
    });
    for r in result {
        r.unwrap_or_else(|e| panic!("the next team on the fabric failed: {e}"));
    }
}

/// After the kill, the dead job's group is free again for a team (not busy on the switch for
/// ever, where a team's vote never picks it) once a process on each port it was on has asked
/// for free groups, as a team's formation does: each resets its own port's share.
fn groups_free_again(fabric: &Path, ports: &[usize]) {
    let devices: Vec<AnyDevice> = ports
        .iter()
        .map(|&p| AnyDevice::open(&DeviceAddress::sim(fabric, p)).unwrap())
        .collect();
    for d in &devices {
        d.free_groups();
    }
    for (d, port) in devices.iter().zip(ports) {
        let free = d.free_groups();
        assert!(
            free.contains(0),
            "group 0, held only by killed processes, is not free on port {port} ({free:?}); claims: {}",
            claims(fabric, *port)
        );
    }
}

/// What runs on the fabric after the kill.
#[derive(Clone, Copy)]
enum Next {
    /// `raw_barrier`'s job on fixed group 0 (its claims must clear what the dead left on
    /// every port), then a team.
    Raw,
    /// A team's formation asks each port for free groups: the dead job's group must be free
    /// again, and the team must offload.
    Team,
}

/// Kills a job of `mode` whose two ranks are on `ports`, at `stages` (one per rank), then
/// runs `next` on the same fabric.
fn killed_then_next(mode: &str, ports: [usize; 2], stages: [&str; 2], next: Next) {
    let (dir, fabric) = common::fabric(2);
    let oob = dir.path().join("oob-killed");
    std::fs::create_dir(&oob).unwrap();
    let mut members: Vec<Member> = (0..2)
        .map(|r| Member::spawn(mode, &fabric, ports[r], r as u32, 2, &oob))
        .collect();
    for (m, stage) in members.iter_mut().zip(stages) {
        m.reach(stage);
    }
    for m in &mut members {
        m.kill();
    }
    match next {
        Next::Raw => raw_job(&fabric),
        Next::Team => groups_free_again(&fabric, &ports),
    }
    team_job(&fabric, &dir.path().join("oob-next"));
}

/// A job on ports 0, 1 and 2 killed after forming; the next team is on ports 0 and 1 only,
/// and nobody opens port 2 again. Their free_groups must take over and reset port 2's dead
/// claim too (the simulator's fabric holds every port's host state). Before, port 2 kept group
/// 0 enabled, GROUPS_BUSY kept it busy switch-wide, and no team on ports 0 and 1 picked it
/// again until someone ran `gba sim fault reclaim` or opened port 2.
#[test]
fn killed_on_three_ports_then_a_team_on_two_of_them() {
    let (dir, fabric) = common::fabric(3);
    let oob = dir.path().join("oob-killed");
    std::fs::create_dir(&oob).unwrap();
    let mut members: Vec<Member> = (0..3)
        .map(|r| Member::spawn("team", &fabric, r, r as u32, 3, &oob))
        .collect();
    for m in &mut members {
        m.reach("formed");
    }
    drop(members);
    groups_free_again(&fabric, &[0, 1]);
    let port2 = AnyDevice::open(&DeviceAddress::sim(&fabric, 2)).unwrap();
    let there = port2.snapshot(0).unwrap();
    assert!(
        !there.enabled_here,
        "group 0 still enabled on port 2: {there:?}"
    );
    assert_eq!(
        port2.host_claims(),
        Vec::new(),
        "port 2's dead claim is freed"
    );
    team_job(&fabric, &dir.path().join("oob-next"));
}

/// Both ports' winners joined group 0 on the switch (for members 0, 1, 2; port 2 never
/// comes) and wait for READY, their claims CLAIMING.
#[test]
fn killed_while_the_winners_wait_for_ready_one_port_each() {
    let (dir, fabric) = common::fabric(3);
    let mut members = Vec::new();
    for port in [0, 1] {
        let mut m = Member::spawn("claim", &fabric, port, 0, 1, dir.path());
        m.reach("claiming");
        wait_for_claim(&fabric, port, 1);
        members.push(m);
    }
    wait_for_joined(&fabric, &[0, 1]);
    drop(members);
    raw_job(&fabric);
    team_job(&fabric, &dir.path().join("oob-next"));
}

/// Two processes of one team on port 0: the winner configured group 0 and waits for READY
/// (port 1 never comes), its team-mate waits for the claim to be held.
#[test]
fn killed_while_the_winner_waits_for_ready_shared_port() {
    let (dir, fabric) = common::fabric(3);
    let mut members: Vec<Member> = (0..2)
        .map(|r| Member::spawn("claim", &fabric, 0, r, 2, dir.path()))
        .collect();
    for m in &mut members {
        m.reach("claiming");
    }
    wait_for_claim(&fabric, 0, 1);
    wait_for_joined(&fabric, &[0]);
    drop(members);
    raw_job(&fabric);
    team_job(&fabric, &dir.path().join("oob-next"));
}

/// Waits (bounded) until group 0 on the switch shows `ports` joined.
fn wait_for_joined(fabric: &Path, ports: &[usize]) {
    let fabric = gba_sim::Fabric::open(fabric).unwrap();
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        let joined = fabric
            .group_reports()
            .iter()
            .find(|g| g.group == 0)
            .is_some_and(|g| ports.iter().all(|p| g.joined.contains(*p)));
        if joined {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "group 0 never showed ports {ports:?} joined"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits (bounded) until `port` shows `n` claims, so that a kill lands after the claim.
fn wait_for_claim(fabric: &Path, port: usize, n: usize) {
    let device = AnyDevice::open(&DeviceAddress::sim(fabric, port)).unwrap();
    let deadline = std::time::Instant::now() + LIMIT;
    while device.host_claims().len() < n {
        assert!(
            std::time::Instant::now() < deadline,
            "the member never claimed on port {port}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn killed_after_forming_one_port_each_then_raw_barrier() {
    killed_then_next("team", [0, 1], ["formed", "formed"], Next::Raw);
}

#[test]
fn killed_after_forming_one_port_each_then_a_team() {
    killed_then_next("team", [0, 1], ["formed", "formed"], Next::Team);
}

#[test]
fn killed_after_forming_on_a_shared_port_then_raw_barrier() {
    killed_then_next("team", [0, 0], ["formed", "formed"], Next::Raw);
}

#[test]
fn killed_after_forming_on_a_shared_port_then_a_team() {
    killed_then_next("team", [0, 0], ["formed", "formed"], Next::Team);
}

#[test]
fn killed_with_one_rank_arrived_one_port_each_then_raw_barrier() {
    killed_then_next("arrived", [0, 1], ["arrived", "formed"], Next::Raw);
}

#[test]
fn killed_with_one_rank_arrived_one_port_each_then_a_team() {
    killed_then_next("arrived", [0, 1], ["arrived", "formed"], Next::Team);
}

#[test]
fn killed_with_one_rank_arrived_on_a_shared_port_then_raw_barrier() {
    killed_then_next("arrived", [0, 0], ["arrived", "formed"], Next::Raw);
}

#[test]
fn killed_with_one_rank_arrived_on_a_shared_port_then_a_team() {
    killed_then_next("arrived", [0, 0], ["arrived", "formed"], Next::Team);
}
