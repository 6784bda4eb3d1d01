//! A fabric: the switch and its P ports, in a directory of shared-memory files that the
//! fabric's owner's processes map (see [`crate::layout`]).
//!
//! Trust (ARCHITECTURE.md, "Trust on a shared node"): the fabric's directory is its trusted
//! directory. It is made 0700 (01770 with `GBA_SHARED_GROUP`) and its files 0600 through
//! [`gba_hal::shared`] (with the group, `switch`, `arenas`, `hosts` and `windows` are System
//! V segments no member can resize, named by 0640 pointer files); a fabric is opened only if its directory and every file pass
//! the checks there (owned by the caller or root, not writable by others, regular files with
//! one link and the layout's size), so another user can neither plant a fabric where the
//! owner will look nor edit one.

use std::path::{Path, PathBuf};

use gba_pac::common::Atomic;
use gba_pac::tock_registers::interfaces::Writeable;
use gba_pac::{Device, global, group};

use crate::error::{Error, Result};
use crate::host::HOSTS_FILE;
use crate::layout::{self as l, ARENA_SIZE, WINDOW_SIZE};
use crate::vm::{GuestRam, Windows};
use gba_hal::host::PORT_BYTES;
use gba_hal::host::process::{alive, my_pid};
use gba_hal::shared::{self, Policy, SharedFile, SharedWord, Size};

/// Where `gba sim create` puts a fabric when no path is given: `fabric` in the caller's
/// runtime directory (`$XDG_RUNTIME_DIR/gba`, else `/tmp/gba-UID`; `/run/gba` for root),
/// never a predictable name in a directory every user can write.
pub fn default_path() -> PathBuf {
    shared::dir::runtime_dir_path().join("fabric")
}

/// The environment variable that names a fabric directory for the command line.
pub const PATH_ENV: &str = "GBA_SIM_FABRIC";

/// A mapped fabric. Cheap to share between threads (`Arc<Fabric>`): every access to its
/// memory is atomic.
#[derive(Debug)]
pub struct Fabric {
    dir: PathBuf,
    ports: usize,
    switch: SharedFile,
    windows: Windows,
    arenas: SharedFile,
    /// The host segment of every port (see `host.rs`).
    hosts: SharedFile,
    /// Per port: the guest RAM its release writes go to, for a port shown to a virtual
    /// machine ([`crate::vm`]); `None`: its arena.
    guest_ram: Vec<Option<GuestRam>>,
}

/// How [`Fabric::create_with`] lays a fabric out; the default is [`Fabric::create`]'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CreateOptions {
    /// One window file per port, padded to a power of two (`window-P`), instead of the one
    /// `windows` file: what a virtual machine's ivshmem BAR maps.
    pub per_port_windows: bool,
    /// Create every port's guest RAM file (`guest-P.ram`) of this many bytes: the port's
    /// RELEASE_ADDR is then a guest-physical address in it.
    pub guest_ram: Option<u64>,
}

impl Fabric {
    /// Creates a fabric of `ports` ports in the new directory `dir` and initialises every
    /// port's identity registers from the spec's reset values and its port number.
    pub fn create(dir: &Path, ports: usize) -> Result<Fabric> {
        Fabric::create_with(dir, ports, CreateOptions::default())
    }

