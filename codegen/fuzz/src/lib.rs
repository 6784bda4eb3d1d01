//! What both fuzz targets share: the property checked on each input, and the line-edit
//! mutator of the structured target.

use gba_codegen::Style;
use gba_codegen::diagnostic;

/// The property: parsing never panics, a failure always comes with at least one diagnostic,
/// and the diagnostics render (in both styles) without panicking.
pub fn check(text: &str) {
    match gba_codegen::parse_str(text) {
        Ok(device) => {
            // A spec compared with itself has no change: exercises the whole diff walk.
            let diff = gba_codegen::diff::compare(&device, &device);
            assert!(diff.changes.is_empty(), "self-diff: {:?}", diff.changes);
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "Err without a diagnostic");
            for style in [Style::Plain, Style::Color] {
                let rendered = diagnostic::render(&diagnostics, "fuzz.yaml", text, style);
                assert!(rendered.contains("problem"));
            }
        }
    }
}

const SEEDS: [&str; 2] = [
    include_str!("../../../gba.yaml"),
    include_str!("../../../tests/fixtures/uart/uart.yaml"),
];

/// Values that the structured target writes in place of a line's value: boundaries of every
/// numeric check, every keyword, and shapes of the wrong type.
const VALUES: &[&str] = &[
    "0",
    "1",
    "7",
    "8",
    "63",
    "64",
    "65",
    "0x1000",
    "0xFFFF_FFFF",
    "0x1_0000_0000",
    "0xFFFF_FFFF_FFFF_FFFF",
    "0x1_0000_0000_0000_0000",
    "18446744073709551615",
    "-1",
    "-9223372036854775808",
    "170141183460469231731687303715884105727",
    "340282366920938463463374607431768211456",
    "1.5",
    "\"63:0\"",
    "\"64:0\"",
    "\"0:63\"",
    "\"4294967295:0\"",
    "\"4294967295:4294967295\"",
    "\"[7:4]\"",
    "\":\"",
    "\"3\"",
    "ro",
    "wo",
    "rw",
    "w1c",
    "w1s",
    "rc",
    "true",
    "~",
    "\"\"",
    "[]",
    "{}",
    "[1, 2]",
    "{ name: X }",
    "SET",
    "as_ptr",
    "type",
    "Ünïcödé",
    "\"a\\tb\"",
    "&a 1",
    "*a",
    "!!binary aGVsbG8=",
    "|\n  block",
];

/// Applies the edits that `data` encodes to one of the seeds. Each edit is 3 bytes:
/// operation, line, argument (line numbers and arguments wrap, so every input is valid).
pub fn mutate(data: &[u8]) -> String {
    let (seed, edits) = match data.split_first() {
        Some((first, rest)) => (SEEDS[usize::from(*first) % SEEDS.len()], rest),
        None => (SEEDS[0], data),
    };
    let mut lines: Vec<String> = seed.lines().map(str::to_string).collect();
    for edit in edits.chunks_exact(3) {
        if lines.is_empty() {
            break;
        }
        let (op, line, arg) = (edit[0], usize::from(edit[1]), usize::from(edit[2]));
        // Spread line choices over the whole file, not only its first 256 lines.
        let at = (line * lines.len() / 256).min(lines.len() - 1);
        let other = (arg * lines.len() / 256).min(lines.len() - 1);
        match op % 6 {
            0 => {
                lines.remove(at);
            }
            1 => {
                let copy = lines[at].clone();
                lines.insert(other, copy);
            }
            2 => {
                let value = VALUES[arg % VALUES.len()];
                lines[at] = match lines[at].split_once(": ") {
                    Some((key, _)) => format!("{key}: {value}"),
                    None => format!("{}{value}", lines[at]),
                };
            }
            3 => lines.swap(at, other),
            4 => {
                // Change the indentation, which moves a key to another mapping.
                let trimmed = lines[at].trim_start().to_string();
                lines[at] = format!("{}{trimmed}", " ".repeat(arg % 16));
            }
            _ => {
                // Rename a key: unknown keys, typos and case changes.
                if let Some((key, value)) = lines[at].split_once(':') {
                    let indent = key.len() - key.trim_start().len();
                    let mut key = key.trim_start().to_string();
                    match arg % 3 {
                        0 => key.push('x'),
                        1 => key = key.to_uppercase(),
                        _ => key.truncate(key.len() / 2),
                    }
                    lines[at] = format!("{}{key}:{value}", " ".repeat(indent));
                }
            }
        }
    }
    lines.join("\n")
}
