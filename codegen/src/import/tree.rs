//! The register map as SystemRDL and IP-XACT both describe it, elaborated: address maps,
//! register files and registers, nested and arrayed, with fields. `import::rdl` gets it from
//! systemrdl-compiler (`codegen/rdl/elaborate.py` prints it as JSON), `import::ipxact` builds
//! it from the XML; [`convert`] turns it into a [`Device`] for both, through the one mapping
//! table (`crate::interchange`), reporting what the spec cannot carry.

use std::collections::HashMap;

use serde::Deserialize;

use super::svd::legalise::legalise;
use super::svd::warnings::Warnings;
use super::{Imported, Treatment, Warning};
use crate::interchange;
use crate::location::Located;
use crate::model::{
    Access, Array, BitRange, Block, Constant, Device, EnumValue, Field, Lock, Register, ResetFrom,
    SideEffect, SplitRead,
};

/// Register elements one import may unroll (arrays of register files), so that a hostile
/// array size cannot make the import run for minutes.
const MAX_UNROLLED: u64 = 1 << 16;

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    Map,
    Regfile,
    Reg,
    Mem,
}

/// What our own emitters carry beyond the format (`interchange::udp`, `interchange::ext`).
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct Gba {
    pub gba_version: Option<String>,
    pub gba_constants: Option<Vec<ConstantNode>>,
    /// addrmap (the device): interrupts, core, fixed address.
    #[serde(flatten)]
    pub device: super::tree_interrupts::DeviceExtras,
    pub gba_size: Option<u64>,
    pub gba_alternate_of: Option<String>,
    pub gba_view_of: Option<String>,
    pub gba_position: Option<u64>,
    pub gba_access: Option<String>,
    pub gba_reset: Option<u64>,
    pub gba_element: Option<ElementNode>,
    /// reg: the stand-in of a block without registers (SystemRDL needs one).
    pub gba_implicit: Option<bool>,
    /// reg: how software reads a register wider than its bus access (`split_read`).
    pub gba_split_read: Option<String>,
}

