//! CMSIS-SVD (`<device>.svd`), written with svd-rs and svd-encoder.
//!
//! Mapping: the device window is the address space (peripheral base addresses are block
//! offsets); a block is a peripheral with one `addressBlock` of the block's size, a block
//! array a `dim` peripheral (`name[%s]`); a register array a `dim` register; side effects
//! become `modifiedWriteValues` (woclr → oneToClear, woset → oneToSet, wot → oneToToggle,
//! wzc/wzs/wzt → zeroToClear/zeroToSet/zeroToToggle, singlepulse → oneToSet) and
//! `readAction` (rclr → clear, rset → set, ruser → modify, rext → modifyExternal). Every register states its size, access, reset value and a reset mask,
//! so nothing depends on inherited defaults: the full mask, but for the bits of fields whose
//! reset is their element's index or a strap (which one value cannot say).
//!
//! SVD has no element for the spec's constants: they go into `<vendorExtensions>` as
//! `<constants><constant><name/><value/><description/></constant></constants>`, which the
//! importer (`crate::import::svd`) reads back. What else SVD cannot say goes there too, by
//! path (`BLOCK.REGISTER.FIELD`): the fields that are single pulses
//! (`<singlePulses><field/>`), the msb0 fields (`<msb0Fields><field/>`: SVD has no bit order;
//! their enumerated values are values), and registers' locks
//! (`<locks><lock><register/><lockedBy/>` or `<writeEnable/></lock>`), and the fields whose
//! reset is their element's index or a strap (`<resetFrom><index/>` or `<strap/>`), which
//! `<resetMask>` alone only says are unknown.

use svd_rs as svd;
use svd_rs::ValidateLevel;

use super::{EmitError, GeneratedFile, Output, Place, Provenance};
use crate::Validated;
use crate::interchange::svd_ext::{
    ACCESS_WIDTHS, CONSTANTS, LOCKS, MSB0_FIELDS, RELOCATABLE, RESET_FROM, SINGLE_PULSES,
};
use crate::location::Loc;
use crate::model::{Access, Block, Device, EnumValue, Field, Register, ResetFrom, SideEffect};

pub fn files(device: &Validated, provenance: &Provenance) -> Result<Vec<GeneratedFile>, EmitError> {
    Ok(vec![GeneratedFile {
        place: Place::Crate,
        path: format!("{}.svd", names_lower(&device.name)),
        contents: render(device, provenance)?,
    }])
}

fn names_lower(name: &str) -> String {
    crate::names::lower(name)
}

/// Why a validated device still cannot be written as SVD (becomes an [`EmitError`] at the
/// spec item it concerns).
#[derive(Debug, thiserror::Error)]
pub enum SvdEmitError {
    /// SVD stores register offsets, block sizes and strides as 32-bit numbers.
    #[error("{what} is {value:#x}, which does not fit SVD's 32-bit {element}")]
    TooLarge {
        what: String,
        element: &'static str,
        value: u64,
    },
    #[error("svd-rs refused {what}: {message}")]
    Rejected { what: String, message: String },
    #[error("svd-encoder failed: {0}")]
    Encode(String),
}

/// The full file: the XML declaration, the preamble as a comment, the device. A device that
/// SVD cannot hold (a 32-bit overflow) is an error at the item that overflows.
pub fn render(device: &Device, provenance: &Provenance) -> Result<String, EmitError> {
    let device = &super::text::map_descriptions(device, super::text::xml);
    let body = to_svd(device)
        .and_then(|svd| encode(&svd, device).map_err(|error| located(error, device.name.loc)))?;
    let (declaration, rest) = body.split_once('\n').unwrap_or((&body, ""));
    let preamble = comment_safe(&provenance.preamble(""));
    Ok(format!(
        "{declaration}\n<!--{}-->\n{rest}",
        preamble.trim_end_matches('\n')
    ))
}

/// The SVD output's rules: what svd-rs's strict checks refuse, or SVD's 32-bit fields cannot
/// hold, is found by building the device (the first problem, at its spec item).
pub(crate) fn check(device: &Device) -> Vec<crate::Diagnostic> {
    to_svd(device)
        .err()
        .map(|e| e.diagnostic())
        .into_iter()
        .collect()
}

