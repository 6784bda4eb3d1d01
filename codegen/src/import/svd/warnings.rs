//! Where every pass reports what the import does not carry over, or carries changed.

use crate::import::{Treatment, Warning};

/// The warnings so far, in the order the passes found them.
#[derive(Debug, Default)]
pub(crate) struct Warnings(Vec<Warning>);

impl Warnings {
    /// Reports `message` about the item at `at` (`UART0.UARTDR.DATA`), which the import
    /// treated as `treatment` says.
    pub(crate) fn warn(
        &mut self,
        treatment: Treatment,
        at: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.0.push(Warning {
            treatment,
            at: at.into(),
            line: None,
            message: message.into(),
        });
    }

    /// Reports `message` about the item at `at`, whose line the pass knows already (the
    /// repairs read the file's XML themselves).
    pub(crate) fn warn_at_line(
        &mut self,
        treatment: Treatment,
        at: String,
        line: u32,
        message: String,
    ) {
        self.0.push(Warning {
            treatment,
            at,
            line: Some(line),
            message,
        });
    }

    pub(crate) fn into_vec(self) -> Vec<Warning> {
        self.0
    }
}