/// One element of an interleaved register array, written alone (`interchange::udp::ELEMENT`).
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct ElementNode {
    pub array: String,
    pub index: u64,
    pub count: u64,
    pub stride: u64,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct ConstantNode {
    pub name: String,
    pub value: u64,
    pub desc: String,
}

/// An address map, register file, memory or register.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Node {
    pub kind: Kind,
    pub name: String,
    pub desc: String,
    /// Bytes from the parent's start (of the first element, for an array).
    pub offset: u64,
    pub dims: Vec<u64>,
    pub stride: u64,
    /// Bytes of one element.
    pub size: u64,
    /// A register's own access (IP-XACT `access`); SystemRDL's is its fields'.
    #[serde(default)]
    pub access: Option<String>,
    /// A register's write lock (our IP-XACT extension); SystemRDL's is its fields'.
    #[serde(default)]
    pub lock: Option<LockNode>,
    pub gba: Gba,
    pub unsupported: Vec<String>,
    pub line: Option<u32>,
    pub children: Vec<Node>,
    pub fields: Vec<FieldNode>,
    pub width: u32,
    /// A register's bus access width when narrower than `width` (SystemRDL `accesswidth`,
    /// our IP-XACT extension of that name).
    #[serde(default)]
    pub accesswidth: Option<u32>,
    /// A register implemented outside the block (SystemRDL `external`, of the register or
    /// of a register file holding it; our IP-XACT extension `external`).
    #[serde(default)]
    pub external: bool,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct FieldNode {
    pub name: String,
    pub desc: String,
    pub lsb: u32,
    pub msb: u32,
    /// msb0 bit order: bit `lsb` holds the value's most significant bit (SystemRDL's
    /// `TOP[0:3]`, our IP-XACT extension `gba:bitOrder`); `reset` and `values` are values.
    #[serde(default)]
    pub msb0: bool,
    /// SystemRDL `sw` or IP-XACT `access`; `None`: the register's.
    pub sw: Option<String>,
    /// SystemRDL `onread` or IP-XACT `readAction`.
    pub onread: Option<String>,
    /// Our SystemRDL property `gba_onread` (`interchange::udp::ONREAD`): `ruser` or `rext`.
    #[serde(default)]
    pub gba_onread: Option<String>,
    /// SystemRDL `onwrite` or IP-XACT `modifiedWriteValue`.
    pub onwrite: Option<String>,
    pub reset: Option<u64>,
    /// `index`, `strap` or `none` (`model::ResetFrom`): SystemRDL's reset from a signal, a
    /// field without a reset (SystemRDL without `reset`, IP-XACT without `<resets>`), or our
    /// property or extension of that name.
    #[serde(default)]
    pub reset_from: Option<String>,
    /// SystemRDL `hw` where the file assigns it (of the field, or by `default`), our IP-XACT
    /// extension `hw`: how hardware accesses the field (`model::HardwareAccess`).
    #[serde(default)]
    pub hw: Option<String>,
    /// SystemRDL `swmod`, our IP-XACT extension `swmod`.
    #[serde(default)]
    pub swmod: bool,
    /// SystemRDL `swacc`, our IP-XACT extension `swacc`.
    #[serde(default)]
    pub swacc: bool,
    /// SystemRDL `singlepulse`, or our IP-XACT extension of that name.
    #[serde(default)]
    pub singlepulse: bool,
    /// SystemRDL `swwel`/`swwe` (a register-wide lock in the spec).
    #[serde(default)]
    pub lock: Option<LockNode>,
    pub values: Vec<ValueNode>,
    /// The values a write takes where they differ from `values` (IP-XACT's
    /// `enumeratedValue usage="write"`, `model::Field::write_values`); SystemRDL has none.
    #[serde(default)]
    pub write_values: Vec<ValueNode>,
    pub gba_access: Option<String>,
    pub implicit: bool,
    /// Its place among the register's fields, where that is not bit order.
    #[serde(default)]
    pub position: Option<u64>,
    pub unsupported: Vec<String>,
    pub line: Option<u32>,
}

/// A write lock by another register's bit: SystemRDL's `swwel`/`swwe` on a field, our
/// IP-XACT extension of the same name on a register (`interchange::lock_property`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub(crate) struct LockNode {
    /// `swwel` or `swwe`.
    pub property: String,
    /// The register beside the locked one that holds the bit.
    pub register: String,
    pub field: String,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct ValueNode {
    pub name: String,
    pub value: u64,
    pub desc: String,
}

/// Which format the tree came from: how access and side effects are spelt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    SystemRdl,
    IpXact,
}

impl Format {
    fn access(self, text: &str) -> Option<Access> {
        match self {
            Format::SystemRdl => interchange::from_rdl_sw(text),
            Format::IpXact => interchange::from_ipxact_access(text),
        }
    }
    fn effect(self, read: bool, text: &str) -> Option<SideEffect> {
        match (self, read) {
            (Format::SystemRdl, true) => interchange::from_rdl("onread", text),
            (Format::SystemRdl, false) => interchange::from_rdl("onwrite", text),
            (Format::IpXact, true) => interchange::from_ipxact("readAction", text),
            (Format::IpXact, false) => interchange::from_ipxact("modifiedWriteValue", text),
        }
    }
    fn effect_names(self) -> (&'static str, &'static str) {
        match self {
            Format::SystemRdl => ("onread", "onwrite"),
            Format::IpXact => ("readAction", "modifiedWriteValue"),
        }
    }
}

/// Why a file could not be imported at all.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// `--strict`: the file holds something the spec cannot carry as it is.
    #[error("refused (--strict): {} item(s) cannot be carried as they are:\n{}", .0.len(), .0.join("\n"))]
    Refused(Vec<String>),
    /// The imported device fails validation: a bug in the importer, reported rather than
    /// written out (each problem in a line).
    #[error("the imported device does not validate:\n{}", .0.join("\n"))]
    Invalid(Vec<String>),
    /// The file has no register the spec can carry (the message names its top item).
    #[error("{0}")]
    Empty(String),
}

