//! The C ABI of teams (`gba_team_*`): [`barrier::team::Team`] behind a handle, with the
//! runtime's allgather as a C callback and the verdict as a plain struct.

use std::ffi::{c_char, c_int, c_void};

use super::{
    DeviceState, Entered, GBA_ERR_CONFIG, GBA_ERR_DENIED, GBA_ERR_GROUP_BUSY, GBA_ERR_INVALID,
    GBA_ERR_IO, GBA_ERR_NO_DEVICE, GBA_ERR_NULL, GBA_ERR_OOB, GBA_ERR_PENDING, GBA_ERR_TIMEOUT,
    GBA_OK, GBA_WAIT_SPIN, GBA_WAIT_YIELD, KIND_TEAM, device_state, enter, fail, guard, register,
    timeout, wait_error,
};
use barrier::team::{OobError, Reason, Team, TeamError, TeamParams, Verdict};

/// Bytes of `gba_verdict.text`, NUL included.
pub const GBA_VERDICT_TEXT: usize = 160;

/// The runtime's out-of-band allgather: every rank of the team calls it with the same `len`;
/// `recv` (of `len * size` bytes) receives rank i's `send` at offset `i * len`. Returns 0 on
/// success, anything else on failure. `ctx` is the pointer given to `gba_team_create`.
pub type gba_oob_allgather_fn = Option<
    unsafe extern "C" fn(
        send: *const c_void,
        recv: *mut c_void,
        len: usize,
        ctx: *mut c_void,
    ) -> c_int,
>;

/// How a team is created (NULL params: the defaults).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct gba_team_params {
    /// How long the group's configuration may wait for READY; 0: no limit
    /// (`GBA_DEFAULT_CONFIGURE_TIMEOUT_NS` is the default with NULL params).
    pub configure_timeout_ns: u64,
}

/// The team's verdict, identical on every rank.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct gba_verdict {
    /// 1: the barrier runs on the GBA (use the team); 0: use a software barrier.
    pub offloaded: c_int,
    /// The agreed group when offloaded, else UINT32_MAX.
    pub group: u32,
    /// GBA_OK when offloaded; else why (GBA_ERR_NO_DEVICE: a rank has no device;
    /// GBA_ERR_INVALID: a port shared or out of range; GBA_ERR_GROUP_BUSY: no common free
    /// group; GBA_ERR_CONFIG: refused; GBA_ERR_TIMEOUT: not READY in time; GBA_ERR_DENIED:
    /// the rank's user is at its group quota, or another user holds the team's claim).
    pub reason: c_int,
    /// The team rank that caused the fallback, -1 when offloaded.
    pub rank: i32,
    /// One line for the user (NUL-terminated), the same on every rank.
    pub text: [c_char; GBA_VERDICT_TEXT],
}

/// One rank's team over a configured group (opaque).
#[derive(Debug)]
pub struct gba_team {
    _private: [u8; 0],
}

pub(super) struct TeamState {
    team: Team,
    device: &'static DeviceState,
}

