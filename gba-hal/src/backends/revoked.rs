//! A clear last word for a process whose device mapping the kernel driver revoked.
//!
//! When `gba.ko` lets go of a port (remove, unbind, a reset, a PCI error), it zaps every user
//! mapping of the port's run-time pages and release flags, and a later access to one gets
//! `SIGBUS` (docs/driver.md, "When the port goes away"). The process is then usually inside a barrier:
//! it stored its arrival or is waiting for its flag, and nothing can finish that barrier. It
//! still has to die — going on would be an early release or a hang — but not silently: this
//! module's `SIGBUS` handler writes which device went away to stderr first, then lets the
//! access fault again with the default action, so the process ends with `SIGBUS` as before.
//!
//! Only faults inside a range the kernel backend registered ([`watch`]) are answered; any other
//! `SIGBUS` goes to the handler installed before ours (an MPI runtime's backtrace printer, say)
//! or, if there was none, to the default action. The handler is installed once, when the first
//! range is registered, so processes that never open `/dev/gbaN` are unaffected.
//!
//! Everything the handler touches is async-signal-safe: atomics in a fixed table, `write(2)`,
//! `sigaction(2)`, and messages made (and leaked, one per device path) before registration.

use std::ffi::{c_int, c_void};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Mutex, Once, OnceLock};

/// Ranges watched at once: two per held group (run-time page and flags are one window range
/// plus one flag range each) and one window per open port, with room for several ports.
const SLOTS: usize = 128;

/// One watched range. `start` is 0 when the slot is free and `RESERVED` while it is filled.
struct Slot {
    start: AtomicUsize,
    len: AtomicUsize,
    message: AtomicPtr<u8>,
    message_len: AtomicUsize,
}

const RESERVED: usize = usize::MAX;

#[allow(clippy::declare_interior_mutable_const)] // the initialiser of each slot, copied
const FREE: Slot = Slot {
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    message: AtomicPtr::new(core::ptr::null_mut()),
    message_len: AtomicUsize::new(0),
};

static TABLE: [Slot; SLOTS] = [FREE; SLOTS];

/// The messages, one per device path, leaked so that the handler may read them at any time.
static MESSAGES: Mutex<Vec<(std::path::PathBuf, &'static [u8])>> = Mutex::new(Vec::new());

/// The `SIGBUS` disposition before ours, for faults that are not ours.
static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

static INSTALL: Once = Once::new();
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// A registered range; dropping it stops answering for it (drop it before unmapping).
#[derive(Debug)]
pub(crate) struct Watched {
    slot: usize,
}

impl Drop for Watched {
    fn drop(&mut self) {
        TABLE[self.slot].start.store(0, Ordering::Release);
    }
}

/// Answers a `SIGBUS` in `len` bytes at `start` with a message naming `device`. `None` when the
/// table is full or the handler could not be installed: the process then just dies of
/// `SIGBUS` without the message, as it would without this module.
pub(crate) fn watch(start: *const u8, len: usize, device: &Path) -> Option<Watched> {
    if !install() || start.is_null() || len == 0 {
        return None;
    }
    let message = message_for(device);
    let slot = TABLE.iter().position(|s| {
        s.start
            .compare_exchange(0, RESERVED, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    })?;
    let s = &TABLE[slot];
    s.len.store(len, Ordering::Relaxed);
    s.message
        .store(message.as_ptr().cast_mut(), Ordering::Relaxed);
    s.message_len.store(message.len(), Ordering::Relaxed);
    // Release: a handler that sees this start sees the fields above.
    s.start.store(start.addr(), Ordering::Release);
    Some(Watched { slot })
}

fn message_for(device: &Path) -> &'static [u8] {
    let mut messages = MESSAGES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, m)) = messages.iter().find(|(p, _)| p == device) {
        return m;
    }
    let text = format!(
        "gba: {} was removed, unbound or reset while this process had a group of it mapped: \
         the driver revoked the mapping, so this process cannot finish its barrier and ends \
         with SIGBUS. Run the job again once the device is back (dmesg says why it went).\n",
        device.display()
    );
    let leaked: &'static [u8] = Box::leak(text.into_bytes().into_boxed_slice());
    messages.push((device.to_path_buf(), leaked));
    leaked
}

/// Installs the handler once; whether it is installed.
fn install() -> bool {
    INSTALL.call_once(|| {
        // SAFETY: zeroed sigaction structs are valid (empty masks, no flags); `new` gets a
        // handler of the SA_SIGINFO signature before use, and `current` is written by the
        // kernel.
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGBUS, core::ptr::null(), &mut current) != 0 {
                return;
            }
            // Set before the handler can run, since it reads it. (A disposition another
            // thread sets between these two calls is replaced: none of ours does.)
            let _ = PREVIOUS.set(current);
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
            new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut new.sa_mask);
            if libc::sigaction(libc::SIGBUS, &new, core::ptr::null_mut()) == 0 {
                INSTALLED.store(true, Ordering::Release);
            }
        }
    });
    INSTALLED.load(Ordering::Acquire)
}

/// The message of the watched range holding `addr`, if any.
fn lookup(addr: usize) -> Option<&'static [u8]> {
    TABLE.iter().find_map(|s| {
        let start = s.start.load(Ordering::Acquire);
        if start == 0 || start == RESERVED {
            return None;
        }
        let len = s.len.load(Ordering::Relaxed);
        (addr >= start && addr - start < len).then(|| {
            let ptr = s.message.load(Ordering::Relaxed);
            let n = s.message_len.load(Ordering::Relaxed);
            // SAFETY: messages are leaked, never freed or changed: `ptr` and `n` describe one
            // of them (a slot reused in between names another device of this process, still
            // a valid message).
            unsafe { core::slice::from_raw_parts(ptr.cast_const(), n) }
        })
    })
}

