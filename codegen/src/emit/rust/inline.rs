//! The generated crate as one token stream, for `gba_macros::include_spec!`: the files that
//! `gba gen` writes, each module file placed inside its `mod` declaration, so that the macro
//! expands to the same code the CLI writes.
//!
//! What cannot be carried: the crate root's inner attributes (`#![no_std]`, its lint levels,
//! its `//!` documentation), which are not allowed where a macro expands; and comments
//! (`// SAFETY:`), which token streams do not hold. Paths in the generated code start at
//! `crate::`, so the macro must be invoked at the root of a crate.

use proc_macro2::TokenStream;
use quote::ToTokens;

use super::super::{EmitError, Provenance};
use crate::Validated;

/// The generated crate's items, with every `mod name;` of the crate root filled with the
/// contents of `src/name.rs`.
pub fn inline_crate(device: &Validated, provenance: &Provenance) -> Result<TokenStream, EmitError> {
    let files = super::files_on(device, provenance, super::Threads::Caller)?;
    let parse = |path: &str| -> syn::File {
        let file = files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("gba-codegen emitted no {path}"));
        // The emitter's output always parses (it was printed from a syn tree).
        syn::parse_file(&file.contents)
            .unwrap_or_else(|e| panic!("gba-codegen emitted invalid Rust in {path}: {e}"))
    };
    let root = parse("src/lib.rs");
    let mut out = TokenStream::new();
    for item in root.items {
        match item {
            syn::Item::Mod(mut module) if module.content.is_none() => {
                let file = parse(&format!("src/{}.rs", module.ident));
                // The file's inner attributes (`//!` docs, `#![allow(..)]`) open the block.
                module.attrs.extend(file.attrs);
                module.content = Some((syn::token::Brace::default(), file.items));
                module.semi = None;
                module.to_tokens(&mut out);
            }
            item => item.to_tokens(&mut out),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::inline_crate;
    use crate::emit::Provenance;

    #[test]
    fn every_module_file_is_inlined_as_written() {
        let device = crate::parse_str(include_str!("../../../../tests/fixtures/uart/uart.yaml"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        let provenance = Provenance {
            spec: "uart.yaml".into(),
            command: "test".into(),
        };
        let inlined: syn::File = syn::parse2(inline_crate(&device, &provenance).unwrap()).unwrap();
        assert!(inlined.attrs.is_empty(), "no crate-level attributes");
        let files = super::super::files(&device, &provenance).unwrap();
        let modules: Vec<&syn::ItemMod> = inlined
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Mod(module) => Some(module),
                _ => None,
            })
            .collect();
        let names: Vec<String> = modules.iter().map(|m| m.ident.to_string()).collect();
        assert_eq!(names, ["common", "regs", "dma_channel", "dma_debug"]);
        for module in modules {
            let file = files
                .iter()
                .find(|f| f.path == format!("src/{}.rs", module.ident))
                .unwrap();
            let written = syn::parse_file(&file.contents).unwrap();
            let (_, items) = module.content.as_ref().expect("inlined");
            let tokens = |items: &[syn::Item]| {
                items
                    .iter()
                    .map(|i| i.to_token_stream().to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(tokens(items), tokens(&written.items), "{}", module.ident);
        }
    }
}
