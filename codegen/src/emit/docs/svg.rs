//! A register's bitfield diagram: bit numbers on top, one box per field over its bits with
//! its name, access, side effect and reset value, hatched boxes for reserved bits. Rows hold
//! 32 bits at most, most significant bit first, so a 64-bit register takes two rows.
//!
//! Coordinates are integers and text widths are estimated from character counts in a
//! monospace font: no font metrics, so the output is the same on every machine.

use std::fmt::Write as _;

use super::text::{hex, xml};
use crate::emit::Provenance;
use crate::location::Located;
use crate::model::{BitRange, Block, Field, Register};

/// Width of one bit.
const CELL: u32 = 28;
const MARGIN: u32 = 12;
const TITLE_SIZE: u32 = 13;
const NAME_SIZE: u32 = 12;
const SMALL_SIZE: u32 = 10;
/// Height of the title line and of the bit-number line above each row.
const TITLE_H: u32 = 24;
const NUMBERS_H: u32 = 14;
/// Height of one small text line under a field's name (access, side effect, reset).
const LINE_H: u32 = 12;
const ROW_GAP: u32 = 14;
const BITS_PER_ROW: u32 = 32;

/// Estimated width of `chars` characters of monospace text (0.6 em each).
fn text_width(chars: usize, size: u32) -> u32 {
    u32::try_from(chars)
        .unwrap_or(u32::MAX)
        .saturating_mul(size * 3)
        .div_ceil(5)
}

/// A run of bits in one row: part of a field, or reserved.
struct Segment<'a> {
    msb: u32,
    lsb: u32,
    field: Option<&'a Field>,
}

impl Segment<'_> {
    fn bits(&self) -> u32 {
        self.msb - self.lsb + 1
    }
    fn label(&self) -> &str {
        self.field.map_or("reserved", |f| f.name.as_str())
    }
}

struct Row<'a> {
    msb: u32,
    lsb: u32,
    segments: Vec<Segment<'a>>,
}

/// The rows of a register, most significant first, each as segments from its top bit down.
fn rows(register: &Register) -> Vec<Row<'_>> {
    let width = (*register.width).clamp(1, 64);
    let mut rows = Vec::new();
    let mut top = width;
    while top > 0 {
        let row_lsb = top.saturating_sub(BITS_PER_ROW);
        let row_msb = top - 1;
        let mut segments = Vec::new();
        let mut bit = row_msb as i64;
        while bit >= i64::from(row_lsb) {
            let b = bit as u32;
            let field = register
                .fields
                .iter()
                .find(|f| f.bits.lsb <= b && b <= f.bits.msb);
            let lsb = match field {
                Some(f) => f.bits.lsb.max(row_lsb),
                // Reserved down to the next field's top bit, or to the row's end.
                None => register
                    .fields
                    .iter()
                    .filter(|f| f.bits.msb < b)
                    .map(|f| f.bits.msb + 1)
                    .max()
                    .unwrap_or(0)
                    .max(row_lsb),
            };
            segments.push(Segment { msb: b, lsb, field });
            bit = i64::from(lsb) - 1;
        }
        rows.push(Row {
            msb: row_msb,
            lsb: row_lsb,
            segments,
        });
        top = row_lsb;
    }
    rows
}

