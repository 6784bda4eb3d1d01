//! Block types: blocks that are instances of one type (the spec's `instances`, CMSIS-SVD's
//! `derivedFrom` peripherals) share one definition of their registers in every output, so
//! that a driver can take the type for any instance.
//!
//! The model keeps one [`Block`] per instance (each at its own offset, every rule about
//! placement and overlaps applies as to any block) and marks it with
//! [`Block::instance_of`]; this module groups them back into types for the emitters, and
//! holds the rules the instances of one type obey.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::model::{Block, Device};
use crate::names;

/// One type of block as the outputs define it: a block that is a type of its own, or a
/// named type with its instances.
#[derive(Debug)]
pub struct Kind<'a> {
    /// The block the type's registers come from (the first instance), renamed to the
    /// type's name and described as the type is, so that an emitter can define the type
    /// as it would define a block.
    pub definition: Block,
    /// The blocks that are instances of the type, in device order (the block itself for a
    /// type of its own).
    pub instances: Vec<&'a Block>,
    /// Whether the type is named by `instances` (else it is a block of its own).
    pub shared: bool,
}

/// The device's block types, in the order of their first instance.
pub fn kinds(device: &Device) -> Vec<Kind<'_>> {
    let mut kinds: Vec<Kind<'_>> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for block in &device.blocks {
        let Some(ty) = &block.instance_of else {
            kinds.push(Kind {
                definition: block.clone(),
                instances: vec![block],
                shared: false,
            });
            continue;
        };
        match by_name.get(&names::clash_key(&ty.name)) {
            Some(&index) => kinds[index].instances.push(block),
            None => {
                by_name.insert(names::clash_key(&ty.name), kinds.len());
                kinds.push(Kind {
                    definition: Block {
                        name: ty.name.clone(),
                        description: ty.description.clone(),
                        instance_of: None,
                        alternate_of: None,
                        ..block.clone()
                    },
                    instances: vec![block],
                    shared: true,
                });
            }
        }
    }
    kinds
}

/// The name of the type `block` is an instance of: its type's, else its own.
pub(crate) fn type_name(block: &Block) -> &str {
    block
        .instance_of
        .as_ref()
        .map_or(block.name.as_str(), |t| t.name.as_str())
}

/// Whether `block` is an instance of a type other than its type's first instance (whose
/// registers the common checks then need not check again: they are the first's).
pub(crate) fn is_repeat(device: &Device, index: usize) -> bool {
    let Some(ty) = &device.blocks[index].instance_of else {
        return false;
    };
    let key = names::clash_key(&ty.name);
    device.blocks[..index].iter().any(|b| {
        b.instance_of
            .as_ref()
            .is_some_and(|t| names::clash_key(&t.name) == key)
    })
}

/// The rules of block types: a type's name is an identifier that no block has, and its
/// instances agree on everything the type defines (size, registers, the type's description)
/// and are plain blocks (no array, no alternate: an instance is placed by its own offset).
pub(crate) fn check(device: &Device) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let blocks: HashMap<String, &Block> = device
        .blocks
        .iter()
        .map(|b| (names::clash_key(&b.name), b))
        .collect();
    for kind in kinds(device).iter().filter(|k| k.shared) {
        let ty = &kind.definition;
        if let Some(problem) = names::problem(&ty.name) {
            diags.push(Diagnostic::error(
                "invalid block type name",
                ty.name.loc,
                problem,
            ));
        }
        if let Some(block) = blocks.get(&names::clash_key(&ty.name)) {
            diags.push(
                Diagnostic::error(
                    format!(
                        "block type `{}` has the name of block `{}`",
                        *ty.name, *block.name
                    ),
                    ty.name.loc,
                    "a type and a block share the Rust modules and the C prefixes: name them apart",
                )
                .also(block.name.loc, "the block")
                .note(
                    "names are compared ignoring case, because generated code changes their case",
                ),
            );
        }
        let first = kind.instances[0];
        for instance in &kind.instances {
            let what = format!("instance `{}` of block type `{}`", *instance.name, *ty.name);
            if instance.array.is_some() {
                diags.push(Diagnostic::error(
                    format!("{what} is an array"),
                    instance.name.loc,
                    "an instance is one block at its own offset: list each element as an instance",
                ));
            }
            if let Some(of) = &instance.alternate_of {
                diags.push(Diagnostic::error(
                    format!("{what} is an alternate view"),
                    of.loc,
                    "an instance of a block type cannot declare `alternate_of`",
                ));
            }
            if std::ptr::eq(*instance, first) {
                continue;
            }
            let differs = if *instance.size != *first.size {
                Some("its size")
            } else if instance.registers != first.registers {
                Some("its registers")
            } else if instance.instance_of.as_ref().map(|t| &t.description)
                != first.instance_of.as_ref().map(|t| &t.description)
            {
                Some("the type's description")
            } else {
                None
            };
            if let Some(differs) = differs {
                diags.push(
                    Diagnostic::error(
                        format!("{what} differs from the type's first instance"),
                        instance.name.loc,
                        format!("{differs} differ from those of `{}`", *first.name),
                    )
                    .also(first.name.loc, "the first instance")
                    .note("the instances of one type share one definition of their registers"),
                );
            }
        }
    }
    diags
}