    /// As [`create`](Self::create), laid out as `options` says (ports shown to virtual
    /// machines).
    pub fn create_with(dir: &Path, ports: usize, options: CreateOptions) -> Result<Fabric> {
        let max = gba_pac::MAX_MEMBERS;
        if ports == 0 || ports > max {
            return Err(Error::PortCount { ports, max });
        }
        let quota = creator_quota()?;
        let policy = Policy::from_env()?;
        crate::vm::check_single_user(&options, &policy)?;
        if dir.symlink_metadata().is_ok() {
            // Someone else's directory (or one others can write) is refused by name before
            // anything in it is looked at: "a fabric exists, use it" would hand the caller's
            // job to whoever made it.
            shared::dir::check(dir, &policy)?;
        }
        let switch_path = dir.join(l::SWITCH_FILE);
        if switch_path.symlink_metadata().is_ok() {
            Fabric::open_switch(dir, &switch_path, &policy)?;
            return Err(Error::Exists {
                path: dir.to_path_buf(),
            });
        }
        if let Some(size) = options.guest_ram {
            // Checked before any file exists, so that a bad size leaves nothing behind.
            crate::vm::check_guest_ram_size(&crate::vm::guest_ram_file(dir, 0), size)?;
        }
        if dir.parent() == Some(shared::dir::runtime_dir_path().as_path()) {
            // The default place: the runtime directory is made private first.
            shared::dir::runtime_dir(&policy)?;
        }
        shared::dir::ensure(dir, &policy)?;
        // The switch file is published last, so that a fabric whose creation failed half-way
        // has no switch file and is not mistaken for a usable one.
        let windows = Windows::create(dir, ports, options.per_port_windows, &policy)?;
        let arenas = SharedFile::create(&dir.join(l::ARENAS_FILE), ports * ARENA_SIZE, &policy)?;
        let hosts = SharedFile::create(&dir.join(HOSTS_FILE), ports * PORT_BYTES, &policy)?;
        let guest_ram = (0..ports)
            .map(|p| {
                options
                    .guest_ram
                    .map(|size| GuestRam::create(&crate::vm::guest_ram_file(dir, p), size, &policy))
                    .transpose()
            })
            .collect::<Result<_>>()?;
        for p in 0..ports {
            init_identity(&windows, p);
        }
        let published = SharedFile::publish(
            dir,
            l::SWITCH_FILE,
            l::switch_size(ports),
            &policy,
            (l::header_word(l::H_MAGIC), l::MAGIC),
            |switch| fill_header(switch, ports, quota),
        )?;
        let Some(switch) = published else {
            return Err(Error::Exists {
                path: dir.to_path_buf(),
            });
        };
        let fabric = Fabric {
            dir: dir.to_path_buf(),
            ports,
            switch,
            windows,
            arenas,
            guest_ram,
            hosts,
        };
        Ok(fabric)
    }

    /// A fabric of `ports` ports in this process's ordinary memory: shared by its threads
    /// only, gone when dropped. For tests, and for Miri, which cannot map files.
    pub fn in_memory(ports: usize) -> Result<Fabric> {
        let max = gba_pac::MAX_MEMBERS;
        if ports == 0 || ports > max {
            return Err(Error::PortCount { ports, max });
        }
        let name = "<memory>";
        Ok(Fabric::init(
            Path::new(name),
            (ports, creator_quota()?),
            SharedFile::in_memory(name, l::switch_size(ports)),
            Windows::One(SharedFile::in_memory(name, ports * WINDOW_SIZE)),
            SharedFile::in_memory(name, ports * ARENA_SIZE),
            (0..ports).map(|_| None).collect(),
            SharedFile::in_memory(name, ports * PORT_BYTES),
        ))
    }

    fn init(
        dir: &Path,
        (ports, quota): (usize, u32),
        switch: SharedFile,
        windows: Windows,
        arenas: SharedFile,
        guest_ram: Vec<Option<GuestRam>>,
        hosts: SharedFile,
    ) -> Fabric {
        for p in 0..ports {
            init_identity(&windows, p);
        }
        fill_header(&switch, ports, quota);
        switch.word(l::header_word(l::H_MAGIC)).store(l::MAGIC);
        Fabric {
            dir: dir.to_path_buf(),
            ports,
            switch,
            windows,
            arenas,
            guest_ram,
            hosts,
        }
    }

    /// Maps the fabric in `dir`, if the caller may trust it (see the module description).
    pub fn open(dir: &Path) -> Result<Fabric> {
        let switch_path = dir.join(l::SWITCH_FILE);
        if switch_path.symlink_metadata().is_err() {
            return Err(Error::NoFabric {
                path: dir.to_path_buf(),
            });
        }
        let policy = Policy::from_env()?;
        let (switch, ports) = Fabric::open_switch(dir, &switch_path, &policy)?;
        let guest_ram = (0..ports)
            .map(|p| {
                let path = crate::vm::guest_ram_file(dir, p);
                (path.symlink_metadata().is_ok())
                    .then(|| GuestRam::open(&path, &policy))
                    .transpose()
            })
            .collect::<Result<_>>()?;
        let file = |name: &str, len| -> Result<SharedFile> {
            Ok(SharedFile::open(
                &dir.join(name),
                Size::Exact(len),
                &policy,
            )?)
        };
        Ok(Fabric {
            dir: dir.to_path_buf(),
            ports,
            switch,
            windows: Windows::open(dir, ports, &policy)?,
            arenas: file(l::ARENAS_FILE, ports * ARENA_SIZE)?,
            guest_ram,
            hosts: file(HOSTS_FILE, ports * PORT_BYTES)?,
        })
    }

