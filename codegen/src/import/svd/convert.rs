//! SVD items → model items: the device, its blocks, registers, fields and enumerated values,
//! with every SVD property that the model cannot hold reported. The per-block and
//! per-register passes (flattening, renaming, overlaps, arrays) are called from here, in
//! source order.

use std::collections::HashMap;

use svd_rs as svd;

use super::warnings::Warnings;
use super::{
    MAX_ELEMENTS, arrays, clean, flatten, interrupts, overlaps, plain_access, rename, strip_dim,
};
use crate::import::Treatment;
use crate::location::Located;
use crate::model::{
    Access, Array, BitRange, Block, Constant, Cpu, Device, EnumValue, Field, Register, SideEffect,
};

/// The model of a resolved SVD device: its blocks, merged, renamed and fitted.
pub(super) fn device(
    warnings: &mut Warnings,
    svd: &svd::Device,
    constants: Vec<Constant>,
) -> Device {
    let at = svd.name.clone();
    let not_carried: Vec<&str> = [
        (svd.cpu.is_some(), "cpu (all but its name and nvicPrioBits)"),
        (svd.vendor.is_some(), "vendor"),
        (svd.vendor_id.is_some(), "vendorID"),
        (svd.series.is_some(), "series"),
        (svd.license_text.is_some(), "licenseText"),
        (svd.header_system_filename.is_some(), "headerSystemFilename"),
        (
            svd.header_definitions_prefix.is_some(),
            "headerDefinitionsPrefix",
        ),
    ]
    .into_iter()
    .filter_map(|(present, what)| present.then_some(what))
    .collect();
    if !not_carried.is_empty() {
        warnings.warn(
            Treatment::NotRepresented,
            &at,
            format!(
                "not represented in the spec format: {}",
                not_carried.join(", ")
            ),
        );
    }
    let mut blocks = Vec::new();
    for p in &svd.peripherals {
        peripheral(warnings, p, &mut blocks);
    }
    arrays::merge_numbered_blocks(warnings, &mut blocks);
    let raw: Vec<String> = blocks.iter().map(|b| b.name.value.clone()).collect();
    rename::rename_all(warnings, &mut blocks, |b| &mut b.name, "block", &at, true);
    overlaps::follow_block_renames(&raw, &mut blocks);
    overlaps::fit_blocks(warnings, &mut blocks);
    let cpu = svd.cpu.as_ref().map(|cpu| Cpu {
        name: Located::synthetic(cpu.name.clone()),
        nvic_prio_bits: Some(Located::synthetic(u64::from(cpu.nvic_priority_bits))),
    });
    let interrupts = interrupts::interrupts(warnings, svd, &blocks, cpu.as_ref());
    Device {
        name: Located::synthetic(rename::identifier(warnings, &svd.name, "device", &at, "D")),
        description: clean(svd.description.as_str()),
        version: svd.version.clone(),
        constants,
        blocks,
        interrupts,
        cpu,
        // Every SVD address is absolute: the window starts at address 0.
        address: Some(Located::synthetic(0)),
    }
}

pub(super) fn peripheral(warnings: &mut Warnings, p: &svd::Peripheral, blocks: &mut Vec<Block>) {
    match p {
        svd::Peripheral::Single(info) => {
            if let Some(block) = block(warnings, info, None) {
                blocks.push(block);
            }
        }
        svd::Peripheral::Array(info, dim) if info.name.contains("[%s]") => {
            let array = (u64::from(dim.dim), u64::from(dim.dim_increment));
            if let Some(block) = block(warnings, info, Some(array)) {
                blocks.push(block);
            }
        }
        svd::Peripheral::Array(info, dim) if u64::from(dim.dim) > MAX_ELEMENTS => {
            warnings.warn(
                Treatment::LeftOut,
                &info.name,
                "peripheral array too large to expand: left out",
            );
        }
        svd::Peripheral::Array(info, dim) => {
            for element in svd::peripheral::expand(info, dim) {
                if let Some(block) = block(warnings, &element, None) {
                    blocks.push(block);
                }
            }
        }
    }
}

