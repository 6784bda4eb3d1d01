//! A register's field set as a module of tock-registers items, written out rather than
//! expanded from `register_bitfields!`, which gave every field a module, an enum and a
//! `TryFromValue` impl, values or not (type checking those was most of a large crate's build
//! time):
//!
//! - `field_set!` (a macro of `common.rs`): `Register`, the `RegisterLongName` that types the
//!   register's handle and field values, and (crate feature `debug`) `RegisterDebugInfo` for
//!   `debug()`, with `type DebugEnums` listing the fields' enums;
//! - per field, a `Field` constant (`CONTROL::ARM.val(1)`, `read(CONTROL::ARM)`) and, under the
//!   same name in the type namespace, what holds `CONTROL::ARM::SET` and `::CLEAR`: for a field
//!   without enumerated values a type alias of `common::FieldBits`, whose `SET` and `CLEAR`
//!   are defined once for the whole crate; for a field with enumerated values a module with a
//!   constant per value, the `Value` enum and its `TryFromValue` (what `read_as_enum` needs),
//!   and `field_values!` for `SET`, `CLEAR` and `Value: Into<FieldValue>`;
//! - the write-1 mask of a read-write register with write-1 bits.
//!
//! A field set equal to one emitted earlier (see [`super::share`]) is not emitted again: the
//! register's module re-exports the first one. A `Value` enum equal to an earlier one is
//! re-exported the same way by field sets that differ otherwise.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::share::{Origin, Shared};
use super::{Splices, number};
use crate::model::{EnumValue, Field, Register};
use crate::names;

/// The field-set module of `register` (nothing for a register without fields).
pub(super) fn register(
    block: &str,
    register: &Register,
    shared: &Shared,
    splices: &Splices,
) -> TokenStream {
    if register.fields.is_empty() {
        return TokenStream::new();
    }
    let module = format_ident!("{}", names::upper(&register.name));
    if let Some(origin) = shared.field_set(block, register) {
        let path = origin_path(origin);
        let doc = splices.doc(&format!(
            "Fields of register `{}`: the same field set as [`{}`](crate::{1}),\n\
             so their field values are interchangeable.",
            *register.name, origin.display
        ));
        return quote! {
            #doc
            pub use #path as #module;
        };
    }
    let ty = format_ident!("u{}", *register.width);
    let doc = splices.doc(&format!("Fields of register `{}`.", *register.name));
    let fields = register
        .fields
        .iter()
        .map(|f| field(block, f, register, &ty, shared, splices));
    let head = field_set_head(register, &ty);
    // Only read-write registers get the masking `modify` that needs the mask.
    let effects = register.write_effect_mask();
    let write_one =
        (effects != 0 && *register.access == crate::model::Access::ReadWrite).then(|| {
            let mask = number(register.write_one_mask());
            let zero_mask = number(register.write_zero_mask());
            quote! {
                impl crate::common::WriteOneBits<#ty> for Register {
                    const MASK: #ty = #mask;
                    const ZERO_MASK: #ty = #zero_mask;
                }
            }
        });
    quote! {
        #doc
        pub mod #module {
            #head

            #(#fields)*

            #write_one
        }
    }
}

