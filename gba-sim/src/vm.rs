//! A fabric whose ports are shown to virtual machines (docs/design/vm.md): one window file per port, padded to a power of two so that QEMU's
//! `ivshmem-plain` can show it as a PCI BAR, and, per port, the guest's RAM file, so that the
//! switch's release write lands in the guest's physical memory at RELEASE_ADDR.
//!
//! ```text
//! <fabric>/window-P     port P's register window, WINDOW_FILE_SIZE bytes (instead of `windows`)
//! <fabric>/guest-P.ram  port P's guest RAM (QEMU: memory-backend-file,share=on); when present,
//!                       port P's RELEASE_ADDR is a guest-physical address in it
//! ```

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::layout::{self as l, WINDOW_SIZE};
use gba_hal::shared::{Policy, SharedFile, SharedWord, Size};

/// Bytes of one per-port window file: the window padded to the next power of two, because
/// an ivshmem BAR is a power of two in size (a 0x50000-byte backing file aborts QEMU 7.2).
pub const WINDOW_FILE_SIZE: usize = WINDOW_SIZE.next_power_of_two();

/// Port `p`'s window file in a fabric created with per-port windows.
pub fn window_file(dir: &Path, p: usize) -> PathBuf {
    dir.join(format!("window-{p}"))
}

/// Port `p`'s guest RAM file.
pub fn guest_ram_file(dir: &Path, p: usize) -> PathBuf {
    dir.join(format!("guest-{p}.ram"))
}

/// Refuses to lay out files for virtual machines under a configured group
/// ([`GROUP_ENV`](gba_hal::shared::GROUP_ENV)): a virtual machine's fabric is single-user.
///
/// Under a group every other memory of a fabric is a System V segment, which no member can
/// resize. A window or guest RAM file cannot be one: QEMU (`memory-backend-file`) and a UIO
/// resource file map them by path, so they must be files, and a file the group may write is a
/// file any member may truncate under another member's QEMU or stepper (SIGBUS), or shrink
/// under the release flags the switch writes into guest RAM. Sealed memory (a memfd that
/// nobody can resize) would reach QEMU only through a descriptor handed over by a broker that
/// owns it; none exists, so the layout is refused instead (docs/design/vm.md).
pub(crate) fn check_single_user(options: &crate::CreateOptions, policy: &Policy) -> Result<()> {
    let Some(gid) = policy.group else {
        return Ok(());
    };
    let asked = match (options.per_port_windows, options.guest_ram.is_some()) {
        (false, false) => return Ok(()),
        (true, false) => "window files per port",
        (false, true) => "guest RAM files",
        (true, true) => "window files per port and guest RAM files",
    };
    Err(Error::VmFilesUnderGroup { what: asked, gid })
}

/// Whether `name` is a file that [`crate::Fabric::destroy`] removes besides the three of
/// [`crate::layout`]: a window or guest RAM file.
pub(crate) fn is_vm_file(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    name.strip_prefix("window-").is_some_and(digits)
        || name
            .strip_prefix("guest-")
            .and_then(|rest| rest.strip_suffix(".ram"))
            .is_some_and(digits)
}

/// The fabric's register windows: one file holding every port's (the default), or one file
/// per port.
#[derive(Debug)]
pub(crate) enum Windows {
    One(SharedFile),
    PerPort(Vec<SharedFile>),
}

impl Windows {
    pub(crate) fn create(
        dir: &Path,
        ports: usize,
        per_port: bool,
        policy: &Policy,
    ) -> Result<Windows> {
        // The one `windows` file only this library maps: a segment under a configured group,
        // like the fabric's other memory. Per-port window files are QEMU's and a UIO
        // resource file's (mapped by path), so they stay files, and are made only without a
        // configured group (`check_single_user`).
        if !per_port {
            let file = SharedFile::create(&dir.join(l::WINDOWS_FILE), ports * WINDOW_SIZE, policy)?;
            return Ok(Windows::One(file));
        }
        (0..ports)
            .map(|p| {
                Ok(SharedFile::create_file(
                    &window_file(dir, p),
                    WINDOW_FILE_SIZE,
                    policy,
                )?)
            })
            .collect::<Result<_>>()
            .map(Windows::PerPort)
    }

    /// The windows of the fabric in `dir`: the `windows` file if there is one, else one
    /// `window-P` per port.
    pub(crate) fn open(dir: &Path, ports: usize, policy: &Policy) -> Result<Windows> {
        let one = dir.join(l::WINDOWS_FILE);
        if one.symlink_metadata().is_ok() || window_file(dir, 0).symlink_metadata().is_err() {
            let file = SharedFile::open(&one, Size::Exact(ports * WINDOW_SIZE), policy)?;
            return Ok(Windows::One(file));
        }
        (0..ports)
            .map(|p| {
                let path = window_file(dir, p);
                Ok(SharedFile::open(
                    &path,
                    Size::Exact(WINDOW_FILE_SIZE),
                    policy,
                )?)
            })
            .collect::<Result<_>>()
            .map(Windows::PerPort)
    }

    /// The first byte (page-aligned) of port `p`'s window; `p` is a port of the fabric.
    pub(crate) fn base(&self, p: usize) -> *mut u8 {
        match self {
            Windows::One(file) => file.as_ptr().wrapping_add(p * WINDOW_SIZE),
            Windows::PerPort(files) => files[p].as_ptr(),
        }
    }