pub(super) fn block(
    warnings: &mut Warnings,
    info: &svd::PeripheralInfo,
    array: Option<(u64, u64)>,
) -> Option<Block> {
    let raw_name = strip_dim(&info.name);
    let at = raw_name.clone();
    let mut flat = Vec::new();
    if let Some(children) = &info.registers {
        flatten::flatten(warnings, children, "", &at, 0, None, &mut flat);
    }
    let mut registers: Vec<Register> = Vec::new();
    let mut claims = Vec::new();
    for f in flat {
        let claim = claim(&f);
        let mut views = register(warnings, f).into_iter();
        let Some(register) = views.next() else {
            continue;
        };
        // The views of a register's overlapping fields go where it goes (see Claim::View).
        let at_index = registers.len();
        registers.push(register);
        claims.push(claim);
        for view in views {
            registers.push(view);
            claims.push(overlaps::Claim::View(at_index));
        }
    }
    let raw: Vec<String> = registers.iter().map(|r| r.name.value.clone()).collect();
    rename::rename_all(
        warnings,
        &mut registers,
        |r| &mut r.name,
        "register",
        &at,
        true,
    );
    overlaps::follow_renames(&raw, &registers, &mut claims);
    overlaps::drop_register_overlaps(warnings, &mut registers, &claims, &at);
    arrays::merge_numbered_registers(warnings, &mut registers, &at);

    let register_end = registers
        .iter()
        .filter_map(|r| {
            r.element_offsets()
                .last()
                .map(|o| o.saturating_add(r.bytes()))
        })
        .max()
        .unwrap_or(0);
    let declared_end = info
        .address_block
        .iter()
        .flatten()
        .map(|b| u64::from(b.offset) + u64::from(b.size))
        .max()
        .unwrap_or(0);
    let mut size = register_end.max(declared_end).max(1);
    // CMSIS-SVD addresses are 32-bit: an address block reaching past 4 GiB (STM32L1xx's NVIC
    // declares 0xFFFFF3FF bytes at 0x1001) is a slip, and one the SVD output cannot write.
    let space = 1u64 << 32;
    if declared_end > register_end
        && (size > u64::from(u32::MAX) || info.base_address.saturating_add(size) > space)
    {
        let needed = register_end.max(1);
        warnings.warn(
            Treatment::Repaired,
            &at,
            format!(
                "addressBlock ends at {declared_end:#x} from base {:#x}, past the 32-bit \
                 address space: cut to {needed:#x} bytes, what its registers need",
                info.base_address
            ),
        );
        size = needed;
    }
    let mut array = array.map(|(count, stride)| Array {
        count: Located::synthetic(count),
        stride: Located::synthetic(stride),
    });
    if let Some(a) = &array {
        if *a.count == 0 {
            warnings.warn(
                Treatment::LeftOut,
                &at,
                "peripheral array of 0 elements: left out",
            );
            return None;
        }
        if size > *a.stride && *a.count > 1 {
            if register_end <= *a.stride {
                // The declared address block reaches into the next element; the
                // registers do not, so the block is what the registers need.
                size = (*a.stride).max(1);
            } else {
                warnings.warn(
                    Treatment::LeftOut,
                    &at,
                    format!(
                        "peripheral array elements overlap (registers span {register_end:#x}, \
                         dimIncrement {:#x}): only the first element is imported",
                        *a.stride
                    ),
                );
                array = None;
            }
        }
    }
    Some(Block {
        name: Located::synthetic(raw_name),
        description: clean(info.description.as_deref().unwrap_or_default()),
        offset: Located::synthetic(info.base_address),
        size: Located::synthetic(size),
        array,
        registers,
        // The claim as the SVD spells it: `overlaps::fit_blocks` keeps it when the block
        // overlaps the one it names, after merges and renames.
        alternate_of: info
            .alternate_peripheral
            .as_deref()
            .map(|of| Located::synthetic(strip_dim(of))),
        instance_of: None,
    })
}