impl Drop for TeamState {
    fn drop(&mut self) {
        self.device
            .live_barriers
            .fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

struct CallbackOob {
    function: unsafe extern "C" fn(*const c_void, *mut c_void, usize, *mut c_void) -> c_int,
    context: *mut c_void,
}

impl barrier::team::OutOfBand for CallbackOob {
    fn allgather(&mut self, send: &[u8], recv: &mut [u8]) -> Result<(), OobError> {
        // SAFETY: the caller of gba_team_create promises the function is an allgather of
        // `len` bytes per rank into `recv` (`len * size` bytes, which is recv's length).
        let status = unsafe {
            (self.function)(
                send.as_ptr().cast(),
                recv.as_mut_ptr().cast(),
                send.len(),
                self.context,
            )
        };
        if status == 0 {
            Ok(())
        } else {
            Err(OobError(format!(
                "the allgather callback returned {status}"
            )))
        }
    }
}

fn reason_code(reason: Reason) -> c_int {
    match reason {
        Reason::NoDevice => GBA_ERR_NO_DEVICE,
        Reason::PortShared | Reason::PortOutOfRange => GBA_ERR_INVALID,
        Reason::NoFreeGroup => GBA_ERR_GROUP_BUSY,
        Reason::Configure => GBA_ERR_CONFIG,
        Reason::Timeout => GBA_ERR_TIMEOUT,
        Reason::Denied => GBA_ERR_DENIED,
    }
}

fn c_verdict(verdict: &Verdict) -> gba_verdict {
    let mut out = gba_verdict {
        offloaded: 0,
        group: u32::MAX,
        reason: GBA_OK,
        rank: -1,
        text: [0; GBA_VERDICT_TEXT],
    };
    match verdict {
        Verdict::Offloaded { group, .. } => {
            out.offloaded = 1;
            out.group = *group;
        }
        Verdict::Fallback { reason, rank, .. } => {
            out.reason = reason_code(*reason);
            out.rank = i32::try_from(*rank).unwrap_or(i32::MAX);
        }
    }
    let text = verdict.to_string();
    for (to, from) in out.text[..GBA_VERDICT_TEXT - 1]
        .iter_mut()
        .zip(text.bytes().filter(|&b| b != 0))
    {
        *to = from as c_char;
    }
    out
}

/// The way to make a barrier. Creates a team: all `size` ranks call it (collectively, like an
/// allgather) with their `rank`; the library agrees on a group over `allgather(…, ctx)` and configures it. Returns
/// GBA_OK with `*verdict` filled identically on every rank: offloaded (then `*out` is the
/// team) or a fallback (then `*out` is NULL; use a software barrier). `device` may be NULL on
/// a rank without a device (it still takes part, and the team falls back naming it).
/// GBA_ERR_OOB: the allgather failed (the ranks may be out of step; no verdict).
/// A verdict comes only after at least one allgather completed, i.e. after every rank called
/// gba_team_create: a runtime forming the team inside a barrier may return from that barrier.
///
/// # Safety
/// `device` is NULL or from `gba_device_open`; `allgather` is an allgather as described at
/// `gba_oob_allgather_fn`; `params` is NULL or readable; `out` and `verdict` are writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gba_team_create(
    device: *mut super::gba_device,
    allgather: gba_oob_allgather_fn,
    ctx: *mut c_void,
    rank: u32,
    size: u32,
    params: *const gba_team_params,
    out: *mut *mut gba_team,
    verdict: *mut gba_verdict,
) -> c_int {
    guard(|| {
        let Some(function) = allgather else {
            return fail(GBA_ERR_NULL, "gba_team_create: `allgather` is NULL");
        };
        if out.is_null() || verdict.is_null() {
            return fail(GBA_ERR_NULL, "gba_team_create: `out` or `verdict` is NULL");
        }
        if size == 0 || rank >= size {
            return fail(
                GBA_ERR_INVALID,
                format!("gba_team_create: rank {rank} is not below the team size {size}"),
            );
        }
        let state = if device.is_null() {
            None
        } else {
            match device_state(device) {
                Ok(state) => Some(state),
                Err(code) => return code,
            }
        };
        let params = if params.is_null() {
            TeamParams::default()
        } else {
            // SAFETY: non-null, and the caller promises it is readable.
            let given = unsafe { params.read() };
            TeamParams {
                configure_timeout: timeout(given.configure_timeout_ns),
            }
        };
        let mut oob = CallbackOob {
            function,
            context: ctx,
        };
        let team = match Team::create(state.map(|s| &s.device), &mut oob, rank, size, &params) {
            Ok(team) => team,
            Err(error) => return fail(GBA_ERR_OOB, error),
        };
        // SAFETY: non-null, and the caller promises both are writable.
        unsafe {
            verdict.write(c_verdict(team.verdict()));
            out.write(std::ptr::null_mut());
        }
        let Some(state) = state.filter(|_| team.verdict().is_offloaded()) else {
            return GBA_OK;
        };
        state
            .live_barriers
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        let object = Box::into_raw(Box::new(TeamState {
            team,
            device: state,
        }));
        match register(KIND_TEAM, object.cast()) {
            Some(handle) => {
                // SAFETY: as above.
                unsafe { out.write(handle as *mut gba_team) };
                GBA_OK
            }
            None => {
                // SAFETY: never registered, so this is the only owner.
                drop(unsafe { Box::from_raw(object) });
                fail(GBA_ERR_IO, "too many teams (4096)")
            }
        }
    })
}

/// Enters a team handle for this thread: a second thread at once gets `GBA_ERR_IN_USE`.
fn team_state(team: *mut gba_team) -> Result<Entered<TeamState>, c_int> {
    if team.is_null() {
        return Err(fail(GBA_ERR_NULL, "the team handle is NULL"));
    }
    // SAFETY: KIND_TEAM slots hold only `Box::into_raw(Box<TeamState>)` pointers
    // (`gba_team_create` is their only `register`).
    unsafe { enter(team as usize, KIND_TEAM, "team") }
}

fn team_error(error: &TeamError) -> c_int {
    match error {
        TeamError::Wait(error) => wait_error(error),
        TeamError::Fallback(_) => fail(GBA_ERR_INVALID, error),
    }
}

fn with_team(team: *mut gba_team, body: impl FnOnce(&mut Team) -> c_int) -> c_int {
    guard(|| match team_state(team) {
        Ok(mut state) => body(&mut state.team),
        Err(code) => code,
    })
}

/// The team's barrier (`timeout_ns` 0: no limit); as `gba_barrier_wait`.
///
/// # Safety
/// `team` is NULL or from `gba_team_create` (a destroyed one is detected; another thread
/// inside it at the same time gets `GBA_ERR_IN_USE`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gba_team_wait(team: *mut gba_team, timeout_ns: u64) -> c_int {
    with_team(team, |t| match t.wait(timeout(timeout_ns)) {
        Ok(()) => GBA_OK,
        Err(e) => team_error(&e),
    })
}

