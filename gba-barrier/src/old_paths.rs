//! The module paths of 0.1 whose items now live at the crate root, kept for one deprecation
//! period (CHANGELOG.md, "Deprecated"): `gba_barrier::offload::Barrier` still compiles, with
//! a warning that names the new path. Remove these modules in the release after next.
//!
//! A `#[deprecated]` on a `pub use` has no effect, so types are deprecated aliases and
//! functions deprecated wrappers. Traits cannot be aliased: `port::Port` is a plain re-export,
//! hidden with the rest.

/// Was `gba_barrier::backoff`.
pub mod backoff {
    #[deprecated(since = "0.2.0", note = "use gba_barrier::WaitPolicy")]
    pub type WaitPolicy = crate::WaitPolicy;
    #[deprecated(since = "0.2.0", note = "use gba_barrier::WAIT_POLICY_ENV")]
    pub const WAIT_POLICY_ENV: &str = crate::WAIT_POLICY_ENV;
    #[deprecated(since = "0.2.0", note = "the wait loop's tuning is internal")]
    pub const SPIN_LIMIT: u32 = crate::wait_loop::SPIN_LIMIT;
    #[deprecated(since = "0.2.0", note = "the wait loop's tuning is internal")]
    pub const PROGRESS_LIMIT: u32 = crate::wait_loop::PROGRESS_LIMIT;
}

/// Was `gba_barrier::device`.
pub mod device {
    #[deprecated(since = "0.2.0", note = "use gba_barrier::AnyDevice")]
    pub type AnyDevice = crate::AnyDevice;
    #[deprecated(since = "0.2.0", note = "use gba_barrier::AnyBarrier")]
    pub type AnyBarrier = crate::AnyBarrier;
    #[deprecated(since = "0.2.0", note = "use gba_barrier::AnyError")]
    pub type Error = crate::AnyError;
}

/// Was `gba_barrier::error`.
pub mod error {
    #[deprecated(since = "0.2.0", note = "use gba_barrier::Who")]
    pub type Who = crate::Who;
    #[deprecated(since = "0.2.0", note = "use gba_barrier::Missing")]
    pub type Missing = crate::Missing;
    #[deprecated(since = "0.2.0", note = "use gba_barrier::DeviceFault")]
    pub type DeviceFault = crate::DeviceFault;
    #[deprecated(since = "0.2.0", note = "use gba_barrier::WaitError")]
    pub type WaitError = crate::WaitError;
    #[deprecated(since = "0.2.0", note = "use gba_barrier::Result")]
    pub type Result<T, E = Box<crate::WaitError>> = crate::Result<T, E>;

    #[deprecated(since = "0.2.0", note = "use gba_barrier::error_chain")]
    pub fn chain(error: &dyn std::error::Error) -> String {
        crate::error_chain(error)
    }
}

/// Was `gba_barrier::offload`.
pub mod offload {
    #[deprecated(since = "0.2.0", note = "use gba_barrier::Barrier")]
    pub type Barrier<P> = crate::Barrier<P>;
    #[deprecated(since = "0.2.0", note = "use gba_barrier::Pending")]
    pub type Pending<'a, P> = crate::Pending<'a, P>;
}

/// Was `gba_barrier::port`.
pub mod port {
    /// Use `gba_barrier::Port` (a trait cannot carry a deprecation through a re-export).
    pub use crate::Port;

    #[deprecated(since = "0.2.0", note = "use gba_barrier::Diagnosis")]
    pub type Diagnosis = crate::Diagnosis;

    #[deprecated(since = "0.2.0", note = "use gba_barrier::release_before_doorbell")]
    #[inline(always)]
    pub fn release_before_doorbell() {
        crate::release_before_doorbell();
    }
}
