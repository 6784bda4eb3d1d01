//! Every spec that validation accepts produces outputs that build: a property test over
//! generated models (names drawn from keywords and the generator's own identifiers as well
//! as at random, varied shapes, descriptions with control characters and code-like text).
//!
//! For each accepted spec: the Rust files parse with `syn` and no module defines a name twice
//! in one namespace (nor shadows a prelude item it uses), the C header compiles with
//! `gcc -std=c11 -Wall -Wextra -Werror -pedantic`, and the SVD (and each SVG diagram of the
//! documentation) is well-formed XML. A second test compiles the Rust crates of a few such
//! specs and an awkward hand-written one with `cargo check`, and finds no doctest in them.
//!
//! `PROPTEST_CASES` raises the case count (default below); the test reports how many of the
//! generated specs validation accepted, so a strategy that only makes invalid specs shows.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::Command;

use gba_codegen::Located;
use gba_codegen::emit::{self, GeneratedFile, Output, Provenance};
use gba_codegen::model::{
    Access, Array, BitRange, Block, Constant, Device, EnumValue, Field, Register, SideEffect,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

/// Cases per run unless `PROPTEST_CASES` says otherwise.
const DEFAULT_CASES: u32 = 256;

/// Names the generated code itself uses, in every case form the emitters produce, plus Rust
/// and C keywords and standard C macro names.
const AWKWARD_NAMES: &[&str] = &[
    "common",
    "lib",
    "tock_registers",
    "core",
    "std",
    "reg",
    "Reg",
    "ro",
    "wo",
    "rw",
    "rw_w1",
    "ro_rc",
    "rw_rc",
    "option",
    "some",
    "none",
    "send",
    "sync",
    "clone",
    "copy",
    "debug",
    "self_",
    "self",
    "Self",
    "type",
    "offset",
    "reset",
    "size",
    "register",
    "field",
    "value",
    "set",
    "clear",
    "from_ptr",
    "as_ptr",
    "ptr",
    "device",
    "index",
    "count",
    "stride",
    "mask",
    "shift",
    "width",
    "read",
    "write",
    "get",
    "base",
    "regs_h",
    "regs",
    "h",
    "size_max",
    "max",
    "int8",
    "null",
    "a",
    "b",
    "a_b",
    "ab",
    "x",
    "x_unchecked",
    "unchecked",
    "window",
    "window_size",
    "reset_value",
    "w1_mask",
    "w1",
    "result",
    "default",
    "u32",
    "main",
    "modify",
    "read_and_clear",
    "int",
    "union",
    "gen",
    "macro_rules",
    "Value",
    "T",
    "R",
    // The generator's own items and type parameters, as a spec may name its registers and
    // fields (a register `M` once met the handles' type parameter `M`).
    "M",
    "m",
    "Register",
    "Field",
    "FieldValue",
    "FieldBits",
    "DebugEnums",
    "EnumField",
    "RawFields",
    "Volatile",
    "Atomic",
    "Scoped",
    "mechanism",
    "marker",
    "PhantomData",
    "Device",
    "SIZE",
    "COUNT",
];

/// Enumerated-value lists that real files repeat word for word, in one register (two fields
/// `A_PD`, `B_PD`, both `POWERED = 0`, `DOWN = 1`) and across registers: a field takes one
/// of these often, so that identical lists meet in every arrangement.
const SHARED_VALUE_LISTS: &[&[(&str, u64)]] = &[
    &[("POWERED", 0), ("DOWN", 1)],
    &[("DISABLED", 0), ("ENABLED", 1)],
    &[("Value", 1)],
];

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => prop::sample::select(AWKWARD_NAMES).prop_map(str::to_string),
        3 => "[A-Za-z][A-Za-z0-9_]{0,6}",
    ]
}

