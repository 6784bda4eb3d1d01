//! Sharing one VFIO device among the processes of a host (docs/design/host.md, "Host combining on
//! VFIO"). The kernel gives a VFIO group to one opener; the first opener therefore serves its
//! container and device file descriptors on an abstract Unix socket named after the device
//! and the boot, and a second process of the host that finds the group busy receives them
//! (`SCM_RIGHTS`) with the IOVA of the host's flag page, which the first opener mapped into
//! the container's IOMMU.
//!
//! The name is predictable (every part of it is public), so both sides authenticate: the
//! server serves only processes of its own user (`SO_PEERCRED`), and the client accepts an
//! answer only from a server of its own user, and only if what it received is the VFIO
//! container and a VFIO device (`/proc/self/fd` says so); anything else is refused by name
//! (`ShareError::Refused`). A name another process already holds is reported with that
//! process's uid and pid, never ignored.
//!
//! The server is a thread of the first opener, stopped (and joined) when its backend drops;
//! a process arriving after that, while others still hold the device, is refused by name
//! (`VfioError::GroupInUse`): never a hang.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, RawFd};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the server looks at its stop flag between connections.
const POLL: Duration = Duration::from_millis(20);
/// How long a receiver waits for the server's answer.
const ANSWER: Duration = Duration::from_secs(5);

/// The socket's abstract name for device `bdf` on this boot.
pub fn socket_name(bdf: &str) -> io::Result<String> {
    let boot = crate::host::process::boot_id()
        .ok_or_else(|| io::Error::other("no boot id (/proc/sys/kernel/random/boot_id)"))?;
    Ok(format!("gba-vfio-{bdf}-boot-{boot}"))
}

/// Why the first opener's descriptors were not received.
#[derive(Debug)]
pub enum ShareError {
    /// Nobody serves them (no server yet, or it stopped), or the socket failed.
    Unavailable(io::Error),
    /// Something answered that is not to be trusted: what, by name.
    Refused(String),
}

/// What the received descriptors must be: `readlink` of `/proc/self/fd/N` for each.
#[derive(Debug)]
pub struct Expected {
    /// The container's path (`/dev/vfio/vfio`).
    pub container: std::path::PathBuf,
    /// The device's link (`anon_inode:[vfio-device]`).
    pub device: String,
}

impl Expected {
    /// The real VFIO's, with `/dev/vfio` at `dev_vfio`.
    pub fn vfio(dev_vfio: &std::path::Path) -> Expected {
        Expected {
            container: dev_vfio.join("vfio"),
            device: "anon_inode:[vfio-device]".into(),
        }
    }
}

/// The first opener's server thread (see the module description).
#[derive(Debug)]
pub struct Server {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves `container` and `device` (raw descriptors that must stay open until this value
    /// drops) and `flags_iova` on the socket `name`.
    pub fn start(
        name: &str,
        container: RawFd,
        device: RawFd,
        flags_iova: u64,
    ) -> io::Result<Server> {
        let address = SocketAddr::from_abstract_name(name)?;
        let listener = match UnixListener::bind_addr(&address) {
            Ok(listener) => listener,
            Err(e) if e.kind() == io::ErrorKind::AddrInUse => {
                // Someone holds the name: say who, so that a squatter is found.
                let holder = UnixStream::connect_addr(&address)
                    .and_then(|stream| peer(&stream))
                    .map(|(pid, uid)| format!("process {pid} of uid {uid}"))
                    .unwrap_or_else(|_| "another process".into());
                return Err(io::Error::new(
                    e.kind(),
                    format!("the socket @{name} is held by {holder}"),
                ));
            }
            Err(e) => return Err(e),
        };
        listener.set_nonblocking(true)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::Builder::new()
            .name("gba-vfio-share".into())
            .spawn(move || {
                while !stopped.load(Ordering::Acquire) {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            // A peer that misbehaves loses its own connection, nothing else.
                            let _ = serve(&stream, container, device, flags_iova);
                        }
                        Err(_) => std::thread::sleep(POLL),
                    }
                }
            })?;
        Ok(Server {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The peer's process and user ids (`SO_PEERCRED`).
fn peer(stream: &UnixStream) -> io::Result<(i32, u32)> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: SO_PEERCRED writes a `struct ucred` of at most `len` bytes into `cred`.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&raw mut cred).cast(),
            &mut len,
        )
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((cred.pid, cred.uid))
}

fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

fn serve(stream: &UnixStream, container: RawFd, device: RawFd, flags_iova: u64) -> io::Result<()> {
    stream.set_nonblocking(false)?;
    if peer(stream)?.1 != euid() {
        return Err(io::Error::other(
            "a process of another user asked for the device",
        ));
    }
    let fds = [container, device];
    let mut payload = flags_iova.to_le_bytes();
    let mut iov = libc::iovec {
        iov_base: payload.as_mut_ptr().cast(),
        iov_len: payload.len(),
    };
    // SAFETY: CMSG_SPACE computes a size from a constant.
    let space = unsafe { libc::CMSG_SPACE(size_of_val(&fds) as u32) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    // SAFETY: a zeroed msghdr is a valid empty one; its pointers are set below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: `msg` points at `control`, CMSG_SPACE(2 fds) bytes, 8-aligned: CMSG_FIRSTHDR
    // returns its start, and the header and CMSG_LEN(2 fds) bytes of data fit in it.
    unsafe {
        let header = libc::CMSG_FIRSTHDR(&msg);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(size_of_val(&fds) as u32) as _;
        std::ptr::copy_nonoverlapping(
            fds.as_ptr().cast::<u8>(),
            libc::CMSG_DATA(header),
            size_of_val(&fds),
        );
    }
    // SAFETY: `msg` describes `payload` and `control`, both alive for the call; the two
    // descriptors are open (the server's contract).
    if unsafe { libc::sendmsg(stream.as_raw_fd(), &msg, libc::MSG_NOSIGNAL) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// [`receive`], retried until `limit` has passed while nobody listens yet (the first opener
/// starts its server a moment after it took the group).
pub fn receive_within(
    name: &str,
    expected: &Expected,
    limit: Duration,
) -> Result<(File, File, u64), ShareError> {
    let deadline = std::time::Instant::now() + limit;
    loop {
        match receive(name, expected) {
            Err(ShareError::Unavailable(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::ConnectionRefused | io::ErrorKind::NotFound
                ) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(10));
            }
            result => return result,
        }
    }
}

/// Asks the first opener of `bdf` on this host for its container and device descriptors and
/// the flag page's IOVA, from a server of this user only, and only if they are what
/// `expected` says.
pub fn receive(name: &str, expected: &Expected) -> Result<(File, File, u64), ShareError> {
    let (container, device, iova) = receive_any(name).map_err(ShareError::Unavailable)??;
    for (file, what, want) in [
        (
            &container,
            "container",
            expected.container.to_string_lossy(),
        ),
        (&device, "device", expected.device.as_str().into()),
    ] {
        let link = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
            .map(|l| l.to_string_lossy().into_owned())
            .unwrap_or_else(|e| format!("unreadable ({e})"));
        if link != want {
            return Err(ShareError::Refused(format!(
                "the server of @{name} sent {link:?} as the VFIO {what}, not {want:?}"
            )));
        }
    }
    Ok((container, device, iova))
}

/// The exchange itself: an I/O error, or the descriptors (or a refusal of the server's user).
#[allow(clippy::type_complexity)]
fn receive_any(name: &str) -> io::Result<Result<(File, File, u64), ShareError>> {
    let stream = UnixStream::connect_addr(&SocketAddr::from_abstract_name(name)?)?;
    let (pid, uid) = peer(&stream)?;
    if uid != euid() {
        return Ok(Err(ShareError::Refused(format!(
            "the socket @{name} is served by process {pid} of uid {uid}, not of this user ({}): another user holds the name",
            euid()
        ))));
    }
    stream.set_read_timeout(Some(ANSWER))?;
    let mut payload = [0u8; 8];
    let mut iov = libc::iovec {
        iov_base: payload.as_mut_ptr().cast(),
        iov_len: payload.len(),
    };
    let fd_bytes = 2 * size_of::<RawFd>();
    // SAFETY: CMSG_SPACE computes a size from a constant.
    let space = unsafe { libc::CMSG_SPACE(fd_bytes as u32) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    // SAFETY: a zeroed msghdr is a valid empty one; its pointers are set below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: `msg` describes `payload` and `control`, both alive for the call.
    let got = unsafe { libc::recvmsg(stream.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC) };
    if got < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: after recvmsg, CMSG_FIRSTHDR returns the first control message inside
    // `control` (or null), whose header the kernel wrote.
    let header = unsafe { libc::CMSG_FIRSTHDR(&msg) };
    // SAFETY: checked non-null: a header inside `control`.
    let ok = !header.is_null()
        && unsafe {
            (*header).cmsg_level == libc::SOL_SOCKET
                && (*header).cmsg_type == libc::SCM_RIGHTS
                && (*header).cmsg_len as usize == libc::CMSG_LEN(fd_bytes as u32) as usize
        };
    if !ok || got != 8 {
        return Err(io::Error::other(
            "the device's first opener answered without its descriptors",
        ));
    }
    let mut fds = [0 as RawFd; 2];
    // SAFETY: the message carries exactly two descriptors (checked above) at CMSG_DATA,
    // possibly unaligned: copied bytewise.
    unsafe {
        std::ptr::copy_nonoverlapping(
            libc::CMSG_DATA(header),
            fds.as_mut_ptr().cast::<u8>(),
            fd_bytes,
        )
    };
    // SAFETY: SCM_RIGHTS installed two new descriptors in this process, owned by nobody else.
    let (container, device) = unsafe { (File::from_raw_fd(fds[0]), File::from_raw_fd(fds[1])) };
    Ok(Ok((container, device, u64::from_le_bytes(payload))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, Write};

    /// Two ordinary files stand for the container and the device: the receiver gets working
    /// descriptors of the same open files, and the IOVA.
    #[test]
    fn descriptors_and_the_flag_iova_reach_a_second_opener() {
        let mut a = tempfile::NamedTempFile::new().unwrap();
        let b = tempfile::NamedTempFile::new().unwrap();
        a.write_all(b"container").unwrap();
        let expected = Expected {
            container: a.path().to_path_buf(),
            device: b.path().to_string_lossy().into_owned(),
        };
        let name = format!("gba-vfio-test-{}", std::process::id());
        let server = Server::start(
            &name,
            a.as_file().as_raw_fd(),
            b.as_file().as_raw_fd(),
            0xfff0_0000,
        )
        .unwrap();
        let (mut container, _device, iova) = receive(&name, &expected).unwrap();
        assert_eq!(iova, 0xfff0_0000);
        container.rewind().unwrap();
        let mut text = String::new();
        container.read_to_string(&mut text).unwrap();
        assert_eq!(text, "container", "the same open file");
        // Descriptors that are not what is expected (here: the real VFIO's) are refused
        // by name.
        match receive(&name, &Expected::vfio(std::path::Path::new("/dev/vfio"))) {
            Err(ShareError::Refused(what)) => {
                assert!(
                    what.contains("container") && what.contains("/dev/vfio/vfio"),
                    "{what}"
                )
            }
            other => panic!("{other:?}"),
        }
        // A second server cannot take the name, and says who holds it.
        let err =
            Server::start(&name, a.as_file().as_raw_fd(), b.as_file().as_raw_fd(), 0).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(&name) && text.contains(&format!("process {}", std::process::id())),
            "{text}"
        );
        drop(server);
        assert!(
            matches!(receive(&name, &expected), Err(ShareError::Unavailable(_))),
            "no server after drop: refused, not hung"
        );
    }
}
