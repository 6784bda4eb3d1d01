//! The field module of an msb0 field (`bit_order: msb0`, `crate::bit_order`): its value is
//! its bits reversed, which tock-registers' `Field` cannot say (`read(F)` and `F.val(v)`
//! shift and mask only). So an msb0 field has no `Field` constant of its name, whose reads
//! and writes would be silently mirrored; its module has what does reverse:
//!
//! - `TOP::read(register_value)`, the value (`TOP::read(reg.get())`);
//! - `TOP::val(value)`, the `FieldValue` that writes it (`reg.modify(TOP::val(5))`);
//! - `SET`, `CLEAR`, a constant per (write) value, and with values `Value`,
//!   `TOP::read_as_enum(register_value)` and `Value: Into<FieldValue>`;
//! - `TOP::BITS`, the field's bits where they lie, for masks and `is_set`, not for values.
//!
//! The field is left out of the register's `debug()` list (which reads through `Field`).

use proc_macro2::TokenStream;
use quote::quote;

use super::number;
use crate::model::Field;

/// The module `pub mod NAME { … }` of an msb0 field. `doc` is the field's doc comment,
/// `values` the constants of its (write) values, `enumeration` its `Value` enum (or its
/// re-export) when it has read values.
pub(super) fn field(
    name: &syn::Ident,
    field: &Field,
    (ty, register_width): (&syn::Ident, u32),
    doc: TokenStream,
    values: Vec<TokenStream>,
    enumeration: TokenStream,
) -> TokenStream {
    let mask = number(field.bits.value_mask());
    let shift = proc_macro2::Literal::u32_unsuffixed(field.bits.lsb);
    let drop = proc_macro2::Literal::u32_unsuffixed(register_width - field.bits.width());
    let extract = if field.bits.lsb == 0 {
        quote! { register & #mask }
    } else {
        quote! { (register >> #shift) & #mask }
    };
    let reverse_body = if register_width == field.bits.width() {
        quote! { bits.reverse_bits() }
    } else {
        quote! { bits.reverse_bits() >> #drop }
    };
    let with_values = !field.values.is_empty();
    let into = (with_values && field.write_values.is_empty()).then(|| {
        quote! {
            // `Into`, not `From`, as `common::field_values!` says.
            #[allow(clippy::from_over_into)]
            impl Into<FieldValue<#ty, Register>> for Value {
                #[inline]
                fn into(self) -> FieldValue<#ty, Register> {
                    val(self as #ty)
                }
            }
        }
    });
    let read_as_enum = with_values.then(|| {
        quote! {
            /// The field's value in `register` (a value of its register) as its enumeration,
            /// `None` for a value the enumeration lacks.
            #[inline]
            pub fn read_as_enum(register: #ty) -> Option<Value> {
                <Value as tock_registers::fields::TryFromValue<#ty>>::try_from_value(read(register))
            }
        }
    });
    quote! {
        #doc
        pub mod #name {
            use tock_registers::fields::FieldValue;

            // The field set's own `Field` import (`common::field_set!`), used here when
            // every field of the register is msb0.
            use super::{Field, Register};

            /// The field's bits where they lie in the register, mirrored against its value
            /// (the lowest holds the value's most significant bit): for masks and
            /// `is_set`; `read` and `val` give and take values.
            pub const BITS: Field<#ty, Register> = Field::new(#mask, #shift);

            /// All ones.
            pub const SET: FieldValue<#ty, Register> = val(#mask);

            /// Zero.
            pub const CLEAR: FieldValue<#ty, Register> = val(0);

            /// The field's value in `register`, a value of its register (`get()`, or a
            /// `LocalRegisterCopy`'s `get()`): its bits, reversed.
            #[inline]
            pub const fn read(register: #ty) -> #ty {
                reverse(#extract)
            }

            /// The field value that writes `value` (for `write` and `modify`): its bits,
            /// reversed into the field. Bits above the field's width are dropped.
            #[inline]
            pub const fn val(value: #ty) -> FieldValue<#ty, Register> {
                FieldValue::<#ty, Register>::new(#mask, #shift, reverse(value & #mask))
            }

            /// `bits` (the field's width of them) in reverse order.
            #[inline]
            const fn reverse(bits: #ty) -> #ty {
                #reverse_body
            }

            #(#values)*

            #enumeration

            #into

            #read_as_enum
        }
    }
}
