//! The kernel driver's user-space interface (`driver/gba_ioctl.h`), mirrored for
//! [`KernelBackend`](super::KernelBackend). `gba-hal/tests/kernel_abi.rs` compiles a C program
//! against the header with gcc and compares every size, offset and ioctl number with these.

/// Words of a member set (`GBA_IOCTL_MEMBER_WORDS`).
pub const MEMBER_WORDS: usize = 12;
/// Groups per port (`GBA_IOCTL_GROUPS`).
pub const GROUPS: usize = 32;
/// Processes of one team on one port (`GBA_IOCTL_MAX_LOCAL`).
pub const MAX_LOCAL: usize = 64;
/// mmap offset of group 0's shared memory (`GBA_IOCTL_SHARED_BASE`).
// The backend maps the offset the driver returns; the layout is kept to be checked.
#[allow(dead_code)]
pub const SHARED_BASE: u64 = 0x10_0000;
/// Bytes of one claim's shared memory (`GBA_IOCTL_SHARED_SIZE`).
pub const SHARED_SIZE: u64 = 0x2000;
/// A cache line of the shared memory (`GBA_IOCTL_LINE`): flag, arrivals, `entered[i]`.
pub const LINE: usize = 64;
/// Bytes of a team key (`GBA_IOCTL_KEY_BYTES`): 128 random bits.
pub const KEY_BYTES: usize = 16;
/// A uid the caller may not see: another user's (`GBA_UID_HIDDEN`).
pub const UID_HIDDEN: u32 = u32::MAX;

pub const CLAIM_WON: u32 = 1;
pub const CLAIM_JOINED: u32 = 2;
pub const CLAIM_BUSY: u32 = 3;
pub const CLAIM_DENIED: u32 = 4;

pub const REASON_NONE: u32 = 0;
/// Another team's claim: another key, or another uid whatever the key (one answer: no oracle).
pub const REASON_OTHER_TEAM: u32 = 1;
pub const REASON_QUOTA: u32 = 3;
pub const REASON_MEMBERS: u32 = 4;
pub const REASON_INDEX: u32 = 5;
pub const REASON_RESET_TIMEOUT: u32 = 6;
pub const REASON_NO_MEMORY: u32 = 7;

/// What a refusal's `reason` means, for messages.
pub fn reason_text(reason: u32) -> &'static str {
    match reason {
        REASON_NONE => "no reason given",
        REASON_OTHER_TEAM => "another team (or another user) holds it",
        REASON_QUOTA => "this user holds the driver's groups_per_uid groups on this port already",
        REASON_MEMBERS => "the member set or local count differs from the holder's",
        REASON_INDEX => "the local index is taken, or the team on this port is complete",
        REASON_RESET_TIMEOUT => "the device did not finish the group's RESET within 1 s",
        REASON_NO_MEMORY => "the driver could not allocate DMA memory for the flag",
        _ => "a reason this library does not know (a newer driver?)",
    }
}

/// `struct gba_info`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub device_id: u32,
    pub version: u32,
    pub caps: u32,
    pub port_id: u32,
    pub group_enabled: u32,
    pub groups_busy: u32,
    pub groups_per_uid: u32,
    pub held_by_caller: u32,
    pub barriers_completed: u64,
    pub window_size: u64,
}

/// `struct gba_claim_req`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClaimReq {
    pub group: u32,
    pub local: u32,
    pub index: u32,
    pub flags: u32,
    pub key: [u64; 2],
    pub members: [u64; MEMBER_WORDS],
    pub result: u32,
    pub reason: u32,
    pub owner_uid: u32,
    pub files: u32,
    pub run_offset: u64,
    pub shared_offset: u64,
    pub flag_iova: u64,
    pub rank: u32,
    pub reserved: u32,
}

/// `struct gba_state`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub group: u32,
    pub arrival_count: u32,
    pub member_count: u32,
    pub local_member_id: u32,
    pub control: u64,
    pub status: u64,
    pub release_seq: u64,
    pub release_addr: u64,
    pub member_mask: [u64; MEMBER_WORDS],
    pub arrived_mask: [u64; MEMBER_WORDS],
}

/// `struct gba_claim_entry`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClaimEntry {
    pub group: u32,
    pub uid: u32,
    pub pid: i32,
    pub local: u32,
    pub files: u32,
    pub member_count: u32,
    pub flag_iova: u64,
}

/// `struct gba_claims`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    pub count: u32,
    pub reserved: u32,
    pub entries: [ClaimEntry; GROUPS],
}

/// `struct gba_local`: one file of a claim.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Local {
    pub pid: i32,
    pub uid: u32,
    pub index: u32,
    pub rank: u32,
    pub entered: u64,
}

/// `struct gba_locals`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locals {
    pub group: u32,
    pub count: u32,
    pub entries: [Local; MAX_LOCAL],
}

impl Default for Locals {
    fn default() -> Self {
        Locals {
            group: 0,
            count: 0,
            entries: [Local::default(); MAX_LOCAL],
        }
    }
}

/// `GBA_IOCTL_MAGIC`.
pub const MAGIC: u64 = 0xBA;

/// Linux's generic `_IOC(dir, type, nr, size)` (asm-generic/ioctl.h: x86, arm64, riscv).
const fn ioc(dir: u64, nr: u64, size: usize) -> u64 {
    (dir << 30) | ((size as u64) << 16) | (MAGIC << 8) | nr
}
const WRITE: u64 = 1;
const READ: u64 = 2;

pub const IOC_INFO: u64 = ioc(READ, 0, size_of::<Info>());
pub const IOC_CLAIM: u64 = ioc(READ | WRITE, 1, size_of::<ClaimReq>());
pub const IOC_STATE: u64 = ioc(READ, 2, size_of::<State>());
pub const IOC_CLAIMS: u64 = ioc(READ, 3, size_of::<Claims>());
pub const IOC_LOCALS: u64 = ioc(READ | WRITE, 4, size_of::<Locals>());

/// The mmap offset of group `g`'s shared memory.
#[allow(dead_code)]
pub const fn shared_offset(group: usize) -> u64 {
    SHARED_BASE + group as u64 * SHARED_SIZE
}

// The sizes the header's layout gives on every ABI Linux runs this on (no pointers, explicit
// padding); the test checks them, and every offset, against gcc.
const _: () = assert!(size_of::<Info>() == 48);
const _: () = assert!(size_of::<ClaimReq>() == 176);
const _: () = assert!(size_of::<State>() == 240);
const _: () = assert!(size_of::<ClaimEntry>() == 32);
const _: () = assert!(size_of::<Claims>() == 8 + 32 * 32);
const _: () = assert!(size_of::<Local>() == 24);
const _: () = assert!(size_of::<Locals>() == 8 + 64 * 24);
const _: () = assert!(KEY_BYTES == size_of::<[u64; 2]>());
// The driver's counts are the spec's (gba.yaml through gba-pac); driver/gba.c asserts the
// same against the generated gba_regs.h with BUILD_BUG_ON.
const _: () = assert!(GROUPS == gba_pac::MAX_GROUPS);
const _: () = assert!(MEMBER_WORDS == gba_pac::group::Group::MEMBER_MASK_COUNT);
const _: () = assert!(MEMBER_WORDS == gba_pac::MAX_MEMBERS.div_ceil(64));
