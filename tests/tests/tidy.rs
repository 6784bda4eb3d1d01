//! House rules for the repository's own documentation, so that the map and the guides cannot
//! drift silently. The documentation is README.md, ARCHITECTURE.md, every `docs/**/*.md` and
//! every other README.md; not CHANGELOG.md (history is its job) and not
//! `tests/bench/README.md` (measurements, each with the history that dates it).
//!
//! The rules, each a function over a document's text with its own test below:
//!
//! 1. [`missing_paths`]: a path in backticks names something that exists (in the map and
//!    the design documents every path; elsewhere the paths that start in the repository).
//! 2. [`history`]: no issue numbers (`issue 13`, `#13`) and no session history (`this
//!    session`): the documents say what is; git says how it came to be.
//! 3. [`headings_twice`]: ARCHITECTURE.md describes each directory once, under one
//!    ``### `dir/` `` heading, and every workspace crate has one.
//! 4. [`spec_numbers`]: a number that `gba.yaml` defines is written with the constant's name.
//! 5. ARCHITECTURE.md stays a map: at most [`ARCHITECTURE_LIMIT`] characters.
//! 6. [`missing_md_names`]: a `*.md` named in prose or linked (outside backticks) exists.
//! 7. [`unknown_identifiers`]: an identifier named in backticks (`Team::create`, `GBA_DEVICE`,
//!    `gba_verdict`) is a word of the code, so that a renamed or deleted item cannot live on in
//!    the documentation.

mod common;

use std::path::Path;

/// Every file below `dir`, as `/`-separated paths relative to `root` (build output and git's
/// own directory left out).
fn files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir)
        .expect("readable directory")
        .flatten()
    {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            files(root, &path, out);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let parts: Vec<_> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
}

/// The repository's files and its documentation (see the module description).
fn repository() -> (std::path::PathBuf, Vec<String>, Vec<String>) {
    let root = common::root();
    let mut all = Vec::new();
    files(&root, &root, &mut all);
    all.sort();
    let docs = all
        .iter()
        .filter(|f| f.ends_with(".md"))
        .filter(|f| {
            f.as_str() == "ARCHITECTURE.md"
                || f.as_str() == "CONTRIBUTING.md"
                || f.starts_with("docs/")
                || (f.ends_with("README.md") && f.as_str() != "tests/bench/README.md")
        })
        .cloned()
        .collect();
    (root, all, docs)
}

fn read(root: &Path, doc: &str) -> String {
    std::fs::read_to_string(root.join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}"))
}

// ---------------------------------------------------------------------------------------------
// Rule 1: paths exist.

/// Backticked paths in `text` that name no file of `all` (a span is a path when it ends with
/// `/` or a known extension; placeholders, globs, commands and paths on the machine are not
/// single paths). A file matches by its path or a tail of it, a directory by a prefix or an
/// inner part, so a README may name files relative to its own directory.
///
/// `ours` decides which paths are the repository's: the map and the design documents name
/// nothing else, so there every path is; other documents also name build output and other
/// projects' files (`build/`, OpenMPI's `mpi.h`), so there a path is checked when its first
/// component is an entry of the repository root or of the document's own directory.
fn missing_paths(text: &str, all: &[String], ours: &dyn Fn(&str) -> bool) -> (usize, Vec<String>) {
    let extensions = [".rs", ".md", ".yaml", ".sh", ".h", ".svd", ".toml"];
    let mut checked = 0;
    let mut missing = Vec::new();
    for (i, span) in text.split('`').enumerate() {
        // Odd pieces are inside backticks.
        if i % 2 == 0 || span.contains(['<', '*', ' ', ':']) || span.starts_with("../") {
            continue;
        }
        if span.starts_with('/') || span.starts_with('~') || span.starts_with('$') {
            continue; // a path on the machine, not in the repository
        }
        let is_dir = span.ends_with('/') && span.len() > 1;
        let is_file = extensions.iter().any(|e| span.ends_with(e));
        if !is_dir && !is_file || !ours(span) {
            continue;
        }
        checked += 1;
        let found = if is_dir {
            all.iter()
                .any(|f| f.starts_with(span) || f.contains(&format!("/{span}")))
        } else {
            all.iter()
                .any(|f| f == span || f.ends_with(&format!("/{span}")))
        };
        if !found {
            missing.push(span.to_string());
        }
    }
    (checked, missing)
}

