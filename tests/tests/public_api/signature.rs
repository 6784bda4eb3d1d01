//! Signatures, types, generics and attributes of rustdoc's JSON, written as a user writes them.

use serde_json::Value;

/// The attributes a user sees in the API: deprecation, `#[non_exhaustive]`, `#[repr]` and
/// exported symbol names.
pub fn attrs(item: &Value) -> String {
    let mut out = String::new();
    if let Some(d) = item["deprecation"].as_object() {
        let since = d.get("since").and_then(Value::as_str).unwrap_or("");
        let note = d.get("note").and_then(Value::as_str).unwrap_or("");
        out += &format!("#[deprecated(since = {since:?}, note = {note:?})] ");
    }
    for a in item["attrs"].as_array().into_iter().flatten() {
        match a {
            Value::String(s) if s == "non_exhaustive" || s == "no_mangle" => {
                out += &format!("#[{s}] ")
            }
            Value::Object(o) if o.contains_key("repr") => {
                out += &format!("#[repr({})] ", repr(&o["repr"]))
            }
            Value::Object(o) if o.contains_key("export_name") => {
                out += &format!("#[export_name = {}] ", o["export_name"])
            }
            _ => {}
        }
    }
    out
}

fn repr(r: &Value) -> String {
    let mut parts = Vec::new();
    match r["kind"].as_str() {
        Some("rust") | None => {}
        Some("c") => parts.push("C".to_string()),
        Some(k) => parts.push(k.to_string()),
    }
    if let Some(i) = r["int"].as_str() {
        parts.push(i.to_string());
    }
    if let Some(a) = r["align"].as_u64() {
        parts.push(format!("align({a})"));
    }
    if let Some(p) = r["packed"].as_u64() {
        parts.push(format!("packed({p})"));
    }
    parts.join(", ")
}

pub fn function(f: &Value, path: &str) -> String {
    let h = &f["header"];
    let mut q = String::new();
    for (flag, word) in [
        ("is_const", "const "),
        ("is_async", "async "),
        ("is_unsafe", "unsafe "),
    ] {
        if h[flag] == true {
            q += word;
        }
    }
    match &h["abi"] {
        Value::String(s) if s == "Rust" => {}
        Value::String(s) => q += &format!("extern {s:?} "),
        Value::Object(o) => {
            let (abi, _) = o
                .iter()
                .next()
                .map(|(k, v)| (k.clone(), v))
                .unwrap_or_default();
            q += &format!("extern {:?} ", abi);
        }
        _ => {}
    }
    let sig = &f["sig"];
    let args: Vec<String> = sig["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|input| {
            let (name, t) = (input[0].as_str().unwrap_or(""), &input[1]);
            match (name, t) {
                ("self", Value::Object(o)) if o.get("generic").is_some_and(|g| g == "Self") => {
                    "self".into()
                }
                ("self", t) if t["borrowed_ref"]["type"]["generic"] == "Self" => {
                    let r = &t["borrowed_ref"];
                    let life = lifetime(&r["lifetime"]);
                    let m = if r["is_mutable"] == true { "mut " } else { "" };
                    format!("&{life}{m}self")
                }
                _ => ty(t),
            }
        })
        .collect();
    let variadic = if sig["is_c_variadic"] == true {
        ", ..."
    } else {
        ""
    };
    let out = match &sig["output"] {
        Value::Null => String::new(),
        t => format!(" -> {}", ty(t)),
    };
    format!(
        "pub {q}fn {path}{}({}{variadic}){out}{}",
        generics(&f["generics"]),
        args.join(", "),
        wheres(&f["generics"])
    )
}

fn lifetime(l: &Value) -> String {
    l.as_str().map(|l| format!("{l} ")).unwrap_or_default()
}

/// `<'a, T: Bound, const N: usize>`, leaving out the synthetic parameters of `impl Trait`.
pub fn generics(g: &Value) -> String {
    let params: Vec<String> = g["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let name = p["name"].as_str().unwrap_or("?");
            let kind = &p["kind"];
            if let Some(l) = kind.get("lifetime") {
                let outlives: Vec<&str> = l["outlives"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                Some(if outlives.is_empty() {
                    name.to_string()
                } else {
                    format!("{name}: {}", outlives.join(" + "))
                })
            } else if let Some(t) = kind.get("type") {
                if t["is_synthetic"] == true {
                    return None;
                }
                let b = bounds(&t["bounds"]);
                let mut s = if b.is_empty() {
                    name.to_string()
                } else {
                    format!("{name}: {b}")
                };
                if !t["default"].is_null() {
                    s += &format!(" = {}", ty(&t["default"]));
                }
                Some(s)
            } else {
                let c = &kind["const"];
                Some(format!("const {name}: {}", ty(&c["type"])))
            }
        })
        .collect();
    if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    }
}

pub fn wheres(g: &Value) -> String {
    let preds: Vec<String> = g["where_predicates"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            if let Some(b) = p.get("bound_predicate") {
                format!("{}: {}", ty(&b["type"]), bounds(&b["bounds"]))
            } else if let Some(l) = p.get("lifetime_predicate") {
                let o: Vec<&str> = l["outlives"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                format!(
                    "{}: {}",
                    l["lifetime"].as_str().unwrap_or("?"),
                    o.join(" + ")
                )
            } else {
                let e = &p["eq_predicate"];
                format!("{} = {}", ty(&e["lhs"]), term(&e["rhs"]))
            }
        })
        .collect();
    if preds.is_empty() {
        String::new()
    } else {
        format!(" where {}", preds.join(", "))
    }
}

