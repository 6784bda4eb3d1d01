//! Software barriers for processes: the cells live in a shared-memory file (e.g. under
//! `/dev/shm`) that every member process maps.
//!
//! **Invariants.** (1) No `&` or `&mut` to the mapping is ever created, and none of its bytes
//! are read or written non-atomically: every access is an `AtomicU64` operation through a raw
//! pointer (`AtomicU64::from_ptr`, whose reference lives for that one operation). Other
//! processes write the file concurrently, so a plain access would be a data race and a
//! reference would let the compiler assume the bytes do not change. (2) Pointers are
//! computed only from the mapping's base and offsets checked against its length once, when
//! the file is created or opened.
//!
//! File layout (little-endian `u64`s):
//!
//! ```text
//! 0x00  MAGIC      "GBASHMB1", stored last (Release) by the creator
//! 0x08  VERSION    1
//! 0x10  ALGORITHM  1 central counter, 2 dissemination
//! 0x18  MEMBERS    n
//! 0x20  SLOTS      slot count
//! 0x40  CLAIMS[n]  pid of the process that holds member m, 0 if free
//! ...   SLOTS[s]   at the next multiple of 128, one u64 per 128-byte line
//! ```

use std::fs::OpenOptions;
use std::io;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::MmapRaw;

use super::cells::Cells;
use super::{Algorithm, SoftBarrier};

const MAGIC: u64 = u64::from_le_bytes(*b"GBASHMB1");
const VERSION: u64 = 1;
const OFF_MAGIC: usize = 0x00;
const OFF_VERSION: usize = 0x08;
const OFF_ALGORITHM: usize = 0x10;
const OFF_MEMBERS: usize = 0x18;
const OFF_SLOTS: usize = 0x20;
const OFF_CLAIMS: usize = 0x40;
/// Distance between slots: two 64-byte lines, as crossbeam's `CachePadded` on x86-64 (the
/// adjacent-line prefetcher pulls pairs of lines).
pub const SLOT_STRIDE: usize = 128;
/// The most members a shared-memory barrier accepts (a GBA group's limit).
pub const MAX_MEMBERS: usize = gba_pac::MAX_MEMBERS;

/// Why a shared-memory barrier could not be created or opened.
#[derive(Debug, thiserror::Error)]
pub enum ShmError {
    /// The OS refused a file operation.
    #[error("{op} {path}: {source}")]
    Io {
        /// What was being done (`"create"`, `"open"`, `"map"` …).
        op: &'static str,
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// Member count out of range.
    #[error("a shared-memory barrier needs 1..={MAX_MEMBERS} members, not {members}")]
    BadMemberCount {
        /// The count asked for.
        members: usize,
    },
    /// The file is not (yet) a barrier.
    #[error(
        "{path} is not an initialised barrier file (magic {magic:#018x}); if its creator is \
         still starting, retry; otherwise check the path"
    )]
    NotABarrier {
        /// The file.
        path: PathBuf,
        /// What was found where the magic should be.
        magic: u64,
    },
    /// The file's header does not describe a barrier this code can use.
    #[error("{path}: {what}; recreate the file with this version")]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The member index is not one of the barrier's.
    #[error(
        "{path}: member {member} out of range, the barrier has {members} members (0..{members})"
    )]
    MemberOutOfRange {
        /// The file.
        path: PathBuf,
        /// The index asked for.
        member: usize,
        /// Members of the barrier.
        members: usize,
    },
    /// Another live handle holds this member.
    #[error(
        "{path}: member {member} is already held by process {pid}; give each process its own \
         member index"
    )]
    MemberTaken {
        /// The file.
        path: PathBuf,
        /// The index asked for.
        member: usize,
        /// The holder's process id.
        pid: u64,
    },
}