/// What the register declares about being an alternate: `alternateRegister` names a
/// register of the same cluster, so it is flattened as the register's own name is; a
/// register of an `alternateCluster` is an alternate of what it overlaps.
fn claim(flat: &flatten::Flat) -> overlaps::Claim {
    if let Some(of) = &flat.info.alternate_register {
        let own = strip_dim(&flat.info.name);
        let prefix = flat.name.strip_suffix(own.as_str()).unwrap_or_default();
        overlaps::Claim::Of(format!("{prefix}{}", strip_dim(of)))
    } else if let Some(group) = &flat.info.alternate_group {
        overlaps::Claim::Group(group.clone())
    } else if let Some(counterpart) = &flat.cluster_alternate {
        overlaps::Claim::Cluster(counterpart.clone())
    } else {
        overlaps::Claim::None
    }
}

/// The register, then the alternate views that hold its fields that overlap others (see
/// `overlaps::split_field_overlaps`); none when it cannot be imported.
pub(super) fn register(warnings: &mut Warnings, flat: flatten::Flat) -> Vec<Register> {
    let flatten::Flat {
        name,
        at,
        offset,
        array,
        info,
        cluster_alternate: _,
    } = flat;
    let props = info.properties;
    let declared = props.size.unwrap_or(32);
    // A register of another size (24 bits, or 1 where a vendor meant one byte) is reached by
    // the bus access of the next size up, as svd2rust and chiptool access it too: imported
    // at that width, the bits above the declared size reserved.
    let width = match super::access_width(declared) {
        Some(width) if width == declared => width,
        Some(width) => {
            warnings.warn(
                Treatment::Repaired,
                &at,
                format!(
                    "size {declared} bits: imported as a {width}-bit register (the access \
                     that reaches it), bits {declared} and up reserved"
                ),
            );
            width
        }
        None => {
            warnings.warn(
                Treatment::LeftOut,
                &at,
                format!(
                    "size {declared} bits: no bus access reaches a register wider than 64 \
                     bits (or of 0): register left out"
                ),
            );
            return Vec::new();
        }
    };
    let bytes = u64::from(width / 8);
    if !offset.is_multiple_of(bytes) {
        warnings.warn(
            Treatment::LeftOut,
            &at,
            format!("offset {offset:#x} is not aligned to its {bytes} bytes: register left out"),
        );
        return Vec::new();
    }
    let array = match array {
        Some((0, _)) => {
            warnings.warn(
                Treatment::LeftOut,
                &at,
                "array of 0 elements: register left out",
            );
            return Vec::new();
        }
        Some((count, stride)) if stride < bytes || !stride.is_multiple_of(bytes) => {
            warnings.warn(
                Treatment::LeftOut,
                &at,
                format!(
                    "dimIncrement {stride:#x} does not fit a {width}-bit register: only \
                     element 0 of {count} imported"
                ),
            );
            None
        }
        Some((count, stride)) => Some(Array {
            count: Located::synthetic(count),
            stride: Located::synthetic(stride),
        }),
        None => None,
    };
    if info.write_constraint.is_some() {
        warnings.warn(
            Treatment::NotRepresented,
            &at,
            "register writeConstraint not represented",
        );
    }
    if let Some(protection) = props.protection {
        warnings.warn(
            Treatment::NotRepresented,
            &at,
            format!("protection {protection:?} not represented"),
        );
    }
    let width_mask = u64::MAX >> (64 - width);
    let mut reset = props.reset_value.unwrap_or(0);
    if reset & !width_mask != 0 {
        warnings.warn(
            Treatment::Repaired,
            &at,
            format!("resetValue {reset:#x} wider than {width} bits: cut to the register"),
        );
        reset &= width_mask;
    }
    // Bits outside `<resetMask>` are not reset: a field wholly outside it is carried as
    // `reset: none` (below); what is left is warned about there.
    let unknown = props.reset_mask.map_or(0, |mask| width_mask & !mask);

    let fields_svd: Vec<svd::FieldInfo> = info
        .fields
        .iter()
        .flatten()
        .flat_map(|f| match f {
            svd::Field::Single(info) => vec![info.clone()],
            svd::Field::Array(info, dim) => svd::field::expand(info, dim).collect(),
        })
        .collect();
    let explicit_access = props
        .access
        .map(|a| convert_access(warnings, a, fields_svd.is_empty(), &at));
    let access = explicit_access.unwrap_or_else(|| {
        // No access anywhere up the tree: the union of the fields', read-write (the SVD
        // default) when they say nothing either.
        let field_access: Vec<Access> = fields_svd
            .iter()
            .filter_map(|f| f.access.map(plain_access))
            .collect();
        if field_access.is_empty() || fields_svd.iter().any(|f| f.access.is_none()) {
            Access::ReadWrite
        } else {
            let readable = field_access.iter().any(|a| a.is_readable());
            let writable = field_access.iter().any(|a| a.is_writable());
            match (readable, writable) {
                (true, false) => Access::ReadOnly,
                (false, true) => Access::WriteOnly,
                _ => Access::ReadWrite,
            }
        }
    });
    let mut fields = Vec::new();
    for field in &fields_svd {
        if let Some(field) = self::field(warnings, field, &info, access, width, &at) {
            fields.push(field);
        }
    }
    if unknown != 0 {
        reset = not_reset(warnings, &mut fields, reset, unknown, props.reset_mask, &at);
    }
    rename::rename_all(warnings, &mut fields, |f| &mut f.name, "field", &at, false);
    let views = overlaps::split_field_overlaps(warnings, &mut fields, &name, &at);
    let register = Register {
        name: Located::synthetic(name.clone()),
        description: clean(info.description.as_deref().unwrap_or_default()),
        offset: Located::synthetic(offset),
        width: Located::synthetic(width),
        access: Located::synthetic(access),
        reset: Located::synthetic(reset),
        array,
        fields,
        alternate_of: None,
        lock: None,
        access_width: None,
        split_read: None,
        hardware: Default::default(),
    };
    let views: Vec<Register> = views
        .into_iter()
        .enumerate()
        .map(|(n, fields)| Register {
            name: Located::synthetic(overlaps::view_name(&name, n + 1)),
            description: format!(
                "Another view of `{name}`: the fields that overlap its own (one register in \
                 the SVD)."
            ),
            offset: register.offset,
            width: register.width,
            access: register.access,
            reset: register.reset,
            array: register.array.clone(),
            fields,
            alternate_of: None,
            lock: None,
            access_width: None,
            split_read: None,
            hardware: Default::default(),
        })
        .collect();
    std::iter::once(register).chain(views).collect()
}