    pub(crate) fn per_port(&self) -> bool {
        matches!(self, Windows::PerPort(_))
    }
}

/// Start of the memory QEMU's q35 machine maps above the PCI hole.
const FOUR_GIB: u64 = 1 << 32;

/// A guest's RAM file, mapped, with QEMU q35's split of guest-physical addresses: RAM below
/// the PCI hole from address 0, the rest from 4 GiB on (QEMU 7.2 `pc_q35_init`: the low part
/// is all of RAM up to 2.75 GiB, else 2 GiB).
#[derive(Debug)]
pub(crate) struct GuestRam {
    file: SharedFile,
    below_4g: u64,
    size: u64,
}

impl GuestRam {
    /// `size` bytes of new guest RAM at `path` (QEMU's `-m` must be the same size).
    pub(crate) fn create(path: &Path, size: u64, policy: &Policy) -> Result<GuestRam> {
        Ok(GuestRam::new(
            SharedFile::create_file(path, to_len(path, size)?, policy)?,
            size,
        ))
    }

    /// The guest RAM file at `path`, whatever its size (a whole number of pages).
    pub(crate) fn open(path: &Path, policy: &Policy) -> Result<GuestRam> {
        let file = SharedFile::open(path, Size::Between(4096, usize::MAX), policy)?;
        let size = file.len() as u64;
        to_len(path, size)?;
        Ok(GuestRam::new(file, size))
    }

    fn new(file: SharedFile, size: u64) -> GuestRam {
        GuestRam {
            file,
            below_4g: q35_below_4g(size),
            size,
        }
    }

    /// The word at guest-physical address `addr`, if it is 8-byte aligned and RAM.
    pub(crate) fn word(&self, addr: u64) -> Option<SharedWord<'_>> {
        let offset = q35_offset(addr, self.below_4g, self.size)?;
        self.file.try_word(usize::try_from(offset).ok()?)
    }
}

/// Refuses a guest RAM size that is not a whole number of pages.
pub(crate) fn check_guest_ram_size(path: &Path, size: u64) -> Result<()> {
    to_len(path, size).map(|_| ())
}

fn to_len(path: &Path, size: u64) -> Result<usize> {
    match usize::try_from(size) {
        Ok(len) if len >= 8 && size.is_multiple_of(4096) => Ok(len),
        _ => Err(Error::Corrupt {
            path: path.to_path_buf(),
            what: format!("is {size} bytes; guest RAM is a whole number of 4 KiB pages"),
        }),
    }
}

/// Bytes of guest RAM that q35 maps below 4 GiB.
fn q35_below_4g(size: u64) -> u64 {
    let lowmem = if size >= 0xb000_0000 {
        0x8000_0000
    } else {
        0xb000_0000
    };
    size.min(lowmem)
}

/// The file offset of the 8-byte word at guest-physical address `addr`.
fn q35_offset(addr: u64, below_4g: u64, size: u64) -> Option<u64> {
    if !addr.is_multiple_of(8) {
        return None;
    }
    let offset = if addr < below_4g {
        addr
    } else {
        below_4g.checked_add(addr.checked_sub(FOUR_GIB)?)?
    };
    (offset.checked_add(8)? <= size).then_some(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;

    #[test]
    fn small_guests_are_all_below_the_hole() {
        let size = 256 * MIB;
        let low = q35_below_4g(size);
        assert_eq!(low, size);
        assert_eq!(q35_offset(0x1000, low, size), Some(0x1000));
        assert_eq!(q35_offset(size - 8, low, size), Some(size - 8));
        assert_eq!(q35_offset(size, low, size), None, "past the end of RAM");
        assert_eq!(q35_offset(0xb000_0000, low, size), None, "the PCI hole");
        assert_eq!(q35_offset(FOUR_GIB, low, size), None, "no RAM above 4 GiB");
        assert_eq!(q35_offset(0x1004, low, size), None, "unaligned");
    }

    #[test]
    fn large_guests_continue_at_four_gib() {
        // 2.75 GiB and more: 2 GiB low, the rest from 4 GiB.
        let size = 3 * GIB;
        let low = q35_below_4g(size);
        assert_eq!(low, 2 * GIB);
        assert_eq!(q35_offset(2 * GIB - 8, low, size), Some(2 * GIB - 8));
        assert_eq!(q35_offset(2 * GIB, low, size), None, "the hole");
        assert_eq!(q35_offset(FOUR_GIB, low, size), Some(2 * GIB));
        assert_eq!(q35_offset(FOUR_GIB + GIB - 8, low, size), Some(3 * GIB - 8));
        assert_eq!(q35_offset(FOUR_GIB + GIB, low, size), None, "past the end");
        // Below 2.75 GiB every byte is low.
        assert_eq!(q35_below_4g(2 * GIB + 512 * MIB), 2 * GIB + 512 * MIB);
    }

    #[test]
    fn vm_file_names() {
        assert!(is_vm_file("window-0") && is_vm_file("window-12"));
        assert!(is_vm_file("guest-3.ram"));
        for name in [
            "window-",
            "window-x",
            "guest-.ram",
            "guest-1.raw",
            "windows",
            "arenas",
        ] {
            assert!(!is_vm_file(name), "{name}");
        }
    }
}