fn located(error: SvdEmitError, loc: Loc) -> EmitError {
    EmitError {
        output: Output::Svd,
        message: error.to_string(),
        loc,
    }
}

/// XML comments cannot contain `--`, which the regenerate command does (`--spec`); the
/// hyphens are spaced apart there, the only change made to the text.
fn comment_safe(text: &str) -> String {
    let mut out = text.to_string();
    while out.contains("--") {
        out = out.replace("--", "- -");
    }
    out
}

fn encode(svd: &svd::Device, device: &Device) -> Result<String, SvdEmitError> {
    // Sizes read better in decimal (`<size>64</size>`); addresses stay hex.
    let config = svd_encoder::Config::default().register_size(svd_encoder::NumberFormat::Dec);
    let xml = svd_encoder::encode_with_config(svd, &config)
        .map_err(|e| SvdEmitError::Encode(e.to_string()))?;
    let extensions = extensions(device);
    if device.constants.is_empty() && extensions.is_empty() {
        return Ok(ensure_newline(xml));
    }
    // svd-rs has no vendorExtensions; the element is spliced in before the closing tag,
    // where the schema places it (after `peripherals`).
    let close = "</device>";
    let Some(at) = xml.rfind(close) else {
        return Err(SvdEmitError::Encode("no </device> in the output".into()));
    };
    let mut ext = format!("  <vendorExtensions>\n    <{CONSTANTS}>\n");
    if device.constants.is_empty() {
        ext = String::from("  <vendorExtensions>\n");
    }
    for constant in &device.constants {
        ext.push_str("      <constant>\n");
        ext.push_str(&format!(
            "        <name>{}</name>\n",
            escape(&constant.name)
        ));
        ext.push_str(&format!("        <value>{}</value>\n", *constant.value));
        if !constant.description.is_empty() {
            ext.push_str(&format!(
                "        <description>{}</description>\n",
                escape(&constant.description)
            ));
        }
        ext.push_str("      </constant>\n");
    }
    if !device.constants.is_empty() {
        ext.push_str(&format!("    </{CONSTANTS}>\n"));
    }
    ext.push_str(&extensions);
    ext.push_str("  </vendorExtensions>\n");
    Ok(ensure_newline(format!("{}{ext}{}", &xml[..at], &xml[at..])))
}

