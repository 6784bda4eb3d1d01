//! The Rust peripheral access crate: `lib.rs` (device handle and constants), `common.rs`
//! (register handles, copied from `templates/common.rs`) and one module per block.
//!
//! Code is built with `quote`, checked by `syn` and printed by `prettyplease`, so the output
//! is always well-formed and formatted the same way; documentation and `// SAFETY:` comments
//! are spliced into the printed text at markers (see `Splices`).

mod bitfields;
mod block;
mod check;
mod interrupts;
mod msb0;

pub(crate) use check::check;
pub mod inline;
pub mod manifest;
mod share;

use std::cell::RefCell;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{EmitError, GeneratedFile, Output, Place, Provenance};
use crate::Validated;
use crate::location::Loc;
use crate::model::{Block, Device};
use crate::names;

pub(super) const SEND_SAFETY: &str = "an address and the mechanism `_M`, which is `Send` itself; \
     `from_ptr`/`from_shared_ptr` make every access race-free.";
pub(super) const SYNC_SAFETY: &str =
    "as for `Send`: sharing the handle shares an address and a `Sync` mechanism.";

const COMMON: &str = include_str!("../../../templates/common.rs");
/// The mechanism of registers wider than their bus access (`Split`), appended to `common.rs`
/// only for a device that has such a register.
const SPLIT: &str = include_str!("../../../templates/split.rs");
/// The access mode of registers holding write-once fields (`RwOnce`), appended to `common.rs`
/// only for a device that has such a register.
const WRITE_ONCE: &str = include_str!("../../../templates/write_once.rs");

pub fn files(device: &Validated, provenance: &Provenance) -> Result<Vec<GeneratedFile>, EmitError> {
    files_on(device, provenance, Threads::Cores)
}

/// Where [`files`] builds the block modules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Threads {
    /// On the machine's cores.
    Cores,
    /// On the calling thread only: inside a procedural macro (`include_spec!`), proc-macro2
    /// has decided once for the process that it runs in the compiler, and a token stream
    /// built on another thread panics.
    Caller,
}

pub(super) fn files_on(
    device: &Validated,
    provenance: &Provenance,
    threads: Threads,
) -> Result<Vec<GeneratedFile>, EmitError> {
    let device = &super::text::map_descriptions(device, super::text::rustdoc);
    let splices = Splices::default();
    let mut files = vec![
        file(
            "src/lib.rs",
            crate_root(device, &splices),
            &splices,
            provenance,
            device.name.loc,
        )?,
        GeneratedFile {
            place: Place::Crate,
            path: "src/common.rs".into(),
            contents: format!(
                "{}\n{COMMON}{}{}",
                provenance.preamble("//"),
                if any_split(device) { SPLIT } else { "" },
                if any_write_once(device) {
                    WRITE_ONCE
                } else {
                    ""
                }
            ),
        },
    ];
    files.extend(interrupts::device_x(device, provenance));
    files.extend(interrupts::build_rs(device, provenance));
    let kinds = crate::block_types::kinds(device);
    let shared = share::Shared::new(kinds.iter().map(|k| &k.definition));
    let modules = in_parallel(&kinds, threads, |kind| {
        let splices = Splices::default();
        let block = &kind.definition;
        file(
            &format!("src/{}.rs", names::lower(&block.name)),
            block::module(kind, &shared, &splices),
            &splices,
            provenance,
            block.name.loc,
        )
    });
    for module in modules {
        files.push(module?);
    }
    Ok(files)
}

/// True when a register of the device holds a write-once field.
fn any_write_once(device: &Device) -> bool {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .any(|r| r.has_write_once())
}

/// True when a register of the device is wider than its bus access.
fn any_split(device: &Device) -> bool {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .any(|r| r.access_pieces() > 1)
}

/// `job` of every item, in the items' order, spread over the machine's cores: a large
/// vendor device has dozens of block modules, and parsing and printing each (syn,
/// prettyplease) is most of its generation time. The modules share nothing but what they
/// read (token streams cannot cross threads: each job builds and prints its own).
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: Threads,
    job: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = match threads {
        Threads::Cores => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        Threads::Caller => 1,
    }
    .min(items.len());
    if threads <= 1 {
        return items.iter().map(&job).collect();
    }
    // Each worker takes the next item not yet taken, so that one large module does not hold
    // up a fixed share of the rest.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        out.push((i, job(item)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

