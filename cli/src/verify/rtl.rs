//! The RTL as a [`Bus`]: the Verilator harness (`harness.cpp`) built once per RTL (keyed by
//! the sources' contents) and run as a child process speaking its line protocol. APB4 is 32
//! bits wide: a 64-bit access is two transfers, low half first (the regblock's buffering
//! makes the pair atomic); 8- and 16-bit writes use the byte strobes.
//!
//! It is also a [`gba_pac::common::Bus`], so the generated PAC's typed handles drive the RTL
//! (`gba_pac::Device::on_bus(&rtl, 0)`; the test is in `rtl/pac.rs`). That trait takes
//! `&self` (handles are `Copy` and share the bus), so the pipes are in a `RefCell`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use super::Bus;

const HARNESS: &str = include_str!("harness.cpp");

/// The C++ compiler's optimisation for the Verilated model: none. Its code is large (90,000
/// lines of RTL for gba.yaml) and a conformance run short, so `-O0` saves minutes of building
/// over Verilator's default `-Os` and costs seconds of running.
const MAKEFLAGS: &str = "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0";

/// FNV-1a: a stable key for the build cache (std's hasher may change between releases).
fn fnv(bytes: &[u8], mut hash: u64) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x100_0000_01b3);
    }
    hash
}

/// Builds (or finds already built) the harness of the RTL `name` in `dir`; returns its path.
pub fn build(dir: &Path, name: &str, build: &Path) -> Result<PathBuf, String> {
    let (files, top) = crate::rtl::sources(dir, name);
    let mut key = fnv(HARNESS.as_bytes(), 0xcbf2_9ce4_8422_2325);
    key = fnv(MAKEFLAGS.as_bytes(), key);
    for file in &files {
        let text = std::fs::read(file).map_err(|e| {
            format!(
                "cannot read {}: {e}; write the RTL first with `gba rtl --out {}`",
                file.display(),
                dir.display()
            )
        })?;
        key = fnv(&text, key);
    }
    let key = format!("{key:016x}");
    let harness = build.join("harness");
    let stamp = build.join("harness.key");
    if harness.is_file() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(&key) {
        return Ok(harness);
    }
    std::fs::create_dir_all(build)
        .map_err(|e| format!("cannot create {}: {e}", build.display()))?;
    let cpp = build.join("harness.cpp");
    std::fs::write(&cpp, HARNESS).map_err(|e| format!("cannot write {}: {e}", cpp.display()))?;
    let output = Command::new("verilator")
        .args([
            "--cc", "--exe", "--build", "-j", "2", "-O1", "--prefix", "Vtop",
        ])
        .arg("--top-module")
        .arg(&top)
        .arg("-Mdir")
        .arg(build)
        .args(["-o", "harness", "-MAKEFLAGS", MAKEFLAGS])
        .args(&files)
        .arg(&cpp)
        .output()
        .map_err(|e| {
            format!("cannot run verilator: {e}; install it (apt-get install verilator)")
        })?;
    if !output.status.success() {
        return Err(format!(
            "verilator could not build the harness in {}:\n{}",
            build.display(),
            String::from_utf8_lossy(&output.stderr).trim_end()
        ));
    }
    std::fs::write(&stamp, key).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(harness)
}

/// The running harness.
pub struct RtlBus {
    child: Child,
    pipes: RefCell<Pipes>,
    /// Field (unrolled name) → its index on the wrapper's hardware-write port.
    hw: HashMap<String, u64>,
}

