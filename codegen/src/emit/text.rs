//! Descriptions made safe for the text each output embeds them in. A description is free
//! text from the spec; each output has characters or patterns it cannot carry as they are.

use crate::model::Device;

/// A copy of `device` with every description passed through `f` (names and numbers are left
/// alone: validation made them identifiers).
pub(super) fn map_descriptions(device: &Device, f: fn(&str) -> String) -> Device {
    let mut device = device.clone();
    device.description = f(&device.description);
    for constant in &mut device.constants {
        constant.description = f(&constant.description);
    }
    for interrupt in &mut device.interrupts {
        interrupt.description = f(&interrupt.description);
    }
    for block in &mut device.blocks {
        block.description = f(&block.description);
        for register in &mut block.registers {
            register.description = f(&register.description);
            for field in &mut register.fields {
                field.description = f(&field.description);
                for value in &mut field.values {
                    value.description = f(&value.description);
                }
            }
        }
    }
    device
}

/// Line breaks as `\n` (a lone `\r` too), and every other control character as a space.
fn plain(text: &str) -> String {
    text.replace("\r\n", "\n")
        .chars()
        .map(|c| match c {
            '\r' => '\n',
            '\n' => '\n',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// Text for a `///` comment: rustc refuses a bare carriage return in a doc comment, and
/// rustdoc runs an indented or fenced code block as a doctest. A line indented 4 columns or
/// more starts a code block only where a paragraph cannot go on (first, after a blank line, a
/// heading or a rule): such a line loses its indentation; elsewhere indentation is kept (it
/// continues a paragraph or a list item). A fence is escaped (Markdown shows it as typed).
pub(super) fn rustdoc(text: &str) -> String {
    let mut out = Vec::new();
    let mut paragraph_open = false;
    for line in plain(text).lines() {
        let line = line.trim_end();
        let body = line.trim_start();
        // `plain` made tabs spaces.
        let columns = line[..line.len() - body.len()].chars().count();
        let line = if columns >= 4 && !paragraph_open {
            body
        } else {
            line
        };
        let fence = body.starts_with("```") || body.starts_with("~~~");
        out.push(if fence {
            line.replacen(body, &format!("\\{body}"), 1)
        } else {
            escape_brackets(line)
        });
        let rule = !body.is_empty() && body.chars().all(|c| "-*_= ".contains(c));
        paragraph_open = !body.is_empty() && !body.starts_with('#') && !rule;
    }
    out.join("\n")
}

/// `[` and `]` outside code spans escaped: rustdoc reads `[n]` or `[7:0]` in a vendor's
/// description as an intra-doc link and warns that it resolves to nothing (svd2rust escapes
/// them too). Markdown shows `\[` as `[`.
fn escape_brackets(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    let mut escaped = false;
    for c in line.chars() {
        match c {
            '`' if !escaped => in_code = !in_code,
            '[' | ']' if !in_code && !escaped => out.push('\\'),
            _ => {}
        }
        escaped = c == '\\' && !escaped && !in_code;
        out.push(c);
    }
    out
}

/// Text for a C comment: no control characters (a NUL or form feed draws a warning).
pub(super) fn c_comment(text: &str) -> String {
    plain(text)
}

/// Text for Markdown: no control characters.
pub(super) fn markdown(text: &str) -> String {
    plain(text)
}

/// Text for XML character data: XML 1.0 cannot hold control characters other than tab and
/// line feed (and a carriage return would be read back as a line feed).
pub(super) fn xml(text: &str) -> String {
    plain(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustdoc_has_no_carriage_return_code_block_or_fence() {
        assert_eq!(rustdoc("a\r\nb\rc"), "a\nb\nc");
        assert_eq!(rustdoc("text\n\n    let x = 1;"), "text\n\nlet x = 1;");
        assert_eq!(rustdoc("     code\n# T\n    code"), "code\n# T\ncode");
        // Continuation lines keep their indentation: they cannot start a code block.
        assert_eq!(rustdoc("- item\n        more"), "- item\n        more");
        assert_eq!(rustdoc("```\ncode\n  ~~~"), "\\```\ncode\n  \\~~~");
        assert_eq!(rustdoc("nul\0 and feed\x0c"), "nul  and feed");
    }

    #[test]
    fn rustdoc_brackets_are_not_links_outside_code() {
        assert_eq!(
            rustdoc("bits [7:0] of CH[n]"),
            "bits \\[7:0\\] of CH\\[n\\]"
        );
        assert_eq!(rustdoc("`a[0]` and [x]"), "`a[0]` and \\[x\\]");
        assert_eq!(rustdoc("already \\[n\\]"), "already \\[n\\]");
    }

    #[test]
    fn xml_and_c_lose_control_characters_only() {
        assert_eq!(xml("a\x0cb\0c\td\r\ne"), "a b c d\ne");
        assert_eq!(c_comment("x\x0c/* y"), "x /* y");
    }
}