/// The mapped file: base pointer and length, checked once. Owns the mapping.
#[derive(Debug)]
struct Region {
    /// Keeps the mapping alive; accessed only through `base`. `None` only in the unit tests,
    /// which lay the file out in heap memory so that Miri can check this code (Miri cannot map
    /// files).
    _map: Option<MmapRaw>,
    base: NonNull<u8>,
    len: usize,
}

impl Region {
    /// The atomic at byte `offset`.
    ///
    /// # Panics
    /// If `offset` is misaligned or the word does not fit in the mapping.
    #[inline]
    fn word(&self, offset: usize) -> &AtomicU64 {
        assert!(
            offset.is_multiple_of(8) && offset + 8 <= self.len,
            "offset {offset:#x} outside the barrier file"
        );
        // SAFETY: `base` is the start of a live mapping of `len` bytes owned by `self._map`
        // (in unit tests: a heap allocation that outlives the region), page aligned, so
        // `base + offset` is in bounds (checked above) and 8-byte aligned; the memory outlives
        // the returned reference (it borrows `self`). Every process accesses these bytes only
        // atomically (module invariant 1), so there is no mixed access.
        unsafe { AtomicU64::from_ptr(self.base.as_ptr().add(offset).cast::<u64>()) }
    }
}

/// Slots in a shared-memory barrier file (see the module docs); one member's view.
#[derive(Debug)]
pub struct ShmCells {
    region: Region,
    slots_offset: usize,
    slots: usize,
    member: usize,
}

// SAFETY: the cells hold a pointer into a mapping they own; the mapping is valid from any
// thread and is only accessed atomically.
unsafe impl Send for ShmCells {}

impl ShmCells {
    #[inline]
    fn slot(&self, i: usize) -> &AtomicU64 {
        assert!(
            i < self.slots,
            "slot {i} out of range ({} slots)",
            self.slots
        );
        self.region.word(self.slots_offset + i * SLOT_STRIDE)
    }
}

impl Drop for ShmCells {
    /// Give the member back, so that a replacement process may open it.
    fn drop(&mut self) {
        let claim = OFF_CLAIMS + 8 * self.member;
        self.region.word(claim).store(0, Ordering::Release);
    }
}

impl Cells for ShmCells {
    const KIND: &'static str = "shm";

    fn len(&self) -> usize {
        self.slots
    }

    #[inline]
    fn load(&self, i: usize, order: Ordering) -> u64 {
        self.slot(i).load(order)
    }

    #[inline]
    fn store(&self, i: usize, value: u64, order: Ordering) {
        self.slot(i).store(value, order);
    }

    #[inline]
    fn fetch_add(&self, i: usize, value: u64, order: Ordering) -> u64 {
        self.slot(i).fetch_add(value, order)
    }
}

/// Byte offset of the slots and total file size for `members` members and `slots` slots.
fn layout(members: usize, slots: usize) -> (usize, usize) {
    let slots_offset = (OFF_CLAIMS + 8 * members).next_multiple_of(SLOT_STRIDE);
    (slots_offset, slots_offset + slots * SLOT_STRIDE)
}

fn io_err<'a>(op: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> ShmError + 'a {
    move |source| ShmError::Io {
        op,
        path: path.to_owned(),
        source,
    }
}

fn map(file: &std::fs::File, path: &Path) -> Result<Region, ShmError> {
    let map = MmapRaw::map_raw(file).map_err(io_err("map", path))?;
    let len = map.len();
    let base = NonNull::new(map.as_mut_ptr()).ok_or_else(|| ShmError::BadHeader {
        path: path.to_owned(),
        what: "mapped at address 0".into(),
    })?;
    Ok(Region {
        _map: Some(map),
        base,
        len,
    })
}