struct Pipes {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl RtlBus {
    pub fn start(harness: &Path, hwif: &Path) -> Result<RtlBus, String> {
        let table = std::fs::read_to_string(hwif)
            .map_err(|e| format!("cannot read {}: {e}", hwif.display()))?;
        let mut hw = HashMap::new();
        for line in table.lines().filter(|l| !l.starts_with('#')) {
            let mut columns = line.split('\t');
            if let (Some(index), Some(field)) = (columns.next(), columns.next())
                && let Ok(index) = index.parse()
            {
                hw.insert(field.to_string(), index);
            } else {
                return Err(format!(
                    "{}: not `INDEX<TAB>FIELD<TAB>WIDTH`: {line}",
                    hwif.display()
                ));
            }
        }
        let mut child = Command::new(harness)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", harness.display()))?;
        let stdin = child.stdin.take().ok_or("the harness has no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("the harness has no stdout")?);
        Ok(RtlBus {
            child,
            pipes: RefCell::new(Pipes { stdin, stdout }),
            hw,
        })
    }

    fn command(&self, line: &str) -> Result<String, String> {
        // One command at a time: no caller holds the pipes across a call.
        let pipes = &mut *self.pipes.borrow_mut();
        writeln!(pipes.stdin, "{line}")
            .and_then(|()| pipes.stdin.flush())
            .map_err(|e| format!("the harness stopped taking commands ({line}): {e}"))?;
        let mut reply = String::new();
        match pipes.stdout.read_line(&mut reply) {
            Ok(0) | Err(_) => Err(format!("the harness ended without answering `{line}`")),
            Ok(_) => match reply.trim_end().strip_prefix("ok") {
                Some(rest) => Ok(rest.trim().to_string()),
                None => Err(format!("`{line}`: {}", reply.trim_end())),
            },
        }
    }

    fn read32(&self, addr: u64) -> Result<u64, String> {
        let reply = self.command(&format!("r {addr:x}"))?;
        u64::from_str_radix(&reply, 16).map_err(|_| format!("harness: bad read reply `{reply}`"))
    }

    fn write32(&self, addr: u64, value: u64, strobe: u64) -> Result<(), String> {
        self.command(&format!("w {addr:x} {value:x} {strobe:x}"))
            .map(drop)
    }

    /// A read of `width` bits at `addr`, as APB4 transfers.
    fn read_at(&self, addr: u64, width: u32) -> Result<u64, String> {
        let word = addr & !3;
        let shift = (addr & 3) * 8;
        match width {
            64 if addr.is_multiple_of(8) => {
                let low = self.read32(addr)?;
                Ok(low | self.read32(addr + 4)? << 32)
            }
            32 if addr.is_multiple_of(4) => self.read32(addr),
            8 | 16 if addr.is_multiple_of(u64::from(width / 8)) => {
                Ok((self.read32(word)? >> shift) & ((1 << width) - 1))
            }
            _ => Err(format!(
                "unaligned or unknown access: {width} bits at {addr:#x}"
            )),
        }
    }

    /// A write of `width` bits at `addr`, as APB4 transfers.
    fn write_at(&self, addr: u64, width: u32, value: u64) -> Result<(), String> {
        let word = addr & !3;
        let shift = (addr & 3) * 8;
        match width {
            64 if addr.is_multiple_of(8) => {
                self.write32(addr, value & 0xffff_ffff, 0xf)?;
                self.write32(addr + 4, value >> 32, 0xf)
            }
            32 if addr.is_multiple_of(4) => self.write32(addr, value, 0xf),
            8 | 16 if addr.is_multiple_of(u64::from(width / 8)) => {
                let strobe = ((1u64 << (width / 8)) - 1) << (addr & 3);
                self.write32(word, value << shift, strobe)
            }
            _ => Err(format!(
                "unaligned or unknown access: {width} bits at {addr:#x}"
            )),
        }
    }
}

impl Bus for RtlBus {
    fn read(&mut self, addr: u64, width: u32) -> Result<u64, String> {
        self.read_at(addr, width)
    }

    fn write(&mut self, addr: u64, width: u32, value: u64) -> Result<(), String> {
        self.write_at(addr, width, value)
    }

    /// `gba rtl`'s wrapper ties every strap input of the register block to 0
    /// (`codegen/rdl/regblock.py`).
    fn strap(&self, _field: &str) -> Option<u64> {
        Some(0)
    }

    /// The register block takes a write in at the clock edge that ends the transfer, before
    /// the next transfer can read.
    fn settle(&mut self) -> Result<(), String> {
        Ok(())
    }

    fn reset(&mut self) -> Result<bool, String> {
        self.command("reset").map(|_| true)
    }

    fn hw_write(&mut self, field: &str, value: u64) -> Result<bool, String> {
        match self.hw.get(field) {
            Some(&index) => self
                .command(&format!("h {index:x} {value:x}"))
                .map(|_| true),
            None => Ok(false),
        }
    }
}

/// The generated PAC's transaction interface: each access of a typed handle is one read or
/// write here, and a harness that fails says so in the error.
impl gba_pac::common::Bus for RtlBus {
    type Error = String;

    fn read(&self, address: u64, width: gba_pac::common::Width) -> Result<u64, String> {
        self.read_at(address, width.bits())
    }

    fn write(&self, address: u64, width: gba_pac::common::Width, value: u64) -> Result<(), String> {
        self.write_at(address, width.bits(), value)
    }
}

impl Drop for RtlBus {
    fn drop(&mut self) {
        // Closing stdin ends the harness's loop; wait so that no zombie is left.
        let _ = self.pipes.get_mut().stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod pac;