/// Documents whose paths are not checked, each with why.
const PATHS_NOT_CHECKED: &[(&str, &str)] = &[];

#[test]
fn rule_paths_catches_a_missing_path() {
    let all = vec!["gba-hal/src/lib.rs".to_string(), "docs/a.md".to_string()];
    let text = "See `gba-hal/src/lib.rs`, `src/lib.rs`, `gba-hal/` and `gba-hal/src/gone.rs`; \
                not `cargo test`, `/dev/shm/x.rs`, `<dir>/x.rs` or `*.rs`.";
    let (checked, missing) = missing_paths(text, &all, &|_| true);
    assert_eq!(checked, 4);
    assert_eq!(missing, ["gba-hal/src/gone.rs"]);
    // Outside the map: only paths that start in the repository.
    let elsewhere = "`gba-hal/src/gone.rs`, `build/`, `opal/mca/x.h`, `mpi.h`";
    let ours = starts_in(&all, "runtimes/openmpi/README.md");
    let (checked, missing) = missing_paths(elsewhere, &all, &ours);
    assert_eq!(
        (checked, missing),
        (1, vec!["gba-hal/src/gone.rs".to_string()])
    );
}

/// Whether a path starts at an entry of the repository root or of `doc`'s directory.
fn starts_in<'a>(all: &'a [String], doc: &'a str) -> impl Fn(&str) -> bool + 'a {
    let dir = doc.rsplit_once('/').map_or("", |(d, _)| d);
    move |path: &str| {
        let first = path.split('/').next().unwrap_or(path);
        let at_root = all.iter().any(|f| f.split('/').next() == Some(first));
        let beside = !dir.is_empty()
            && all.iter().any(|f| {
                f.strip_prefix(dir)
                    .and_then(|r| r.strip_prefix('/'))
                    .is_some_and(|r| r.split('/').next() == Some(first))
            });
        at_root || beside
    }
}

#[test]
fn every_path_in_the_documentation_exists() {
    let (root, all, docs) = repository();
    let mut problems = Vec::new();
    let mut checked = 0;
    for doc in &docs {
        if PATHS_NOT_CHECKED.iter().any(|(d, _)| d == doc) {
            continue;
        }
        let strict = doc == "ARCHITECTURE.md" || doc.starts_with("docs/design/");
        let starts = starts_in(&all, doc);
        let ours: &dyn Fn(&str) -> bool = if strict { &|_| true } else { &starts };
        let (n, missing) = missing_paths(&read(&root, doc), &all, ours);
        checked += n;
        problems.extend(
            missing
                .into_iter()
                .map(|p| format!("{doc} names `{p}`, which does not exist")),
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        checked > 100,
        "only {checked} paths found: the test no longer reads the documentation"
    );
}

// ---------------------------------------------------------------------------------------------
// Rule 2: no issue numbers, no session history.

/// Words that tell the story of a change rather than what is.
const HISTORY_WORDS: &[&str] = &[
    "this session",
    "last session",
    "previous session",
    "earlier session",
];

/// Issue numbers and session history in `text`, as `line: excerpt`. An issue number is
/// `issue N` / `issues N` (any case), or `#N` at the start of a word (after a space, `(`, `[`
/// or a line start). Another project's item is written `owner/repo#N` or `PR #N`, which stay
/// allowed; so does a `#` inside a word, such as the port in `sim:DIR#0`.
fn history(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let bytes = lower.as_bytes();
        let mut hit = |what: &str| found.push(format!("line {}: {what}: {}", n + 1, line.trim()));
        for word in HISTORY_WORDS {
            if lower.contains(word) {
                hit(word);
            }
        }
        for (at, _) in lower.match_indices("issue") {
            let word_start = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
            let rest = lower[at + "issue".len()..].trim_start_matches('s');
            let number = rest.strip_prefix(' ').unwrap_or("");
            if word_start && number.starts_with(|c: char| c.is_ascii_digit()) {
                hit("an issue number");
            }
        }
        for (at, _) in lower.match_indices('#') {
            let word_start = at == 0 || matches!(bytes[at - 1], b' ' | b'(' | b'[');
            let digit = bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
            let pull_request = lower[..at].ends_with("pr ");
            if word_start && digit && !pull_request {
                hit("an issue number");
            }
        }
    }
    found
}