/// The register's bits outside `<resetMask>` (`unknown`): each field wholly among them is not
/// reset (`reset: none`); bits of a field partly among them, and of a register without fields,
/// cannot be said (the spec resets whole fields) and are warned about, imported as reset to the
/// value given. Returns the reset value with the not-reset fields' bits 0.
fn not_reset(
    warnings: &mut Warnings,
    fields: &mut [Field],
    reset: u64,
    unknown: u64,
    mask: Option<u64>,
    at: &str,
) -> u64 {
    let mut reset = reset;
    let mut partly = 0;
    for field in fields.iter_mut() {
        let bits = field.bits.mask();
        if bits & unknown == bits {
            field.reset_from = Some(Located::synthetic(crate::model::ResetFrom::NotReset));
            reset &= !bits;
        } else if bits & unknown != 0 {
            partly |= bits & unknown;
        }
    }
    if fields.is_empty() {
        partly = unknown;
    }
    if partly != 0 {
        let mask = mask.unwrap_or(0);
        warnings.warn(
            Treatment::NotRepresented,
            at,
            format!(
                "resetMask {mask:#x} leaves bits {partly:#x} not reset, which is not a whole \
                 field (the spec says `reset: none` of whole fields): they are imported as \
                 reset to {:#x}",
                reset & partly
            ),
        );
    }
    reset
}

/// A register's access. Write-once is carried by the fields (`write_once`, see
/// [`super::once`]); a register without fields has none to carry it, and says so.
pub(super) fn convert_access(
    warnings: &mut Warnings,
    access: svd::Access,
    no_fields: bool,
    at: &str,
) -> Access {
    if no_fields && super::once::is_once(access) {
        warnings.warn(
            Treatment::NotRepresented,
            at,
            format!(
                "access {} of a register without fields imported as {} (once is carried by \
                 fields only)",
                access.as_str(),
                plain_access(access).keyword()
            ),
        );
    }
    plain_access(access)
}

