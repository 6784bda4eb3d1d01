//! From the YAML node tree to the [`model`](crate::model), reporting every structural problem
//! (unknown key, wrong type, missing key, malformed bit range) with its location.

use crate::diagnostic::Diagnostic;
use crate::location::{Loc, Located};
use crate::model::{
    Access, Array, BitRange, Block, BlockType, Constant, Cpu, Device, EnumValue, Field, Interrupt,
    Lock, Register, ResetFrom, SideEffect, SplitRead,
};
use crate::yaml::Node;

mod hardware;

/// What the tree holds: the device (when the root is a mapping), with the items that had a
/// problem left out so that the semantic checks can run on the rest.
pub struct ParsedDevice {
    pub device: Device,
    /// Blocks written in the spec, including those left out: "no blocks" is only true when
    /// there were none.
    pub blocks_written: usize,
    /// Where a missing `device` name was expected: the semantic checks must not report the
    /// stand-in name again.
    pub missing_name: Option<Loc>,
    /// Blocks whose own keys had a problem (reported), with stand-ins for what was missing:
    /// only their registers are checked.
    pub partial_blocks: Vec<Block>,
    /// Registers whose own keys had a problem, likewise: only their fields are checked.
    pub partial_registers: Vec<Register>,
}

/// Walks the tree. A problem at one level hides nothing at another: a missing device name
/// still lets every block be checked.
pub fn device(
    root: &Located<Node>,
    src: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<ParsedDevice> {
    let mut map = MapReader::new(root, "the spec", src, diags)?;
    let device_map = map.take("device");
    let constants = map.take("constants");
    let blocks = map.take("blocks");
    let interrupts = map.take("interrupts");
    let root_loc = map.loc;
    map.finish(&["device", "constants", "blocks", "interrupts"], diags);

    let header = match device_map {
        Some(node) => device_header(node, src, diags),
        None => {
            diags.push(Diagnostic::error(
                "the spec has no `device` section",
                root_loc,
                "expected `device:` with at least a `name`",
            ));
            Header::default()
        }
    };
    let Header {
        name,
        description,
        version,
        cpu,
        address,
    } = header;
    let interrupts = list(interrupts, "interrupts", src, diags, interrupt);
    let missing_name = name
        .is_none()
        .then(|| device_map.map_or(root_loc, |n| n.loc));
    let name =
        name.unwrap_or_else(|| Located::new(String::new(), missing_name.unwrap_or(root_loc)));
    let constants = list(constants, "constants", src, diags, constant);
    let blocks_written = match blocks.map(|b| &b.value) {
        Some(Node::Seq(items)) => items.len(),
        _ => 0,
    };
    // A missing or empty `blocks` is reported by validation ("device has no blocks").
    let mut partial_blocks = Vec::new();
    let mut partial_registers = Vec::new();
    let blocks = list(blocks, "blocks", src, diags, block)
        .into_iter()
        .filter_map(|parsed| {
            let (whole, parse) = match parsed {
                Parsed::Whole(parse) => (true, parse),
                Parsed::Partial(parse) => (false, parse),
            };
            partial_registers.extend(parse.partial_registers);
            if whole {
                Some(instances(parse.block, parse.instances))
            } else {
                partial_blocks.push(parse.block);
                None
            }
        })
        .flatten()
        .collect();
    Some(ParsedDevice {
        device: Device {
            name,
            description,
            version,
            constants,
            blocks,
            interrupts,
            cpu,
            address,
        },
        blocks_written,
        missing_name,
        partial_blocks,
        partial_registers,
    })
}

/// The `device` mapping's keys.
#[derive(Default)]
struct Header {
    name: Option<Located<String>>,
    description: String,
    version: String,
    cpu: Option<Cpu>,
    address: Option<Located<u64>>,
}

fn device_header(node: &Located<Node>, src: &str, diags: &mut Vec<Diagnostic>) -> Header {
    let Some(mut map) = MapReader::new(node, "`device`", src, diags) else {
        return Header::default();
    };
    let name = map.required_str("name", diags);
    let description = map.optional_str("description", diags).unwrap_or_default();
    let version = map.optional_str("version", diags).unwrap_or_default();
    let cpu = map.optional_str("cpu", diags);
    let nvic_prio_bits = map.optional_uint("nvic_prio_bits", diags);
    let address = map.optional_uint("address", diags);
    map.finish(
        &[
            "name",
            "description",
            "version",
            "cpu",
            "nvic_prio_bits",
            "address",
        ],
        diags,
    );
    if let (None, Some(bits)) = (&cpu, &nvic_prio_bits) {
        diags.push(Diagnostic::error(
            "`device`: `nvic_prio_bits` without a `cpu`",
            bits.loc,
            "the priority bits belong to a Cortex-M core: add `cpu:` (for example `CM4`)",
        ));
    }
    Header {
        name,
        description: description.value,
        version: version.value,
        cpu: cpu.map(|name| Cpu {
            name,
            nvic_prio_bits,
        }),
        address,
    }
}

fn interrupt(node: &Located<Node>, src: &str, diags: &mut Vec<Diagnostic>) -> Option<Interrupt> {
    let mut map = MapReader::new(node, "an interrupt", src, diags)?;
    let name = map.required_str("name", diags);
    map.describe_as(&name, "interrupt");
    let number = map.required_uint("number", diags);
    let description = map.optional_str("description", diags).unwrap_or_default();
    let block = map.optional_str("block", diags);
    let index = map.optional_uint("index", diags);
    map.finish(&["name", "number", "description", "block", "index"], diags);
    Some(Interrupt {
        name: name?,
        number: number?,
        description: description.value,
        block,
        index,
    })
}

fn constant(node: &Located<Node>, src: &str, diags: &mut Vec<Diagnostic>) -> Option<Constant> {
    let mut map = MapReader::new(node, "a constant", src, diags)?;
    let name = map.required_str("name", diags);
    map.describe_as(&name, "constant");
    let value = map.required_uint("value", diags);
    let description = map.optional_str("description", diags).unwrap_or_default();
    map.finish(&["name", "value", "description"], diags);
    Some(Constant {
        name: name?,
        value: value?,
        description: description.value,
    })
}

fn block(
    node: &Located<Node>,
    src: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Parsed<BlockParse>> {
    let mut map = MapReader::new(node, "a block", src, diags)?;
    let name = map.required_str("name", diags);
    map.describe_as(&name, "block");
    let description = map.optional_str("description", diags).unwrap_or_default();
    let instances_node = map.take("instances");
    // A block type's instances carry the offsets; the type itself is placed only through them.
    let (offset, array, alternate_of, instances) = match instances_node {
        None => (
            map.required_uint("offset", diags),
            None,
            map.optional_str("alternate_of", diags),
            None,
        ),
        Some(node) => {
            let instances = list(Some(node), "instances", src, diags, instance);
            for key in ["offset", "count", "stride", "alternate_of"] {
                map.not_with(key, "instances", diags);
            }
            if instances.is_empty() && matches!(node.value, Node::Seq(_) | Node::Null) {
                diags.push(Diagnostic::error(
                    format!("{} has an empty `instances` list", map.what),
                    node.loc,
                    "list at least one instance (`- { name: …, offset: … }`)",
                ));
            }
            (
                Some(Located::new(0, node.loc)),
                Some(None),
                None,
                Some(instances),
            )
        }
    };
    let size = map.required_uint("size", diags);
    let array = match array {
        Some(none) => Some(none),
        None => map.array(size.as_ref().map(|s| s.value), diags),
    };
    let registers = map.take("registers");
    let loc = map.loc;
    map.finish(
        &[
            "name",
            "description",
            "offset",
            "size",
            "count",
            "stride",
            "registers",
            "alternate_of",
            "instances",
        ],
        diags,
    );
    let mut partial_registers = Vec::new();
    let registers = list(registers, "registers", src, diags, register)
        .into_iter()
        .filter_map(|r| r.whole_or(&mut partial_registers))
        .collect();
    let parsed = |block| BlockParse {
        block,
        partial_registers,
        instances,
    };
    match (name, offset, size, array) {
        (Some(name), Some(offset), Some(size), Some(array)) => Some(Parsed::Whole(parsed(Block {
            name,
            description: description.value,
            offset,
            size,
            array,
            registers,
            alternate_of,
            instance_of: None,
        }))),
        // A problem in the block's own keys hides nothing in its registers: they are still
        // checked among themselves (and against the size, when it was readable).
        (name, _, size, _) => Some(Parsed::Partial(parsed(Block {
            name: name.unwrap_or_else(|| Located::new("?".into(), loc)),
            description: description.value,
            offset: Located::new(0, loc),
            size: size.unwrap_or_else(|| Located::new(u64::MAX, loc)),
            array: None,
            registers,
            alternate_of: None,
            instance_of: None,
        }))),
    }
}

/// An item as read: whole, or with a problem in its own keys (reported), stand-ins for what
/// was missing, and its children still read.
enum Parsed<T> {
    Whole(T),
    Partial(T),
}

impl<T> Parsed<T> {
    /// The whole item; a partial one goes to `partial`.
    fn whole_or(self, partial: &mut Vec<T>) -> Option<T> {
        match self {
            Parsed::Whole(item) => Some(item),
            Parsed::Partial(item) => {
                partial.push(item);
                None
            }
        }
    }
}

/// A block and the registers of it that had a problem in their own keys.
struct BlockParse {
    block: Block,
    partial_registers: Vec<Register>,
    /// `Some`: the block is a type, placed at these instances (`instances`).
    instances: Option<Vec<Instance>>,
}

/// One entry of a block type's `instances`.
struct Instance {
    name: Located<String>,
    offset: Located<u64>,
    description: Option<String>,
}

fn instance(node: &Located<Node>, src: &str, diags: &mut Vec<Diagnostic>) -> Option<Instance> {
    let mut map = MapReader::new(node, "an instance", src, diags)?;
    let name = map.required_str("name", diags);
    map.describe_as(&name, "instance");
    let offset = map.required_uint("offset", diags);
    let description = map.optional_str("description", diags);
    map.finish(&["name", "offset", "description"], diags);
    Some(Instance {
        name: name?,
        offset: offset?,
        description: description.map(|d| d.value),
    })
}

/// A block as the model holds it: itself, or for a type one block per instance, each at its
/// own offset and naming the type (`Block::instance_of`).
fn instances(block: Block, instances: Option<Vec<Instance>>) -> Vec<Block> {
    let Some(instances) = instances else {
        return vec![block];
    };
    let ty = BlockType {
        name: block.name.clone(),
        description: block.description.clone(),
    };
    instances
        .into_iter()
        .map(|i| Block {
            name: i.name,
            description: i.description.unwrap_or_else(|| block.description.clone()),
            offset: i.offset,
            instance_of: Some(ty.clone()),
            ..block.clone()
        })
        .collect()
}

fn register(
    node: &Located<Node>,
    src: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Parsed<Register>> {
    let mut map = MapReader::new(node, "a register", src, diags)?;
    let name = map.required_str("name", diags);
    map.describe_as(&name, "register");
    let description = map.optional_str("description", diags).unwrap_or_default();
    let offset = map.required_uint("offset", diags);
    let width = map.required_uint("width", diags).and_then(|w| {
        if matches!(w.value, 8 | 16 | 32 | 64) {
            Some(Located::new(w.value as u32, w.loc))
        } else {
            diags.push(Diagnostic::error(
                format!("{}: width {} is not a register width", map.what, w.value),
                w.loc,
                "expected 8, 16, 32 or 64 (bits)",
            ));
            None
        }
    });
    let access = map.required_access("access", diags);
    let access_width = map
        .optional_uint("access_width", diags)
        .and_then(|w| access_width(w, width.as_ref(), &map.what, diags));
    let split_read = map.optional_str("split_read", diags).and_then(|keyword| {
        split_read(
            keyword,
            width.as_ref(),
            access_width.as_ref(),
            access.as_ref(),
            &map.what,
            diags,
        )
    });
    let reset = map
        .optional_uint("reset", diags)
        .unwrap_or_else(|| Located::new(0, map.loc));
    let array = map.array(width.as_ref().map(|w| u64::from(w.value / 8)), diags);
    let alternate_of = map.optional_str("alternate_of", diags);
    let locked_by = map.optional_str("locked_by", diags);
    let write_enable = map.optional_str("write_enable", diags);
    let lock = lock(locked_by, write_enable, &map.what, diags);
    let hardware = hardware::register(map.take("hardware"), &map.what, src, diags);
    let fields = map.take("fields");
    let loc = map.loc;
    map.finish(
        &[
            "name",
            "description",
            "offset",
            "width",
            "access",
            "reset",
            "count",
            "stride",
            "fields",
            "alternate_of",
            "locked_by",
            "write_enable",
            "access_width",
            "split_read",
            "hardware",
        ],
        diags,
    );
    let fields = list(fields, "fields", src, diags, field);
    if let Some(access) = &access {
        hardware::check_fields(**access, &fields, diags);
    }
    match (name, offset, width, access, array) {
        (Some(name), Some(offset), Some(width), Some(access), Some(array)) => {
            Some(Parsed::Whole(Register {
                name,
                description: description.value,
                offset,
                width,
                access,
                reset,
                array,
                fields,
                alternate_of,
                lock,
                access_width,
                split_read,
                hardware,
            }))
        }
        // A problem in the register's own keys hides nothing in its fields: they are still
        // checked among themselves (against the width and access, when readable).
        (name, _, width, access, _) => Some(Parsed::Partial(Register {
            name: name.unwrap_or_else(|| Located::new("?".into(), loc)),
            description: description.value,
            offset: Located::new(0, loc),
            width: width.unwrap_or_else(|| Located::new(64, loc)),
            access: access.unwrap_or_else(|| Located::new(Access::ReadWrite, loc)),
            reset: Located::new(0, loc),
            array: None,
            fields,
            alternate_of: None,
            lock: None,
            access_width: None,
            split_read: None,
            hardware,
        })),
    }
}

/// `access_width: N`: a bus access narrower than the register (8, 16 or 32 bits, dividing
/// the register's width), so that software splits each read and write into pieces.
fn access_width(
    w: Located<u64>,
    width: Option<&Located<u32>>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Located<u32>> {
    let width = width?;
    if !matches!(w.value, 8 | 16 | 32 | 64) || w.value > u64::from(width.value) {
        diags.push(
            Diagnostic::error(
                format!(
                    "{what}: access_width {} is not a bus access of a {}-bit register",
                    w.value, width.value
                ),
                w.loc,
                "expected 8, 16, 32 or 64 (bits), at most the register's width",
            )
            .also(width.loc, "the register's width"),
        );
        return None;
    }
    Some(Located::new(w.value as u32, w.loc))
}

/// `split_read: low_first | until_stable`: how software reads a register split into two
/// pieces by `access_width`.
fn split_read(
    keyword: Located<String>,
    width: Option<&Located<u32>>,
    access_width: Option<&Located<u32>>,
    access: Option<&Located<Access>>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Located<SplitRead>> {
    let Some(protocol) = SplitRead::from_keyword(&keyword.value) else {
        diags.push(Diagnostic::error(
            format!(
                "{what}: split_read `{}` is not a read protocol",
                keyword.value
            ),
            keyword.loc,
            "expected low_first (the default: one read of each piece, least significant \
             first) or until_stable (high, low, high again until the two high reads agree)",
        ));
        return None;
    };
    let (width, access) = (width?, access?);
    let pieces = access_width.map_or(1, |w| width.value / w.value.max(1));
    let problem = if pieces == 1 {
        Some("the register is read in one access (no access_width narrower than it)".to_string())
    } else if protocol == SplitRead::UntilStable && pieces != 2 {
        Some(format!(
            "until_stable reads a register in two pieces, and this {}-bit register is read in \
             {pieces}",
            width.value
        ))
    } else if protocol == SplitRead::UntilStable && !access.value.is_readable() {
        Some(format!(
            "the register is {} (never read)",
            access.value.keyword()
        ))
    } else {
        None
    };
    if let Some(problem) = problem {
        diags.push(
            Diagnostic::error(
                format!(
                    "{what}: split_read {} does not apply: {problem}",
                    keyword.value
                ),
                keyword.loc,
                "split_read is for a register wider than its access_width; until_stable needs \
                 a readable one with access_width half its width (a 64-bit counter on a 32-bit \
                 bus): with more pieces the high part would itself be read in pieces and tear",
            )
            .also(width.loc, "the register's width"),
        );
        return None;
    }
    Some(Located::new(protocol, keyword.loc))
}

/// `locked_by: REG.FIELD` (writes ignored while the bit is 1) or `write_enable: REG.FIELD`
/// (ignored while it is 0); whether REG and FIELD exist is validation's part.
fn lock(
    locked_by: Option<Located<String>>,
    write_enable: Option<Located<String>>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Lock> {
    let (text, locked_when) = match (locked_by, write_enable) {
        (None, None) => return None,
        (Some(by), Some(enable)) => {
            diags.push(
                Diagnostic::error(
                    format!("{what}: both `locked_by` and `write_enable`"),
                    enable.loc,
                    "a second lock",
                )
                .also(by.loc, "the first")
                .note(
                    "a register has one lock bit: `locked_by` locks while it is 1, \
                       `write_enable` while it is 0",
                ),
            );
            return None;
        }
        (Some(by), None) => (by, true),
        (None, Some(enable)) => (enable, false),
    };
    let Some((register, field)) = text
        .split_once('.')
        .filter(|(r, f)| !r.is_empty() && !f.is_empty() && !f.contains('.'))
    else {
        diags.push(Diagnostic::error(
            format!("{what}: `{}` is not `REGISTER.FIELD`", text.value),
            text.loc,
            "expected the lock bit as `REGISTER.FIELD`, a register of the same block",
        ));
        return None;
    };
    Some(Lock {
        register: Located::new(register.to_string(), text.loc),
        field: Located::new(field.to_string(), text.loc),
        locked_when,
    })
}

fn field(node: &Located<Node>, src: &str, diags: &mut Vec<Diagnostic>) -> Option<Field> {
    let mut map = MapReader::new(node, "a field", src, diags)?;
    let name = map.required_str("name", diags);
    map.describe_as(&name, "field");
    let description = map.optional_str("description", diags).unwrap_or_default();
    let bits = match map.take("bits") {
        Some(node) => bit_range(node, &map.what, diags),
        None => {
            map.missing("bits", diags);
            None
        }
    };
    // Outer `Option`: was the key given; inner: was it valid (a problem is reported).
    let access = map
        .take("access")
        .map(|node| access(node, &map.what, diags));
    let side_effect = map
        .take("side_effect")
        .map(|node| side_effect(node, &map.what, diags));
    let reset_from = map
        .take("reset")
        .map(|node| reset_from(node, &map.what, diags));
    let write_once = map.optional_bool("write_once", diags);
    let hardware = hardware::field(map.take("hardware"), &map.what, src, diags);
    let msb0 = bit_order(&mut map, diags);
    let values = map.take("values");
    let write_values = map.take("write_values");
    map.finish(
        &[
            "name",
            "description",
            "bits",
            "access",
            "side_effect",
            "reset",
            "write_once",
            "bit_order",
            "values",
            "write_values",
            "hardware",
        ],
        diags,
    );
    let values = list(values, "values", src, diags, enum_value);
    let write_values = list(write_values, "write_values", src, diags, enum_value);
    Some(Field {
        name: name?,
        description: description.value,
        bits: bits?,
        access: access.map_or(Some(None), |a| a.map(Some))?,
        side_effect: side_effect.map_or(Some(None), |s| s.map(Some))?,
        write_once: write_once.is_some_and(|w| *w),
        msb0: msb0?,
        reset_from: reset_from.map_or(Some(None), |r| r.map(Some))?,
        values,
        write_values,
        hardware: hardware?,
    })
}

fn enum_value(node: &Located<Node>, src: &str, diags: &mut Vec<Diagnostic>) -> Option<EnumValue> {
    let mut map = MapReader::new(node, "an enumerated value", src, diags)?;
    let name = map.required_str("name", diags);
    map.describe_as(&name, "enumerated value");
    let value = map.required_uint("value", diags);
    let description = map.optional_str("description", diags).unwrap_or_default();
    map.finish(&["name", "value", "description"], diags);
    Some(EnumValue {
        name: name?,
        value: value?,
        description: description.value,
    })
}

/// A list of items under `key`; an absent key is an empty list. Items that fail are
/// reported and left out, so that the remaining ones are still checked.
fn list<T>(
    node: Option<&Located<Node>>,
    key: &str,
    src: &str,
    diags: &mut Vec<Diagnostic>,
    item: fn(&Located<Node>, &str, &mut Vec<Diagnostic>) -> Option<T>,
) -> Vec<T> {
    let Some(node) = node else {
        return Vec::new();
    };
    match &node.value {
        Node::Seq(items) => items.iter().filter_map(|n| item(n, src, diags)).collect(),
        Node::Null => Vec::new(),
        other => {
            diags.push(Diagnostic::error(
                format!("`{key}` must be a list, found {}", other.kind()),
                node.loc,
                "expected a list (`- name: …` entries)",
            ));
            Vec::new()
        }
    }
}

fn bit_range(
    node: &Located<Node>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Located<BitRange>> {
    let parsed = match &node.value {
        Node::Int(bit) => u32::try_from(*bit)
            .ok()
            .map(|b| BitRange { msb: b, lsb: b }),
        Node::Str(text) => parse_bits(text),
        _ => None,
    };
    match parsed {
        Some(range) if range.msb >= range.lsb => Some(Located::new(range, node.loc)),
        Some(range) => {
            diags.push(Diagnostic::error(
                format!(
                    "{what}: bit range `{}:{}` is reversed",
                    range.msb, range.lsb
                ),
                node.loc,
                format!("write the high bit first: `{}:{}`", range.lsb, range.msb),
            ));
            None
        }
        None => {
            diags.push(Diagnostic::error(
                format!("{what}: `bits` is not a bit range"),
                node.loc,
                "expected `MSB:LSB` (for example `15:8`) or one bit number",
            ));
            None
        }
    }
}

fn parse_bits(text: &str) -> Option<BitRange> {
    let text = text.trim();
    let text = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or(text);
    match text.split_once(':') {
        Some((msb, lsb)) => Some(BitRange {
            msb: msb.trim().parse().ok()?,
            lsb: lsb.trim().parse().ok()?,
        }),
        None => {
            let bit = text.parse().ok()?;
            Some(BitRange { msb: bit, lsb: bit })
        }
    }
}

fn access(
    node: &Located<Node>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Located<Access>> {
    let value = match &node.value {
        Node::Str(s) => match s.as_str() {
            "ro" => Some(Access::ReadOnly),
            "wo" => Some(Access::WriteOnly),
            "rw" => Some(Access::ReadWrite),
            _ => None,
        },
        _ => None,
    };
    if value.is_none() {
        diags.push(Diagnostic::error(
            format!("{what}: `access` is not an access mode"),
            node.loc,
            "expected `ro`, `wo` or `rw`",
        ));
    }
    Some(Located::new(value?, node.loc))
}

fn side_effect(
    node: &Located<Node>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Located<SideEffect>> {
    let value = match &node.value {
        Node::Str(s) => SideEffect::from_keyword(s),
        _ => None,
    };
    if value.is_none() {
        diags.push(Diagnostic::error(
            format!("{what}: `side_effect` is not a side effect"),
            node.loc,
            "expected `woclr` (write 1 to clear), `woset` (write 1 to set or trigger), `wot` \
             (write 1 to toggle), `wzc`, `wzs`, `wzt` (write 0 to clear, set, toggle), \
             `singlepulse` (write 1 for a self-clearing pulse), `rclr` (read to clear), `rset` \
             (read to set), `ruser` (a read changes the field) or `rext` (a read changes the \
             device elsewhere); `w1c`, `w1s` and `rc` are aliases of `woclr`, `woset` and `rclr`",
        ));
    }
    Some(Located::new(value?, node.loc))
}

/// A field's `bit_order`: `lsb0` (the default) or `msb0` (true); `None` after a reported
/// problem.
fn bit_order(map: &mut MapReader<'_>, diags: &mut Vec<Diagnostic>) -> Option<bool> {
    let Some(text) = map.optional_str("bit_order", diags) else {
        return Some(false);
    };
    match text.value.as_str() {
        "lsb0" => Some(false),
        "msb0" => Some(true),
        other => {
            diags.push(Diagnostic::error(
                format!(
                    "{}: `bit_order` is `{other}`, not `lsb0` or `msb0`",
                    map.what
                ),
                text.loc,
                "expected `lsb0` (the default: the field's lowest bit holds the value's least \
                 significant bit) or `msb0` (the field's lowest bit holds the value's most \
                 significant bit, SystemRDL's `FIELD[0:3]`)",
            ));
            None
        }
    }
}

/// A field's `reset`: `index`, `strap` or `none` (a number belongs in the register's
/// `reset`).
fn reset_from(
    node: &Located<Node>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Located<ResetFrom>> {
    let value = match &node.value {
        Node::Str(s) => ResetFrom::from_keyword(s),
        _ => None,
    };
    if value.is_none() {
        let note = if matches!(node.value, Node::Int(_)) {
            "a field's reset value is its part of the register's `reset`; a field's own \
             `reset` is `index` (it reads its array element's index), `strap` (fixed per \
             device instance, known only at run time) or `none` (not reset)"
        } else {
            "expected `index` (the field reads its array element's index), `strap` (fixed \
             per device instance, known only at run time) or `none` (not reset)"
        };
        diags.push(Diagnostic::error(
            format!("{what}: `reset` is not `index`, `strap` or `none`"),
            node.loc,
            note,
        ));
    }
    Some(Located::new(value?, node.loc))
}

/// Reads one mapping, remembering which keys were used so that the rest can be reported.
struct MapReader<'n> {
    entries: &'n [(Located<String>, Located<Node>)],
    /// The spec text, to recover what was written where a string is expected but YAML typed
    /// the scalar otherwise (`name: Y` is a boolean in YAML, `name: 1ST`… a string).
    src: &'n str,
    used: Vec<bool>,
    loc: Loc,
    /// How errors name this mapping: "register `CONTROL`".
    what: String,
}

impl<'n> MapReader<'n> {
    fn new(
        node: &'n Located<Node>,
        what: &str,
        src: &'n str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Self> {
        match &node.value {
            Node::Map(entries) => {
                // A key given twice is reported here, with both places, and its repeats are
                // not reported again as unknown keys (the first one is read).
                let mut used = vec![false; entries.len()];
                let mut first: std::collections::HashMap<&str, Loc> = Default::default();
                for (index, (key, _)) in entries.iter().enumerate() {
                    match first.get(key.value.as_str()) {
                        Some(earlier) => {
                            used[index] = true;
                            diags.push(
                                Diagnostic::error(
                                    format!("duplicate key `{}` in {what}", key.value),
                                    key.loc,
                                    "given again here",
                                )
                                .also(*earlier, "first given here")
                                .note("each key may appear once in a mapping; the first is read"),
                            );
                        }
                        None => {
                            first.insert(&key.value, key.loc);
                        }
                    }
                }
                Some(MapReader {
                    entries,
                    src,
                    used,
                    loc: node.loc,
                    what: what.to_string(),
                })
            }
            other => {
                diags.push(Diagnostic::error(
                    format!("{what} must be a mapping, found {}", other.kind()),
                    node.loc,
                    "expected `key: value` entries",
                ));
                None
            }
        }
    }

    /// Names the mapping after its `name` once that is known, and points at the name.
    fn describe_as(&mut self, name: &Option<Located<String>>, kind: &str) {
        if let Some(name) = name {
            self.what = format!("{kind} `{}`", name.value);
            self.loc = name.loc;
        }
    }

    fn take(&mut self, key: &str) -> Option<&'n Located<Node>> {
        let index = self.entries.iter().position(|(k, _)| k.value == key)?;
        self.used[index] = true;
        Some(&self.entries[index].1)
    }

    fn missing(&self, key: &str, diags: &mut Vec<Diagnostic>) {
        diags.push(Diagnostic::error(
            format!("{} has no `{key}`", self.what),
            self.loc,
            format!("`{key}` is required here"),
        ));
    }

    fn required_str(&mut self, key: &str, diags: &mut Vec<Diagnostic>) -> Option<Located<String>> {
        let value = self.optional_str(key, diags);
        if value.is_none() && !self.entries.iter().any(|(k, _)| k.value == key) {
            self.missing(key, diags);
        }
        value
    }

    /// A key whose value is `true` or `false` (the YAML reader keeps a boolean's text only).
    fn optional_bool(&mut self, key: &str, diags: &mut Vec<Diagnostic>) -> Option<Located<bool>> {
        let text = self.optional_str(key, diags)?;
        match text.value.as_str() {
            "true" => Some(Located::new(true, text.loc)),
            "false" => Some(Located::new(false, text.loc)),
            other => {
                diags.push(Diagnostic::error(
                    format!(
                        "{}: `{key}` must be `true` or `false`, found `{other}`",
                        self.what
                    ),
                    text.loc,
                    "expected `true` or `false`",
                ));
                None
            }
        }
    }

    fn optional_str(&mut self, key: &str, diags: &mut Vec<Diagnostic>) -> Option<Located<String>> {
        let node = self.take(key)?;
        match &node.value {
            Node::Str(s) => Some(Located::new(s.clone(), node.loc)),
            Node::Int(_) | Node::Float | Node::Bool => {
                let raw = self
                    .src
                    .get(node.loc.byte_start..node.loc.byte_start + node.loc.byte_len)
                    .unwrap_or_default();
                Some(Located::new(raw.to_string(), node.loc))
            }
            other => {
                diags.push(Diagnostic::error(
                    format!(
                        "{}: `{key}` must be a string, found {}",
                        self.what,
                        other.kind()
                    ),
                    node.loc,
                    "expected text",
                ));
                None
            }
        }
    }

    fn required_uint(&mut self, key: &str, diags: &mut Vec<Diagnostic>) -> Option<Located<u64>> {
        let present = self.entries.iter().any(|(k, _)| k.value == key);
        let value = self.optional_uint(key, diags);
        if !present {
            self.missing(key, diags);
        }
        value
    }

    fn optional_uint(&mut self, key: &str, diags: &mut Vec<Diagnostic>) -> Option<Located<u64>> {
        let node = self.take(key)?;
        match &node.value {
            Node::Int(v) => match u64::try_from(*v) {
                Ok(v) => Some(Located::new(v, node.loc)),
                Err(_) => {
                    diags.push(Diagnostic::error(
                        format!("{}: `{key}` is out of range", self.what),
                        node.loc,
                        "expected an integer from 0 to 2^64-1",
                    ));
                    None
                }
            },
            Node::Str(_) | Node::Float if self.integer_literal(node) => {
                diags.push(Diagnostic::error(
                    format!("{}: `{key}` is out of range", self.what),
                    node.loc,
                    "expected an integer from 0 to 2^64-1",
                ));
                None
            }
            other => {
                diags.push(Diagnostic::error(
                    format!(
                        "{}: `{key}` must be an integer, found {}",
                        self.what,
                        other.kind()
                    ),
                    node.loc,
                    "expected a number such as `16` or `0x10`",
                ));
                None
            }
        }
    }

    /// True when the node was written as an integer (decimal, `0x`, `0o` or `0b`, with `_`
    /// separators) that YAML could not hold as one, being too large.
    fn integer_literal(&self, node: &Located<Node>) -> bool {
        let raw = self
            .src
            .get(node.loc.byte_start..node.loc.byte_start + node.loc.byte_len)
            .unwrap_or_default()
            .trim();
        let unsigned = raw.strip_prefix(['-', '+']).unwrap_or(raw);
        let (digits, radix) = match unsigned.get(..2) {
            Some("0x" | "0X") => (&unsigned[2..], 16),
            Some("0o" | "0O") => (&unsigned[2..], 8),
            Some("0b" | "0B") => (&unsigned[2..], 2),
            _ => (unsigned, 10),
        };
        !digits.is_empty()
            && digits.chars().any(|c| c.is_digit(radix))
            && digits.chars().all(|c| c.is_digit(radix) || c == '_')
    }

    fn required_access(
        &mut self,
        key: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Located<Access>> {
        match self.take(key) {
            Some(node) => access(node, &self.what, diags),
            None => {
                self.missing(key, diags);
                None
            }
        }
    }

    /// `count` and `stride` (the stride defaults to `natural_stride`). `Some(None)`: not an
    /// array; `None`: a problem was reported.
    fn array(
        &mut self,
        natural_stride: Option<u64>,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Option<Array>> {
        let count = self.optional_uint("count", diags);
        let stride = self.optional_uint("stride", diags);
        match (count, stride) {
            (None, None) => Some(None),
            (Some(count), stride) => {
                let stride = match stride {
                    Some(stride) => stride,
                    None => Located::new(natural_stride?, count.loc),
                };
                Some(Some(Array { count, stride }))
            }
            (None, Some(stride)) => {
                diags.push(Diagnostic::error(
                    format!("{}: `stride` without `count`", self.what),
                    stride.loc,
                    "a stride only means something for an array: add `count`",
                ));
                None
            }
        }
    }

    /// Reports `key`, given beside `with`, which excludes it.
    fn not_with(&mut self, key: &str, with: &str, diags: &mut Vec<Diagnostic>) {
        if let Some(node) = self.take(key) {
            diags.push(Diagnostic::error(
                format!("{}: `{key}` with `{with}`", self.what),
                node.loc,
                format!(
                    "a block with `{with}` is placed by its instances: give each its `offset` there"
                ),
            ));
        }
    }

    /// Reports every key that no one asked for.
    fn finish(self, known: &[&str], diags: &mut Vec<Diagnostic>) {
        for ((key, _), used) in self.entries.iter().zip(&self.used) {
            if *used {
                continue;
            }
            let mut diagnostic = Diagnostic::error(
                format!("unknown key `{}` in {}", key.value, self.what),
                key.loc,
                "not a key of the spec format",
            );
            diagnostic = match closest(&key.value, known) {
                Some(suggestion) => diagnostic.note(format!("did you mean `{suggestion}`?")),
                None => diagnostic.note(format!("expected one of: {}", known.join(", "))),
            };
            diags.push(diagnostic);
        }
    }
}

/// What other register formats (SVD, IP-XACT, SystemRDL, hand-written YAML) call the spec's
/// keys. A word from here is meant, not misspelt: `base` is far in spelling from `offset` and
/// near `name`, so the table is asked before the edit distance.
const SYNONYMS: &[(&str, &str)] = &[
    ("base", "offset"),
    ("address", "offset"),
    ("addr", "offset"),
    ("addressOffset", "offset"),
    ("address_offset", "offset"),
    ("baseAddress", "offset"),
    ("base_address", "offset"),
    ("desc", "description"),
    ("doc", "description"),
    ("bitRange", "bits"),
    ("bit_range", "bits"),
    ("bitOffset", "bits"),
    ("resetValue", "reset"),
    ("reset_value", "reset"),
    ("default", "reset"),
    ("size", "width"),
    ("dim", "count"),
    ("dimIncrement", "stride"),
    ("enumeratedValues", "values"),
    ("enum", "values"),
    ("modifiedWriteValues", "side_effect"),
    ("readAction", "side_effect"),
    ("modifiedWriteValue", "side_effect"),
    ("onwrite", "side_effect"),
    ("onread", "side_effect"),
    ("singlepulse", "side_effect"),
    ("swwel", "locked_by"),
    ("lock", "locked_by"),
    ("swwe", "write_enable"),
    ("regwen", "write_enable"),
    ("sw", "access"),
    ("alias", "alternate_of"),
];

/// The key meant by an unknown one: another format's word for it, or the known key nearest
/// in spelling if it is near enough to be a likely typo.
fn closest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let synonym = SYNONYMS
        .iter()
        .filter(|(word, _)| word.eq_ignore_ascii_case(key))
        .find_map(|(_, meant)| known.iter().find(|k| *k == meant).copied());
    synonym.or_else(|| {
        known
            .iter()
            .map(|k| (edit_distance(key, k), *k))
            .filter(|(d, k)| *d <= 2.max(k.len() / 3))
            .min()
            .map(|(_, k)| k)
    })
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