fn description() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => Just(String::new()),
        2 => "[ -~\t\r\n\x0c\x00]{0,24}",
        1 => prop::sample::select(vec![
            "text\n\n    let x: u32 = 1; // an indented code block",
            "```\nfn main() { panic!() }\n```",
            "a */ comment /* inside ??/",
            "line\rcarriage\r\nreturn",
            "xml <&> ]]> -- \x0c feed \x00 nul",
            "\\",
            "trailing backslash \\\nnext",
            "[broken](link) <b>html",
        ])
        .prop_map(str::to_string),
    ]
}

fn located<T>(value: T) -> Located<T> {
    Located::synthetic(value)
}

/// The `k`th value of a field: `k` itself, so that no two values are equal.
fn enum_value(k: u64) -> impl Strategy<Value = EnumValue> {
    (name(), description()).prop_map(move |(name, description)| EnumValue {
        name: located(name),
        value: located(k),
        description,
    })
}

const ACCESSES: [Access; 3] = [Access::ReadOnly, Access::WriteOnly, Access::ReadWrite];

/// Field `k` of a register: bits `[2k + width - 1 : 2k]`, never overlapping another, with an
/// access no wider than the register's and a side effect that fits it (mostly: a few are
/// left to validation to refuse).
fn field(k: u32, register: Access) -> impl Strategy<Value = Field> {
    let accesses = match register {
        Access::ReadWrite => ACCESSES.to_vec(),
        other => vec![other],
    };
    (
        1u32..=2,
        prop::option::weighted(0.2, prop::sample::select(accesses)),
    )
        .prop_flat_map(move |(width, access)| {
            let effective = access.unwrap_or(register);
            let mut effects = Vec::new();
            if effective.is_writable() {
                effects.extend([
                    SideEffect::WriteOneToClear,
                    SideEffect::WriteOneToSet,
                    SideEffect::WriteOneToToggle,
                    SideEffect::WriteZeroToClear,
                    SideEffect::WriteZeroToSet,
                    SideEffect::WriteZeroToToggle,
                ]);
                if width == 1 {
                    effects.push(SideEffect::SinglePulse);
                }
            }
            if effective.is_readable() {
                effects.extend([SideEffect::ReadToClear, SideEffect::ReadToSet]);
            }
            let effect = prop::option::weighted(0.4, prop::sample::select(effects));
            let own: Vec<_> = (0..(1u64 << width)).map(enum_value).collect();
            let values = prop_oneof![
                2 => (own, 0usize..=2).prop_map(|(values, keep)| {
                    values.into_iter().take(keep).collect::<Vec<_>>()
                }),
                1 => prop::sample::select(SHARED_VALUE_LISTS).prop_map(|list| {
                    list.iter()
                        .map(|(name, value)| EnumValue {
                            name: located(name.to_string()),
                            value: located(*value),
                            description: String::new(),
                        })
                        .collect()
                }),
            ];
            (name(), description(), effect, values, Just((width, access)))
        })
        .prop_map(
            move |(name, description, effect, values, (width, access))| Field {
                // Some writable fields are write-once (their registers become `RwOnce`);
                // the name's length stands in for a coin.
                write_once: access.is_some_and(|a: Access| a.is_writable()) && name.len() % 3 == 0,
                // Some registers' fields are msb0 (below).
                msb0: false,
                name: located(name),
                description,
                bits: located(BitRange {
                    msb: 2 * k + width - 1,
                    lsb: 2 * k,
                }),
                access: access.map(located),
                side_effect: effect.map(located),
                reset_from: None,
                values,
                write_values: Vec::new(),
                hardware: Default::default(),
            },
        )
}

