//! Which field sets and enums are emitted once and shared, as chiptool's model shares them.
//!
//! Two registers share a field set when a user could not tell their fields apart: same width,
//! and the same fields in the same order with the same names, bits, access, side effects,
//! descriptions and enumerated values (the register names, descriptions and offsets may
//! differ). The first such register in the device (blocks in order, registers in order)
//! defines the field set; each later one re-exports it under its own name. A field value of
//! one is then accepted by the other, which is sound: the bits mean the same thing.
//!
//! Among the field sets that are emitted, a field's `Value` enum is shared the same way when
//! an earlier emitted field of another register has the same width and the same values
//! (names, numbers and descriptions). Two fields of one register never share: each `Value`
//! converts into its own field's bits, an impl per field set that one enum cannot have twice.

use std::collections::HashMap;

use crate::model::{Access, Block, Field, Register, SideEffect};
use crate::names;

/// Where a shared definition was emitted first.
#[derive(Clone, Debug)]
pub(super) struct Origin {
    pub block: String,
    pub register: String,
    /// For an enum: the field, in `register`, whose module holds the `Value` enum.
    pub field: String,
    /// `block::REGISTER` (the Rust path from the crate root), for documentation.
    pub display: String,
}

/// The sharing plan of one device.
#[derive(Debug, Default)]
pub(super) struct Shared {
    /// (block, register) → the field set it re-exports.
    field_sets: HashMap<(String, String), Origin>,
    /// (block, register, field) → the field whose `Value` enum it re-exports.
    enums: HashMap<(String, String, String), Origin>,
}

/// Everything about a field set that the emitted code shows.
#[derive(PartialEq, Eq, Hash)]
struct FieldSetKey<'a> {
    width: u32,
    write_one_mask: bool,
    fields: Vec<FieldKey<'a>>,
}

#[derive(PartialEq, Eq, Hash)]
struct FieldKey<'a> {
    name: &'a str,
    description: &'a str,
    lsb: u32,
    msb: u32,
    msb0: bool,
    access: Access,
    side_effect: Option<SideEffect>,
    values: ValuesKey<'a>,
    write_values: ValuesKey<'a>,
}

/// (width, [(name, value, description)]): everything the `Value` enum shows.
type ValuesKey<'a> = Vec<(&'a str, u64, &'a str)>;

impl Shared {
    /// The plan for the blocks that define a module each (one per block type).
    pub(super) fn new<'d>(blocks: impl Iterator<Item = &'d Block>) -> Shared {
        let mut shared = Shared::default();
        let mut field_sets: HashMap<FieldSetKey<'_>, Origin> = HashMap::new();
        let mut enums: HashMap<(u32, ValuesKey<'_>), Origin> = HashMap::new();
        for block in blocks {
            for register in &block.registers {
                if register.fields.is_empty() {
                    continue;
                }
                let origin = |field: &str| Origin {
                    block: block.name.to_string(),
                    register: register.name.to_string(),
                    field: field.to_string(),
                    display: format!(
                        "{}::{}",
                        names::lower(&block.name),
                        names::upper(&register.name)
                    ),
                };
                let here = (block.name.to_string(), register.name.to_string());
                let key = field_set_key(register);
                if let Some(first) = field_sets.get(&key) {
                    shared.field_sets.insert(here, first.clone());
                    continue;
                }
                field_sets.insert(key, origin(""));
                // Two fields of one register never share an enum: `Value` converts into its
                // own field's bits (`Into<FieldValue<_, Register>>`), and one enum cannot have
                // that impl twice for the same `Register`. The enums this register's fields
                // define or re-export so far:
                let mut used_here: Vec<ValuesKey<'_>> = Vec::new();
                for field in register.fields.iter().filter(|f| !f.values.is_empty()) {
                    let key = (*register.width, values_key(field));
                    if used_here.contains(&key.1) {
                        continue;
                    }
                    used_here.push(key.1.clone());
                    match enums.get(&key) {
                        Some(first) => {
                            shared.enums.insert(
                                (here.0.clone(), here.1.clone(), field.name.to_string()),
                                first.clone(),
                            );
                        }
                        None => {
                            enums.insert(key, origin(&field.name));
                        }
                    }
                }
            }
        }
        shared
    }

    /// The field set `register` (of `block`) re-exports, if it is not emitted itself.
    pub(super) fn field_set(&self, block: &str, register: &Register) -> Option<&Origin> {
        self.field_sets
            .get(&(block.to_string(), register.name.to_string()))
    }

    /// The field whose `Value` enum `field` re-exports, if it does not define its own.
    pub(super) fn value_enum(
        &self,
        block: &str,
        register: &Register,
        field: &Field,
    ) -> Option<&Origin> {
        self.enums.get(&(
            block.to_string(),
            register.name.to_string(),
            field.name.to_string(),
        ))
    }
}