    /// The switch file of the fabric in `dir`, checked (the directory, the file, then its
    /// header before any other word), and its port count.
    fn open_switch(dir: &Path, path: &Path, policy: &Policy) -> Result<(SharedFile, usize)> {
        // Only looked up: another member's fabric is usable under the configured group.
        shared::dir::check_to_open(dir, policy)?;
        let sizes = Size::Between(l::switch_size(1), l::switch_size(gba_pac::MAX_MEMBERS));
        let switch = SharedFile::open(path, sizes, policy)?;
        let len = switch.len();
        let corrupt = |what: String| Error::Corrupt {
            path: dir.to_path_buf(),
            what,
        };
        if switch.word(l::header_word(l::H_MAGIC)).load() != l::MAGIC {
            return Err(corrupt("has no simulator magic number".into()));
        }
        let version = switch.word(l::header_word(l::H_VERSION)).load();
        if version != l::LAYOUT_VERSION {
            return Err(corrupt(format!(
                "has layout version {version}; this build understands {}",
                l::LAYOUT_VERSION
            )));
        }
        let ports = switch.word(l::header_word(l::H_PORTS)).load();
        let ports = match usize::try_from(ports) {
            Ok(p) if (1..=gba_pac::MAX_MEMBERS).contains(&p) && l::switch_size(p) == len => p,
            _ => {
                return Err(corrupt(format!(
                    "claims {ports} ports in a {len}-byte switch file"
                )));
            }
        };
        let quota = switch.word(l::header_word(l::H_GROUP_QUOTA)).load();
        if !(1..=l::GROUPS as u64).contains(&quota) {
            return Err(corrupt(format!(
                "records a group quota of {quota} (switch header word H_GROUP_QUOTA), outside 1 to {}",
                l::GROUPS
            )));
        }
        Ok((switch, ports))
    }

    /// Groups one uid may hold on each port: what the fabric's creator recorded (checked to
    /// be 1 to GROUPS when the fabric was opened).
    pub fn group_quota(&self) -> u32 {
        self.header(l::H_GROUP_QUOTA).load() as u32
    }