/// Write the header of a zero-filled region, then publish it with the magic (Release), so an
/// opener that sees the magic (Acquire) sees the rest.
fn init_header(region: &Region, algorithm: Algorithm, members: usize, slots: usize) {
    let alg = match algorithm {
        Algorithm::CentralCounter => 1,
        Algorithm::Dissemination => 2,
    };
    region.word(OFF_VERSION).store(VERSION, Ordering::Relaxed);
    region.word(OFF_ALGORITHM).store(alg, Ordering::Relaxed);
    region
        .word(OFF_MEMBERS)
        .store(members as u64, Ordering::Relaxed);
    region
        .word(OFF_SLOTS)
        .store(slots as u64, Ordering::Relaxed);
    region.word(OFF_MAGIC).store(MAGIC, Ordering::Release);
}

/// A software barrier whose members are processes sharing a file.
pub type ShmBarrier = SoftBarrier<ShmCells>;

impl SoftBarrier<ShmCells> {
    /// Create the barrier file at `path` (which must not exist; `/dev/shm/NAME` keeps it in
    /// memory) for `members` processes, and join it as member `member`. The other processes
    /// call [`SoftBarrier::open`] with their own member index. Remove the file when the job
    /// is done (`std::fs::remove_file`); open handles keep working.
    pub fn create(
        path: &Path,
        algorithm: Algorithm,
        members: usize,
        member: usize,
    ) -> Result<Self, ShmError> {
        if !(1..=MAX_MEMBERS).contains(&members) {
            return Err(ShmError::BadMemberCount { members });
        }
        let slots = algorithm.slots(members);
        let (_, size) = layout(members, slots);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(io_err("create", path))?;
        file.set_len(size as u64).map_err(io_err("size", path))?;
        let region = map(&file, path)?;
        init_header(&region, algorithm, members, slots);
        Self::join(region, path, member)
    }

    /// Open the barrier file at `path` created by [`SoftBarrier::create`] and join it as member
    /// `member` (each process its own index; a taken index is refused).
    pub fn open(path: &Path, member: usize) -> Result<Self, ShmError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io_err("open", path))?;
        let region = map(&file, path)?;
        if region.len < OFF_CLAIMS {
            return Err(ShmError::NotABarrier {
                path: path.to_owned(),
                magic: 0,
            });
        }
        Self::join(region, path, member)
    }

    /// Check the header of a mapped file and claim `member`.
    fn join(region: Region, path: &Path, member: usize) -> Result<Self, ShmError> {
        let bad = |what: String| ShmError::BadHeader {
            path: path.to_owned(),
            what,
        };
        let magic = region.word(OFF_MAGIC).load(Ordering::Acquire);
        if magic != MAGIC {
            return Err(ShmError::NotABarrier {
                path: path.to_owned(),
                magic,
            });
        }
        let version = region.word(OFF_VERSION).load(Ordering::Relaxed);
        if version != VERSION {
            return Err(bad(format!(
                "layout version {version}, this code reads {VERSION}"
            )));
        }
        let algorithm = match region.word(OFF_ALGORITHM).load(Ordering::Relaxed) {
            1 => Algorithm::CentralCounter,
            2 => Algorithm::Dissemination,
            other => return Err(bad(format!("unknown algorithm {other}"))),
        };
        let members = region.word(OFF_MEMBERS).load(Ordering::Relaxed);
        let members = usize::try_from(members)
            .ok()
            .filter(|m| (1..=MAX_MEMBERS).contains(m))
            .ok_or_else(|| bad(format!("member count {members} out of range")))?;
        let slots = region.word(OFF_SLOTS).load(Ordering::Relaxed);
        if slots != algorithm.slots(members) as u64 {
            return Err(bad(format!(
                "{slots} slots, {} needs {}",
                algorithm.name(),
                algorithm.slots(members)
            )));
        }
        let slots = slots as usize;
        let (slots_offset, size) = layout(members, slots);
        if region.len < size {
            return Err(bad(format!(
                "file is {} bytes, the layout needs {size}",
                region.len
            )));
        }
        if member >= members {
            return Err(ShmError::MemberOutOfRange {
                path: path.to_owned(),
                member,
                members,
            });
        }
        let pid = u64::from(std::process::id());
        if let Err(holder) = region.word(OFF_CLAIMS + 8 * member).compare_exchange(
            0,
            pid,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            return Err(ShmError::MemberTaken {
                path: path.to_owned(),
                member,
                pid: holder,
            });
        }
        let cells = ShmCells {
            region,
            slots_offset,
            slots,
            member,
        };
        Ok(SoftBarrier::with_cells(cells, algorithm, member, members))
    }
}

