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
         names = []\n",
        preamble = provenance.preamble("#"),
        name = package_name(device),
        description = toml_string(&description),
    );
    GeneratedFile {
        place: Place::Crate,
        path: "Cargo.toml".into(),
        contents,
    }
}

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
