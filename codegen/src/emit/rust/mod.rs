//! The Rust peripheral access crate: `lib.rs` (device handle and constants), `common.rs`
//! (register handles, copied from `templates/common.rs`) and one module per block.
//!
//! Code is built with `quote`, checked by `syn` and printed by `prettyplease`, so the output
//! is always well-formed and formatted the same way.

mod bitfields;
mod block;
pub mod inline;
pub mod manifest;
mod share;

use std::cell::RefCell;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{GeneratedFile, Place, Provenance};
use crate::model::{Block, Device};
use crate::names;

pub(super) const SEND_SAFETY: &str = "the handle is an address; the contract of `from_ptr` \
     makes its creator answer for use from any thread, so moving it adds no hazard.";
pub(super) const SYNC_SAFETY: &str = "as for `Send`: sharing the handle shares only an address.";

const COMMON: &str = include_str!("../../../templates/common.rs");

pub fn files(device: &Device, provenance: &Provenance) -> Vec<GeneratedFile> {
    let splices = Splices::default();
    let mut files = vec![
        file(
            "src/lib.rs",
            &crate_root(device, &splices),
            &splices,
            provenance,
        ),
        GeneratedFile {
            place: Place::Crate,
            path: "src/common.rs".into(),
            contents: format!("{}\n{COMMON}", provenance.preamble("//")),
        },
    ];
    let shared = share::Shared::new(device);
    for block in &device.blocks {
        let splices = Splices::default();
        files.push(file(
            &format!("src/{}.rs", names::lower(&block.name)),
            &block::module(block, &shared, &splices),
            &splices,
            provenance,
        ));
    }
    files
}

fn file(
    path: &str,
    tokens: &TokenStream,
    splices: &Splices,
    provenance: &Provenance,
) -> GeneratedFile {
    let syntax: syn::File = match syn::parse2(tokens.clone()) {
        Ok(syntax) => syntax,
        // The emitter builds tokens from validated names and numbers only; a parse failure
        // is a bug in the emitter, not in the spec.
        Err(error) => panic!("gba-codegen emitted invalid Rust for {path}: {error}\n{tokens}"),
    };
    GeneratedFile {
        place: Place::Crate,
        path: path.into(),
        contents: format!(
            "{}\n{}",
            provenance.preamble("//"),
            space_items(&splices.apply(&prettyplease::unparse(&syntax)))
        ),
    }
}

/// Text that token streams cannot carry, spliced into the printed code: `// SAFETY:`
/// comments (clippy wants a comment, not an attribute). The tokens hold a short marker
/// statement `__splice!(N);` that [`Splices::apply`] replaces by piece `N`.
#[derive(Default)]
pub(super) struct Splices {
    pieces: RefCell<Vec<Piece>>,
}

enum Piece {
    /// A `// SAFETY:` comment, wrapped to the line width.
    Safety(String),
}

const SPLICE_MARKER: &str = "__splice!(";

impl Splices {
    /// A `// SAFETY: {text}` comment at this point of the generated code.
    pub(super) fn safety(&self, text: &str) -> TokenStream {
        self.marker(Piece::Safety(text.to_string()))
    }

