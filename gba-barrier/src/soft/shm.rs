//! Software barriers for processes: the cells live in a shared-memory file (e.g. under
//! `/dev/shm`) that every member process maps, made and opened through
//! [`gba_hal::shared::SharedFile`]: created 0600 (with `GBA_SHARED_GROUP`, a System V
//! segment no member can resize, named by a 0640 pointer file) under a
//! temporary name and published whole (`RENAME_NOREPLACE`), opened only if it is a regular
//! file with one link, owned by the caller or root, writable by nobody else, and of the
//! layout's size (so another user can neither plant nor edit nor truncate it).
//!
//! **Invariants.** (1) No `&` or `&mut` to the mapping is ever created, and none of its bytes
//! are read or written non-atomically: every access is a [`SharedWord`] operation. Other
//! processes write the file concurrently, so a plain access would be a data race and a
//! reference would let the compiler assume the bytes do not change. (2) Offsets are checked
//! against the mapping's length: the header's sizes once, when the file is opened.
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

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use gba_hal::cell::Cell64;
use gba_hal::shared::{Policy, SharedError, SharedFile, SharedWord, Size};

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
    /// The file is not one this process may trust (another user's, writable by others, a
    /// symbolic link, a second link, the wrong size …), named with its owner and mode.
    #[error(transparent)]
    Refused(SharedError),
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

/// Slots in a shared-memory barrier file (see the module docs); one member's view.
#[derive(Debug)]
pub struct ShmCells {
    region: Arc<SharedFile>,
    slots_offset: usize,
    slots: usize,
    member: usize,
}

impl ShmCells {
    #[inline]
    fn slot(&self, i: usize) -> SharedWord<'_> {
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
        let _ = self
            .region
            .word(claim)
            .compare_exchange(u64::from(std::process::id()), 0);
    }
}

impl Cells for ShmCells {
    const KIND: &'static str = "shm";

    fn len(&self) -> usize {
        self.slots
    }

    #[inline]
    fn load(&self, i: usize, order: Ordering) -> u64 {
        self.slot(i).load_with(order)
    }

    #[inline]
    fn store(&self, i: usize, value: u64, order: Ordering) {
        self.slot(i).store_with(value, order);
    }

    #[inline]
    fn fetch_add(&self, i: usize, value: u64, order: Ordering) -> u64 {
        Cell64::fetch_add(&self.slot(i), value, order)
    }
}

/// Byte offset of the slots and total file size for `members` members and `slots` slots.
fn layout(members: usize, slots: usize) -> (usize, usize) {
    let slots_offset = (OFF_CLAIMS + 8 * members).next_multiple_of(SLOT_STRIDE);
    (slots_offset, slots_offset + slots * SLOT_STRIDE)
}

/// A refusal or failure of the shared-file layer, as this module names it (`op`: what was
/// being done).
fn shared_err(op: &'static str) -> impl FnOnce(SharedError) -> ShmError {
    move |e| match e {
        SharedError::Io { path, source, .. } => ShmError::Io { op, path, source },
        other => ShmError::Refused(other),
    }
}

fn policy() -> Result<Policy, ShmError> {
    Policy::from_env().map_err(ShmError::Refused)
}

/// Write the header of a zero-filled region but its magic, which whoever publishes the file
/// stores last (release), so an opener that sees the magic (acquire) sees the rest.
fn init_header(region: &SharedFile, algorithm: Algorithm, members: usize, slots: usize) {
    let alg = match algorithm {
        Algorithm::CentralCounter => 1,
        Algorithm::Dissemination => 2,
    };
    region.word(OFF_VERSION).store(VERSION);
    region.word(OFF_ALGORITHM).store(alg);
    region.word(OFF_MEMBERS).store(members as u64);
    region.word(OFF_SLOTS).store(slots as u64);
}

/// A software barrier whose members are processes sharing a file.
pub type ShmBarrier = SoftBarrier<ShmCells>;

