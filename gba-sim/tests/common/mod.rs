//! A host driving a simulated port with nothing but the generated registers, the way the
//! datasheet describes (docs/datasheet.md section 4), so that the switch is tested independently of
//! gba-hal.

#![allow(dead_code)] // each test file uses a different part

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use gba_hal::DmaRegion;
use gba_pac::group::{ARRIVAL, CONTROL, LOCAL_MEMBER_ID, MEMBER_COUNT, STATUS};
use gba_pac::tock_registers::interfaces::{Readable, Writeable};
use gba_sim::Fabric;

/// A port as a host without gba-hal sees it: the fabric's window, arena and stepper.
pub struct Port {
    fabric: Arc<Fabric>,
    number: usize,
}

impl Port {
    pub fn window(&self) -> gba_pac::Device<gba_pac::common::Atomic> {
        self.fabric.window(self.number)
    }

    pub fn number(&self) -> usize {
        self.number
    }

    pub fn progress(&self) {
        self.fabric.progress_waiting();
    }
}

pub fn fabric(ports: usize) -> (tempfile::TempDir, Arc<Fabric>) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let fabric = Fabric::create(&dir.path().join("fabric"), ports).expect("create fabric");
    (dir, Arc::new(fabric))
}

pub fn mask_of(members: &[usize]) -> [u64; 12] {
    let mut mask = [0u64; 12];
    for &m in members {
        mask[m / 64] |= 1 << (m % 64);
    }
    mask
}

/// One member's host side of one group.
pub struct Member {
    pub port: Port,
    pub group: usize,
    pub flag: DmaRegion,
    pub episode: u32,
}

impl Member {
    pub fn new(fabric: &Arc<Fabric>, port: usize, group: usize) -> Member {
        let flag = fabric.alloc_dma(port, 64).expect("flag");
        let port = Port {
            fabric: fabric.clone(),
            number: port,
        };
        Member {
            port,
            group,
            flag,
            episode: 0,
        }
    }

    pub fn regs(&self) -> gba_pac::group::Group<gba_pac::common::Atomic> {
        self.port.window().group(self.group).expect("group index")
    }

    /// RESET, wait for it to clear, then write the configuration and ENABLE|ARM.
    pub fn configure(&self, members: &[usize]) {
        self.configure_raw(
            mask_of(members),
            members.len() as u32,
            self.port.number() as u32,
            self.flag.iova,
        );
    }

    pub fn configure_raw(&self, mask: [u64; 12], count: u32, local: u32, release_addr: u64) {
        let regs = self.regs();
        regs.control().write(CONTROL::RESET::SET);
        while regs.control().is_set(CONTROL::RESET) {
            self.port.progress();
        }
        self.enable(mask, count, local, release_addr);
    }

    /// The configuration and ENABLE|ARM of a group never configured on this port (no RESET
    /// first, so no step on this thread).
    pub fn configure_fresh(&self, members: &[usize]) {
        self.enable(
            mask_of(members),
            members.len() as u32,
            self.port.number() as u32,
            self.flag.iova,
        );
    }

    fn enable(&self, mask: [u64; 12], count: u32, local: u32, release_addr: u64) {
        let regs = self.regs();
        for (w, word) in mask.iter().enumerate() {
            regs.member_mask(w).unwrap().set(*word);
        }
        regs.member_count().write(MEMBER_COUNT::COUNT.val(count));
        regs.local_member_id().write(LOCAL_MEMBER_ID::ID.val(local));
        regs.release_addr().set(release_addr);
        // The configuration happens before ENABLE for the switch, which reads CONTROL with
        // acquire (a release fence, then the store: what a release store of CONTROL does).
        std::sync::atomic::fence(std::sync::atomic::Ordering::Release);
        regs.control()
            .write(CONTROL::ENABLE::SET + CONTROL::ARM::SET);
    }

    /// Steps until READY or ERROR; returns the error code's name, if any.
    pub fn wait_configured(&mut self) -> Option<String> {
        loop {
            let status = self.regs().status().extract();
            if status.is_set(STATUS::ERROR) {
                return Some(gba_sim::error_name(status.read(STATUS::ERROR_CODE)));
            }
            if status.is_set(STATUS::READY) {
                self.sync_episode();
                return None;
            }
            self.port.progress();
            std::thread::yield_now();
        }
    }

    /// Takes the episode counter from RELEASE_SEQ (a group may start anywhere) and sets the
    /// flag to it: a zeroed flag would read as released for a sequence near 2^32, and the
    /// switch never moves a flag backwards.
    pub fn sync_episode(&mut self) {
        self.episode = self.regs().release_seq().get() as u32;
        // SAFETY: as in `flag`; the switch writes the flag only at a release, which cannot
        // happen before this member arrives.
        unsafe { AtomicU64::from_ptr(self.flag.host.as_ptr().cast()) }
            .store(u64::from(self.episode), Ordering::Release);
    }

    /// Rings the doorbell for the next episode (a release store); returns the word rung.
    pub fn arrive(&mut self) -> u64 {
        self.episode = self.episode.wrapping_add(1);
        let word = (ARRIVAL::MEMBER_ID.val(self.port.number() as u64)
            + ARRIVAL::SEQUENCE.val(u64::from(self.episode)))
        .value;
        self.regs().arrival().set_release(word);
        word
    }

    pub fn flag(&self) -> u32 {
        // SAFETY: the flag is an 8-aligned word of the live arena that only the switch writes,
        // atomically; every access to it is atomic.
        unsafe { AtomicU64::from_ptr(self.flag.host.as_ptr().cast()) }.load(Ordering::Acquire)
            as u32
    }

    pub fn released(&self) -> bool {
        (self.flag().wrapping_sub(self.episode) as i32) >= 0
    }

    /// Steps until released; `None` if `max_steps` pass first.
    pub fn wait(&self, max_steps: usize) -> Option<()> {
        for _ in 0..max_steps {
            if self.released() {
                return Some(());
            }
            self.port.progress();
            std::thread::yield_now();
        }
        self.released().then_some(())
    }

    pub fn error(&self) -> Option<String> {
        let status = self.regs().status().extract();
        status
            .is_set(STATUS::ERROR)
            .then(|| gba_sim::error_name(status.read(STATUS::ERROR_CODE)))
    }
}

/// Members `0..n` of group `group`, configured and READY.
pub fn formed(fabric: &Arc<Fabric>, group: usize, n: usize) -> Vec<Member> {
    let all: Vec<usize> = (0..n).collect();
    let mut members: Vec<Member> = all.iter().map(|&p| Member::new(fabric, p, group)).collect();
    for m in &members {
        m.configure(&all);
    }
    for m in &mut members {
        assert_eq!(
            m.wait_configured(),
            None,
            "member {} configured",
            m.port.number()
        );
    }
    members
}
