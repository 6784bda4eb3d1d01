//! CMSIS-SVD → [`Device`], through svd-parser.
//!
//! Steps: parse (svd-parser, weak validation so that real vendor files load) → resolve every
//! `derivedFrom` (peripherals, clusters, registers, fields, enumerated values) → inherit
//! register properties (size, access, reset) from clusters, peripherals and the device →
//! convert, flattening clusters into their peripheral (`CLUSTER_REGISTER`) → rename what
//! our format cannot spell → drop what overlaps → merge runs of numbered registers of one
//! shape into register arrays (`GPIO0_STATUS` … `GPIO29_STATUS` → `GPIO_STATUS`), and
//! numbered identical peripherals into block arrays → validate.
//!
//! Kept: peripherals (a `name[%s]` peripheral array becomes a block array), `[%s]` register
//! and cluster arrays (as register arrays), access, `modifiedWriteValues` oneToClear /
//! oneToSet, `readAction` clear, enumerated values, reset values, descriptions, and the
//! constants that our own SVD emitter writes into `<vendorExtensions>`. List-style arrays
//! (`UART%s` with `dimIndex`) are expanded into one item per index, which loses nothing.
//! Everything else is reported as a [`Warning`].

use std::collections::{HashMap, HashSet};

use svd_parser::expand::{BlockPath, FieldPath, Index, RegisterPath};
use svd_rs::{self as svd, DeriveFrom};

use super::{Imported, Warning};
use crate::location::Located;
use crate::model::{
    Access, Array, BitRange, Block, Constant, Device, EnumValue, Field, Register, SideEffect,
};
use crate::names;

/// `derivedFrom` chains longer than this are taken for cycles.
const MAX_DERIVATION_DEPTH: usize = 32;
/// Register elements one block may expand to (as `validate` allows), so that a hostile
/// `dim` cannot make the import run for minutes.
const MAX_ELEMENTS: u64 = 1 << 20;

/// Why an SVD file could not be imported at all.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("not a valid SVD file: {0}")]
    Parse(String),
    #[error("cannot resolve derivedFrom: {0}")]
    Derive(String),
    /// The importer produced a device that fails validation: a bug in the importer, reported
    /// rather than written out.
    #[error("the imported device does not validate:\n{}", .0.join("\n"))]
    Invalid(Vec<String>),
}

/// Parses SVD text and converts it.
pub fn from_str(xml: &str) -> Result<Imported, ImportError> {
    let config = svd_parser::Config::default().validate_level(svd::ValidateLevel::Weak);
    let parsed = svd_parser::parse_with_config(xml, &config)
        .map_err(|e| ImportError::Parse(format!("{e:#}")))?;
    let mut warnings = Vec::new();
    let constants = constants(xml, &mut warnings);
    convert(&parsed, constants, warnings)
}

/// Converts an already parsed SVD device (constants come only from [`from_str`]).
pub fn from_device(device: &svd::Device) -> Result<Imported, ImportError> {
    convert(device, Vec::new(), Vec::new())
}

fn convert(
    parsed: &svd::Device,
    constants: Vec<Constant>,
    warnings: Vec<Warning>,
) -> Result<Imported, ImportError> {
    let mut resolved = resolve(parsed)?;
    svd_parser::expand::expand_properties(&mut resolved);
    let mut cx = Cx { warnings };
    let device = cx.device(&resolved, constants);
    let problems = crate::validate::device(&device);
    if !problems.is_empty() {
        return Err(ImportError::Invalid(
            problems.iter().map(|d| d.message.clone()).collect(),
        ));
    }
    Ok(Imported {
        device,
        warnings: cx.warnings,
    })
}

// ---------------------------------------------------------------------------------------
// derivedFrom

/// A copy of `device` without any `derivedFrom`: each derived item takes what it does not
/// state itself from its source, following chains (with a depth limit, so cycles fail).
fn resolve(device: &svd::Device) -> Result<svd::Device, ImportError> {
    // svd-parser's index lists every array element by name: refuse absurd `dim`s first.
    check_dims(device)?;
    let index = Index::create(device);
    let mut out = device.clone();
    for p in &mut out.peripherals {
        let mut path = BlockPath::new(strip_dim(&p.name));
        let mut depth = 0;
        while let Some(from) = p.derived_from.take() {
            depth += 1;
            if depth > MAX_DERIVATION_DEPTH {
                return Err(derive_error("peripheral", &p.name, &from, "cyclic"));
            }
            let source = index
                .peripherals
                .get(&BlockPath::new(&from))
                .ok_or_else(|| derive_error("peripheral", &p.name, &from, "not found"))?;
            if p.registers.is_none() {
                // The registers come from the source, so their own references are relative
                // to it.
                path = BlockPath::new(strip_dim(&source.name));
            }
            *p = p.derive_from(source);
            p.derived_from = source.derived_from.clone();
        }
        if let Some(children) = p.registers.as_mut() {
            resolve_children(children, &path, &index)?;
        }
    }
    Ok(out)
}