pub(super) fn field(
    warnings: &mut Warnings,
    f: &svd::FieldInfo,
    register: &svd::RegisterInfo,
    register_access: Access,
    width: u32,
    register_at: &str,
) -> Option<Field> {
    let at = format!("{register_at}.{}", f.name);
    // Computed here, not with svd-rs's `msb()`, whose u32 arithmetic overflows on a
    // hostile bit offset.
    let lsb = f.bit_range.offset;
    let msb = u64::from(lsb) + u64::from(f.bit_range.width.max(1)) - 1;
    if f.bit_range.width == 0 || msb >= u64::from(width) {
        warnings.warn(
            Treatment::LeftOut,
            &at,
            format!("bits [{msb}:{lsb}] do not fit the {width}-bit register: field left out"),
        );
        return None;
    }
    let mut access = f.access.map(plain_access);
    if let Some(a) = access {
        let readable = a.is_readable() && register_access.is_readable();
        let writable = a.is_writable() && register_access.is_writable();
        let narrowed = match (readable, writable) {
            (true, true) => Some(Access::ReadWrite),
            (true, false) => Some(Access::ReadOnly),
            (false, true) => Some(Access::WriteOnly),
            (false, false) => None,
        };
        if narrowed != Some(a) {
            warnings.warn(
                Treatment::Repaired,
                &at,
                format!(
                    "field access `{}` exceeds the register's `{}`: {}",
                    a.keyword(),
                    register_access.keyword(),
                    match narrowed {
                        Some(n) => format!("narrowed to `{}`", n.keyword()),
                        None => "register access used".into(),
                    }
                ),
            );
            access = narrowed;
        }
    }
    let effective = access.unwrap_or(register_access);
    if f.write_constraint.is_some() {
        warnings.warn(
            Treatment::NotRepresented,
            &at,
            "writeConstraint not represented",
        );
    }
    let write = f.modified_write_values.or(register.modified_write_values);
    let read = f.read_action.or(register.read_action);
    let write_effect = match write {
        None | Some(svd::ModifiedWriteValues::Modify) => None,
        Some(svd::ModifiedWriteValues::OneToClear) => Some(SideEffect::WriteOneToClear),
        Some(svd::ModifiedWriteValues::OneToSet) => Some(SideEffect::WriteOneToSet),
        Some(svd::ModifiedWriteValues::OneToToggle) => Some(SideEffect::WriteOneToToggle),
        Some(svd::ModifiedWriteValues::ZeroToClear) => Some(SideEffect::WriteZeroToClear),
        Some(svd::ModifiedWriteValues::ZeroToSet) => Some(SideEffect::WriteZeroToSet),
        Some(svd::ModifiedWriteValues::ZeroToToggle) => Some(SideEffect::WriteZeroToToggle),
        Some(other) => {
            warnings.warn(
                Treatment::NotRepresented,
                &at,
                format!("modifiedWriteValues {} not represented", other.as_str()),
            );
            None
        }
    };
    let read_effect = match read {
        None => None,
        Some(svd::ReadAction::Clear) => Some(SideEffect::ReadToClear),
        Some(svd::ReadAction::Set) => Some(SideEffect::ReadToSet),
        Some(svd::ReadAction::Modify) => Some(SideEffect::ReadModify),
        Some(svd::ReadAction::ModifyExternal) => Some(SideEffect::ReadModifyExternal),
    };
    let mut side_effect = match (write_effect, read_effect) {
        (Some(w), Some(_)) => {
            warnings.warn(
                Treatment::NotRepresented,
                &at,
                format!(
                    "both a write and a read side effect; only `{}` is kept (one per field)",
                    w.keyword()
                ),
            );
            Some(w)
        }
        (w, r) => w.or(r),
    };
    if let Some(effect) = side_effect {
        let fits = if effect.on_read() {
            effective.is_readable()
        } else {
            effective.is_writable()
        };
        if !fits {
            warnings.warn(
                Treatment::Repaired,
                &at,
                format!(
                    "side effect `{}` on a `{}` field cannot happen: dropped",
                    effect.keyword(),
                    effective.keyword()
                ),
            );
            side_effect = None;
        }
    }
    // `msb < width <= 64` was checked above.
    let bits = BitRange {
        msb: msb as u32,
        lsb,
    };
    let (values, mut write_values) = values(warnings, &f.enumerated_values, bits, &at);
    if !write_values.is_empty() && !effective.is_writable() {
        warnings.warn(
            Treatment::LeftOut,
            &at,
            format!(
                "enumeratedValues for writing ({}) on a `{}` field: left out",
                write_values.len(),
                effective.keyword()
            ),
        );
        write_values.clear();
    }
    if write_values == values {
        // The same values both ways: `values` say it.
        write_values.clear();
    }
    Some(Field {
        name: Located::synthetic(f.name.clone()),
        description: clean(f.description.as_deref().unwrap_or_default()),
        bits: Located::synthetic(bits),
        access: access.map(Located::synthetic),
        side_effect: side_effect.map(Located::synthetic),
        write_once: super::once::field_is_write_once(f, register),
        msb0: false,
        reset_from: None,
        values,
        write_values,
        hardware: Default::default(),
    })
}

