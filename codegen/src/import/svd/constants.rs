//! What our own SVD emitter writes under `<vendorExtensions>`, which svd-parser does not
//! read: the constants (`<constants>`), the single-pulse fields (`<singlePulses>`), the
//! registers' locks (`<locks>`), the registers wider than their bus access (`<accessWidths>`)
//! and the fields whose reset is their element's index or a
//! strap (`<resetFrom>`).

use super::warnings::Warnings;
use crate::import::Treatment;
use crate::location::Located;
use crate::model::{Constant, Device, Field, Lock, Register, ResetFrom, SideEffect, SplitRead};

/// The constants that our SVD emitter writes under `<vendorExtensions><constants>`.
pub(super) fn constants(doc: &svd_roxmltree::Document, warnings: &mut Warnings) -> Vec<Constant> {
    let Some(list) = doc
        .root_element()
        .children()
        .find(|n| n.has_tag_name("vendorExtensions"))
        .and_then(|ext| {
            ext.children()
                .find(|n| n.has_tag_name(crate::interchange::svd_ext::CONSTANTS))
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

/// The single pulses and locks under `<vendorExtensions>`, as paths, to apply to the device
/// once converted ([`Extensions::apply`]).
#[derive(Default)]
pub(super) struct Extensions {
    /// `BLOCK.REGISTER.FIELD`.
    pulses: Vec<String>,
    /// The msb0 fields' paths.
    msb0: Vec<String>,
    /// `BLOCK.REGISTER`, `REGISTER.FIELD`, locked when the bit is 1.
    locks: Vec<(String, String, bool)>,
    /// The kind's element name (`index`, `strap`, or what the file wrote), `BLOCK.REGISTER.FIELD`.
    resets: Vec<(String, String)>,
    /// `BLOCK.REGISTER`, its bus access width in bits and its read protocol
    /// (`<accessWidths>`).
    access_widths: Vec<(String, Option<u32>, Option<String>)>,
    /// `<relocatable>true</relocatable>`: the window has no fixed address.
    pub(super) relocatable: bool,
    /// `<interruptSources>`: interrupt name, block and instance (`interrupts::sources`).
    pub(super) interrupt_sources: Vec<(String, Option<String>, Option<u64>)>,
}

pub(super) fn extensions(doc: &svd_roxmltree::Document) -> Extensions {
    let mut out = Extensions::default();
    let Some(ext) = doc
        .root_element()
        .children()
        .find(|n| n.has_tag_name("vendorExtensions"))
    else {
        return out;
    };
    let text = |node: svd_roxmltree::Node, tag: &str| {
        node.children()
            .find(|n| n.has_tag_name(tag))
            .and_then(|n| n.text())
            .map(|t| t.trim().to_string())
    };
    for list in ext.children() {
        if list.has_tag_name(crate::interchange::svd_ext::RELOCATABLE) {
            out.relocatable = list.text().is_some_and(|t| t.trim() == "true");
        } else if list.has_tag_name(crate::interchange::svd_ext::INTERRUPT_SOURCES) {
            for item in list.children().filter(|n| n.has_tag_name("interrupt")) {
                out.interrupt_sources.push((
                    text(item, "name").unwrap_or_default(),
                    text(item, "block"),
                    text(item, "index").and_then(|i| i.parse().ok()),
                ));
            }
        } else if list.has_tag_name(crate::interchange::svd_ext::SINGLE_PULSES) {
            out.pulses.extend(
                list.children()
                    .filter(|n| n.has_tag_name("field"))
                    .filter_map(|n| n.text().map(|t| t.trim().to_string())),
            );
        } else if list.has_tag_name(crate::interchange::svd_ext::MSB0_FIELDS) {
            out.msb0.extend(
                list.children()
                    .filter(|n| n.has_tag_name("field"))
                    .filter_map(|n| n.text().map(|t| t.trim().to_string())),
            );
        } else if list.has_tag_name(crate::interchange::svd_ext::LOCKS) {
            for lock in list.children().filter(|n| n.has_tag_name("lock")) {
                let register = text(lock, "register").unwrap_or_default();
                let (bit, locked_when) = match (text(lock, "lockedBy"), text(lock, "writeEnable")) {
                    (Some(bit), _) => (bit, true),
                    (None, Some(bit)) => (bit, false),
                    (None, None) => (String::new(), true),
                };
                out.locks.push((register, bit, locked_when));
            }
        } else if list.has_tag_name(crate::interchange::svd_ext::ACCESS_WIDTHS) {
            for register in list.children().filter(|n| n.has_tag_name("register")) {
                out.access_widths.push((
                    text(register, "name").unwrap_or_default(),
                    text(register, "accessWidth").and_then(|w| w.parse().ok()),
                    text(register, "splitRead"),
                ));
            }
        } else if list.has_tag_name(crate::interchange::svd_ext::RESET_FROM) {
            out.resets
                .extend(list.children().filter(|n| n.is_element()).map(|n| {
                    (
                        n.tag_name().name().to_string(),
                        n.text().unwrap_or_default().trim().to_string(),
                    )
                }));
        }
    }
    out
}

impl Extensions {
    /// Marks the single pulses (SVD wrote them as `oneToSet`) and sets the locks; what names
    /// nothing of the device is reported and left out.
    pub(super) fn apply(self, device: &mut Device, warnings: &mut Warnings) {
        for path in self.pulses {
            let found = field_at(device, &path).filter(|x| {
                x.side_effect
                    .is_some_and(|e| *e == SideEffect::WriteOneToSet)
            });
            match found {
                Some(field) => {
                    field.side_effect = Some(Located::synthetic(SideEffect::SinglePulse))
                }
                None => warnings.warn(
                    Treatment::LeftOut,
                    "vendorExtensions.singlePulses",
                    format!("`{path}` is no oneToSet field of this device: left out"),
                ),
            }
        }
        for path in self.msb0 {
            match field_at(device, &path) {
                Some(field) => field.msb0 = true,
                None => warnings.warn(
                    Treatment::LeftOut,
                    "vendorExtensions.msb0Fields",
                    format!("`{path}` is no field of this device: left out"),
                ),
            }
        }
        for (path, bit, locked_when) in self.locks {
            let register = register_at(device, &path);
            match (register, bit.split_once('.')) {
                (Some(register), Some((lock_register, field))) => {
                    register.lock = Some(Lock {
                        register: Located::synthetic(lock_register.to_string()),
                        field: Located::synthetic(field.to_string()),
                        locked_when,
                    });
                }
                _ => warnings.warn(
                    Treatment::LeftOut,
                    "vendorExtensions.locks",
                    format!("the lock of `{path}` by `{bit}` names no register and bit: left out"),
                ),
            }
        }
        for (path, bits, read) in self.access_widths {
            let register = register_at(device, &path);
            match (register, bits) {
                (Some(register), Some(bits))
                    if matches!(bits, 8 | 16 | 32) && bits < *register.width =>
                {
                    register.access_width = Some(Located::synthetic(bits));
                    let protocol = read.as_deref().map(|w| (w, SplitRead::from_keyword(w)));
                    match protocol {
                        None => {}
                        Some((_, Some(p)))
                            if p == SplitRead::LowFirst
                                || (*register.width / bits == 2
                                    && register.access.is_readable()) =>
                        {
                            register.split_read = Some(Located::synthetic(p));
                        }
                        Some((word, _)) => warnings.warn(
                            Treatment::NotRepresented,
                            "vendorExtensions.accessWidths",
                            format!(
                                "the read protocol `{word}` of `{path}` is not one it can have \
                                 (`low_first`, or `until_stable` for a readable register of two \
                                 pieces): not carried"
                            ),
                        ),
                    }
                }
                _ => warnings.warn(
                    Treatment::LeftOut,
                    "vendorExtensions.accessWidths",
                    format!(
                        "the access width of `{path}` names no register it can split: left out"
                    ),
                ),
            }
        }
        for (kind, path) in self.resets {
            if let Err(why) = reset_from(device, &kind, &path) {
                warnings.warn(
                    Treatment::LeftOut,
                    "vendorExtensions.resetFrom",
                    format!("`<{kind}>{path}</{kind}>`: {why}; the field's reset is what resetValue and resetMask say (left out)"),
                );
            }
        }
        // The export explains the reset kind at the end of the register's description (SVD
        // has nowhere else to say it); with the kind back in the spec, that note is the
        // emitters' to write again, not part of the description.
        for register in device
            .blocks
            .iter_mut()
            .flat_map(|b| b.registers.iter_mut())
        {
            strip_reset_note(register);
        }
    }
}

/// Gives the field at `path` the reset kind `kind`, if the spec can hold it there (what
/// `gba check` requires of a `reset: index`/`strap`); else says why not.
fn reset_from(device: &mut Device, kind: &str, path: &str) -> Result<(), String> {
    let Some(from) = ResetFrom::from_keyword(kind) else {
        return Err(format!("`{kind}` is no reset kind (`index` or `strap`)"));
    };
    let names = path.split('.').collect::<Vec<_>>();
    let [b, r, f] = names.as_slice() else {
        return Err("not a path `BLOCK.REGISTER.FIELD`".into());
    };
    let Some(block) = device.blocks.iter_mut().find(|x| *x.name == *b) else {
        return Err(format!("no block `{b}`"));
    };
    let block_array = block.array.is_some();
    let Some(register) = block.registers.iter_mut().find(|x| *x.name == *r) else {
        return Err(format!("block `{b}` has no register `{r}`"));
    };
    let count = match (&register.array, block_array) {
        (Some(array), _) => Some(*array.count),
        (None, true) => block.array.as_ref().map(|a| *a.count),
        (None, false) => None,
    };
    let reset = *register.reset;
    let Some(field) = register.fields.iter_mut().find(|x| *x.name == *f) else {
        return Err(format!("register `{b}.{r}` has no field `{f}`"));
    };
    if reset & field.bits.mask() != 0 {
        return Err(format!(
            "register `{b}.{r}`'s resetValue {reset:#x} sets bits of field `{f}`, which must be 0 \
             for a reset from its index or a strap"
        ));
    }
    if from == ResetFrom::Index {
        match count {
            None => {
                return Err(format!(
                    "register `{b}.{r}` is in no array, so field `{f}` has no index"
                ));
            }
            Some(count) if count.saturating_sub(1) > field.bits.value_mask() => {
                return Err(format!(
                    "field `{f}` of register `{b}.{r}` has {} bits, too few for index {}",
                    field.bits.width(),
                    count - 1
                ));
            }
            Some(_) => {}
        }
    }
    field.reset_from = Some(Located::synthetic(from));
    Ok(())
}

/// Removes the note `emit::svd` appends to a register whose fields reset from their index or
/// a strap, when it is exactly that note (a vendor's own words stay).
fn strip_reset_note(register: &mut Register) {
    let Some(note) = crate::interchange::reset_note(register) else {
        return;
    };
    if register.description == note {
        register.description.clear();
    } else if let Some(rest) = register.description.strip_suffix(&format!("\n\n{note}")) {
        register.description = rest.to_string();
    }
}

/// The register a vendor extension names as `BLOCK.REGISTER`.
/// The field `BLOCK.REGISTER.FIELD` of `device`, if it has one.
fn field_at<'a>(device: &'a mut Device, path: &str) -> Option<&'a mut Field> {
    let (register, field) = path.rsplit_once('.')?;
    register_at(device, register)?
        .fields
        .iter_mut()
        .find(|f| *f.name == field)
}

fn register_at<'a>(device: &'a mut Device, path: &str) -> Option<&'a mut Register> {
    let (block, register) = path.split_once('.')?;
    device
        .blocks
        .iter_mut()
        .find(|b| *b.name == block)?
        .registers
        .iter_mut()
        .find(|r| *r.name == register)
}