    /// Removes the fabric in `dir`: its four files (and its per-port window and guest RAM files) and the directory if it is then empty.
    /// Refuses a directory that holds no fabric, so that a wrong `--path` deletes nothing.
    pub fn destroy(dir: &Path) -> Result<()> {
        let switch_path = dir.join(l::SWITCH_FILE);
        if switch_path.symlink_metadata().is_err() {
            return Err(Error::NoFabric {
                path: dir.to_path_buf(),
            });
        }
        let vm_files = std::fs::read_dir(dir)
            .map_err(|e| Error::io("list", dir, e))?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| crate::vm::is_vm_file(name));
        let names = [l::SWITCH_FILE, l::WINDOWS_FILE, l::ARENAS_FILE, HOSTS_FILE].map(String::from);
        for name in names.into_iter().chain(vm_files) {
            let path = dir.join(name);
            // A file naming a System V segment (under a configured group) removes it too.
            match SharedFile::remove(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io("remove", &path, e)),
            }
        }
        let _ = std::fs::remove_dir(dir);
        Ok(())
    }

    /// The fabric's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The fabric's switch ports.
    pub fn ports(&self) -> usize {
        self.ports
    }

    pub(crate) fn check_port(&self, port: usize) -> Result<()> {
        if port < self.ports {
            Ok(())
        } else {
            Err(Error::NoSuchPort {
                port,
                ports: self.ports,
                path: self.dir.clone(),
            })
        }
    }

    /// Port `p`'s register window, as the host and the switch both see it: every access
    /// atomic.
    ///
    /// # Panics
    ///
    /// If `p` is not a port of this fabric (callers check `p` against [`ports`](Self::ports)).
    pub fn window(&self, p: usize) -> Device<Atomic> {
        assert!(p < self.ports, "port {p} of {}", self.ports);
        let base = self.windows.base(p);
        // SAFETY: `base` is the page-aligned start of port p's WINDOW_SIZE (= Device::SIZE)
        // bytes inside a live window mapping (the `windows` file, or `window-P` of at least
        // WINDOW_SIZE bytes), which lives as long as `self`; nothing
        // references it, and every party (hosts through the HAL's simulator backend, the
        // switch here) accesses it only through `Atomic` handles.
        unsafe { Device::from_shared_ptr(base) }
    }

    /// Port `p`'s DMA arena: its first byte (page-aligned) and length.
    pub(crate) fn arena(&self, p: usize) -> (*mut u8, usize) {
        assert!(p < self.ports, "port {p} of {}", self.ports);
        (
            self.arenas.as_ptr().wrapping_add(p * ARENA_SIZE),
            ARENA_SIZE,
        )
    }

    /// The 64-bit word of port `p`'s arena that `iova` names, if `iova` is an 8-byte-aligned
    /// device address inside that arena: what the switch's DMA engine checks before it writes.
    /// For a port with guest RAM, `iova` is instead a guest-physical address in that RAM
    /// (the guest's driver wrote the flag's physical address, as a driver of a device without
    /// an IOMMU does).
    pub fn dma_word(&self, p: usize, iova: u64) -> Option<SharedWord<'_>> {
        if let Some(Some(ram)) = self.guest_ram.get(p) {
            return ram.word(iova);
        }
        Some(self.arenas.word(self.dma_offset(p, iova)?))
    }

    /// Whether port `p`'s release writes go to a guest's RAM (see [`dma_word`](Self::dma_word)).
    pub fn has_guest_ram(&self, p: usize) -> bool {
        matches!(self.guest_ram.get(p), Some(Some(_)))
    }

    /// Whether the fabric's windows are one file per port ([`CreateOptions::per_port_windows`]).
    pub fn per_port_windows(&self) -> bool {
        self.windows.per_port()
    }

    /// The byte offset in the arenas file of the word that [`dma_word`](Self::dma_word) names;
    /// `None` also for a port with guest RAM (the fast path, which records these offsets, is
    /// then not used for its groups: guests ring doorbells that the stepper counts).
    pub(crate) fn dma_offset(&self, p: usize, iova: u64) -> Option<usize> {
        if self.has_guest_ram(p) {
            return None;
        }
        let offset = iova.checked_sub(l::IOVA_BASE)? as usize;
        if !iova.is_multiple_of(8) || offset.checked_add(8)? > ARENA_SIZE || p >= self.ports {
            return None;
        }
        Some(p * ARENA_SIZE + offset)
    }

    pub(crate) fn header(&self, word: usize) -> SharedWord<'_> {
        self.switch.word(l::header_word(word))
    }

    pub(crate) fn group_state(&self, g: usize, word: usize) -> SharedWord<'_> {
        self.switch.word(l::group_word(g, word))
    }

    pub(crate) fn port_state(&self, p: usize, word: usize) -> SharedWord<'_> {
        self.switch.word(l::port_word(p, word))
    }

    pub(crate) fn fast_state(&self, g: usize, word: usize) -> SharedWord<'_> {
        self.switch.word(l::fast_word(g, word))
    }

    /// The arena word at byte `offset` of the whole arenas file (a release flag recorded by
    /// the stepper for the fast path).
    /// `None` for an offset outside the file (read from shared memory, so never trusted).
    pub(crate) fn arena_word(&self, offset: usize) -> Option<SharedWord<'_>> {
        self.arenas.try_word(offset)
    }

    /// Records this process as a user of port `p` (for stale-fabric detection).
    pub(crate) fn attach(&self, p: usize) -> Result<()> {
        let me = my_pid();
        for slot in 0..l::MAX_OPENERS {
            let word = self.port_state(p, l::P_OPENERS + slot);
            let current = word.load();
            if current == me {
                return Ok(());
            }
            if (current == 0 || !alive(current)) && word.compare_exchange(current, me).is_ok() {
                return Ok(());
            }
        }
        Err(Error::TooManyOpeners {
            port: p,
            max: l::MAX_OPENERS,
        })
    }

    pub(crate) fn detach(&self, p: usize) {
        let me = my_pid();
        for slot in 0..l::MAX_OPENERS {
            let _ = self
                .port_state(p, l::P_OPENERS + slot)
                .compare_exchange(me, 0);
        }
    }

    /// Processes recorded as users of port `p`, with whether each is still alive.
    pub fn openers(&self, p: usize) -> Vec<(u64, bool)> {
        (0..l::MAX_OPENERS)
            .map(|slot| self.port_state(p, l::P_OPENERS + slot).load())
            .filter(|&pid| pid != 0)
            .map(|pid| (pid, alive(pid)))
            .collect()
    }

    pub(crate) fn hosts(&self) -> &SharedFile {
        &self.hosts
    }

    /// The process that created the fabric, and whether it is alive.
    pub fn creator(&self) -> Creator {
        let pid = self.header(l::H_CREATOR).load();
        Creator {
            pid,
            alive: alive(pid),
        }
    }

    /// Switch steps run so far, and how often a stepper took the lock over from a process that
    /// died holding it.
    pub fn counters(&self) -> Counters {
        Counters {
            steps: self.header(l::H_STEPS).load(),
            lock_recoveries: self.header(l::H_LOCK_RECOVERIES).load(),
        }
    }
}

