//! A GBA port through the kernel driver `gba.ko` (`driver/`): `/dev/gbaN`, the path for nodes
//! several users share (ARCHITECTURE.md, "Trust on a shared node").
//!
//! The driver arbitrates the port's groups: a claim is an ioctl on an open file, the driver
//! writes the group's configuration (member set, local id, RELEASE_ADDR into DMA memory it
//! allocated) and frees the group when the last file of the claim is released. This backend
//! opens the device once more per claim, so leaving a group is closing that file.
//!
//! The driver maps no configuration page and no global page, so [`window`](Backend::window) is
//! a private copy of the window: its global block is filled from `GBA_IOC_INFO` when the port is
//! opened, and each held group's run-time page (CONTROL, STATUS, ARRIVAL, RELEASE_SEQ) is the
//! device's own page, mapped over the copy at its offset with `MAP_FIXED` while the group is
//! held. What the HAL writes into a configuration page lands in the copy and changes nothing:
//! the driver has written the real one. The hot path (a store to ARRIVAL, a load of the flag)
//! touches only the device's page and the driver's flag memory.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Mutex;

use gba_pac::common::Volatile;

use super::kernel_abi as abi;
use super::revoked::{Watched, watch};
// The driver's member words are a `MemberSet`'s (a claim copies one into the other).
const _: () = assert!(abi::MEMBER_WORDS == crate::members::WORDS);
// A team key is the driver's `key[2]`.
const _: () = assert!(abi::KEY_BYTES == crate::TeamKey::BYTES);
use crate::TeamKey;
use crate::arbiter::{Claim, ClaimReport, ClaimState, HostArbiter, LocalSlot, Refusal};
use crate::backend::{Backend, DmaError, DmaRegion, LocalArrivals, LocalTeam};
use crate::members::{GroupSet, MemberSet};

/// Bytes of a run-time page (the driver maps exactly one).
const PAGE: usize = 4096;

/// Why a port of the kernel driver could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum KernelError {
    /// The device node could not be opened.
    #[error(
        "cannot open {} (is gba.ko loaded, and are you in the group the udev rule names? docs/admin.md)",
        path.display()
    )]
    Open {
        /// The device node.
        path: PathBuf,
        #[source]
        /// The operating system's error.
        source: io::Error,
    },
    /// The node does not answer the driver's GBA_IOC_INFO.
    #[error("{} does not answer GBA_IOC_INFO: is it a GBA port of gba.ko?", path.display())]
    Info {
        /// The device node.
        path: PathBuf,
        #[source]
        /// The operating system's error.
        source: io::Error,
    },
    /// No random team key could be drawn.
    #[error("cannot draw a random team key for {} (getrandom)", path.display())]
    Key {
        /// The device node.
        path: PathBuf,
        #[source]
        /// The operating system's error.
        source: io::Error,
    },
    /// The address space for the window copy could not be reserved.
    #[error("cannot reserve {len:#x} bytes for {}'s window", path.display())]
    Reserve {
        /// The device node.
        path: PathBuf,
        /// Bytes.
        len: usize,
        #[source]
        /// The operating system's error.
        source: io::Error,
    },
}

/// One group this backend value holds: its own open file of the device and the driver's
/// shared memory (flag, arrivals, entered words) mapped from it.
#[derive(Debug)]
struct Held {
    file: File,
    shared: NonNull<u8>,
    /// The shared mapping's range, answered by name should the driver revoke it.
    watched: Option<Watched>,
    flag_iova: u64,
    local: u32,
    index: u32,
}

// SAFETY: `shared` is a mapping owned by this value, reached only atomically.
unsafe impl Send for Held {}

/// A port of the GBA kernel driver (`driver/gba.ko`, `/dev/gbaN`): the driver arbitrates
/// claims and configures groups; this process maps only what its claims are given.
#[derive(Debug)]
pub struct KernelBackend {
    path: PathBuf,
    /// `path` as refusals name it (interned: a [`Refusal`] is `Copy`).
    name: &'static str,
    file: File,
    /// The private copy of the window (module doc), `Device::SIZE` bytes, page-aligned.
    window: NonNull<u8>,
    /// Per group (`abi::GROUPS` entries), the claim this value holds.
    held: Mutex<Vec<Option<Held>>>,
    /// The window's range (the run-time pages are mapped into it), answered by name should
    /// the driver revoke them.
    watched: Option<Watched>,
    /// The team key of a claim made alone (`team` = None): 128 random bits per backend value.
    token: TeamKey,
    host_key: Option<u64>,
}

