//! Spec text and numbers as Markdown and XML.

/// `0x4742_4131`: hexadecimal with `_` every four digits, as the spec writes numbers.
pub(super) fn hex(value: u64) -> String {
    let digits = format!("{value:X}");
    let mut grouped = String::from("0x");
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 4 == 0 {
            grouped.push('_');
        }
        grouped.push(c);
    }
    grouped
}

/// Inline text with Markdown's markup characters escaped, and `<`/`&` as entities so that no
/// HTML is read into it. `_` between letters stays: CommonMark does not emphasise inside
/// words, and register names are full of it.
pub(super) fn escape(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '_' => {
                let word = |j: Option<usize>| {
                    j.and_then(|j| chars.get(j))
                        .is_some_and(|c| c.is_alphanumeric())
                };
                if !(word(i.checked_sub(1)) && word(Some(i + 1))) {
                    out.push('\\');
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// A table cell: one line (a newline would end the row).
pub(super) fn cell(text: &str) -> String {
    escape(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Block text: the spec's paragraphs (separated by blank lines) as Markdown paragraphs, each
/// joined into one line so that a line of the spec cannot start a list or a heading; the
/// start of each paragraph is escaped for the same reason.
pub(super) fn paragraphs(text: &str) -> String {
    let mut out = String::new();
    let mut paragraph: Vec<&str> = Vec::new();
    for line in text.lines().chain(std::iter::once("")) {
        if line.trim().is_empty() {
            if !paragraph.is_empty() {
                let joined = escape(&paragraph.join(" "));
                out.push_str(&block_start(&joined));
                out.push_str("\n\n");
                paragraph.clear();
            }
        } else {
            paragraph.push(line.trim());
        }
    }
    out
}

/// Escapes what would make a paragraph a heading, quote, list or rule: a leading `#`, `>`,
/// `-`, `+`, `=`, or a number followed by `.` or `)`.
fn block_start(paragraph: &str) -> String {
    if paragraph.starts_with(['#', '>', '-', '+', '=']) {
        return format!("\\{paragraph}");
    }
    let digits = paragraph.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && paragraph[digits..].starts_with(['.', ')']) {
        return format!("{}\\{}", &paragraph[..digits], &paragraph[digits..]);
    }
    paragraph.to_string()
}

/// Text for XML content and attribute values.
pub(super) fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_group_by_four_digits() {
        assert_eq!(hex(0), "0x0");
        assert_eq!(hex(0x4742_4131), "0x4742_4131");
        assert_eq!(hex(0x2_C420), "0x2_C420");
    }

    #[test]
    fn markup_is_escaped_but_names_stay_readable() {
        assert_eq!(escape("MEMBER_MASK's bit"), "MEMBER_MASK's bit");
        assert_eq!(escape("a | b * c"), "a \\| b \\* c");
        assert_eq!(escape("id << 32 & _x_"), "id &lt;&lt; 32 &amp; \\_x\\_");
        assert_eq!(cell("two\nlines"), "two lines");
    }

    #[test]
    fn paragraphs_cannot_become_other_blocks() {
        assert_eq!(
            paragraphs("# one\nline\n\n1. two"),
            "\\# one line\n\n1\\. two\n\n"
        );
        assert_eq!(paragraphs("- item"), "\\- item\n\n");
    }

    #[test]
    fn xml_text_is_escaped() {
        assert_eq!(xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