/// The field's values (`values`) and, where the SVD gives a set for writing beside the one
/// for reading, its write values (`write_values`).
pub(super) fn values(
    warnings: &mut Warnings,
    sets: &[svd::EnumeratedValues],
    bits: BitRange,
    at: &str,
) -> (Vec<EnumValue>, Vec<EnumValue>) {
    // The values a read gives: the read-write set, else the read one (what software
    // decodes), else the first; and a write set beside it.
    let chosen = sets
        .iter()
        .position(|s| matches!(s.usage, None | Some(svd::Usage::ReadWrite)))
        .or_else(|| sets.iter().position(|s| s.usage == Some(svd::Usage::Read)))
        .or(if sets.is_empty() { None } else { Some(0) });
    let Some(chosen) = chosen else {
        return (Vec::new(), Vec::new());
    };
    let write = sets
        .iter()
        .enumerate()
        .position(|(i, s)| i != chosen && s.usage == Some(svd::Usage::Write));
    for (i, set) in sets.iter().enumerate() {
        if i != chosen && Some(i) != write {
            warnings.warn(
                Treatment::NotRepresented,
                at,
                format!(
                    "a third enumeratedValues ({} values, usage {}) not represented",
                    set.values.len(),
                    set.usage.map_or("read-write", |u| u.as_str())
                ),
            );
        }
    }
    let values = value_set(warnings, &sets[chosen], bits, at);
    let write_values = match write {
        Some(w) => value_set(warnings, &sets[w], bits, at),
        None => Vec::new(),
    };
    (values, write_values)
}

fn value_set(
    warnings: &mut Warnings,
    set: &svd::EnumeratedValues,
    bits: BitRange,
    at: &str,
) -> Vec<EnumValue> {
    let mut values = Vec::new();
    let mut seen: HashMap<u64, String> = HashMap::new();
    for v in &set.values {
        let vat = format!("{at}.{}", v.name);
        let Some(value) = v.value else {
            warnings.warn(
                Treatment::NotRepresented,
                &vat,
                "isDefault (or don't-care) value not represented",
            );
            continue;
        };
        if value > bits.value_mask() {
            warnings.warn(
                Treatment::LeftOut,
                &vat,
                format!(
                    "value {value:#x} does not fit the field's {} bits: left out",
                    bits.width()
                ),
            );
            continue;
        }
        if let Some(first) = seen.get(&value) {
            warnings.warn(
                Treatment::LeftOut,
                &vat,
                format!("value {value} already named `{first}`: left out"),
            );
            continue;
        }
        seen.insert(value, v.name.clone());
        values.push(EnumValue {
            name: Located::synthetic(v.name.clone()),
            value: Located::synthetic(value),
            description: clean(v.description.as_deref().unwrap_or_default()),
        });
    }
    rename::rename_values(warnings, &mut values, at);
    values
}