// SAFETY: the window is a mapping this value owns; the held table is behind a mutex.
unsafe impl Send for KernelBackend {}
// SAFETY: as for Send: every shared access goes through the mutex or is a volatile/atomic
// access to memory that tolerates concurrent use.
unsafe impl Sync for KernelBackend {}

/// `ioctl(fd, request, arg)`, the error as `io::Error`.
///
/// # Safety
///
/// `arg` points to the structure `request` reads and writes, of its size.
unsafe fn ioctl<T>(fd: &File, request: u64, arg: *mut T) -> io::Result<()> {
    // SAFETY: forwarded from the caller; the request type differs between C libraries.
    if unsafe { libc::ioctl(fd.as_raw_fd(), request as _, arg) } < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn open_device(path: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open(path)
}

/// `GBA_IOC_INFO` on `file`.
pub fn info(file: &File) -> io::Result<abi::Info> {
    let mut info = abi::Info::default();
    // SAFETY: GBA_IOC_INFO writes a `struct gba_info`, which `abi::Info` mirrors (tested).
    unsafe { ioctl(file, abi::IOC_INFO, &mut info) }?;
    Ok(info)
}

/// `GBA_IOC_CLAIMS` on `file`: every claim of the port.
pub fn claims(file: &File) -> io::Result<Vec<abi::ClaimEntry>> {
    let mut all = abi::Claims::default();
    // SAFETY: GBA_IOC_CLAIMS writes a `struct gba_claims`, which `abi::Claims` mirrors.
    unsafe { ioctl(file, abi::IOC_CLAIMS, &mut all) }?;
    let n = (all.count as usize).min(abi::GROUPS);
    Ok(all.entries[..n].to_vec())
}

/// `GBA_IOC_LOCALS` on `file`: the files of group `group`'s claim (none when it is free).
pub fn locals(file: &File, group: usize) -> io::Result<Vec<abi::Local>> {
    let mut all = abi::Locals {
        group: group as u32,
        ..Default::default()
    };
    // SAFETY: GBA_IOC_LOCALS reads `group` and writes a `struct gba_locals`, which
    // `abi::Locals` mirrors (tested).
    unsafe { ioctl(file, abi::IOC_LOCALS, &mut all) }?;
    let n = (all.count as usize).min(abi::MAX_LOCAL);
    Ok(all.entries[..n].to_vec())
}

/// Why the driver refused a claim with `errno` (GBA_IOC_CLAIM's, or opening the node again
/// for it), on the port opened as `device`. `ENODEV` on a file is the driver's revoke (the
/// port was removed, unbound or reset); a node that is gone (`ENOENT`, `ENXIO`) is the same
/// event seen from its name.
fn errno_refusal(errno: Option<i32>, device: &'static str, opening: bool) -> Refusal {
    let reason = match errno {
        Some(libc::ENODEV | libc::ENOENT | libc::ENXIO) => return Refusal::Revoked { device },
        _ if opening => "the kernel driver's device node could not be opened again for the claim",
        Some(libc::EDOM) => {
            "the kernel driver refused the member set: it must hold this port and no member past MAX_MEMBERS"
        }
        Some(libc::EINVAL) => {
            "the kernel driver refused the claim's arguments (group, team key 0, local count or index)"
        }
        _ => "GBA_IOC_CLAIM failed (see the kernel log)",
    };
    Refusal::Arbiter { reason }
}

impl KernelBackend {
    /// Opens the port at `path` (`/dev/gba0`).
    pub fn open(path: &Path) -> Result<Self, KernelError> {
        let file = open_device(path).map_err(|source| KernelError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        let info = info(&file).map_err(|source| KernelError::Info {
            path: path.to_path_buf(),
            source,
        })?;
        let len = gba_pac::Device::SIZE;
        // SAFETY: a fresh private anonymous mapping: no existing memory is affected.
        let ptr = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(KernelError::Reserve {
                path: path.to_path_buf(),
                len,
                source: io::Error::last_os_error(),
            });
        }
        let Some(window) = NonNull::new(ptr.cast::<u8>()) else {
            return Err(KernelError::Reserve {
                path: path.to_path_buf(),
                len,
                source: io::Error::other("mmap gave address 0"),
            });
        };
        let backend = KernelBackend {
            path: path.to_path_buf(),
            name: crate::host::intern(&path.display().to_string()),
            file,
            window,
            held: Mutex::new((0..abi::GROUPS).map(|_| None).collect()),
            watched: watch(window.as_ptr(), len, path),
            // The key of a claim made alone, which no other process can guess (the driver
            // compares keys in constant time and answers a wrong key as it answers another
            // user's claim): from getrandom, or no backend.
            token: TeamKey::random().ok_or_else(|| KernelError::Key {
                path: path.to_path_buf(),
                source: io::Error::last_os_error(),
            })?,
            host_key: host_key(path, info.port_id),
        };
        backend.fill_global(&info);
        Ok(backend)
    }

    /// The global block of the window copy, from `info`.
    fn fill_global(&self, info: &abi::Info) {
        use gba_pac::global::offset as o;
        let base = self.window.as_ptr();
        let put32 = |offset: usize, value: u32| {
            // SAFETY: offset is a register of the global block, inside the window copy this
            // value owns, 4-aligned; written volatilely like every access to the window.
            unsafe { base.add(offset).cast::<u32>().write_volatile(value) }
        };
        put32(o::DEVICE_ID, info.device_id);
        put32(o::VERSION, info.version);
        put32(o::CAPS, info.caps);
        put32(o::PORT_ID, info.port_id);
        put32(o::GROUP_ENABLED, info.group_enabled);
        put32(o::GROUPS_BUSY, info.groups_busy);
        // SAFETY: as for put32, 8-aligned.
        unsafe {
            base.add(o::BARRIERS_COMPLETED)
                .cast::<u64>()
                .write_volatile(info.barriers_completed)
        }
    }

    /// Every claim of the port, with its uid.
    pub(crate) fn claims(&self) -> io::Result<Vec<abi::ClaimEntry>> {
        claims(&self.file)
    }

    /// The port's identity and counters, read now.
    pub(crate) fn info(&self) -> io::Result<abi::Info> {
        info(&self.file)
    }

    /// Barriers the port has completed, in every group, since the device was reset (the
    /// driver's `GBA_IOC_INFO`; the window's own counter is not mapped under the driver).
    pub fn barriers_completed(&self) -> io::Result<u64> {
        self.info().map(|i| i.barriers_completed)
    }

    /// [`HostArbiter::claim`]: the driver's claim on a file of its own; won or joined, the
    /// group comes configured by the driver ([`Claim::Configured`]).
    fn claim(&self, group: usize, team: Option<&LocalTeam>, members: &MemberSet) -> Claim {
        let Some(run) = run_offset(group) else {
            return Claim::Busy;
        };
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held[group].is_some() {
            // A second Group over one backend value.
            return Claim::Busy;
        }
        // A team's key is the one its vote agreed on (gba-barrier: rank 0's, 128 bits from
        // getrandom), both words of it the driver's key[0] and key[1].
        let (key, local, index, rank) =
            team.map_or((self.token, 1, 0, 0), |t| (t.key, t.local, t.index, t.rank));
        let mut req = abi::ClaimReq {
            group: group as u32,
            local,
            index,
            key: key.words(),
            rank,
            ..Default::default()
        };
        req.members
            .copy_from_slice(&members.words()[..abi::MEMBER_WORDS]);
        let file = match open_device(&self.path) {
            Ok(file) => file,
            Err(e) => return Claim::Refused(errno_refusal(e.raw_os_error(), self.name, true)),
        };
        // SAFETY: GBA_IOC_CLAIM reads and writes a `struct gba_claim_req` (mirrored, tested).
        if let Err(e) = unsafe { ioctl(&file, abi::IOC_CLAIM, &mut req) } {
            return Claim::Refused(errno_refusal(e.raw_os_error(), self.name, false));
        }
        match req.result {
            abi::CLAIM_WON | abi::CLAIM_JOINED if req.run_offset == run as u64 => {}
            abi::CLAIM_BUSY => return Claim::Busy,
            abi::CLAIM_DENIED => return Claim::Refused(self.refusal(&req)),
            _ => {
                return Claim::Refused(Refusal::Arbiter {
                    reason: "the kernel driver answered GBA_IOC_CLAIM with a result this library does not know (a newer driver?)",
                });
            }
        }
        let Some(claim) = self.map_claim(file, &req, run) else {
            return Claim::Refused(Refusal::Arbiter {
                reason: "the kernel driver refused to map the claimed group's pages",
            });
        };
        let flag = DmaRegion {
            host: claim.shared,
            iova: claim.flag_iova,
            len: abi::LINE,
        };
        held[group] = Some(claim);
        Claim::Configured { flag }
    }

    /// Why the driver denied `req`, in the arbiter's words.
    fn refusal(&self, req: &abi::ClaimReq) -> Refusal {
        // SAFETY: geteuid cannot fail.
        let me = unsafe { libc::geteuid() };
        match req.reason {
            abi::REASON_QUOTA => {
                let info = self.info().unwrap_or_default();
                Refusal::Quota {
                    uid: me,
                    held: info.held_by_caller,
                    quota: info.groups_per_uid,
                }
            }
            reason => Refusal::Arbiter {
                reason: abi::reason_text(reason),
            },
        }
    }

    /// Maps the claim's run-time page over the window copy and its shared memory; `None` (the
    /// file closed, so the driver frees the claim) when either fails.
    fn map_claim(&self, file: File, req: &abi::ClaimReq, run: usize) -> Option<Held> {
        // SAFETY: MAP_FIXED over one page of the window copy this value owns (inside it:
        // run_offset checks), with the claim's own file at the offset the driver gave.
        let page = unsafe {
            libc::mmap(
                self.window.as_ptr().add(run).cast(),
                PAGE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_FIXED,
                file.as_raw_fd(),
                run as libc::off_t,
            )
        };
        if page == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: a new shared mapping of the claim's memory, at the driver's offset.
        let shared = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                abi::SHARED_SIZE as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                req.shared_offset as libc::off_t,
            )
        };
        if shared == libc::MAP_FAILED {
            self.unmap_run(run);
            return None;
        }
        let shared = NonNull::new(shared.cast::<u8>())?;
        Some(Held {
            file,
            watched: watch(shared.as_ptr(), abi::SHARED_SIZE as usize, &self.path),
            shared,
            flag_iova: req.flag_iova,
            local: req.local,
            index: req.index,
        })
    }

    /// Puts a private zero page back over the run-time page at window offset `run`.
    fn unmap_run(&self, run: usize) {
        // SAFETY: MAP_FIXED over one page of the window copy this value owns; nothing else
        // of this process uses the group's page once its claim is given up.
        unsafe {
            libc::mmap(
                self.window.as_ptr().add(run).cast(),
                PAGE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            );
        }
    }

    /// Gives the claim up: unmaps its pages and closes its file (the driver resets and frees
    /// the group when it was the claim's last file).
    fn drop_claim(&self, group: usize) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(claim) = held.get_mut(group).and_then(Option::take) {
            self.give_up(group, claim);
        }
    }

    fn give_up(&self, group: usize, claim: Held) {
        drop(claim.watched);
        if let Some(run) = run_offset(group) {
            self.unmap_run(run);
        }
        // SAFETY: the shared mapping made in map_claim, of that length; no flag or combining
        // word of this group is used after its Group is dropped.
        unsafe { libc::munmap(claim.shared.as_ptr().cast(), abi::SHARED_SIZE as usize) };
        drop(claim.file);
    }
}