struct Ctx {
    format: Format,
    /// The file was written by our own emitter (it carries the version property).
    ours: bool,
    warnings: Warnings,
    /// The block being converted: the first part of the paths in `lines`.
    block: String,
    /// The source line of each register, field and enumerated value, by its path in the
    /// imported device (`timer.CTRL.MODE.FAST`): the passes that work on the converted device
    /// (overlapping fields, names `gba check` refuses) warn by path, and are given the line
    /// here ([`Ctx::place`]).
    lines: HashMap<String, u32>,
}

impl Ctx {
    /// Gives every warning without a line the line of its item, or of the nearest enclosing
    /// item whose line is known.
    fn place(warnings: Vec<Warning>, lines: &HashMap<String, u32>) -> Vec<Warning> {
        warnings
            .into_iter()
            .map(|mut w| {
                let mut path = w.at.as_str();
                while w.line.is_none() {
                    w.line = lines.get(path).copied();
                    match path.rsplit_once('.') {
                        Some((outer, _)) => path = outer,
                        None => break,
                    }
                }
                w
            })
            .collect()
    }

    fn warn(&mut self, treatment: Treatment, at: &str, line: Option<u32>, message: String) {
        match line {
            Some(line) => self
                .warnings
                .warn_at_line(treatment, at.to_string(), line, message),
            None => self.warnings.warn(treatment, at, message),
        }
    }
}

fn located<T>(value: T) -> Located<T> {
    Located::synthetic(value)
}

/// The device the tree describes; `strict` refuses it when any warning would be given.
pub(crate) fn convert(top: &Node, format: Format, strict: bool) -> Result<Imported, TreeError> {
    let mut ctx = Ctx {
        format,
        ours: top.gba.gba_version.is_some(),
        warnings: Warnings::default(),
        block: top.name.clone(),
        lines: HashMap::new(),
    };
    for what in &top.unsupported {
        ctx.warn(
            Treatment::NotRepresented,
            &top.name,
            top.line,
            format!("{what} is not carried"),
        );
    }
    let constants = top
        .gba
        .gba_constants
        .iter()
        .flatten()
        .map(|c| Constant {
            name: located(c.name.clone()),
            value: located(c.value),
            description: c.desc.clone(),
        })
        .collect();
    let mut blocks: Vec<(Option<u64>, Block)> = Vec::new();
    let mut placed_blocks: Vec<(u64, Block)> = Vec::new();
    let mut views: Vec<(String, u64, Register)> = Vec::new();
    if top.children.iter().any(|c| c.kind == Kind::Reg) {
        // Registers directly in the root: the whole map is one block.
        ctx.warn(
            Treatment::Reshaped,
            &top.name,
            top.line,
            "registers directly in the root address map: the whole map imported as one block"
                .into(),
        );
        let mut registers = Vec::new();
        flatten(&mut ctx, &top.children, "", 0, &top.name, &mut registers);
        resolve_overlaps(&mut ctx, &top.name, &mut registers);
        let size = top.size.max(1).next_power_of_two();
        blocks.push((
            None,
            Block {
                name: located(top.name.clone()),
                description: String::new(),
                offset: located(0),
                size: located(size),
                array: None,
                registers,
                alternate_of: None,
                instance_of: None,
            },
        ));
    } else {
        for child in &top.children {
            let at = child.name.clone();
            if child.gba.gba_implicit == Some(true) {
                continue; // an instance of an interleaved block array other than the first
            }
            if child.kind == Kind::Mem {
                ctx.warn(
                    Treatment::LeftOut,
                    &at,
                    child.line,
                    "a memory, which the spec format has no place for: left out".into(),
                );
                continue;
            }
            if let Some(block) = &child.gba.gba_view_of {
                ctx.block = block.clone();
                let mut registers = Vec::new();
                flatten(&mut ctx, &child.children, "", 0, &at, &mut registers);
                let position = child
                    .gba
                    .gba_position
                    .or_else(|| child.children.first().and_then(|r| r.gba.gba_position))
                    .unwrap_or(0);
                for register in registers {
                    views.push((block.clone(), position, register));
                }
                continue;
            }
            let Some(block) = block(&mut ctx, child) else {
                continue;
            };
            match child.gba.gba_position {
                Some(position) if block.alternate_of.is_some() => {
                    placed_blocks.push((position, block))
                }
                _ => blocks.push((child.gba.gba_position, block)),
            }
        }
    }
    let all_placed = blocks.iter().all(|(p, _)| p.is_some());
    if all_placed {
        blocks.sort_by_key(|(p, _)| *p);
    }
    let mut blocks: Vec<Block> = blocks.into_iter().map(|(_, b)| b).collect();
    placed_blocks.sort_by_key(|(p, _)| *p);
    for (position, block) in placed_blocks {
        let at = usize::try_from(position)
            .unwrap_or(usize::MAX)
            .min(blocks.len());
        blocks.insert(at, block);
    }
    views.sort_by_key(|(_, p, _)| *p);
    for (name, position, register) in views {
        let Some(block) = blocks.iter_mut().find(|b| *b.name == name) else {
            ctx.warn(
                Treatment::LeftOut,
                &format!("{name}.{}", *register.name),
                None,
                format!("an alternate view of block `{name}`, which is not in the file: left out"),
            );
            continue;
        };
        let at = usize::try_from(position)
            .unwrap_or(usize::MAX)
            .min(block.registers.len());
        block.registers.insert(at, register);
    }
    if blocks.is_empty() {
        return Err(TreeError::Empty(format!(
            "`{}` has no registers the spec can carry",
            top.name
        )));
    }
    let mut device = Device {
        name: located(top.name.clone()),
        description: top.desc.trim().to_string(),
        version: top.gba.gba_version.clone().unwrap_or_default(),
        constants,
        blocks,
        interrupts: Vec::new(),
        cpu: None,
        address: None,
    };
    top.gba.device.apply(&mut device);
    let problems = legalise(&mut ctx.warnings, &mut device);
    let warnings = Ctx::place(ctx.warnings.into_vec(), &ctx.lines);
    if strict && !warnings.is_empty() {
        return Err(TreeError::Refused(
            warnings
                .iter()
                .map(|w| format!("  {}: {}", w.at, w.message))
                .collect(),
        ));
    }
    if !problems.is_empty() {
        return Err(TreeError::Invalid(
            problems.iter().map(|d| d.message.clone()).collect(),
        ));
    }
    Ok(Imported { device, warnings })
}

