//! Lenient reading: the slips real vendor files contain, repaired in the XML text before
//! svd-parser sees it, each with a warning that names the line and what was done. A slip
//! would otherwise refuse the whole file (svd-parser stops at the first), though everything
//! else in it is sound. `gba import-svd --strict` skips this pass.
//!
//! Repaired:
//! - an `<access>` that the schema spells otherwise: case and known variants read as meant
//!   (`read-writeonce` → `read-writeOnce`, `read` → `read-only`, `write` → `write-only`,
//!   `readwrite` → `read-write`); one that means nothing is removed, so that the item
//!   inherits its access;
//! - a `<resetValue>` or `<resetMask>` wider than the register (`0xfffffffffffffff1` in a
//!   32-bit register): cut to the register's size (as imported: 24 bits are reached by a
//!   32-bit access, `convert.rs`);
//! - an empty `<resetValue>` or `<resetMask>`, or one that is no number (`0x`): read as
//!   missing (left out, so that the register inherits it, as the schema says of a missing
//!   one);
//! - a register `<size>` no bus access has (24 bits; 1 where a byte was meant): read as the
//!   size of the access that reaches it (32, 8), as the import gives such registers anyway;
//! - an `<enumeratedValue>` whose value does not fit its field: that value is left out (and
//!   its `<enumeratedValues>` when none is left).
//!
//! Only the size a register states itself, or inherits from its cluster, peripheral or
//! device, is used; a register with `derivedFrom` and no `<size>` is left as it is.

use svd_roxmltree::{Document, Node};

use super::lines::LineIndex;
use super::warnings::Warnings;
use crate::import::Treatment;

/// The parsed file, and where its lines start: what a warning needs to cite a node's line.
struct Source<'a, 'i> {
    doc: &'a Document<'i>,
    lines: &'a LineIndex,
}