/// The window offset of group `group`'s run-time page (CONTROL's page), from the PAC; `None`
/// past the groups.
fn run_offset(group: usize) -> Option<usize> {
    // The PAC's handles are addresses: a window at a dangling base gives the offsets.
    let base = NonNull::<u64>::dangling().as_ptr().cast::<u8>();
    // SAFETY: no access is made through the handle; only its addresses are read.
    let device = unsafe { gba_pac::Device::<Volatile>::from_ptr(base) };
    let block = device.group(group)?.as_ptr().addr() - base.addr();
    let run = block + gba_pac::group::offset::CONTROL;
    (run + PAGE <= gba_pac::Device::SIZE).then_some(run)
}

/// The boot, the device node's rdev and the port, hashed: two processes of this host on this
/// port share it; two hosts reporting one PORT_ID do not.
fn host_key(path: &Path, port: u32) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    use std::os::unix::fs::MetadataExt;
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    let rdev = std::fs::metadata(path).ok()?.rdev();
    let mut h = std::hash::DefaultHasher::new();
    ("gba.ko", boot.trim(), rdev, port).hash(&mut h);
    Some(h.finish() | 1)
}

impl Drop for KernelBackend {
    fn drop(&mut self) {
        for g in 0..abi::GROUPS {
            self.drop_claim(g);
        }
        drop(self.watched.take());
        // SAFETY: the window copy mapped in `open`, of that length, used by nobody now.
        unsafe { libc::munmap(self.window.as_ptr().cast(), gba_pac::Device::SIZE) };
    }
}

