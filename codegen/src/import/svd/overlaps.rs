//! SVD allows overlaps (alternate registers, aliased peripherals). A register that overlaps
//! one kept earlier becomes its alternate (`alternate_of`); a field that overlaps another
//! moves to an alternate view of its register; a block whose declared size reaches into the
//! next is cut to what its registers need, and one that still overlaps a block kept earlier
//! becomes its alternate, as a register does. Each is reported, except an alternate carried
//! just as the SVD declares it.
//!
//! Which of two overlapping registers is the primary and which the alternate: what the SVD
//! declares decides. A register with `<alternateRegister>X` is an alternate of `X`, one with
//! an `<alternateGroup>` is an alternate of whatever it overlaps, and one in a cluster with
//! `<alternateCluster>` is an alternate of its counterpart there (else of whatever it
//! overlaps); such registers are placed after every register that declares nothing, so that
//! they never become the primary of an undeclared one. Blocks follow the same rules with
//! `<alternatePeripheral>`.
//!
//! Among overlapping items that declare nothing, the first in the file is the primary. No
//! other generator has a rule to follow here: svd2rust gathers overlapping registers into one
//! region and gives each its own accessor, with no primary, and chiptool keeps every item at
//! its offset without looking for overlaps. In our spec the choice decides only which view
//! the docs and the SVD output call the alternate; the generated accessors of both are the
//! same either way. So the rule needs to be predictable and stable rather than clever: file
//! order is what the vendor wrote (vendors list the main view first: STM32's `CCMR1_Output`
//! before `CCMR1_Input`), it does not change when an offset or a width does, and the output
//! keeps it.

use super::MAX_ELEMENTS;
use super::warnings::Warnings;
use crate::import::Treatment;
use crate::location::Located;
use crate::model::{Block, Field, Register};
use crate::validate::{block_spans, share_a_byte};

/// What an SVD register says about being another view of a register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Claim {
    /// Nothing: a register of its own, or the alternate of an earlier one it overlaps.
    None,
    /// `<alternateGroup>`: an alternate of whatever register it overlaps.
    Group(String),
    /// `<alternateRegister>`: an alternate of this register of the block (its name as
    /// flattened, `CLUSTER_REGISTER`, and renamed as the register was).
    Of(String),
    /// In a cluster with `<alternateCluster>`: an alternate of what it overlaps, of this
    /// register (its counterpart in the named cluster, flattened) when it overlaps that.
    Cluster(String),
    /// A view holding fields of the register at this index that overlap its own
    /// (`split_field_overlaps`): an alternate of that register, or of its primary when it
    /// is an alternate itself. The field warnings have said so.
    View(usize),
}

impl Claim {
    fn declares(&self) -> bool {
        !matches!(self, Claim::None)
    }
}

/// The claims follow the renames of the registers they name: `raw` are the registers' names
/// before the renaming pass, `registers` after it.
pub(super) fn follow_renames(raw: &[String], registers: &[Register], claims: &mut [Claim]) {
    let mut renamed: std::collections::HashMap<&str, &str> = Default::default();
    for (old, register) in raw.iter().zip(registers) {
        renamed
            .entry(old.as_str())
            .or_insert(register.name.value.as_str());
    }
    for claim in claims.iter_mut() {
        if let Claim::Of(name) | Claim::Cluster(name) = claim
            && let Some(new) = renamed.get(name.as_str())
        {
            *name = (*new).to_string();
        }
    }
}

