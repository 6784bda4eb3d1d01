//! `Cargo.toml` of a generated crate, so that `cargo build` in the crate directory works with
//! nothing added: the package, the runtime dependency the generated code needs, and its
//! features.
//!
//! Written only where the crate directory has no hand-written manifest (see
//! `project::Target::render`): a crate that is a member of a workspace (as `gba-pac/` is)
//! keeps its own.

use super::super::{GeneratedFile, Place, Provenance};
use crate::model::Device;
use crate::names;

/// The tock-registers requirement the generated code is written against (`common.rs` and
/// the field sets use its `Field`, `FieldValue`, `LocalRegisterCopy` and debug traits).
pub const TOCK_REGISTERS: &str = "0.10";

/// The Rust edition the generated code is written and tested in.
pub const EDITION: &str = "2024";

/// The package name of the crate generated for `device`: `uart` → `uart-pac`.
pub fn package_name(device: &Device) -> String {
    format!("{}-pac", names::lower(&device.name).replace('_', "-"))
}

/// The manifest of the crate generated for `device`.
pub fn file(device: &Device, provenance: &Provenance) -> GeneratedFile {
    let description = format!(
        "Typed registers of `{}`, generated from {} by `{}`",
        *device.name, provenance.spec, provenance.command
    );
    let contents = format!(
        "{preamble}\n\
         [package]\n\
         name = \"{name}\"\n\
         description = {description}\n\
         version = \"0.1.0\"\n\
         edition = \"{EDITION}\"\n\
         rust-version = \"1.85\"\n\
         \n\
         [dependencies]\n\
         tock-registers = {{ version = \"{TOCK_REGISTERS}\", default-features = false }}\n\
         \n\
         [features]\n\
         # tock-registers' `RegisterDebugInfo` for every field set, so that `Readable::debug`\n\
         # works; opt-in because it costs a fifth of a large crate's build time.\n\
         debug = []\n\
         # The view of the device side (a simulator), which may write read-only registers.\n\
         device-side = []\n\
         # `name()` and `description()` on every field's `Value` enum, for messages; opt-in\n\
         # because the string tables add about 8 % to a large crate's build.\n\
         names = []\n{firmware}",
        preamble = provenance.preamble("#"),
        name = package_name(device),
        description = toml_string(&description),
        firmware = firmware(device),
    );
    GeneratedFile {
        place: Place::Crate,
        path: "Cargo.toml".into(),
        contents,
    }
}

/// The optional dependencies and features of a device at a fixed address (`critical-section`
/// for `Peripherals::take`) and of a Cortex-M device (`cortex-m`, `rt`); none of them is on
/// by default, so the crate's own dependency stays tock-registers alone.
fn firmware(device: &Device) -> String {
    let cortex_m = crate::interrupts::is_cortex_m(device);
    if device.address.is_none() && !cortex_m {
        return String::new();
    }
    let mut dependencies =
        String::from("\n[dependencies.critical-section]\nversion = \"1.1\"\noptional = true\n");
    let mut features = String::from(
        "# `Peripherals::take()`, once, in a critical section (the program links an\n\
         # implementation, for instance cortex-m's `critical-section-single-core`).\n\
         critical-section = [\"dep:critical-section\"]\n",
    );
    if cortex_m {
        dependencies.push_str(&format!(
            "\n[dependencies.cortex-m]\nversion = \"{CORTEX_M}\"\noptional = true\n\
             \n[dependencies.cortex-m-rt]\nversion = \"{CORTEX_M_RT}\"\noptional = true\n"
        ));
        features.push_str(
            "# cortex-m's `InterruptNumber` for `Interrupt`, and its core peripherals re-exported.\n\
             cortex-m = [\"dep:cortex-m\"]\n\
             # The device's vector table, `device.x` and `#[interrupt]` for cortex-m-rt.\n\
             rt = [\"cortex-m\", \"dep:cortex-m-rt\", \"cortex-m-rt/device\"]\n",
        );
    }
    format!("{features}{dependencies}")
}

/// The cortex-m requirement of a Cortex-M crate's `cortex-m` feature.
pub const CORTEX_M: &str = "0.7.7";

/// The cortex-m-rt requirement of its `rt` feature.
pub const CORTEX_M_RT: &str = "0.7.3";

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::toml_string;

    #[test]
    fn toml_strings_escape_what_toml_requires() {
        assert_eq!(
            toml_string("a \"b\" \\ c\nd\u{1}"),
            r#""a \"b\" \\ c\nd\u0001""#
        );
    }
}
