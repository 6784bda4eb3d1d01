//! IP-XACT (IEEE 1685-2014, and 1685-2009's same elements) → [`Device`](crate::Device):
//! the first memory map of the component, read with roxmltree into the tree that
//! `import::tree` converts, as for SystemRDL. Elements are matched by local name, so both
//! standards' namespaces are read. Our own `vendorExtensions` (`crate::interchange::ext`) give
//! back what the standard has no place for; a `memoryRemap` other than ours, alternate
//! registers and the rest of what the spec cannot carry are warned about.

use std::collections::HashMap;

use roxmltree::{Document, Node as XmlNode};

use super::Imported;
use super::expr::{self, Parameters};
use super::tree::{
    self, ConstantNode, ElementNode, FieldNode, Format, Gba, Kind, LockNode, Node, TreeError,
    ValueNode,
};
use super::tree_interrupts::InterruptNode;
use crate::interchange;
use crate::interchange::ext::ALTERNATE_STATE;

/// Why an IP-XACT file could not be imported at all.
#[derive(Debug, thiserror::Error)]
pub enum IpXactError {
    /// The text is not well-formed XML; the parser's message, with its position.
    #[error("not XML: {0}")]
    Xml(String),
    /// Well-formed XML, but not an IP-XACT component with a memory map (the element that is
    /// missing or unexpected).
    #[error("not an IP-XACT component: {0}")]
    Shape(String),
    /// Numbers the importer cannot evaluate (or that are missing), each with its line: the
    /// file is refused rather than read with a guess.
    #[error(
        "{} number(s) cannot be evaluated, so the file is refused:\n{}",
        .0.len(),
        .0.iter().map(|(line, why)| match line {
            Some(line) => format!("  line {line}: {why}"),
            None => format!("  {why}"),
        }).collect::<Vec<_>>().join("\n")
    )]
    Expression(Vec<(Option<u32>, String)>),
    /// The component could not be turned into a valid spec.
    #[error(transparent)]
    Tree(#[from] TreeError),
}

/// Parses IP-XACT text and converts its first memory map; `strict` refuses the file when
/// anything would be warned about.
pub fn from_str(xml: &str, strict: bool) -> Result<Imported, IpXactError> {
    from_str_with(xml, strict, &[])
}

/// As [`from_str`], with parameter overrides: each `(key, value)` gives the parameter whose
/// `parameterId` or name (1685-2014), or the element whose `spirit:id` (1685-2009), is `key`
/// the value `value` (an expression), as a design's `configurableElementValue` would. A key
/// that names nothing in the file is refused.
pub fn from_str_with(
    xml: &str,
    strict: bool,
    overrides: &[(String, String)],
) -> Result<Imported, IpXactError> {
    let document = Document::parse(xml).map_err(|e| IpXactError::Xml(e.to_string()))?;
    let mut reader = Reader::new(&document, overrides);
    let top = reader.component()?;
    if !reader.errors.is_empty() {
        return Err(IpXactError::Expression(reader.errors));
    }
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

fn attribute<'a>(node: XmlNode<'a, '_>, name: &str) -> Option<&'a str> {
    node.attributes()
        .find(|a| a.name() == name)
        .map(|a| a.value())
}

fn text(node: XmlNode, name: &str) -> Option<String> {
    child(node, name).map(|c| c.text().unwrap_or("").trim().to_string())
}

fn line(document: &Document, node: XmlNode) -> Option<u32> {
    Some(document.text_pos_at(node.range().start).row)
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
        accesswidth: None,
        external: false,
    }
}

/// Reads the component's numbers: every one is evaluated as 1685-2014 defines it
/// (`import::expr`) over the component's parameters, or recorded in `errors` with its text and
/// line; none is read as 0.
struct Reader<'d, 'i> {
    document: &'d Document<'i>,
    parameters: Parameters,
    /// 1685-2009's overridable values: `spirit:id` → the override given for it.
    by_id: HashMap<String, String>,
    errors: Vec<(Option<u32>, String)>,
}

