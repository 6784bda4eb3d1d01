//! Reduces rustdoc's JSON (format [`FORMAT_VERSION`]) to a crate's public API: one line per
//! public item, reached the way a user reaches it (through public modules and re-exports),
//! with its signature, sorted. An item reachable under two paths is listed twice, on purpose:
//! a second path is API too.
//!
//! It reads the JSON as untyped `serde_json::Value`s and renders only what a user can name or
//! call: modules, types (with their public fields and variants), inherent methods, trait impls
//! (blanket impls are left out: they follow from the trait, not from the crate), functions,
//! constants, statics, macros and re-exports of other crates' items.

use crate::signature::{attrs, bounds, function, generic_args, generics, path_of, ty, wheres};
use serde_json::Value;
use std::collections::BTreeSet;

/// The rustdoc JSON format this reducer was written against (rustdoc's `format_version`).
pub const FORMAT_VERSION: u64 = 57;

pub struct Api<'a> {
    krate: &'a Value,
    /// (the item a line belongs to, 0 for the item / 1 a member / 2 an impl, the line): a
    /// type's members and impls follow it.
    lines: BTreeSet<(String, u8, String)>,
    /// Modules entered on the current path, against cycles through glob re-exports.
    open: Vec<u64>,
}

/// The public API of the crate in `krate` (rustdoc's JSON), one item a line, sorted.
pub fn public_api(krate: &Value) -> Result<String, String> {
    let version = krate["format_version"].as_u64().unwrap_or(0);
    if version != FORMAT_VERSION {
        return Err(format!(
            "rustdoc JSON is format {version}, but tests/tests/public_api/render.rs reads format \
             {FORMAT_VERSION}: the nightly toolchain changed. Check the format's changelog \
             (rustdoc-types' CHANGELOG.md), adapt render.rs, set FORMAT_VERSION, then review the \
             snapshots (`cargo insta review`)"
        ));
    }
    let root = krate["root"].as_u64().ok_or("rustdoc JSON has no root")?;
    let mut api = Api {
        krate,
        lines: BTreeSet::new(),
        open: Vec::new(),
    };
    let name = api.item(root)["name"].as_str().unwrap_or("?").to_string();
    api.module(root, &name);
    let lines: Vec<String> = api.lines.into_iter().map(|(_, _, line)| line).collect();
    Ok(lines.join("\n") + "\n")
}