fn array_of(ctx: &mut Ctx, node: &Node, at: &str) -> Result<Option<Array>, ()> {
    match node.dims.as_slice() {
        [] => Ok(None),
        [count] => Ok(Some(Array {
            count: located(*count),
            stride: located(node.stride),
        })),
        dims => {
            ctx.warn(
                Treatment::LeftOut,
                at,
                node.line,
                format!(
                    "a {}-dimensional array, which the spec format has no place for: left out",
                    dims.len()
                ),
            );
            Err(())
        }
    }
}

fn block(ctx: &mut Ctx, node: &Node) -> Option<Block> {
    let at = node.name.clone();
    let array = array_of(ctx, node, &at).ok()?;
    for what in &node.unsupported {
        ctx.warn(
            Treatment::NotRepresented,
            &at,
            node.line,
            format!("{what} is not carried"),
        );
    }
    ctx.block = at.clone();
    let mut registers = Vec::new();
    flatten(ctx, &placed(&node.children), "", 0, &at, &mut registers);
    resolve_overlaps(ctx, &at, &mut registers);
    // A foreign block owns its registers' span, rounded up to a power of two where its
    // array's stride leaves room.
    let size = node.gba.gba_size.unwrap_or_else(|| {
        let rounded = node.size.max(1).next_power_of_two();
        match &array {
            Some(a) if rounded > *a.stride => node.size.max(1),
            _ => rounded,
        }
    });
    Some(Block {
        name: located(node.name.clone()),
        description: node.desc.trim().to_string(),
        offset: located(node.offset),
        size: located(size),
        array,
        registers,
        alternate_of: node.gba.gba_alternate_of.clone().map(located),
        instance_of: None,
    })
}