fn check_dims(device: &svd::Device) -> Result<(), ImportError> {
    fn check(name: &str, dim: Option<&svd::DimElement>) -> Result<(), ImportError> {
        match dim {
            Some(d) if u64::from(d.dim) > MAX_ELEMENTS => Err(ImportError::Parse(format!(
                "`{name}` has dim {}, more than the {MAX_ELEMENTS} elements an import handles",
                d.dim
            ))),
            _ => Ok(()),
        }
    }
    fn children(items: &[svd::RegisterCluster]) -> Result<(), ImportError> {
        for item in items {
            match item {
                svd::RegisterCluster::Register(r) => {
                    check(&r.name, dim_of(r))?;
                    for f in r.fields() {
                        check(&f.name, dim_of(f))?;
                    }
                }
                svd::RegisterCluster::Cluster(c) => {
                    check(&c.name, dim_of(c))?;
                    children(&c.children)?;
                }
            }
        }
        Ok(())
    }
    for p in &device.peripherals {
        check(&p.name, dim_of(p))?;
        children(p.registers.as_deref().unwrap_or_default())?;
    }
    Ok(())
}

fn dim_of<T>(item: &svd::MaybeArray<T>) -> Option<&svd::DimElement> {
    match item {
        svd::MaybeArray::Single(_) => None,
        svd::MaybeArray::Array(_, dim) => Some(dim),
    }
}

fn derive_error(kind: &str, name: &str, from: &str, why: &str) -> ImportError {
    ImportError::Derive(format!("{kind} `{name}` derives from `{from}`: {why}"))
}