extern "C" fn on_sigbus(sig: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
    // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() }.addr();
    if let Some(message) = lookup(addr) {
        // SAFETY: write(2) of a valid buffer; its result does not matter (stderr may be closed).
        unsafe { libc::write(2, message.as_ptr().cast(), message.len()) };
        default_action();
        return; // the access runs again and faults with the default action
    }
    match PREVIOUS.get() {
        Some(p) if p.sa_sigaction != libc::SIG_DFL && p.sa_sigaction != libc::SIG_IGN => {
            if p.sa_flags & libc::SA_SIGINFO != 0 {
                // SAFETY: the previous handler was installed with SA_SIGINFO, so it has this
                // signature; it gets the arguments the kernel gave us.
                let f: extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) =
                    unsafe { core::mem::transmute(p.sa_sigaction) };
                f(sig, info, context);
            } else {
                // SAFETY: installed without SA_SIGINFO: the one-argument signature.
                let f: extern "C" fn(c_int) = unsafe { core::mem::transmute(p.sa_sigaction) };
                f(sig);
            }
        }
        // A fault's SIGBUS cannot be ignored: the default action, as the kernel would do.
        _ => default_action(),
    }
}

fn default_action() {
    // SAFETY: a zeroed sigaction is SIG_DFL with an empty mask; sigaction(2) is
    // async-signal-safe.
    unsafe {
        let mut dfl: libc::sigaction = std::mem::zeroed();
        dfl.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(libc::SIGBUS, &dfl, core::ptr::null_mut());
    }
}

#[cfg(all(test, not(miri)))]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    const CHILD_ENV: &str = "GBA_TEST_REVOKED_CHILD";

    fn child(which: &str) -> std::process::Output {
        std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "backends::revoked::tests::revoked_child",
                "--ignored",
                "--nocapture",
            ])
            .env(CHILD_ENV, which)
            .output()
            .unwrap()
    }

    #[test]
    fn a_fault_in_a_watched_range_names_the_device_then_ends_the_process_with_sigbus() {
        let out = child("watched");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.signal(), Some(libc::SIGBUS), "{stderr}");
        assert!(
            stderr.contains("gba: /dev/gba7 was removed, unbound or reset"),
            "{stderr}"
        );
        assert!(stderr.contains("ends with SIGBUS"), "{stderr}");
    }

    #[test]
    fn a_fault_elsewhere_is_left_to_the_previous_disposition() {
        let out = child("unwatched");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.signal(), Some(libc::SIGBUS), "{stderr}");
        assert!(!stderr.contains("gba:"), "{stderr}");
        let out = child("dropped");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.signal(), Some(libc::SIGBUS), "{stderr}");
        assert!(
            !stderr.contains("gba:"),
            "a dropped watch answers nothing: {stderr}"
        );
    }

    #[test]
    fn a_fault_elsewhere_reaches_the_handler_installed_before() {
        let out = child("chained");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(42), "{stderr}");
        assert!(stderr.contains("the runtime's handler"), "{stderr}");
        assert!(!stderr.contains("gba:"), "{stderr}");
    }

    /// A runtime's own SIGBUS handler (OpenMPI installs one that prints a backtrace).
    extern "C" fn runtime_handler(_: c_int, _: *mut libc::siginfo_t, _: *mut c_void) {
        let text = b"the runtime's handler\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe.
        unsafe {
            libc::write(2, text.as_ptr().cast(), text.len());
            libc::_exit(42);
        }
    }

    /// A mapping whose access gets SIGBUS, as a revoked one does: a shared mapping of an empty
    /// file, past its end.
    fn faulting_page() -> *mut u8 {
        let file = tempfile_fd();
        // SAFETY: a new shared mapping of one page of our own (empty) file.
        let p = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                file,
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED);
        p.cast()
    }

    fn tempfile_fd() -> c_int {
        let path = std::env::temp_dir().join(format!("gba-revoked-{}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        std::os::fd::IntoRawFd::into_raw_fd(file)
    }

    /// Touches a faulting page, watched or not, for the tests above.
    #[test]
    #[ignore = "a child process of the tests above, started with --ignored; it dies of SIGBUS"]
    fn revoked_child() {
        let which = std::env::var(CHILD_ENV).unwrap_or_default();
        let page = faulting_page();
        if which == "chained" {
            // SAFETY: a zeroed sigaction with a SA_SIGINFO handler of that signature.
            unsafe {
                let mut runtime: libc::sigaction = std::mem::zeroed();
                runtime.sa_sigaction = runtime_handler as *const () as libc::sighandler_t;
                runtime.sa_flags = libc::SA_SIGINFO;
                assert_eq!(
                    libc::sigaction(libc::SIGBUS, &runtime, core::ptr::null_mut()),
                    0
                );
            }
        }
        let watched = match which.as_str() {
            "watched" => watch(page, 4096, Path::new("/dev/gba7")),
            "dropped" => {
                drop(watch(page, 4096, Path::new("/dev/gba7")));
                None
            }
            _ => {
                // Installed, watching another range: this fault is not its.
                let other = faulting_page();
                watch(other, 4096, Path::new("/dev/gba7"))
            }
        };
        if which == "watched" {
            assert!(
                watched.is_some(),
                "the handler installs and the range is taken"
            );
        }
        // SAFETY: the page is mapped; the access faults with SIGBUS, which is the test.
        unsafe { page.add(8).cast::<u64>().read_volatile() };
        panic!("the access to a page past its file's end did not fault");
    }
}