/// SystemRDL lets a read-only and a write-only register share an address, and fields
/// likewise; the spec needs the second register declared an alternate view of the first, and
/// has no overlapping fields: the later of two overlapping fields is left out.
fn resolve_overlaps(ctx: &mut Ctx, at: &str, registers: &mut [Register]) {
    for i in 0..registers.len() {
        let register = &registers[i];
        if register.alternate_of.is_some() {
            continue;
        }
        // Element by element: interleaved arrays (the RP2040's) do not overlap. Huge arrays
        // are compared by span, so that a hostile count cannot make this quadratic.
        let overlaps = |a: &Register, b: &Register| {
            let count = |r: &Register| r.array.as_ref().map_or(1, |x| *x.count);
            if count(a).saturating_mul(count(b)) > 1 << 16 {
                let end = |r: &Register| {
                    r.element_offsets()
                        .last()
                        .unwrap_or(*r.offset)
                        .saturating_add(r.bytes())
                };
                return *a.offset < end(b) && *b.offset < end(a);
            }
            a.element_offsets().any(|x| {
                b.element_offsets()
                    .any(|y| x < y.saturating_add(b.bytes()) && y < x.saturating_add(a.bytes()))
            })
        };
        let primary = registers[..i]
            .iter()
            .find(|other| other.alternate_of.is_none() && overlaps(other, register));
        if let Some(primary) = primary {
            let name = primary.name.value.clone();
            ctx.warn(
                Treatment::Reshaped,
                &format!("{at}.{}", *registers[i].name),
                None,
                format!("overlaps register `{name}`: imported as an alternate view of it"),
            );
            registers[i].alternate_of = Some(located(name));
        }
    }
    for register in registers.iter_mut() {
        let mut kept: Vec<Field> = Vec::new();
        for field in std::mem::take(&mut register.fields) {
            if let Some(other) = kept.iter().find(|k| k.bits.mask() & field.bits.mask() != 0) {
                ctx.warn(
                    Treatment::LeftOut,
                    &format!("{at}.{}.{}", *register.name, *field.name),
                    None,
                    format!("overlaps field `{}`: left out", *other.name),
                );
                continue;
            }
            kept.push(field);
        }
        register.fields = kept;
    }
}

/// `nodes` in the order their positions say (`interchange::udp::POSITION`), when every one
/// has a position; else as given.
fn placed(nodes: &[Node]) -> Vec<Node> {
    let mut nodes = nodes.to_vec();
    if nodes.iter().all(|n| n.gba.gba_position.is_some()) {
        nodes.sort_by_key(|n| n.gba.gba_position);
    }
    nodes
}

/// The registers of `nodes`, register files and nested maps flattened into their block (a
/// prefix on the name, their offset added), arrays of them unrolled.
fn flatten(
    ctx: &mut Ctx,
    nodes: &[Node],
    prefix: &str,
    base: u64,
    at: &str,
    out: &mut Vec<Register>,
) {
    for node in nodes {
        let here = format!("{at}.{}", node.name);
        match node.kind {
            Kind::Reg if node.gba.gba_implicit == Some(true) => {}
            Kind::Reg => {
                let array = match &node.gba.gba_element {
                    // Only the first element of an interleaved array stands for it.
                    Some(element) if element.index != 0 => continue,
                    Some(element) => Some((
                        element.array.clone(),
                        Array {
                            count: located(element.count),
                            stride: located(element.stride),
                        },
                    )),
                    None => None,
                };
                if let Some(register) = register(ctx, node, prefix, base, &here, array) {
                    out.push(register);
                }
            }
            Kind::Mem => ctx.warn(
                Treatment::LeftOut,
                &here,
                node.line,
                "a memory, which the spec format has no place for: left out".into(),
            ),
            Kind::Map | Kind::Regfile => {
                for what in &node.unsupported {
                    ctx.warn(
                        Treatment::NotRepresented,
                        &here,
                        node.line,
                        format!("{what} is not carried"),
                    );
                }
                let count: u64 = node.dims.iter().product();
                if node.dims.is_empty() {
                    ctx.warn(
                        Treatment::Reshaped,
                        &here,
                        node.line,
                        format!(
                            "register file `{}` flattened into its block: its registers are `{prefix}{}_*`",
                            node.name, node.name
                        ),
                    );
                    let prefix = format!("{prefix}{}_", node.name);
                    flatten(ctx, &node.children, &prefix, base + node.offset, &here, out);
                } else if count > MAX_UNROLLED {
                    ctx.warn(
                        Treatment::LeftOut,
                        &here,
                        node.line,
                        format!(
                            "an array of {count} register files is too large to unroll: left out"
                        ),
                    );
                } else {
                    ctx.warn(
                        Treatment::Reshaped,
                        &here,
                        node.line,
                        format!(
                            "register file array `{}[{count}]` unrolled into its block: its registers are `{prefix}{}<n>_*`",
                            node.name, node.name
                        ),
                    );
                    for i in 0..count {
                        let prefix = format!("{prefix}{}{i}_", node.name);
                        let offset = base + node.offset + i * node.stride;
                        flatten(ctx, &node.children, &prefix, offset, &here, out);
                    }
                }
            }
        }
    }
}