/// `<singlePulses>`, `<locks>`, `<resetFrom>` and `<accessWidths>`: what the spec says that SVD has no
/// element for.
fn extensions(device: &Device) -> String {
    let mut pulses = String::new();
    let mut msb0 = String::new();
    let mut locks = String::new();
    let mut resets = String::new();
    let mut widths = String::new();
    for block in &device.blocks {
        for register in &block.registers {
            let path = format!("{}.{}", *block.name, *register.name);
            if register.access_pieces() > 1 {
                let read = register.split_read.as_ref().map_or(String::new(), |p| {
                    format!("        <splitRead>{}</splitRead>\n", p.keyword())
                });
                widths.push_str(&format!(
                    "      <register>\n        <name>{}</name>\n        \
                     <accessWidth>{}</accessWidth>\n{read}      </register>\n",
                    escape(&path),
                    register.access_bits()
                ));
            }
            for field in &register.fields {
                if field
                    .side_effect
                    .is_some_and(|e| *e == SideEffect::SinglePulse)
                {
                    pulses.push_str(&format!(
                        "      <field>{}.{}</field>\n",
                        escape(&path),
                        escape(&field.name)
                    ));
                }
                if field.is_msb0() {
                    msb0.push_str(&format!(
                        "      <field>{}.{}</field>\n",
                        escape(&path),
                        escape(&field.name)
                    ));
                }
                // A field not reset is SVD's own: its bits are out of `<resetMask>`.
                if let Some(from) = field.reset_from.filter(|r| **r != ResetFrom::NotReset) {
                    let kind = from.keyword();
                    resets.push_str(&format!(
                        "      <{kind}>{}.{}</{kind}>\n",
                        escape(&path),
                        escape(&field.name)
                    ));
                }
            }
            if let Some(lock) = &register.lock {
                let tag = if lock.locked_when {
                    "lockedBy"
                } else {
                    "writeEnable"
                };
                locks.push_str(&format!(
                    "      <lock>\n        <register>{}</register>\n        \
                     <{tag}>{}.{}</{tag}>\n      </lock>\n",
                    escape(&path),
                    escape(&lock.register),
                    escape(&lock.field)
                ));
            }
        }
    }
    let mut out = String::new();
    if device.address.is_none() {
        out.push_str(&format!("    <{RELOCATABLE}>true</{RELOCATABLE}>\n"));
    }
    out.push_str(&super::svd_interrupts::sources(device));
    if !pulses.is_empty() {
        out.push_str(&format!(
            "    <{SINGLE_PULSES}>\n{pulses}    </{SINGLE_PULSES}>\n"
        ));
    }
    if !msb0.is_empty() {
        out.push_str(&format!(
            "    <{MSB0_FIELDS}>\n{msb0}    </{MSB0_FIELDS}>\n"
        ));
    }
    if !locks.is_empty() {
        out.push_str(&format!("    <{LOCKS}>\n{locks}    </{LOCKS}>\n"));
    }
    if !resets.is_empty() {
        out.push_str(&format!(
            "    <{RESET_FROM}>\n{resets}    </{RESET_FROM}>\n"
        ));
    }
    if !widths.is_empty() {
        out.push_str(&format!(
            "    <{ACCESS_WIDTHS}>\n{widths}    </{ACCESS_WIDTHS}>\n"
        ));
    }
    out
}

fn ensure_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The device as svd-rs objects, built and checked at svd-rs's strict level.
pub fn to_svd(device: &Device) -> Result<svd::Device, EmitError> {
    // A block type's later instances derive from its first (`derivedFrom`, as vendors write
    // GPIOB from GPIOA), and every instance names the type as its `groupName`, which
    // `gba import-svd` reads back as the type's name.
    let mut firsts: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    let mut peripherals = device
        .blocks
        .iter()
        .map(|block| {
            let derived = block.instance_of.as_ref().and_then(|ty| {
                let first = *firsts
                    .entry(ty.name.as_str())
                    .or_insert(block.name.as_str());
                (first != block.name.as_str()).then_some(first)
            });
            peripheral(block, derived)
        })
        .collect::<Result<Vec<_>, _>>()?;
    super::svd_interrupts::attach(device, &mut peripherals)?;
    // SVD's addresses are absolute: a window at a fixed address moves every block there.
    let base = device.address.as_deref().copied().unwrap_or(0);
    for peripheral in &mut peripherals {
        let info: &mut svd::PeripheralInfo = peripheral;
        info.base_address = info.base_address.saturating_add(base);
    }
    // `<width>` is the bus's: the widest access, not the widest register (a 64-bit register
    // with `access_width: 32` is two accesses of a 32-bit bus).
    let widest = device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .map(|r| r.access_bits())
        .max()
        .unwrap_or(32);
    svd::Device::builder()
        .name(device.name.value.clone())
        .version(device.version.clone())
        .description(device.description.clone())
        .address_unit_bits(8)
        .width(widest)
        .cpu(super::svd_interrupts::cpu(device))
        .peripherals(peripherals)
        .build(ValidateLevel::Strict)
        .map_err(|e| {
            located(
                rejected(format!("device `{}`", *device.name), e),
                device.name.loc,
            )
        })
}

fn rejected(what: String, error: impl std::fmt::Display) -> SvdEmitError {
    SvdEmitError::Rejected {
        what,
        message: error.to_string(),
    }
}

fn fit32(
    value: u64,
    what: impl FnOnce() -> String,
    element: &'static str,
) -> Result<u32, SvdEmitError> {
    u32::try_from(value).map_err(|_| SvdEmitError::TooLarge {
        what: what(),
        element,
        value,
    })
}

fn optional(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_string())
}