pub(super) fn drop_register_overlaps(
    warnings: &mut Warnings,
    registers: &mut Vec<Register>,
    claims: &[Claim],
    at: &str,
) {
    // Accepted extents never overlap each other, so for a new extent only the accepted
    // one starting last before its end can intersect it: one ordered-map lookup each.
    let mut taken: std::collections::BTreeMap<u64, (u64, usize)> = Default::default();
    let mut elements = 0u64;
    let mut kept: Vec<Register> = Vec::new();
    let mut kept_at: Vec<usize> = Vec::new();
    let mut alternates: Vec<(usize, Register)> = Vec::new();
    let none = Claim::None;
    let claim_of = |index: usize| claims.get(index).unwrap_or(&none);
    // Registers that declare nothing first, then the declared alternates: each in file order.
    let mut order: Vec<(usize, Register)> = registers.drain(..).enumerate().collect();
    order.sort_by_key(|(index, _)| (claim_of(*index).declares(), *index));
    for (index, register) in order {
        let claim = claim_of(index);
        let count = register.array.as_ref().map_or(1, |a| *a.count);
        elements = elements.saturating_add(count);
        if elements > MAX_ELEMENTS {
            warnings.warn(
                Treatment::LeftOut,
                format!("{at}.{}", *register.name),
                format!("more than {MAX_ELEMENTS} register elements in the block: left out"),
            );
            continue;
        }
        // A view of a register's overlapping fields goes where its register went.
        if let Claim::View(of) = claim
            && let Some(primary) = view_primary(*of, &kept, &kept_at, &alternates)
        {
            let mut register = register;
            register.alternate_of = Some(Located::synthetic(primary));
            alternates.push((index, register));
            continue;
        }
        let extents: Vec<(u64, u64)> = register
            .element_offsets()
            .map(|o| (o, o.saturating_add(register.bytes())))
            .collect();
        let clashes = |owner: usize| {
            extents.iter().any(|&(s, e)| {
                kept[owner]
                    .element_offsets()
                    .any(|o| o < e && s < o.saturating_add(kept[owner].bytes()))
            })
        };
        let clash = extents.iter().find_map(|&(s, e)| {
            let (_, &(end, owner)) = taken.range(..e).next_back()?;
            (end > s).then_some(owner)
        });
        // The register it declares, when that one is kept and shares bytes with it.
        let declared = match claim {
            Claim::Of(name) | Claim::Cluster(name) => kept.iter().position(|k| *k.name == *name),
            _ => None,
        };
        let owner = match (declared, clash) {
            (Some(d), Some(_)) if clashes(d) => Some(d),
            (_, owner) => owner,
        };
        if let Some(owner) = owner {
            // Another view of the same bytes (CMSIS-SVD's alternateRegister, or a plain
            // overlap): kept as an alternate of the register it meets first.
            let of = kept[owner].name.value.clone();
            // What the SVD declares, carried as it is, needs no word; anything else does.
            let how = match claim {
                Claim::Of(name) | Claim::Cluster(name) if *name == of => None,
                Claim::Of(name) => Some(format!(
                    "declared an alternate of `{name}`, which {}",
                    if kept.iter().any(|k| *k.name == *name) {
                        "it does not overlap"
                    } else {
                        "is no register of the block, or an alternate itself"
                    }
                )),
                Claim::Group(group) => Some(format!("alternateGroup `{group}`")),
                Claim::Cluster(_) => Some("in a cluster that declares an alternateCluster".into()),
                Claim::None | Claim::View(_) => Some("no alternateRegister declared".into()),
            };
            if let Some(how) = how {
                warnings.warn(
                    Treatment::Reshaped,
                    format!("{at}.{}", *register.name),
                    format!(
                        "overlaps register `{of}` ({how}): imported as its alternate \
                         (`alternate_of: {of}`)"
                    ),
                );
            }
            let mut register = register;
            register.alternate_of = Some(Located::synthetic(of));
            alternates.push((index, register));
            continue;
        }
        match claim {
            Claim::Of(name) => warnings.warn(
                Treatment::NotRepresented,
                format!("{at}.{}", *register.name),
                format!(
                    "alternateRegister `{name}` declared, but {}: imported as a register of \
                     its own (an alternate in the spec shares bytes with its register)",
                    if kept.iter().any(|k| *k.name == *name) {
                        "the two share no byte"
                    } else {
                        "the block has no such register"
                    }
                ),
            ),
            Claim::Group(group) => warnings.warn(
                Treatment::NotRepresented,
                format!("{at}.{}", *register.name),
                format!(
                    "alternateGroup `{group}` declared, but the register overlaps no other: \
                     imported as a register of its own"
                ),
            ),
            // A cluster is another view as a whole: some of its registers may lie where the
            // other has none.
            Claim::None | Claim::Cluster(_) | Claim::View(_) => {}
        }
        for (s, e) in extents {
            taken.insert(s, (e, kept.len()));
        }
        kept.push(register);
        kept_at.push(index);
    }
    // In source order again.
    let mut all: Vec<(usize, Register)> = kept_at.into_iter().zip(kept).collect();
    all.extend(alternates);
    all.sort_by_key(|(index, _)| *index);
    *registers = all.into_iter().map(|(_, r)| r).collect();
}

