//! The not-run list at a glance: places with the same reason summarised, a register's
//! fields as `REG.*` (all of them) or `REG.{A,B}`, then array elements as ranges
//! (`group[0..31].STATUS.*`). `gba verify --verbose` prints every place, `--json` writes them.

use std::collections::HashMap;

/// `places` (`group[3].STATUS.READY`, `regs.CFG_A (locked_by LOCK.FREEZE)`, ...) summarised;
/// `field_count` gives a register element's number of fields by its path (`group[3].STATUS`).
pub fn summarise(places: &[String], field_count: &dyn Fn(&str) -> Option<usize>) -> Vec<String> {
    ranges(&fields(places, field_count))
}

/// A register's fields in one place: `REG.*` when all its fields are there, else `REG.{A,B}`.
fn fields(places: &[String], field_count: &dyn Fn(&str) -> Option<usize>) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    let mut by_register: HashMap<String, Vec<String>> = HashMap::new();
    for place in places {
        let key = match place.rsplit_once('.') {
            Some((register, field))
                if field_count(register).is_some() && is_name(field) && !place.contains(' ') =>
            {
                let list = by_register.entry(register.to_string()).or_default();
                if list.is_empty() {
                    order.push(register.to_string());
                }
                list.push(field.to_string());
                continue;
            }
            _ => place.clone(),
        };
        order.push(key);
    }
    order
        .into_iter()
        .map(|key| match by_register.get(&key) {
            None => key,
            Some(list) if Some(list.len()) == field_count(&key) && list.len() > 1 => {
                format!("{key}.*")
            }
            Some(list) if list.len() == 1 => format!("{key}.{}", list[0]),
            Some(list) => format!("{key}.{{{}}}", list.join(",")),
        })
        .collect()
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A place cut at its array indices: the text around them, and the indices (as written).
fn split(place: &str) -> (Vec<String>, Vec<String>) {
    let (mut texts, mut indices) = (vec![String::new()], Vec::new());
    let mut rest = place;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else {
            break;
        };
        texts.last_mut().unwrap().push_str(&rest[..=open]);
        indices.push(rest[open + 1..open + close].to_string());
        texts.push(String::new());
        rest = &rest[open + close..];
    }
    texts.last_mut().unwrap().push_str(rest);
    (texts, indices)
}

fn join(texts: &[String], indices: &[String]) -> String {
    let mut out = texts[0].clone();
    for (index, text) in indices.iter().zip(&texts[1..]) {
        out.push_str(index);
        out.push_str(text);
    }
    out
}

/// Places merged at one index: the text around the indices, the indices, the merged slot's.
type Merged = (Vec<String>, Vec<String>, Vec<u64>);

/// Places that differ only in one array index merged into one with the indices as ranges,
/// innermost index first (so `group[0].MASK[0..11]` and `group[1].MASK[0..11]` then merge).
fn ranges(places: &[String]) -> Vec<String> {
    let mut current: Vec<String> = places.to_vec();
    let slots = current.iter().map(|p| split(p).1.len()).max().unwrap_or(0);
    for slot in (0..slots).rev() {
        let mut order: Vec<String> = Vec::new();
        let mut merged: HashMap<String, Merged> = HashMap::new();
        for place in &current {
            let (texts, indices) = split(place);
            let Some(index) = indices.get(slot).and_then(|i| i.parse::<u64>().ok()) else {
                order.push(place.clone());
                continue;
            };
            let mut key_indices = indices.clone();
            key_indices[slot] = "#".into();
            let key = join(&texts, &key_indices);
            let entry = merged.entry(key.clone()).or_insert_with(|| {
                order.push(key.clone());
                (texts, indices, Vec::new())
            });
            entry.2.push(index);
        }
        current = order
            .into_iter()
            .map(|key| match merged.remove(&key) {
                None => key,
                Some((texts, mut indices, numbers)) => {
                    indices[slot] = spans(&numbers);
                    join(&texts, &indices)
                }
            })
            .collect();
    }
    current
}

/// `0..3,5,7..9` for 0, 1, 2, 3, 5, 7, 8, 9 (in the order given, runs of consecutive numbers).
fn spans(numbers: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        out.push(if j > i {
            format!("{}..{}", numbers[i], numbers[j])
        } else {
            numbers[i].to_string()
        });
        i = j + 1;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(register: &str) -> Option<usize> {
        match register.rsplit('.').next()? {
            "STATUS" => Some(2),
            "CONTROL" => Some(3),
            r if r.starts_with("MASK") => Some(1),
            _ => None,
        }
    }

    #[test]
    fn arrays_become_ranges_and_whole_registers_stars() {
        let mut places = Vec::new();
        for g in 0..32 {
            places.push(format!("group[{g}].STATUS.READY"));
            places.push(format!("group[{g}].STATUS.BUSY"));
            places.push(format!("group[{g}].CONTROL.ENABLE"));
            for m in 0..12 {
                places.push(format!("group[{g}].MASK[{m}].BITS"));
            }
        }
        places.push("global.CAPS.VERSION".into());
        places.push("regs.CFG_A (locked_by LOCK.FREEZE)".into());
        assert_eq!(
            summarise(&places, &count),
            [
                "group[0..31].STATUS.*",
                "group[0..31].CONTROL.ENABLE",
                "group[0..31].MASK[0..11].BITS",
                "global.CAPS.VERSION",
                "regs.CFG_A (locked_by LOCK.FREEZE)",
            ]
        );
    }

    #[test]
    fn gaps_in_a_range_are_kept() {
        let places: Vec<String> = [0, 1, 2, 5, 7, 8]
            .iter()
            .map(|i| format!("regs.IDS[{i}].STRAP"))
            .collect();
        assert_eq!(
            summarise(&places, &|_| None),
            ["regs.IDS[0..2,5,7..8].STRAP"]
        );
    }
}
