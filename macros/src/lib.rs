//! `include_spec!("my_device.yaml");` expands, at build time, to the code that
//! `gba gen --spec my_device.yaml --out DIR` writes into `DIR/src/`: the device handle, one
//! module per block, `common` (register handles and field-set helpers) and the spec's
//! constants.
//!
//! - The path is relative to the invoking crate's directory (`CARGO_MANIFEST_DIR`), as for
//!   build scripts.
//! - Invoke it at the root of a crate (the generated code names its modules `crate::…`), in a
//!   crate that depends on `tock-registers` 0.10 (the generated code implements its traits)
//!   and sets `#![no_std]` itself if it wants to: a macro cannot set the crate root's
//!   attributes, nor carry comments, so the expansion lacks `gba gen`'s crate-level lint
//!   levels and `// SAFETY:` comments; everything else is the same.
//! - The expansion has the generated crate's optional parts behind the same cargo features:
//!   declare `debug`, `device-side` and `names` in the invoking crate's `[features]` (empty
//!   lists, as `gba gen`'s `Cargo.toml` does), or rustc warns of unknown `cfg` values.
//! - A spec with problems does not compile: each problem is a `compile_error!` carrying the
//!   rendered diagnostic, which names the spec's `file:line:col`.
//! - The expansion includes the spec's bytes (`include_bytes!`), so cargo rebuilds the crate
//!   when the spec changes.

use std::path::PathBuf;

use gba_codegen::emit::Provenance;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitStr;

/// The code `gba gen` generates for the spec at the given path (relative to the invoking
/// crate's `Cargo.toml`). See the crate documentation.
#[proc_macro]
pub fn include_spec(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let literal = match syn::parse::<LitStr>(input) {
        Ok(literal) => literal,
        Err(error) => return error.to_compile_error().into(),
    };
    expand(&literal).into()
}

fn expand(literal: &LitStr) -> TokenStream {
    let relative = literal.value();
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return error(
            literal.span(),
            "CARGO_MANIFEST_DIR is not set: build with cargo",
        );
    };
    let path = PathBuf::from(dir).join(&relative);
    let device = match gba_codegen::load(&path) {
        Ok(device) => device,
        Err(problem) => {
            return error(
                literal.span(),
                &format!(
                    "the spec {relative} has problems:\n{}",
                    problem.render(gba_codegen::Style::Plain)
                ),
            );
        }
    };
    let provenance = Provenance {
        spec: relative.clone(),
        command: format!("gba_macros::include_spec!({relative:?})"),
    };
    let code = match gba_codegen::emit::inline_crate(&device, &provenance) {
        Ok(code) => code,
        Err(problem) => {
            return error(
                literal.span(),
                &format!("the spec {relative} cannot be generated as Rust: {problem}"),
            );
        }
    };
    let tracked = path.to_string_lossy().into_owned();
    quote! {
        // The spec's bytes make it an input of this crate: cargo rebuilds when it changes.
        const _: &[u8] = include_bytes!(#tracked);
        #code
    }
}

fn error(span: Span, message: &str) -> TokenStream {
    syn::Error::new(span, message).to_compile_error()
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;
    use syn::LitStr;

    use super::expand;

    fn expand_path(path: &str) -> String {
        expand(&LitStr::new(path, Span::call_site())).to_string()
    }

    #[test]
    fn a_spec_expands_to_its_crate_and_is_tracked() {
        let code = expand_path("../tests/fixtures/uart/uart.yaml");
        assert!(code.contains("include_bytes !"), "{code}");
        assert!(code.contains("tests/fixtures/uart/uart.yaml"), "{code}");
        assert!(code.contains("pub mod regs"), "{code}");
        assert!(code.contains("pub struct Device"), "{code}");
    }

    #[test]
    fn spec_problems_are_compile_errors_with_the_rendered_diagnostics() {
        let code = expand_path("../tests/fixtures/invalid/many_problems.yaml");
        assert!(code.starts_with(":: core :: compile_error !"), "{code}");
        assert!(code.contains("many_problems.yaml:11:28"), "{code}");
        assert!(code.contains("registers `B` and `A` overlap"), "{code}");
        assert!(code.contains("8 problems found"), "{code}");
        let missing = expand_path("no/such.yaml");
        assert!(missing.contains("cannot read spec"), "{missing}");
    }
}
