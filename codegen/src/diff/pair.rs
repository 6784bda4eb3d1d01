//! How the items of one level of two specs pair up: by name ignoring case (as validation
//! compares names), then leftovers as renames on strong, unambiguous evidence.

use crate::location::Located;
use crate::names;

/// How the items of one level pair up, in the old spec's order, additions last.
pub(super) enum Pair<'a, T> {
    Same(&'a T, &'a T),
    Renamed(&'a T, &'a T),
    Removed(&'a T),
    Added(&'a T),
}

/// Pairs items by name (ignoring case), then pairs the leftovers as renames where `alike`
/// holds for exactly one candidate in each direction.
pub(super) fn pair<'a, T>(
    old: &'a [T],
    new: &'a [T],
    name: fn(&T) -> &Located<String>,
    alike: impl Fn(&T, &T) -> bool,
) -> Vec<Pair<'a, T>> {
    let key = |item: &T| names::clash_key(name(item));
    let mut new_used = vec![false; new.len()];
    let mut by_name: Vec<Option<usize>> = Vec::with_capacity(old.len());
    for o in old {
        let found = new.iter().position(|n| key(n) == key(o));
        if let Some(index) = found {
            new_used[index] = true;
        }
        by_name.push(found);
    }
    let unmatched_new: Vec<usize> = (0..new.len()).filter(|&i| !new_used[i]).collect();
    let unmatched_old: Vec<usize> = (0..old.len()).filter(|&i| by_name[i].is_none()).collect();
    let mut pairs = Vec::with_capacity(old.len() + unmatched_new.len());
    for (index, o) in old.iter().enumerate() {
        if let Some(n) = by_name[index] {
            pairs.push(Pair::Same(o, &new[n]));
            continue;
        }
        let candidates: Vec<usize> = unmatched_new
            .iter()
            .copied()
            .filter(|&n| alike(o, &new[n]))
            .collect();
        let unique = match candidates.as_slice() {
            [n] => {
                let rivals = unmatched_old
                    .iter()
                    .filter(|&&other| alike(&old[other], &new[*n]))
                    .count();
                (rivals == 1).then_some(*n)
            }
            _ => None,
        };
        match unique {
            Some(n) => {
                new_used[n] = true;
                pairs.push(Pair::Renamed(o, &new[n]));
            }
            None => pairs.push(Pair::Removed(o)),
        }
    }
    for (index, n) in new.iter().enumerate() {
        if !new_used[index] {
            pairs.push(Pair::Added(n));
        }
    }
    pairs
}
