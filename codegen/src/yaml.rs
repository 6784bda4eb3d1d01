//! The spec file as a tree of YAML nodes, each with its location.
//!
//! The spec is read in two steps: serde-saphyr turns the text into this tree (only malformed
//! YAML fails here), then `parse` walks the tree and reports *every* unknown key, wrong type
//! and missing key in one run, which a derived `Deserialize` (stopping at the first error)
//! cannot do.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::diagnostic::Diagnostic;
use crate::location::{Loc, Located};

/// One YAML node.
#[derive(Debug)]
pub enum Node {
    Map(Vec<(Located<String>, Located<Node>)>),
    Seq(Vec<Located<Node>>),
    Str(String),
    Int(i128),
    /// A floating-point number: the spec has none, so only its kind is kept for the error.
    Float,
    /// A boolean: where the spec takes one, its value is read from the text.
    Bool,
    Null,
}

impl Node {
    /// What kind of value this is, as a user would say it in an error message.
    pub fn kind(&self) -> &'static str {
        match self {
            Node::Map(_) => "a mapping",
            Node::Seq(_) => "a list",
            Node::Str(_) => "a string",
            Node::Int(_) => "an integer",
            Node::Float => "a floating-point number",
            Node::Bool => "a boolean",
            Node::Null => "nothing (null)",
        }
    }
}

/// YAML nodes (mappings, sequences and scalars) one spec may have. A field written in flow
/// style (`{ name: X, bits: 3, access: ro, description: … }`) is about a dozen nodes, so this
/// admits specs of 300,000 fields, three times the largest vendor descriptions (~100,000
/// fields); the parser's own default (250,000) refused a 40,000-field spec.
pub const MAX_NODES: usize = 4_000_000;

/// Parser events (a node's start and end, scalars) one spec may have.
pub const MAX_EVENTS: usize = 2 * MAX_NODES;

/// Events that aliases (`*name`) may replay in all, the defence against alias bombs (a few
/// kilobytes of nested aliases that expand to billions of nodes): the parser's default.
pub const MAX_ALIAS_REPLAYED_EVENTS: usize = 1_000_000;

/// Nesting of mappings and lists; a spec needs 8.
pub const MAX_DEPTH: usize = 64;

fn options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_nodes = MAX_NODES;
    budget.max_events = MAX_EVENTS;
    budget.max_depth = MAX_DEPTH;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.alias_limits.max_total_replayed_events = MAX_ALIAS_REPLAYED_EVENTS;
    // Repeated keys reach `parse`, which reports them in the spec's terms, with both places.
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    options
}

/// Parses YAML text into a located node tree.
pub fn parse_tree(text: &str) -> Result<Located<Node>, Box<Diagnostic>> {
    match serde_saphyr::from_str_with_options::<Spanned<SpannedNode>>(text, options()) {
        Ok(root) => Ok(located(root, text)),
        Err(error) => {
            let loc = error
                .location()
                .map(|l| Loc::from_saphyr(&l, text))
                .unwrap_or_default();
            let message = first_line(&error.to_string());
            let limit = ["budget breached", "alias", "recursion limit"];
            let diagnostic = if limit.iter().any(|l| message.contains(l)) {
                // A limit, not a syntax error: say which, in the spec's terms.
                Diagnostic::error(
                    "the spec exceeds a limit of the YAML reader",
                    loc,
                    "the reader stopped here",
                )
                .note(format!("the reader said: {message}"))
                .note(format!(
                    "limits: {MAX_NODES} YAML nodes, {MAX_EVENTS} events, \
                     {MAX_ALIAS_REPLAYED_EVENTS} events replayed by aliases, nesting {MAX_DEPTH} \
                     (docs/spec-format.md, \"Implementation limits\")"
                ))
            } else {
                Diagnostic::error(
                    format!("malformed YAML: {message}"),
                    loc,
                    "the YAML parser stopped here",
                )
            };
            Err(Box::new(diagnostic))
        }
    }
}

/// serde-saphyr's messages repeat the location and a snippet after the first line; the
/// diagnostic renders its own snippet, so keep only the message itself.
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or(message);
    // "error: line 3 column 5: <message>" -> "<message>"
    let line = line.strip_prefix("error: ").unwrap_or(line);
    match line.find(": ") {
        Some(index) if line.starts_with("line ") => line[index + 2..].to_string(),
        _ => line.to_string(),
    }
}

/// The serde-facing twin of [`Node`]; converted once, right after parsing.
enum SpannedNode {
    Map(Vec<(Spanned<String>, Spanned<SpannedNode>)>),
    Seq(Vec<Spanned<SpannedNode>>),
    Scalar(Node),
}

fn located(spanned: Spanned<SpannedNode>, text: &str) -> Located<Node> {
    let loc = Loc::from_saphyr(&spanned.referenced, text);
    let node = match spanned.value {
        SpannedNode::Map(entries) => Node::Map(
            entries
                .into_iter()
                .map(|(key, value)| {
                    (
                        Located::new(key.value, Loc::from_saphyr(&key.referenced, text)),
                        located(value, text),
                    )
                })
                .collect(),
        ),
        SpannedNode::Seq(items) => {
            Node::Seq(items.into_iter().map(|item| located(item, text)).collect())
        }
        SpannedNode::Scalar(node) => node,
    };
    Located::new(node, loc)
}

impl<'de> Deserialize<'de> for SpannedNode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = SpannedNode;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Bool))
    }
    fn visit_i64<E>(self, v: i64) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Int(v.into())))
    }
    fn visit_u64<E>(self, v: u64) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Int(v.into())))
    }
    fn visit_i128<E>(self, v: i128) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Int(v)))
    }
    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<SpannedNode, E> {
        i128::try_from(v)
            .map(|v| SpannedNode::Scalar(Node::Int(v)))
            .map_err(|_| E::custom("integer too large"))
    }
    fn visit_f64<E>(self, _: f64) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Float))
    }
    fn visit_str<E>(self, v: &str) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Str(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Str(v)))
    }
    fn visit_unit<E>(self) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Null))
    }
    fn visit_none<E>(self) -> Result<SpannedNode, E> {
        Ok(SpannedNode::Scalar(Node::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<SpannedNode, D::Error> {
        SpannedNode::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SpannedNode, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(SpannedNode::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SpannedNode, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(SpannedNode::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real devices reach ~100,000 fields, a dozen YAML nodes each: well past the YAML
    /// parser's default budget of 250,000 nodes, which refused a 40,000-field spec. (An alias
    /// bomb is still refused: tests/robustness.rs. `gba check` of a 100,000-field spec is
    /// measured in tests/bench/README.md.)
    #[test]
    fn the_parser_admits_real_device_sizes() {
        let nodes = 400_000;
        let text = format!("[{}]", vec!["0"; nodes - 1].join(","));
        let tree = parse_tree(&text).unwrap_or_else(|d| panic!("{}", d.message));
        match tree.value {
            Node::Seq(items) => assert_eq!(items.len(), nodes - 1),
            other => panic!("{other:?}"),
        }
    }
}
