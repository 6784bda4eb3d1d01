//! Numbered copies merged into arrays: identical numbered peripherals into block arrays, and
//! runs of numbered same-shape registers into register arrays, so that the generated code
//! has one item where the SVD lists many. Each merge is reported.

use std::collections::{HashMap, HashSet};

use super::MAX_ELEMENTS;
use super::warnings::Warnings;
use crate::import::Treatment;
use crate::location::Located;
use crate::model::{Array, Block, EnumValue, Field, Register};
use crate::names;

/// `UART0`, `UART1`, … with the same registers, size and description, evenly spaced,
/// become one block array `UART` (SVD files usually describe such instances with
/// `derivedFrom`): the generated code then has one module for them instead of a copy
/// per instance. The renaming is reported.
pub(super) fn merge_numbered_blocks(warnings: &mut Warnings, blocks: &mut Vec<Block>) {
    // Alternates and the blocks they are views of keep their names, as registers do.
    let viewed: HashSet<String> = blocks
        .iter()
        .filter_map(|b| b.alternate_of.as_ref().map(|of| of.value.clone()))
        .collect();
    let single = |b: &Block| {
        b.array.is_none() && b.alternate_of.is_none() && !viewed.contains(b.name.as_str())
    };
    let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
    let mut rest = std::mem::take(blocks).into_iter().peekable();
    while let Some(first) = rest.next() {
        let prefix = match first.name.strip_suffix('0') {
            Some(p) if single(&first) && p.ends_with(|c: char| !c.is_ascii_digit()) => {
                p.to_string()
            }
            _ => {
                out.push(first);
                continue;
            }
        };
        let mut group = vec![first];
        while let Some(next) = rest.peek() {
            let n = group.len() as u64;
            let stride = next.offset.checked_sub(*group[0].offset).unwrap_or(0) / n.max(1);
            let fits = single(next)
                && *next.name == format!("{prefix}{n}")
                && next.registers == group[0].registers
                && next.size == group[0].size
                && next.description == group[0].description
                && stride >= *group[0].size
                && (n == 1
                    || (*group[1].offset - *group[0].offset)
                        .checked_mul(n)
                        .is_some_and(|span| *next.offset - *group[0].offset == span));
            if !fits {
                break;
            }
            group.extend(rest.next());
        }
        if group.len() < 2 {
            out.extend(group);
            continue;
        }
        let stride = *group[1].offset - *group[0].offset;
        let names: Vec<&str> = group.iter().map(|b| b.name.as_str()).collect();
        // `CMP_0`, `CMP_1` → `CMP`: an array's `cmp__unchecked` would not be snake_case.
        let name = match prefix.trim_end_matches('_') {
            "" => prefix.clone(),
            trimmed => trimmed.to_string(),
        };
        warnings.warn(
            Treatment::Reshaped,
            &name,
            format!(
                "blocks {} imported as one block array `{name}` ({} instances, {stride:#x} \
                 apart): same registers",
                names.join(", "),
                group.len()
            ),
        );
        let count = group.len() as u64;
        let mut block = group.swap_remove(0);
        block.name = Located::synthetic(name);
        block.array = Some(Array {
            count: Located::synthetic(count),
            stride: Located::synthetic(stride),
        });
        out.push(block);
    }
    *blocks = out;
}

