//! What a firmware author needs beside the registers: the `Interrupt` enum (every device with
//! interrupts), the owned singleton `Peripherals` (a device at a fixed address), and, for a
//! Cortex-M core, behind features: cortex-m's `InterruptNumber` for the enum and its core
//! peripherals re-exported (`cortex-m`), the vector table `__INTERRUPTS`, `device.x` for
//! cortex-m-rt's linker script and the `#[interrupt]` attribute (`rt`), as svd2rust's crates
//! have them. Without those features the crate's dependencies are tock-registers alone.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::super::{GeneratedFile, Place, Provenance};
use super::{Splices, number};
use crate::diagnostic::Diagnostic;
use crate::interrupts::is_cortex_m;
use crate::model::Device;
use crate::names;

/// Block arrays up to this many instances are fields of `Peripherals` as Rust arrays; larger
/// ones are reached through `Peripherals::device`.
const MAX_ARRAY_FIELD: u64 = 64;

/// The variant (and handler symbol) of an interrupt: its name in upper case, as svd2rust
/// and cortex-m-rt's `#[interrupt]` spell it.
fn variant(name: &str) -> proc_macro2::Ident {
    format_ident!("{}", names::upper(name))
}

/// The crate documentation's section on the entry point and interrupts, its paragraphs
/// wrapped to the width of the rest of the docs.
pub(super) fn crate_docs(device: &Device) -> String {
    let text = unwrapped_docs(device);
    let mut out = String::new();
    let mut code = false;
    for line in text.split('\n') {
        code ^= line.starts_with("```");
        if code || line.starts_with("```") || line.len() <= WIDTH {
            out.push_str(line);
        } else {
            let mut width = 0;
            for (i, word) in line.split(' ').enumerate() {
                if i > 0 && width + 1 + word.len() > WIDTH {
                    out.push('\n');
                    width = 0;
                } else if i > 0 {
                    out.push(' ');
                    width += 1;
                }
                out.push_str(word);
                width += word.len();
            }
        }
        out.push('\n');
    }
    out.truncate(out.trim_end_matches('\n').len());
    out
}

/// The width of a line of the crate docs' text (after `//! `).
const WIDTH: usize = 92;

fn unwrapped_docs(device: &Device) -> String {
    let mut docs = String::new();
    if let Some(address) = &device.address {
        docs.push_str(&format!(
            "\n\n# The device at its fixed address\n\n\
             The register window sits at physical address {:#x}, so the crate has an owned \
             entry point: `Peripherals::take` (feature `critical-section`) returns the \
             handles once, [`Peripherals::steal`] whenever its caller vouches for it, and every \
             block handle comes out of it without `unsafe`.\n\n\
             Soundness: every handle reaches the registers by volatile reads and writes through \
             raw pointers, never through a Rust reference. The window is the device's own \
             memory-mapped I/O, outside any allocation of the Rust program (the linker places \
             flash and RAM elsewhere), where volatile accesses are allowed whatever the \
             pointer's provenance and are not data races (`core::ptr::read_volatile`'s \
             documentation): the contract of [`Device::from_ptr`] holds by construction. \
             What `take` adds is ownership: a driver that takes a block's handle by value from \
             `Peripherals` can assume that no other driver was given it. That is a convention \
             the handles cannot enforce (they are `Copy`, as svd2rust's register blocks are \
             shared by `&`), so `steal`, which breaks it, is `unsafe`. `take` runs in a \
             critical section (the `critical-section` crate: the program links one \
             implementation, for instance cortex-m's `critical-section-single-core`), so two \
             callers, even from an interrupt, never both get `Some`.",
            **address
        ));
    }
    if !device.interrupts.is_empty() {
        docs.push_str(
            "\n\n# Interrupts\n\n[`Interrupt`] names the device's interrupt lines by number.",
        );
        if is_cortex_m(device) {
            docs.push_str(
                " With the feature `cortex-m` it implements \
                 `cortex_m::interrupt::InterruptNumber` (for `NVIC::unmask`, `NVIC::pend`, …) \
                 and the core peripherals are cortex-m's, re-exported (`CorePeripherals`, \
                 `NVIC`, `SYST`, …). With the feature `rt` the crate provides cortex-m-rt's \
                 device vector table (`__INTERRUPTS` in `.vector_table.interrupts`) and \
                 `device.x`, which binds every handler to `DefaultHandler` unless the program \
                 defines it with the re-exported `#[interrupt]` attribute:\n\n\
                 ```ignore\n\
                 use pac::interrupt;\n\n\
                 #[interrupt]\n\
                 fn TIMER0() { /* … */ }\n\
                 ```",
            );
        }
    }
    docs
}

