//! One block module: the block handle with a typed accessor per register, the offset and
//! reset tables, and the registers' field definitions.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::share::Shared;
use super::{
    ArrayAccessor, SEND_SAFETY, SYNC_SAFETY, Splices, array_accessor, bitfields, element_offset,
    number,
};
use crate::block_types::Kind;
use crate::model::{Access, Block, Register, ResetFrom};
use crate::names;

pub(super) fn module(kind: &Kind<'_>, shared: &Shared, splices: &Splices) -> TokenStream {
    let block = &kind.definition;
    let ty = format_ident!("{}", names::camel(&block.name));
    let placement = match &block.array {
        None if kind.shared => {
            let mut text = format!(
                "A block type of {} instances, {:#x} bytes each, in the device window \
                 (a driver generic over `{ty}` serves every one):\n",
                kind.instances.len(),
                *block.size
            );
            for instance in &kind.instances {
                text.push_str(&format!(
                    "\n- `{}` at {:#x} ([`Device::{}`](crate::Device::{}))",
                    *instance.name,
                    *instance.offset,
                    names::lower(&instance.name),
                    names::lower(&instance.name)
                ));
            }
            text
        }
        None => format!(
            "One instance at {:#x} in the device window, {:#x} bytes.",
            *block.offset, *block.size
        ),
        Some(array) => format!(
            "{} instances, {:#x} bytes each, {:#x} bytes apart from {:#x} in the device window.",
            *array.count, *block.size, *array.stride, *block.offset
        ),
    };
    let module_doc =
        splices.inner_doc(format!("{}\n\n{placement}", block.description.trim()).trim());
    let struct_doc = splices.doc(&format!(
        "Handle on one instance of block `{}`; `_M` as for [`Device`](crate::Device).",
        *block.name
    ));
    let size = number(*block.size);
    let (constants, accessors): (Vec<_>, Vec<_>) = block
        .registers
        .iter()
        .map(|r| accessor(r, block, splices))
        .unzip();
    let offsets = block.registers.iter().map(|r| {
        let name = format_ident!("{}", names::upper(&r.name));
        let value = number(*r.offset);
        let doc = splices.doc(&format!("`{}`: bytes from the block's base.", *r.name));
        quote! { #doc pub const #name: usize = #value; }
    });
    let resets = block.registers.iter().map(|r| {
        let name = format_ident!("{}", names::upper(&r.name));
        let ty = uint(r);
        let value = number(*r.reset);
        let doc = match crate::emit::reset_note(r) {
            None => splices.doc(&format!("`{}` after reset.", *r.name)),
            Some(note) => splices.doc(&format!("`{}` after reset.\n\n{note}", *r.name)),
        };
        quote! { #doc pub const #name: #ty = #value; }
    });
    // The bits whose reset the `reset` constant states, for each register with a field that
    // is not reset (as C's `_RESET_FIXED_MASK`, which also excludes index and strap fields).
    // Blocks without such a register get no module, so that the PAC of a spec without
    // `reset: none` stays as it was.
    let masks: Vec<TokenStream> = block
        .registers
        .iter()
        .filter(|r| {
            r.fields
                .iter()
                .any(|f| f.reset_from.is_some_and(|k| *k == ResetFrom::NotReset))
        })
        .map(|r| {
            let name = format_ident!("{}", names::upper(&r.name));
            let ty = uint(r);
            let value = number(r.fixed_reset_mask());
            let doc = splices.doc(&format!("The bits of `reset::{name}` that reset defines."));
            quote! { #doc pub const #name: #ty = #value; }
        })
        .collect();
    let masks = if masks.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            /// The bits of each `reset` constant that reset defines, for the registers with
            /// fields that are not reset (and hold whatever they powered up with): compare a
            /// value read after reset with `reset` under this mask. Bits of fields that
            /// reset to their element's index or to a strap are out of it too.
            pub mod reset_mask {
                #(#masks)*
            }
        }
    };
    let fields = block
        .registers
        .iter()
        .map(|r| bitfields::register(&block.name, r, shared, splices));
    let send_safety = splices.safety(SEND_SAFETY);
    let sync_safety = splices.safety(SYNC_SAFETY);
    let volatile = quote! { crate::common::Volatile };
    // A block without registers builds no handle, so nothing reads its mechanism.
    let io_unread = if block.registers.is_empty() {
        quote! { #[allow(dead_code)] }
    } else {
        TokenStream::new()
    };
    quote! {
        #module_doc

        #![allow(non_snake_case, non_camel_case_types, clippy::module_inception)]

        #struct_doc
        #[derive(Clone, Copy, Debug)]
        pub struct #ty<_M = #volatile> {
            pub(crate) ptr: *mut u8,
            #io_unread
            pub(crate) io: _M,
        }

        #send_safety
        unsafe impl<_M: ::core::marker::Send> ::core::marker::Send for #ty<_M> {}
        #sync_safety
        unsafe impl<_M: ::core::marker::Sync> ::core::marker::Sync for #ty<_M> {}

        impl #ty {
            /// Bytes of the window that one instance owns.
            pub const SIZE: usize = #size;

            #(#constants)*

            /// The instance at `ptr`, in device memory.
            ///
            /// # Safety
            ///
            /// As for [`Device::from_ptr`](crate::Device::from_ptr), for a mapping of
            /// [`Self::SIZE`] bytes starting at `ptr` instead of the whole window.
            #[inline(always)]
            pub const unsafe fn from_ptr(ptr: *mut u8) -> Self {
                #ty { ptr, io: #volatile }
            }
        }

        impl<'b, _B: crate::common::Bus + ?Sized> #ty<crate::common::OnBus<'b, _B>> {
            /// The instance at address `base` of `bus`: every access is one transaction of
            /// `bus`, which may fail (the handles' `try_` methods return its error).
            #[inline(always)]
            pub const fn on_bus(bus: &'b _B, base: u64) -> Self {
                #ty { ptr: ::core::ptr::null_mut(), io: crate::common::OnBus::new(bus, base) }
            }
        }

        impl<_M: crate::common::InMemory> #ty<_M> {
            /// The address of the instance's first byte in memory (a handle on a bus has
            /// none; its registers have `bus_address`).
            #[inline(always)]
            pub const fn as_ptr(self) -> *mut u8 {
                self.ptr
            }
        }

        impl<_M: ::core::marker::Copy> #ty<_M> {
            #(#accessors)*
        }

        /// Byte offset of each register within the block (of element 0 for arrays).
        pub mod offset {
            #(#offsets)*
        }

        /// Reset value of each register.
        pub mod reset {
            #(#resets)*
        }

        #masks

        #(#fields)*
    }
}