/// Runs of numbered registers of the same shape become register arrays, as
/// [`merge_numbered_blocks`] does for blocks: `GPIO0_CTRL`, `GPIO1_CTRL`, …
/// `GPIO29_CTRL` → `GPIO_CTRL` (30 elements). A group is the registers whose names
/// differ only in one decimal number N (written without leading zeros) at the same
/// place. It merges only when all of this holds, otherwise it is left as it is:
///
/// - N runs over exactly 0..count, with count ≥ 2 (a gap anywhere keeps the whole group);
/// - no member is an array already;
/// - the offsets, in N order, step by one stride of at least the register's bytes;
/// - width, access and reset are equal;
/// - the fields (names, bits, access, side effects, descriptions, enumerated values)
///   are equal, or equal once every decimal number equal to the element's N (a whole
///   digit run) is replaced by a placeholder: `INSTR_MEM0` holds a field `INSTR_MEM0`,
///   `INSTR_MEM1` a field `INSTR_MEM1`. The merged field is then named without the
///   number;
/// - the descriptions are equal, or equal in the same placeholder sense (`DMA Channel 0
///   …`, `DMA Channel 1 …` → `DMA Channel n …`);
/// - the merged name (the number removed, doubled `_` collapsed, leading and trailing
///   `_` stripped), and every merged field and value name, is a valid identifier that
///   clashes with no other name (ignoring case).
///
/// With two numbers in a name, groups over the leftmost are tried first; a register
/// joins at most one array. The array takes the place of its element 0. Each merge is
/// reported.
pub(super) fn merge_numbered_registers(
    warnings: &mut Warnings,
    registers: &mut Vec<Register>,
    at: &str,
) {
    // Candidate groups: the name with one digit run replaced by the placeholder, in
    // order of first appearance.
    let mut keys: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<(u64, usize)>> = HashMap::new();
    // Alternates and the registers they are views of keep their names: `alternate_of`
    // refers to one register by name.
    let viewed: HashSet<String> = registers
        .iter()
        .filter_map(|r| r.alternate_of.as_ref().map(|of| of.value.clone()))
        .collect();
    for (i, r) in registers.iter().enumerate() {
        if r.array.is_some() || r.alternate_of.is_some() || viewed.contains(&*r.name) {
            continue;
        }
        for (start, end) in digit_runs(&r.name) {
            let Some(n) = index_number(&r.name[start..end]) else {
                continue;
            };
            let key = format!("{}{PLACEHOLDER}{}", &r.name[..start], &r.name[end..]);
            let members = groups.entry(key.clone()).or_insert_with(|| {
                keys.push(key);
                Vec::new()
            });
            members.push((n, i));
        }
    }
    let mut taken_names: HashSet<String> = registers
        .iter()
        .map(|r| names::clash_key(&r.name))
        .collect();
    let mut member_of: Vec<Option<usize>> = vec![None; registers.len()];
    let mut merged: Vec<(usize, Register)> = Vec::new();
    for key in keys {
        let mut members = groups.remove(&key).unwrap_or_default();
        members.sort_unstable();
        let count = members.len();
        if count < 2
            || members
                .iter()
                .enumerate()
                .any(|(k, &(n, i))| n != k as u64 || member_of[i].is_some())
        {
            continue;
        }
        let elements: Vec<&Register> = members.iter().map(|&(_, i)| &registers[i]).collect();
        let Some(register) = merge_group(&elements, &key) else {
            continue;
        };
        let clash = names::problem(&register.name).is_some()
            || names::is_reserved_accessor(&register.name)
            || taken_names.contains(&names::clash_key(&register.name));
        if clash {
            continue;
        }
        taken_names.insert(names::clash_key(&register.name));
        let array = register.array.as_ref().expect("merged");
        let (count, stride) = (*array.count, *array.stride);
        warnings.warn(
            Treatment::Reshaped,
            format!("{at}.{}", *register.name),
            format!(
                "registers {} … {} imported as one register array `{}` ({count} elements, \
                 {stride:#x} apart): same shape",
                *elements[0].name,
                *elements[elements.len() - 1].name,
                *register.name,
            ),
        );
        let slot = merged.len();
        for &(_, i) in &members {
            member_of[i] = Some(slot);
        }
        merged.push((members[0].1, register));
    }
    if merged.is_empty() {
        return;
    }
    let mut arrays: HashMap<usize, Register> = merged.into_iter().collect();
    let old = std::mem::take(registers);
    for (i, r) in old.into_iter().enumerate() {
        match member_of[i] {
            None => registers.push(r),
            Some(_) => registers.extend(arrays.remove(&i)),
        }
    }
}

/// Stands for the varying number while numbered registers are compared (never in a name or
/// a description that svd-parser returns).
const PLACEHOLDER: char = '\u{1}';

/// Byte ranges of the decimal digit runs of `text`.
fn digit_runs(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    runs
}

/// A digit run read as an array index: no leading zeros (`01` is not 1), at most
/// [`MAX_ELEMENTS`].
fn index_number(run: &str) -> Option<u64> {
    if run.len() > 1 && run.starts_with('0') {
        return None;
    }
    run.parse().ok().filter(|&n| n <= MAX_ELEMENTS)
}