fn file(
    path: &str,
    tokens: TokenStream,
    splices: &Splices,
    provenance: &Provenance,
    loc: Loc,
) -> Result<GeneratedFile, EmitError> {
    // The emitter builds tokens from validated names and numbers only; a parse failure is a
    // bug in the emitter, reported at the spec item it was emitting.
    let syntax: syn::File = syn::parse2(tokens).map_err(|error| EmitError {
        output: Output::Rust,
        message: format!(
            "internal error in gba-codegen (please report): invalid Rust for {path}: {error}"
        ),
        loc,
    })?;
    Ok(GeneratedFile {
        place: Place::Crate,
        path: path.into(),
        contents: format!(
            "{}\n{}",
            provenance.preamble("//"),
            space_items(&splices.apply(&prettyplease::unparse(&syntax)))
        ),
    })
}

/// Text spliced into the printed code:
/// - `// SAFETY:` comments, which token streams cannot carry (clippy wants a comment, not an
///   attribute): the tokens hold a short marker statement `__splice!(N);`;
/// - documentation, which they can carry (`#[doc = "…"]`, one attribute per line) at a
///   price: quote escapes each line into a string literal, syn reads it back and prettyplease
///   reads it again to print it as `///` (8 % of generating a large vendor crate). The
///   tokens hold one marker attribute `#[__splice = N]` (`#![…]` for inner documentation),
///   which prettyplease prints on a line of its own like the doc attributes it stands for.
///
/// [`Splices::apply`] replaces each marker line by piece `N`.
#[derive(Default)]
pub(super) struct Splices {
    pieces: RefCell<Vec<Piece>>,
}

enum Piece {
    /// A `// SAFETY:` comment, wrapped to the line width.
    Safety(String),
    /// Documentation of the next item (`///`) or of the enclosing one (`//!`): the lines of
    /// the text, as prettyplease prints `#[doc]` attributes.
    Doc { inner: bool, text: String },
}

const SPLICE_MARKER: &str = "__splice!(";
const DOC_MARKER: &str = "#[__splice = ";
const INNER_DOC_MARKER: &str = "#![__splice = ";

impl Splices {
    /// A `// SAFETY: {text}` comment at this point of the generated code.
    pub(super) fn safety(&self, text: &str) -> TokenStream {
        self.marker(Piece::Safety(text.to_string()))
    }

    /// The documentation `text` of the next item, one `///` line per line (nothing for an
    /// empty text).
    pub(super) fn doc(&self, text: &str) -> TokenStream {
        self.doc_marker(false, text)
    }

    /// The documentation `text` of the enclosing item, one `//!` line per line.
    pub(super) fn inner_doc(&self, text: &str) -> TokenStream {
        self.doc_marker(true, text)
    }