/// Split phase, first half; as `gba_barrier_arrive`.
///
/// # Safety
/// As for `gba_team_wait`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gba_team_arrive(team: *mut gba_team) -> c_int {
    with_team(team, |t| match t.arrive() {
        Ok(()) => GBA_OK,
        Err(e) => team_error(&e),
    })
}

/// Split phase: poll once; `*out_done` 1 when complete; as `gba_barrier_test`.
///
/// # Safety
/// As for `gba_team_wait`; `out_done` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gba_team_test(team: *mut gba_team, out_done: *mut c_int) -> c_int {
    with_team(team, |t| {
        if out_done.is_null() {
            return fail(GBA_ERR_NULL, "gba_team_test: `out_done` is NULL");
        }
        match t.test() {
            Ok(Some(done)) => {
                // SAFETY: non-null, and the caller promises it is writable.
                unsafe { out_done.write(c_int::from(done)) };
                GBA_OK
            }
            Ok(None) => fail(
                GBA_ERR_PENDING,
                "gba_team_test: no arrival is pending (call gba_team_arrive first)",
            ),
            Err(e) => team_error(&e),
        }
    })
}

/// Split phase, second half (`timeout_ns` 0: no limit); as `gba_barrier_wait_pending`.
///
/// # Safety
/// As for `gba_team_wait`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gba_team_wait_pending(team: *mut gba_team, timeout_ns: u64) -> c_int {
    with_team(team, |t| match t.wait_pending(timeout(timeout_ns)) {
        Ok(Some(())) => GBA_OK,
        Ok(None) => fail(
            GBA_ERR_PENDING,
            "gba_team_wait_pending: no arrival is pending",
        ),
        Err(e) => team_error(&e),
    })
}

/// Sets how this member's waits spend the time before the release: `GBA_WAIT_YIELD` gives
/// the CPU away from the first miss, `GBA_WAIT_SPIN` spins first. It replaces the team's own
/// choice (made from the ranks it counted on this machine against their CPUs), for a runtime
/// that knows better: OpenMPI's `mpi_yield_when_idle`, set when mpirun oversubscribes a node
/// or by the user. Any other value is `GBA_ERR_INVALID`.
///
/// # Safety
/// As for `gba_team_wait`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gba_team_set_wait_policy(team: *mut gba_team, policy: c_int) -> c_int {
    let policy = match policy {
        GBA_WAIT_SPIN => barrier::WaitPolicy::Spin,
        GBA_WAIT_YIELD => barrier::WaitPolicy::Yield,
        other => {
            return fail(
                GBA_ERR_INVALID,
                format!(
                    "gba_team_set_wait_policy: {other} is not a policy \
                     (GBA_WAIT_SPIN = 0, GBA_WAIT_YIELD = 1)"
                ),
            );
        }
    };
    with_team(team, |t| {
        if let Some(b) = t.barrier() {
            b.set_wait_policy(policy);
        }
        GBA_OK
    })
}

/// Destroys a team: its group is parked for the same ranks' next team (at most
/// `GBA_TEAM_CACHE` per device, default 2; 0 turns reuse off), else released; closing the
/// device releases every parked group.
///
/// # Safety
/// `team` is NULL or from `gba_team_create` (a destroyed one is detected; another thread
/// inside it at the same time gets `GBA_ERR_IN_USE`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gba_team_destroy(team: *mut gba_team) -> c_int {
    guard(|| match team_state(team) {
        Ok(state) => {
            drop(state.retire());
            GBA_OK
        }
        Err(code) => code,
    })
}
