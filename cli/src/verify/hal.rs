//! gba-hal's own configure sequence (claim, configure, READY, and the release on drop)
//! against the RTL: `gba verify --rtl DIR --hal`.
//!
//! The HAL reaches registers through a mapped window with its backend's mechanism, not
//! through a transaction interface, so its code runs here unchanged over a [`Mirror`]: a
//! backend whose window is plain memory (gba-hal's `MemoryBackend`) kept in step with the
//! RTL at every point where a real device would react: each `after_control` (the HAL's
//! CONTROL stores) and each `progress` (every poll of its wait loops) writes the registers
//! the HAL changed in the window to the RTL over APB4, lets the switch act, and reads every
//! register back into the window. The switch is this module's (`switch`): the hardware side
//! a register block leaves to the design around it, driven through the RTL's hardware-write
//! port. What the HAL writes and what it waits for are its own code's; the timing is the
//! mirror's (a store reaches the RTL at the next sync, not at once).

use std::sync::Mutex;

use gba_codegen::Device as Spec;
use gba_hal::backends::MemoryBackend;
use gba_hal::{Backend, GroupConfig, MemberSet};
use gba_pac::group::CONTROL;

use super::Bus;
use super::checks::{self, Element};

/// One register of the spec as the mirror syncs it.
struct Synced {
    addr: u64,
    width: u32,
    /// Software writes it (what the HAL stores goes to the RTL).
    writable: bool,
    readable: bool,
    /// The RTL's value at the last sync: what the window held then.
    last: u64,
}

/// Group 0's registers the switch reads, at their addresses in the spec.
struct Group0 {
    control: u64,
    count: u64,
    local: u64,
    mask: Vec<u64>,
    release_addr: u64,
}

impl Group0 {
    fn find(elements: &[Element]) -> Result<Group0, String> {
        let at = |path: &str| {
            elements
                .iter()
                .find(|e| e.path == path)
                .map(|e| e.addr)
                .ok_or_else(|| format!("the spec has no {path}: not gba.yaml's map"))
        };
        Ok(Group0 {
            control: at("group[0].CONTROL")?,
            count: at("group[0].MEMBER_COUNT")?,
            local: at("group[0].LOCAL_MEMBER_ID")?,
            mask: (0..gba_hal::MEMBER_WORDS)
                .map(|w| at(&format!("group[0].MEMBER_MASK[{w}]")))
                .collect::<Result<_, _>>()?,
            release_addr: at("group[0].RELEASE_ADDR")?,
        })
    }
}

pub struct Mirror<B: Bus + Send> {
    memory: MemoryBackend,
    bus: Mutex<(B, Vec<Synced>, Vec<String>)>,
    group: Group0,
}

impl<B: Bus + Send> Mirror<B> {
    /// A mirror of the RTL behind `bus`, whose registers `spec` describes (its block `group`
    /// element 0 is the one the switch plays); the window starts as the RTL reads.
    pub fn new(spec: &Spec, mut bus: B) -> Result<Mirror<B>, String> {
        bus.reset()?;
        let elements = checks::elements(spec);
        let registers = elements
            .iter()
            .map(|e: &Element| Synced {
                addr: e.addr,
                width: e.width(),
                writable: e.reg.access.is_writable(),
                readable: e.reg.access.is_readable() && !e.reg.read_has_effect(),
                last: 0,
            })
            .collect();
        let group = Group0::find(&elements)?;
        let mirror = Mirror {
            memory: MemoryBackend::new(0),
            bus: Mutex::new((bus, registers, Vec::new())),
            group,
        };
        mirror.sync(false)?;
        Ok(mirror)
    }

    /// The RTL accesses made so far, one line each (`w 0x11000 64 0x5`).
    pub fn log(&self) -> Vec<String> {
        self.bus.lock().map(|b| b.2.clone()).unwrap_or_default()
    }

    /// Reads the RTL's register at `addr`.
    pub fn read(&self, addr: u64, width: u32) -> Result<u64, String> {
        let mut guard = self
            .bus
            .lock()
            .map_err(|_| "the mirror's lock is poisoned")?;
        guard.0.read(addr, width)
    }

    fn load(&self, addr: u64, width: u32) -> u64 {
        let ptr = self.memory.window().wrapping_add(addr as usize);
        // SAFETY: `addr` is a register of the spec, inside the window's Device::SIZE bytes
        // (the spec is gba.yaml's map, whose window the PAC's SIZE covers) and aligned to
        // its width; the memory backend's window is reached only atomically.
        unsafe {
            if width == 64 {
                std::sync::atomic::AtomicU64::from_ptr(ptr.cast())
                    .load(std::sync::atomic::Ordering::Acquire)
            } else {
                u64::from(
                    std::sync::atomic::AtomicU32::from_ptr(ptr.cast())
                        .load(std::sync::atomic::Ordering::Acquire),
                )
            }
        }
    }

    fn store(&self, addr: u64, width: u32, value: u64) {
        let ptr = self.memory.window().wrapping_add(addr as usize);
        // SAFETY: as in `load`.
        unsafe {
            if width == 64 {
                std::sync::atomic::AtomicU64::from_ptr(ptr.cast())
                    .store(value, std::sync::atomic::Ordering::Release);
            } else {
                std::sync::atomic::AtomicU32::from_ptr(ptr.cast())
                    .store(value as u32, std::sync::atomic::Ordering::Release);
            }
        }
    }