/// The register a view of the register at index `of` is an alternate of: that register when
/// it was kept, its primary when it became an alternate; none when it was left out.
fn view_primary(
    of: usize,
    kept: &[Register],
    kept_at: &[usize],
    alternates: &[(usize, Register)],
) -> Option<String> {
    if let Some(k) = kept_at.iter().position(|&i| i == of) {
        return Some(kept[k].name.value.clone());
    }
    alternates
        .iter()
        .find(|(i, _)| *i == of)
        .and_then(|(_, a)| a.alternate_of.as_ref())
        .map(|primary| primary.value.clone())
}

/// Fields that overlap a field kept before them (the same bits read as one thing and written
/// as another: Toshiba's `SBI.CR1_A` has `SWRMON` at bit 0 and `SCK` at bits 0–2) cannot be
/// fields of one register in the spec, but they can be fields of another view of it: each
/// goes to the first view where it overlaps nothing, the register's own first. Fields named
/// `RESERVED…` are placed after all others, so that a placeholder drawn too wide (NXP's
/// `VFIFO.CTLCLRSPI0.RESERVED` over the bits of eight real fields) is what moves, not the
/// fields it covers. Each view keeps the SVD's order. Returns the fields of the views after
/// the first, which the caller imports as alternates of the register named
/// `{register}_ALT`, `{register}_ALT2`, … (`view_name`).
pub(super) fn split_field_overlaps(
    warnings: &mut Warnings,
    fields: &mut Vec<Field>,
    register: &str,
    at: &str,
) -> Vec<Vec<Field>> {
    let mut order: Vec<(usize, Field)> = fields.drain(..).enumerate().collect();
    // A stable sort: the SVD's order within real fields and within placeholders.
    order.sort_by_key(|(_, f)| is_placeholder(&f.name));
    let mut views: Vec<(u64, Vec<(usize, Field)>)> = vec![(0, Vec::new())];
    for (index, field) in order {
        let mask = field.bits.mask();
        let view = match views.iter().position(|(used, _)| used & mask == 0) {
            Some(view) => view,
            None => {
                views.push((0, Vec::new()));
                views.len() - 1
            }
        };
        if view > 0 {
            let other = views[..view]
                .iter()
                .flat_map(|(_, fields)| fields)
                .find(|(_, f)| f.bits.mask() & mask != 0)
                .map_or_else(String::new, |(_, f)| format!(" `{}`", *f.name));
            warnings.warn(
                Treatment::Reshaped,
                format!("{at}.{}", *field.name),
                format!(
                    "overlaps field{other}: imported as a field of `{}`, an alternate view \
                     of `{register}`'s bytes",
                    view_name(register, view)
                ),
            );
        }
        views[view].0 |= mask;
        views[view].1.push((index, field));
    }
    let mut views = views.into_iter().map(|(_, mut fields)| {
        fields.sort_by_key(|(index, _)| *index);
        fields.into_iter().map(|(_, f)| f).collect::<Vec<_>>()
    });
    *fields = views.next().unwrap_or_default();
    views.collect()
}