fn field(
    block: &str,
    field: &Field,
    register: &Register,
    ty: &syn::Ident,
    shared: &Shared,
    splices: &Splices,
) -> TokenStream {
    let mut text = format!(
        "Bits `{}`, {}",
        *field.bits,
        field.effective_access(register).keyword()
    );
    if let Some(effect) = field.side_effect {
        let _ = std::fmt::Write::write_fmt(&mut text, format_args!(", {}", effect.keyword()));
    }
    if field.write_once {
        text.push_str(", write-once: the first write of the register after reset latches it");
    }
    if field.is_msb0() {
        text.push_str(&format!(
            ", msb0: bit {} holds the value's most significant bit. Read the value with \
             `{name}::read(register_value)` and write it with `{name}::val(value)`, which \
             reverse the bits; there is no `{name}` field constant, as tock-registers' \
             `read(F)` and `F.val(v)` would give the bits mirrored",
            field.bits.lsb,
            name = names::upper(&field.name),
        ));
    }
    text.push('.');
    if !field.description.trim().is_empty() {
        // One paragraph: the description, then where the field is.
        text = format!("{} {text}", field.description.trim());
    }
    let doc = splices.doc(&text);
    let name = format_ident!("{}", names::upper(&field.name));
    let mask = number(field.bits.value_mask());
    let shift = proc_macro2::Literal::u32_unsuffixed(field.bits.lsb);
    if field.is_msb0() {
        return msb0_field(block, field, register, (&name, ty), doc, (shared, splices));
    }
    let constant = quote! {
        #doc
        pub const #name: Field<#ty, Register> = Field::new(#mask, #shift);
    };
    if field.values.is_empty() && field.write_values.is_empty() {
        let bits_doc = splices.doc(&format!(
            "`{}` as a type: `{}::SET` (every bit of the field 1) and `::CLEAR` (0), to write or \
             compare.",
            *field.name, *field.name
        ));
        return quote! {
            #constant
            #bits_doc
            pub type #name = crate::common::FieldBits<#ty, Register, #mask, #shift>;
        };
    }
    // The constants are what a write takes: the write values where the field has its own,
    // and then the `Value` enum (the read side, for `read_as_enum`) converts into none.
    let field_values = if field.write_values.is_empty() {
        quote! { crate::common::field_values!(#ty, #mask, #shift); }
    } else {
        quote! { crate::common::field_values!(writes, #ty, #mask, #shift); }
    };
    let values = value_constants(field, ty, &format_ident!("value"), splices);
    let enumeration = enumeration(block, register, field, ty, (shared, splices));
    let module_doc = splices.doc(&if field.write_values.is_empty() {
        format!("Values of field `{}`.", *field.name)
    } else {
        format!(
            "Values of field `{}`: the constants for writing, `Value` for reading (they differ).",
            *field.name
        )
    });
    quote! {
        #constant
        #module_doc
        pub mod #name {
            #field_values

            #(#values)*

            #enumeration
        }
    }
}

/// The module of an msb0 field ([`super::msb0`]): its constants write through its `val`.
fn msb0_field(
    block: &str,
    field: &Field,
    register: &Register,
    (name, ty): (&syn::Ident, &syn::Ident),
    doc: TokenStream,
    (shared, splices): (&Shared, &Splices),
) -> TokenStream {
    let values = value_constants(field, ty, &format_ident!("val"), splices);
    let enumeration = enumeration(block, register, field, ty, (shared, splices));
    super::msb0::field(name, field, (ty, *register.width), doc, values, enumeration)
}

/// The constants of the values a write of `field` takes (its write values where it has its
/// own, else its values), each made by `make` of the number: the field module's `value`, or an
/// msb0 field's `val`, which mirrors it.
fn value_constants(
    field: &Field,
    ty: &syn::Ident,
    make: &syn::Ident,
    splices: &Splices,
) -> Vec<TokenStream> {
    let writes = if field.write_values.is_empty() {
        &field.values
    } else {
        &field.write_values
    };
    writes
        .iter()
        .map(|v| {
            let doc = value_doc(field, v, splices);
            let value_name = format_ident!("{}", names::upper(&v.name));
            let value = number(*v.value);
            quote! {
                #doc
                pub const #value_name: FieldValue<#ty, Register> = #make(#value);
            }
        })
        .collect()
}

/// The field module's `Value` enum (the read side): none for a field without values, the
/// enum of the field whose values it shares, or its own.
fn enumeration(
    block: &str,
    register: &Register,
    field: &Field,
    ty: &syn::Ident,
    (shared, splices): (&Shared, &Splices),
) -> TokenStream {
    match shared.value_enum(block, register, field) {
        _ if field.values.is_empty() => TokenStream::new(),
        Some(origin) => {
            let path = origin_path(origin);
            let module = format_ident!("{}", names::upper(&origin.field));
            quote! { pub use #path::#module::Value; }
        }
        None => value_enum(field, ty, splices),
    }
}

/// A value's doc comment: its description, or (a spec may leave it out, as SVDs often do)
/// the number it stands for, so that every public item of the crate is documented.
fn value_doc(field: &Field, value: &EnumValue, splices: &Splices) -> TokenStream {
    if value.description.trim().is_empty() {
        splices.doc(&format!("`{}` holding {:#x}.", *field.name, *value.value))
    } else {
        splices.doc(&value.description)
    }
}

/// The `Value` enum of a field with enumerated values, and its `TryFromValue`.
fn value_enum(field: &Field, ty: &syn::Ident, splices: &Splices) -> TokenStream {
    let variants = field.values.iter().map(|v| {
        let doc = value_doc(field, v, splices);
        let name = format_ident!("{}", names::upper(&v.name));
        let value = number(*v.value);
        quote! { #doc #name = #value, }
    });
    let variant_names: Vec<_> = field
        .values
        .iter()
        .map(|v| format_ident!("{}", names::upper(&v.name)))
        .collect();
    let name_strings = variant_names.iter().map(|v| v.to_string());
    // One line, as a message needs it: the spec's line breaks are layout, not meaning.
    let descriptions = field.values.iter().map(|v| {
        v.description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    });
    let doc = splices.doc(&format!(
        "The named values of field `{}`, for `read_as_enum`.",
        *field.name
    ));
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(#ty)]
        pub enum Value {
            #(#variants)*
        }

        #[cfg(feature = "names")]
        impl Value {
            /// The value's name in the spec.
            pub const fn name(self) -> &'static str {
                match self {
                    #(Self::#variant_names => #name_strings,)*
                }
            }

            /// The value's description in the spec, on one line.
            pub const fn description(self) -> &'static str {
                match self {
                    #(Self::#variant_names => #descriptions,)*
                }
            }
        }

        crate::common::enum_try_from!(#ty, [#(#variant_names),*]);
    }
}

/// `field_set!(u32, NAME, [FIELD, …]);`, which `common.rs` expands into `Register`, its
/// `RegisterLongName` and its `RegisterDebugInfo`, and `type DebugEnums`, the fields' enums
/// for `debug()`: `EnumField` for a field with values, `RawFields<n>` for each run of `n`
/// fields without (so that the list stays short).
fn field_set_head(register: &Register, ty: &syn::Ident) -> TokenStream {
    let name = format_ident!("{}", names::upper(&register.name));
    // An msb0 field has no `Field` constant (`super::msb0`): `debug()` leaves it out.
    let listed = || register.fields.iter().filter(|f| !f.is_msb0());
    let fields = listed().map(|f| format_ident!("{}", names::upper(&f.name)));
    let mut enums: Option<TokenStream> = None;
    let mut run = 0usize;
    let raw = |run: usize, tail: Option<TokenStream>| {
        let run = proc_macro2::Literal::usize_unsuffixed(run);
        match tail {
            None => quote! { RawFields<#run> },
            Some(tail) => quote! { RawFields<#run, #tail> },
        }
    };
    let listed: Vec<&Field> = listed().collect();
    for field in listed.into_iter().rev() {
        if field.values.is_empty() {
            run += 1;
            continue;
        }
        if run > 0 {
            enums = Some(raw(run, enums.take()));
            run = 0;
        }
        let module = format_ident!("{}", names::upper(&field.name));
        enums = Some(match enums.take() {
            None => quote! { EnumField<#ty, #module::Value> },
            Some(tail) => quote! { EnumField<#ty, #module::Value, #tail> },
        });
    }
    if run > 0 {
        enums = Some(raw(run, enums.take()));
    }
    // Only a register whose every field is msb0 lists none.
    let enums = enums.unwrap_or_else(|| quote! { tock_registers::debug::FieldValueEnumNil });
    quote! {
        crate::common::field_set!(#ty, #name, [#(#fields),*]);
        #[cfg(feature = "debug")]
        type DebugEnums = #enums;
    }
}

/// `crate::block::REGISTER`, the module of the field set emitted first.
fn origin_path(origin: &Origin) -> TokenStream {
    let block = format_ident!("{}", names::lower(&origin.block));
    let register = format_ident!("{}", names::upper(&origin.register));
    quote! { crate::#block::#register }
}
