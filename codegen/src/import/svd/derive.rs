//! `derivedFrom` resolved: a copy of the device in which each derived item has taken what it
//! does not state itself from its source.
//!
//! Peripherals, clusters, registers, fields and enumerated values all derive the same way, so
//! one follower ([`follow`]) walks every chain: it finds each source where the item's kind
//! looks names up, merges it in (svd-rs's `DeriveFrom`), goes on with the source's own
//! `derivedFrom`, and fails on a missing source or a chain longer than
//! [`MAX_DERIVATION_DEPTH`] (a cycle). What differs per kind is only where names are looked
//! up, which [`Kind`] says.

use svd_parser::expand::{BlockPath, FieldPath, Index, RegisterPath};
use svd_rs::{self as svd, DeriveFrom};

use super::{ImportError, MAX_ELEMENTS, strip_dim};

/// `derivedFrom` chains longer than this are taken for cycles.
const MAX_DERIVATION_DEPTH: usize = 32;

/// An SVD item that may derive from another of its kind.
trait Kind: DeriveFrom + Sized {
    /// For messages: "register `R` derives from …".
    const KIND: &'static str;
    fn derived_from(&mut self) -> &mut Option<String>;
    fn source_derived_from(&self) -> Option<String>;
    /// Whether the item states its own contents (registers, children, fields, values); if
    /// not, it takes its source's, and references inside them are relative to the source.
    fn has_contents(&self) -> bool;
}

impl Kind for svd::Peripheral {
    const KIND: &'static str = "peripheral";
    fn derived_from(&mut self) -> &mut Option<String> {
        &mut self.derived_from
    }
    fn source_derived_from(&self) -> Option<String> {
        self.derived_from.clone()
    }
    fn has_contents(&self) -> bool {
        self.registers.is_some()
    }
}

impl Kind for svd::Cluster {
    const KIND: &'static str = "cluster";
    fn derived_from(&mut self) -> &mut Option<String> {
        &mut self.derived_from
    }
    fn source_derived_from(&self) -> Option<String> {
        self.derived_from.clone()
    }
    fn has_contents(&self) -> bool {
        !self.children.is_empty()
    }
}

impl Kind for svd::Register {
    const KIND: &'static str = "register";
    fn derived_from(&mut self) -> &mut Option<String> {
        &mut self.derived_from
    }
    fn source_derived_from(&self) -> Option<String> {
        self.derived_from.clone()
    }
    fn has_contents(&self) -> bool {
        self.fields.is_some()
    }
}

impl Kind for svd::Field {
    const KIND: &'static str = "field";
    fn derived_from(&mut self) -> &mut Option<String> {
        &mut self.derived_from
    }
    fn source_derived_from(&self) -> Option<String> {
        self.derived_from.clone()
    }
    fn has_contents(&self) -> bool {
        !self.enumerated_values.is_empty()
    }
}

impl Kind for svd::EnumeratedValues {
    const KIND: &'static str = "enumeratedValues of";
    fn derived_from(&mut self) -> &mut Option<String> {
        &mut self.derived_from
    }
    fn source_derived_from(&self) -> Option<String> {
        self.derived_from.clone()
    }
    fn has_contents(&self) -> bool {
        // Values have no children that name anything.
        true
    }
}

/// Where a source was found: the source, the path of its contents, and the scope in which the
/// source's own `derivedFrom` is looked up.
type Found<'i, T, Path, Scope> = (&'i T, Path, Scope);

/// Follows the `derivedFrom` chain of `item` (named `name` in messages) from `scope`, where
/// `find` looks a reference up. `contents` is where references inside the item's contents
/// resolve: it becomes the source's when the item takes its contents from there.
fn follow<'i, T: Kind + 'i, Path, Scope>(
    item: &mut T,
    name: &str,
    mut scope: Scope,
    contents: &mut Path,
    find: impl Fn(&str, &Scope) -> Option<Found<'i, T, Path, Scope>>,
) -> Result<(), ImportError> {
    let mut depth = 0;
    while let Some(from) = item.derived_from().take() {
        depth += 1;
        if depth > MAX_DERIVATION_DEPTH {
            return Err(derive_error(T::KIND, name, &from, "cyclic"));
        }
        let (source, source_contents, source_scope) =
            find(&from, &scope).ok_or_else(|| derive_error(T::KIND, name, &from, "not found"))?;
        if !item.has_contents() {
            *contents = source_contents;
        }
        *item = item.derive_from(source);
        *item.derived_from() = source.source_derived_from();
        scope = source_scope;
    }
    Ok(())
}

/// A copy of `device` without any `derivedFrom`: each derived item takes what it does not
/// state itself from its source, following chains (with a depth limit, so cycles fail).
pub(super) fn resolve(device: &svd::Device) -> Result<svd::Device, ImportError> {
    // svd-parser's index lists every array element by name: refuse absurd `dim`s first.
    check_dims(device)?;
    let index = Index::create(device);
    let mut out = device.clone();
    for p in &mut out.peripherals {
        let mut path = BlockPath::new(strip_dim(&p.name));
        let name = p.name.clone();
        // Peripheral references are absolute.
        follow(p, &name, (), &mut path, |from, ()| {
            let source = index.peripherals.get(&BlockPath::new(from))?;
            Some((*source, BlockPath::new(strip_dim(&source.name)), ()))
        })?;
        if let Some(children) = p.registers.as_mut() {
            resolve_children(children, &path, &index)?;
        }
    }
    Ok(out)
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
                let name = c.name.clone();
                // `CLUSTER` is a sibling; `BLOCK.CLUSTER` is a full path.
                follow(c, &name, path.clone(), &mut cpath, |from, here| {
                    let (parent, name) = BlockPath::parse_str(from);
                    let parent = parent.unwrap_or_else(|| here.clone());
                    let source_path = parent.new_cluster(name);
                    let source = index.clusters.get(&source_path)?;
                    Some((*source, source_path, parent))
                })?;
                resolve_children(&mut c.children, &cpath, index)?;
            }
            svd::RegisterCluster::Register(r) => {
                let mut rpath = path.new_register(strip_dim(&r.name));
                let name = r.name.clone();
                follow(r, &name, path.clone(), &mut rpath, |from, here| {
                    let (block, name) = RegisterPath::parse_str(from);
                    let block = block.unwrap_or_else(|| here.clone());
                    let source_path = block.new_register(name);
                    let source = index.registers.get(&source_path)?;
                    Some((*source, source_path, block))
                })?;
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
    let name = f.name.clone();
    follow(f, &name, rpath.clone(), &mut fpath, |from, here| {
        let (register, name) = FieldPath::parse_str(from);
        let register = register.unwrap_or_else(|| here.clone());
        let source_path = register.new_field(name);
        let source = index.fields.get(&source_path)?;
        Some((*source, source_path, register))
    })?;
    for values in &mut f.enumerated_values {
        follow(values, &name, fpath.clone(), &mut (), |from, at| {
            let (source, source_field) = find_values(index, from, at)?;
            Some((source, (), source_field))
        })?;
    }
    Ok(())
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