pub(super) fn diagram(block: &Block, register: &Register, provenance: &Provenance) -> String {
    // A register without fields is one value: one box named after the register, not a
    // register of reserved bits.
    let whole;
    let register = if register.fields.is_empty() {
        whole = Register {
            fields: vec![Field {
                name: register.name.clone(),
                description: register.description.clone(),
                bits: Located::synthetic(BitRange {
                    msb: (*register.width).clamp(1, 64) - 1,
                    lsb: 0,
                }),
                access: None,
                side_effect: None,
                write_once: false,
                msb0: false,
                reset_from: None,
                values: Vec::new(),
                write_values: Vec::new(),
                hardware: Default::default(),
            }],
            ..register.clone()
        };
        &whole
    } else {
        register
    };
    let rows = rows(register);
    let row_bits = (*register.width).clamp(1, BITS_PER_ROW);
    let title = format!(
        "{}.{}: {}-bit, {}, reset {}",
        *block.name,
        *register.name,
        *register.width,
        register.access.keyword(),
        hex(*register.reset)
    );
    // A name that does not fit across its box is written upwards; the boxes are tall
    // enough for the longest such name.
    let name_h = rows
        .iter()
        .flat_map(|row| &row.segments)
        .filter(|s| s.field.is_some() && !fits_across(s))
        .map(|s| text_width(s.label().len(), NAME_SIZE) + 10)
        .max()
        .unwrap_or(0)
        .max(22);
    let box_h = name_h + 3 * LINE_H + 6;
    let row_h = NUMBERS_H + box_h + ROW_GAP;
    let rows_count = u32::try_from(rows.len()).unwrap_or(1);
    let width = (row_bits * CELL).max(text_width(title.len(), TITLE_SIZE)) + 2 * MARGIN;
    let height = TITLE_H + rows_count * row_h;

    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\"><metadata>\n{}</metadata>\n",
        xml(&provenance.preamble(""))
    );
    let _ = writeln!(
        svg,
        "<title>Bit fields of {}.{}</title>\n\
         <defs><pattern id=\"reserved\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#bbbbbb\" stroke-width=\"2\"/>\
         </pattern></defs>\n\
         <text x=\"{MARGIN}\" y=\"17\" font-size=\"{TITLE_SIZE}\" font-weight=\"bold\">{}</text>",
        xml(&block.name),
        xml(&register.name),
        xml(&title)
    );
    for (index, row) in (0u32..).zip(&rows) {
        let top = TITLE_H + index * row_h;
        let x_of = |bit: u32| MARGIN + (row.msb - bit) * CELL;
        for bit in (row.lsb..=row.msb).rev() {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"{SMALL_SIZE}\" text-anchor=\"middle\">{bit}</text>",
                x_of(bit) + CELL / 2,
                top + NUMBERS_H - 3
            );
        }
        let box_top = top + NUMBERS_H;
        for segment in &row.segments {
            let x = x_of(segment.msb);
            let w = segment.bits() * CELL;
            self::segment(
                &mut svg,
                register,
                segment,
                Rect {
                    x,
                    y: box_top,
                    w,
                    h: box_h,
                },
                name_h,
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[derive(Clone, Copy)]
struct Rect {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

fn fits_across(segment: &Segment<'_>) -> bool {
    text_width(segment.label().len(), NAME_SIZE) + 6 <= segment.bits() * CELL
}

fn segment(svg: &mut String, register: &Register, segment: &Segment<'_>, r: Rect, name_h: u32) {
    let center = r.x + r.w / 2;
    let Some(field) = segment.field else {
        let _ = writeln!(
            svg,
            "<g><title>bits {} reserved</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
             fill=\"url(#reserved)\" stroke=\"#000000\"/>",
            range(segment.msb, segment.lsb),
            r.x,
            r.y,
            r.w,
            r.h
        );
        let label_w = text_width("reserved".len(), SMALL_SIZE);
        if label_w + 6 <= r.w {
            let _ = writeln!(
                svg,
                "<text x=\"{center}\" y=\"{}\" font-size=\"{SMALL_SIZE}\" text-anchor=\"middle\" \
                 fill=\"#666666\">reserved</text>",
                r.y + r.h / 2 + 4
            );
        } else if label_w + 10 <= r.h {
            upwards(
                svg,
                center,
                r.y + r.h / 2,
                SMALL_SIZE,
                "reserved",
                "#666666",
            );
        }
        svg.push_str("</g>\n");
        return;
    };
    let _ = writeln!(
        svg,
        "<g><title>{} {}: {}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
         fill=\"#ffffff\" stroke=\"#000000\"/>",
        xml(&field.name),
        field.bits.value,
        xml(&field
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")),
        r.x,
        r.y,
        r.w,
        r.h
    );
    // Ticks at the bit boundaries inside the box, so that bits can be counted.
    for i in 1..segment.bits() {
        let x = r.x + i * CELL;
        let _ = writeln!(
            svg,
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#000000\"/>",
            r.y,
            r.y + 4
        );
    }
    if fits_across(segment) {
        let _ = writeln!(
            svg,
            "<text x=\"{center}\" y=\"{}\" font-size=\"{NAME_SIZE}\" text-anchor=\"middle\">{}</text>",
            r.y + name_h / 2 + 6,
            xml(&field.name)
        );
    } else {
        upwards(
            svg,
            center,
            r.y + name_h / 2 + 2,
            NAME_SIZE,
            &field.name,
            "#000000",
        );
    }
    // A one-bit cell is 28 pixels wide: five characters fit, `singlepulse` does not (the
    // table under the diagram spells it out).
    let effect = field.side_effect.map_or("", |s| match *s {
        crate::model::SideEffect::SinglePulse => "pulse",
        s => s.keyword(),
    });
    let part_reset =
        (*register.reset >> segment.lsb.min(63)) & (u64::MAX >> (64 - segment.bits().clamp(1, 64)));
    let reset = match field.reset_from.map(|r| *r) {
        // Five characters fit a one-bit cell.
        Some(from) => from.keyword().to_string(),
        None if segment.bits() == 1 => part_reset.to_string(),
        None => hex(part_reset),
    };
    let lines = [field.effective_access(register).keyword(), effect, &reset];
    for (line, text) in (0u32..).zip(lines) {
        if text.is_empty() {
            continue;
        }
        let _ = writeln!(
            svg,
            "<text x=\"{center}\" y=\"{}\" font-size=\"{SMALL_SIZE}\" text-anchor=\"middle\" \
             fill=\"#444444\">{}</text>",
            r.y + name_h + (line + 1) * LINE_H,
            xml(text)
        );
    }
    svg.push_str("</g>\n");
}

/// Text centred on (x, y), rotated to read upwards.
fn upwards(svg: &mut String, x: u32, y: u32, size: u32, text: &str, fill: &str) {
    let _ = writeln!(
        svg,
        "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" text-anchor=\"middle\" \
         dominant-baseline=\"middle\" fill=\"{fill}\" transform=\"rotate(-90 {x} {y})\">{}</text>",
        xml(text)
    );
}

fn range(msb: u32, lsb: u32) -> String {
    if msb == lsb {
        format!("[{lsb}]")
    } else {
        format!("[{msb}:{lsb}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Device;

    /// A device of one block holding one 64-bit register `R` with the given fields.
    fn device(fields: &str) -> Device {
        let spec = format!(
            "device: {{ name: dev, version: '1', description: d }}
blocks:
  - name: b
    description: d
    offset: 0x0
    size: 0x10
    registers:
      - name: R
        description: d
        offset: 0x0
        width: 64
        access: rw
        reset: 0x0000_0100_0010_0000
        fields: {fields}
"
        );
        crate::parse_str(&spec).expect("valid spec").into_device()
    }

    fn render(device: &Device) -> String {
        let provenance = Provenance {
            spec: "s.yaml".into(),
            command: "gen".into(),
        };
        let block = &device.blocks[0];
        diagram(block, &block.registers[0], &provenance)
    }

    #[test]
    fn a_field_across_the_row_boundary_is_split_with_its_own_reset_bits() {
        let device = device("[{ name: F, bits: \"40:20\", description: d }]");
        let shape: Vec<Vec<(u32, u32, bool)>> = rows(&device.blocks[0].registers[0])
            .iter()
            .map(|row| {
                row.segments
                    .iter()
                    .map(|s| (s.msb, s.lsb, s.field.is_some()))
                    .collect()
            })
            .collect();
        assert_eq!(
            shape,
            [
                vec![(63, 41, false), (40, 32, true)],
                vec![(31, 20, true), (19, 0, false)],
            ]
        );
        // Reset bits 40 and 20 are set: bit 8 of the upper part [40:32], bit 0 of the lower
        // part [31:20].
        let svg = render(&device);
        assert!(svg.contains(">0x100</text>"), "{svg}");
        assert!(svg.contains(">0x1</text>"), "{svg}");
    }

    #[test]
    fn a_register_without_fields_is_one_named_box() {
        let svg = render(&device("[]"));
        assert!(!svg.contains("url(#reserved)\""), "{svg}");
        assert!(svg.contains(">R</text>"), "{svg}");
    }
}
