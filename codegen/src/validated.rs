//! A device that passed validation: the rules of every spec (`crate::validate`, which knows
//! no output) and the checks of each output it is meant for (`crate::emit`). This sits above
//! both, so that the arrows between the generator's stages point down: parsing and
//! validation know nothing of the emitters, and emitters take only a [`Validated`].

use crate::diagnostic::Diagnostic;
use crate::model::Device;
use crate::output::Output;

/// A device that passed validation and the checks of every output in [`Validated::outputs`].
/// Only [`validate`] builds one, so an emitter that takes it may rely on every rule that
/// validation enforces (aligned, non-overlapping, in-range, names that do not clash in its
/// output).
#[derive(Clone, Debug)]
pub struct Validated {
    device: Device,
    outputs: Vec<Output>,
    warnings: Vec<Diagnostic>,
}

impl Validated {
    /// The device.
    pub fn device(&self) -> &Device {
        &self.device
    }
    /// The outputs whose own checks the device passed (and that it may be emitted as).
    pub fn outputs(&self) -> &[Output] {
        &self.outputs
    }
    /// Things worth saying that do not stop generation (a reset value with bits set in a
    /// write-only field, …).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }
    /// The device, without the record of its outputs and warnings.
    pub fn into_device(self) -> Device {
        self.device
    }
}

impl std::ops::Deref for Validated {
    type Target = Device;
    fn deref(&self) -> &Device {
        &self.device
    }
}

/// Equality of the devices (as for [`Device`], locations are ignored).
impl PartialEq for Validated {
    fn eq(&self, other: &Self) -> bool {
        self.device == other.device
    }
}

impl PartialEq<Device> for Validated {
    fn eq(&self, other: &Device) -> bool {
        self.device == *other
    }
}

impl PartialEq<Validated> for Device {
    fn eq(&self, other: &Validated) -> bool {
        *self == other.device
    }
}

/// Checks `device` for every output in `outputs`: the rules every spec obeys, then each
/// output's own (names that would clash in C, in Rust, …). On failure, every problem found,
/// in source order.
pub fn validate(device: Device, outputs: &[Output]) -> Result<Validated, Vec<Diagnostic>> {
    let diagnostics = problems(&device, outputs);
    if !diagnostics.is_empty() {
        return Err(diagnostics);
    }
    let mut outputs = outputs.to_vec();
    outputs.sort();
    outputs.dedup();
    let mut warnings = crate::validate::warnings(&device);
    warnings.extend(crate::emit::warnings(&device, &outputs));
    Ok(Validated {
        device,
        outputs,
        warnings,
    })
}

/// What [`validate`] refuses `device` for, in source order (empty when it passes); for
/// callers that check a device they keep working on (the SVD import's renames), without the
/// copy that building a [`Validated`] takes.
pub(crate) fn problems(device: &Device, outputs: &[Output]) -> Vec<Diagnostic> {
    let mut diagnostics = crate::validate::device(device);
    // An output's names are only well defined for an otherwise valid device.
    if diagnostics.is_empty() {
        diagnostics.extend(crate::emit::check(device, outputs));
    }
    crate::sort(&mut diagnostics);
    diagnostics
}
