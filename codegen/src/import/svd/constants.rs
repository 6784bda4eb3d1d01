//! The constants that our own SVD emitter writes under `<vendorExtensions><constants>`, which
//! svd-parser does not read.

use super::warnings::Warnings;
use crate::import::Treatment;
use crate::location::Located;
use crate::model::Constant;

/// The constants that our SVD emitter writes under `<vendorExtensions><constants>`.
pub(super) fn constants(xml: &str, warnings: &mut Warnings) -> Vec<Constant> {
    let Ok(doc) = roxmltree::Document::parse(xml) else {
        return Vec::new();
    };
    let Some(list) = doc
        .root_element()
        .children()
        .find(|n| n.has_tag_name("vendorExtensions"))
        .and_then(|ext| {
            ext.children()
                .find(|n| n.has_tag_name(crate::emit::svd::CONSTANTS_TAG))
        })
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for node in list.children().filter(|n| n.has_tag_name("constant")) {
        let text = |tag: &str| {
            node.children()
                .find(|n| n.has_tag_name(tag))
                .and_then(|n| n.text())
                .map(str::trim)
        };
        let name = text("name").unwrap_or_default();
        let value = text("value").and_then(parse_number);
        match (name.is_empty(), value) {
            (false, Some(value)) => out.push(Constant {
                name: Located::synthetic(name.to_string()),
                value: Located::synthetic(value),
                description: text("description").unwrap_or_default().to_string(),
            }),
            _ => warnings.warn(
                Treatment::LeftOut,
                "vendorExtensions.constants",
                format!("constant `{name}` has no usable name and value: left out"),
            ),
        }
    }
    out
}

fn parse_number(text: &str) -> Option<u64> {
    let text = text.replace('_', "");
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}