// SAFETY: the window is a private mapping of Device::SIZE bytes, page-aligned, owned by this
// value, never referenced and reached only volatilely; the run-time pages mapped into it are
// the device's, one per held group, at their window offsets. Flags are line 0 of the driver's
// shared memory of the claim: 64-aligned, zeroed by the driver, reached at `flag_iova` by the
// device, mapped until the claim is given up, and read only atomically. There is no other DMA
// memory (alloc_dma refuses).
unsafe impl Backend for KernelBackend {
    type Mechanism = Volatile;

    fn window(&self) -> *mut u8 {
        self.window.as_ptr()
    }

    fn alloc_dma(&self, _len: usize) -> Result<DmaRegion, DmaError> {
        Err(DmaError {
            reason: "the kernel driver gives DMA memory only with a claim: the group's release flag",
        })
    }

    fn free_dma(&self, _region: DmaRegion) {}

    fn alloc_flag(&self, group: usize, len: usize) -> Result<DmaRegion, DmaError> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        match held.get(group).and_then(Option::as_ref) {
            Some(claim) if len <= abi::LINE => Ok(DmaRegion {
                host: claim.shared,
                iova: claim.flag_iova,
                len,
            }),
            Some(_) => Err(DmaError {
                reason: "a release flag of the kernel driver is one 64-byte line",
            }),
            None => Err(DmaError {
                reason: "the kernel driver gives a flag only to a group this value holds",
            }),
        }
    }

    fn free_flag(&self, _group: usize, _region: DmaRegion) {
        // The driver frees it after the group's reset, when the claim's last file closes.
    }

    fn complete_snapshot(&self, snapshot: &mut crate::GroupSnapshot) {
        // The group's registers are on its configuration page, which the driver does not
        // map into a process: it reads them for the holder of the claim (`GBA_IOC_STATE` on
        // the claim's own file). Without an answer the snapshot stays as read (zeros), which
        // diagnoses say they cannot read.
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let Some(claim) = held.get(snapshot.group).and_then(Option::as_ref) else {
            return;
        };
        let mut state = abi::State::default();
        // SAFETY: GBA_IOC_STATE writes a `struct gba_state`, which `abi::State` mirrors
        // (tested).
        if unsafe { ioctl(&claim.file, abi::IOC_STATE, &mut state) }.is_err()
            || state.group as usize != snapshot.group
        {
            return;
        }
        // The driver's member words are a MemberSet's (asserted in kernel_abi.rs).
        snapshot.set_group_registers(
            MemberSet::from_words(state.member_mask),
            state.member_count,
            MemberSet::from_words(state.arrived_mask),
            state.arrival_count,
            state.release_seq,
            state.status,
        );
    }

    fn now_ns(&self) -> u64 {
        super::clock::monotonic_ns()
    }

    fn host(&self) -> &dyn HostArbiter {
        self
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())
    }
}