impl<'d, 'i> Reader<'d, 'i> {
    fn new(document: &'d Document<'i>, overrides: &[(String, String)]) -> Self {
        let mut parameters = Parameters::default();
        let mut ids = Vec::new();
        for node in document.descendants().filter(|n| n.is_element()) {
            if node.tag_name().name() == "parameter"
                && node
                    .parent_element()
                    .is_some_and(|p| p.tag_name().name() == "parameters")
            {
                let value = child(node, "value");
                let id = attribute(node, "parameterId")
                    .or_else(|| value.and_then(|v| attribute(v, "id")));
                parameters.add(
                    id,
                    &text(node, "name").unwrap_or_default(),
                    value.and_then(|v| v.text()).unwrap_or(""),
                );
            }
            if let Some(id) = attribute(node, "id") {
                ids.push(id.to_string());
            }
        }
        let mut reader = Reader {
            document,
            parameters,
            by_id: HashMap::new(),
            errors: Vec::new(),
        };
        for (key, value) in overrides {
            let parameter = reader.parameters.set(key, value);
            let element = ids.iter().any(|id| id == key);
            if element {
                reader.by_id.insert(key.clone(), value.clone());
            }
            if !parameter && !element {
                reader.errors.push((
                    None,
                    format!("the override `{key}={value}` names no parameter or id of the file"),
                ));
            }
        }
        reader
    }

    fn line(&self, node: XmlNode) -> Option<u32> {
        line(self.document, node)
    }

    /// The number `node` holds (an element whose text is an expression).
    fn value_of(&mut self, node: XmlNode) -> Option<u64> {
        let element = node.tag_name().name();
        let written = node.text().unwrap_or("").trim().to_string();
        // 1685-2009: a value a design may override (`spirit:id`), or one computed from others
        // by an XPath expression (`spirit:dependency`), which is not evaluated.
        let text = match attribute(node, "id").and_then(|id| self.by_id.get(id)) {
            Some(value) => value.clone(),
            None => written.clone(),
        };
        match attribute(node, "resolve") {
            Some("dependent") => {
                let dependency = attribute(node, "dependency").unwrap_or("");
                self.errors.push((
                    self.line(node),
                    format!(
                        "<{element}> `{written}` depends on others by the XPath expression \
                         `{dependency}` (1685-2009 `resolve=\"dependent\"`), which the importer \
                         does not evaluate; give its value with an override"
                    ),
                ));
                return None;
            }
            Some("generated") => {
                self.errors.push((
                    self.line(node),
                    format!(
                        "<{element}> `{written}` is set by a generator \
                         (`resolve=\"generated\"`): its value is not in the file"
                    ),
                ));
                return None;
            }
            _ => {}
        }
        match expr::eval(&text, &self.parameters) {
            Ok(value) => Some(value),
            Err(why) => {
                self.errors
                    .push((self.line(node), format!("<{element}> `{text}`: {why}")));
                None
            }
        }
    }

    /// The number in `parent`'s child `name`, `None` when there is none.
    fn optional(&mut self, parent: XmlNode, name: &str) -> Option<u64> {
        let node = child(parent, name)?;
        self.value_of(node)
    }

    /// The number in `parent`'s child `name`, which the standard requires: a missing one is
    /// an error, not a 0.
    fn required(&mut self, parent: XmlNode, name: &str) -> Option<u64> {
        match child(parent, name) {
            Some(node) => self.value_of(node),
            None => {
                self.errors.push((
                    self.line(parent),
                    format!(
                        "<{}> `{}` has no <{name}>",
                        parent.tag_name().name(),
                        text(parent, "name").unwrap_or_default()
                    ),
                ));
                None
            }
        }
    }

    /// A number in one of our own vendor extensions (written by our emitter).
    fn ours_number(&mut self, node: XmlNode, name: &str) -> Option<u64> {
        let extension = ours_node(node, name)?;
        self.value_of(extension)
    }

    /// 1685-2014's `<isPresent>`: an element whose expression is 0 is not in the component
    /// (a parameter configures it away).
    fn present(&mut self, node: XmlNode) -> bool {
        self.optional(node, "isPresent") != Some(0)
    }

    /// The element's `<dim>`s. A `<dim>` of 0, which 1685-2014 does not allow (a dim is a
    /// positive count) but Kactus2 writes for "not an array", is read as no dimension, and
    /// said in `unsupported`.
    fn dims(&mut self, item: XmlNode, unsupported: &mut Vec<String>) -> Vec<u64> {
        let mut dims = Vec::new();
        for d in children(item, "dim") {
            match self.value_of(d) {
                Some(0) => unsupported.push(format!(
                    "`<dim>{}</dim>` (an array of no element, which 1685-2014 does not allow; \
                     read as no array, as Kactus2 means it)",
                    d.text().unwrap_or("").trim(),
                )),
                Some(count) => dims.push(count),
                None => {}
            }
        }
        dims
    }