/// The register's constants (for the impl on the default mechanism) and accessor methods
/// (for the impl over every mechanism).
fn accessor(register: &Register, block: &Block, splices: &Splices) -> (TokenStream, TokenStream) {
    let method = format_ident!("{}", names::lower(&register.name));
    let handle = handle_type(register, block);
    let offset = number(*register.offset);
    let bytes = register.bytes();
    let summary = format!(
        "{}, {} bits, {}, reset `{:#x}`.",
        match &register.array {
            None => format!("Offset `{:#x}`", *register.offset),
            Some(a) => format!(
                "Offset `{:#x} + index * {:#x}`, {} elements",
                *register.offset, *a.stride, *a.count
            ),
        },
        *register.width,
        match *register.access {
            Access::ReadOnly => "read-only",
            Access::WriteOnly => "write-only",
            Access::ReadWrite if register.write_one_mask() != 0 => "read-write with write-1 bits",
            Access::ReadWrite if register.write_zero_mask() != 0 => "read-write with write-0 bits",
            Access::ReadWrite => "read-write",
        },
        *register.reset
    );
    let summary = match crate::emit::reset_note(register) {
        Some(note) => format!("{summary}\n\n{note}"),
        None => summary,
    };
    let cleared_by_reading: Vec<&str> = register
        .fields
        .iter()
        .filter(|f| f.side_effect.is_some_and(|s| s.on_read()))
        .map(|f| f.name.as_str())
        .collect();
    let summary = if cleared_by_reading.is_empty() {
        summary
    } else {
        format!(
            "{summary}\n\nReading {} {}: every read has a side effect, so the only read is \
             `read_and_clear`.",
            if register.fields.iter().any(|f| {
                f.side_effect
                    .is_some_and(|s| s.on_read() && *s != crate::model::SideEffect::ReadToClear)
            }) {
                "changes"
            } else {
                "clears"
            },
            cleared_by_reading.join(", ")
        )
    };
    let summary = match split_note(register) {
        Some(note) => format!("{summary}\n\n{note}"),
        None => summary,
    };
    let summary = match &register.lock {
        Some(lock) => format!(
            "{summary}\n\nWrites are ignored while `{}.{}` is {}: write through \
             `unlocked(lock)`, which reads it first.",
            *lock.register,
            *lock.field,
            u8::from(lock.locked_when)
        ),
        None => summary,
    };
    let summary = match &register.alternate_of {
        Some(of) => format!(
            "{summary}\n\nAn alternate view of the bytes of `{}`: the two overlap.",
            of.value
        ),
        None => summary,
    };
    let text = if register.description.trim().is_empty() {
        summary
    } else {
        format!("{}\n\n{summary}", register.description.trim())
    };
    let io = handle_io(register);
    match &register.array {
        None => {
            let doc = splices.doc(&text);
            let element_safety = splices.safety(&format!(
                "bytes {:#x}..{:#x} lie inside the {:#x}-byte block that the contract of \
                 `from_ptr` makes valid, and the offset is a multiple of {bytes}, so the \
                 pointer is aligned (on a bus, `from_parts` requires nothing).",
                *register.offset,
                register.offset.saturating_add(bytes),
                *block.size
            ));
            let method = quote! {
                #doc
                #[inline(always)]
                pub const fn #method(self) -> #handle {
                    #element_safety
                    unsafe { crate::common::Reg::from_parts(self.ptr.wrapping_add(#offset).cast(), #io) }
                }
            };
            (TokenStream::new(), method)
        }
        Some(array) => {
            let element_offset = element_offset(*register.offset, *array.stride);
            let last_end = register
                .offset
                .saturating_add(array.count.saturating_sub(1).saturating_mul(*array.stride))
                .saturating_add(bytes);
            array_accessor(
                ArrayAccessor {
                    name: &register.name,
                    count: *array.count,
                    returns: handle,
                    doc: format!(
                        "{text}\n\nElement `index`, or `None` when `index >= {}`.",
                        *array.count
                    ),
                    count_doc: format!("Elements of register array `{}`.", *register.name),
                    subject: format!("Element `index` of `{}`", *register.name),
                    safety: format!(
                        "`index < {}` (the promise of the caller), so the element lies within \
                         {:#x}..{:#x}, inside the {:#x}-byte block that the contract of \
                         `from_ptr` makes valid; offset and stride are multiples of {bytes}, \
                         so the pointer is aligned (on a bus, `from_parts` requires nothing).",
                        *array.count, *register.offset, last_end, *block.size
                    ),
                    construct: quote! {
                        crate::common::Reg::from_parts(self.ptr.wrapping_add(#element_offset).cast(), #io)
                    },
                    construct_is_unsafe: true,
                },
                splices,
            )
        }
    }
}

/// `crate::common::Reg<u32, NAME::Register, crate::common::Rw, _M>`: the value type, the
/// field set, the access mode and the block's mechanism, each by a path that no name of the
/// spec can shadow (`_M` starts with an underscore, which no spec name does).
fn handle_type(register: &Register, block: &Block) -> TokenStream {
    let value = uint(register);
    let fields = if register.fields.is_empty() {
        quote! { () }
    } else {
        let module = format_ident!("{}", names::upper(&register.name));
        quote! { #module::Register }
    };
    let access = format_ident!("{}", access_mode(register));
    let mut access = quote! { crate::common::#access };
    // Validation made the lock a one-bit field of another plain register of this block.
    if let Some(lock) = &register.lock {
        let bit = block
            .registers
            .iter()
            .find(|r| *r.name == *lock.register)
            .and_then(|r| r.fields.iter().find(|f| *f.name == *lock.field));
        if let Some(bit) = bit {
            let module = format_ident!("{}", names::upper(&lock.register));
            let mask = number(bit.bits.mask());
            let locked = number(if lock.locked_when { bit.bits.mask() } else { 0 });
            access = quote! { crate::common::Locked<#access, #module::Register, #mask, #locked> };
        }
    }
    let mechanism = match piece_type(register) {
        Some(piece) if register.reads_until_stable() => {
            quote! { crate::common::Split<_M, #piece, crate::common::UntilStable> }
        }
        Some(piece) => quote! { crate::common::Split<_M, #piece> },
        None => quote! { _M },
    };
    quote! { crate::common::Reg<#value, #fields, #access, #mechanism> }
}

/// The type of one access of a register wider than its bus access (`u32` for a 64-bit
/// register with `access_width: 32`); `None` for a register accessed whole.
fn piece_type(register: &Register) -> Option<TokenStream> {
    (register.access_pieces() > 1).then(|| {
        let ty = format_ident!("u{}", register.access_bits());
        quote! { #ty }
    })
}

/// The handle's mechanism, built from the block's (`self.io`).
fn handle_io(register: &Register) -> TokenStream {
    match piece_type(register) {
        Some(_) => quote! { crate::common::Split::new(self.io) },
        None => quote! { self.io },
    }
}

/// What the docs say of a register wider than its bus access: the pieces and their order.
pub(crate) fn split_note(register: &Register) -> Option<String> {
    let pieces = register.access_pieces();
    (pieces > 1).then(|| {
        let bits = register.access_bits();
        if register.reads_until_stable() {
            return format!(
                "Accessed as {pieces} {bits}-bit pieces (`access_width: {bits}`, \
                 `split_read: until_stable`), bits `[{}:0]` at the register's offset: a read \
                 is the high piece, the low piece and the high piece again, the last two \
                 repeated until two high reads agree (a free-running counter; see \
                 `common::UntilStable`){}.",
                bits - 1,
                if register.access.is_writable() {
                    format!("; a write is {pieces} accesses, least significant piece first")
                } else {
                    String::new()
                }
            );
        }
        format!(
            "Accessed as {pieces} {bits}-bit pieces (`access_width: {bits}`): every read and \
             every write is {pieces} accesses, least significant piece first, at increasing \
             addresses (bits `[{}:0]` at the register's offset). Another agent may change \
             the register between the pieces unless the hardware buffers them (see \
             `common::Split`).",
            bits - 1
        )
    })
}

/// The access-mode type of `common.rs` that the register's handle carries.
fn access_mode(register: &Register) -> &'static str {
    let read_clears = register.read_has_effect();
    match *register.access {
        Access::ReadOnly if read_clears => "RoRc",
        Access::ReadWrite if read_clears => "RwRc",
        Access::ReadOnly => "Ro",
        Access::WriteOnly => "Wo",
        Access::ReadWrite if register.has_write_once() => "RwOnce",
        Access::ReadWrite if register.write_effect_mask() != 0 => "RwW1",
        Access::ReadWrite => "Rw",
    }
}

pub(super) fn uint(register: &Register) -> TokenStream {
    let ty = format_ident!("u{}", *register.width);
    quote! { #ty }
}