    /// Writes what changed in the window to the RTL (`push`), plays the switch, reads every
    /// register back into the window.
    fn sync(&self, push: bool) -> Result<(), String> {
        let mut guard = self
            .bus
            .lock()
            .map_err(|_| "the mirror's lock is poisoned")?;
        let (bus, registers, log) = &mut *guard;
        if push {
            for r in registers.iter_mut().filter(|r| r.writable) {
                let value = self.load(r.addr, r.width);
                if value != r.last {
                    bus.write(r.addr, r.width, value)?;
                    log.push(format!("w {:#x} {} {value:#x}", r.addr, r.width));
                    r.last = value;
                }
            }
            switch(bus, &self.group, log)?;
        }
        for r in registers.iter_mut().filter(|r| r.readable) {
            r.last = bus.read(r.addr, r.width)?;
            self.store(r.addr, r.width, r.last);
        }
        Ok(())
    }
}

/// The switch of a one-port fabric, for group 0: enabled and armed with a consistent
/// configuration (MEMBER_COUNT the population of MEMBER_MASK, LOCAL_MEMBER_ID in it), every
/// member is configured alike: READY; inconsistent: ERROR with the datasheet's code;
/// disabled: neither. Read through the RTL's bus, written through its hardware port.
fn switch(bus: &mut dyn Bus, group: &Group0, log: &mut Vec<String>) -> Result<(), String> {
    let control = bus.read(group.control, 64)?;
    let count = bus.read(group.count, 32)?;
    let local = bus.read(group.local, 32)?;
    let mut population = 0;
    let mut has_local = false;
    for (w, &addr) in group.mask.iter().enumerate() {
        let word = bus.read(addr, 64)?;
        population += u64::from(word.count_ones());
        has_local |= local / 64 == w as u64 && word >> (local % 64) & 1 == 1;
    }
    let enabled = control & 0b101 == 0b101;
    let (ready, error, code) = match (enabled, count == population, has_local) {
        (false, _, _) => (0, 0, 0),
        (true, false, _) => (0, 1, 2),
        (true, true, false) => (0, 1, 3),
        (true, true, true) => (1, 0, 0),
    };
    for (field, value) in [("READY", ready), ("ERROR", error), ("ERROR_CODE", code)] {
        let name = format!("group_0.STATUS.{field}");
        if !bus.hw_write(&name, value)? {
            return Err(format!("the RTL has no hardware write of {name}"));
        }
        log.push(format!("hw {name} {value:#x}"));
    }
    Ok(())
}

// SAFETY: the window is the memory backend's (its contract), reached only atomically, by the
// HAL and by this mirror; DMA regions are the memory backend's.
unsafe impl<B: Bus + Send> Backend for Mirror<B> {
    type Mechanism = gba_pac::common::Atomic;

    fn window(&self) -> *mut u8 {
        self.memory.window()
    }

    fn alloc_dma(&self, len: usize) -> Result<gba_hal::DmaRegion, gba_hal::DmaError> {
        self.memory.alloc_dma(len)
    }

    fn free_dma(&self, region: gba_hal::DmaRegion) {
        self.memory.free_dma(region);
    }

    fn progress(&self) {
        if let Err(e) = self.sync(true) {
            eprintln!("error: the RTL mirror: {e}");
        }
    }

    fn after_control(&self, _group: usize) {
        self.progress();
    }

    fn now_ns(&self) -> u64 {
        self.memory.now_ns()
    }

    fn host(&self) -> &dyn gba_hal::HostArbiter {
        self.memory.host()
    }

    fn describe(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the RTL through a memory window")
    }
}

/// Runs the HAL's claim of group 0 for member 0 (port 0) over the RTL, checks what reached
/// the RTL, drops the group and checks the release. Returns the report's lines; `Err` names
/// the first step that went wrong.
pub fn configure_sequence<B: Bus + Send>(spec: &Spec, bus: B) -> Result<Vec<String>, String> {
    let mirror = Mirror::new(spec, bus)?;
    let device = gba_hal::Device::new(mirror)
        .map_err(|e| format!("the HAL refused the RTL's identity registers: {e}"))?;
    let mut members = MemberSet::new();
    members.insert(0);
    let config = GroupConfig::new(0, members).timeout(Some(std::time::Duration::from_secs(30)));
    let mut out = Vec::new();
    let group = device
        .claim(config)
        .map_err(|e| format!("the HAL's claim of group 0 failed against the RTL: {e}"))?;
    let flag = group.flag().iova();
    let mirror = device.backend();
    let g = &mirror.group;
    let expect = [
        ("MEMBER_MASK[0]", g.mask[0], 64, 1),
        ("MEMBER_COUNT", g.count, 32, 1),
        ("LOCAL_MEMBER_ID", g.local, 32, 0),
        ("RELEASE_ADDR", g.release_addr, 64, flag),
        (
            "CONTROL",
            g.control,
            64,
            (CONTROL::ENABLE::SET + CONTROL::ARM::SET).value,
        ),
    ];
    for (name, addr, width, want) in expect {
        let got = mirror.read(addr, width)?;
        if got != want {
            return Err(format!(
                "after the HAL's configure the RTL's group[0].{name} reads {got:#x}, not {want:#x}"
            ));
        }
        out.push(format!("configured: group[0].{name} = {got:#x}"));
    }
    out.push(format!(
        "READY: the HAL's claim returned, start sequence {}",
        group.start_sequence()
    ));
    drop(group);
    let control = mirror.read(g.control, 64)?;
    if control & 0b101 != 0 {
        return Err(format!(
            "after the HAL dropped the group the RTL's group[0].CONTROL reads {control:#x}: still enabled or armed"
        ));
    }
    out.push(format!("released: group[0].CONTROL = {control:#x}"));
    out.extend(mirror.log().into_iter().map(|l| format!("rtl: {l}")));
    Ok(out)
}
