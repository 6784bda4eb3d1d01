//! Sealed memory (docs/design/trust.md, "Flag memory under a configured group"): a memfd whose
//! size no holder can change, so that memory several users' processes map (the flag page a
//! device writes, under `GBA_SHARED_GROUP`) cannot be truncated under another's job. A
//! truncated shared mapping is SIGBUS at the next access, and on UIO a freed frame the device
//! keeps writing; a file's mode cannot prevent it, since whoever may write the memory may
//! truncate the file. Seals can: `F_SEAL_SHRINK | F_SEAL_GROW` bind every open file of the
//! memfd, whoever holds it, and `F_SEAL_SEAL` keeps anyone from lifting them. Writes stay
//! allowed (no `F_SEAL_WRITE`): processes write their words, the device its flags.
//!
//! [`create`] makes such memory, [`check`] verifies memory received from another process
//! (over a Unix socket) before it is mapped. Nothing uses it now: shared memory under a
//! configured group is a System V segment (`sysv.rs`), which needs no process to keep it
//! (docs/design/trust.md says why).

use std::ffi::CString;
use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd};
use std::path::Path;

use super::SharedError;

/// The seals memory shared under a configured group must carry.
pub const SEALS: libc::c_int = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;

/// A new memfd called `name` (what `/proc/PID/fd` shows as `memfd:NAME`) of `len` zeroed
/// bytes, sealed with [`SEALS`].
pub fn create(name: &str, len: usize) -> Result<File, SharedError> {
    let label = Path::new(name);
    let cname = CString::new(name).map_err(|_| SharedError::Corrupt {
        path: label.to_path_buf(),
        what: "holds a NUL byte and cannot name a memfd".into(),
    })?;
    // SAFETY: a NUL-terminated name; the flags ask for a close-on-exec, sealable memfd.
    let fd =
        unsafe { libc::memfd_create(cname.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING) };
    if fd < 0 {
        return Err(SharedError::io(
            "create the memfd",
            label,
            std::io::Error::last_os_error(),
        ));
    }
    // SAFETY: a new descriptor that nothing else owns.
    let file = unsafe { File::from_raw_fd(fd) };
    file.set_len(len as u64)
        .map_err(|e| SharedError::io("size the memfd", label, e))?;
    // SAFETY: F_ADD_SEALS takes an int; the descriptor is open.
    if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_ADD_SEALS, SEALS) } != 0 {
        return Err(SharedError::io(
            "seal the memfd",
            label,
            std::io::Error::last_os_error(),
        ));
    }
    Ok(file)
}

/// Whether `file` (received from another process, called `name` in errors) is memory no
/// holder can resize: a memfd carrying every seal of [`SEALS`], of exactly `len` bytes.
pub fn check(file: &File, name: &Path, len: usize) -> Result<(), SharedError> {
    // SAFETY: F_GET_SEALS takes no argument; the descriptor is open.
    let seals = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GET_SEALS) };
    if seals < 0 {
        return Err(SharedError::Corrupt {
            path: name.to_path_buf(),
            what: "is not sealable memory (not a memfd): any process that may write it could truncate it under the others".into(),
        });
    }
    let missing: Vec<&str> = [
        (libc::F_SEAL_SHRINK, "F_SEAL_SHRINK"),
        (libc::F_SEAL_GROW, "F_SEAL_GROW"),
        (libc::F_SEAL_SEAL, "F_SEAL_SEAL"),
    ]
    .into_iter()
    .filter(|&(seal, _)| seals & seal == 0)
    .map(|(_, name)| name)
    .collect();
    if !missing.is_empty() {
        return Err(SharedError::Corrupt {
            path: name.to_path_buf(),
            what: format!(
                "lacks the seals {}: a holder could resize it under the others",
                missing.join(", ")
            ),
        });
    }
    let size = file
        .metadata()
        .map_err(|e| SharedError::io("stat", name, e))?
        .len();
    if size != len as u64 {
        return Err(SharedError::Size {
            path: name.to_path_buf(),
            len: size,
            expected: format!("{len} bytes"),
        });
    }
    Ok(())
}

#[cfg(all(test, not(miri)))]
mod tests {
    use super::*;
    use std::os::unix::fs::FileExt;

    /// Another open file of the memory (what a second process holds after receiving it):
    /// reopened through /proc, its own file description.
    fn reopen(file: &File) -> File {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(format!("/proc/self/fd/{}", file.as_raw_fd()))
            .unwrap()
    }

    /// Nobody resizes sealed memory, through any open file of it; its bytes stay writable.
    #[test]
    fn sealed_memory_cannot_be_truncated_by_any_holder() {
        let memory = create("gba-test-flags", 8192).unwrap();
        check(&memory, Path::new("gba-test-flags"), 8192).unwrap();
        let other = reopen(&memory);
        for holder in [&memory, &other] {
            let err = holder.set_len(4096).unwrap_err();
            assert_eq!(err.raw_os_error(), Some(libc::EPERM), "{err}");
            assert_eq!(
                holder.set_len(16384).unwrap_err().raw_os_error(),
                Some(libc::EPERM)
            );
        }
        other.write_all_at(&0xbeefu64.to_le_bytes(), 64).unwrap();
        let mut word = [0u8; 8];
        memory.read_exact_at(&mut word, 64).unwrap();
        assert_eq!(u64::from_le_bytes(word), 0xbeef);
        assert_eq!(memory.metadata().unwrap().len(), 8192);
    }

    /// Memory that could be resized is refused, naming what is missing; so is a wrong size.
    #[test]
    fn unsealed_or_resized_memory_is_refused_by_name() {
        let name = Path::new("received");
        let plain = tempfile::tempfile().unwrap();
        plain.set_len(8192).unwrap();
        let err = check(&plain, name, 8192).unwrap_err().to_string();
        assert!(
            err.contains("received") && err.contains("not a memfd"),
            "{err}"
        );

        let cname = CString::new("unsealed").unwrap();
        // SAFETY: as in `create`.
        let fd = unsafe {
            libc::memfd_create(cname.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING)
        };
        assert!(fd >= 0);
        // SAFETY: a new descriptor nothing else owns.
        let unsealed = unsafe { File::from_raw_fd(fd) };
        unsealed.set_len(8192).unwrap();
        let err = check(&unsealed, name, 8192).unwrap_err().to_string();
        assert!(
            err.contains("F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_SEAL"),
            "{err}"
        );

        let sealed = create("gba-test-size", 4096).unwrap();
        let err = check(&sealed, name, 8192).unwrap_err().to_string();
        assert!(err.contains("4096") && err.contains("8192"), "{err}");
    }
}