/// The layout code and the raw-pointer accesses over heap memory instead of a file, so that
/// Miri can check them: `cargo +nightly miri test -p gba-barrier --lib soft::shm`.
#[cfg(test)]
mod tests {
    use std::alloc::{Layout, alloc_zeroed, dealloc};

    use super::*;

    /// A zeroed, page-aligned heap block laid out as a barrier file for `members` members.
    struct Heap {
        base: NonNull<u8>,
        layout: Layout,
    }

    impl Heap {
        fn new(algorithm: Algorithm, members: usize) -> Self {
            let (_, size) = layout(members, algorithm.slots(members));
            let layout = Layout::from_size_align(size, 4096).unwrap();
            // SAFETY: the layout has a non-zero size (the header alone is 0x40 bytes).
            let base = NonNull::new(unsafe { alloc_zeroed(layout) }).expect("out of memory");
            let heap = Heap { base, layout };
            init_header(&heap.region(), algorithm, members, algorithm.slots(members));
            heap
        }

        /// One more view of the block, as another process's mapping would be.
        fn region(&self) -> Region {
            Region {
                _map: None,
                base: self.base,
                len: self.layout.size(),
            }
        }
    }

    impl Drop for Heap {
        fn drop(&mut self) {
            // SAFETY: allocated in `new` with this layout; every region over it is dropped
            // before (the tests drop their barriers first).
            unsafe { dealloc(self.base.as_ptr(), self.layout) }
        }
    }

    fn run(algorithm: Algorithm, members: usize, episodes: u64) {
        let heap = Heap::new(algorithm, members);
        let path = Path::new("<heap>");
        let barriers: Vec<ShmBarrier> = (0..members)
            .map(|m| SoftBarrier::join(heap.region(), path, m).unwrap())
            .collect();
        let err = SoftBarrier::join(heap.region(), path, 0).unwrap_err();
        assert!(
            matches!(err, ShmError::MemberTaken { member: 0, .. }),
            "{err:?}"
        );
        let err = SoftBarrier::join(heap.region(), path, members).unwrap_err();
        assert!(matches!(err, ShmError::MemberOutOfRange { .. }), "{err:?}");
        std::thread::scope(|s| {
            for mut b in barriers {
                s.spawn(move || {
                    for k in 1..=episodes {
                        b.wait(None).unwrap();
                        assert_eq!(b.episode(), k);
                    }
                });
            }
        });
        // Every member was given back when its handle dropped.
        drop(SoftBarrier::join(heap.region(), path, 0).unwrap());
    }

    #[test]
    fn dissemination_over_plain_memory() {
        run(Algorithm::Dissemination, 3, 5);
    }

    #[test]
    fn central_counter_over_plain_memory() {
        run(Algorithm::CentralCounter, 3, 5);
    }

    #[test]
    fn header_is_checked() {
        let heap = Heap::new(Algorithm::CentralCounter, 2);
        let path = Path::new("<heap>");
        heap.region().word(OFF_SLOTS).store(7, Ordering::Relaxed);
        let err = SoftBarrier::join(heap.region(), path, 0).unwrap_err();
        assert!(matches!(err, ShmError::BadHeader { .. }), "{err:?}");
        heap.region().word(OFF_MAGIC).store(0, Ordering::Relaxed);
        let err = SoftBarrier::join(heap.region(), path, 0).unwrap_err();
        assert!(
            matches!(err, ShmError::NotABarrier { magic: 0, .. }),
            "{err:?}"
        );
    }
}