fn register(
    ctx: &mut Ctx,
    node: &Node,
    prefix: &str,
    base: u64,
    at: &str,
    element: Option<(String, Array)>,
) -> Option<Register> {
    let (name, array) = match element {
        Some((name, array)) => (name, Some(array)),
        None => (node.name.clone(), array_of(ctx, node, at).ok()?),
    };
    if ![8, 16, 32, 64].contains(&node.width) {
        ctx.warn(
            Treatment::LeftOut,
            at,
            node.line,
            format!(
                "a {}-bit register; the spec format has 8, 16, 32 and 64: left out",
                node.width
            ),
        );
        return None;
    }
    for what in &node.unsupported {
        ctx.warn(
            Treatment::NotRepresented,
            at,
            node.line,
            format!("{what} is not carried"),
        );
    }
    let declared = node
        .gba
        .gba_access
        .as_deref()
        .and_then(spec_access)
        .or_else(|| node.access.as_deref().and_then(|a| ctx.format.access(a)));
    let mut fields = Vec::new();
    let mut reset = 0u64;
    let mut readable = false;
    let mut writable = false;
    // The lock of each field software can write: the spec locks whole registers.
    let mut locks: Vec<(&FieldNode, Option<&LockNode>)> = Vec::new();
    let mut ordered: Vec<&FieldNode> = node.fields.iter().collect();
    if ordered.iter().all(|f| f.position.is_some()) {
        ordered.sort_by_key(|f| f.position);
    }
    let path = format!("{}.{prefix}{name}", ctx.block);
    if let Some(line) = node.line {
        ctx.lines.insert(path.clone(), line);
    }
    for f in ordered {
        let here = format!("{at}.{}", f.name);
        if let Some(line) = f.line {
            ctx.lines.insert(format!("{path}.{}", f.name), line);
        }
        if let Some(value) = f.reset {
            // The register's reset is bits: an msb0 field's value lies in them reversed.
            let width = f.msb.saturating_sub(f.lsb).saturating_add(1);
            let value = if f.msb0 {
                crate::bit_order::reverse(value, width.min(64))
            } else {
                value
            };
            let shifted = value.checked_shl(f.lsb).unwrap_or(0);
            reset |= shifted;
        }
        if f.implicit {
            let access = f.sw.as_deref().and_then(|a| ctx.format.access(a));
            readable |= access.is_some_and(Access::is_readable);
            writable |= access.is_some_and(Access::is_writable);
            if access.is_some_and(Access::is_writable) {
                locks.push((f, f.lock.as_ref()));
            }
            continue;
        }
        let access = match f.sw.as_deref() {
            None => None,
            Some(sw) => match ctx.format.access(sw) {
                Some(access) => Some(access),
                None => {
                    ctx.warn(
                        Treatment::LeftOut,
                        &here,
                        f.line,
                        format!("access `{sw}` gives software no access: left out"),
                    );
                    continue;
                }
            },
        };
        let effective = access.or(declared).unwrap_or(Access::ReadWrite);
        readable |= effective.is_readable();
        writable |= effective.is_writable();
        if effective.is_writable() {
            locks.push((f, f.lock.as_ref()));
        }
        for what in &f.unsupported {
            ctx.warn(
                Treatment::NotRepresented,
                &here,
                f.line,
                format!("{what} is not carried"),
            );
        }
        let (read_name, write_name) = ctx.format.effect_names();
        let mut effects = Vec::new();
        for (read, value) in [(true, &f.onread), (false, &f.onwrite)] {
            let Some(value) = value else { continue };
            match ctx.format.effect(read, value) {
                Some(effect) => effects.push(effect),
                None => ctx.warn(
                    Treatment::NotRepresented,
                    &here,
                    f.line,
                    format!(
                        "{} `{value}` is not carried",
                        if read { read_name } else { write_name }
                    ),
                ),
            }
        }
        if let Some(effect) = ours_read_effect(ctx, f, &here) {
            // IP-XACT gives `rext` `modify` beside our extension (`interchange::stand_in`).
            effects.retain(|e| Some(*e) != interchange::stand_in(effect));
            effects.insert(0, effect);
        }
        if f.singlepulse {
            // IP-XACT gives a pulse `oneToSet` beside our extension
            // (`interchange::SINGLE_PULSE_IPXACT`): the pulse is what the bit does.
            effects.retain(|e| *e != interchange::SINGLE_PULSE_IPXACT);
            effects.insert(0, SideEffect::SinglePulse);
        }
        if effects.len() > 1 {
            ctx.warn(
                Treatment::NotRepresented,
                &here,
                f.line,
                format!(
                    "a field has one side effect in the spec: `{}` carried, `{}` not",
                    effects[0].keyword(),
                    effects[1].keyword()
                ),
            );
        }
        let reset_from = match f.reset_from.as_deref() {
            None => None,
            Some(word) => match ResetFrom::from_keyword(word) {
                Some(from) => Some(located(from)),
                None => {
                    ctx.warn(
                        Treatment::NotRepresented,
                        &here,
                        f.line,
                        format!(
                            "a reset from `{word}` is not carried (known: `index`, `strap`, \
                             `none`)"
                        ),
                    );
                    None
                }
            },
        };
        let enum_values = |list: &[ValueNode]| -> Vec<EnumValue> {
            list.iter()
                .map(|v| EnumValue {
                    name: located(v.name.clone()),
                    value: located(v.value),
                    description: v.desc.trim().to_string(),
                })
                .collect()
        };
        let values = enum_values(&f.values);
        let write_values = enum_values(&f.write_values);
        fields.push((
            f,
            Field {
                name: located(f.name.clone()),
                description: f.desc.trim().to_string(),
                bits: located(BitRange {
                    msb: f.msb,
                    lsb: f.lsb,
                }),
                access: access.map(located),
                side_effect: effects.first().copied().map(located),
                // A field without an access of its own has its register's (IP-XACT's
                // register-level `writeOnce`).
                write_once: f
                    .sw
                    .as_deref()
                    .or(node.access.as_deref())
                    .is_some_and(interchange::is_write_once),
                msb0: f.msb0,
                reset_from,
                values,
                write_values,
                hardware: super::hardware::field(f).unwrap_or_else(|problem| {
                    ctx.warn(Treatment::NotRepresented, &here, f.line, problem);
                    Default::default()
                }),
            },
        ));
    }
    let access = declared.unwrap_or(match (readable, writable) {
        (true, false) => Access::ReadOnly,
        (false, true) => Access::WriteOnly,
        _ => Access::ReadWrite,
    });
    let fields = fields
        .into_iter()
        .map(|(node, mut field)| {
            let explicit = node.gba_access.as_deref().and_then(spec_access);
            field.access = match (ctx.ours, ctx.format) {
                (true, Format::SystemRdl) => explicit.map(located),
                // Foreign SystemRDL states every field's access: kept where it differs.
                (false, Format::SystemRdl) => field.access.filter(|a| **a != access),
                (_, Format::IpXact) => field.access,
            };
            field
        })
        .collect();
    let lock = register_lock(ctx, node, &locks, prefix, at);
    let access_width = node.accesswidth.filter(|w| *w < node.width);
    let split_read = split_read(ctx, node, access_width, access, at);
    Some(Register {
        name: located(format!("{prefix}{name}")),
        description: node.desc.trim().to_string(),
        offset: located(base + node.offset),
        width: located(node.width),
        access: located(access),
        reset: located(node.gba.gba_reset.unwrap_or(reset)),
        array,
        fields,
        alternate_of: node.gba.gba_alternate_of.clone().map(located),
        lock,
        access_width: access_width.map(located),
        split_read,
        hardware: super::hardware::register(node),
    })
}

