//! Hardware through Linux VFIO: the device behind the IOMMU, as a production user-space driver
//! reaches it.
//!
//! Opening follows the kernel's documentation (Documentation/driver-api/vfio.rst): check the
//! PCI device in sysfs (IOMMU group, bound driver), open the container `/dev/vfio/vfio`, check
//! the API version and the type1v2 IOMMU, open the group `/dev/vfio/<group>`, check it is
//! viable, attach it to the container, set the IOMMU type, get the device's file descriptor
//! and map the register window from the first BAR region that is mmappable and large enough
//! (BAR 0 on the GBA; BAR 2 on QEMU's ivshmem, whose BAR 0 is its 256-byte control page).
//!
//! DMA memory: each allocation is its own locked anonymous mapping, mapped into the IOMMU with
//! `VFIO_IOMMU_MAP_DMA` at an IOVA the backend chooses ([`IovaChoice`]) and unmapped with
//! `VFIO_IOMMU_UNMAP_DMA` when freed (the HAL frees a group's release flag when the group is
//! released) or when the backend drops. Every failure a user meets names its fix.

use std::ffi::CString;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Mutex;

use gba_pac::common::Volatile;

use super::phys::{PhysError, PinnedPages};
use crate::HostArbiter;
use crate::backend::{Backend, DmaError, DmaRegion};
use crate::host::{FlagLines, SegmentArbiter, SegmentFile};

/// Where sysfs lists PCI devices.
pub const DEFAULT_PCI_SYSFS: &str = "/sys/bus/pci/devices";
/// Where the VFIO character devices are.
pub const DEFAULT_DEV_VFIO: &str = "/dev/vfio";
/// The first IOVA of [`IovaChoice::Bump`]: 4 GiB, inside every IOMMU's aperture (39-bit
/// address width and up) and clear of the low addresses some platforms reserve.
pub const IOVA_BASE: u64 = 0x1_0000_0000;

/// The kernel's ABI, from include/uapi/linux/vfio.h: `_IO(VFIO_TYPE, VFIO_BASE + n)` with
/// `VFIO_TYPE = ';'` and `VFIO_BASE = 100` (no size or direction bits: VFIO's ioctls carry
/// `argsz` in their structures instead).
mod abi {
    const fn io(n: u64) -> u64 {
        ((b';' as u64) << 8) | (100 + n)
    }
    pub const VFIO_API_VERSION: i32 = 0;
    pub const VFIO_TYPE1V2_IOMMU: u64 = 3;
    pub const VFIO_GET_API_VERSION: u64 = io(0);
    pub const VFIO_CHECK_EXTENSION: u64 = io(1);
    pub const VFIO_SET_IOMMU: u64 = io(2);
    pub const VFIO_GROUP_GET_STATUS: u64 = io(3);
    pub const VFIO_GROUP_SET_CONTAINER: u64 = io(4);
    pub const VFIO_GROUP_GET_DEVICE_FD: u64 = io(6);
    pub const VFIO_DEVICE_GET_REGION_INFO: u64 = io(8);
    pub const VFIO_IOMMU_MAP_DMA: u64 = io(13);
    pub const VFIO_IOMMU_UNMAP_DMA: u64 = io(14);

    pub const VFIO_GROUP_FLAGS_VIABLE: u32 = 1 << 0;
    pub const VFIO_REGION_INFO_FLAG_READ: u32 = 1 << 0;
    pub const VFIO_REGION_INFO_FLAG_WRITE: u32 = 1 << 1;
    pub const VFIO_REGION_INFO_FLAG_MMAP: u32 = 1 << 2;
    pub const VFIO_DMA_MAP_FLAG_READ: u32 = 1 << 0;
    pub const VFIO_DMA_MAP_FLAG_WRITE: u32 = 1 << 1;
    /// VFIO_PCI_BAR0_REGION_INDEX … VFIO_PCI_BAR5_REGION_INDEX.
    pub const BAR_REGIONS: core::ops::Range<u32> = 0..6;

    /// `struct vfio_group_status`.
    #[repr(C)]
    #[derive(Default)]
    pub struct GroupStatus {
        pub argsz: u32,
        pub flags: u32,
    }

    /// `struct vfio_region_info`.
    #[repr(C)]
    #[derive(Default, Debug)]
    pub struct RegionInfo {
        pub argsz: u32,
        pub flags: u32,
        pub index: u32,
        pub cap_offset: u32,
        pub size: u64,
        pub offset: u64,
    }

    /// `struct vfio_iommu_type1_dma_map`.
    #[repr(C)]
    pub struct DmaMap {
        pub argsz: u32,
        pub flags: u32,
        pub vaddr: u64,
        pub iova: u64,
        pub size: u64,
    }

    /// `struct vfio_iommu_type1_dma_unmap` (without the flexible `data[]` no flag here uses).
    #[repr(C)]
    pub struct DmaUnmap {
        pub argsz: u32,
        pub flags: u32,
        pub iova: u64,
        pub size: u64,
    }