#[cfg(test)]
mod tests {
    const SPEC: &str = "device: { name: d }
blocks:
  - name: port
    description: A GPIO port.
    size: 0x10
    instances:
      - { name: PORTA, offset: 0x0 }
      - { name: PORTB, offset: 0x100, description: The second port. }
      - { name: PORTC, offset: 0x40 }
    registers:
      - { name: OUT, offset: 0, width: 32, access: rw }
  - name: timer
    offset: 0x200
    size: 0x10
    registers:
      - { name: COUNT, offset: 0, width: 32, access: ro }
";

    #[test]
    fn instances_at_listed_offsets_are_blocks_of_one_type() {
        let device = crate::parse_str(SPEC).expect("valid");
        let names: Vec<_> = device.blocks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["PORTA", "PORTB", "PORTC", "timer"]);
        let offsets: Vec<_> = device.blocks.iter().map(|b| *b.offset).collect();
        assert_eq!(offsets, [0, 0x100, 0x40, 0x200]);
        assert_eq!(device.blocks[1].description, "The second port.");
        assert_eq!(device.blocks[2].description, "A GPIO port.");
        let kinds = super::kinds(&device);
        assert_eq!(kinds.len(), 2);
        assert_eq!(*kinds[0].definition.name, "port");
        assert_eq!(kinds[0].instances.len(), 3);
        assert!(kinds[0].shared && !kinds[1].shared);
    }

    #[test]
    fn instances_that_overlap_are_refused() {
        let spec = SPEC.replace("offset: 0x40", "offset: 0x8");
        let problems = crate::parse_str(&spec).expect_err("overlap");
        assert!(
            problems.iter().any(|d| d.message.contains("overlap")),
            "{problems:?}"
        );
    }

    #[test]
    fn a_type_named_as_a_block_is_refused() {
        let spec = SPEC
            .replace("name: port", "name: timer2")
            .replace("name: timer\n", "name: TIMER2\n");
        let problems = crate::parse_str(&spec).expect_err("clash");
        assert!(
            problems
                .iter()
                .any(|d| d.message.contains("has the name of block")),
            "{problems:?}"
        );
    }

    #[test]
    fn instances_exclude_offset_and_count() {
        let spec = SPEC.replace(
            "    size: 0x10\n    instances",
            "    offset: 0\n    count: 2\n    size: 0x10\n    instances",
        );
        let problems = crate::parse_str(&spec).expect_err("refused");
        let messages: Vec<_> = problems.iter().map(|d| d.message.as_str()).collect();
        assert!(
            messages.contains(&"block `port`: `offset` with `instances`"),
            "{messages:?}"
        );
        assert!(
            messages.contains(&"block `port`: `count` with `instances`"),
            "{messages:?}"
        );
    }

    #[test]
    fn instances_whose_registers_differ_are_refused() {
        let mut device = crate::parse_str(SPEC).expect("valid").into_device();
        device.blocks[1].registers[0].width.value = 16;
        let problems = crate::validate(device, &crate::Output::ALL).expect_err("differs");
        assert!(
            problems.iter().any(|d| d.message
                == "instance `PORTB` of block type `port` differs from the type's first instance"),
            "{problems:?}"
        );
    }
}
