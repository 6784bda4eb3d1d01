//! Vendor descriptions as text. CMSIS-SVD descriptions are XML character data that vendors
//! format for their own tools: a literal `\n` (backslash, n) where a line should break, and
//! continuation lines indented to the XML's nesting. Carried as written, both reach every
//! output (rustdoc showed `\n` and indented lines as code blocks). Here, as svd2rust's
//! escaping does, each `\n` ends a paragraph, and the whitespace within a paragraph (the
//! XML's line breaks and indentation) is one space; a description without `\n` loses only
//! the indentation its continuation lines share (so that our own SVD output, which writes
//! paragraphs and list items as real lines, reads back as it was written).

/// The description `raw` as plain text: paragraphs separated by blank lines.
pub(super) fn description(raw: &str) -> String {
    let raw = raw.trim();
    if raw.contains("\\n") {
        return raw
            .split("\\n")
            .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|paragraph| !paragraph.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n");
    }
    dedent(raw)
}

/// Columns of shared indentation taken for the XML's, not the author's.
const XML_NESTING: usize = 4;

/// Lines after the first lose the indentation they all share (blank lines aside) when it is
/// the XML's; trailing whitespace goes.
fn dedent(text: &str) -> String {
    let mut lines = text.lines();
    let Some(first) = lines.next() else {
        return String::new();
    };
    let rest: Vec<&str> = lines.collect();
    let indent = rest
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    // Less than the XML's nesting (an element's text is at least 3 levels deep) is the
    // author's own: a list item's continuation, which Markdown reads by its indentation.
    let indent = if indent >= XML_NESTING { indent } else { 0 };
    let mut out = first.trim_end().to_string();
    for line in rest {
        out.push('\n');
        if !line.trim().is_empty() {
            // The shared indentation is whitespace, so the cut falls on a char boundary.
            out.push_str(line.get(indent..).unwrap_or(line).trim_end());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::description;

    /// rp2040.svd's style: `\n` at each line's end, continuation lines indented.
    #[test]
    fn svd_line_breaks_become_paragraphs_and_indentation_goes() {
        assert_eq!(
            description(
                "Control and Status\\n\n            GENERAL CONSTRAINTS:\\n\n            \
                 Reference clock frequency min=5MHz, max=800MHz"
            ),
            "Control and Status\n\nGENERAL CONSTRAINTS:\n\nReference clock frequency min=5MHz, max=800MHz"
        );
        assert_eq!(description("a\\n\\nb\\n"), "a\n\nb");
        assert_eq!(
            description("one\n      paragraph\\nnext"),
            "one paragraph\n\nnext"
        );
    }

    #[test]
    fn text_without_escapes_loses_only_shared_indentation() {
        assert_eq!(
            description("First line\n        second\n          nested\n\n        last"),
            "First line\nsecond\n  nested\n\nlast"
        );
        assert_eq!(description("- item\n  continued"), "- item\n  continued");
        assert_eq!(description("plain"), "plain");
    }
}