#[test]
fn rule_history_catches_issue_numbers_and_sessions() {
    let text = "Teams (issue 13) fix it.\nSee #13 and (#14).\nBuilt this session.\n\
                Fine: `sim:DIR#0`, openucx/ucc PR #915, openucx/ucc#915, tissue 3, issues.";
    let found = history(text);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(found[0].starts_with("line 1: an issue number"));
    assert!(found[1].starts_with("line 2: an issue number"));
    assert!(found[2].starts_with("line 2: an issue number"));
    assert!(found[3].starts_with("line 3: this session"));
}

#[test]
fn no_issue_numbers_or_session_history_in_the_documentation() {
    let (root, _, docs) = repository();
    let problems: Vec<String> = docs
        .iter()
        .flat_map(|doc| {
            history(&read(&root, doc))
                .into_iter()
                .map(move |p| format!("{doc}, {p}"))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "history belongs in git and CHANGELOG.md, not in the documentation:\n{}",
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Rule 3: ARCHITECTURE.md describes each directory once.

/// The directories ARCHITECTURE.md gives a ``### `dir/` `` heading, in order.
fn headings(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("### `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(dir, _)| dir.to_string())
        .collect()
}

/// Directories with more than one heading.
fn headings_twice(text: &str) -> Vec<String> {
    let all = headings(text);
    let mut twice: Vec<String> = all
        .iter()
        .filter(|d| all.iter().filter(|e| e == d).count() > 1)
        .cloned()
        .collect();
    twice.dedup();
    twice
}

#[test]
fn rule_headings_catches_a_crate_described_twice() {
    let text = "### `gba-hal/`\n\ntext\n\n### `gba-sim/`\n\n### `gba-hal/` again\n";
    assert_eq!(headings(text), ["gba-hal/", "gba-sim/", "gba-hal/"]);
    assert_eq!(headings_twice(text), ["gba-hal/"]);
    assert!(headings_twice("### `gba-hal/`\n### `gba-sim/`\n").is_empty());
}

#[test]
fn architecture_md_describes_each_crate_once() {
    let root = common::root();
    let text = read(&root, "ARCHITECTURE.md");
    let twice = headings_twice(&text);
    assert!(
        twice.is_empty(),
        "ARCHITECTURE.md describes {twice:?} more than once: one entry each"
    );
    // Every workspace crate outside the fixtures has its entry.
    let manifest = read(&root, "Cargo.toml");
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("Cargo.toml lists workspace members")
        .0;
    let described = headings(&text);
    for member in members.split(',').map(|m| m.trim().trim_matches('"')) {
        if member.is_empty() || member.starts_with("tests/fixtures/") {
            continue;
        }
        assert!(
            described.contains(&format!("{member}/")),
            "ARCHITECTURE.md has no ### `{member}/` entry for the workspace crate {member}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Rule 4: numbers gba.yaml defines carry the constant's name.

/// Documents the rule does not apply to, each with why.
const SPEC_NUMBERS_ALLOWED: &[(&str, &str)] = &[
    (
        "docs/datasheet.md",
        "the hardware's own description, which gba.yaml transcribes",
    ),
    ("docs/registers.md", "generated from gba.yaml"),
];

/// `text` with code (fenced blocks and backticked spans) blanked out, line by line: code is
/// what a reader types or a test compiles, not prose that restates the spec.
fn prose(text: &str) -> Vec<String> {
    let mut fenced = false;
    // A code span may run over a line break (Markdown's), not over a blank line.
    let mut in_span = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                in_span = false;
                return String::new();
            }
            if fenced {
                return String::new();
            }
            if line.trim().is_empty() {
                in_span = false;
            }
            line.chars()
                .map(|c| {
                    if c == '`' {
                        in_span = !in_span;
                        ' '
                    } else if in_span {
                        ' '
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn prose_blanks_code_spans_even_over_a_line_break() {
    let text = "a `b` c `d\ne` f\n\n`g\n\nh\n```\ni\n```\nj";
    assert_eq!(
        prose(text),
        ["a     c   ", "   f", "", "  ", "", "h", "", "", "", "j"]
    );
}

/// Mentions of a spec constant's value in `text` without its name. `constants` are (name,
/// value) pairs, as gba.yaml's `constants:` list them. The rule, precisely:
///
/// - A number is a whole run of digits (with `,` `.` `_` between digits, as in `1,375`), not
///   touching a letter, digit or `_` on either side (`u32`, `0x708` and `2^32`'s `32` after
///   `^` are other things: `^` is allowed only because a power is not a count).
/// - It mentions constant C when it equals C's value and either has three or more digits (a
///   value that distinctive is the constant wherever it appears: `708 hosts` are its ports),
///   or is followed by C's noun: its name without `MAX_`, in lower case, singular or plural
///   (`32 groups`).
/// - A mention is allowed on a line that names C, in code or not (`MAX_GROUPS` (32)), and
///   inside code (a command, an example: what a reader types or a test compiles).
fn spec_numbers(text: &str, constants: &[(String, u64)]) -> Vec<String> {
    let mut found = Vec::new();
    for (n, (line, original)) in prose(text).iter().zip(text.lines()).enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if !chars[i].is_ascii_digit() {
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || (matches!(chars[i], ',' | '.' | '_')
                        && chars.get(i + 1).is_some_and(char::is_ascii_digit)
                        && chars[i - 1].is_ascii_digit()))
            {
                i += 1;
            }
            let touches = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
            let before = start.checked_sub(1).and_then(|b| chars.get(b));
            if touches(before) || before == Some(&'^') || touches(chars.get(i)) {
                continue;
            }
            let number: String = chars[start..i].iter().collect();
            let next_word: String = chars[i..]
                .iter()
                .skip_while(|c| c.is_whitespace())
                .take_while(|c| c.is_alphabetic())
                .collect::<String>()
                .to_lowercase();
            for (name, value) in constants {
                let noun = name
                    .strip_prefix("MAX_")
                    .unwrap_or(name)
                    .to_lowercase()
                    .trim_end_matches('s')
                    .to_string();
                let counts = number.len() >= 3
                    || next_word == noun
                    || next_word.strip_suffix('s') == Some(noun.as_str());
                if number == value.to_string() && counts && !original.contains(name.as_str()) {
                    found.push(format!(
                        "line {}: {number} is {name} (write `{name}` beside it): {}",
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn rule_spec_numbers_catches_a_value_without_its_name() {
    let constants = [
        ("MAX_GROUPS".to_string(), 32),
        ("MAX_MEMBERS".to_string(), 708),
    ];
    let text = "up to 708 members in each of 32 groups\n\
                at 708 hosts\n\
                MAX_MEMBERS (708) members, `MAX_GROUPS` (32) groups\n\
                a 32-bit word, u32, 2^32 episodes, 32 bytes, 0x708, 1,708 and 7,080\n\
                `gba scale --hosts 2,708`\n\
                ```\nexpect(\"32 groups\")\n```\n";
    let found = spec_numbers(text, &constants);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].starts_with("line 1: 708 is MAX_MEMBERS"));
    assert!(found[1].starts_with("line 1: 32 is MAX_GROUPS"));
    assert!(found[2].starts_with("line 2: 708 is MAX_MEMBERS"));
}

#[test]
fn numbers_gba_yaml_defines_are_written_with_their_name() {
    let spec = common::gba_spec();
    let constants: Vec<(String, u64)> = spec
        .device()
        .constants
        .iter()
        .map(|c| (c.name.value.clone(), c.value.value))
        .collect();
    assert!(!constants.is_empty(), "gba.yaml defines no constants");
    let (root, _, docs) = repository();
    let problems: Vec<String> = docs
        .iter()
        .filter(|doc| !SPEC_NUMBERS_ALLOWED.iter().any(|(d, _)| d == doc))
        .flat_map(|doc| {
            spec_numbers(&read(&root, doc), &constants)
                .into_iter()
                .map(move |p| format!("{doc}, {p}"))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "a number gba.yaml defines, written without its name, drifts when the spec changes:\n{}",
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Rule 5: ARCHITECTURE.md stays a map.

/// The most characters ARCHITECTURE.md may have: read in a quarter of an hour. Topic content
/// goes to its document under `docs/design/`, measurements to `tests/bench/README.md`.
const ARCHITECTURE_LIMIT: usize = 25_000;

#[test]
fn architecture_md_stays_a_map() {
    let text = read(&common::root(), "ARCHITECTURE.md");
    let length = text.chars().count();
    assert!(
        length <= ARCHITECTURE_LIMIT,
        "ARCHITECTURE.md has {length} characters, more than {ARCHITECTURE_LIMIT}: move topic \
         content to its document in docs/design/ and leave a pointer"
    );
}

// ---------------------------------------------------------------------------------------------
// Rule 6: Markdown files named outside backticks exist.

/// `path` with `.` and `..` components resolved (`None` when it climbs out of the root).
fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Names of `*.md` files in `doc`'s prose (code blanked out; rule 1 checks backticked ones)
/// that name no file of `all`. A link target (`../driver.md`, `design/trust.md#anchor`) is
/// resolved from the document's directory; a bare name (`teams.md`, `tests/bench/README.md`)
/// matches a file by its path or a tail of it. Web addresses are not the repository's.
fn missing_md_names(text: &str, all: &[String], doc: &str) -> Vec<String> {
    let dir = doc.rsplit_once('/').map_or("", |(d, _)| d);
    let mut missing = Vec::new();
    for line in prose(text) {
        let is_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-');
        for token in line.split(|c: char| !is_name(c)) {
            let token = token.trim_end_matches('.');
            if !token.ends_with(".md")
                || token.starts_with('/')
                || line.contains(&format!("://{token}"))
            {
                continue;
            }
            if token.len() <= 3 {
                continue;
            }
            let linked = line.contains(&format!("]({token}"));
            let found = if linked || token.starts_with("../") || token.starts_with("./") {
                normalise(&format!("{dir}/{token}")).is_some_and(|p| all.contains(&p))
            } else {
                all.iter()
                    .any(|f| f == token || f.ends_with(&format!("/{token}")))
            };
            if !found {
                missing.push(token.to_string());
            }
        }
    }
    missing
}

#[test]
fn rule_md_names_catches_a_missing_document() {
    let all = vec![
        "ARCHITECTURE.md".to_string(),
        "docs/driver.md".to_string(),
        "docs/design/teams.md".to_string(),
    ];
    let text = "See teams.md, [driver](../driver.md), [map](../../ARCHITECTURE.md#code-map) and \
                https://example.org/x/README.md; not gone.md or [old](../trust-old.md), and \
                `skipped.md` is rule 1's.";
    let missing = missing_md_names(text, &all, "docs/design/teams.md");
    assert_eq!(missing, ["gone.md", "../trust-old.md"]);
}

#[test]
fn every_md_named_outside_backticks_exists() {
    let (root, all, docs) = repository();
    let problems: Vec<String> = docs
        .iter()
        .flat_map(|doc| {
            missing_md_names(&read(&root, doc), &all, doc)
                .into_iter()
                .map(move |m| format!("{doc} names {m}, which does not exist"))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Rule 7: identifiers in backticks are the code's.

/// Names the documentation uses that no file of our code spells out, each with whose it is.
const NOT_IN_THE_CODE: &[(&str, &str)] = &[
    (
        "Gpio",
        "the PAC generated from ST's STM32F40x.svd (spec-format.md's example)",
    ),
    (
        "gpioa",
        "the PAC generated from ST's STM32F40x.svd (spec-format.md's example)",
    ),
    (
        "gpiob",
        "the PAC generated from ST's STM32F40x.svd (spec-format.md's example)",
    ),
    (
        "TIMx",
        "a block type's name made from ST's TIM1, TIM2 … (spec-format.md's example)",
    ),
    ("TaskProlog", "Slurm's"),
    (
        "gba_allocate_group",
        "the datasheet's example of a local choice, which no code makes",
    ),
    ("RegisterIO", "peakrdl-rust's"),
    ("RegisterInterface", "device-driver's"),
    ("ucc_team_create_post", "UCC's"),
    ("_test", "UCC's (`ucc_team_create_test`)"),
    ("req_test", "UCC's"),
    ("coll_info", "UCC's"),
    ("n_oob_eps", "UCC's"),
    ("oob_ep", "UCC's"),
    ("oshmem_group_all", "OpenSHMEM's"),
    (
        "coll_gba_barrier_priority",
        "OpenMPI's name of the component's `priority` parameter",
    ),
    (
        "scoll_gba_priority",
        "OpenMPI's name of the component's `priority` parameter",
    ),
    (
        "strap_global_PORT_ID_PORT",
        "an input `gba rtl` names strap_<BLOCK>_<REGISTER>_<FIELD>",
    ),
    ("NAME_ALT", "an example of the spec's naming rules"),
    ("NAME_ALT2", "an example of the spec's naming rules"),
    ("a__b", "an example of a name the spec refuses"),
    ("x_", "an example of a name the spec refuses"),
    ("INT8_MAX", "C's <stdint.h>"),
    (
        "FILE_REG",
        "an example of a register file's register as the importers flatten it",
    ),
];

/// Whether a backticked span reads as an identifier or a path of them (`Team::create`,
/// `gba_team_create()`, `GBA_DEVICE`, `AnyDevice`): plain words (`sim`, `index`) and
/// anything with spaces, punctuation or a file extension are not checked.
fn identifier_segments(span: &str) -> Option<Vec<&str>> {
    let span = span.trim_end_matches("()").trim_end_matches('!');
    let segments: Vec<&str> = span.split("::").collect();
    let word = |w: &str| {
        w.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if segments.iter().any(|s| !word(s)) {
        return None;
    }
    let camel = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_uppercase())
            && w.chars().any(|c| c.is_ascii_lowercase())
            && w.chars().filter(char::is_ascii_uppercase).count() >= 2
    };
    let distinctive = segments.len() > 1 || span.contains('_') || camel(span);
    distinctive.then_some(segments)
}

/// Identifiers in backticks in `text` none of whose words is in `words` (the code's): each
/// `::` segment must be a word of the code.
fn unknown_identifiers(text: &str, words: &std::collections::HashSet<String>) -> Vec<String> {
    let mut unknown = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, span) in line.split('`').enumerate() {
            if i % 2 == 0 {
                continue;
            }
            let Some(segments) = identifier_segments(span) else {
                continue;
            };
            // A C constant may be named without its prefix (`OTHER_TEAM` for
            // `GBA_REASON_OTHER_TEAM`): an upper-case name that ends a word of the code.
            let screaming = |s: &str| !s.chars().any(|c| c.is_ascii_lowercase());
            let known = |s: &&str| {
                words.contains(*s)
                    || NOT_IN_THE_CODE.iter().any(|(name, _)| name == s)
                    || (screaming(s) && words.iter().any(|w| w.ends_with(&format!("_{s}"))))
            };
            if !segments.iter().all(known) && !unknown.contains(&span.to_string()) {
                unknown.push(span.to_string());
            }
        }
    }
    unknown
}

/// Every word (a run of letters, digits and `_`) of the repository's code and scripts.
fn code_words(root: &Path, all: &[String]) -> std::collections::HashSet<String> {
    let code = [
        ".rs", ".c", ".h", ".sh", ".py", ".yaml", ".toml", ".rdl", ".conf", ".rules", ".cpp",
        "Makefile", "Kbuild",
    ];
    let mut words = std::collections::HashSet::new();
    for file in all.iter().filter(|f| code.iter().any(|e| f.ends_with(e))) {
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue;
        };
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !word.is_empty() && !words.contains(word) {
                words.insert(word.to_string());
            }
        }
    }
    words
}

#[test]
fn rule_identifiers_catches_a_name_the_code_lost() {
    let words = [
        "Team",
        "create",
        "GBA_DEVICE",
        "gba_verdict",
        "GBA_REASON_OTHER_TEAM",
    ]
    .map(String::from)
    .into_iter()
    .collect();
    let text = "Use `Team::create`, `GBA_DEVICE`, `OTHER_TEAM` and `gba_verdict`, not `gba_verdict_t`, \
                `Team::open` or `HostWord`; `sim`, `cargo test` and `a.rs` are no names.\n\
                ```\nGone::name\n```\n";
    assert_eq!(
        unknown_identifiers(text, &words),
        ["gba_verdict_t", "Team::open", "HostWord"]
    );
}

#[test]
fn every_identifier_in_backticks_is_the_codes() {
    let (root, all, docs) = repository();
    let words = code_words(&root, &all);
    assert!(
        words.contains("AnyDevice"),
        "the code's words were not read"
    );
    let problems: Vec<String> = docs
        .iter()
        .flat_map(|doc| {
            unknown_identifiers(&read(&root, doc), &words)
                .into_iter()
                .map(move |name| format!("{doc} names `{name}`, which the code does not"))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "rename or remove them (a name of another project goes in NOT_IN_THE_CODE, with \
         whose it is):\n{}",
        problems.join("\n")
    );
}