pub fn bounds(b: &Value) -> String {
    let parts: Vec<String> = b
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| {
            if let Some(t) = b.get("trait_bound") {
                let m = match t["modifier"].as_str() {
                    Some("maybe") => "?",
                    Some("maybe_const") => "~const ",
                    _ => "",
                };
                format!("{m}{}", path_of(&t["trait"]))
            } else if let Some(l) = b.get("outlives") {
                l.as_str().unwrap_or("?").to_string()
            } else {
                "use<..>".to_string()
            }
        })
        .collect();
    parts.join(" + ")
}

fn term(t: &Value) -> String {
    match t.get("type") {
        Some(t) => ty(t),
        None => t["constant"]["expr"].as_str().unwrap_or("?").to_string(),
    }
}

/// A path as written in the source (`io::Result`, `Port`), with its generic arguments.
pub fn path_of(p: &Value) -> String {
    let name = p["path"].as_str().unwrap_or("?");
    format!("{name}{}", generic_args(&p["args"]))
}

pub fn generic_args(a: &Value) -> String {
    if let Some(ab) = a.get("angle_bracketed") {
        let mut parts: Vec<String> = ab["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|arg| {
                if let Some(t) = arg.get("type") {
                    ty(t)
                } else if let Some(l) = arg.get("lifetime") {
                    l.as_str().unwrap_or("?").to_string()
                } else if let Some(c) = arg.get("const") {
                    c["expr"].as_str().unwrap_or("?").to_string()
                } else {
                    "_".to_string()
                }
            })
            .collect();
        for c in ab["constraints"].as_array().into_iter().flatten() {
            let name = c["name"].as_str().unwrap_or("?");
            let b = &c["binding"];
            parts.push(match b.get("equality") {
                Some(e) => format!("{name} = {}", term(e)),
                None => format!("{name}: {}", bounds(&b["constraint"])),
            });
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("<{}>", parts.join(", "))
        }
    } else if let Some(p) = a.get("parenthesized") {
        let inputs: Vec<String> = p["inputs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(ty)
            .collect();
        let out = match &p["output"] {
            Value::Null => String::new(),
            t => format!(" -> {}", ty(t)),
        };
        format!("({}){out}", inputs.join(", "))
    } else {
        String::new()
    }
}

/// A type as a user writes it.
pub fn ty(t: &Value) -> String {
    let Some((kind, v)) = t.as_object().and_then(|o| o.iter().next()) else {
        return "_".to_string();
    };
    match kind.as_str() {
        "resolved_path" => path_of(v),
        "generic" | "primitive" => v.as_str().unwrap_or("?").to_string(),
        "borrowed_ref" => {
            let m = if v["is_mutable"] == true { "mut " } else { "" };
            format!("&{}{m}{}", lifetime(&v["lifetime"]), ty(&v["type"]))
        }
        "raw_pointer" => {
            let m = if v["is_mutable"] == true {
                "mut"
            } else {
                "const"
            };
            format!("*{m} {}", ty(&v["type"]))
        }
        "slice" => format!("[{}]", ty(v)),
        "array" => format!("[{}; {}]", ty(&v["type"]), v["len"].as_str().unwrap_or("?")),
        "tuple" => {
            let parts: Vec<String> = v.as_array().into_iter().flatten().map(ty).collect();
            format!("({})", parts.join(", "))
        }
        "impl_trait" => format!("impl {}", bounds(v)),
        "dyn_trait" => {
            let mut parts: Vec<String> = v["traits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| path_of(&p["trait"]))
                .collect();
            if let Some(l) = v["lifetime"].as_str() {
                parts.push(l.to_string());
            }
            format!("dyn {}", parts.join(" + "))
        }
        "function_pointer" => {
            let sig = &v["sig"];
            let args: Vec<String> = sig["inputs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| ty(&i[1]))
                .collect();
            let out = match &sig["output"] {
                Value::Null => String::new(),
                t => format!(" -> {}", ty(t)),
            };
            let h = &v["header"];
            let unsafety = if h["is_unsafe"] == true {
                "unsafe "
            } else {
                ""
            };
            let abi = match &h["abi"] {
                Value::String(s) if s == "Rust" => String::new(),
                Value::String(s) => format!("extern {s:?} "),
                Value::Object(o) => {
                    format!("extern {:?} ", o.keys().next().cloned().unwrap_or_default())
                }
                _ => String::new(),
            };
            format!("{unsafety}{abi}fn({}){out}", args.join(", "))
        }
        "qualified_path" => {
            let self_ty = ty(&v["self_type"]);
            let name = v["name"].as_str().unwrap_or("?");
            // A path through a type parameter's bound (`B::Mechanism`) has a trait without a
            // name.
            match v["trait"].as_object().filter(|tr| tr["path"] != "") {
                Some(tr) => format!(
                    "<{self_ty} as {}>::{name}",
                    path_of(&Value::Object(tr.clone()))
                ),
                None => format!("{self_ty}::{name}"),
            }
        }
        "infer" => "_".to_string(),
        "pat" => format!(
            "{} is {}",
            ty(&v["type"]),
            v["__pat_unstable_do_not_use"].as_str().unwrap_or("?")
        ),
        _ => format!("<{kind}>"),
    }
}