    const _: () = assert!(core::mem::size_of::<RegionInfo>() == 32);
    const _: () = assert!(core::mem::size_of::<DmaMap>() == 32);
    const _: () = assert!(core::mem::size_of::<DmaUnmap>() == 24);
}

/// How the backend chooses the IOVA it maps DMA memory at (and writes into RELEASE_ADDR).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IovaChoice {
    /// Consecutive pages from 0x1_0000_0000: what a driver on real hardware uses.
    #[default]
    Bump,
    /// IOVA = the page's physical address (`/proc/self/pagemap`, root only). In a virtual
    /// machine this is the guest-physical address, which lets a simulated switch outside the
    /// guest, writing guest RAM, resolve RELEASE_ADDR without the guest's IOMMU tables.
    Physical,
}

/// Why a VFIO device could not be opened or used. Each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum VfioError {
    /// No such PCI device.
    #[error(
        "no PCI device {bdf} in {}: check the address with `lspci -D`",
        sysfs.display()
    )]
    NoDevice {
        /// The device's PCI address.
        bdf: String,
        /// The sysfs directory looked in.
        sysfs: PathBuf,
    },

    /// The machine runs without an IOMMU.
    #[error(
        "{bdf} is in no IOMMU group: this machine runs without an IOMMU. Enable it (firmware VT-d/AMD-Vi, kernel parameter intel_iommu=on or amd_iommu=on; in QEMU `-machine q35 -device intel-iommu` before the device), or use the UIO backend (/dev/uioN)"
    )]
    NoIommu {
        /// The device's PCI address.
        bdf: String,
    },

    /// The device is bound to another driver than vfio-pci.
    #[error(
        "{bdf} is bound to {}, not vfio-pci: bind it with `modprobe vfio-pci; echo vfio-pci > /sys/bus/pci/devices/{bdf}/driver_override; echo {bdf} > /sys/bus/pci/devices/{bdf}/driver/unbind; echo {bdf} > /sys/bus/pci/drivers_probe`",
        driver.as_deref().unwrap_or("no driver")
    )]
    NotBound {
        /// The device's PCI address.
        bdf: String,
        /// Its driver, if any.
        driver: Option<String>,
    },

    /// No /dev/vfio: vfio-pci is not loaded.
    #[error("{} does not exist: load the driver with `modprobe vfio-pci`", path.display())]
    NoVfio {
        /// The path looked for.
        path: PathBuf,
    },

    /// No permission to open the group node.
    #[error(
        "no permission to open {}: run as root, or give your user the group's node (`chown $USER {}`) and enough locked memory (`ulimit -l`)",
        path.display(), path.display()
    )]
    NotPermitted {
        /// The node.
        path: PathBuf,
    },

    /// A VFIO node could not be opened.
    #[error("cannot open {}", path.display())]
    Open {
        /// The node.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },

    /// Another process holds the group and does not share it.
    #[error(
        "{} is open in another process (or another open of this one) that does not share it: VFIO gives {bdf} to one process, which shares it with the host's others only while it keeps it open. Start the processes while the first opener runs, bind the device to uio_pci_generic and use /dev/uioN, or run one rank per host",
        path.display()
    )]
    GroupInUse {
        /// The device's PCI address.
        bdf: String,
        /// The group node.
        path: PathBuf,
    },

    /// The holder's descriptor socket answered with something untrusted.
    #[error(
        "{bdf} is held by another process of this host, and its descriptor socket answered with something this process does not trust: {what}"
    )]
    ShareRefused {
        /// The device's PCI address.
        bdf: String,
        /// What was wrong with the answer.
        what: String,
    },

    /// The descriptor socket could not be set up.
    #[error(
        "cannot serve {bdf}'s descriptors to this host's other processes (its socket, @{name})"
    )]
    ShareSocket {
        /// The device's PCI address.
        bdf: String,
        /// The socket's abstract name.
        name: String,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },

    /// The host segment could not be set up.
    #[error(
        "cannot set up the host segment of {bdf} (where the host's processes share the device; its directory is {}, set {} to another directory you own that no other user can write)",
        dir.display(), crate::host::SEGMENT_DIR_ENV
    )]
    HostSegment {
        /// The device's PCI address.
        bdf: String,
        /// The host segment's directory.
        dir: PathBuf,
        /// Why.
        #[source]
        source: crate::host::SegmentError,
    },

    /// A device of the IOMMU group is bound to another driver.
    #[error(
        "IOMMU group {group} is not viable: every device in it must be bound to vfio-pci or to no driver ({devices})"
    )]
    NotViable {
        /// The IOMMU group.
        group: String,
        /// Its devices and their drivers.
        devices: String,
    },

    /// The kernel's VFIO is not the API this backend speaks.
    #[error(
        "the kernel's VFIO speaks API {found}, not {}, or lacks the type1v2 IOMMU: this backend needs Linux ≥ 3.15 with vfio_iommu_type1",
        abi::VFIO_API_VERSION
    )]
    Unsupported {
        /// The kernel's API version.
        found: i32,
    },

    /// A VFIO ioctl failed.
    #[error("{what} failed on {bdf}")]
    Ioctl {
        /// Which.
        what: &'static str,
        /// The device's PCI address.
        bdf: String,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },

    /// No BAR can hold the register window.
    #[error(
        "{bdf} has no mmappable BAR of at least {needed:#x} bytes (BARs: {bars}): is this a GBA?"
    )]
    NoWindow {
        /// The device's PCI address.
        bdf: String,
        /// Bytes needed.
        needed: usize,
        /// The BARs found.
        bars: String,
    },

    /// A BAR could not be mapped.
    #[error("cannot map BAR {index} of {bdf}")]
    Map {
        /// The BAR.
        index: u32,
        /// The device's PCI address.
        bdf: String,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
}