impl<'a> Api<'a> {
    fn item(&self, id: u64) -> &'a Value {
        let krate: &'a Value = self.krate;
        &krate["index"][id.to_string()]
    }

    fn add(&mut self, owner: &str, rank: u8, line: String) {
        self.lines.insert((owner.to_string(), rank, line));
    }

    fn module(&mut self, id: u64, path: &str) {
        if self.open.contains(&id) {
            return;
        }
        self.open.push(id);
        let items = &self.item(id)["inner"]["module"]["items"];
        for child in items.as_array().into_iter().flatten() {
            let child = child.as_u64().unwrap_or(u64::MAX);
            self.public_item(child, path, None);
        }
        self.open.pop();
    }

    /// An item of a module at `parent`, named `rename` when a re-export renames it.
    fn public_item(&mut self, id: u64, parent: &str, rename: Option<&str>) {
        let item = self.item(id);
        if item.is_null() || item["visibility"] != "public" {
            return;
        }
        let Some((kind, inner)) = item["inner"].as_object().and_then(|o| o.iter().next()) else {
            return;
        };
        let name = rename.or(item["name"].as_str()).unwrap_or("?");
        let path = format!("{parent}::{name}");
        let attrs = attrs(item);
        let generics = generics(&inner["generics"]);
        let wheres = wheres(&inner["generics"]);
        match kind.as_str() {
            "use" => self.reexport(inner, parent),
            "module" => {
                self.add(&path, 0, format!("{attrs}pub mod {path}"));
                self.module(id, &path);
            }
            "struct" | "union" => {
                self.add(
                    &path,
                    0,
                    format!("{attrs}pub {kind} {path}{generics}{wheres}"),
                );
                self.fields(inner, &path);
                self.impls(inner, &path);
            }
            "enum" => {
                self.add(
                    &path,
                    0,
                    format!("{attrs}pub enum {path}{generics}{wheres}"),
                );
                for v in inner["variants"].as_array().into_iter().flatten() {
                    self.variant(v.as_u64().unwrap_or(u64::MAX), &path);
                }
                self.impls(inner, &path);
            }
            "trait" => self.trait_(item, inner, &path),
            "function" => self.add(&path, 0, format!("{attrs}{}", function(inner, &path))),
            "constant" => self.add(
                &path,
                0,
                format!("{attrs}pub const {path}: {}", ty(&inner["type"])),
            ),
            "static" => {
                let mutable = if inner["is_mutable"] == true {
                    "mut "
                } else {
                    ""
                };
                self.add(
                    &path,
                    0,
                    format!("{attrs}pub static {mutable}{path}: {}", ty(&inner["type"])),
                );
            }
            "type_alias" => self.add(
                &path,
                0,
                format!(
                    "{attrs}pub type {path}{generics} = {}{wheres}",
                    ty(&inner["type"])
                ),
            ),
            "macro" => self.add(&path, 0, format!("{attrs}macro {path}!")),
            "proc_macro" => {
                let line = match inner["kind"].as_str() {
                    Some("bang") => format!("{attrs}proc macro {path}!"),
                    Some("attr") => format!("{attrs}proc macro #[{path}]"),
                    _ => format!("{attrs}proc macro derive {path}"),
                };
                self.add(&path, 0, line);
            }
            _ => self.add(&path, 0, format!("{attrs}pub {kind} {path}")),
        }
    }

    /// A `pub use`: a local item is listed where it is re-exported; another crate's item (not
    /// in the index) as the re-export itself. A local item that is not in the index is
    /// `#[doc(hidden)]` where it is defined: its signature is unknown here, which the line says.
    fn reexport(&mut self, inner: &Value, parent: &str) {
        let written = inner["source"].as_str().unwrap_or("?");
        let first = written.split("::").next().unwrap_or("");
        let external = self.krate["external_crates"]
            .as_object()
            .into_iter()
            .flat_map(|crates| crates.values())
            .any(|c| c["name"] == first);
        let hidden;
        let source = if external {
            written
        } else {
            hidden = format!("{written} (#[doc(hidden)]: its signature is not listed)");
            &hidden
        };
        let name = inner["name"].as_str().unwrap_or("?");
        let target = inner["id"].as_u64();
        let local = target.is_some_and(|t| !self.item(t).is_null());
        match (target, inner["is_glob"] == true) {
            (Some(t), true) if local => self.module(t, parent),
            (Some(t), false) if local => self.public_item(t, parent, Some(name)),
            (_, true) => self.add(
                &format!("{parent}::*"),
                0,
                format!("pub use {parent}::* = {source}::*"),
            ),
            (_, false) => self.add(
                &format!("{parent}::{name}"),
                0,
                format!("pub use {parent}::{name} = {source}"),
            ),
        }
    }

    fn fields(&mut self, inner: &Value, path: &str) {
        let kind = &inner["kind"];
        if let Some(fields) = kind["tuple"].as_array() {
            for (n, f) in fields.iter().enumerate() {
                if let Some(f) = f.as_u64() {
                    let field = self.item(f);
                    self.add(
                        path,
                        1,
                        format!("pub {path}::{n}: {}", ty(&field["inner"]["struct_field"])),
                    );
                }
            }
        }
        let plain = &kind["plain"]["fields"];
        for f in plain
            .as_array()
            .into_iter()
            .flatten()
            .chain(inner["fields"].as_array().into_iter().flatten())
        {
            let field = self.item(f.as_u64().unwrap_or(u64::MAX));
            if field["visibility"] == "public" {
                let name = field["name"].as_str().unwrap_or("?");
                self.add(
                    path,
                    1,
                    format!(
                        "pub {path}::{name}: {}",
                        ty(&field["inner"]["struct_field"])
                    ),
                );
            }
        }
    }

    fn variant(&mut self, id: u64, enum_path: &str) {
        let item = self.item(id);
        let name = item["name"].as_str().unwrap_or("?");
        let inner = &item["inner"]["variant"];
        let value = match inner["discriminant"]["value"].as_str() {
            Some(v) => format!(" = {v}"),
            None => String::new(),
        };
        let fields: Vec<String> = match &inner["kind"] {
            Value::Object(o) if o.contains_key("tuple") => {
                let tys = o["tuple"].as_array().into_iter().flatten();
                let tys = tys.map(|f| match f.as_u64() {
                    Some(f) => ty(&self.item(f)["inner"]["struct_field"]),
                    None => "_".into(),
                });
                vec![format!("({})", tys.collect::<Vec<_>>().join(", "))]
            }
            Value::Object(o) if o.contains_key("struct") => {
                let fs = o["struct"]["fields"].as_array().into_iter().flatten();
                let fs = fs.map(|f| {
                    let f = self.item(f.as_u64().unwrap_or(u64::MAX));
                    let n = f["name"].as_str().unwrap_or("?");
                    format!("{n}: {}", ty(&f["inner"]["struct_field"]))
                });
                let mut fs: Vec<String> = fs.collect();
                if o["struct"]["has_stripped_fields"] == true {
                    fs.push("..".into());
                }
                vec![format!(" {{ {} }}", fs.join(", "))]
            }
            _ => vec![],
        };
        let line = format!(
            "{}pub {enum_path}::{name}{}{value}",
            attrs(item),
            fields.concat()
        );
        self.add(enum_path, 1, line);
    }

    /// Inherent methods and constants, and the trait impls (not blanket impls).
    fn impls(&mut self, inner: &Value, path: &str) {
        for i in inner["impls"].as_array().into_iter().flatten() {
            let imp = &self.item(i.as_u64().unwrap_or(u64::MAX))["inner"]["impl"];
            if !imp["blanket_impl"].is_null() {
                continue;
            }
            let Some(tr) = imp["trait"].as_object() else {
                // An impl for some of the type's instances (`impl<R> FieldBits<u8, R>`) names
                // them.
                let args = &imp["for"]["resolved_path"]["args"]["angle_bracketed"]["args"];
                let concrete = args
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|a| a.get("type").is_some_and(|t| t.get("generic").is_none()));
                let shown = match concrete {
                    true => format!(
                        "{path}{}",
                        generic_args(&imp["for"]["resolved_path"]["args"])
                    ),
                    false => path.to_string(),
                };
                for m in imp["items"].as_array().into_iter().flatten() {
                    self.assoc(m.as_u64().unwrap_or(u64::MAX), path, &shown, false);
                }
                continue;
            };
            // Unstable marker traits that users cannot name (`derive(PartialEq)` implements
            // `StructuralPartialEq`).
            if ["Freeze", "StructuralPartialEq", "UnsafeUnpin"]
                .contains(&tr["path"].as_str().unwrap_or(""))
            {
                continue;
            }
            let negative = if imp["is_negative"] == true { "!" } else { "" };
            let unsafety = if imp["is_unsafe"] == true {
                "unsafe "
            } else {
                ""
            };
            let args = match &imp["for"]["resolved_path"]["args"] {
                Value::Null => String::new(),
                a => generic_args(a),
            };
            self.add(
                path,
                2,
                format!(
                    "{unsafety}impl{} {negative}{} for {path}{args}{}",
                    generics(&imp["generics"]),
                    path_of(&Value::Object(tr.clone())),
                    wheres(&imp["generics"]),
                ),
            );
        }
    }

    /// An associated item of an impl or trait at `owner`, shown under `path` (`in_trait`: of a
    /// trait, where everything is public).
    fn assoc(&mut self, id: u64, owner: &str, path: &str, in_trait: bool) {
        let item = self.item(id);
        if !in_trait && item["visibility"] != "public" {
            return;
        }
        let name = item["name"].as_str().unwrap_or("?");
        let inner = &item["inner"];
        let attrs = attrs(item);
        let line = if let Some(f) = inner.get("function") {
            function(f, &format!("{path}::{name}"))
        } else if let Some(c) = inner.get("assoc_const") {
            format!("pub const {path}::{name}: {}", ty(&c["type"]))
        } else if let Some(t) = inner.get("assoc_type") {
            let bounds = bounds(&t["bounds"]);
            let bounds = if bounds.is_empty() {
                bounds
            } else {
                format!(": {bounds}")
            };
            format!(
                "pub type {path}::{name}{}{bounds}",
                generics(&t["generics"])
            )
        } else {
            return;
        };
        self.add(owner, 1, format!("{attrs}{line}"));
    }

    fn trait_(&mut self, item: &Value, inner: &Value, path: &str) {
        let unsafety = if inner["is_unsafe"] == true {
            "unsafe "
        } else {
            ""
        };
        let supers = bounds(&inner["bounds"]);
        let supers = if supers.is_empty() {
            supers
        } else {
            format!(": {supers}")
        };
        self.add(
            path,
            0,
            format!(
                "{}pub {unsafety}trait {path}{}{supers}{}",
                attrs(item),
                generics(&inner["generics"]),
                wheres(&inner["generics"])
            ),
        );
        for m in inner["items"].as_array().into_iter().flatten() {
            self.assoc(m.as_u64().unwrap_or(u64::MAX), path, path, true);
        }
        // Impls for this crate's types are listed with the type; the others (another crate's
        // types, blanket impls) here.
        for i in inner["implementations"].as_array().into_iter().flatten() {
            let imp = &self.item(i.as_u64().unwrap_or(u64::MAX))["inner"]["impl"];
            let for_local = imp["for"]["resolved_path"]["id"]
                .as_u64()
                .is_some_and(|t| self.krate["paths"][t.to_string()]["crate_id"] == 0);
            if imp.is_null() || for_local {
                continue;
            }
            let unsafety = if imp["is_unsafe"] == true {
                "unsafe "
            } else {
                ""
            };
            let line = format!(
                "{unsafety}impl{} {} for {}{}",
                generics(&imp["generics"]),
                path_of(&imp["trait"]),
                ty(&imp["for"]),
                wheres(&imp["generics"]),
            );
            self.add(path, 2, line);
        }
    }
}