fn dim(
    count: u64,
    stride: u64,
    what: &dyn Fn() -> String,
) -> Result<svd::DimElement, SvdEmitError> {
    svd::DimElement::builder()
        .dim(fit32(count, what, "dim")?)
        .dim_increment(fit32(stride, what, "dimIncrement")?)
        .build(ValidateLevel::Strict)
        .map_err(|e| rejected(what(), e))
}

fn peripheral(block: &Block, derived_from: Option<&str>) -> Result<svd::Peripheral, EmitError> {
    let registers = match derived_from {
        Some(_) => Vec::new(),
        None => block
            .registers
            .iter()
            .map(|r| {
                register(r, block)
                    .map(svd::RegisterCluster::Register)
                    .map_err(|e| located(e, r.name.loc))
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    peripheral_info(block, registers, derived_from).map_err(|e| located(e, block.name.loc))
}

fn peripheral_info(
    block: &Block,
    registers: Vec<svd::RegisterCluster>,
    derived_from: Option<&str>,
) -> Result<svd::Peripheral, SvdEmitError> {
    let what = || format!("block `{}`", *block.name);
    let address_block = svd::AddressBlock::builder()
        .offset(0)
        .size(fit32(*block.size, what, "addressBlock size")?)
        .usage(svd::AddressBlockUsage::Registers)
        .build(ValidateLevel::Strict)
        .map_err(|e| rejected(what(), e))?;
    let dim = match &block.array {
        Some(array) => Some(dim(*array.count, *array.stride, &what)?),
        None => None,
    };
    let name = match dim {
        Some(_) => format!("{}[%s]", *block.name),
        None => block.name.value.clone(),
    };
    let info = svd::PeripheralInfo::builder()
        .name(name)
        .description(optional(&block.description))
        .base_address(*block.offset)
        .alternate_peripheral(block.alternate_of.as_ref().map(|of| of.value.clone()))
        .group_name(block.instance_of.as_ref().map(|ty| ty.name.value.clone()))
        .derived_from(derived_from.map(str::to_string))
        .address_block(Some(vec![address_block]))
        // svd-rs refuses an empty <registers> element: a block without registers has none.
        .registers((!registers.is_empty()).then_some(registers))
        .build(ValidateLevel::Strict)
        .map_err(|e| rejected(what(), e))?;
    Ok(info.maybe_array(dim))
}

fn register(register: &Register, block: &Block) -> Result<svd::Register, SvdEmitError> {
    let what = || format!("register `{}` of block `{}`", *register.name, *block.name);
    let fields = register
        .fields
        .iter()
        .map(|f| field(f, register, &what))
        .collect::<Result<Vec<_>, _>>()?;
    let dim = match &register.array {
        Some(array) => Some(dim(*array.count, *array.stride, &what)?),
        None => None,
    };
    let name = match dim {
        Some(_) => format!("{}[%s]", *register.name),
        None => register.name.value.clone(),
    };
    // A field that resets to its element's index or is strapped has no one reset value:
    // resetMask leaves its bits out (SVD's own "unknown after reset"), the description says why.
    let description = match super::reset_note(register) {
        Some(note) if register.description.trim().is_empty() => note,
        Some(note) => format!("{}\n\n{note}", register.description.trim_end()),
        None => register.description.clone(),
    };
    let info = svd::RegisterInfo::builder()
        .name(name)
        .description(optional(&description))
        .address_offset(fit32(*register.offset, what, "addressOffset")?)
        .size(Some(*register.width))
        .access(Some(access(*register.access)))
        .reset_value(Some(*register.reset))
        .reset_mask(Some(register.fixed_reset_mask()))
        .alternate_register(register.alternate_of.as_ref().map(|of| of.value.clone()))
        // svd-rs rejects an empty <fields> element: a register without fields has none.
        .fields((!fields.is_empty()).then_some(fields))
        .build(ValidateLevel::Strict)
        .map_err(|e| rejected(what(), e))?;
    Ok(info.maybe_array(dim))
}

fn field(
    field: &Field,
    register: &Register,
    register_what: &dyn Fn() -> String,
) -> Result<svd::Field, SvdEmitError> {
    let what = || format!("field `{}` of {}", *field.name, register_what());
    let (modified_write_values, read_action) = match field.side_effect.map(|s| *s) {
        Some(SideEffect::WriteOneToClear) => (Some(svd::ModifiedWriteValues::OneToClear), None),
        Some(SideEffect::WriteOneToSet) => (Some(svd::ModifiedWriteValues::OneToSet), None),
        Some(SideEffect::WriteOneToToggle) => (Some(svd::ModifiedWriteValues::OneToToggle), None),
        Some(SideEffect::WriteZeroToClear) => (Some(svd::ModifiedWriteValues::ZeroToClear), None),
        Some(SideEffect::WriteZeroToSet) => (Some(svd::ModifiedWriteValues::ZeroToSet), None),
        Some(SideEffect::WriteZeroToToggle) => (Some(svd::ModifiedWriteValues::ZeroToToggle), None),
        // SVD has no self-clearing write: a pulse is a bit that writing 1 sets (and the
        // hardware clears); the description says the rest.
        Some(SideEffect::SinglePulse) => (Some(svd::ModifiedWriteValues::OneToSet), None),
        Some(SideEffect::ReadToClear) => (None, Some(svd::ReadAction::Clear)),
        Some(SideEffect::ReadToSet) => (None, Some(svd::ReadAction::Set)),
        Some(SideEffect::ReadModify) => (None, Some(svd::ReadAction::Modify)),
        Some(SideEffect::ReadModifyExternal) => (None, Some(svd::ReadAction::ModifyExternal)),
        None => (None, None),
    };
    // Values for writing of their own: two sets, `usage` read and write.
    let mut values = Vec::new();
    let split = !field.write_values.is_empty();
    if !field.values.is_empty() {
        let usage = split.then_some(svd::Usage::Read);
        values.push(enumerated_values(&field.values, usage, &what)?);
    }
    if split {
        values.push(enumerated_values(
            &field.write_values,
            Some(svd::Usage::Write),
            &what,
        )?);
    }
    let info = svd::FieldInfo::builder()
        .name(field.name.value.clone())
        .description(optional(&field.description))
        .bit_range(svd::BitRange {
            offset: field.bits.lsb,
            width: field.bits.width(),
            // Written `[msb:lsb]`, the form the datasheet tables use.
            range_type: svd::BitRangeType::BitRange,
        })
        .access(field_access(field, register))
        .modified_write_values(modified_write_values)
        .read_action(read_action)
        .enumerated_values(values)
        .build(ValidateLevel::Strict)
        .map_err(|e| rejected(what(), e))?;
    Ok(svd::Field::Single(info))
}

fn enumerated_values(
    values: &[EnumValue],
    usage: Option<svd::Usage>,
    what: &dyn Fn() -> String,
) -> Result<svd::EnumeratedValues, SvdEmitError> {
    let values = values
        .iter()
        .map(|v| {
            svd::EnumeratedValue::builder()
                .name(v.name.value.clone())
                .description(optional(&v.description))
                .value(Some(*v.value))
                .build(ValidateLevel::Strict)
                .map_err(|e| rejected(format!("value `{}` of {}", *v.name, what()), e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    svd::EnumeratedValues::builder()
        .usage(usage)
        .values(values)
        .build(ValidateLevel::Strict)
        .map_err(|e| rejected(what(), e))
}

/// A field's `<access>`: its own, if it has one; `writeOnce`/`read-writeOnce` for a
/// write-once field, whatever its register's.
fn field_access(field: &Field, register: &Register) -> Option<svd::Access> {
    if !field.write_once {
        return field.access.map(|a| access(*a));
    }
    Some(match field.effective_access(register) {
        Access::WriteOnly => svd::Access::WriteOnce,
        _ => svd::Access::ReadWriteOnce,
    })
}

fn access(access: Access) -> svd::Access {
    match access {
        Access::ReadOnly => svd::Access::ReadOnly,
        Access::WriteOnly => svd::Access::WriteOnly,
        Access::ReadWrite => svd::Access::ReadWrite,
    }
}