fn resolve_children(
    children: &mut [svd::RegisterCluster],
    path: &BlockPath,
    index: &Index,
) -> Result<(), ImportError> {
    for child in children {
        match child {
            svd::RegisterCluster::Cluster(c) => {
                let mut cpath = path.new_cluster(strip_dim(&c.name));
                let mut here = path.clone();
                let mut depth = 0;
                while let Some(from) = c.derived_from.take() {
                    depth += 1;
                    if depth > MAX_DERIVATION_DEPTH {
                        return Err(derive_error("cluster", &c.name, &from, "cyclic"));
                    }
                    let (parent, name) = BlockPath::parse_str(&from);
                    let parent = parent.unwrap_or_else(|| here.clone());
                    let source_path = parent.new_cluster(name);
                    let source = index
                        .clusters
                        .get(&source_path)
                        .ok_or_else(|| derive_error("cluster", &c.name, &from, "not found"))?;
                    if c.children.is_empty() {
                        cpath = source_path.clone();
                    }
                    *c = c.derive_from(source);
                    c.derived_from = source.derived_from.clone();
                    here = parent;
                }
                resolve_children(&mut c.children, &cpath, index)?;
            }
            svd::RegisterCluster::Register(r) => {
                let mut rpath = path.new_register(strip_dim(&r.name));
                let mut here = path.clone();
                let mut depth = 0;
                while let Some(from) = r.derived_from.take() {
                    depth += 1;
                    if depth > MAX_DERIVATION_DEPTH {
                        return Err(derive_error("register", &r.name, &from, "cyclic"));
                    }
                    let (block, name) = RegisterPath::parse_str(&from);
                    let block = block.unwrap_or_else(|| here.clone());
                    let source_path = block.new_register(name);
                    let source = index
                        .registers
                        .get(&source_path)
                        .ok_or_else(|| derive_error("register", &r.name, &from, "not found"))?;
                    if r.fields.is_none() {
                        rpath = source_path.clone();
                    }
                    *r = r.derive_from(source);
                    r.derived_from = source.derived_from.clone();
                    here = block;
                }
                if let Some(fields) = r.fields.as_mut() {
                    for f in fields {
                        resolve_field(f, &rpath, index)?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn resolve_field(
    f: &mut svd::Field,
    rpath: &RegisterPath,
    index: &Index,
) -> Result<(), ImportError> {
    let mut fpath = rpath.new_field(strip_dim(&f.name));
    let mut here = rpath.clone();
    let mut depth = 0;
    while let Some(from) = f.derived_from.take() {
        depth += 1;
        if depth > MAX_DERIVATION_DEPTH {
            return Err(derive_error("field", &f.name, &from, "cyclic"));
        }
        let (register, name) = FieldPath::parse_str(&from);
        let register = register.unwrap_or_else(|| here.clone());
        let source_path = register.new_field(name);
        let source = index
            .fields
            .get(&source_path)
            .ok_or_else(|| derive_error("field", &f.name, &from, "not found"))?;
        if f.enumerated_values.is_empty() {
            fpath = source_path.clone();
        }
        *f = f.derive_from(source);
        f.derived_from = source.derived_from.clone();
        here = register;
    }
    let field_name = f.name.clone();
    for values in &mut f.enumerated_values {
        let mut at = fpath.clone();
        let mut depth = 0;
        while let Some(from) = values.derived_from.take() {
            depth += 1;
            if depth > MAX_DERIVATION_DEPTH {
                return Err(derive_error(
                    "enumeratedValues of",
                    &field_name,
                    &from,
                    "cyclic",
                ));
            }
            let (source, source_field) = find_values(index, &from, &at).ok_or_else(|| {
                derive_error("enumeratedValues of", &field_name, &from, "not found")
            })?;
            *values = values.derive_from(source);
            values.derived_from = source.derived_from.clone();
            at = source_field;
        }
    }
    Ok(())
}

/// The enumeratedValues that `path` names, seen from field `at`: `NAME` (any field of the
/// same register), `FIELD.NAME`, `REGISTER.FIELD.NAME` (same block) or a full path.
fn find_values<'i>(
    index: &Index<'i>,
    path: &str,
    at: &FieldPath,
) -> Option<(&'i svd::EnumeratedValues, FieldPath)> {
    let mut parts: Vec<&str> = path.split('.').collect();
    let name = parts.pop()?;
    let field = match parts.len() {
        0 => {
            let register = index.registers.get(&at.register)?;
            return register.fields().find_map(|f| {
                let field = at.register.new_field(&f.name);
                let values = index.evs.get(&field.new_enum(name))?;
                Some((*values, field))
            });
        }
        1 => at.register.new_field(parts[0]),
        2 => at.register.block.new_register(parts[0]).new_field(parts[1]),
        _ => {
            let field = parts.pop()?;
            let (block, register) = RegisterPath::parse_vec(parts);
            block?.new_register(register).new_field(field)
        }
    };
    let values = index.evs.get(&field.new_enum(name))?;
    Some((*values, field))
}

/// `UART[%s]` → `UART`, `UART%s` → `UART`.
fn strip_dim(name: &str) -> String {
    name.replace("[%s]", "").replace("%s", "")
}

// ---------------------------------------------------------------------------------------
// Conversion

struct Cx {
    warnings: Vec<Warning>,
}

/// One register with its place in the block, clusters flattened away.
struct Flat {
    name: String,
    /// `PERIPHERAL.CLUSTER.REGISTER`, for messages.
    at: String,
    offset: u64,
    array: Option<(u64, u64)>,
    info: svd::RegisterInfo,
}

impl Cx {
    fn warn(&mut self, at: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Warning {
            at: at.into(),
            message: message.into(),
        });
    }

    fn device(&mut self, svd: &svd::Device, constants: Vec<Constant>) -> Device {
        let at = svd.name.clone();
        let not_carried: Vec<&str> = [
            (svd.cpu.is_some(), "cpu"),
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
            self.warn(
                &at,
                format!(
                    "not represented in the spec format: {}",
                    not_carried.join(", ")
                ),
            );
        }
        let mut blocks = Vec::new();
        for p in &svd.peripherals {
            self.peripheral(p, &mut blocks);
        }
        self.merge_numbered_blocks(&mut blocks);
        self.rename_all(&mut blocks, |b| &mut b.name, "block", &at, true);
        self.fit_blocks(&mut blocks);
        Device {
            name: Located::synthetic(self.identifier(&svd.name, "device", &at, "D")),
            description: clean(svd.description.as_str()),
            version: svd.version.clone(),
            constants,
            blocks,
        }
    }

    fn peripheral(&mut self, p: &svd::Peripheral, blocks: &mut Vec<Block>) {
        match p {
            svd::Peripheral::Single(info) => {
                if let Some(block) = self.block(info, None) {
                    blocks.push(block);
                }
            }
            svd::Peripheral::Array(info, dim) if info.name.contains("[%s]") => {
                let array = (u64::from(dim.dim), u64::from(dim.dim_increment));
                if let Some(block) = self.block(info, Some(array)) {
                    blocks.push(block);
                }
            }
            svd::Peripheral::Array(info, dim) if u64::from(dim.dim) > MAX_ELEMENTS => {
                self.warn(&info.name, "peripheral array too large to expand: left out");
            }
            svd::Peripheral::Array(info, dim) => {
                for element in svd::peripheral::expand(info, dim) {
                    if let Some(block) = self.block(&element, None) {
                        blocks.push(block);
                    }
                }
            }
        }
    }

    fn block(&mut self, info: &svd::PeripheralInfo, array: Option<(u64, u64)>) -> Option<Block> {
        let raw_name = strip_dim(&info.name);
        let at = raw_name.clone();
        if !info.interrupt.is_empty() {
            let list: Vec<String> = info
                .interrupt
                .iter()
                .map(|i| format!("{} ({})", i.name, i.value))
                .collect();
            self.warn(
                &at,
                format!("interrupts not represented: {}", list.join(", ")),
            );
        }
        if let Some(alternate) = &info.alternate_peripheral {
            self.warn(
                &at,
                format!("alternatePeripheral `{alternate}` not represented"),
            );
        }
        let mut flat = Vec::new();
        if let Some(children) = &info.registers {
            self.flatten(children, "", &at, 0, None, &mut flat);
        }
        let mut registers: Vec<Register> =
            flat.into_iter().filter_map(|f| self.register(f)).collect();
        self.rename_all(&mut registers, |r| &mut r.name, "register", &at, true);
        self.drop_register_overlaps(&mut registers, &at);
        self.merge_numbered_registers(&mut registers, &at);

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
        let mut array = array.map(|(count, stride)| Array {
            count: Located::synthetic(count),
            stride: Located::synthetic(stride),
        });
        if let Some(a) = &array {
            if *a.count == 0 {
                self.warn(&at, "peripheral array of 0 elements: left out");
                return None;
            }
            if size > *a.stride && *a.count > 1 {
                if register_end <= *a.stride {
                    // The declared address block reaches into the next element; the
                    // registers do not, so the block is what the registers need.
                    size = (*a.stride).max(1);
                } else {
                    self.warn(
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
        })
    }

    /// Registers of `children`, clusters flattened: `CLUSTER_REGISTER` at the cluster's
    /// offset plus the register's. A `[%s]` cluster array whose contents hold no array
    /// becomes register arrays; any other cluster array is expanded element by element.
    fn flatten(
        &mut self,
        children: &[svd::RegisterCluster],
        prefix: &str,
        at: &str,
        base: u64,
        outer: Option<(u64, u64)>,
        out: &mut Vec<Flat>,
    ) {
        for child in children {
            match child {
                svd::RegisterCluster::Register(r) => {
                    self.flat_register(r, prefix, at, base, outer, out);
                }
                svd::RegisterCluster::Cluster(c) => {
                    let cat = format!("{at}.{}", strip_dim(&c.name));
                    if let Some(alternate) = &c.alternate_cluster {
                        self.warn(
                            &cat,
                            format!("alternateCluster `{alternate}` not represented"),
                        );
                    }
                    match c {
                        svd::Cluster::Single(info) => {
                            let prefix = format!("{prefix}{}_", info.name);
                            let base = base + u64::from(info.address_offset);
                            self.flatten(&info.children, &prefix, &cat, base, outer, out);
                        }
                        svd::Cluster::Array(info, dim)
                            if outer.is_none()
                                && info.name.contains("[%s]")
                                && !has_arrays(&info.children) =>
                        {
                            let prefix = format!("{prefix}{}_", strip_dim(&info.name));
                            let base = base + u64::from(info.address_offset);
                            let outer = Some((u64::from(dim.dim), u64::from(dim.dim_increment)));
                            self.flatten(&info.children, &prefix, &cat, base, outer, out);
                        }
                        svd::Cluster::Array(info, dim) => {
                            if u64::from(dim.dim) > MAX_ELEMENTS {
                                self.warn(&cat, "cluster array too large to expand: left out");
                                continue;
                            }
                            for element in svd::cluster::expand(info, dim) {
                                let prefix = format!("{prefix}{}_", element.name);
                                let base = base + u64::from(element.address_offset);
                                self.flatten(&element.children, &prefix, &cat, base, outer, out);
                            }
                        }
                    }
                }
            }
        }
    }

    fn flat_register(
        &mut self,
        r: &svd::Register,
        prefix: &str,
        at: &str,
        base: u64,
        outer: Option<(u64, u64)>,
        out: &mut Vec<Flat>,
    ) {
        let push = |out: &mut Vec<Flat>, info: &svd::RegisterInfo, array| {
            let name = format!("{prefix}{}", strip_dim(&info.name));
            out.push(Flat {
                at: format!("{at}.{}", strip_dim(&info.name)),
                name,
                offset: base + u64::from(info.address_offset),
                array,
                info: info.clone(),
            });
        };
        match r {
            svd::Register::Single(info) => push(out, info, outer),
            // `flatten` only passes an outer array down to contents without arrays.
            svd::Register::Array(info, dim) if info.name.contains("[%s]") && outer.is_none() => {
                push(
                    out,
                    info,
                    Some((u64::from(dim.dim), u64::from(dim.dim_increment))),
                );
            }
            svd::Register::Array(info, dim) => {
                if u64::from(dim.dim) > MAX_ELEMENTS {
                    self.warn(
                        format!("{at}.{}", info.name),
                        "register array too large: left out",
                    );
                    return;
                }
                for element in svd::register::expand(info, dim) {
                    push(out, &element, outer);
                }
            }
        }
    }

    fn register(&mut self, flat: Flat) -> Option<Register> {
        let Flat {
            name,
            at,
            offset,
            array,
            info,
        } = flat;
        let props = info.properties;
        let width = props.size.unwrap_or(32);
        if !matches!(width, 8 | 16 | 32 | 64) {
            self.warn(
                &at,
                format!("size {width} is not 8, 16, 32 or 64 bits: register left out"),
            );
            return None;
        }
        let bytes = u64::from(width / 8);
        if !offset.is_multiple_of(bytes) {
            self.warn(
                &at,
                format!(
                    "offset {offset:#x} is not aligned to its {bytes} bytes: register left out"
                ),
            );
            return None;
        }
        let array = match array {
            Some((0, _)) => {
                self.warn(&at, "array of 0 elements: register left out");
                return None;
            }
            Some((count, stride)) if stride < bytes || !stride.is_multiple_of(bytes) => {
                self.warn(
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
        if let Some(alternate) = &info.alternate_register {
            self.warn(
                &at,
                format!("alternateRegister `{alternate}` not represented"),
            );
        }
        if let Some(group) = &info.alternate_group {
            self.warn(&at, format!("alternateGroup `{group}` not represented"));
        }
        if info.write_constraint.is_some() {
            self.warn(&at, "register writeConstraint not represented");
        }
        if let Some(protection) = props.protection {
            self.warn(&at, format!("protection {protection:?} not represented"));
        }
        let width_mask = u64::MAX >> (64 - width);
        let mut reset = props.reset_value.unwrap_or(0);
        if reset & !width_mask != 0 {
            self.warn(
                &at,
                format!("resetValue {reset:#x} wider than {width} bits: cut to the register"),
            );
            reset &= width_mask;
        }
        if let Some(mask) = props.reset_mask {
            let unknown = width_mask & !mask;
            if unknown != 0 && reset & unknown != 0 {
                self.warn(
                    &at,
                    format!(
                        "resetMask {mask:#x} marks bits {unknown:#x} as unknown after reset; \
                         they are imported as 0"
                    ),
                );
                reset &= mask;
            }
        }

        let fields_svd: Vec<svd::FieldInfo> = info
            .fields
            .iter()
            .flatten()
            .flat_map(|f| match f {
                svd::Field::Single(info) => vec![info.clone()],
                svd::Field::Array(info, dim) => svd::field::expand(info, dim).collect(),
            })
            .collect();
        let explicit_access = props.access.map(|a| self.access(a, &at));
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
            if let Some(field) = self.field(field, &info, access, width, &at) {
                fields.push(field);
            }
        }
        self.rename_all(&mut fields, |f| &mut f.name, "field", &at, false);
        self.drop_field_overlaps(&mut fields, &at);
        Some(Register {
            name: Located::synthetic(name),
            description: clean(info.description.as_deref().unwrap_or_default()),
            offset: Located::synthetic(offset),
            width: Located::synthetic(width),
            access: Located::synthetic(access),
            reset: Located::synthetic(reset),
            array,
            fields,
        })
    }

    fn access(&mut self, access: svd::Access, at: &str) -> Access {
        match access {
            svd::Access::WriteOnce => self.warn(
                at,
                "access writeOnce imported as write-only (once not represented)",
            ),
            svd::Access::ReadWriteOnce => self.warn(
                at,
                "access read-writeOnce imported as read-write (once not represented)",
            ),
            _ => {}
        }
        plain_access(access)
    }

    fn field(
        &mut self,
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
            self.warn(
                &at,
                format!("bits [{msb}:{lsb}] do not fit the {width}-bit register: field left out"),
            );
            return None;
        }
        let mut access = f.access.map(|a| self.access(a, &at));
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
                self.warn(
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
            self.warn(&at, "writeConstraint not represented");
        }
        let write = f.modified_write_values.or(register.modified_write_values);
        let read = f.read_action.or(register.read_action);
        let write_effect = match write {
            None | Some(svd::ModifiedWriteValues::Modify) => None,
            Some(svd::ModifiedWriteValues::OneToClear) => Some(SideEffect::WriteOneToClear),
            Some(svd::ModifiedWriteValues::OneToSet) => Some(SideEffect::WriteOneToSet),
            Some(other) => {
                self.warn(
                    &at,
                    format!("modifiedWriteValues {} not represented", other.as_str()),
                );
                None
            }
        };
        let read_effect = match read {
            None => None,
            Some(svd::ReadAction::Clear) => Some(SideEffect::ReadToClear),
            Some(other) => {
                self.warn(
                    &at,
                    format!("readAction {} not represented", other.as_str()),
                );
                None
            }
        };
        let mut side_effect = match (write_effect, read_effect) {
            (Some(w), Some(_)) => {
                self.warn(
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
            let fits = match effect {
                SideEffect::ReadToClear => effective.is_readable(),
                _ => effective.is_writable(),
            };
            if !fits {
                self.warn(
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
        let values = self.values(&f.enumerated_values, bits, &at);
        Some(Field {
            name: Located::synthetic(f.name.clone()),
            description: clean(f.description.as_deref().unwrap_or_default()),
            bits: Located::synthetic(bits),
            access: access.map(Located::synthetic),
            side_effect: side_effect.map(Located::synthetic),
            values,
        })
    }

    fn values(
        &mut self,
        sets: &[svd::EnumeratedValues],
        bits: BitRange,
        at: &str,
    ) -> Vec<EnumValue> {
        // One set of values per field in our format: the read-write one, else the read one
        // (what software decodes), else the first.
        let chosen = sets
            .iter()
            .position(|s| matches!(s.usage, None | Some(svd::Usage::ReadWrite)))
            .or_else(|| sets.iter().position(|s| s.usage == Some(svd::Usage::Read)))
            .or(if sets.is_empty() { None } else { Some(0) });
        let Some(chosen) = chosen else {
            return Vec::new();
        };
        for (i, set) in sets.iter().enumerate() {
            if i != chosen {
                self.warn(
                    at,
                    format!(
                        "second enumeratedValues ({} values, usage {}) not represented",
                        set.values.len(),
                        set.usage.map_or("read-write", |u| u.as_str())
                    ),
                );
            }
        }
        let mut values = Vec::new();
        let mut seen: HashMap<u64, String> = HashMap::new();
        for v in &sets[chosen].values {
            let vat = format!("{at}.{}", v.name);
            let Some(value) = v.value else {
                self.warn(&vat, "isDefault (or don't-care) value not represented");
                continue;
            };
            if value > bits.value_mask() {
                self.warn(
                    &vat,
                    format!(
                        "value {value:#x} does not fit the field's {} bits: left out",
                        bits.width()
                    ),
                );
                continue;
            }
            if let Some(first) = seen.get(&value) {
                self.warn(
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
        self.rename_values(&mut values, at);
        values
    }

    /// `UART0`, `UART1`, … with the same registers, size and description, evenly spaced,
    /// become one block array `UART` (SVD files usually describe such instances with
    /// `derivedFrom`): the generated code then has one module for them instead of a copy
    /// per instance. The renaming is reported.
    fn merge_numbered_blocks(&mut self, blocks: &mut Vec<Block>) {
        let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
        let mut rest = std::mem::take(blocks).into_iter().peekable();
        while let Some(first) = rest.next() {
            let prefix = match first.name.strip_suffix('0') {
                Some(p) if first.array.is_none() && p.ends_with(|c: char| !c.is_ascii_digit()) => {
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
                let fits = next.array.is_none()
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
            self.warn(
                &prefix,
                format!(
                    "blocks {} imported as one block array `{prefix}` ({} instances, {stride:#x} apart): same registers",
                    names.join(", "),
                    group.len()
                ),
            );
            let count = group.len() as u64;
            let mut block = group.swap_remove(0);
            block.name = Located::synthetic(prefix);
            block.array = Some(Array {
                count: Located::synthetic(count),
                stride: Located::synthetic(stride),
            });
            out.push(block);
        }
        *blocks = out;
    }

    /// Runs of numbered registers of the same shape become register arrays, as
    /// [`Cx::merge_numbered_blocks`] does for blocks: `GPIO0_CTRL`, `GPIO1_CTRL`, …
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
    fn merge_numbered_registers(&mut self, registers: &mut Vec<Register>, at: &str) {
        // Candidate groups: the name with one digit run replaced by the placeholder, in
        // order of first appearance.
        let mut keys: Vec<String> = Vec::new();
        let mut groups: HashMap<String, Vec<(u64, usize)>> = HashMap::new();
        for (i, r) in registers.iter().enumerate() {
            if r.array.is_some() {
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
            self.warn(
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

    // -----------------------------------------------------------------------------------
    // Names

    /// A valid identifier for `raw`, reporting any change.
    fn identifier(&mut self, raw: &str, kind: &str, at: &str, prefix: &str) -> String {
        let mut name: String = raw
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            name = format!(
                "{prefix}{}{name}",
                if name.starts_with('_') { "" } else { "_" }
            );
        }
        if names::problem(&name).is_some() {
            // A keyword in some case form: a trailing underscore makes it an identifier.
            name.push('_');
        }
        if name != raw {
            let why = names::problem(raw).unwrap_or_else(|| "not a valid name".into());
            self.warn(at, format!("{kind} `{raw}` renamed `{name}`: {why}"));
        }
        name
    }

    /// Makes every name in `items` valid and unique (ignoring case), in order: the first
    /// keeps its name, later ones get `_2`, `_3`, …
    fn rename_all<T>(
        &mut self,
        items: &mut [T],
        name: impl Fn(&mut T) -> &mut Located<String>,
        kind: &str,
        at: &str,
        accessor: bool,
    ) {
        let prefix = match kind {
            "block" => "P",
            "register" => "R",
            _ => "F",
        };
        let mut seen = HashSet::new();
        for item in items.iter_mut() {
            let slot = name(item);
            let raw = slot.value.clone();
            let item_at = format!("{at}.{raw}");
            let mut valid = self.identifier(&raw, kind, &item_at, prefix);
            if accessor && names::is_reserved_accessor(&valid) {
                let renamed = format!("{valid}_");
                self.warn(
                    &item_at,
                    format!(
                        "{kind} `{valid}` renamed `{renamed}`: clashes with a generated method"
                    ),
                );
                valid = renamed;
            }
            let unique = unique_name(&valid, &mut seen);
            if unique != valid {
                self.warn(
                    &item_at,
                    format!(
                        "{kind} `{valid}` renamed `{unique}`: the name (ignoring case) is taken"
                    ),
                );
            }
            slot.value = unique;
        }
    }

    fn rename_values(&mut self, values: &mut [EnumValue], at: &str) {
        let mut seen = HashSet::new();
        for value in values.iter_mut() {
            let raw = value.name.value.clone();
            let vat = format!("{at}.{raw}");
            let mut valid = self.identifier(&raw, "enumerated value", &vat, "V");
            if names::is_reserved_value(&valid) {
                let renamed = format!("{valid}_");
                self.warn(
                    &vat,
                    format!(
                        "enumerated value `{valid}` renamed `{renamed}`: reserved in every field"
                    ),
                );
                valid = renamed;
            }
            let unique = unique_name(&valid, &mut seen);
            if unique != valid {
                self.warn(
                    &vat,
                    format!("enumerated value `{valid}` renamed `{unique}`: name taken"),
                );
            }
            value.name.value = unique;
        }
    }

    // -----------------------------------------------------------------------------------
    // Overlaps: SVD allows them (alternate registers, aliased peripherals), our format not.

    fn drop_register_overlaps(&mut self, registers: &mut Vec<Register>, at: &str) {
        // Accepted extents never overlap each other, so for a new extent only the accepted
        // one starting last before its end can intersect it: one ordered-map lookup each.
        let mut taken: std::collections::BTreeMap<u64, (u64, usize)> = Default::default();
        let mut elements = 0u64;
        let mut kept: Vec<Register> = Vec::new();
        for register in registers.drain(..) {
            let count = register.array.as_ref().map_or(1, |a| *a.count);
            elements = elements.saturating_add(count);
            if elements > MAX_ELEMENTS {
                self.warn(
                    format!("{at}.{}", *register.name),
                    format!("more than {MAX_ELEMENTS} register elements in the block: left out"),
                );
                continue;
            }
            let extents: Vec<(u64, u64)> = register
                .element_offsets()
                .map(|o| (o, o.saturating_add(register.bytes())))
                .collect();
            let clash = extents.iter().find_map(|&(s, e)| {
                let (_, &(end, owner)) = taken.range(..e).next_back()?;
                (end > s).then_some(owner)
            });
            if let Some(owner) = clash {
                self.warn(
                    format!("{at}.{}", *register.name),
                    format!(
                        "overlaps register `{}` (an alternate register?): left out",
                        *kept[owner].name
                    ),
                );
                continue;
            }
            for (s, e) in extents {
                taken.insert(s, (e, kept.len()));
            }
            kept.push(register);
        }
        *registers = kept;
    }

    fn drop_field_overlaps(&mut self, fields: &mut Vec<Field>, at: &str) {
        let mut used = 0u64;
        fields.retain(|f| {
            let mask = f.bits.mask();
            if used & mask != 0 {
                self.warnings.push(Warning {
                    at: format!("{at}.{}", *f.name),
                    message: "overlaps another field: left out".into(),
                });
                return false;
            }
            used |= mask;
            true
        });
    }

    /// Blocks may not overlap in our format. A block whose declared size reaches into the
    /// next is cut to what its registers need; one whose registers overlap another block
    /// is left out.
    fn fit_blocks(&mut self, blocks: &mut Vec<Block>) {
        let mut order: Vec<usize> = (0..blocks.len()).collect();
        order.sort_by_key(|&i| (*blocks[i].offset, i));
        let mut keep = vec![true; blocks.len()];
        let mut previous: Option<usize> = None;
        for &i in &order {
            let start = *blocks[i].offset;
            if let Some(p) = previous {
                let end = extent_end(&blocks[p]);
                if end > start {
                    let needed = registers_end(&blocks[p]).max(1);
                    if blocks[p].array.is_none() && blocks[p].offset.saturating_add(needed) <= start
                    {
                        let size = start - *blocks[p].offset;
                        blocks[p].size = Located::synthetic(size);
                    } else {
                        self.warn(
                            blocks[i].name.value.clone(),
                            format!(
                                "overlaps block `{}` (an aliased peripheral?): left out",
                                *blocks[p].name
                            ),
                        );
                        keep[i] = false;
                        continue;
                    }
                }
            }
            previous = Some(i);
        }
        let mut index = 0;
        blocks.retain(|_| {
            index += 1;
            keep[index - 1]
        });
    }
}

fn unique_name(name: &str, seen: &mut HashSet<String>) -> String {
    let mut candidate = name.to_string();
    let mut n = 2;
    while !seen.insert(names::clash_key(&candidate)) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    candidate
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
/// [`Cx::merge_numbered_registers`]).
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
    })
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

fn has_arrays(children: &[svd::RegisterCluster]) -> bool {
    children.iter().any(|c| match c {
        svd::RegisterCluster::Register(r) => r.is_array(),
        svd::RegisterCluster::Cluster(c) => c.is_array() || has_arrays(&c.children),
    })
}

fn plain_access(access: svd::Access) -> Access {
    match access {
        svd::Access::ReadOnly => Access::ReadOnly,
        svd::Access::WriteOnly | svd::Access::WriteOnce => Access::WriteOnly,
        svd::Access::ReadWrite | svd::Access::ReadWriteOnce => Access::ReadWrite,
    }
}

/// Descriptions as text: trimmed (svd-parser already trims the element).
fn clean(text: &str) -> String {
    text.trim().to_string()
}

/// The constants that our SVD emitter writes under `<vendorExtensions><constants>`.
fn constants(xml: &str, warnings: &mut Vec<Warning>) -> Vec<Constant> {
    let Ok(doc) = roxmltree::Document::parse(xml) else {
        return Vec::new();
    };
    let Some(list) = doc
        .root_element()
        .children()
        .find(|n| n.has_tag_name("vendorExtensions"))
        .and_then(|ext| {
            ext.children()
                .find(|n| n.has_tag_name(crate::emit::svd::CONSTANTS_TAG))
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
            _ => warnings.push(Warning {
                at: "vendorExtensions.constants".into(),
                message: format!("constant `{name}` has no usable name and value: left out"),
            }),
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