/// Register `j` of a block: at `j * 0x40`, an array of up to 4 elements at most.
fn register(j: u64) -> impl Strategy<Value = Register> {
    (
        name(),
        description(),
        prop::sample::select(vec![8u32, 16, 32, 64]),
        prop::sample::select(ACCESSES.to_vec()),
        prop::option::weighted(0.3, (1u64..=4, 1u64..=2)),
        any::<u64>(),
        0usize..=3,
    )
        .prop_flat_map(
            move |(name, description, width, access, count, reset, fields)| {
                let fields: Vec<_> = (0..fields as u32).map(|k| field(k, access)).collect();
                (
                    fields,
                    Just((name, description, width, access, count, reset)),
                )
            },
        )
        .prop_map(
            move |(mut fields, (name, description, width, access, count, reset))| {
                // Some registers' fields are msb0 (their accessors reverse the value; one bit
                // order per register), the name's length standing in for a coin.
                for field in &mut fields {
                    field.msb0 = name.len() % 4 == 1;
                }
                let bytes = u64::from(width / 8);
                let reset = if width == 64 {
                    reset
                } else {
                    reset & ((1 << width) - 1)
                };
                Register {
                    name: located(name),
                    description,
                    offset: located(j * 0x40),
                    width: located(width),
                    access: located(access),
                    reset: located(reset),
                    // Up to 4 elements, packed or one register apart: within 0x40 bytes.
                    array: count.map(|(count, spacing)| Array {
                        count: located(count),
                        stride: located(bytes * spacing),
                    }),
                    fields,
                    alternate_of: None,
                    lock: None,
                    access_width: None,
                    split_read: None,
                    hardware: Default::default(),
                }
            },
        )
}

/// Block `i`: at `i * 0x8000`, 0x100 or 0x1000 bytes (its registers need 0x100 at most), an
/// array of up to 3 instances at most, packed or one size apart.
fn block(i: u64) -> impl Strategy<Value = Block> {
    (
        name(),
        description(),
        prop::sample::select(vec![0x100u64, 0x1000]),
        prop::option::weighted(0.3, (1u64..=3, 1u64..=2)),
        0u64..=4,
        prop::bool::weighted(0.3),
    )
        .prop_flat_map(
            move |(name, description, size, count, registers, alternate)| {
                let registers: Vec<_> = (0..registers).map(register).collect();
                (registers, Just((name, description, size, count, alternate)))
            },
        )
        .prop_map(
            move |(mut registers, (name, description, size, count, alternate))| {
                // The last register another view of the first: moved onto its bytes.
                if alternate && registers.len() >= 2 {
                    let first = registers[0].clone();
                    let last = registers.last_mut().expect("two registers");
                    last.offset = first.offset;
                    last.alternate_of = Some(first.name);
                }
                Block {
                    name: located(name),
                    description,
                    offset: located(i * 0x8000),
                    size: located(size),
                    array: count.map(|(count, spacing)| Array {
                        count: located(count),
                        stride: located(size * spacing),
                    }),
                    registers,
                    alternate_of: None,
                    instance_of: None,
                }
            },
        )
}

fn constant() -> impl Strategy<Value = Constant> {
    (name(), 0u64..=u64::from(u32::MAX), description()).prop_map(|(name, value, description)| {
        Constant {
            name: located(name),
            value: located(value),
            description,
        }
    })
}