/// The process that created a fabric ([`Fabric::creator`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Creator {
    /// Its pid.
    pub pid: u64,
    /// Whether it is alive now.
    pub alive: bool,
}

/// A fabric's lifetime counters ([`Fabric::counters`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counters {
    /// Switch steps run so far.
    pub steps: u64,
    /// How often a stepper took the step lock over from a process that died holding it.
    pub lock_recoveries: u64,
}

/// The switch file's header but its magic (stored last, by whoever publishes it).
/// The group quota a new fabric records: its creator's `GBA_GROUP_QUOTA` (default 8),
/// refused by name when malformed.
fn creator_quota() -> Result<u32> {
    gba_hal::host::group_quota().map_err(|reason| Error::Quota { reason })
}

fn fill_header(switch: &SharedFile, ports: usize, quota: u32) {
    let header = |word| switch.word(l::header_word(word));
    header(l::H_VERSION).store(l::LAYOUT_VERSION);
    header(l::H_GROUP_QUOTA).store(u64::from(quota));
    header(l::H_PORTS).store(ports as u64);
    header(l::H_CREATOR).store(my_pid());
}

/// Identity registers of port `p` as the hardware has them after power-on: the spec's reset
/// values, PORT_ID = the port number, GROUP_ID = the group's index. Every other register
/// powers up 0, the fabric's fresh memory: the spec's reset values. That is also the
/// simulator's choice for a field the spec says is not reset (`reset: none`, of which gba.yaml
/// has none): such a flop holds whatever it powered up with, and 0 is one such value, the one
/// that keeps runs reproducible.
fn init_identity(windows: &Windows, p: usize) {
    // SAFETY: as in `Fabric::window`: the page-aligned start of port p's WINDOW_SIZE bytes
    // inside a live window mapping, reached only through `Atomic` handles.
    let window: Device<Atomic> = unsafe { Device::from_shared_ptr(windows.base(p)) };
    let global = window.global();
    global
        .device_id()
        .device_side()
        .set(global::reset::DEVICE_ID);
    global.version().device_side().set(global::reset::VERSION);
    global.caps().device_side().set(global::reset::CAPS);
    global
        .port_id()
        .device_side()
        .write(global::PORT_ID::PORT.val(p as u32));
    for g in 0..l::GROUPS {
        if let Some(block) = window.group(g) {
            block
                .group_id()
                .device_side()
                .write(group::GROUP_ID::ID.val(g as u32));
        }
    }
}