/// The driver arbitrates: claims are its, each on a file of this value's; leaving is closing
/// that file, and the driver resets the group when the claim's last file closes.
impl HostArbiter for KernelBackend {
    fn revoked(&self) -> Option<Refusal> {
        // The driver answers ENODEV on a revoked file, whatever the call: INFO is the cheapest.
        match self.info() {
            Err(e) if e.raw_os_error() == Some(libc::ENODEV) => {
                Some(errno_refusal(Some(libc::ENODEV), self.name, false))
            }
            _ => None,
        }
    }

    fn claim(&self, group: usize, team: Option<&LocalTeam>, members: &MemberSet) -> Claim {
        KernelBackend::claim(self, group, team, members)
    }

    fn hold(&self, _group: usize, _flag: &DmaRegion) -> bool {
        // Never asked: a claim here is Configured, never Won.
        true
    }

    fn leave(&self, group: usize) -> bool {
        self.drop_claim(group);
        false
    }

    fn release(&self, group: usize) {
        self.drop_claim(group);
    }

    fn claimed_groups(&self) -> GroupSet {
        // Every claim of the port (any uid), and what the switch says is enabled anywhere.
        let claimed = self
            .claims()
            .map(|all| all.iter().fold(0u32, |m, c| m | 1 << (c.group % 32)))
            .unwrap_or(u32::MAX);
        let busy = self.info().map_or(u32::MAX, |i| i.groups_busy);
        GroupSet(claimed | busy)
    }

