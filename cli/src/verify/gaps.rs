//! What a backend is known not to build, with the reason: the checks of those effects, locks
//! and views are listed as not run (by register and field), so that a missing feature is
//! never reported as conformance, nor as a failure of the device.

use gba_codegen::Device;
use gba_codegen::model::SideEffect;

#[derive(Debug, Default)]
pub struct Gaps {
    /// Side effects the backend does not build, and why.
    pub effects: Vec<(SideEffect, String)>,
    /// Why the backend has no write locks, if it has none.
    pub locks: Option<String>,
    /// Why the backend has no alternate views, if it has none.
    pub alternates: Option<String>,
    /// Why the backend cannot refuse a store to a read-only field, if it cannot.
    pub read_only: Option<String>,
    /// Why the backend cannot hide a write-only register's value, if it cannot.
    pub write_only: Option<String>,
    /// Why the backend does not implement external registers (`hardware: external`), if it
    /// does not: only the routing of their accesses is checked ([`super::external`]).
    pub external: Option<String>,
}

impl Gaps {
    pub fn effect(&self, effect: SideEffect) -> Option<&str> {
        self.effects
            .iter()
            .find(|(e, _)| *e == effect)
            .map(|(_, why)| why.as_str())
    }

    /// The RTL of `gba rtl`: PeakRDL-regblock builds what the spec's SystemRDL carries. What
    /// that output cannot carry yet (the same warnings `gba rtl` printed) is not in the RTL;
    /// alternate views never are (`gba rtl` leaves them out: regblock builds one register per
    /// address), so only a view sharing its primary's address and width is checked there.
    pub fn rtl(device: &Device) -> Gaps {
        let warnings = gba_codegen::emit::warnings(device, &[gba_codegen::Output::SystemRdl]);
        let effects = SideEffect::ALL
            .into_iter()
            .filter(|effect| {
                let spelt = format!("side effect `{}`", effect.keyword());
                warnings.iter().any(|w| w.message.contains(&spelt))
            })
            .map(|effect| {
                (
                    effect,
                    format!(
                        "the SystemRDL that PeakRDL-regblock builds the RTL from cannot carry `{}` yet, so the RTL does not have it",
                        effect.keyword()
                    ),
                )
            })
            .collect();
        let locks = warnings
            .iter()
            .any(|w| w.message.contains("write lock"))
            .then(|| {
                "the SystemRDL that PeakRDL-regblock builds the RTL from cannot carry write \
                 locks (swwe, swwel) yet, so the RTL does not have them"
                    .to_string()
            });
        Gaps {
            effects,
            locks,
            read_only: None,
            write_only: None,
            external: Some(
                "external: implemented outside the block; the RTL routes its accesses to \
                 `gba rtl`'s stand-in (storage of the writable bits), so only that routing is \
                 checked, not its fields' behaviour"
                    .into(),
            ),
            alternates: Some(
                "PeakRDL-regblock builds one register per address, so `gba rtl` leaves alternate \
                 views out and their address reaches the primary register; a view at another \
                 address or width than its primary has nothing there to check"
                    .into(),
            ),
        }
    }
}