    fn component(&mut self) -> Result<Node, IpXactError> {
        let document = self.document;
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
                        value: self.required(c, "value").unwrap_or(0),
                        desc: text(c, "description").unwrap_or_default(),
                    })
                    .collect(),
            );
        }
        if let Some(list) = ours_node(root, "interrupts") {
            let interrupts = list
                .children()
                .filter(|c| c.is_element())
                .map(|c| InterruptNode {
                    name: text(c, "name").unwrap_or_default(),
                    number: self.required(c, "number").unwrap_or(0),
                    desc: text(c, "description").unwrap_or_default(),
                    block: text(c, "block").unwrap_or_default(),
                    index: self.optional(c, "index").unwrap_or(0),
                    indexed: child(c, "index").is_some(),
                })
                .collect();
            top.gba.device.gba_interrupts = Some(interrupts);
        }
        top.gba.device.gba_cpu = ours(root, "cpu");
        top.gba.device.gba_nvic_prio_bits = self.ours_number(root, "nvicPrioBits");
        top.gba.device.gba_address = self.ours_number(root, "address");
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
            if !self.present(block) {
                continue;
            }
            top.children.push(self.address_block(block));
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
                    if !self.present(block) {
                        continue;
                    }
                    top.children.push(self.address_block(block));
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

    fn address_block(&mut self, block: XmlNode) -> Node {
        let document = self.document;
        // A memory (`usage` memory) is not a register block: left out, as in SystemRDL.
        let kind = match text(block, "usage").as_deref() {
            Some("memory") => Kind::Mem,
            _ => Kind::Map,
        };
        let mut node = empty_node(kind, text(block, "name").unwrap_or_default());
        node.desc = text(block, "description").unwrap_or_default();
        node.offset = self.required(block, "baseAddress").unwrap_or(0);
        node.size = self.required(block, "range").unwrap_or(0);
        node.line = line(document, block);
        node.access = text(block, "access");
        node.gba.gba_size = self.ours_number(block, "size");
        node.gba.gba_alternate_of = ours(block, "alternateOf");
        node.gba.gba_view_of = ours(block, "viewOf");
        node.gba.gba_position = self.ours_number(block, "position");
        if let Some(element) = ours_node(block, "element") {
            // One instance of an interleaved block array: the first stands for the array.
            let index = self.optional(element, "index").unwrap_or(0);
            if index != 0 {
                node.gba.gba_implicit = Some(true);
            }
            node.name = text(element, "array").unwrap_or_default();
            node.dims = vec![self.required(element, "count").unwrap_or(1)];
            node.stride = self.required(element, "stride").unwrap_or(0);
        }
        let default_access = node.access.clone();
        let mut items = self.registers(block, default_access.as_deref());
        if let Some(array) = ours_node(block, "array") {
            // Our block array: one register file array holding the registers.
            node.dims = vec![self.required(array, "count").unwrap_or(1)];
            node.stride = self.required(array, "stride").unwrap_or(0);
            if let [only] = items.as_mut_slice()
                && only.kind == Kind::Regfile
            {
                items = std::mem::take(&mut only.children);
            }
        }
        node.children = items;
        node
    }

    fn registers(&mut self, parent: XmlNode, access: Option<&str>) -> Vec<Node> {
        let document = self.document;
        let mut out = Vec::new();
        for item in parent.children().filter(|c| c.is_element()) {
            if !self.present(item) {
                continue;
            }
            match item.tag_name().name() {
                "register" => out.push(self.register(item, access)),
                "registerFile" => {
                    let mut node =
                        empty_node(Kind::Regfile, text(item, "name").unwrap_or_default());
                    node.desc = text(item, "description").unwrap_or_default();
                    node.offset = self.required(item, "addressOffset").unwrap_or(0);
                    node.dims = self.dims(item, &mut node.unsupported);
                    node.size = self.required(item, "range").unwrap_or(0);
                    node.stride = node.size;
                    node.line = line(document, item);
                    node.children = self.registers(item, access);
                    out.push(node);
                }
                _ => {}
            }
        }
        out
    }

    fn register(&mut self, item: XmlNode, access: Option<&str>) -> Node {
        let document = self.document;
        let mut node = empty_node(Kind::Reg, text(item, "name").unwrap_or_default());
        node.desc = text(item, "description").unwrap_or_default();
        node.offset = self.required(item, "addressOffset").unwrap_or(0);
        node.width = self
            .required(item, "size")
            .map(|s| u32::try_from(s).unwrap_or(u32::MAX))
            .unwrap_or(32);
        node.size = u64::from(node.width / 8);
        node.dims = self.dims(item, &mut node.unsupported);
        node.stride = node.size;
        node.line = line(document, item);
        node.access = text(item, "access").or(access.map(str::to_string));
        // 1685-2009 gives the register's reset value in the register (`<reset><value>`, with an
        // optional `<mask>` of the bits that are reset); 1685-2014 gives each field its own.
        let register_reset = child(item, "reset").map(|r| {
            let value = self.required(r, "value").unwrap_or(0);
            let mask = self.optional(r, "mask");
            (value, mask)
        });
        node.gba.gba_reset = self
            .ours_number(item, "reset")
            .or(register_reset.map(|(value, _)| value));
        node.gba.gba_alternate_of = ours(item, "alternateOf");
        node.gba.gba_split_read = ours(item, "splitRead");
        node.external = ours(item, interchange::ext::EXTERNAL).is_some_and(|v| v.trim() == "true");
        node.accesswidth = self
            .ours_number(item, "accessWidth")
            .and_then(|w| u32::try_from(w).ok());
        node.gba.gba_element = ours_node(item, "element").map(|e| ElementNode {
            array: text(e, "array").unwrap_or_default(),
            index: self.optional(e, "index").unwrap_or(0),
            count: self.required(e, "count").unwrap_or(1),
            stride: self.required(e, "stride").unwrap_or(0),
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
            if !self.present(f) {
                continue;
            }
            let lsb = self
                .required(f, "bitOffset")
                .map_or(0, |v| u32::try_from(v).unwrap_or(u32::MAX));
            let width = self
                .required(f, "bitWidth")
                .map_or(1, |v| u32::try_from(v).unwrap_or(u32::MAX))
                .clamp(1, 64);
            let field_mask = u64::MAX >> (64 - width);
            let mut unsupported = Vec::new();
            let mut reset_from =
                ours(f, interchange::ext::RESET_FROM).map(|v| v.trim().to_string());
            let mut reset = None;
            if let Some(r) = child(f, "resets").and_then(|r| child(r, "reset")) {
                reset = self.required(r, "value");
                // A `<mask>` names the bits that are reset: none is "not reset".
                match self.optional(r, "mask").map(|m| m & field_mask) {
                    Some(0) => {
                        reset = None;
                        reset_from.get_or_insert_with(|| "none".into());
                    }
                    Some(mask) if mask != field_mask => unsupported.push(format!(
                        "a reset `<mask>` {mask:#x} that leaves some of the field's bits not reset \
                         (the spec says `reset: none` of whole fields): reset to the value given"
                    )),
                    _ => {}
                }
            } else {
                match register_reset {
                    // 1685-2009: the field's part of the register's reset, unless the mask
                    // leaves all its bits out.
                    Some((_, Some(mask))) => {
                        let bits = mask.checked_shr(lsb).unwrap_or(0) & field_mask;
                        if bits == 0 {
                            reset_from.get_or_insert_with(|| "none".into());
                        } else if bits != field_mask {
                            unsupported.push(

                                "the register's reset `<mask>` leaves some of the field's bits not \
                                 reset (the spec says `reset: none` of whole fields): reset to the \
                                 value given"
.to_string(),
                            );
                        }
                    }
                    Some((_, None)) => {}
                    // No `<resets>` at all: the field is not reset.
                    None => {
                        reset_from.get_or_insert_with(|| "none".into());
                    }
                }
            }
            if child(f, "writeValueConstraint").is_some() {
                unsupported.push("`writeValueConstraint`".to_string());
            }
            // 1685-2009's `<enumeratedValues>`, or SPIRIT 1.4's `<values>` (a value and a name
            // each), which 2009 replaced.
            let listed: Vec<XmlNode> = match child(f, "enumeratedValues") {
                Some(values) => children(values, "enumeratedValue").collect(),
                None => children(f, "values").collect(),
            };
            let listed: Vec<(Option<&str>, ValueNode)> = listed
                .into_iter()
                .map(|v| {
                    let node = ValueNode {
                        name: text(v, "name").unwrap_or_default(),
                        value: self.required(v, "value").unwrap_or(0),
                        desc: text(v, "description").unwrap_or_default(),
                    };
                    (attribute(v, "usage"), node)
                })
                .collect();
            let (values, write_values) = split_by_usage(listed, &mut unsupported);
            node.fields.push(FieldNode {
                name: text(f, "name").unwrap_or_default(),
                desc: text(f, "description").unwrap_or_default(),
                lsb,
                msb: lsb + width - 1,
                msb0: match ours(f, interchange::ext::BIT_ORDER)
                    .as_deref()
                    .map(str::trim)
                {
                    None | Some("lsb0") => false,
                    Some("msb0") => true,
                    Some(other) => {
                        unsupported.push(format!(
                            "`gba:{}` `{other}` (not `lsb0` or `msb0`): read as lsb0",
                            interchange::ext::BIT_ORDER
                        ));
                        false
                    }
                },
                sw: text(f, "access"),
                onread: text(f, "readAction"),
                gba_onread: ours(f, interchange::ext::ONREAD).map(|v| v.trim().to_string()),
                onwrite: text(f, "modifiedWriteValue"),
                reset,
                reset_from,
                singlepulse: ours(f, interchange::SINGLE_PULSE).is_some_and(|v| v.trim() == "true"),
                lock: None,
                values,
                write_values,
                gba_access: None,
                implicit: ours(f, "implicit").is_some(),
                position: None,
                unsupported,
                line: line(document, f),
                hw: ours(f, interchange::ext::HW).map(|v| v.trim().to_string()),
                swmod: ours(f, interchange::ext::SWMOD).is_some_and(|v| v.trim() == "true"),
                swacc: ours(f, interchange::ext::SWACC).is_some_and(|v| v.trim() == "true"),
            });
        }
        // The register's reset (1685-2009's, or ours) has 0 in the fields that are not reset.
        if let Some(reset) = node.gba.gba_reset.as_mut() {
            for f in node
                .fields
                .iter()
                .filter(|f| f.reset_from.as_deref() == Some("none"))
            {
                let width = f.msb.saturating_sub(f.lsb).saturating_add(1).min(64);
                let bits = (u64::MAX >> (64 - width)).checked_shl(f.lsb).unwrap_or(0);
                *reset &= !bits;
            }
        }
        node
    }
}