fn field_set_key(register: &Register) -> FieldSetKey<'_> {
    FieldSetKey {
        width: *register.width,
        write_one_mask: register.write_effect_mask() != 0 && *register.access == Access::ReadWrite,
        fields: register
            .fields
            .iter()
            .map(|f| FieldKey {
                name: f.name.as_str(),
                description: f.description.trim(),
                lsb: f.bits.lsb,
                msb: f.bits.msb,
                msb0: f.is_msb0(),
                access: f.effective_access(register),
                side_effect: f.side_effect.map(|s| *s),
                values: values_key(f),
                write_values: f
                    .write_values
                    .iter()
                    .map(|v| (v.name.as_str(), *v.value, v.description.trim()))
                    .collect(),
            })
            .collect(),
    }
}

fn values_key(field: &Field) -> ValuesKey<'_> {
    field
        .values
        .iter()
        .map(|v| (v.name.as_str(), *v.value, v.description.trim()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Shared;

    const SPEC: &str = r#"
device: { name: dev }
blocks:
  - name: a
    offset: 0x0
    size: 0x10
    registers:
      - name: INTE
        offset: 0x0
        width: 32
        access: rw
        fields:
          - { name: DONE, bits: 0, description: Done. }
          - name: MODE
            bits: "2:1"
            values: [{ name: SLOW, value: 0 }, { name: FAST, value: 1 }]
      - name: INTF
        offset: 0x4
        width: 32
        access: rw
        fields:
          - { name: DONE, bits: 0, description: Done. }
          - name: MODE
            bits: "2:1"
            values: [{ name: SLOW, value: 0 }, { name: FAST, value: 1 }]
      - name: INTS
        offset: 0x8
        width: 32
        access: ro
        fields:
          - { name: DONE, bits: 0, description: Done. }
          - name: MODE
            bits: "2:1"
            values: [{ name: SLOW, value: 0 }, { name: FAST, value: 1 }]
  - name: b
    offset: 0x10
    size: 0x10
    registers:
      - name: CTRL
        offset: 0x0
        width: 32
        access: rw
        fields:
          - { name: DONE, bits: 0, description: Done. }
          - name: MODE
            bits: "2:1"
            values: [{ name: SLOW, value: 0 }, { name: FAST, value: 1 }]
      - name: OTHER
        offset: 0x4
        width: 32
        access: rw
        fields:
          - { name: DONE, bits: 0, description: Finished. }
          - name: SPEED
            bits: "5:4"
            values: [{ name: SLOW, value: 0 }, { name: FAST, value: 1 }]
"#;

    #[test]
    fn equal_field_sets_are_emitted_once_across_blocks() {
        let device = crate::parse_str(SPEC).unwrap_or_else(|e| panic!("{e:?}"));
        let shared = Shared::new(device.blocks.iter());
        let register = |block: usize, index: usize| &device.blocks[block].registers[index];
        let origin = |block: usize, index: usize| {
            shared
                .field_set(&device.blocks[block].name, register(block, index))
                .map(|o| o.display.clone())
        };
        assert_eq!(origin(0, 0), None, "the first is emitted");
        assert_eq!(origin(0, 1).as_deref(), Some("a::INTE"));
        assert_eq!(origin(0, 2), None, "read-only: its fields' access differs");
        assert_eq!(origin(1, 0).as_deref(), Some("a::INTE"), "across blocks");
        assert_eq!(origin(1, 1), None, "another description and field name");
    }

    #[test]
    fn equal_enums_of_emitted_field_sets_are_shared() {
        let device = crate::parse_str(SPEC).unwrap_or_else(|e| panic!("{e:?}"));
        let shared = Shared::new(device.blocks.iter());
        let enum_origin = |block: usize, index: usize, field: usize| {
            let register = &device.blocks[block].registers[index];
            shared
                .value_enum(
                    &device.blocks[block].name,
                    register,
                    &register.fields[field],
                )
                .map(|o| format!("{}::{}", o.display, o.field))
        };
        assert_eq!(enum_origin(0, 0, 1), None, "the first is emitted");
        assert_eq!(enum_origin(0, 2, 1).as_deref(), Some("a::INTE::MODE"));
        assert_eq!(
            enum_origin(1, 1, 1).as_deref(),
            Some("a::INTE::MODE"),
            "by a field of another name"
        );
        // A re-exported field set re-exports its enums with it, so none is recorded.
        assert_eq!(enum_origin(0, 1, 1), None);
    }
}
