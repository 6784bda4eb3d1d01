//! Where each item is in the SVD file, so that a warning can cite its line: svd-parser keeps
//! no positions, so the importer's own parse of the file (roxmltree) gives the line of every device,
//! peripheral, cluster, register, field and enumerated value, by the path the importer's
//! warnings name items with (`TIMER0.CH.CFG.EN`, and `TIMER0.CH_CFG` for a register as
//! flattened). An item the file does not name as such (an element of an expanded array, a
//! register of a derived peripheral, a merged or renamed item) cites the nearest enclosing
//! item that it does name.

use std::collections::HashMap;

use svd_roxmltree::{Document, Node};

use super::strip_dim;
use crate::import::Warning;

/// The 1-based line of a byte offset of a text, by a binary search over where its lines
/// start. roxmltree's `text_pos_at` counts the newlines from the start of the text at every
/// call ("very expensive, use only for errors"), which made citing the line of every item
/// quadratic: 93 % of a 7.5 MiB file's 36 s import.
#[derive(Debug)]
pub(super) struct LineIndex(Vec<usize>);

impl LineIndex {
    pub(super) fn new(text: &str) -> Self {
        LineIndex(
            text.bytes()
                .enumerate()
                .filter_map(|(i, b)| (b == b'\n').then_some(i))
                .collect(),
        )
    }

    /// The line `offset` is on: one more than the newlines before it, as roxmltree counts.
    pub(super) fn line(&self, offset: usize) -> u32 {
        let newlines = self.0.partition_point(|&newline| newline < offset);
        u32::try_from(newlines + 1).unwrap_or(u32::MAX)
    }
}

/// Line of each item, by path.
#[derive(Debug, Default)]
pub(super) struct Lines(HashMap<String, u32>);

impl Lines {
    /// The items of `doc`, whose text `index` indexes.
    pub(super) fn of(doc: &Document, index: &LineIndex) -> Self {
        let mut lines = Lines::default();
        let root = doc.root_element();
        if let Some(name) = name(root) {
            lines.add(index, root, name.to_string());
        }
        for peripherals in root.children().filter(|n| n.has_tag_name("peripherals")) {
            for p in peripherals
                .children()
                .filter(|n| n.has_tag_name("peripheral"))
            {
                let Some(p_name) = name(p) else { continue };
                let path = strip_dim(p_name);
                lines.add(index, p, path.clone());
                if let Some(registers) = child(p, "registers") {
                    lines.children(index, registers, &path, &path, "");
                }
            }
        }
        lines
    }

    /// Clusters and registers under `node`: `dotted` is the parent's path, `flat` its
    /// peripheral's and `prefix` the cluster names a flattened register name starts with.
    fn children(&mut self, index: &LineIndex, node: Node, dotted: &str, flat: &str, prefix: &str) {
        for item in node.children().filter(Node::is_element) {
            let Some(item_name) = name(item) else {
                continue;
            };
            let own = strip_dim(item_name);
            let path = format!("{dotted}.{own}");
            match item.tag_name().name() {
                "cluster" => {
                    self.add(index, item, path.clone());
                    self.children(index, item, &path, flat, &format!("{prefix}{own}_"));
                }
                "register" => {
                    self.add(index, item, path.clone());
                    self.add(index, item, format!("{flat}.{prefix}{own}"));
                    for fields in item.children().filter(|n| n.has_tag_name("fields")) {
                        for field in fields.children().filter(|n| n.has_tag_name("field")) {
                            let Some(field_name) = self::name(field) else {
                                continue;
                            };
                            let field_path = format!("{path}.{}", strip_dim(field_name));
                            self.add(index, field, field_path.clone());
                            for values in field
                                .children()
                                .filter(|n| n.has_tag_name("enumeratedValues"))
                            {
                                for value in values
                                    .children()
                                    .filter(|n| n.has_tag_name("enumeratedValue"))
                                {
                                    if let Some(name) = self::name(value) {
                                        self.add(index, value, format!("{field_path}.{name}"));
                                    }
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The first item of a path keeps it: the one a reader finds first.
    fn add(&mut self, index: &LineIndex, node: Node, path: String) {
        let at = child(node, "name").unwrap_or(node);
        let line = index.line(at.range().start);
        self.0.entry(path).or_insert(line);
    }

    /// The line of the item at `path`, or of the nearest enclosing item the file names.
    pub(super) fn find(&self, path: &str) -> Option<u32> {
        let mut path = path;
        loop {
            if let Some(&line) = self.0.get(path) {
                return Some(line);
            }
            path = &path[..path.rfind('.')?];
        }
    }

    /// Gives every warning that has no line yet the line of the item it names.
    pub(super) fn cite(&self, warnings: &mut [Warning]) {
        for warning in warnings {
            if warning.line.is_none() {
                warning.line = self.find(&warning.at);
            }
        }
    }
}

fn child<'a, 'i>(node: Node<'a, 'i>, tag: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|n| n.has_tag_name(tag))
}

fn name<'a>(node: Node<'a, '_>) -> Option<&'a str> {
    child(node, "name").and_then(|n| n.text()).map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::{LineIndex, Lines};

    /// The index gives the line roxmltree's own (linear) count gives, at every offset.
    #[test]
    fn the_line_index_agrees_with_roxmltree_everywhere() {
        let xml = "<a>\n<b/>\r\n\n<c>x\ny</c>\r\n<!-- \n -->\n</a>\n";
        let doc = svd_roxmltree::Document::parse(xml).expect("well-formed");
        let index = LineIndex::new(xml);
        for offset in 0..=xml.len() {
            assert_eq!(
                index.line(offset),
                doc.text_pos_at(offset).row,
                "offset {offset}"
            );
        }
    }

    const SVD: &str = "<device>\n<name>chip</name>\n<peripherals>\n<peripheral>\n\
        <name>UART[%s]</name>\n<registers>\n<cluster>\n<name>CH</name>\n<register>\n\
        <name>CFG</name>\n<fields><field>\n<name>EN</name>\n<enumeratedValues>\n\
        <enumeratedValue>\n<name>ON</name>\n</enumeratedValue>\n</enumeratedValues>\n\
        </field></fields>\n</register>\n</cluster>\n</registers>\n</peripheral>\n\
        </peripherals>\n</device>\n";

    #[test]
    fn paths_dotted_and_flattened_and_the_nearest_enclosing_item() {
        let doc = svd_roxmltree::Document::parse(SVD).expect("well-formed");
        let lines = Lines::of(&doc, &LineIndex::new(SVD));
        assert_eq!(lines.find("chip"), Some(2));
        assert_eq!(lines.find("UART"), Some(5));
        assert_eq!(lines.find("UART.CH"), Some(8));
        assert_eq!(lines.find("UART.CH.CFG"), Some(10));
        assert_eq!(lines.find("UART.CH_CFG"), Some(10));
        assert_eq!(lines.find("UART.CH.CFG.EN"), Some(12));
        assert_eq!(lines.find("UART.CH.CFG.EN.ON"), Some(15));
        assert_eq!(
            lines.find("UART.CH.CFG.EN.OFF"),
            Some(12),
            "the field's line"
        );
        assert_eq!(lines.find("UART.GONE"), Some(5), "the peripheral's line");
        assert_eq!(lines.find("OTHER"), None);
    }
}