impl SoftBarrier<ShmCells> {
    /// Create the barrier file at `path` (which must not exist; `/dev/shm/NAME` keeps it in
    /// memory) for `members` processes, and join it as member `member`. The other processes
    /// call [`SoftBarrier::open`] with their own member index. Remove the file when the job
    /// is done with [`gba_hal::shared::SharedFile::remove`]: under `GBA_SHARED_GROUP` the
    /// file names a System V segment, which a plain unlink would leave until reboot. Open
    /// handles keep working.
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
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| ShmError::Io {
                op: "create",
                path: path.to_owned(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "no UTF-8 file name"),
            })?;
        let fill = |file: &SharedFile| init_header(file, algorithm, members, slots);
        let region = SharedFile::publish(dir, name, size, &policy()?, (OFF_MAGIC, MAGIC), fill)
            .map_err(shared_err("create"))?
            .ok_or_else(|| ShmError::Io {
                op: "create",
                path: path.to_owned(),
                source: io::ErrorKind::AlreadyExists.into(),
            })?;
        Self::join(Arc::new(region), member)
    }

    /// Open the barrier file at `path` created by [`SoftBarrier::create`] and join it as member
    /// `member` (each process its own index; a taken index is refused).
    pub fn open(path: &Path, member: usize) -> Result<Self, ShmError> {
        let (_, largest) = layout(MAX_MEMBERS, Algorithm::Dissemination.slots(MAX_MEMBERS));
        let region = SharedFile::open(path, Size::Between(0, largest), &policy()?)
            .map_err(shared_err("open"))?;
        if region.len() < OFF_CLAIMS {
            return Err(ShmError::NotABarrier {
                path: path.to_owned(),
                magic: 0,
            });
        }
        Self::join(Arc::new(region), member)
    }

    /// Check the header of a mapped file and claim `member` (taken over from a holder that
    /// died without giving it back).
    fn join(region: Arc<SharedFile>, member: usize) -> Result<Self, ShmError> {
        let path = region.path().to_path_buf();
        let path = path.as_path();
        let bad = |what: String| ShmError::BadHeader {
            path: path.to_owned(),
            what,
        };
        let magic = region.word(OFF_MAGIC).load();
        if magic != MAGIC {
            return Err(ShmError::NotABarrier {
                path: path.to_owned(),
                magic,
            });
        }
        let version = region.word(OFF_VERSION).load();
        if version != VERSION {
            return Err(bad(format!(
                "layout version {version}, this code reads {VERSION}"
            )));
        }
        let algorithm = match region.word(OFF_ALGORITHM).load() {
            1 => Algorithm::CentralCounter,
            2 => Algorithm::Dissemination,
            other => return Err(bad(format!("unknown algorithm {other}"))),
        };
        let members = region.word(OFF_MEMBERS).load();
        let members = usize::try_from(members)
            .ok()
            .filter(|m| (1..=MAX_MEMBERS).contains(m))
            .ok_or_else(|| bad(format!("member count {members} out of range")))?;
        let slots = region.word(OFF_SLOTS).load();
        if slots != algorithm.slots(members) as u64 {
            return Err(bad(format!(
                "{slots} slots, {} needs {}",
                algorithm.name(),
                algorithm.slots(members)
            )));
        }
        let slots = slots as usize;
        let (slots_offset, size) = layout(members, slots);
        if region.len() != size {
            return Err(bad(format!(
                "file is {} bytes, the layout needs {size}",
                region.len()
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
        let claim = region.word(OFF_CLAIMS + 8 * member);
        if let Err(holder) = claim.compare_exchange(0, pid) {
            // A holder that died without giving the member back (killed) leaves it to the
            // next process; a live one keeps it.
            let dead = holder != pid && !gba_hal::host::process::alive(holder);
            if !dead || claim.compare_exchange(holder, pid).is_err() {
                return Err(ShmError::MemberTaken {
                    path: path.to_owned(),
                    member,
                    pid: holder,
                });
            }
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
    use super::*;

    /// A block of ordinary memory laid out as a barrier file for `members` members, which
    /// every barrier of a test shares as processes share the file.
    fn heap(algorithm: Algorithm, members: usize) -> Arc<SharedFile> {
        let slots = algorithm.slots(members);
        let (_, size) = layout(members, slots);
        let file = SharedFile::in_memory("<heap>", size);
        init_header(&file, algorithm, members, slots);
        file.word(OFF_MAGIC).store(MAGIC);
        Arc::new(file)
    }

    fn run(algorithm: Algorithm, members: usize, episodes: u64) {
        let heap = heap(algorithm, members);
        let barriers: Vec<ShmBarrier> = (0..members)
            .map(|m| SoftBarrier::join(heap.clone(), m).unwrap())
            .collect();
        let err = SoftBarrier::join(heap.clone(), 0).unwrap_err();
        assert!(
            matches!(err, ShmError::MemberTaken { member: 0, .. }),
            "{err:?}"
        );
        let err = SoftBarrier::join(heap.clone(), members).unwrap_err();
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
        drop(SoftBarrier::join(heap, 0).unwrap());
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
        let heap = heap(Algorithm::CentralCounter, 2);
        heap.word(OFF_SLOTS).store(7);
        let err = SoftBarrier::join(heap.clone(), 0).unwrap_err();
        assert!(matches!(err, ShmError::BadHeader { .. }), "{err:?}");
        heap.word(OFF_MAGIC).store(0);
        let err = SoftBarrier::join(heap, 0).unwrap_err();
        assert!(
            matches!(err, ShmError::NotABarrier { magic: 0, .. }),
            "{err:?}"
        );
    }

    /// A member whose holder died (a pid no process has) is taken over; a live one is not.
    #[test]
    #[cfg_attr(miri, ignore = "asks the system whether a process lives")]
    fn a_dead_holders_member_is_taken_over() {
        let heap = heap(Algorithm::CentralCounter, 2);
        heap.word(OFF_CLAIMS).store(u64::from(u32::MAX));
        let b = SoftBarrier::join(heap.clone(), 0).unwrap();
        assert_eq!(b.member(), 0);
        heap.word(OFF_CLAIMS + 8).store(1);
        let err = SoftBarrier::join(heap, 1).unwrap_err();
        assert!(
            matches!(err, ShmError::MemberTaken { pid: 1, .. }),
            "{err:?}"
        );
    }
}