    fn local_arrivals(&self, group: usize) -> Option<LocalArrivals> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let claim = held.get(group)?.as_ref()?;
        if claim.local < 2 {
            return None;
        }
        let line = |n: usize| {
            // SAFETY: lines 1 and 2 + index (index < 64) of the 8 KiB shared mapping.
            NonNull::new(unsafe { claim.shared.as_ptr().add(n * abi::LINE) }.cast::<u64>())
        };
        Some(LocalArrivals {
            arrivals: line(1)?,
            entered: line(2 + claim.index as usize)?,
            local: u64::from(claim.local),
        })
    }

    fn host_key(&self) -> Option<u64> {
        self.host_key
    }

    fn claims(&self, each: &mut dyn FnMut(&ClaimReport)) {
        for c in KernelBackend::claims(self).unwrap_or_default() {
            each(&ClaimReport {
                group: c.group as usize,
                state: ClaimState::Held,
                pid: u64::try_from(c.pid).unwrap_or(0),
                // Another user's claim: only that the group is taken (the driver's choice).
                uid: (c.uid != abi::UID_HIDDEN).then_some(c.uid),
                // The driver's claim lives exactly as long as its files: held is alive.
                alive: true,
                other_pid_namespace: c.pid == 0,
                team_key: None,
                joined: u64::from(c.files),
                local: u64::from(c.local),
            });
        }
    }

    fn local_slots(&self, group: usize, each: &mut dyn FnMut(&LocalSlot)) {
        if group >= abi::GROUPS {
            return;
        }
        // The driver's record of the claim's files: each one's process, team rank and
        // combining slot's `entered` word. A file in the claim is open, so its process (or one
        // it passed the file to) lives.
        for l in locals(&self.file, group).unwrap_or_default() {
            each(&LocalSlot {
                slot: l.index as usize,
                pid: u64::try_from(l.pid).unwrap_or(0),
                rank: u64::from(l.rank),
                entered: l.entered,
                alive: true,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_node_names_the_module_and_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let err = KernelBackend::open(&dir.path().join("gba7")).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, KernelError::Open { .. }), "{err:?}");
        assert!(
            text.contains("gba7") && text.contains("gba.ko loaded"),
            "{text}"
        );
    }

    #[test]
    fn a_file_that_is_not_the_driver_is_refused_by_name() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let err = KernelBackend::open(file.path()).unwrap_err();
        assert!(matches!(err, KernelError::Info { .. }), "{err:?}");
        assert!(err.to_string().contains("GBA_IOC_INFO"), "{err}");
    }

    /// A revoked file (ENODEV), or the node gone, is an error naming the device file the port
    /// was opened on, and saying to open it again; other errors keep the driver's words.
    #[test]
    fn a_revoked_port_is_named_by_its_device_file() {
        for (errno, opening) in [
            (libc::ENODEV, false),
            (libc::ENODEV, true),
            (libc::ENOENT, true),
        ] {
            let refusal = errno_refusal(Some(errno), "/dev/gba3", opening);
            assert_eq!(
                refusal,
                Refusal::Revoked {
                    device: "/dev/gba3"
                }
            );
            let text = crate::Error::ClaimRefused { group: 5, refusal }.to_string();
            assert!(
                text.starts_with("this host's arbiter refused group 5: /dev/gba3 was removed, unbound or reset (ENODEV)")
                    && text.contains("open the port again"),
                "{text}"
            );
        }
        assert!(matches!(
            errno_refusal(Some(libc::EDOM), "/dev/gba3", false),
            Refusal::Arbiter { reason } if reason.contains("member set")
        ));
        assert!(matches!(
            errno_refusal(Some(libc::EACCES), "/dev/gba3", true),
            Refusal::Arbiter { reason } if reason.contains("opened again")
        ));
    }

    #[test]
    fn run_pages_are_the_second_page_of_each_group_block() {
        assert_eq!(run_offset(0), Some(0x11000));
        assert_eq!(run_offset(31), Some(0x10000 + 31 * 0x2000 + 0x1000));
        assert_eq!(run_offset(32), None);
    }
}