/// One DMA allocation: its pages and where the IOMMU maps them.
#[derive(Debug)]
struct Mapped {
    pages: PinnedPages,
    iova: u64,
}

/// A GBA port through VFIO (`vfio:0000:00:04.0`): the register window a BAR mapped, DMA
/// memory mapped by the IOMMU, shared with the host's other processes through a
/// descriptor socket and a host segment.
#[derive(Debug)]
pub struct VfioBackend {
    bdf: String,
    window: NonNull<u8>,
    window_len: usize,
    window_bar: u32,
    iova: IovaChoice,
    /// The first opener's server of the descriptors to the host's other processes (stopped
    /// first in `Drop::drop`: it uses the descriptors below).
    server: Option<super::vfio_share::Server>,
    // Dropped in declaration order after `Drop::drop` unmapped the window and the DMA memory:
    // device, then group, then container, as the kernel expects them closed. A process that
    // received the descriptors has no group file (the first opener's keeps the group).
    device: File,
    _group: Option<File>,
    container: File,
    dma: Mutex<DmaState>,
    /// The port's host segment: claims, local-arrivals blocks and the flag page.
    segment: SegmentFile,
    /// The port's arbiter, over `segment`.
    host: SegmentArbiter,
    /// The host's flag page as the device reaches it: group g's flag is its line g.
    flags: FlagLines,
}

/// The descriptors an open starts from: its own (first opener) or received.
struct Opened {
    container: File,
    group: Option<File>,
    device: File,
    /// The host's flag page IOVA, for a process that received the descriptors.
    flags_iova: Option<u64>,
}

/// How long a second opener waits for the first opener's server, which starts a moment after
/// the first opener took the group.
const SERVER_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The IOVA of the host's flag page with [`IovaChoice::Bump`]: the page below the bump range.
pub const FLAGS_IOVA: u64 = IOVA_BASE - 0x1000;

/// Maps the segment's flag page into `container`'s IOMMU (locked first, so that its physical
/// address is known for [`IovaChoice::Physical`]); its IOVA, or what failed.
fn map_flag_page(
    container: &File,
    segment: &SegmentFile,
    iova: IovaChoice,
) -> Result<u64, (&'static str, io::Error)> {
    segment
        .lock_flag_page()
        .map_err(|e| ("mlock of the host's flag page (ulimit -l)", e))?;
    let page = segment.flag_page();
    let flags_iova = match iova {
        IovaChoice::Bump => FLAGS_IOVA,
        IovaChoice::Physical => {
            super::phys::physical_address(page.as_ptr() as usize).map_err(|e| {
                (
                    "/proc/self/pagemap for the host's flag page",
                    io::Error::other(e),
                )
            })?
        }
    };
    let mut map = abi::DmaMap {
        argsz: size_of::<abi::DmaMap>() as u32,
        flags: abi::VFIO_DMA_MAP_FLAG_READ | abi::VFIO_DMA_MAP_FLAG_WRITE,
        vaddr: page.as_ptr() as u64,
        iova: flags_iova,
        size: 0x1000,
    };
    // SAFETY: VFIO_IOMMU_MAP_DMA reads a `struct vfio_iommu_type1_dma_map` of `argsz` bytes;
    // `vaddr` is the segment's flag page, one page-aligned page of a shared file mapping that
    // the kernel pins for as long as the IOMMU maps it (until the container closes).
    unsafe {
        ioctl(
            container,
            abi::VFIO_IOMMU_MAP_DMA,
            &raw mut map as libc::c_ulong,
        )
    }
    .map_err(|e| ("VFIO_IOMMU_MAP_DMA of the host's flag page", e))?;
    Ok(flags_iova)
}

#[derive(Debug)]
struct DmaState {
    next_iova: u64,
    mapped: Vec<Mapped>,
}

// SAFETY: the window is a mapping owned by this value and reached only volatilely through the
// HAL; the DMA bookkeeping is behind a mutex.
unsafe impl Send for VfioBackend {}
// SAFETY: as for `Send`.
unsafe impl Sync for VfioBackend {}

/// Checks `text` is a full PCI address, `dddd:bb:dd.f` in hexadecimal.
pub fn is_pci_address(text: &str) -> bool {
    let b = text.as_bytes();
    let hex = |r: core::ops::Range<usize>| b[r].iter().all(u8::is_ascii_hexdigit);
    b.len() == 12
        && hex(0..4)
        && b[4] == b':'
        && hex(5..7)
        && b[7] == b':'
        && hex(8..10)
        && b[10] == b'.'
        && (b'0'..=b'7').contains(&b[11])
}

