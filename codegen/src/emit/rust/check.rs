//! The Rust output's naming rules: spec names that would become Rust items colliding with
//! the generated crate's own items, or with each other once their case is changed.
//!
//! Where the items live (see `mod.rs` and `block.rs`):
//! - crate root: `mod common`, `pub use tock_registers`, one module per block (lower case,
//!   also the file `src/<block>.rs`), `Device`, the constants (upper case);
//! - block module: the handle type (CamelCase), the `offset`, `reset` and `reset_mask` modules, one field
//!   module per register (upper case); nothing imported, the type parameter `_M`;
//! - handle `impl`s: one accessor per register or block (lower case), and for an array
//!   `NAME_COUNT` and `name_unchecked` beside it.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::location::Located;
use crate::model::Device;
use crate::names;

/// Items of the crate root that a block module (and its file `src/<name>.rs`) would clash
/// with.
/// (`main` is not refused by rustc but warned about: a module of that name is taken for a
/// binary.)
const CRATE_ROOT_MODULES: &[&str] = &["lib", "main", "common", "tock_registers", "core", "std"];

/// Names the block's handle type must not take. The block module imports nothing and names
/// everything else by an absolute path (`crate::common::Reg`, `::core::option::Option`), and its
/// type parameter is `_M`, which no spec name can be; only the keyword is left.
pub(crate) const BLOCK_MODULE_TYPES: &[&str] = &["Self"];

pub(crate) fn check(device: &Device) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    super::interrupts::check(device, &mut diags);
    for block in &device.blocks {
        let module = names::lower(&block.name);
        if CRATE_ROOT_MODULES.contains(&module.as_str()) {
            diags.push(
                Diagnostic::error(
                    format!(
                        "block `{}` clashes with the generated Rust crate",
                        *block.name
                    ),
                    block.name.loc,
                    format!("its module `{module}` would clash with the crate's own `{module}`"),
                )
                .note(format!(
                    "reserved block names: {}",
                    CRATE_ROOT_MODULES.join(", ")
                )),
            );
        }
        snake_case(&block.name, block.array.is_some(), "block", &mut diags);
        let ty = names::camel(&block.name);
        if BLOCK_MODULE_TYPES.contains(&ty.as_str()) {
            diags.push(
                Diagnostic::error(
                    format!(
                        "block `{}` clashes with the generated Rust code",
                        *block.name
                    ),
                    block.name.loc,
                    if ty == "Self" {
                        "its handle type would be `Self`, a Rust keyword".to_string()
                    } else {
                        format!(
                            "its handle type `{ty}` would shadow or repeat `{ty}` in its module"
                        )
                    },
                )
                .note(format!(
                    "block names whose CamelCase form is one of these are reserved: {}",
                    BLOCK_MODULE_TYPES.join(", ")
                )),
            );
        }
        for register in &block.registers {
            snake_case(
                &register.name,
                register.array.is_some(),
                "register",
                &mut diags,
            );
            // Only a register with fields has a field module.
            if !register.fields.is_empty() && names::upper(&register.name) == ty {
                diags.push(
                    Diagnostic::error(
                        format!(
                            "register `{}` and block `{}` would both be `{ty}` in Rust",
                            *register.name, *block.name
                        ),
                        register.name.loc,
                        format!("the register's field module `{ty}`"),
                    )
                    .also(block.name.loc, format!("the block's handle type `{ty}`")),
                );
            }
        }
        unchecked_twins(
            block.registers.iter().map(|r| (&r.name, r.array.is_some())),
            &format!("block `{}`", *block.name),
            &mut diags,
        );
    }
    unchecked_twins(
        device.blocks.iter().map(|b| (&b.name, b.array.is_some())),
        "the device",
        &mut diags,
    );
    diags
}

/// Blocks and registers become snake_case methods (and block modules): rustc warns about a
/// name with a doubled underscore, which an array whose name ends in `_` gets in
/// `name__unchecked`.
fn snake_case(name: &Located<String>, is_array: bool, kind: &str, diags: &mut Vec<Diagnostic>) {
    let lower = names::lower(name);
    let method = if is_array {
        format!("{lower}_unchecked")
    } else {
        lower
    };
    if method.trim_matches('_').contains("__") {
        diags.push(
            Diagnostic::error(
                format!(
                    "{kind} `{}` would not be a snake_case Rust name",
                    name.value
                ),
                name.loc,
                format!("the generated `{method}` has a doubled underscore"),
            )
            .note("rustc warns about it (non_snake_case); use single underscores"),
        );
    }
}

/// An array `name` has the accessor `name_unchecked` beside `name`: another item called
/// `name_unchecked` would be defined twice.
fn unchecked_twins<'a>(
    items: impl Iterator<Item = (&'a Located<String>, bool)>,
    scope: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let items: Vec<_> = items.collect();
    let accessors: HashMap<String, &Located<String>> = items
        .iter()
        .map(|(name, _)| (names::lower(name), *name))
        .collect();
    for (name, is_array) in &items {
        if !is_array {
            continue;
        }
        let twin = format!("{}_unchecked", names::lower(name));
        if let Some(other) = accessors.get(&twin) {
            diags.push(
                Diagnostic::error(
                    format!(
                        "`{}` and `{}` would both have the accessor `{twin}` in {scope}",
                        other.value, name.value
                    ),
                    other.loc,
                    format!("`{twin}()` reads this one"),
                )
                .also(
                    name.loc,
                    format!("array `{}` has `{twin}(index)`", name.value),
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    /// Block modules import nothing, so that no block's handle type can shadow or repeat an
    /// import: the generated code names the template's items by absolute paths.
    #[test]
    fn block_modules_import_nothing() {
        let spec = crate::parse_str(
            "device: { name: d }\nblocks:\n  - name: reg\n    offset: 0\n    size: 8\n    registers:\n      - { name: R, offset: 0, width: 32, access: rw, fields: [{ name: A, bits: 0 }] }\n",
        )
        .expect("valid spec");
        let provenance = crate::emit::Provenance {
            spec: "d.yaml".into(),
            command: "gba gen".into(),
        };
        let files = super::super::files(&spec, &provenance).expect("emits");
        let block = files
            .iter()
            .find(|f| f.path.ends_with("reg.rs"))
            .expect("the block's file");
        let file: syn::File = syn::parse_str(&block.contents).expect("parses");
        assert!(
            !file.items.iter().any(|i| matches!(i, syn::Item::Use(_))),
            "{}",
            block.contents
        );
        assert_eq!(super::BLOCK_MODULE_TYPES, ["Self"]);
    }
}