/// `text` with every whole digit run that reads `n` replaced by [`PLACEHOLDER`].
fn template(text: &str, n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end) in digit_runs(text) {
        if text[start..end] == digits {
            out.push_str(&text[last..start]);
            out.push(PLACEHOLDER);
            last = end;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// A name with the placeholder removed: `GPIO\u{1}_CTRL` → `GPIO_CTRL`, `A_\u{1}_B` → `A_B`,
/// `\u{1}_X` → `X`. A name without the placeholder stays as it is.
fn unnumbered_name(templated: &str) -> String {
    if !templated.contains(PLACEHOLDER) {
        return templated.to_string();
    }
    let mut out = String::with_capacity(templated.len());
    for c in templated.chars().filter(|&c| c != PLACEHOLDER) {
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    out.trim_matches('_').to_string()
}

/// A description with the placeholder spelled `n`.
fn unnumbered_text(templated: &str) -> String {
    templated.replace(PLACEHOLDER, "n")
}

/// Element `n`'s fields with the number templated away in names and descriptions.
fn template_fields(fields: &[Field], n: u64) -> Vec<Field> {
    fields
        .iter()
        .map(|f| Field {
            name: Located::synthetic(template(&f.name, n)),
            description: template(&f.description, n),
            values: f
                .values
                .iter()
                .map(|v| EnumValue {
                    name: Located::synthetic(template(&v.name, n)),
                    value: v.value,
                    description: template(&v.description, n),
                })
                .collect(),
            ..f.clone()
        })
        .collect()
}

/// The register array that `elements` (element `k` at index `k`, names matching `key`)
/// make, or `None` when they do not all have one shape (see
/// [`merge_numbered_registers`]).
fn merge_group(elements: &[&Register], key: &str) -> Option<Register> {
    let first = elements[0];
    let stride = elements[1].offset.checked_sub(*first.offset)?;
    if stride < first.bytes() {
        return None;
    }
    let same_place_and_kind = elements.iter().enumerate().all(|(k, r)| {
        r.array.is_none()
            && (k as u64)
                .checked_mul(stride)
                .and_then(|step| first.offset.checked_add(step))
                == Some(*r.offset)
            && r.width == first.width
            && r.access == first.access
            && r.reset == first.reset
    });
    if !same_place_and_kind {
        return None;
    }
    let description = if elements.iter().all(|r| r.description == first.description) {
        first.description.clone()
    } else {
        let t = template(&first.description, 0);
        let same = elements
            .iter()
            .enumerate()
            .all(|(k, r)| template(&r.description, k as u64) == t);
        if !same {
            return None;
        }
        unnumbered_text(&t)
    };
    let fields = if elements.iter().all(|r| r.fields == first.fields) {
        first.fields.clone()
    } else {
        let t = template_fields(&first.fields, 0);
        let same = elements
            .iter()
            .enumerate()
            .all(|(k, r)| template_fields(&r.fields, k as u64) == t);
        if !same {
            return None;
        }
        let mut fields = t;
        let mut field_names = HashSet::new();
        for f in &mut fields {
            f.name = Located::synthetic(unnumbered_name(&f.name));
            f.description = unnumbered_text(&f.description);
            if names::problem(&f.name).is_some() || !field_names.insert(names::clash_key(&f.name)) {
                return None;
            }
            let mut value_names = HashSet::new();
            for v in &mut f.values {
                v.name = Located::synthetic(unnumbered_name(&v.name));
                v.description = unnumbered_text(&v.description);
                if names::problem(&v.name).is_some()
                    || names::is_reserved_value(&v.name)
                    || !value_names.insert(names::clash_key(&v.name))
                {
                    return None;
                }
            }
        }
        fields
    };
    Some(Register {
        name: Located::synthetic(unnumbered_name(key)),
        description,
        offset: first.offset,
        width: first.width,
        access: first.access,
        reset: first.reset,
        array: Some(Array {
            count: Located::synthetic(elements.len() as u64),
            stride: Located::synthetic(stride),
        }),
        fields,
        alternate_of: None,
        lock: None,
        access_width: None,
        split_read: None,
        hardware: Default::default(),
    })
}
