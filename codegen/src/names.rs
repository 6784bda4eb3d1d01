//! What a name in a spec may be, and how emitters spell it in each language.

/// Rust keywords (strict, reserved and edition-2024 ones) and the C11 keywords; a spec name
/// whose lower- or upper-case form is one of these cannot become an identifier everywhere.
const KEYWORDS: &[&str] = &[
    // Rust
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "try",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    // C11
    "auto",
    "char",
    "default",
    "double",
    "float",
    "goto",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "short",
    "signed",
    "sizeof",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "case",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
];

/// Names that enumerated values cannot have: `SET` and `CLEAR` are generated in every Rust
/// field module (tock-registers' `register_bitfields!`), and `VALUE` would make the C
/// constant `<REG>_<FIELD>_VALUE` collide with a reset constant `<REG>_RESET_VALUE` when the
/// field is called `RESET`. Compared in upper case.
pub const RESERVED_VALUE_NAMES: &[&str] = &["SET", "CLEAR", "VALUE"];

/// Methods every generated block and device handle has, which registers and blocks cannot
/// be called. Compared in lower case.
pub const RESERVED_ACCESSORS: &[&str] =
    &["as_ptr", "from_ptr", "from_shared_ptr", "on_bus", "scoped"];

/// True when an enumerated value cannot be called `name` ([`RESERVED_VALUE_NAMES`]).
pub fn is_reserved_value(name: &str) -> bool {
    RESERVED_VALUE_NAMES.contains(&upper(name).as_str())
}

/// True when a register or block cannot be called `name` ([`RESERVED_ACCESSORS`]).
pub fn is_reserved_accessor(name: &str) -> bool {
    RESERVED_ACCESSORS.contains(&lower(name).as_str())
}

/// [`KEYWORDS`] in lower case: a name equals a keyword ignoring case exactly when its lower
/// case is one of these.
static FOLDED_KEYWORDS: std::sync::LazyLock<std::collections::HashSet<String>> =
    std::sync::LazyLock::new(|| KEYWORDS.iter().map(|k| k.to_ascii_lowercase()).collect());

/// Why a name cannot be used, or `None` when it can.
pub fn problem(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Some("a name cannot be empty".into());
    };
    if !first.is_ascii_alphabetic() {
        return Some(format!(
            "`{name}` is not an identifier: it must start with a letter (A-Z, a-z)"
        ));
    }
    if let Some(bad) = chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
        return Some(format!(
            "`{name}` is not an identifier: `{bad}` is not a letter, digit or underscore"
        ));
    }
    // A large vendor file's import asks this of every name it reads, and almost none is a
    // keyword in any case: one lookup rules those out before the scan below.
    if !FOLDED_KEYWORDS.contains(name.to_ascii_lowercase().as_str()) {
        return None;
    }
    // The name as written, in lower case or in upper case (the forms the emitters give it),
    // in that order: one pass over the keywords, without building the forms.
    let (_, form) = KEYWORDS
        .iter()
        .filter(|k| k.eq_ignore_ascii_case(name))
        .filter_map(|k| {
            let form = if *k == name {
                0
            } else if !k.bytes().any(|b| b.is_ascii_uppercase()) {
                1
            } else if !k.bytes().any(|b| b.is_ascii_lowercase()) {
                2
            } else {
                return None;
            };
            Some((form, k))
        })
        .min_by_key(|(form, _)| *form)?;
    Some(format!(
        "`{name}` is a Rust or C keyword (as `{form}`) and cannot name generated items"
    ))
}

/// The key under which two names clash: names that differ only in case are the same name,
/// because the emitters change case (`CONTROL` → `control()`).
pub fn clash_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// `member_mask` (functions, modules, C identifiers).
pub fn lower(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// `MEMBER_MASK` (constants, register and field modules).
pub fn upper(name: &str) -> String {
    name.to_ascii_uppercase()
}

/// `MemberMask` (types).
pub fn camel(name: &str) -> String {
    name.split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            first
                .into_iter()
                .chain(chars.map(|c| c.to_ascii_lowercase()))
                .collect::<String>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_keywords() {
        assert_eq!(problem("MEMBER_MASK"), None);
        assert!(problem("1ST").unwrap().contains("start with a letter"));
        assert!(problem("A-B").unwrap().contains("`-`"));
        assert!(problem("TYPE").unwrap().contains("keyword"));
        assert!(problem("Register").unwrap().contains("keyword"));
        assert!(problem("").is_some());
    }

    #[test]
    fn every_keyword_is_refused_as_written_and_in_upper_case() {
        // The lookup that rules names out before the keyword scan must let every keyword through.
        for keyword in KEYWORDS
            .iter()
            .filter(|k| k.starts_with(|c: char| c.is_ascii_alphabetic()))
        {
            assert!(problem(keyword).is_some(), "{keyword}");
            if !keyword.bytes().any(|b| b.is_ascii_uppercase()) {
                assert!(
                    problem(&upper(keyword)).is_some(),
                    "{keyword} in upper case"
                );
            }
        }
    }

    #[test]
    fn case_forms() {
        assert_eq!(camel("member_mask"), "MemberMask");
        assert_eq!(camel("GLOBAL"), "Global");
        assert_eq!(lower("RELEASE_SEQ"), "release_seq");
    }
}