/// Whether a field is a vendor's placeholder for bits it does not use (`RESERVED`,
/// `RESERVED_2`, `Reserved1`, …).
fn is_placeholder(name: &str) -> bool {
    name.get(..8)
        .is_some_and(|head| head.eq_ignore_ascii_case("reserved"))
}

/// The name of a register's `n`th view (1-based after the register itself): `CR1_ALT`,
/// `CR1_ALT2`, ….
pub(super) fn view_name(register: &str, n: usize) -> String {
    match n {
        1 => format!("{register}_ALT"),
        n => format!("{register}_ALT{n}"),
    }
}

/// The claims of blocks (`alternate_of` as the SVD spells it, see `convert::block`) follow
/// the renames of the blocks they name: `raw` are the blocks' names before the renaming
/// pass.
pub(super) fn follow_block_renames(raw: &[String], blocks: &mut [Block]) {
    let mut renamed: std::collections::HashMap<String, String> = Default::default();
    for (old, block) in raw.iter().zip(blocks.iter()) {
        renamed
            .entry(old.clone())
            .or_insert_with(|| block.name.value.clone());
    }
    for block in blocks.iter_mut() {
        if let Some(of) = block.alternate_of.as_mut()
            && let Some(new) = renamed.get(&of.value)
        {
            of.value = new.clone();
        }
    }
}

/// Blocks that overlap. First, a block (not an array) whose declared size reaches into the
/// next block while its registers end before it is cut to the next block's start. Then,
/// as for registers, a block that still overlaps a block kept before it becomes an alternate
/// view (`alternate_of`): of the block its `<alternatePeripheral>` names when the two share
/// bytes, else of the first kept block it meets. Blocks that declare nothing are kept
/// first, in file order, then the declared alternates. Each is reported.
pub(super) fn fit_blocks(warnings: &mut Warnings, blocks: &mut [Block]) {
    trim_blocks(warnings, blocks);
    // Each block's claim, taken out: it is kept only when it holds.
    let claims: Vec<Option<String>> = blocks
        .iter_mut()
        .map(|b| b.alternate_of.take().map(|of| of.value))
        .collect();
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| (claims[i].is_some(), i));
    // Extents of the primaries kept so far, which never overlap each other.
    let mut taken: std::collections::BTreeMap<u64, (u64, usize)> = Default::default();
    let mut primary = vec![false; blocks.len()];
    for i in order {
        let spans = block_spans(&blocks[i]);
        let clash = spans.iter().find_map(|&(s, e)| {
            let (_, &(end, owner)) = taken.range(..e).next_back()?;
            (end > s).then_some(owner)
        });
        let named = claims[i]
            .as_deref()
            .and_then(|name| (0..blocks.len()).find(|&k| primary[k] && *blocks[k].name == *name));
        let declared = named.filter(|&k| share_a_byte(&spans, &block_spans(&blocks[k])));
        let name = blocks[i].name.value.clone();
        match (declared.or(clash), &claims[i]) {
            (Some(owner), claim) => {
                let of = blocks[owner].name.value.clone();
                let how = match claim {
                    Some(claim) if *claim == of => None,
                    Some(claim) => Some(format!(
                        "declared an alternate of `{claim}`, which {}",
                        if named.is_some() {
                            "it does not overlap"
                        } else {
                            "is no block of the device, or an alternate itself"
                        }
                    )),
                    None => Some("no alternatePeripheral declared".to_string()),
                };
                if let Some(how) = how {
                    let others = overlapped_besides(blocks, i, owner, &spans);
                    warnings.warn(
                        Treatment::Reshaped,
                        name,
                        format!(
                            "overlaps block `{of}`{others} ({how}{}): imported as an alternate \
                             of `{of}` (`alternate_of: {of}`) so that none of them is dropped",
                            far_register(&blocks[i])
                        ),
                    );
                }
                blocks[i].alternate_of = Some(Located::synthetic(of));
            }
            (None, claim) => {
                if let Some(claim) = claim {
                    warnings.warn(
                        Treatment::NotRepresented,
                        name,
                        format!(
                            "alternatePeripheral `{claim}` declared, but {}: imported as a \
                             block of its own (an alternate in the spec shares bytes with its \
                             block)",
                            if named.is_some() {
                                "the two share no byte"
                            } else {
                                "the device has no such block"
                            }
                        ),
                    );
                }
                for (s, e) in spans {
                    taken.insert(s, (e, i));
                }
                primary[i] = true;
            }
        }
    }
}