fn device() -> impl Strategy<Value = Device> {
    (
        name(),
        description(),
        prop::sample::select(vec!["", "1.0", "2 beta"]),
        prop::collection::vec(constant(), 0..=2),
        1u64..=3,
        prop::option::weighted(0.3, name()),
    )
        .prop_flat_map(
            |(name, description, version, constants, blocks, alternate)| {
                let blocks: Vec<_> = (0..blocks).map(block).collect();
                (
                    blocks,
                    Just((name, description, version, constants, alternate)),
                )
            },
        )
        .prop_map(
            |(mut blocks, (name, description, version, constants, alternate))| {
                // Another view of the first block's bytes (CMSIS-SVD's alternatePeripheral):
                // a copy of it under another name, after the others.
                if let Some(alternate) = alternate {
                    let first = blocks[0].clone();
                    blocks.push(Block {
                        name: located(alternate),
                        alternate_of: Some(first.name.clone()),
                        ..first
                    });
                }
                Device {
                    name: located(name),
                    description,
                    version: version.to_string(),
                    constants,
                    blocks,
                    interrupts: Vec::new(),
                    cpu: None,
                    address: None,
                }
            },
        )
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

fn provenance() -> Provenance {
    Provenance {
        spec: "spec.yaml".into(),
        command: "gba gen --spec spec.yaml --out pac".into(),
    }
}

/// The outputs of an accepted device; every output must be written.
fn outputs(device: &Device) -> Option<Vec<GeneratedFile>> {
    let validated = gba_codegen::validate(device.clone(), &Output::ALL).ok()?;
    match emit::all(&validated, &provenance()) {
        Ok(files) => Some(files),
        Err(error) => panic!("accepted, but an output cannot be written: {error}"),
    }
}

#[test]
fn every_accepted_spec_has_outputs_that_build() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A fixed seed: the same specs on every run, so that the acceptance rate below (about a
    // quarter of random specs are valid) cannot fail by chance; cases() widens the search.
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: cases(),
            failure_persistence: None,
            ..Config::default()
        },
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let accepted = std::cell::Cell::new(0u32);
    let started = std::time::Instant::now();
    let result = runner.run(&device(), |device| {
        let Some(files) = outputs(&device) else {
            return Ok(());
        };
        accepted.set(accepted.get() + 1);
        check_files(&files, dir.path());
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
    eprintln!(
        "{} of {} generated specs accepted, all outputs build ({:.1?})",
        accepted.get(),
        cases(),
        started.elapsed()
    );
    // The strategies must mostly make valid specs, or the property says little.
    assert!(
        accepted.get() * 5 >= cases(),
        "only {} of {} generated specs were valid",
        accepted.get(),
        cases()
    );
}

fn check_files(files: &[GeneratedFile], dir: &Path) {
    let mut paths = HashSet::new();
    for file in files {
        assert!(paths.insert(&file.path), "two files are {}", file.path);
        if file.path.ends_with(".rs") {
            rust_file(file);
        } else if file.path.ends_with(".h") {
            c_header(file, dir);
        } else if (file.path.ends_with(".svd") || file.path.ends_with(".svg"))
            && let Err(error) = roxmltree::Document::parse(&file.contents)
        {
            panic!(
                "{} is not well-formed XML: {error}\n{}",
                file.path, file.contents
            );
        }
    }
    // Every `pub mod x;` of the crate root has its file.
    let root = files
        .iter()
        .find(|f| f.path == "src/lib.rs")
        .expect("lib.rs");
    let syntax = syn::parse_file(&root.contents).expect("lib.rs parses");
    for item in &syntax.items {
        if let syn::Item::Mod(module) = item
            && module.content.is_none()
        {
            let path = format!("src/{}.rs", module.ident);
            assert!(
                paths.contains(&path),
                "lib.rs declares {path}, not generated"
            );
        }
    }
}

/// The names a module defines, by namespace, must be distinct; and a type it defines must not
/// be a prelude name that the module also uses.
fn rust_file(file: &GeneratedFile) {
    let syntax = match syn::parse_file(&file.contents) {
        Ok(syntax) => syntax,
        Err(error) => panic!("{} does not parse: {error}\n{}", file.path, file.contents),
    };
    let context = || format!("in {}:\n{}", file.path, file.contents);
    module_items(&syntax.items, &context);
    value_enums_distinct(file, &syntax, &context);
}

/// In one register's field module, each field's `field_values!` implements
/// `Into<FieldValue<_, Register>>` for the `Value` in scope: two fields of one register with
/// the same `Value` (defined by one, re-exported by the other, or both re-exporting one)
/// would implement it twice (rustc E0119).
fn value_enums_distinct(file: &GeneratedFile, syntax: &syn::File, context: &dyn Fn() -> String) {
    let Some(block) = file
        .path
        .strip_prefix("src/")
        .and_then(|p| p.strip_suffix(".rs"))
    else {
        return;
    };
    for item in &syntax.items {
        let syn::Item::Mod(register) = item else {
            continue;
        };
        let Some((_, fields)) = &register.content else {
            continue;
        };
        let mut seen: HashMap<String, String> = HashMap::new();
        for field in fields {
            let syn::Item::Mod(field) = field else {
                continue;
            };
            let Some((_, items)) = &field.content else {
                continue;
            };
            let mut identity = None;
            for item in items {
                match item {
                    syn::Item::Enum(e) if e.ident == "Value" => {
                        identity = Some(format!(
                            "crate :: {block} :: {} :: {}",
                            register.ident, field.ident
                        ));
                    }
                    syn::Item::Use(u) => {
                        let path = quote::quote!(#u).to_string();
                        if let Some(path) = path
                            .strip_prefix("pub use ")
                            .and_then(|p| p.strip_suffix(" :: Value ;"))
                        {
                            identity = Some(path.to_string());
                        }
                    }
                    _ => {}
                }
            }
            if let Some(identity) = identity
                && let Some(other) = seen.insert(identity.clone(), field.ident.to_string())
            {
                panic!(
                    "fields `{other}` and `{}` of `{}` both convert `{identity}::Value` {}",
                    field.ident,
                    register.ident,
                    context()
                );
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Namespace {
    Type,
    Value,
    Macro,
}

const PRELUDE: &[&str] = &[
    "Option", "Some", "None", "Result", "Ok", "Err", "Send", "Sync", "Copy", "Clone", "Debug",
    "Sized", "From", "Into", "Default", "Drop",
];

fn module_items(items: &[syn::Item], context: &dyn Fn() -> String) {
    let mut defined: HashSet<(Namespace, String)> = HashSet::new();
    let mut define = |ns: Namespace, name: String| {
        assert!(
            defined.insert((ns, name.clone())),
            "`{name}` is defined twice ({ns:?} namespace) {}",
            context()
        );
    };
    let mut impls: HashMap<String, HashSet<String>> = HashMap::new();
    for item in items {
        match item {
            syn::Item::Const(c) => define(Namespace::Value, c.ident.to_string()),
            syn::Item::Static(s) => define(Namespace::Value, s.ident.to_string()),
            syn::Item::Fn(f) => define(Namespace::Value, f.sig.ident.to_string()),
            syn::Item::Struct(s) => {
                define(Namespace::Type, s.ident.to_string());
                if !matches!(s.fields, syn::Fields::Named(_)) {
                    define(Namespace::Value, s.ident.to_string());
                }
            }
            syn::Item::Enum(e) => define(Namespace::Type, e.ident.to_string()),
            syn::Item::Trait(t) => define(Namespace::Type, t.ident.to_string()),
            syn::Item::Type(t) => define(Namespace::Type, t.ident.to_string()),
            syn::Item::Mod(m) => {
                define(Namespace::Type, m.ident.to_string());
                if let Some((_, items)) = &m.content {
                    module_items(items, context);
                }
            }
            syn::Item::Use(u) => {
                for name in use_names(&u.tree) {
                    define(Namespace::Type, name);
                }
            }
            syn::Item::Impl(i) => {
                let ty = quote_type(&i.self_ty);
                let trait_impl = i.trait_.is_some();
                for item in &i.items {
                    let name = match item {
                        syn::ImplItem::Fn(f) => f.sig.ident.to_string(),
                        syn::ImplItem::Const(c) => c.ident.to_string(),
                        _ => continue,
                    };
                    if !trait_impl {
                        assert!(
                            impls.entry(ty.clone()).or_default().insert(name.clone()),
                            "`{ty}::{name}` is defined twice {}",
                            context()
                        );
                    }
                }
            }
            syn::Item::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "register_bitfields") =>
            {
                let registers = m
                    .mac
                    .parse_body_with(parse_bitfields)
                    .unwrap_or_else(|e| panic!("register_bitfields! body: {e} {}", context()));
                for (module, fields) in registers {
                    define(Namespace::Type, module.clone());
                    let mut seen = HashSet::new();
                    for (field, values) in fields {
                        assert!(
                            seen.insert(field.clone()),
                            "field `{module}::{field}` twice {}",
                            context()
                        );
                        let mut in_field: HashSet<String> =
                            ["SET", "CLEAR", "Value"].map(str::to_string).into();
                        for value in values {
                            assert!(
                                in_field.insert(value.clone()),
                                "`{module}::{field}::{value}` defined twice {}",
                                context()
                            );
                        }
                    }
                }
            }
            // `macro_rules! name` defines a macro; an invocation (`field_bits!(…)`) defines
            // nothing by itself.
            syn::Item::Macro(m) if m.ident.is_some() => define(
                Namespace::Macro,
                m.ident.as_ref().map_or_else(String::new, |i| i.to_string()),
            ),
            _ => {}
        }
    }
    // A type named like a prelude item hides it from the code of the module that uses it:
    // apart from its own definition, impls and construction, the name must not appear.
    let text = items
        .iter()
        .map(|i| quote::quote!(#i).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    for (ns, name) in &defined {
        if *ns == Namespace::Type && PRELUDE.contains(&name.as_str()) {
            // Derive macros resolve in the macro namespace, so a block type named `Copy` or
            // `Clone` does not hide `#[derive(Clone, Copy, Debug)]` (checked with rustc).
            let mut rest = without_derives(&without_strings(&text));
            for own in [
                format!("struct {name}"),
                format!("impl {name}"),
                format!("for {name}"),
                format!("{name} {{ ptr }}"),
                // The handle's impl over every mechanism and its construction.
                format!("impl < _M : :: core :: marker :: Copy > {name}"),
                // Its address, on memory mechanisms only.
                format!("impl < _M : crate :: common :: InMemory > {name}"),
                format!("{name} {{ ptr ,"),
                // Its impl on a bus and the construction there.
                format!("> {name} < crate :: common :: OnBus"),
                format!("{name} {{ ptr : :: core :: ptr :: null_mut"),
                // A qualified path (`::core::fmt::Result`) does not resolve through the
                // module's own items.
                format!(":: {name}"),
            ] {
                rest = rest.replace(&own, "");
            }
            let uses = rest
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .filter(|word| word == name)
                .count();
            assert_eq!(
                uses,
                0,
                "`{name}` shadows the prelude item it also uses {}",
                context()
            );
        }
    }
}

fn quote_type(ty: &syn::Type) -> String {
    quote::quote!(#ty).to_string()
}

fn use_names(tree: &syn::UseTree) -> Vec<String> {
    match tree {
        syn::UseTree::Path(p) => use_names(&p.tree),
        syn::UseTree::Name(n) => vec![n.ident.to_string()],
        syn::UseTree::Rename(r) => vec![r.rename.to_string()],
        syn::UseTree::Glob(_) => Vec::new(),
        syn::UseTree::Group(g) => g.items.iter().flat_map(use_names).collect(),
    }
}

type Bitfields = Vec<(String, Vec<(String, Vec<String>)>)>;

/// `u32, #[doc] pub NAME [ #[doc] FIELD OFFSET(n) NUMBITS(n) [ VALUE = n, … ], … ]`: the
/// register modules with their fields and values.
fn parse_bitfields(input: syn::parse::ParseStream<'_>) -> syn::Result<Bitfields> {
    use syn::Token;
    let _: syn::Ident = input.parse()?;
    let _: Token![,] = input.parse()?;
    let mut registers = Vec::new();
    while !input.is_empty() {
        let _ = input.call(syn::Attribute::parse_outer)?;
        let _: syn::Visibility = input.parse()?;
        let module: syn::Ident = input.parse()?;
        let body;
        syn::bracketed!(body in input);
        let mut fields = Vec::new();
        while !body.is_empty() {
            let _ = body.call(syn::Attribute::parse_outer)?;
            let field: syn::Ident = body.parse()?;
            let _: syn::Ident = body.parse()?; // OFFSET
            let _: proc_macro2::Group = body.parse()?;
            let _: syn::Ident = body.parse()?; // NUMBITS
            let _: proc_macro2::Group = body.parse()?;
            let values_body;
            syn::bracketed!(values_body in body);
            let mut values = Vec::new();
            while !values_body.is_empty() {
                let _ = values_body.call(syn::Attribute::parse_outer)?;
                let value: syn::Ident = values_body.parse()?;
                let _: Token![=] = values_body.parse()?;
                let _: syn::Lit = values_body.parse()?;
                values.push(value.to_string());
                if !values_body.is_empty() {
                    let _: Token![,] = values_body.parse()?;
                }
            }
            fields.push((field.to_string(), values));
            if !body.is_empty() {
                let _: Token![,] = body.parse()?;
            }
        }
        registers.push((module.to_string(), fields));
        if !input.is_empty() {
            let _: Token![,] = input.parse()?;
        }
    }
    Ok(registers)
}

fn c_header(file: &GeneratedFile, dir: &Path) {
    let name = Path::new(&file.path).file_name().expect("a file name");
    std::fs::write(dir.join(name), &file.contents).expect("write the header");
    let source = dir.join("main.c");
    std::fs::write(
        &source,
        format!(
            "#include \"{}\"\nint main(void) {{ return 0; }}\n",
            name.to_string_lossy()
        ),
    )
    .expect("write main.c");
    let output = Command::new("gcc")
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-fsyntax-only",
        ])
        .arg(&source)
        .output()
        .expect("gcc runs (install gcc)");
    assert!(
        output.status.success(),
        "the C header does not compile:\n{}\n{}",
        String::from_utf8_lossy(&output.stderr),
        file.contents
    );
}

/// The Rust crates of a few accepted specs, compiled with `cargo check` (offline, with a
/// target directory shared between runs so that tock-registers is built once).
#[test]
fn a_sample_of_accepted_specs_compiles() {
    const SAMPLE: usize = 6;
    let mut runner = TestRunner::deterministic();
    let mut crates = Vec::new();
    let mut tries = 0;
    while crates.len() < SAMPLE && tries < 1000 {
        tries += 1;
        let device = device().new_tree(&mut runner).expect("a value").current();
        if let Some(files) = outputs(&device) {
            crates.push(files);
        }
    }
    assert_eq!(crates.len(), SAMPLE, "too few valid specs in {tries} tries");
    // And one whose descriptions hold every kind of text that once broke an output.
    let awkward = gba_codegen::parse_str(AWKWARD_SPEC).unwrap_or_else(|d| panic!("{d:#?}"));
    let awkward = outputs(&awkward).expect("the awkward spec is accepted");
    let dir = tempfile::tempdir().expect("temp dir");
    check_files(&awkward, dir.path());
    crates.push(awkward);
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir.parent().expect("workspace root");
    let target = workspace.join("target").join("accepted-specs");
    let mut members = Vec::new();
    for (i, files) in crates.iter().enumerate() {
        let member = format!("pac{i}");
        let root = dir.path().join(&member);
        for file in files.iter().filter(|f| f.path.starts_with("src/")) {
            let path = root.join(&file.path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, &file.contents).expect("write");
        }
        std::fs::write(
            root.join("Cargo.toml"),
            format!(
                "[package]\nname = \"{member}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\ntock-registers = {{ version = \"0.10\", default-features = false }}\n\n[features]\ndebug = []\ndevice-side = []\nnames = []\n"
            ),
        )
        .expect("write Cargo.toml");
        members.push(format!("\"{member}\""));
    }
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            "[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
            members.join(", ")
        ),
    )
    .expect("write the workspace manifest");
    // The project's lock file pins the same tock-registers, so nothing is downloaded.
    std::fs::copy(workspace.join("Cargo.lock"), dir.path().join("Cargo.lock"))
        .expect("copy Cargo.lock");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // `check` with warnings denied, with no feature and with every feature (`debug`, `names`,
    // `device-side`: each is code of its own), then the doctests: no description may become one.
    let all = "--all-features";
    for command in [
        &["check", "--offline", "--workspace", "--quiet"][..],
        &["check", "--offline", "--workspace", "--quiet", all][..],
        &["test", "--doc", "--offline", "--workspace", "--quiet", all][..],
    ] {
        let output = Command::new(&cargo)
            .args(command)
            .current_dir(dir.path())
            .env("CARGO_TARGET_DIR", &target)
            .env("RUSTFLAGS", "-D warnings")
            .env("RUSTDOCFLAGS", "-D warnings")
            // tests/run.sh's clippy wrapper lints this workspace's crates, not generated ones.
            .env_remove("RUSTC_WORKSPACE_WRAPPER")
            .output()
            .expect("cargo runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let no_doctest = stdout
            .lines()
            .filter(|l| l.contains("test result"))
            .all(|l| l.contains(" 0 passed; 0 failed"));
        if output.status.success() && no_doctest {
            continue;
        }
        let sources: String = crates
            .iter()
            .flatten()
            .filter(|f| f.path.ends_with(".rs") && f.path != "src/common.rs")
            .map(|f| format!("==> {}\n{}\n", f.path, f.contents))
            .collect();
        panic!(
            "cargo {command:?} fails on a generated crate (or finds a doctest):\n{stdout}\n{}\n{sources}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

const AWKWARD_SPEC: &str = r#"device:
  name: awk
  description: "```\nfn main() { panic!() }\n```\n\n    let x: u32 = 'a'; // indented code\n\ttabbed\rcarriage"
blocks:
  - name: b
    description: "- item\n      continued\n\n# Heading\n    code after a heading\n~~~\nfenced\n~~~"
    offset: 0
    size: 0x10
    count: 2
    registers:
      - name: R
        description: "feed\f nul\0 */ /* ??/ <&> ]]> --"
        offset: 0
        width: 32
        access: rw
        count: 2
        fields:
          - { name: F, bits: 0, side_effect: w1c, description: "\n\n    assert!(false);" }
          - { name: G, bits: "2:1", values: [{ name: A, value: 1, description: "    x" }] }
      - name: C
        offset: 8
        width: 8
        access: ro
        count: 1
        stride: 1
        fields:
          - { name: N, bits: "7:0", side_effect: rc }
  - name: result
    description: "A block named like a prelude type its own generated code must not rely on."
    offset: 0x100
    size: 0x10
    registers:
      - { name: R, offset: 0, width: 32, access: rw }
  - name: rw
    description: "Named like an access mode, with registers named like the generator's items."
    offset: 0x200
    size: 0x40
    count: 2
    registers:
      - name: M
        offset: 0
        width: 32
        access: rw
        fields:
          - { name: A_PD, bits: 0, values: [{ name: POWERED, value: 0 }, { name: DOWN, value: 1 }] }
          - { name: B_PD, bits: 1, values: [{ name: POWERED, value: 0 }, { name: DOWN, value: 1 }] }
      - name: FieldValue
        offset: 4
        width: 32
        access: rw
        count: 4
        fields:
          - { name: Value, bits: 0, values: [{ name: POWERED, value: 0 }, { name: DOWN, value: 1 }] }
          - { name: M, bits: 1, values: [{ name: POWERED, value: 0 }, { name: DOWN, value: 1 }] }
  - name: option
    offset: 0x300
    size: 0x10
    registers:
      - { name: Reg, offset: 0, width: 32, access: rw, fields: [{ name: Field, bits: 0 }] }
  - name: none
    description: "An array of blocks named like a prelude item that its accessor's docs mention."
    offset: 0x400
    size: 0x10
    count: 2
    registers:
      - { name: R, offset: 0, width: 32, access: rw, count: 2 }
"#;

/// The text without its string literals (doc comments among them: "or `None` when" is no
/// use of `None`). Character literals never hold a `"` in generated code but `'"'`,
/// which is skipped whole.
fn without_strings(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' if chars.as_str().starts_with("\"'") => {
                chars.nth(1);
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                out.push_str("\"\"");
            }
            c => out.push(c),
        }
    }
    out
}

#[test]
fn string_literals_are_no_uses_of_a_name() {
    assert_eq!(without_strings(r#"a "x \" None" b '"' c"#), r#"a "" b  c"#);
}

/// `text` without the contents of its `derive(…)` attributes.
fn without_derives(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("derive (") {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        rest = rest.find(')').map_or("", |end| &rest[end + 1..]);
    }
    out.push_str(rest);
    out
}