    fn marker(&self, piece: Piece) -> TokenStream {
        let mut pieces = self.pieces.borrow_mut();
        let index = Literal::usize_unsuffixed(pieces.len());
        pieces.push(piece);
        let marker = format_ident!("__splice");
        quote! { #marker!(#index); }
    }

    /// Replaces every marker line of `code` by its piece.
    fn apply(&self, code: &str) -> String {
        let pieces = self.pieces.borrow();
        let mut out = String::with_capacity(code.len());
        for line in code.lines() {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            let piece = trimmed
                .strip_prefix(SPLICE_MARKER)
                .and_then(|rest| rest.strip_suffix(");"))
                .and_then(|index| index.parse::<usize>().ok())
                .and_then(|index| pieces.get(index));
            match piece {
                Some(Piece::Safety(text)) => {
                    wrap_comment(&mut out, indent, &format!("SAFETY: {text}"))
                }
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        out
    }
}

/// prettyplease prints items back to back; a blank line between items (and after the module
/// docs) makes the output read like hand-written code.
fn space_items(code: &str) -> String {
    const ITEM_STARTS: &[&str] = &[
        "///",
        "#[",
        "pub ",
        "impl",
        "unsafe impl",
        "// SAFETY",
        "const ",
        "fn ",
        "mod ",
        "crate::",
        "type ",
    ];
    let mut out = String::with_capacity(code.len() + code.len() / 20);
    let mut previous = "";
    let lines: Vec<&str> = code.lines().collect();
    for (index, &line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let previous_trimmed = previous.trim_start();
        let after_item = (previous_trimmed.ends_with('}') || previous_trimmed.ends_with(';'))
            && !previous_trimmed.starts_with("//");
        let after_docs = (previous_trimmed.starts_with("//!") && !trimmed.starts_with("//!"))
            || (previous_trimmed.starts_with("#![") && !trimmed.starts_with("#!["));
        let starts_item = ITEM_STARTS.iter().any(|s| trimmed.starts_with(s));
        // Tables stay together: one-line constants in a row (offsets, resets), a field's
        // values, a field's `SET`/`CLEAR` alias after its constant of the same name, and a
        // field set's `DebugEnums` (behind the feature `debug`) after its `field_set!`.
        let one_line_constant =
            previous_trimmed.starts_with("pub const ") && previous_trimmed.ends_with(';');
        let in_table = (one_line_constant
            && (trimmed.starts_with("pub const ") || trimmed.starts_with("pub type ")))
            || (one_line_constant
                && previous_trimmed.contains(": FieldValue<")
                && trimmed.starts_with("///")
                && lines[index..]
                    .iter()
                    .map(|l| l.trim_start())
                    .find(|l| !l.starts_with("///"))
                    .is_some_and(|l| l.starts_with("pub const ") && l.contains(": FieldValue<")))
            || trimmed.starts_with("#[cfg(feature = \"debug\")]");
        if (after_item && starts_item && !in_table) || after_docs {
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
        previous = line;
    }
    out
}

fn wrap_comment(out: &mut String, indent: &str, text: &str) {
    const WIDTH: usize = 100;
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + 3 + line.len() + 1 + word.len() > WIDTH {
            out.push_str(&format!("{indent}// {line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&format!("{indent}// {line}\n"));
}

fn crate_root(device: &Device, splices: &Splices) -> TokenStream {
    let docs = inner_doc_lines(&format!(
        "{}\n\nRegister map version {}.\n\n\
         The only `unsafe` a user of this crate writes is [`Device::from_ptr`] (or a block's\n\
         `from_ptr`); everything reached from there is safe, typed by access mode, and never\n\
         creates a reference to device memory.",
        if device.description.is_empty() {
            format!("Registers of `{}`.", *device.name)
        } else {
            device.description.clone()
        },
        if device.version.is_empty() {
            "unspecified"
        } else {
            &device.version
        },
    ));
    let modules = device.blocks.iter().map(|b| {
        let module = format_ident!("{}", names::lower(&b.name));
        let doc = doc_lines(&block_summary(b));
        quote! { #doc #[rustfmt::skip] pub mod #module; }
    });
    let constants = device.constants.iter().map(|c| {
        let name = format_ident!("{}", names::upper(&c.name));
        let doc = doc_lines(&c.description);
        let value = decimal(*c.value);
        quote! { #doc pub const #name: usize = #value; }
    });
    let window = number(window_size(device));
    let alignment = alignment(device);
    let alignment_doc = doc_lines(&format!(
        "- `ptr` is aligned to {alignment} bytes (the widest register), so that every register\n  \
         is aligned;"
    ));
    let accessors = device.blocks.iter().map(|b| block_accessor(b, splices));
    let send_safety = splices.safety(SEND_SAFETY);
    let sync_safety = splices.safety(SYNC_SAFETY);
    quote! {
        #docs
        // Generated code is laid out by prettyplease; `cargo fmt` must leave it as generated,
        // or `gba gen --check` would find it stale.
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #![no_std]
        #![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

        #[rustfmt::skip]
        pub mod common;
        #(#modules)*

        /// The tock-registers version these handles implement, re-exported so that users name
        /// the same traits (`gba_pac::tock_registers::interfaces::Readable`).
        pub use tock_registers;

        #(#constants)*

        /// The device's register window: a `Copy` handle holding its base address.
        #[derive(Clone, Copy, Debug)]
        pub struct Device {
            ptr: *mut u8,
        }

        #send_safety
        unsafe impl Send for Device {}
        #sync_safety
        unsafe impl Sync for Device {}

        impl Device {
            /// Bytes of the register window, from the start of the first block to the end of
            /// the last.
            pub const SIZE: usize = #window;

            /// The device whose register window starts at `ptr`.
            ///
            /// # Safety
            ///
            /// For as long as the returned handle, or any block or register handle obtained
            /// from it, is used:
            /// - `ptr` points to a mapping of the whole register window, [`Self::SIZE`] bytes,
            ///   valid for volatile reads and writes;
            #alignment_doc
            /// - no Rust reference (`&` or `&mut`) to any byte of the window exists, and the
            ///   window is accessed only through volatile (or atomic) operations;
            /// - if handles are used from several threads or processes at once, the memory is
            ///   one where concurrent accesses are defined: device registers, or shared memory
            ///   that every party accesses only volatilely or atomically.
            #[inline(always)]
            pub const unsafe fn from_ptr(ptr: *mut u8) -> Self {
                Device { ptr }
            }

            /// The base address of the window.
            #[inline(always)]
            pub const fn as_ptr(self) -> *mut u8 {
                self.ptr
            }

            #(#accessors)*
        }
    }
}

fn block_accessor(block: &Block, splices: &Splices) -> TokenStream {
    // Validation keeps each block's offset and stride aligned to its own widest register.
    let alignment = block.registers.iter().map(|r| r.bytes()).max().unwrap_or(1);
    let module = format_ident!("{}", names::lower(&block.name));
    let ty = format_ident!("{}", names::camel(&block.name));
    let method = format_ident!("{}", names::lower(&block.name));
    let offset = number(*block.offset);
    let end = block.offset.saturating_add(*block.size);
    match &block.array {
        None => {
            let doc = doc_lines(&format!(
                "Block `{}` at {:#x}..{:#x}.",
                *block.name, *block.offset, end
            ));
            let element_safety = splices.safety(&format!(
                "the block spans {:#x}..{:#x}, inside the window that the contract of \
                 `from_ptr` makes valid; the offset keeps the {alignment}-byte alignment.",
                *block.offset, end
            ));
            quote! {
                #doc
                #[inline(always)]
                pub const fn #method(self) -> #module::#ty {
                    #element_safety
                    unsafe { #module::#ty::from_ptr(self.ptr.wrapping_add(#offset)) }
                }
            }
        }
        Some(array) => {
            let element_offset = element_offset(*block.offset, *array.stride);
            let last_end = block
                .offset
                .saturating_add(array.count.saturating_sub(1).saturating_mul(*array.stride))
                .saturating_add(*block.size);
            array_accessor(
                ArrayAccessor {
                    name: &block.name,
                    count: *array.count,
                    returns: quote! { #module::#ty },
                    doc: format!(
                        "Instance `index` of block `{}`, or `None` when `index >= {}`.",
                        *block.name, *array.count
                    ),
                    count_doc: format!("Instances of block `{}`.", *block.name),
                    subject: format!("Instance `index` of block `{}`", *block.name),
                    safety: format!(
                        "`index < {}` (the promise of the caller), so the instance lies within \
                         {:#x}..{:#x}, inside the window that the contract of `from_ptr` makes \
                         valid; the stride keeps the {alignment}-byte alignment.",
                        *array.count, *block.offset, last_end
                    ),
                    construct: quote! { #module::#ty::from_ptr(self.ptr.wrapping_add(#element_offset)) },
                },
                splices,
            )
        }
    }
}

/// The accessors of an array of blocks or registers: `NAME_COUNT`, `name(index) -> Option`
/// and `unsafe name_unchecked(index)`.
pub(super) struct ArrayAccessor<'a> {
    /// The spec name of the array.
    pub name: &'a str,
    pub count: u64,
    /// The handle type one element is.
    pub returns: TokenStream,
    /// Documentation of the checked accessor.
    pub doc: String,
    pub count_doc: String,
    /// "Element `index` of …", for the unchecked accessor's documentation.
    pub subject: String,
    /// The SAFETY comment of the unchecked construction.
    pub safety: String,
    /// The unsafe expression that builds element `index`.
    pub construct: TokenStream,
}

pub(super) fn array_accessor(array: ArrayAccessor<'_>, splices: &Splices) -> TokenStream {
    let count_name = format_ident!("{}_COUNT", names::upper(array.name));
    let method = format_ident!("{}", names::lower(array.name));
    let unchecked = format_ident!("{}_unchecked", names::lower(array.name));
    let count = decimal(array.count);
    let returns = array.returns;
    let construct = array.construct;
    let doc = doc_lines(&array.doc);
    let count_doc = doc_lines(&array.count_doc);
    let unchecked_doc = doc_lines(&format!(
        "{}, without the bounds check.\n\n# Safety\n\n\
         `index` must be less than [`Self::{count_name}`].",
        array.subject
    ));
    let element_safety = splices.safety(&array.safety);
    let checked = splices.safety("the bound was checked just above.");
    quote! {
        #count_doc
        pub const #count_name: usize = #count;

        #doc
        #[inline(always)]
        pub const fn #method(self, index: usize) -> Option<#returns> {
            if index < Self::#count_name {
                #checked
                Some(unsafe { self.#unchecked(index) })
            } else {
                None
            }
        }

        #unchecked_doc
        #[inline(always)]
        pub const unsafe fn #unchecked(self, index: usize) -> #returns {
            #element_safety
            unsafe { #construct }
        }
    }
}

/// The alignment every block offset and stride keeps: the widest register's size.
fn alignment(device: &Device) -> u64 {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .map(|r| r.bytes())
        .max()
        .unwrap_or(1)
}

/// The window: from 0 to the end of the last instance of any block.
pub fn window_size(device: &Device) -> u64 {
    device
        .blocks
        .iter()
        .map(|b| {
            let last = b
                .array
                .as_ref()
                .map_or(0, |a| a.count.saturating_sub(1).saturating_mul(*a.stride));
            b.offset.saturating_add(last).saturating_add(*b.size)
        })
        .max()
        .unwrap_or(0)
}

/// The first paragraph of the block's description, for the module list of the crate root.
fn block_summary(block: &Block) -> String {
    let paragraph = block
        .description
        .trim()
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .trim();
    if paragraph.is_empty() {
        format!("Block `{}`.", *block.name)
    } else {
        paragraph.to_string()
    }
}

/// `base + index * stride`, without the terms that would be identities (clippy objects).
pub(super) fn element_offset(base: u64, stride: u64) -> TokenStream {
    let scaled = if stride == 1 {
        quote! { index }
    } else {
        let stride = number(stride);
        quote! { index * #stride }
    };
    if base == 0 {
        scaled
    } else {
        let base = number(base);
        quote! { #base + #scaled }
    }
}

/// A decimal literal, for counts and limits.
pub(super) fn decimal(value: u64) -> Literal {
    Literal::u64_unsuffixed(value)
}

/// `#![doc]` attributes, one per line, printed as `//!` comments.
pub(super) fn inner_doc_lines(text: &str) -> TokenStream {
    let lines = text.trim_end().lines().map(|line| {
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote! { #![doc = #line] }
    });
    quote! { #(#lines)* }
}

/// `#[doc]` attributes, one per line, so that prettyplease prints them as `///` comments.
pub(super) fn doc_lines(text: &str) -> TokenStream {
    let lines = text.trim_end().lines().map(|line| {
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote! { #[doc = #line] }
    });
    quote! { #(#lines)* }
}

/// A hexadecimal literal with `_` every four digits (`0x4742_4131`).
pub(super) fn number(value: u64) -> Literal {
    let digits = format!("{value:x}");
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 4 == 0 {
            grouped.push('_');
        }
        grouped.push(c);
    }
    format!("0x{grouped}")
        .parse()
        .unwrap_or_else(|_| Literal::u64_unsuffixed(value))
}