/// What opening the group's node failed with: EBUSY is the kernel's "this group is open
/// already" (a VFIO group has one opener), said so by name.
fn group_open_error(bdf: &str, error: VfioError) -> VfioError {
    match error {
        VfioError::Open { path, source } if source.raw_os_error() == Some(libc::EBUSY) => {
            VfioError::GroupInUse {
                bdf: bdf.into(),
                path,
            }
        }
        e => e,
    }
}

fn link_name(path: &Path) -> Option<String> {
    let target = std::fs::read_link(path).ok()?;
    Some(target.file_name()?.to_string_lossy().into_owned())
}

fn open_rw(path: &Path) -> Result<File, VfioError> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|source| match source.kind() {
            io::ErrorKind::PermissionDenied => VfioError::NotPermitted {
                path: path.to_path_buf(),
            },
            io::ErrorKind::NotFound => VfioError::NoVfio {
                path: path.to_path_buf(),
            },
            _ => VfioError::Open {
                path: path.to_path_buf(),
                source,
            },
        })
}

/// `ioctl(fd, request, arg)`, its result or the OS error.
///
/// # Safety
///
/// `arg` is what `request` takes on `fd` (an integer, or a pointer to its structure, valid for
/// the kernel to read and write for the call).
unsafe fn ioctl(fd: &File, request: u64, arg: libc::c_ulong) -> io::Result<i32> {
    // SAFETY: forwarded from the caller; the request type differs between C libraries.
    let result = unsafe { libc::ioctl(fd.as_raw_fd(), request as _, arg) };
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

impl VfioBackend {
    /// Opens PCI device `bdf` (`0000:00:04.0`) through `/sys/bus/pci/devices` and `/dev/vfio`,
    /// DMA at IOVAs chosen by `iova`.
    pub fn open(bdf: &str, iova: IovaChoice) -> Result<Self, VfioError> {
        Self::open_at(
            bdf,
            Path::new(DEFAULT_PCI_SYSFS),
            Path::new(DEFAULT_DEV_VFIO),
            iova,
        )
    }

    /// As [`open`](Self::open) with other roots for sysfs and `/dev/vfio` (tests); the host
    /// segment in `GBA_HOST_SEGMENT_DIR` or the caller's runtime directory
    /// ([`crate::host::segment_dir`]).
    pub fn open_at(
        bdf: &str,
        pci_sysfs: &Path,
        dev_vfio: &Path,
        iova: IovaChoice,
    ) -> Result<Self, VfioError> {
        let dir = crate::host::segment_dir().map_err(|source| VfioError::HostSegment {
            bdf: bdf.to_string(),
            dir: crate::shared::dir::runtime_dir_path(),
            source,
        })?;
        Self::open_in(bdf, pci_sysfs, dev_vfio, iova, &dir)
    }

    /// As [`open_at`](Self::open_at), the host segment in `segment_dir`.
    pub fn open_in(
        bdf: &str,
        pci_sysfs: &Path,
        dev_vfio: &Path,
        iova: IovaChoice,
        segment_dir: &Path,
    ) -> Result<Self, VfioError> {
        let dir = pci_sysfs.join(bdf);
        if !dir.exists() {
            return Err(VfioError::NoDevice {
                bdf: bdf.into(),
                sysfs: pci_sysfs.to_path_buf(),
            });
        }
        let Some(group) = link_name(&dir.join("iommu_group")) else {
            return Err(VfioError::NoIommu { bdf: bdf.into() });
        };
        let driver = link_name(&dir.join("driver"));
        if driver.as_deref() != Some("vfio-pci") {
            return Err(VfioError::NotBound {
                bdf: bdf.into(),
                driver,
            });
        }
        let container = open_rw(&dev_vfio.join("vfio"))?;
        let failed = |what| {
            move |source| VfioError::Ioctl {
                what,
                bdf: bdf.into(),
                source,
            }
        };
        // SAFETY: VFIO_GET_API_VERSION takes no argument.
        let version = unsafe { ioctl(&container, abi::VFIO_GET_API_VERSION, 0) }.map_err(
            failed("VFIO_GET_API_VERSION (is /dev/vfio/vfio the VFIO container?)"),
        )?;
        // SAFETY: VFIO_CHECK_EXTENSION takes the extension as an integer.
        let type1v2 = unsafe {
            ioctl(
                &container,
                abi::VFIO_CHECK_EXTENSION,
                abi::VFIO_TYPE1V2_IOMMU,
            )
        }
        .map_err(failed("VFIO_CHECK_EXTENSION"))?;
        if version != abi::VFIO_API_VERSION || type1v2 != 1 {
            return Err(VfioError::Unsupported { found: version });
        }
        let opened = open_rw(&dev_vfio.join(&group)).map_err(|e| group_open_error(bdf, e));
        let group_file = match opened {
            Ok(file) => file,
            // Another process of this host holds the group: ask it for its descriptors
            // (vfio_share.rs). Refused by name when no process serves them.
            Err(VfioError::GroupInUse { bdf, path }) => {
                use super::vfio_share::{Expected, ShareError, receive_within, socket_name};
                let received = socket_name(&bdf)
                    .map_err(ShareError::Unavailable)
                    .and_then(|name| receive_within(&name, &Expected::vfio(dev_vfio), SERVER_WAIT));
                return match received {
                    Ok((container, device, flags_iova)) => Self::finish(
                        &bdf,
                        iova,
                        Opened {
                            container,
                            group: None,
                            device,
                            flags_iova: Some(flags_iova),
                        },
                        segment_dir,
                    ),
                    Err(ShareError::Refused(what)) => Err(VfioError::ShareRefused { bdf, what }),
                    Err(ShareError::Unavailable(_)) => Err(VfioError::GroupInUse { bdf, path }),
                };
            }
            Err(e) => return Err(e),
        };
        let mut status = abi::GroupStatus {
            argsz: size_of::<abi::GroupStatus>() as u32,
            flags: 0,
        };
        // SAFETY: VFIO_GROUP_GET_STATUS writes a `struct vfio_group_status` of `argsz` bytes.
        unsafe {
            ioctl(
                &group_file,
                abi::VFIO_GROUP_GET_STATUS,
                &raw mut status as libc::c_ulong,
            )
        }
        .map_err(failed("VFIO_GROUP_GET_STATUS"))?;
        if status.flags & abi::VFIO_GROUP_FLAGS_VIABLE == 0 {
            let members = std::fs::read_dir(dir.join("iommu_group/devices"))
                .map(|entries| {
                    entries
                        .flatten()
                        .map(|e| {
                            let name = e.file_name().to_string_lossy().into_owned();
                            let driver = link_name(&e.path().join("driver"));
                            format!("{name}: {}", driver.as_deref().unwrap_or("no driver"))
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default();
            return Err(VfioError::NotViable {
                group,
                devices: members,
            });
        }
        let container_fd: i32 = container.as_raw_fd();
        // SAFETY: VFIO_GROUP_SET_CONTAINER reads an `int` file descriptor through the pointer.
        unsafe {
            ioctl(
                &group_file,
                abi::VFIO_GROUP_SET_CONTAINER,
                &raw const container_fd as libc::c_ulong,
            )
        }
        .map_err(failed("VFIO_GROUP_SET_CONTAINER"))?;
        // SAFETY: VFIO_SET_IOMMU takes the IOMMU type as an integer.
        unsafe { ioctl(&container, abi::VFIO_SET_IOMMU, abi::VFIO_TYPE1V2_IOMMU) }
            .map_err(failed("VFIO_SET_IOMMU (type1v2)"))?;
        let name = CString::new(bdf).map_err(|_| VfioError::NoDevice {
            bdf: bdf.into(),
            sysfs: pci_sysfs.to_path_buf(),
        })?;
        // SAFETY: VFIO_GROUP_GET_DEVICE_FD reads a NUL-terminated device name.
        let device_fd = unsafe {
            ioctl(
                &group_file,
                abi::VFIO_GROUP_GET_DEVICE_FD,
                name.as_ptr() as libc::c_ulong,
            )
        }
        .map_err(failed("VFIO_GROUP_GET_DEVICE_FD"))?;
        // SAFETY: the ioctl returned a new file descriptor that nothing else owns.
        let device = unsafe { File::from_raw_fd(device_fd) };
        Self::finish(
            bdf,
            iova,
            Opened {
                container,
                group: Some(group_file),
                device,
                flags_iova: None,
            },
            segment_dir,
        )
    }

    /// The rest of opening, for the group's first opener (`flags_iova: None`: it maps the
    /// host's flag page into the IOMMU and serves the descriptors to the host's other
    /// processes) and for a process that received them.
    fn finish(
        bdf: &str,
        iova: IovaChoice,
        opened: Opened,
        segment_dir: &Path,
    ) -> Result<Self, VfioError> {
        let Opened {
            container,
            group: group_file,
            device,
            flags_iova,
        } = opened;
        let failed = |what| {
            move |source| VfioError::Ioctl {
                what,
                bdf: bdf.into(),
                source,
            }
        };
        let mut bars = Vec::new();
        let mut chosen = None;
        for index in abi::BAR_REGIONS {
            let mut info = abi::RegionInfo {
                argsz: size_of::<abi::RegionInfo>() as u32,
                index,
                ..Default::default()
            };
            // SAFETY: VFIO_DEVICE_GET_REGION_INFO reads `index` and writes a `struct
            // vfio_region_info` of `argsz` bytes.
            unsafe {
                ioctl(
                    &device,
                    abi::VFIO_DEVICE_GET_REGION_INFO,
                    &raw mut info as libc::c_ulong,
                )
            }
            .map_err(failed("VFIO_DEVICE_GET_REGION_INFO"))?;
            bars.push(format!("{index}: {:#x} flags {:#x}", info.size, info.flags));
            let rw_mmap = abi::VFIO_REGION_INFO_FLAG_READ
                | abi::VFIO_REGION_INFO_FLAG_WRITE
                | abi::VFIO_REGION_INFO_FLAG_MMAP;
            if chosen.is_none()
                && info.flags & rw_mmap == rw_mmap
                && info.size >= gba_pac::Device::SIZE as u64
            {
                chosen = Some(info);
            }
        }
        let Some(info) = chosen else {
            return Err(VfioError::NoWindow {
                bdf: bdf.into(),
                needed: gba_pac::Device::SIZE,
                bars: bars.join("; "),
            });
        };
        // Only the window: a BAR may be far larger (ivshmem pads it to a power of two).
        let window_len =
            gba_pac::Device::SIZE.div_ceil(super::phys::page_size()) * super::phys::page_size();
        let window_len = window_len.min(info.size as usize);
        // SAFETY: maps `window_len` bytes of the device file at the region's offset, shared (a
        // device's BAR); the result is checked before use.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                window_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                device.as_raw_fd(),
                info.offset as libc::off_t,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(VfioError::Map {
                index: info.index,
                bdf: bdf.into(),
                source: io::Error::last_os_error(),
            });
        }
        let window = NonNull::new(ptr.cast::<u8>()).expect("mmap does not return null on success");
        let unmap_window = || {
            // SAFETY: the mapping just made, unmapped once on this failure path.
            unsafe { libc::munmap(ptr, window_len) };
        };
        // SAFETY: the window just mapped, at least Device::SIZE bytes, reached volatilely.
        let port = unsafe { super::uio::port_id(window.as_ptr()) };
        let identity = format!("{bdf}-port{port}");
        let segment = match SegmentFile::name(&identity)
            .and_then(|name| SegmentFile::open_or_create(segment_dir, &name, &identity))
        {
            Ok(segment) => segment,
            Err(source) => {
                unmap_window();
                return Err(VfioError::HostSegment {
                    bdf: bdf.into(),
                    dir: segment_dir.to_path_buf(),
                    source,
                });
            }
        };
        let (flags_iova, server) = match flags_iova {
            Some(iova) => (iova, None),
            None => {
                // The first opener maps the host's flag page into the container, once: the
                // mapping lives with the container, which the host's other processes share.
                let flags_iova = match map_flag_page(&container, &segment, iova) {
                    Ok(flags_iova) => flags_iova,
                    Err((what, source)) => {
                        unmap_window();
                        return Err(failed(what)(source));
                    }
                };
                // A name already held (another user may have squatted it) is reported: the
                // host's other processes would otherwise ask whoever holds it.
                let served = super::vfio_share::socket_name(bdf).and_then(|name| {
                    super::vfio_share::Server::start(
                        &name,
                        container.as_raw_fd(),
                        device.as_raw_fd(),
                        flags_iova,
                    )
                });
                match served {
                    Ok(server) => (flags_iova, Some(server)),
                    Err(source) => {
                        unmap_window();
                        return Err(VfioError::ShareSocket {
                            bdf: bdf.into(),
                            name: super::vfio_share::socket_name(bdf).unwrap_or_default(),
                            source,
                        });
                    }
                }
            }
        };
        // SAFETY: the segment's flag page is page-aligned, one page (≥ FlagLines::BYTES),
        // mapped while `segment` (kept in the backend) lives; the container's IOMMU maps the
        // same page at `flags_iova` (this process's MAP_DMA above, or the first opener's, of
        // the same tmpfs page); every process reaches it only atomically.
        let flags = unsafe { FlagLines::new(segment.flag_page(), flags_iova) };
        let host_key = crate::host::host_key(segment.path(), port as usize);
        // SAFETY: this value owns the segment's mapping and the flag memory (kept mapped as
        // said above) as long as it owns the arbiter.
        let host = unsafe {
            SegmentArbiter::new(
                segment.segment(),
                host_key,
                // A team-mate's flag is the group's line of the host's flag page.
                Box::new(move |group, iova, len| flags.resolve(group, iova, len)),
            )
        };
        Ok(VfioBackend {
            bdf: bdf.into(),
            window,
            window_len,
            window_bar: info.index,
            iova,
            server,
            device,
            _group: group_file,
            container,
            dma: Mutex::new(DmaState {
                next_iova: IOVA_BASE,
                mapped: Vec::new(),
            }),
            host,
            segment,
            flags,
        })
    }

    /// The PCI address.
    pub fn bdf(&self) -> &str {
        &self.bdf
    }

    /// The port's host segment file (kept for the arbiter and the flag page, which live in it).
    pub fn segment_file(&self) -> &SegmentFile {
        &self.segment
    }

    /// The BAR the window was mapped from.
    pub fn window_bar(&self) -> u32 {
        self.window_bar
    }

    /// The device's file descriptor (for interrupts or config space, which this backend leaves
    /// to its user).
    pub fn device_file(&self) -> &File {
        &self.device
    }

    fn unmap(&self, mapped: &Mapped) {
        let mut unmap = abi::DmaUnmap {
            argsz: size_of::<abi::DmaUnmap>() as u32,
            flags: 0,
            iova: mapped.iova,
            size: mapped.pages.len() as u64,
        };
        // SAFETY: VFIO_IOMMU_UNMAP_DMA reads and writes a `struct vfio_iommu_type1_dma_unmap`
        // of `argsz` bytes; the range is one this backend mapped. A failure leaves the pages
        // pinned by the kernel until the container closes, which drop does.
        let _ = unsafe {
            ioctl(
                &self.container,
                abi::VFIO_IOMMU_UNMAP_DMA,
                &raw mut unmap as libc::c_ulong,
            )
        };
    }
}

fn dma_error(reason: &'static str) -> DmaError {
    DmaError { reason }
}

// SAFETY: the window is `window_len` ≥ Device::SIZE bytes of the device's BAR (checked against
// the region size; page-aligned), owned by this value until drop, never referenced, reached
// only volatilely through the HAL. Each DMA region is its own zeroed, page-aligned anonymous
// mapping (so it shares no line with another), mapped into the IOMMU at `iova` before it is
// handed out and unmapped before its pages are freed; the host reads it only atomically. A
// group's flag is its own line of the host segment's flag page, mapped into the container's
// IOMMU for as long as the container lives (every process of the host that uses the device
// holds the container) and in every such process's own mapping of the segment, handed out
// only to the winner of the group's claim and its team; the local-arrivals block is in the
// segment, which this value keeps mapped.
unsafe impl Backend for VfioBackend {
    type Mechanism = Volatile;

    fn window(&self) -> *mut u8 {
        self.window.as_ptr()
    }

    fn alloc_dma(&self, len: usize) -> Result<DmaRegion, DmaError> {
        let pages =
            PinnedPages::new(len).map_err(|_| dma_error("cannot lock DMA memory (ulimit -l)"))?;
        let mut state = self.dma.lock().unwrap_or_else(|e| e.into_inner());
        let iova = match self.iova {
            IovaChoice::Bump => state.next_iova,
            IovaChoice::Physical => {
                if pages.len() != super::phys::page_size() {
                    return Err(dma_error(
                        "IOVA = physical address needs an allocation of one page",
                    ));
                }
                pages.physical_address().map_err(|e| match e {
                    PhysError::Hidden => {
                        dma_error("/proc/self/pagemap hides physical addresses: run as root")
                    }
                    PhysError::Pagemap(_) => dma_error("cannot read /proc/self/pagemap"),
                })?
            }
        };
        let mut map = abi::DmaMap {
            argsz: size_of::<abi::DmaMap>() as u32,
            flags: abi::VFIO_DMA_MAP_FLAG_READ | abi::VFIO_DMA_MAP_FLAG_WRITE,
            vaddr: pages.ptr().as_ptr() as u64,
            iova,
            size: pages.len() as u64,
        };
        // SAFETY: VFIO_IOMMU_MAP_DMA reads a `struct vfio_iommu_type1_dma_map` of `argsz`
        // bytes; `vaddr..vaddr+size` is the locked mapping `pages`, which stays mapped until
        // after the matching unmap (free_dma, drop).
        unsafe {
            ioctl(
                &self.container,
                abi::VFIO_IOMMU_MAP_DMA,
                &raw mut map as libc::c_ulong,
            )
        }
        .map_err(|_| dma_error("VFIO_IOMMU_MAP_DMA failed (IOVA taken or out of the IOMMU's aperture, or locked-memory limit: ulimit -l)"))?;
        if self.iova == IovaChoice::Bump {
            state.next_iova += pages.len() as u64;
        }
        let region = DmaRegion {
            host: pages.ptr(),
            iova,
            len,
        };
        state.mapped.push(Mapped { pages, iova });
        Ok(region)
    }

    fn free_dma(&self, region: DmaRegion) {
        let mut state = self.dma.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = state.mapped.iter().position(|m| m.iova == region.iova) {
            let mapped = state.mapped.swap_remove(i);
            self.unmap(&mapped);
            // `mapped.pages` drops here: munmap after the IOMMU no longer reaches them.
        }
    }

    fn alloc_flag(&self, group: usize, len: usize) -> Result<DmaRegion, DmaError> {
        self.flags.alloc(group, len)
    }

    fn free_flag(&self, group: usize, region: DmaRegion) {
        // The line is the group's for good: nothing to give back.
        let _ = (group, region);
    }

    fn now_ns(&self) -> u64 {
        super::clock::monotonic_ns()
    }

    fn host(&self) -> &dyn HostArbiter {
        &self.host
    }

    fn describe(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vfio:{}", self.bdf)
    }
}

impl Drop for VfioBackend {
    fn drop(&mut self) {
        // The server uses the descriptors: stopped and joined before anything closes. The flag
        // page stays mapped in the IOMMU until the container closes (the host's other
        // processes may still poll it).
        self.server.take();
        let mapped =
            std::mem::take(&mut self.dma.get_mut().unwrap_or_else(|e| e.into_inner()).mapped);
        for m in &mapped {
            self.unmap(m);
        }
        // SAFETY: the window mapped in `open_at`, unmapped once; the HAL's handles borrow the
        // `Device` that owns this backend, so none is left.
        unsafe { libc::munmap(self.window.as_ptr().cast(), self.window_len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn pci_addresses_are_checked() {
        assert!(is_pci_address("0000:00:04.0"));
        assert!(is_pci_address("0001:af:1f.7"));
        for bad in ["00:04.0", "0000:00:04.8", "0000:00:04", "000g:00:04.0", ""] {
            assert!(!is_pci_address(bad), "{bad}");
        }
    }

    /// A fake `/sys/bus/pci/devices` with one device, and a `/dev/vfio` directory.
    fn tree(group: bool, driver: Option<&str>) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let dev = root.path().join("sys/0000:00:04.0");
        std::fs::create_dir_all(&dev).unwrap();
        std::fs::create_dir_all(root.path().join("drivers")).unwrap();
        std::fs::create_dir_all(root.path().join("groups/7")).unwrap();
        std::fs::create_dir_all(root.path().join("dev")).unwrap();
        if group {
            symlink(root.path().join("groups/7"), dev.join("iommu_group")).unwrap();
        }
        if let Some(driver) = driver {
            let path = root.path().join("drivers").join(driver);
            std::fs::create_dir_all(&path).unwrap();
            symlink(path, dev.join("driver")).unwrap();
        }
        root
    }

    fn open(root: &tempfile::TempDir, bdf: &str) -> VfioError {
        VfioBackend::open_at(
            bdf,
            &root.path().join("sys"),
            &root.path().join("dev"),
            IovaChoice::Bump,
        )
        .unwrap_err()
    }

    #[test]
    fn every_failure_names_its_fix() {
        let root = tree(true, Some("vfio-pci"));
        let e = open(&root, "0000:00:05.0");
        assert!(matches!(e, VfioError::NoDevice { .. }), "{e}");
        assert!(e.to_string().contains("lspci -D"));

        let e = open(&tree(false, None), "0000:00:04.0");
        assert!(matches!(e, VfioError::NoIommu { .. }), "{e}");
        assert!(e.to_string().contains("intel_iommu=on"));

        let e = open(&tree(true, Some("uio_pci_generic")), "0000:00:04.0");
        assert!(e.to_string().contains("bound to uio_pci_generic"), "{e}");
        assert!(e.to_string().contains("driver_override"));
        let e = open(&tree(true, None), "0000:00:04.0");
        assert!(e.to_string().contains("bound to no driver"), "{e}");

        // Bound, but the VFIO module is not loaded: no /dev/vfio/vfio.
        let e = open(&root, "0000:00:04.0");
        assert!(matches!(e, VfioError::NoVfio { .. }), "{e}");
        assert!(e.to_string().contains("modprobe vfio-pci"));

        // Something that is not the container: the first ioctl is refused by name.
        std::fs::write(root.path().join("dev/vfio"), b"").unwrap();
        let e = open(&root, "0000:00:04.0");
        assert!(e.to_string().contains("VFIO_GET_API_VERSION"), "{e}");
    }

    #[test]
    fn a_node_without_permission_says_so() {
        use std::os::unix::fs::PermissionsExt;
        let root = tree(true, Some("vfio-pci"));
        let node = root.path().join("dev/vfio");
        std::fs::write(&node, b"").unwrap();
        std::fs::set_permissions(&node, std::fs::Permissions::from_mode(0o000)).unwrap();
        let e = open(&root, "0000:00:04.0");
        // root opens any file: then the container check refuses it instead.
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            assert!(matches!(e, VfioError::Ioctl { .. }), "{e}");
        } else {
            assert!(matches!(e, VfioError::NotPermitted { .. }), "{e}");
            assert!(e.to_string().contains("run as root"));
        }
    }

    #[test]
    fn a_group_open_in_another_process_is_named() {
        let busy = VfioError::Open {
            path: PathBuf::from("/dev/vfio/7"),
            source: io::Error::from_raw_os_error(libc::EBUSY),
        };
        let e = group_open_error("0000:00:04.0", busy);
        assert!(matches!(e, VfioError::GroupInUse { .. }), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("/dev/vfio/7 is open in another process"),
            "{text}"
        );
        assert!(text.contains("uio_pci_generic"), "{text}");
        let other = VfioError::Open {
            path: PathBuf::from("/dev/vfio/7"),
            source: io::Error::from_raw_os_error(libc::EIO),
        };
        assert!(matches!(
            group_open_error("0000:00:04.0", other),
            VfioError::Open { .. }
        ));
    }

    #[test]
    fn ioctl_numbers_match_the_kernel_header() {
        // _IO(';', 100 + n), values from include/uapi/linux/vfio.h.
        assert_eq!(abi::VFIO_GET_API_VERSION, 0x3b64);
        assert_eq!(abi::VFIO_GROUP_GET_DEVICE_FD, 0x3b6a);
        assert_eq!(abi::VFIO_DEVICE_GET_REGION_INFO, 0x3b6c);
        assert_eq!(abi::VFIO_IOMMU_MAP_DMA, 0x3b71);
        assert_eq!(abi::VFIO_IOMMU_UNMAP_DMA, 0x3b72);
    }
}