/// The text of `doc` (`xml`, indexed by `lines`) with every repair applied; `None` when
/// nothing needed one.
pub(super) fn repair(
    xml: &str,
    doc: &Document,
    lines: &LineIndex,
    warnings: &mut Warnings,
) -> Option<String> {
    let src = Source { doc, lines };
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for node in doc.descendants().filter(Node::is_element) {
        match node.tag_name().name() {
            "access" => access(&src, node, warnings, &mut edits),
            "resetValue" | "resetMask" => reset(&src, node, warnings, &mut edits),
            "enumeratedValues" => enumerated(&src, node, warnings, &mut edits),
            "size" => size(&src, node, warnings, &mut edits),
            _ => {}
        }
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(xml.len());
    let mut at = 0;
    for (range, text) in edits {
        // Nested edits (a value inside a removed list): the outer one already covers it.
        if range.start < at {
            continue;
        }
        out.push_str(&xml[at..range.start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&xml[at..]);
    Some(out)
}

/// Reports a repair of `node`: at its item's path, as the other passes name items
/// (`UART.CH.CFG.EN`, array markers stripped; the device's name for a device-level
/// property), and at the line of `node` itself, so that the warning reads like every other
/// (`warning: FILE:LINE: UART.CH.CFG.EN: …`).
fn warn(src: &Source, node: Node, warnings: &mut Warnings, treatment: Treatment, message: String) {
    let line = src.lines.line(node.range().start);
    let path: Vec<String> = node
        .ancestors()
        .filter(|n| {
            matches!(
                n.tag_name().name(),
                "peripheral" | "cluster" | "register" | "field" | "enumeratedValue"
            )
        })
        .filter_map(|n| child_text(n, "name"))
        .map(super::strip_dim)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let at = if path.is_empty() {
        child_text(src.doc.root_element(), "name")
            .unwrap_or("device")
            .to_string()
    } else {
        path.join(".")
    };
    warnings.warn_at_line(treatment, at, line, message);
}

fn child<'a, 'i>(node: Node<'a, 'i>, tag: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|n| n.has_tag_name(tag))
}

fn child_text<'a>(node: Node<'a, '_>, tag: &str) -> Option<&'a str> {
    child(node, tag).and_then(|n| n.text()).map(str::trim)
}

/// The range of the element's text (its whole content, for a text-only element).
fn text_range(node: Node) -> Option<std::ops::Range<usize>> {
    let text = node.first_child().filter(Node::is_text)?;
    Some(text.range())
}

fn access(
    src: &Source,
    node: Node,
    warnings: &mut Warnings,
    edits: &mut Vec<(std::ops::Range<usize>, String)>,
) {
    let Some(text) = node.text().map(str::trim) else {
        return;
    };
    const CANONICAL: [&str; 5] = [
        "read-only",
        "write-only",
        "read-write",
        "writeOnce",
        "read-writeOnce",
    ];
    if CANONICAL.contains(&text) {
        return;
    }
    let folded: String = text
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    let meant = match folded.as_str() {
        "readonly" | "read" | "ro" | "r" => Some("read-only"),
        "writeonly" | "write" | "wo" | "w" => Some("write-only"),
        "readwrite" | "rw" | "writeread" => Some("read-write"),
        "writeonce" => Some("writeOnce"),
        "readwriteonce" => Some("read-writeOnce"),
        _ => None,
    };
    match (meant, text_range(node)) {
        (Some(meant), Some(range)) => {
            warn(
                src,
                node,
                warnings,
                Treatment::Repaired,
                format!("<access>{text}</access> read as `{meant}`"),
            );
            edits.push((range, meant.to_string()));
        }
        _ => {
            warn(
                src,
                node,
                warnings,
                Treatment::Repaired,
                format!(
                    "<access>{text}</access> is no access the schema knows: left out (the item \
                     inherits its access)"
                ),
            );
            edits.push((node.range(), String::new()));
        }
    }
}

/// The register size that applies at `node` (an element holding register properties):
/// its own `<size>`, or the nearest ancestor's. `None` when it cannot be known here.
fn size_at(node: Node) -> Option<u32> {
    let mut element = Some(node);
    while let Some(e) = element {
        if let Some(size) = child_text(e, "size") {
            return number(size).and_then(|s| u32::try_from(s).ok());
        }
        if e.attribute("derivedFrom").is_some() {
            return None;
        }
        element = e.parent_element();
        // `<registers>` and `<peripherals>` hold no properties.
        while let Some(p) = element.filter(|p| {
            matches!(
                p.tag_name().name(),
                "registers" | "peripherals" | "clusters"
            )
        }) {
            element = p.parent_element();
        }
    }
    None
}

/// A register size that no bus access has (24 bits, or 1 where the vendor meant a byte):
/// read as the access that reaches it, so that a reset value of that access's width is
/// not refused (svd-parser checks it against the declared size).
fn size(
    src: &Source,
    node: Node,
    warnings: &mut Warnings,
    edits: &mut Vec<(std::ops::Range<usize>, String)>,
) {
    // An `<addressBlock>`'s size counts bytes, not bits.
    let holds_properties = node.parent_element().is_some_and(|p| {
        matches!(
            p.tag_name().name(),
            "device" | "peripheral" | "cluster" | "register"
        )
    });
    let (Some(text), Some(range)) = (node.text().map(str::trim), text_range(node)) else {
        return;
    };
    let Some(declared) = number(text).and_then(|s| u32::try_from(s).ok()) else {
        return;
    };
    let Some(width) = super::access_width(declared).filter(|w| *w != declared) else {
        return;
    };
    if !holds_properties {
        return;
    }
    warn(
        src,
        node,
        warnings,
        Treatment::Repaired,
        format!(
            "<size>{text}</size>: no bus access of {declared} bits; read as {width}, the access \
             that reaches the register (bits {declared} and up reserved)"
        ),
    );
    edits.push((range, width.to_string()));
}

fn reset(
    src: &Source,
    node: Node,
    warnings: &mut Warnings,
    edits: &mut Vec<(std::ops::Range<usize>, String)>,
) {
    let Some(holder) = node.parent_element() else {
        return;
    };
    let tag = node.tag_name().name();
    if node.text().is_none_or(|t| t.trim().is_empty()) {
        // svd-parser refuses the whole file for it, though the schema's default (inherit,
        // else 0) is what an empty value can only have meant.
        warn(
            src,
            node,
            warnings,
            Treatment::Repaired,
            format!(
                "<{tag}> is empty: read as missing (the register inherits its cluster's, \
                 peripheral's or device's, else 0)"
            ),
        );
        edits.push((node.range(), String::new()));
        return;
    }
    let (Some(text), Some(range)) = (node.text().map(str::trim), text_range(node)) else {
        return;
    };
    if number(text).is_none() {
        // `0x` with no digits (a vendor file in the corpus), or any text that is no number:
        // svd-parser would refuse the whole file; the value alone is what is lost.
        warn(
            src,
            node,
            warnings,
            Treatment::Repaired,
            format!(
                "<{tag}>{text}</{tag}> is not a number: read as missing (the register \
                 inherits its cluster's, peripheral's or device's, else 0)"
            ),
        );
        edits.push((node.range(), String::new()));
        return;
    }
    // Against the width the import gives the register (24 bits are reached by 32).
    let (Some(value), Some(size)) = (number(text), size_at(holder).and_then(super::access_width))
    else {
        return;
    };
    if size >= 64 || value >> size == 0 {
        return;
    }
    let cut = value & ((1u64 << size) - 1);
    warn(
        src,
        node,
        warnings,
        Treatment::Repaired,
        format!("<{tag}>{text}</{tag}> does not fit in {size} bits: cut to {cut:#x}"),
    );
    edits.push((range, format!("{cut:#x}")));
}

/// The width of the field holding `values`, from its own bit position.
fn field_width(field: Node) -> Option<u32> {
    if let Some(width) = child_text(field, "bitWidth") {
        return number(width).and_then(|w| u32::try_from(w).ok());
    }
    if let (Some(msb), Some(lsb)) = (child_text(field, "msb"), child_text(field, "lsb")) {
        let (msb, lsb) = (number(msb)?, number(lsb)?);
        return u32::try_from(msb.checked_sub(lsb)? + 1).ok();
    }
    let range = child_text(field, "bitRange")?;
    let (msb, lsb) = range
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split_once(':')?;
    let (msb, lsb) = (number(msb)?, number(lsb)?);
    u32::try_from(msb.checked_sub(lsb)? + 1).ok()
}

fn enumerated(
    src: &Source,
    list: Node,
    warnings: &mut Warnings,
    edits: &mut Vec<(std::ops::Range<usize>, String)>,
) {
    let Some(field) = list.parent_element().filter(|f| f.has_tag_name("field")) else {
        return;
    };
    let Some(width) = field_width(field).filter(|w| *w < 64) else {
        return;
    };
    let values: Vec<Node> = list
        .children()
        .filter(|n| n.has_tag_name("enumeratedValue"))
        .collect();
    let mut removed = Vec::new();
    for value in &values {
        let Some(text) = child_text(*value, "value") else {
            continue;
        };
        let Some(number) = number(text) else {
            continue;
        };
        if number >> width != 0 {
            let name = child_text(*value, "name").unwrap_or("?");
            warn(
                src,
                *value,
                warnings,
                Treatment::LeftOut,
                format!(
                    "enumerated value `{name}` = {text} does not fit the {width}-bit field: left out"
                ),
            );
            removed.push(value.range());
        }
    }
    if removed.is_empty() {
        return;
    }
    if removed.len() == values.len() {
        edits.push((list.range(), String::new()));
    } else {
        edits.extend(removed.into_iter().map(|r| (r, String::new())));
    }
}

/// An SVD number: decimal, `0x` hexadecimal or `#`/`0b` binary (a binary pattern with `x`
/// don't-care bits is not a number).
fn number(text: &str) -> Option<u64> {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = text
        .strip_prefix('#')
        .or_else(|| text.strip_prefix("0b"))
        .or_else(|| text.strip_prefix("0B"))
    {
        u64::from_str_radix(bin, 2).ok()
    } else {
        text.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(xml: &str) -> (String, Vec<String>) {
        let mut warnings = Warnings::default();
        let doc = Document::parse(xml).expect("well-formed");
        let out = repair(xml, &doc, &LineIndex::new(xml), &mut warnings)
            .unwrap_or_else(|| xml.to_string());
        (
            out,
            warnings
                .into_vec()
                .iter()
                .map(|w| format!("{}: {w}", w.line.unwrap_or(0)))
                .collect(),
        )
    }

    #[test]
    fn access_spellings_read_as_meant() {
        let (out, warnings) = fixed(
            "<device>\n<register><name>R</name><access>read-writeonce</access></register>\n\
             <register><name>S</name><access>read</access></register></device>",
        );
        assert!(out.contains("<access>read-writeOnce</access>"), "{out}");
        assert!(out.contains("<access>read-only</access>"), "{out}");
        assert_eq!(
            warnings,
            [
                "2: R: <access>read-writeonce</access> read as `read-writeOnce`",
                "3: S: <access>read</access> read as `read-only`",
            ]
        );
    }

    #[test]
    fn resets_cut_and_wide_values_left_out() {
        let (out, warnings) = fixed(
            "<device><size>32</size><register><name>R</name>\
             <resetValue>0xfffffffffffffff1</resetValue>\
             <fields><field><name>F</name><bitOffset>0</bitOffset><bitWidth>1</bitWidth>\
             <enumeratedValues><enumeratedValue><name>A</name><value>1</value></enumeratedValue>\
             <enumeratedValue><name>B</name><value>2</value></enumeratedValue></enumeratedValues>\
             </field></fields></register></device>",
        );
        assert!(out.contains("<resetValue>0xfffffff1</resetValue>"), "{out}");
        assert!(
            out.contains("<name>A</name>") && !out.contains("<name>B</name>"),
            "{out}"
        );
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("does not fit in 32 bits: cut to 0xfffffff1"));
        assert!(warnings[1].contains("1: R.F.B: enumerated value `B` = 2 does not fit"));
    }
}