/// A field's enumerated values split by their `usage` (1685-2014: `read`, `write`, or the
/// default `read-write`) into the spec's `values` (those a read gives) and `write_values`
/// (those a write takes, where they differ: `model::Field::write_values`). When every value
/// serves both, all are `values` and there are no `write_values`. A field whose values are all
/// for writing keeps them as `values`, which then serve both (the spec has no values for
/// writing alone); an unknown `usage` is read as `read-write` and named in `unsupported`.
fn split_by_usage(
    listed: Vec<(Option<&str>, ValueNode)>,
    unsupported: &mut Vec<String>,
) -> (Vec<ValueNode>, Vec<ValueNode>) {
    let mut read = Vec::new();
    let mut write = Vec::new();
    let mut split = false;
    for (usage, value) in listed {
        let (for_read, for_write) = match usage.map(str::trim) {
            None | Some("read-write") => (true, true),
            Some("read") => (true, false),
            Some("write") => (false, true),
            Some(other) => {
                unsupported.push(format!(
                    "`enumeratedValue` `{}` has usage `{other}` (known: `read`, `write`, \
                     `read-write`): read as `read-write`",
                    value.name
                ));
                (true, true)
            }
        };
        split |= !(for_read && for_write);
        if for_read && for_write {
            write.push(value.clone());
            read.push(value);
        } else if for_read {
            read.push(value);
        } else {
            write.push(value);
        }
    }
    if !split || read.is_empty() {
        let all = if read.is_empty() { write } else { read };
        return (all, Vec::new());
    }
    (read, write)
}
