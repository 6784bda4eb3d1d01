//! IP-XACT (IEEE 1685-2014, and 1685-2009's same elements) → [`Device`](crate::Device):
//! the first memory map of the component, read with roxmltree into the tree that
//! `import::tree` converts, as for SystemRDL. Elements are matched by local name, so both
//! standards' namespaces are read. Our own `vendorExtensions` (`crate::interchange::ext`) give
//! back what the standard has no place for; a `memoryRemap` other than ours, alternate
//! registers and the rest of what the spec cannot carry are warned about.

use roxmltree::{Document, Node as XmlNode};

use super::Imported;
use super::tree::{
    self, ConstantNode, ElementNode, FieldNode, Format, Gba, Kind, LockNode, Node, TreeError,
    ValueNode,
};
use super::tree_interrupts::InterruptNode;
use crate::interchange;
use crate::interchange::ext::ALTERNATE_STATE;

#[derive(Debug, thiserror::Error)]
pub enum IpXactError {
    #[error("not XML: {0}")]
    Xml(String),
    #[error("not an IP-XACT component: {0}")]
    Shape(String),
    #[error(transparent)]
    Tree(#[from] TreeError),
}

/// Parses IP-XACT text and converts its first memory map; `strict` refuses the file when
/// anything would be warned about.
pub fn from_str(xml: &str, strict: bool) -> Result<Imported, IpXactError> {
    let document = Document::parse(xml).map_err(|e| IpXactError::Xml(e.to_string()))?;
    let top = component(&document)?;
    Ok(tree::convert(&top, Format::IpXact, strict)?)
}

fn child<'a, 'i>(node: XmlNode<'a, 'i>, name: &str) -> Option<XmlNode<'a, 'i>> {
    node.children()
        .find(|c| c.is_element() && c.tag_name().name() == name)
}

fn children<'a, 'i>(
    node: XmlNode<'a, 'i>,
    name: &'static str,
) -> impl Iterator<Item = XmlNode<'a, 'i>> {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

fn text(node: XmlNode, name: &str) -> Option<String> {
    child(node, name).map(|c| c.text().unwrap_or("").trim().to_string())
}

fn line(document: &Document, node: XmlNode) -> Option<u32> {
    Some(document.text_pos_at(node.range().start).row)
}

/// An IP-XACT number: decimal, `'h1F`, `32'h1F`, `0x1F`, `#1F`, `'b`, `'o`, `'d`, with an
/// optional K/M/G/T multiplier.
pub(crate) fn number(text: &str) -> Option<u64> {
    let text = text.trim().replace('_', "");
    let (digits, multiplier) = match text.chars().last() {
        Some(c @ ('K' | 'k' | 'M' | 'm' | 'G' | 'g' | 'T' | 't'))
            if !text.contains('\'') && !text.starts_with("0x") && !text.starts_with('#') =>
        {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                _ => 40,
            };
            (&text[..text.len() - 1], 1u64 << shift)
        }
        _ => (text.as_str(), 1),
    };
    let value = if let Some((_, rest)) = digits.split_once('\'') {
        let (radix, rest) = rest.split_at(1.min(rest.len()));
        let radix = match radix.to_ascii_lowercase().as_str() {
            "h" => 16,
            "d" => 10,
            "b" => 2,
            "o" => 8,
            _ => return None,
        };
        u64::from_str_radix(rest, radix).ok()?
    } else if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
        .or_else(|| digits.strip_prefix('#'))
    {
        u64::from_str_radix(hex, 16).ok()?
    } else {
        digits.parse().ok()?
    };
    value.checked_mul(multiplier)
}

fn num(node: XmlNode, name: &str) -> Option<u64> {
    text(node, name).as_deref().and_then(number)
}

fn vendor<'a, 'i>(node: XmlNode<'a, 'i>) -> Option<XmlNode<'a, 'i>> {
    child(node, "vendorExtensions")
}

/// One of our vendor extensions (matched by our namespace).
fn ours(node: XmlNode, name: &str) -> Option<String> {
    let extensions = vendor(node)?;
    extensions
        .children()
        .find(|c| {
            c.is_element()
                && c.tag_name().name() == name
                && c.tag_name().namespace() == Some(crate::interchange::ext::NAMESPACE)
        })
        .map(|c| {
            if c.children().any(|n| n.is_element()) {
                String::new()
            } else {
                c.text().unwrap_or("").to_string()
            }
        })
}

fn ours_node<'a, 'i>(node: XmlNode<'a, 'i>, name: &str) -> Option<XmlNode<'a, 'i>> {
    vendor(node)?.children().find(|c| {
        c.is_element()
            && c.tag_name().name() == name
            && c.tag_name().namespace() == Some(crate::interchange::ext::NAMESPACE)
    })
}

fn empty_node(kind: Kind, name: String) -> Node {
    Node {
        kind,
        name,
        desc: String::new(),
        offset: 0,
        dims: Vec::new(),
        stride: 0,
        size: 0,
        access: None,
        lock: None,
        gba: Gba::default(),
        unsupported: Vec::new(),
        line: None,
        children: Vec::new(),
        fields: Vec::new(),
        width: 0,
    }
}

fn component(document: &Document) -> Result<Node, IpXactError> {
    let root = document.root_element();
    if root.tag_name().name() != "component" {
        return Err(IpXactError::Shape(format!(
            "the root element is <{}>, not <component>",
            root.tag_name().name()
        )));
    }
    let name = text(root, "name").unwrap_or_default();
    let mut top = empty_node(Kind::Map, name);
    top.desc = text(root, "description").unwrap_or_default();
    top.line = line(document, root);
    top.gba.gba_version = ours(root, "version").or_else(|| text(root, "version"));
    if let Some(constants) = ours_node(root, "constants") {
        top.gba.gba_constants = Some(
            constants
                .children()
                .filter(|c| c.is_element())
                .map(|c| ConstantNode {
                    name: text(c, "name").unwrap_or_default(),
                    value: num(c, "value").unwrap_or(0),
                    desc: text(c, "description").unwrap_or_default(),
                })
                .collect(),
        );
    }
    if let Some(list) = ours_node(root, "interrupts") {
        top.gba.device.gba_interrupts = Some(
            list.children()
                .filter(|c| c.is_element())
                .map(|c| InterruptNode {
                    name: text(c, "name").unwrap_or_default(),
                    number: num(c, "number").unwrap_or(0),
                    desc: text(c, "description").unwrap_or_default(),
                    block: text(c, "block").unwrap_or_default(),
                    index: num(c, "index").unwrap_or(0),
                    indexed: child(c, "index").is_some(),
                })
                .collect(),
        );
    }
    top.gba.device.gba_cpu = ours(root, "cpu");
    top.gba.device.gba_nvic_prio_bits = ours(root, "nvicPrioBits").as_deref().and_then(number);
    top.gba.device.gba_address = ours(root, "address").as_deref().and_then(number);
    let maps: Vec<_> = child(root, "memoryMaps")
        .map(|m| children(m, "memoryMap").collect())
        .unwrap_or_default();
    let Some(map) = maps.first() else {
        return Err(IpXactError::Shape(
            "the component has no <memoryMaps><memoryMap>".into(),
        ));
    };
    for other in &maps[1..] {
        top.unsupported.push(format!(
            "memory map `{}` (only the first, `{}`, is imported)",
            text(*other, "name").unwrap_or_default(),
            text(*map, "name").unwrap_or_default()
        ));
    }
    for block in children(*map, "addressBlock") {
        top.children.push(address_block(document, block));
    }
    for bank in children(*map, "bank") {
        top.unsupported.push(format!(
            "bank `{}` (banks are not read)",
            text(bank, "name").unwrap_or_default()
        ));
    }
    for remap in children(*map, "memoryRemap") {
        let state = text(remap, "remapState").unwrap_or_default();
        if state == ALTERNATE_STATE {
            for block in children(remap, "addressBlock") {
                top.children.push(address_block(document, block));
            }
        } else {
            top.unsupported.push(format!(
                "memory remap `{}` (state `{state}`), an alternate view of the address space",
                text(remap, "name").unwrap_or_default()
            ));
        }
    }
    if top.name.is_empty() {
        top.name = text(*map, "name").unwrap_or_default();
    }
    Ok(top)
}

fn address_block(document: &Document, block: XmlNode) -> Node {
    // A memory (`usage` memory) is not a register block: left out, as in SystemRDL.
    let kind = match text(block, "usage").as_deref() {
        Some("memory") => Kind::Mem,
        _ => Kind::Map,
    };
    let mut node = empty_node(kind, text(block, "name").unwrap_or_default());
    node.desc = text(block, "description").unwrap_or_default();
    node.offset = num(block, "baseAddress").unwrap_or(0);
    node.size = num(block, "range").unwrap_or(0);
    node.line = line(document, block);
    node.access = text(block, "access");
    node.gba.gba_size = ours(block, "size").as_deref().and_then(number);
    node.gba.gba_alternate_of = ours(block, "alternateOf");
    node.gba.gba_view_of = ours(block, "viewOf");
    node.gba.gba_position = ours(block, "position").as_deref().and_then(number);
    if let Some(element) = ours_node(block, "element") {
        // One instance of an interleaved block array: the first stands for the array.
        let index = num(element, "index").unwrap_or(0);
        if index != 0 {
            node.gba.gba_implicit = Some(true);
        }
        node.name = text(element, "array").unwrap_or_default();
        node.dims = vec![num(element, "count").unwrap_or(1)];
        node.stride = num(element, "stride").unwrap_or(0);
    }
    let default_access = node.access.clone();
    let mut items = registers(document, block, default_access.as_deref());
    if let Some(array) = ours_node(block, "array") {
        // Our block array: one register file array holding the registers.
        node.dims = vec![num(array, "count").unwrap_or(1)];
        node.stride = num(array, "stride").unwrap_or(0);
        if let [only] = items.as_mut_slice()
            && only.kind == Kind::Regfile
        {
            items = std::mem::take(&mut only.children);
        }
    }
    node.children = items;
    node
}

fn registers(document: &Document, parent: XmlNode, access: Option<&str>) -> Vec<Node> {
    let mut out = Vec::new();
    for item in parent.children().filter(|c| c.is_element()) {
        match item.tag_name().name() {
            "register" => out.push(register(document, item, access)),
            "registerFile" => {
                let mut node = empty_node(Kind::Regfile, text(item, "name").unwrap_or_default());
                node.desc = text(item, "description").unwrap_or_default();
                node.offset = num(item, "addressOffset").unwrap_or(0);
                node.dims = children(item, "dim")
                    .filter_map(|d| number(d.text().unwrap_or("")))
                    .collect();
                node.size = num(item, "range").unwrap_or(0);
                node.stride = node.size;
                node.line = line(document, item);
                node.children = registers(document, item, access);
                out.push(node);
            }
            _ => {}
        }
    }
    out
}

fn register(document: &Document, item: XmlNode, access: Option<&str>) -> Node {
    let mut node = empty_node(Kind::Reg, text(item, "name").unwrap_or_default());
    node.desc = text(item, "description").unwrap_or_default();
    node.offset = num(item, "addressOffset").unwrap_or(0);
    node.width = num(item, "size")
        .and_then(|s| u32::try_from(s).ok())
        .unwrap_or(0);
    node.size = u64::from(node.width / 8);
    node.dims = children(item, "dim")
        .filter_map(|d| number(d.text().unwrap_or("")))
        .collect();
    node.stride = node.size;
    node.line = line(document, item);
    node.access = text(item, "access").or(access.map(str::to_string));
    // 1685-2009 gives the register's reset value in the register (`<reset><value>`).
    node.gba.gba_reset = ours(item, "reset")
        .as_deref()
        .and_then(number)
        .or_else(|| child(item, "reset").and_then(|r| num(r, "value")));
    node.gba.gba_alternate_of = ours(item, "alternateOf");
    node.gba.gba_element = ours_node(item, "element").map(|e| ElementNode {
        array: text(e, "array").unwrap_or_default(),
        index: num(e, "index").unwrap_or(0),
        count: num(e, "count").unwrap_or(1),
        stride: num(e, "stride").unwrap_or(0),
    });
    node.lock = interchange::LOCK_PROPERTIES
        .into_iter()
        .find_map(|property| {
            let bit = ours(item, property)?;
            let (register, field) = bit.trim().split_once('.')?;
            Some(LockNode {
                property: property.to_string(),
                register: register.to_string(),
                field: field.to_string(),
            })
        });
    if let Some(alternates) = child(item, "alternateRegisters") {
        for alternate in children(alternates, "alternateRegister") {
            node.unsupported.push(format!(
                "alternate register `{}`",
                text(alternate, "name").unwrap_or_default()
            ));
        }
    }
    for f in children(item, "field") {
        let lsb = num(f, "bitOffset")
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or(0);
        let width = num(f, "bitWidth")
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or(1)
            .max(1);
        let reset = child(f, "resets")
            .and_then(|r| child(r, "reset"))
            .and_then(|r| num(r, "value"));
        let mut unsupported = Vec::new();
        if child(f, "writeValueConstraint").is_some() {
            unsupported.push("`writeValueConstraint`".to_string());
        }
        let values = child(f, "enumeratedValues")
            .map(|values| {
                children(values, "enumeratedValue")
                    .map(|v| ValueNode {
                        name: text(v, "name").unwrap_or_default(),
                        value: num(v, "value").unwrap_or(0),
                        desc: text(v, "description").unwrap_or_default(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        node.fields.push(FieldNode {
            name: text(f, "name").unwrap_or_default(),
            desc: text(f, "description").unwrap_or_default(),
            lsb,
            msb: lsb + width - 1,
            sw: text(f, "access"),
            onread: text(f, "readAction"),
            onwrite: text(f, "modifiedWriteValue"),
            reset,
            reset_from: ours(f, interchange::ext::RESET_FROM).map(|v| v.trim().to_string()),
            singlepulse: ours(f, interchange::SINGLE_PULSE).is_some_and(|v| v.trim() == "true"),
            lock: None,
            values,
            gba_access: None,
            implicit: ours(f, "implicit").is_some(),
            position: None,
            unsupported,
            line: line(document, f),
        });
    }
    node
}
