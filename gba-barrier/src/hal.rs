//! The offloaded barrier over a group claimed through gba-hal: [`HalPort`] implements
//! [`Port`] with the group's ARRIVAL doorbell, its release flag and the device's progress.
//!
//! A lower layer, for code that holds a typed `gba_hal::Device` (the benchmarks measure the
//! bare barrier this way). To make a barrier, see the crate documentation: a team, or
//! [`crate::AnyDevice::barrier`] for a group agreed on already.

use std::sync::atomic::{AtomicPtr, Ordering};

use gba_hal::{Backend, Device, Group, GroupConfig};
use gba_pac::common::{Reg, Scoped, Wo};
use gba_pac::group::ARRIVAL;

use crate::barrier::Barrier;
use crate::port_trait::{Arrivals, Diagnosis, Port};
use crate::wait_error::DeviceFault;

/// Why a port whose configuration page is not mapped cannot name missing members.
const UNREADABLE: &str = "the group's ARRIVED_MASK is on its configuration page, which the \
    kernel driver does not map into any process, and the driver did not read it for this one \
    (GBA_IOC_STATE failed)";

/// A function a runtime installs to drive its own progress while a member waits (as the
/// seeds call `opal_progress()`), with its argument.
#[derive(Debug, Default)]
pub struct ProgressHook {
    function: AtomicPtr<()>,
    argument: AtomicPtr<()>,
}

/// The C signature of a progress hook.
pub type HookFn = unsafe extern "C" fn(argument: *mut std::ffi::c_void);

impl ProgressHook {
    /// Installs `function` (or clears the hook with `None`).
    ///
    /// # Safety
    ///
    /// `function` must be safe to call with `argument` from any thread that waits on a
    /// barrier using this hook, for as long as it is installed.
    pub unsafe fn set(&self, function: Option<HookFn>, argument: *mut std::ffi::c_void) {
        self.argument.store(argument.cast(), Ordering::Release);
        self.function.store(
            function.map_or(std::ptr::null_mut(), |f| f as *mut ()),
            Ordering::Release,
        );
    }

    fn call(&self) {
        let function = self.function.load(Ordering::Acquire);
        if function.is_null() {
            return;
        }
        // SAFETY: a non-null value was stored by `set` from a `HookFn`, whose caller promised
        // it may be called with the argument stored alongside from this thread.
        let function: HookFn = unsafe { std::mem::transmute::<*mut (), HookFn>(function) };
        // SAFETY: as above.
        unsafe { function(self.argument.load(Ordering::Acquire).cast()) }
    }
}

/// One member's view of a configured group, for [`Barrier`]. Owns the group: dropping the port
/// (with its barrier) resets and releases the group on this port.
pub struct HalPort<'d, B: Backend> {
    doorbell: Reg<u64, ARRIVAL::Register, Wo, Scoped<'d, B::Mechanism>>,
    group: Group<'d, B>,
    hook: Option<&'d ProgressHook>,
}

impl<'d, B: Backend> HalPort<'d, B> {
    /// The port of a configured `group`. `hook`, when given, runs while a wait polls (a runtime's
    /// own progress).
    pub fn new(group: Group<'d, B>, hook: Option<&'d ProgressHook>) -> Self {
        HalPort {
            doorbell: group.doorbell(),
            group,
            hook,
        }
    }

    /// The group this port owns (its registers and state).
    pub fn group_handle(&self) -> &Group<'d, B> {
        &self.group
    }
}

impl<B: Backend> std::fmt::Debug for HalPort<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HalPort")
            .field("group", &self.group)
            .finish()
    }
}

impl<B: Backend> Port for HalPort<'_, B> {
    fn group(&self) -> u32 {
        self.group.id() as u32
    }

    fn member(&self) -> u32 {
        self.group.member_id() as u32
    }

    /// One release store: on a volatile (device) mapping a release fence, which is no
    /// instruction on x86 (see [`crate::release_before_doorbell`] for other machines and
    /// for write-combining mappings), then the volatile store; on the simulator's shared
    /// memory an atomic store with release ordering.
    ///
    /// Then the backend's `after_doorbell`: nothing on hardware (inlined away); on the
    /// simulator the arrival is combined on this path (the last one releases the episode), or
    /// the switch steps, which processes it as a switch would.
    ///
    /// With host combining (several processes of the team on this port), the arrival is
    /// first added to the host's counter; only the arrival completing the host's count rings
    /// ([`crate::combine::completes`]).
    #[inline(always)]
    fn ring(&self, word: u64) {
        if let Some(combining) = self.group.local_arrivals()
            && !crate::combine::completes(combining, word)
        {
            return;
        }
        self.doorbell.set_release(word);
        self.group
            .device()
            .backend()
            .after_doorbell(self.group.id(), word);
    }

    #[inline(always)]
    fn flag(&self) -> u64 {
        self.group.flag().load()
    }

    fn progress(&self) {
        self.group.device().progress();
        if let Some(hook) = self.hook {
            hook.call();
        }
    }

    fn fault(&self) -> Option<DeviceFault> {
        self.group.error().map(|code| DeviceFault { code })
    }

    fn diagnose(&self) -> Diagnosis {
        let snapshot = self.group.snapshot();
        // A configured group's MEMBER_MASK holds at least this port, so an empty one means the
        // configuration page is not mapped here (the kernel driver gives a holder only the
        // run-time page) and the backend could not fill it in (`Backend::complete_snapshot`:
        // the driver's GBA_IOC_STATE failed): ARRIVED_MASK, beside it, then reads 0 too and
        // says nothing.
        let missing = if snapshot.members.is_empty() {
            Arrivals::Unreadable { why: UNREADABLE }
        } else {
            Arrivals::Known(snapshot.missing())
        };
        Diagnosis {
            missing,
            fault: snapshot.error.map(|code| DeviceFault { code }),
        }
    }
}

/// Claims and configures `config`'s group on `device` and returns this member's barrier over
/// it, counting episodes from the group's RELEASE_SEQ (every member reads the same value).
#[allow(clippy::result_large_err)] // gba-hal's errors name member sets; this path is cold
pub fn offload<'d, B: Backend>(
    device: &'d Device<B>,
    config: GroupConfig,
    hook: Option<&'d ProgressHook>,
) -> Result<Barrier<HalPort<'d, B>>, gba_hal::Error> {
    let group = device.claim(config)?;
    let start = u64::from(group.start_sequence());
    Ok(Barrier::resume_at(HalPort::new(group, hook), start))
}