    fn doc_marker(&self, inner: bool, text: &str) -> TokenStream {
        let text = text.trim_end();
        if text.is_empty() {
            return TokenStream::new();
        }
        let index = self.push(Piece::Doc {
            inner,
            text: text.to_string(),
        });
        let marker = format_ident!("__splice");
        if inner {
            quote! { #![#marker = #index] }
        } else {
            quote! { #[#marker = #index] }
        }
    }

    fn marker(&self, piece: Piece) -> TokenStream {
        let index = self.push(piece);
        let marker = format_ident!("__splice");
        quote! { #marker!(#index); }
    }

    fn push(&self, piece: Piece) -> Literal {
        let mut pieces = self.pieces.borrow_mut();
        let index = Literal::usize_unsuffixed(pieces.len());
        pieces.push(piece);
        index
    }

    /// Replaces every marker line of `code` by its piece.
    fn apply(&self, code: &str) -> String {
        let pieces = self.pieces.borrow();
        let mut out = String::with_capacity(code.len() + code.len() / 2);
        for line in code.lines() {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            let piece = [
                (SPLICE_MARKER, ");"),
                (DOC_MARKER, "]"),
                (INNER_DOC_MARKER, "]"),
            ]
            .iter()
            .find_map(|(start, end)| trimmed.strip_prefix(start)?.strip_suffix(end))
            .and_then(|index| index.parse::<usize>().ok())
            .and_then(|index| pieces.get(index));
            match piece {
                Some(Piece::Safety(text)) => {
                    wrap_comment(&mut out, indent, &format!("SAFETY: {text}"))
                }
                Some(Piece::Doc { inner, text }) => {
                    let slashes = if *inner { "//!" } else { "///" };
                    for doc in text.lines() {
                        // As prettyplease prints `#[doc = " {doc}"]`: trailing spaces go.
                        let doc = if doc.is_empty() {
                            String::new()
                        } else {
                            format!(" {doc}")
                        };
                        out.push_str(indent);
                        out.push_str(slashes);
                        out.push_str(doc.trim_end_matches(' '));
                        out.push('\n');
                    }
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
        // Tables stay together: one-line constants in a row, each after its doc comment
        // (offsets, resets, a field's values), a field's `SET`/`CLEAR` alias after its
        // constant of the same name, and a field set's `DebugEnums` (behind the feature
        // `debug`) after its `field_set!`.
        let one_line_constant =
            previous_trimmed.starts_with("pub const ") && previous_trimmed.ends_with(';');
        let one_liner = |l: &str| {
            (l.starts_with("pub const ") || l.starts_with("pub type ")) && l.ends_with(';')
        };
        let in_table = (one_line_constant
            && (trimmed.starts_with("pub const ") || trimmed.starts_with("pub type ")))
            || (one_line_constant
                && trimmed.starts_with("///")
                && lines[index..]
                    .iter()
                    .map(|l| l.trim_start())
                    .find(|l| !l.starts_with("///"))
                    .is_some_and(one_liner))
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
    let docs = splices.inner_doc(&format!(
        "{}\n\nRegister map version {}.\n\n\
         The only `unsafe` a user of this crate writes is [`Device::from_ptr`] (or a block's\n\
         `from_ptr`); everything reached from there is safe, typed by access mode, and never\n\
         creates a reference to device memory.{}",
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
        interrupts::crate_docs(device),
    ));
    let kinds = crate::block_types::kinds(device);
    let modules = kinds.iter().map(|k| {
        let module = format_ident!("{}", names::lower(&k.definition.name));
        let doc = splices.doc(&block_summary(&k.definition));
        quote! { #doc #[rustfmt::skip] pub mod #module; }
    });
    let constants = device.constants.iter().map(|c| {
        let name = format_ident!("{}", names::upper(&c.name));
        // A spec may leave the description out; the crate documents every public item.
        let doc = splices.doc(if c.description.trim().is_empty() {
            "A constant of the device, as its spec names it."
        } else {
            &c.description
        });
        let value = decimal(*c.value);
        quote! { #doc pub const #name: usize = #value; }
    });
    let window = number(window_size(device));
    let alignment = alignment(device);
    let alignment_doc = splices.doc(&format!(
        "- `ptr` is aligned to {alignment} bytes (the widest register), so that every register\n  \
         is aligned;"
    ));
    let (block_constants, accessors): (Vec<_>, Vec<_>) = device
        .blocks
        .iter()
        .map(|b| block_accessor(b, splices))
        .unzip();
    let send_safety = splices.safety(SEND_SAFETY);
    let sync_safety = splices.safety(SYNC_SAFETY);
    let firmware = interrupts::root_items(device, splices);
    quote! {
        #docs
        // Generated code is laid out by prettyplease; `cargo fmt` must leave it as generated,
        // or `gba gen --check` would find it stale.
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #![no_std]
        #![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
        #![warn(missing_docs)]

        #[rustfmt::skip]
        pub mod common;
        #(#modules)*

        /// The tock-registers version these handles implement, re-exported so that users name
        /// the same traits (`gba_pac::tock_registers::interfaces::Readable`).
        pub use tock_registers;

        #(#constants)*

        /// The device's register window: a `Copy` handle holding its base address.
        ///
        /// `_M` is how its registers are reached: [`Volatile`](common::Volatile) for device
        /// memory (the default, [`Device::from_ptr`]), [`Atomic`](common::Atomic) for a
        /// window in memory shared with other threads or processes
        /// ([`Device::from_shared_ptr`]), [`OnBus`](common::OnBus) for a device reached by
        /// transactions that may fail ([`Device::on_bus`]).
        #[derive(Clone, Copy, Debug)]
        pub struct Device<_M = crate::common::Volatile> {
            ptr: *mut u8,
            io: _M,
        }

        #send_safety
        unsafe impl<_M: ::core::marker::Send> ::core::marker::Send for Device<_M> {}
        #sync_safety
        unsafe impl<_M: ::core::marker::Sync> ::core::marker::Sync for Device<_M> {}

        impl Device {
            /// Bytes of the register window, from its base (offset 0, where `from_ptr`'s
            /// pointer points) to the end of the last block instance.
            pub const SIZE: usize = #window;

            #(#block_constants)*

            /// The device whose register window starts at `ptr`, in device memory: every
            /// access is one volatile read or write.
            ///
            /// # Safety
            ///
            /// For as long as the returned handle, or any block or register handle obtained
            /// from it, is used:
            /// - `ptr` points to a mapping of the whole register window, [`Self::SIZE`] bytes,
            ///   valid for reads and writes;
            #alignment_doc
            /// - no Rust reference (`&` or `&mut`) to any byte of the window exists;
            /// - no other thread of this program accesses the window while these handles do,
            ///   unless it is device memory (whose other party is hardware): concurrent
            ///   volatile accesses to ordinary memory are a data race. For a window in memory
            ///   that other threads or processes also access, use
            ///   [`from_shared_ptr`](Device::from_shared_ptr).
            #[inline(always)]
            pub const unsafe fn from_ptr(ptr: *mut u8) -> Self {
                Device { ptr, io: crate::common::Volatile }
            }
        }

        impl Device<crate::common::Atomic> {
            /// The device whose register window starts at `ptr`, in memory shared with other
            /// threads or processes: every access is one atomic load or store.
            ///
            /// # Safety
            ///
            /// For as long as the returned handle, or any block or register handle obtained
            /// from it, is used:
            /// - `ptr` points to a mapping of the whole register window,
            ///   [`Device::SIZE`] bytes, valid for reads and writes;
            #alignment_doc
            /// - no Rust reference (`&` or `&mut`) to any byte of the window exists;
            /// - every access to the window, by any thread or process, is atomic (these
            ///   handles with the `Atomic` mechanism, or atomics of the same width at the same
            ///   addresses).
            #[inline(always)]
            pub const unsafe fn from_shared_ptr(ptr: *mut u8) -> Self {
                Device { ptr, io: crate::common::Atomic }
            }
        }

        impl<'b, _B: crate::common::Bus + ?Sized> Device<crate::common::OnBus<'b, _B>> {
            /// The device whose register window starts at address `base` of `bus`: every
            /// access is one transaction of `bus` (see [`Bus`](crate::common::Bus)), which may
            /// fail, so the handles' `try_` methods return its error. No `unsafe`: no memory
            /// is touched.
            #[inline(always)]
            pub const fn on_bus(bus: &'b _B, base: u64) -> Self {
                Device { ptr: ::core::ptr::null_mut(), io: crate::common::OnBus::new(bus, base) }
            }
        }

        impl<_M: crate::common::InMemory> Device<_M> {
            /// The base address of the window in memory (a handle on a bus has none; its
            /// registers have `bus_address`).
            #[inline(always)]
            pub const fn as_ptr(self) -> *mut u8 {
                self.ptr
            }
        }

        impl<_M: ::core::marker::Copy> Device<_M> {

            /// The same window, for use during `'a` only: every handle reached from the
            /// result carries `'a`, so none can outlive a mapping that ends with `'a`.
            #[inline(always)]
            pub const fn scoped<'a>(self) -> Device<crate::common::Scoped<'a, _M>> {
                Device { ptr: self.ptr, io: crate::common::Scoped::new(self.io) }
            }

            #(#accessors)*
        }

        #firmware
    }
}

/// The block's constants (for the impl on the default mechanism) and accessor methods (for
/// the impl over every mechanism).
fn block_accessor(block: &Block, splices: &Splices) -> (TokenStream, TokenStream) {
    // Validation keeps each block's offset and stride aligned to its own widest register.
    let alignment = block.registers.iter().map(|r| r.bytes()).max().unwrap_or(1);
    let type_name = crate::block_types::type_name(block);
    let module = format_ident!("{}", names::lower(type_name));
    let ty = format_ident!("{}", names::camel(type_name));
    let method = format_ident!("{}", names::lower(&block.name));
    let offset = number(*block.offset);
    let end = block.offset.saturating_add(*block.size);
    let mut alternate = match &block.alternate_of {
        Some(of) => format!(
            "\n\nAn alternate view of the bytes of block `{}`: the two overlap.",
            **of
        ),
        None => String::new(),
    };
    if block.instance_of.is_some() {
        alternate.push_str(&format!(
            "\n\nAn instance of block type [`{module}::{ty}`], as the type's other instances are."
        ));
    }
    let construct = |at: TokenStream| {
        quote! {
            #module::#ty {
                ptr: self.ptr.wrapping_add(#at),
                io: self.io,
            }
        }
    };
    match &block.array {
        None => {
            let doc = splices.doc(&format!(
                "Block `{}` at {:#x}..{:#x}.{alternate}",
                *block.name, *block.offset, end
            ));
            let block_value = construct(quote! { #offset });
            let method = quote! {
                #doc
                #[inline(always)]
                pub const fn #method(self) -> #module::#ty<_M> {
                    #block_value
                }
            };
            (TokenStream::new(), method)
        }
        Some(array) => {
            let element_offset = element_offset(*block.offset, *array.stride);
            let last_end = block
                .offset
                .saturating_add(array.count.saturating_sub(1).saturating_mul(*array.stride))
                .saturating_add(*block.size);
            let block_value = construct(element_offset);
            array_accessor(
                ArrayAccessor {
                    name: &block.name,
                    count: *array.count,
                    returns: quote! { #module::#ty<_M> },
                    doc: format!(
                        "Instance `index` of block `{}`, or `None` when `index >= {}`.{alternate}",
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
                    construct: block_value,
                    construct_is_unsafe: false,
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
    /// The expression that builds element `index`.
    pub construct: TokenStream,
    /// Whether `construct` calls an unsafe function (a register handle's `from_ptr`) and so
    /// needs an `unsafe` block with its SAFETY comment; a block handle is a plain struct.
    pub construct_is_unsafe: bool,
}

/// The accessors of an array of blocks or registers: the constant `NAME_COUNT` (first, for
/// the impl on the default mechanism: a constant of a generic impl could not be named without
/// the mechanism) and the methods `name(index) -> Option` and `unsafe name_unchecked(index)`
/// (second, for the impl over every mechanism).
pub(super) fn array_accessor(
    array: ArrayAccessor<'_>,
    splices: &Splices,
) -> (TokenStream, TokenStream) {
    let count_name = format_ident!("{}_COUNT", names::upper(array.name));
    let method = format_ident!("{}", names::lower(array.name));
    let unchecked = format_ident!("{}_unchecked", names::lower(array.name));
    let count = decimal(array.count);
    let returns = array.returns;
    let construct = array.construct;
    let doc = splices.doc(&array.doc);
    let count_doc = splices.doc(&array.count_doc);
    let unchecked_doc = splices.doc(&format!(
        "{}, without the bounds check.\n\n# Safety\n\n\
         `index` must be less than {} (`{count_name}`).",
        array.subject, array.count
    ));
    let body = if array.construct_is_unsafe {
        let element_safety = splices.safety(&array.safety);
        quote! {
            #element_safety
            unsafe { #construct }
        }
    } else {
        construct
    };
    let checked = splices.safety("the bound was checked just above.");
    let constant = quote! {
        #count_doc
        pub const #count_name: usize = #count;
    };
    let methods = quote! {
        #doc
        #[inline(always)]
        pub const fn #method(self, index: usize) -> ::core::option::Option<#returns> {
            if index < #count {
                #checked
                ::core::option::Option::Some(unsafe { self.#unchecked(index) })
            } else {
                ::core::option::Option::None
            }
        }

        #unchecked_doc
        #[inline(always)]
        pub const unsafe fn #unchecked(self, index: usize) -> #returns {
            #body
        }
    };
    (constant, methods)
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