/// " and N more (`A`, `B`, …)": the blocks besides `owner` that block `i`'s `spans` overlap
/// too, for a warning that says what the overlap covers (a block whose registers reach far
/// past its neighbours overlaps many).
fn overlapped_besides(blocks: &[Block], i: usize, owner: usize, spans: &[(u64, u64)]) -> String {
    const NAMED: usize = 4;
    let others: Vec<&str> = (0..blocks.len())
        .filter(|&k| k != i && k != owner && share_a_byte(spans, &block_spans(&blocks[k])))
        .map(|k| blocks[k].name.value.as_str())
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let mut named: Vec<String> = others
        .iter()
        .take(NAMED)
        .map(|n| format!("`{n}`"))
        .collect();
    if others.len() > NAMED {
        named.push("…".into());
    }
    format!(" and {} more ({})", others.len(), named.join(", "))
}

/// "; its register `R` lies at offset X": said when the block's last register alone makes it
/// long (the register before it ends within a tenth of its offset), the case of a status
/// register placed far from the rest of its block, past other blocks.
fn far_register(block: &Block) -> String {
    let mut ends: Vec<(u64, &str, u64)> = block
        .registers
        .iter()
        .filter_map(|r| {
            let last = r.element_offsets().last()?;
            Some((last.saturating_add(r.bytes()), r.name.value.as_str(), last))
        })
        .collect();
    ends.sort_unstable();
    match ends.as_slice() {
        [.., (before, _, _), (_, name, at)] if *before < *at / 10 => {
            format!("; its register `{name}` lies at offset {at:#x}")
        }
        _ => String::new(),
    }
}

/// A block (not an array) whose declared size reaches into the next block (by offset), while
/// its registers end before that block starts, is cut to that start.
fn trim_blocks(warnings: &mut Warnings, blocks: &mut [Block]) {
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| (*blocks[i].offset, i));
    for (n, &p) in order.iter().enumerate() {
        let from = *blocks[p].offset;
        let Some(&next) = order[n + 1..].iter().find(|&&i| *blocks[i].offset > from) else {
            continue;
        };
        let start = *blocks[next].offset;
        let needed = registers_end(&blocks[p]).max(1);
        if blocks[p].array.is_none()
            && extent_end(&blocks[p]) > start
            && from.saturating_add(needed) <= start
        {
            let size = start - from;
            warnings.warn(
                Treatment::Repaired,
                blocks[p].name.value.clone(),
                format!(
                    "addressBlock of {:#x} bytes reaches into block `{}` at {start:#x}: \
                     cut to {size:#x} bytes (its registers need {needed:#x})",
                    *blocks[p].size, *blocks[next].name
                ),
            );
            blocks[p].size = Located::synthetic(size);
        }
    }
}

fn extent_end(block: &Block) -> u64 {
    let span = match &block.array {
        Some(a) => a.count.saturating_sub(1).saturating_mul(*a.stride),
        None => 0,
    };
    block
        .offset
        .saturating_add(span)
        .saturating_add(*block.size)
}

fn registers_end(block: &Block) -> u64 {
    block
        .registers
        .iter()
        .filter_map(|r| {
            r.element_offsets()
                .last()
                .map(|o| o.saturating_add(r.bytes()))
        })
        .max()
        .unwrap_or(0)
}