/// The register's read protocol (`udp::SPLIT_READ`, our IP-XACT extension `splitRead`), when
/// it names one that applies (`model::SplitRead`, checked as `parse` checks the spec's key);
/// any other is warned about by name and not carried.
fn split_read(
    ctx: &mut Ctx,
    node: &Node,
    access_width: Option<u32>,
    access: Access,
    at: &str,
) -> Option<Located<SplitRead>> {
    let word = node.gba.gba_split_read.as_deref()?;
    let pieces = access_width.map_or(1, |w| node.width / w.max(1));
    let problem = match SplitRead::from_keyword(word) {
        None => "names no read protocol (known: `low_first`, `until_stable`)",
        Some(_) if pieces == 1 => "applies to a register wider than its access width only",
        Some(SplitRead::UntilStable) if pieces != 2 || !access.is_readable() => {
            "needs a readable register of two pieces"
        }
        Some(protocol) => return Some(located(protocol)),
    };
    ctx.warn(
        Treatment::NotRepresented,
        at,
        node.line,
        format!("the read protocol `{word}` {problem}: not carried"),
    );
    None
}

/// The register's write lock: its own (IP-XACT), or the one every field software can write
/// has (SystemRDL), the lock register named as the import names it (`prefix`: the register
/// files it was flattened out of). Fields locked apart are warned about and not carried.
fn register_lock(
    ctx: &mut Ctx,
    node: &Node,
    locks: &[(&FieldNode, Option<&LockNode>)],
    prefix: &str,
    at: &str,
) -> Option<Lock> {
    let lock = match (&node.lock, locks.first()) {
        (Some(lock), _) => lock,
        (None, Some((_, Some(first)))) if locks.iter().all(|(_, l)| *l == Some(*first)) => first,
        (None, _) => {
            for (f, lock) in locks {
                if let Some(lock) = lock {
                    ctx.warn(
                        Treatment::NotRepresented,
                        &format!("{at}.{}", f.name),
                        f.line,
                        format!(
                            "`{}` by `{}.{}` on some of the register's writable fields only: \
                             the spec locks whole registers, so it is not carried",
                            lock.property, lock.register, lock.field
                        ),
                    );
                }
            }
            return None;
        }
    };
    let Some(locked_when) = interchange::lock_polarity(&lock.property) else {
        ctx.warn(
            Treatment::NotRepresented,
            at,
            node.line,
            format!("write lock `{}` is not carried", lock.property),
        );
        return None;
    };
    Some(Lock {
        register: located(format!("{prefix}{}", lock.register)),
        field: located(lock.field.clone()),
        locked_when,
    })
}

/// `ro`, `wo`, `rw` (the spec's own spelling, in our user-defined properties).
fn spec_access(text: &str) -> Option<Access> {
    [Access::ReadOnly, Access::WriteOnly, Access::ReadWrite]
        .into_iter()
        .find(|a| a.keyword() == text)
}

/// The read that modifies that our SystemRDL property `gba_onread` or IP-XACT extension
/// `gba:onread` states (`ruser`, `rext`; `interchange::udp::ONREAD`, `interchange::ext::ONREAD`);
/// any other word is warned about and not carried.
fn ours_read_effect(ctx: &mut Ctx, f: &FieldNode, here: &str) -> Option<SideEffect> {
    let word = f.gba_onread.as_deref()?;
    match SideEffect::from_keyword(word) {
        Some(effect @ (SideEffect::ReadModify | SideEffect::ReadModifyExternal)) => Some(effect),
        _ => {
            ctx.warn(
                Treatment::NotRepresented,
                here,
                f.line,
                format!(
                    "`{}` `{word}` is not carried (known: `ruser`, `rext`)",
                    interchange::udp::ONREAD
                ),
            );
            None
        }
    }
}