/// The items of the crate root: the enum, the Cortex-M support, `Peripherals`.
pub(super) fn root_items(device: &Device, splices: &Splices) -> TokenStream {
    let mut items = TokenStream::new();
    if !device.interrupts.is_empty() || is_cortex_m(device) {
        items.extend(interrupt_enum(device, splices));
    }
    if device.address.is_some() {
        items.extend(peripherals(device, splices));
    }
    items
}

fn interrupt_enum(device: &Device, splices: &Splices) -> TokenStream {
    let variants = device.interrupts.iter().map(|i| {
        let name = variant(&i.name);
        let raiser = match (&i.block, &i.index) {
            (Some(b), Some(index)) => format!(" Raised by block `{}[{}]`.", **b, **index),
            (Some(b), None) => format!(" Raised by block `{}`.", **b),
            _ => String::new(),
        };
        let text = if i.description.is_empty() {
            format!("{}: `{}`.{raiser}", *i.number, *i.name)
        } else {
            let text = i.description.trim_end();
            let stop = if text.ends_with('.') { "" } else { "." };
            format!("{}: {text}{stop}{raiser}", *i.number)
        };
        let doc = splices.doc(&text);
        let value = proc_macro2::Literal::u16_unsuffixed(*i.number as u16);
        quote! { #doc #name = #value, }
    });
    let arms = device.interrupts.iter().map(|i| {
        let name = variant(&i.name);
        let value = proc_macro2::Literal::u16_unsuffixed(*i.number as u16);
        quote! { #value => ::core::option::Option::Some(Interrupt::#name), }
    });
    let all = device.interrupts.iter().map(|i| variant(&i.name));
    let count = proc_macro2::Literal::usize_unsuffixed(device.interrupts.len());
    let enum_items = if device.interrupts.is_empty() {
        // A Cortex-M device with no interrupt described: an empty vector table, and an
        // enum with no variant (no `repr`, which needs one).
        quote! {
            /// The device's interrupt lines: none described.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum Interrupt {}

            impl Interrupt {
                /// Every interrupt, by number.
                pub const ALL: [Interrupt; 0] = [];
                /// The interrupt numbered `number`: none.
                #[inline]
                pub const fn from_number(_number: u16) -> ::core::option::Option<Self> {
                    ::core::option::Option::None
                }
                /// Its number at the interrupt controller.
                #[inline]
                pub const fn number(self) -> u16 {
                    match self {}
                }
            }
        }
    } else {
        quote! {
            /// The device's interrupt lines, each with its number at the interrupt controller.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            #[repr(u16)]
            #[allow(non_camel_case_types)]
            pub enum Interrupt {
                #(#variants)*
            }

            impl Interrupt {
                /// Every interrupt, by number.
                pub const ALL: [Interrupt; #count] = [#(Interrupt::#all),*];

                /// The interrupt numbered `number`, or `None` when no line has it.
                #[inline]
                pub const fn from_number(number: u16) -> ::core::option::Option<Self> {
                    match number {
                        #(#arms)*
                        _ => ::core::option::Option::None,
                    }
                }

                /// Its number at the interrupt controller.
                #[inline]
                pub const fn number(self) -> u16 {
                    self as u16
                }
            }
        }
    };
    if !is_cortex_m(device) {
        return enum_items;
    }
    let prio_bits = device
        .cpu
        .as_ref()
        .and_then(|c| c.nvic_prio_bits.as_ref())
        .map(|bits| {
            let bits = proc_macro2::Literal::u8_unsuffixed(**bits as u8);
            quote! {
                /// Bits of priority the NVIC implements (CMSIS `__NVIC_PRIO_BITS`).
                pub const NVIC_PRIO_BITS: u8 = #bits;
            }
        });
    let number_safety = splices.safety(
        "`number` returns the variant's discriminant, the interrupt's number as the spec and \
         the vector table below give it: a valid NVIC interrupt number of this device \
         (validation keeps it below the core's limit).",
    );
    let table = vector_table(device);
    quote! {
        #enum_items

        #prio_bits

        #[cfg(feature = "cortex-m")]
        #number_safety
        unsafe impl ::cortex_m::interrupt::InterruptNumber for Interrupt {
            #[inline(always)]
            fn number(self) -> u16 {
                Interrupt::number(self)
            }
        }

        /// The Cortex-M core peripherals, cortex-m's (not regenerated).
        #[cfg(feature = "cortex-m")]
        pub use ::cortex_m::peripheral::Peripherals as CorePeripherals;
        #[cfg(feature = "cortex-m")]
        pub use ::cortex_m::peripheral::{CPUID, DCB, DWT, MPU, NVIC, SCB, SYST};

        /// cortex-m-rt's attribute for an interrupt handler (`#[interrupt] fn TIMER0()`),
        /// which names its interrupt through `interrupt::TIMER0` below.
        #[cfg(feature = "rt")]
        pub use ::cortex_m_rt::interrupt;
        #[cfg(feature = "rt")]
        #[doc(hidden)]
        pub use self::Interrupt as interrupt;

        #table
    }
}

/// `__INTERRUPTS`: one entry per number up to the highest, each the handler of that
/// interrupt (a symbol the program defines or `device.x` binds to `DefaultHandler`) or 0.
fn vector_table(device: &Device) -> TokenStream {
    let handlers: Vec<_> = device.interrupts.iter().map(|i| variant(&i.name)).collect();
    let size = device
        .interrupts
        .iter()
        .map(|i| *i.number + 1)
        .max()
        .unwrap_or(0);
    let entries = (0..size).map(
        |n| match device.interrupts.iter().find(|i| *i.number == n) {
            Some(i) => {
                let handler = variant(&i.name);
                quote! { Vector { _handler: #handler }, }
            }
            None => quote! { Vector { _reserved: 0 }, },
        },
    );
    let size = proc_macro2::Literal::u64_unsuffixed(size);
    quote! {
        /// cortex-m-rt's device part of the vector table: behind the feature `rt`.
        #[cfg(feature = "rt")]
        #[doc(hidden)]
        pub mod __vector_table {
            unsafe extern "C" {
                #(fn #handlers();)*
            }

            /// One entry of the table: a handler, or a reserved word.
            #[repr(C)]
            pub union Vector {
                _handler: unsafe extern "C" fn(),
                _reserved: u32,
            }

            /// The interrupts' entries, after the core's exceptions; cortex-m-rt's linker
            /// script places the section.
            #[unsafe(link_section = ".vector_table.interrupts")]
            #[unsafe(no_mangle)]
            pub static __INTERRUPTS: [Vector; #size] = [#(#entries)*];
        }
    }
}

fn peripherals(device: &Device, splices: &Splices) -> TokenStream {
    let Some(address) = &device.address else {
        return TokenStream::new();
    };
    let address = number(**address);
    let mut fields = Vec::new();
    let mut inits = Vec::new();
    for block in &device.blocks {
        let name = format_ident!("{}", names::lower(&block.name));
        // An instance of a block type has its type's module and handle.
        let type_name = crate::block_types::type_name(block);
        let module = format_ident!("{}", names::lower(type_name));
        let ty = format_ident!("{}", names::camel(type_name));
        match &block.array {
            None => {
                let doc = splices.doc(&format!("Block `{}`.", *block.name));
                fields.push(quote! { #doc pub #name: #module::#ty, });
                inits.push(quote! { #name: device.#name(), });
            }
            Some(array) if *array.count <= MAX_ARRAY_FIELD => {
                let doc = splices.doc(&format!(
                    "The {} instances of block `{}`.",
                    *array.count, *block.name
                ));
                let count = proc_macro2::Literal::u64_unsuffixed(*array.count);
                let unchecked = format_ident!("{}_unchecked", names::lower(&block.name));
                let elements = (0..*array.count).map(|i| {
                    let i = proc_macro2::Literal::u64_unsuffixed(i);
                    quote! { device.#unchecked(#i) }
                });
                let safety = splices.safety(&format!(
                    "each index is below the array's {} instances.",
                    *array.count
                ));
                fields.push(quote! { #doc pub #name: [#module::#ty; #count], });
                inits.push(quote! {
                    #name: {
                        #safety
                        unsafe { [#(#elements),*] }
                    },
                });
            }
            // Reached through `device` (`device.name(index)`).
            Some(_) => {}
        }
    }
    let steal_safety = splices.safety(
        "the window sits at `Device::ADDRESS`, the device's memory-mapped I/O at a fixed \
         physical address: valid for volatile reads and writes, outside any Rust allocation, \
         aligned as its registers need, and never referenced (the crate docs), which is the \
         contract of `from_ptr`.",
    );
    let take_safety = splices.safety(
        "`TAKEN` was false and is now true, inside one critical section: this is the one \
         `take` that returns the handles.",
    );
    quote! {
        impl Device {
            /// The physical address of the window's base (offset 0): the device sits at fixed
            /// addresses.
            pub const ADDRESS: usize = #address;
        }

        /// The device's blocks, owned: one value for the whole program
        /// ([`Peripherals::take`]); see the crate documentation for what that promises.
        #[derive(Debug)]
        pub struct Peripherals {
            /// The whole window, for block arrays too large to be fields here.
            pub device: Device,
            #(#fields)*
        }

        /// Whether `take` or `steal` has handed out the peripherals.
        static TAKEN: ::core::sync::atomic::AtomicBool = ::core::sync::atomic::AtomicBool::new(false);

        impl Peripherals {
            /// The peripherals, the first time it is called; `None` after that (or after
            /// [`steal`](Peripherals::steal)).
            #[cfg(feature = "critical-section")]
            #[inline]
            pub fn take() -> ::core::option::Option<Self> {
                ::critical_section::with(|_| {
                    if TAKEN.load(::core::sync::atomic::Ordering::Relaxed) {
                        return ::core::option::Option::None;
                    }
                    #take_safety
                    ::core::option::Option::Some(unsafe { Peripherals::steal() })
                })
            }

            /// The peripherals, whether or not they were taken before.
            ///
            /// # Safety
            ///
            /// Drivers holding a block taken from [`take`](Peripherals::take) assume no other
            /// code has it: the caller makes sure that no two users of a block disagree
            /// about its configuration (the usual reason to call this is a panic or fault
            /// handler, or code that runs before `take`'s other users).
            #[inline]
            pub unsafe fn steal() -> Self {
                TAKEN.store(true, ::core::sync::atomic::Ordering::Relaxed);
                #steal_safety
                let device = unsafe {
                    Device::from_ptr(::core::ptr::with_exposed_provenance_mut(Device::ADDRESS))
                };
                Peripherals {
                    device,
                    #(#inits)*
                }
            }
        }
    }
}

/// `device.x` (a Cortex-M device): every interrupt's handler is `DefaultHandler` unless the
/// program defines it; cortex-m-rt's `link.x` includes the file (its feature `device`).
pub(super) fn device_x(device: &Device, provenance: &Provenance) -> Option<GeneratedFile> {
    if !is_cortex_m(device) {
        return None;
    }
    let mut contents = provenance.preamble("/*").replace('\n', " */\n");
    for i in &device.interrupts {
        contents.push_str(&format!(
            "PROVIDE({} = DefaultHandler);\n",
            names::upper(&i.name)
        ));
    }
    Some(GeneratedFile {
        place: Place::Crate,
        path: "device.x".into(),
        contents,
    })
}

/// `build.rs` (a Cortex-M device): with the feature `rt`, puts `device.x` where the linker
/// finds it, as svd2rust's crates do.
pub(super) fn build_rs(device: &Device, provenance: &Provenance) -> Option<GeneratedFile> {
    if !is_cortex_m(device) {
        return None;
    }
    let contents = format!(
        "{}\n\
         //! With the feature `rt`, puts `device.x` (the interrupt handlers' defaults) where the\n\
         //! linker finds it: cortex-m-rt's `link.x` includes it.\n\
         \n\
         use std::{{env, fs, path::PathBuf}};\n\
         \n\
         fn main() {{\n    \
             if env::var_os(\"CARGO_FEATURE_RT\").is_some() {{\n        \
                 let out = PathBuf::from(env::var_os(\"OUT_DIR\").expect(\"cargo sets OUT_DIR\"));\n        \
                 fs::write(out.join(\"device.x\"), include_bytes!(\"device.x\")).expect(\"OUT_DIR is writable\");\n        \
                 println!(\"cargo:rustc-link-search={{}}\", out.display());\n    \
             }}\n    \
             println!(\"cargo:rerun-if-changed=device.x\");\n    \
             println!(\"cargo:rerun-if-changed=build.rs\");\n\
         }}\n",
        provenance.preamble("//")
    );
    Some(GeneratedFile {
        place: Place::Crate,
        path: "build.rs".into(),
        contents,
    })
}

/// The Rust output's rules for interrupts and the singleton: the enum is `u16` (as
/// cortex-m's `InterruptNumber`), and names the generated root items take are not a
/// block's or a constant's.
pub(crate) fn check(device: &Device, diags: &mut Vec<Diagnostic>) {
    for i in &device.interrupts {
        if *i.number > u64::from(u16::MAX) {
            diags.push(Diagnostic::error(
                format!(
                    "interrupt `{}`: number {} is too large for Rust",
                    *i.name, *i.number
                ),
                i.number.loc,
                "the `Interrupt` enum is `u16`, as cortex-m's `InterruptNumber`",
            ));
        }
    }
    let cortex_m = is_cortex_m(device);
    // Each block's field of `Peripherals`, and each module (a block type's is its type's).
    let named = device.blocks.iter().flat_map(|b| {
        [&b.name]
            .into_iter()
            .chain(b.instance_of.as_ref().map(|t| &t.name))
            .map(move |name| (b, name))
    });
    for (block, name) in named {
        let module = names::lower(name);
        let clash = match module.as_str() {
            "interrupt" if cortex_m => Some("cortex-m-rt's `interrupt` re-export"),
            "device" if device.address.is_some() => Some("`Peripherals::device`"),
            _ => None,
        };
        if let Some(what) = clash {
            diags.push(Diagnostic::error(
                format!(
                    "block `{}` clashes with the generated Rust crate",
                    *block.name
                ),
                block.name.loc,
                format!("its module or field `{module}` would clash with {what}"),
            ));
        }
    }
    for constant in &device.constants {
        let name = names::upper(&constant.name);
        if cortex_m && name == "NVIC_PRIO_BITS" {
            diags.push(Diagnostic::error(
                format!(
                    "constant `{}` clashes with the generated Rust crate",
                    *constant.name
                ),
                constant.name.loc,
                "a Cortex-M crate defines `NVIC_PRIO_BITS` from the `cpu`",
            ));
        }
        if device.address.is_some() && name == "TAKEN" {
            diags.push(Diagnostic::error(
                format!(
                    "constant `{}` clashes with the generated Rust crate",
                    *constant.name
                ),
                constant.name.loc,
                "a crate at a fixed address has a private static `TAKEN`",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::emit::Provenance;

    /// The generated files of `device_keys` (the `device` mapping's extra keys) with
    /// `interrupts`, by path.
    fn files(device_keys: &str, interrupts: &str) -> Vec<(String, String)> {
        let spec = format!(
            "device: {{ name: d{device_keys} }}\nblocks:\n  - {{ name: timer, offset: 0x1000, \
             size: 0x100, count: 2, registers: [{{ name: CTRL, offset: 0, width: 32, access: rw \
             }}] }}\n{interrupts}"
        );
        let device = crate::parse_str(&spec)
            .map_err(|d| format!("{d:?}"))
            .unwrap();
        let provenance = Provenance {
            spec: "d.yaml".into(),
            command: "gba gen".into(),
        };
        let mut files = super::super::files(&device, &provenance).unwrap();
        files.push(super::super::manifest::file(&device, &provenance));
        files.into_iter().map(|f| (f.path, f.contents)).collect()
    }

    fn file<'a>(files: &'a [(String, String)], path: &str) -> &'a str {
        files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, c)| c.as_str())
            .unwrap_or_else(|| panic!("no {path}"))
    }

    #[test]
    fn a_mapped_device_without_interrupts_gets_none_of_it() {
        let files = files("", "");
        let lib = file(&files, "src/lib.rs");
        for absent in ["Interrupt", "Peripherals", "cortex_m", "__INTERRUPTS"] {
            assert!(!lib.contains(absent), "{absent} in a plain device's crate");
        }
        assert!(
            !files
                .iter()
                .any(|(p, _)| p == "device.x" || p == "build.rs")
        );
    }

    #[test]
    fn a_device_that_is_not_cortex_m_gets_the_enum_only() {
        let files = files(
            ", cpu: other",
            "interrupts:\n  - { name: tick, number: 1000, block: timer, index: 1 }\n",
        );
        let lib = file(&files, "src/lib.rs");
        assert!(lib.contains("TICK = 1000,"), "{lib}");
        assert!(lib.contains("Raised by block `timer[1]`."));
        for absent in ["cortex_m", "__INTERRUPTS", "Peripherals"] {
            assert!(!lib.contains(absent), "{absent} in a non-Cortex-M crate");
        }
        assert!(!files.iter().any(|(p, _)| p == "device.x"));
    }

    #[test]
    fn a_cortex_m_device_gets_its_vector_table_with_holes_and_device_x() {
        let files = files(
            ", cpu: CM0, address: 0x0",
            "interrupts:\n  - { name: T0, number: 1, block: timer, index: 0 }\n  \
             - { name: T1, number: 3, block: timer, index: 1 }\n",
        );
        let lib = file(&files, "src/lib.rs");
        // Numbers 0 to 3: 0 and 2 are holes.
        assert!(
            lib.contains(
                "pub static __INTERRUPTS: [Vector; 4] = [\n        Vector { _reserved: 0 },\n        \
                 Vector { _handler: T0 },\n        Vector { _reserved: 0 },\n        \
                 Vector { _handler: T1 },\n    ];"
            ),
            "{lib}"
        );
        assert!(lib.contains("#[unsafe(link_section = \".vector_table.interrupts\")]"));
        assert!(lib.contains("unsafe impl ::cortex_m::interrupt::InterruptNumber for Interrupt"));
        assert!(lib.contains("pub timer: [timer::Timer; 2],"));
        assert!(lib.contains("pub const ADDRESS: usize = 0x0;"));
        let device_x = file(&files, "device.x");
        assert!(
            device_x.ends_with("PROVIDE(T0 = DefaultHandler);\nPROVIDE(T1 = DefaultHandler);\n")
        );
        assert!(file(&files, "Cargo.toml").contains("rt = [\"cortex-m\", \"dep:cortex-m-rt\""));
    }
}
