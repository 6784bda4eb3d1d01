//! Mutation testing of the checks (`gba verify --rtl DIR --mutants N|all`): an automatic
//! mutant generator over the register block's SystemVerilog (PeakRDL-regblock's
//! `NAME_regs.sv`), each mutant one small change a broken block could have:
//!
//! - `reset`: a field's reset constant with its lowest bit flipped;
//! - `decode`: a register's address decode matching another register's address;
//! - `access decode`: a field's software write taken on reads (or its read effect on writes);
//! - `bit slice`: a field's write data taken one bit off (`decoded_wr_data[14:7]` for `[15:8]`);
//! - `byte strobe`: a field's write clears the bytes the write does not strobe, instead of
//!   keeping them;
//! - `side effect`: a software side effect (write-1-to-clear, clear on read, single pulse's
//!   clearing, ...) that keeps the field's value instead;
//! - `hardware write`: a hardware write that stores the inverse of what hardware gave;
//! - `lock gating`: a write lock's condition dropped (`swwe`, `swwel`);
//! - `read mux`: a field's readback returning another register's field of the same bits;
//! - `bit order`: an msb0 field's readback without its bit reversal (`{<<{...}}`).
//!
//! All mutants are built into one Verilator model (mutant schemata): each mutated expression
//! becomes `((gba_mutant == K) ? MUTATED : ORIGINAL)`, with `gba_mutant` read from the
//! harness's command line (`+gba_mutant=K`; 0 runs the original). One build, then one run of
//! the checks per mutant. A mutant is killed when the checks fail naming its register and
//! field (for a decode or a read mux, either register concerned).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use super::checks;
use super::gaps::Gaps;
use super::rtl::RtlBus;

#[derive(Debug, Clone)]
pub struct Mutant {
    /// 1, 2, ...: the value of `+gba_mutant` that selects it.
    pub id: usize,
    /// Its line in `NAME_regs.sv` (1-based).
    pub line: usize,
    pub kind: &'static str,
    /// The field (`regs.W1S.BITS`) or register (`regs.W1S`) it breaks, in the RTL's names.
    pub target: String,
    /// For a decode or read mux: the register it confuses the target with.
    pub other: Option<String>,
    /// `ORIGINAL` → `MUTATED`.
    pub change: (String, String),
}

impl Mutant {
    /// Whether it breaks `place` (a register or field in the RTL's names, `group_0.ARRIVAL`)
    /// or something inside it, or confuses it with its target.
    pub fn concerns(&self, place: &str) -> bool {
        let within = |name: &str| name == place || name.starts_with(&format!("{place}."));
        within(&self.target) || self.other.as_deref().is_some_and(within)
    }
}

/// The mutants of `sv` (the text of `NAME_regs.sv`), and the schemata source that holds
/// them all.
pub fn generate(sv: &str) -> (Vec<Mutant>, String) {
    let mut mutants: Vec<Mutant> = Vec::new();
    let mut out = String::with_capacity(sv.len() * 2);
    let mut field = String::new(); // the field of the block being read (`regs.W1S.BITS`)
    let mut after_reset = false; // the line follows `if(rst) begin`
    let mut decodes: Vec<(String, String)> = Vec::new(); // (register, address constant)
    let mut readback: Vec<(String, String, String)> = Vec::new(); // (slice, expr, register)
    let data_width = sv
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("logic [")
                .and_then(|r| r.strip_suffix(":0] decoded_wr_data;"))
        })
        .and_then(|n| n.parse::<u32>().ok())
        .map_or(32, |n| n + 1);
    let mut module_seen = false;
    for (index, line) in sv.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim();
        let mut text = line.to_string();
        let mut add = |kind: &'static str,
                       target: &str,
                       other: Option<String>,
                       from: &str,
                       to: String,
                       text: &mut String| {
            let Some(at) = text.find(from) else {
                return;
            };
            let id = mutants.len() + 1;
            let replaced = format!("((gba_mutant == {id}) ? ({to}) : ({from}))");
            text.replace_range(at..at + from.len(), &replaced);
            mutants.push(Mutant {
                id,
                line: number,
                kind,
                target: target.to_string(),
                other,
                change: (from.to_string(), to),
            });
        };
        if trimmed.starts_with("//--") {
            // A section's rule: the field logic (if it was) is over.
            field.clear();
        } else if let Some(rest) = trimmed.strip_prefix("// Field: ") {
            // `effects.regs.W1S.BITS`: the top's name first.
            field = rest.split_once('.').map_or(rest, |(_, f)| f).to_string();
        } else if after_reset {
            // `field_storage.P.value <= 4'h0;`
            if let Some(constant) = trimmed
                .strip_prefix(&format!("field_storage.{field}.value <= "))
                .and_then(|r| r.strip_suffix(';'))
                && let Some(flipped) = flip_low_bit(constant)
            {
                add("reset", &field.clone(), None, constant, flipped, &mut text);
            }
        } else if let Some(rest) = trimmed.strip_prefix("decoded_reg_strb.") {
            // `decoded_reg_strb.regs.W1S = cpuif_req_masked & (cpuif_addr == 7'h4);`
            // `regs.DATA[1] = ...`: the second 32-bit word of a 64-bit register.
            if let Some((strobe, expr)) = rest.split_once(" = ")
                && let register = strobe.split_once('[').map_or(strobe, |(r, _)| r)
                && let Some(addr) = expr
                    .split_once("(cpuif_addr == ")
                    .and_then(|(_, a)| a.split_once(')'))
                    .map(|(a, _)| a.to_string())
            {
                // A strobe that no field logic reads (a register with no writable field
                // and no read effect) changes nothing when it is wrong: no mutant there.
                let used = uses(sv, &format!("decoded_reg_strb.{strobe}")) > 1;
                if used && let Some((other, other_addr)) = decodes.last().cloned() {
                    add(
                        "decode",
                        register,
                        Some(other).filter(|o| o != register),
                        &format!("(cpuif_addr == {addr})"),
                        format!("cpuif_addr == {other_addr}"),
                        &mut text,
                    );
                }
                decodes.push((register.to_string(), addr));
            }
        } else if trimmed.starts_with("if(decoded_reg_strb.") && !field.is_empty() {
            let comment = trimmed.split_once("// ").map_or("", |(_, c)| c);
            if trimmed.contains(" && !decoded_req_is_wr") {
                add(
                    "access decode",
                    &field.clone(),
                    None,
                    "!decoded_req_is_wr",
                    "decoded_req_is_wr".into(),
                    &mut text,
                );
            } else if trimmed.contains(" && decoded_req_is_wr") {
                add(
                    "access decode",
                    &field.clone(),
                    None,
                    "decoded_req_is_wr",
                    "!decoded_req_is_wr".into(),
                    &mut text,
                );
            }
            // A lock's gating: a third condition (`!(field_storage.X.value)`, a signal).
            let condition = trimmed
                .strip_prefix("if(")
                .and_then(|c| c.split_once(") begin"))
                .map_or("", |(c, _)| c);
            let terms: Vec<&str> = condition.split(" && ").collect();
            if terms.len() == 3 && comment.starts_with("SW") {
                add(
                    "lock gating",
                    &field.clone(),
                    None,
                    terms[2],
                    "1'b1".into(),
                    &mut text,
                );
            }
        } else if let Some(rhs) = trimmed
            .strip_prefix("next_c = ")
            .and_then(|r| r.strip_suffix(';'))
            && !field.is_empty()
        {
            let previous = sv.lines().nth(index.wrapping_sub(1)).unwrap_or("");
            let comment = previous.split_once("// ").map_or("", |(_, c)| c.trim());
            if comment == "SW write" {
                if let Some(slice) = write_slice(rhs, data_width) {
                    add(
                        "bit slice",
                        &field.clone(),
                        None,
                        &slice.0,
                        slice.1,
                        &mut text,
                    );
                }
                // The bytes a write does not strobe are cleared instead of kept (not for a
                // single pulse: it holds 0 between writes, so clearing it changes nothing).
                // A wide register's write comes from its write buffer's strobes.
                let strobes = rhs.find("~decoded_wr_biten[").or_else(|| {
                    rhs.find("~wbuf_storage.")
                        .filter(|_| rhs.contains(".biten["))
                });
                if !single_pulse(sv, index)
                    && let Some(at) = strobes
                    && let Some(end) = rhs[at..].find(']')
                {
                    add(
                        "byte strobe",
                        &field.clone(),
                        None,
                        &rhs[at..at + end + 1],
                        "'0".into(),
                        &mut text,
                    );
                }
            } else if comment.starts_with("HW Write") {
                add(
                    "hardware write",
                    &field.clone(),
                    None,
                    rhs,
                    format!("~{rhs}"),
                    &mut text,
                );
            } else if comment.starts_with("SW") || comment.starts_with("singlepulse") {
                add(
                    "side effect",
                    &field.clone(),
                    None,
                    rhs,
                    format!("field_storage.{field}.value"),
                    &mut text,
                );
            }
        } else if let Some(source) = trimmed
            .strip_prefix("readback_data_var[")
            .and_then(|r| r.split_once("] = {<<{field_storage."))
            .and_then(|(_, e)| e.strip_suffix(".value}};"))
        {
            // An msb0 field's readback, bit-reversed by the streaming operator: read as
            // stored instead (the field's value mirrored on the bus).
            let expr = format!("{{<<{{field_storage.{source}.value}}}}");
            add(
                "bit order",
                source,
                None,
                &expr,
                format!("field_storage.{source}.value"),
                &mut text,
            );
        } else if let Some((slice, expr)) = trimmed
            .strip_prefix("readback_data_var[")
            .and_then(|r| r.split_once("] = "))
            && let Some(expr) = expr.strip_suffix(';')
            && let Some(source) = expr
                .strip_prefix("field_storage.")
                .and_then(|e| e.strip_suffix(".value"))
        {
            let register = source
                .rsplit_once('.')
                .map_or(source, |(r, _)| r)
                .to_string();
            if let Some((_, other_expr, other)) = readback
                .iter()
                .rev()
                .find(|(s, _, r)| *s == slice && *r != register)
                .cloned()
            {
                add("read mux", source, Some(other), expr, other_expr, &mut text);
            }
            readback.push((slice.to_string(), expr.to_string(), register));
        }
        after_reset = trimmed == "if(rst) begin";
        out.push_str(&text);
        out.push('\n');
        // The selector, declared first in the module and read from the command line.
        if !module_seen && trimmed == ");" {
            module_seen = true;
            out.push_str(
                "    // Mutant schemata (gba verify --mutants): +gba_mutant=K selects one.\n    \
                 int unsigned gba_mutant = 0;\n    \
                 initial begin\n        \
                 if (!$value$plusargs(\"gba_mutant=%d\", gba_mutant)) gba_mutant = 0;\n    \
                 end\n",
            );
        }
    }
    (mutants, out)
}

/// Whether the field whose logic holds line `index` of `sv` is a single pulse (regblock's
/// `// singlepulse clear back to 0` in the same field's block).
fn single_pulse(sv: &str, index: usize) -> bool {
    sv.lines()
        .skip(index + 1)
        .take_while(|l| !l.trim().starts_with("// Field: ") && !l.trim().starts_with("//--"))
        .any(|l| l.contains("// singlepulse"))
}

/// How many times `name` occurs in `text` as a whole name (not the start of a longer one).
fn uses(text: &str, name: &str) -> usize {
    text.match_indices(name)
        .filter(|(at, _)| {
            !text[at + name.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .count()
}

/// `4'h0` → `4'h1`; `'0` → `'1`; not a constant → `None`.
fn flip_low_bit(constant: &str) -> Option<String> {
    if constant == "'0" {
        return Some("'1".into());
    }
    let (width, hex) = constant.split_once("'h")?;
    let value = u128::from_str_radix(&hex.replace('_', ""), 16).ok()?;
    Some(format!("{width}'h{:x}", value ^ 1))
}

/// In a plain write's expression, the write data's slice and the same slice one bit off.
fn write_slice(rhs: &str, data_width: u32) -> Option<(String, String)> {
    let start = rhs.find("decoded_wr_data[")?;
    let rest = &rhs[start + "decoded_wr_data[".len()..];
    let (slice, _) = rest.split_once(']')?;
    let (high, low) = slice.split_once(':').unwrap_or((slice, slice));
    let (high, low): (u32, u32) = (high.parse().ok()?, low.parse().ok()?);
    let (h, l) = if low > 0 {
        (high - 1, low - 1)
    } else if high + 1 < data_width {
        (high + 1, low + 1)
    } else {
        return None;
    };
    Some((
        format!("decoded_wr_data[{slice}]"),
        format!("decoded_wr_data[{h}:{l}]"),
    ))
}

/// What `run` found for one mutant.
pub struct Outcome {
    pub mutant: Mutant,
    /// The failure that named it, or the failures that did not.
    pub killed_by: Option<String>,
    pub unnamed: Vec<String>,
}

/// The RTL's name of a register or field (`global_.CAPS`) in the spec's unrolled terms
/// (`global.CAPS`): regblock escapes SystemVerilog keywords with a trailing `_`.
fn unescape(name: &str) -> String {
    name.split('.')
        .map(|s| s.strip_suffix('_').unwrap_or(s))
        .collect::<Vec<_>>()
        .join(".")
}

/// Runs the checks against every mutant in `chosen` (ids), the schemata harness `harness`
/// started with `+gba_mutant=K`; `prepare` drives the straps of each run.
pub fn run(
    device: &gba_codegen::Device,
    mutants: &[Mutant],
    harness: &Path,
    hwif: &Path,
    prepare: &dyn Fn(&RtlBus) -> Result<(), String>,
) -> Result<Vec<Outcome>, String> {
    // RTL (unrolled) register name → the spec's path of the element.
    let paths: HashMap<String, String> = checks::elements(device)
        .iter()
        .map(|e| (e.hw.clone(), e.path.clone()))
        .collect();
    let spec_path = |rtl: &str| -> String {
        let rtl = unescape(rtl);
        if let Some(path) = paths.get(&rtl) {
            return path.clone();
        }
        match rtl.rsplit_once('.') {
            Some((register, field)) => match paths.get(register) {
                Some(path) => format!("{path}.{field}"),
                None => rtl.clone(),
            },
            None => rtl.clone(),
        }
    };
    let gaps = Gaps::rtl(device);
    let mut outcomes = Vec::new();
    for mutant in mutants {
        let mut bus = RtlBus::start_with(harness, hwif, &[format!("+gba_mutant={}", mutant.id)])?;
        prepare(&bus)?;
        let report = checks::run(device, &mut bus, &gaps)?;
        let target = spec_path(&mutant.target);
        let register = match mutant.kind {
            "decode" => target.clone(),
            _ => target
                .rsplit_once('.')
                .map_or(target.clone(), |(r, _)| r.to_string()),
        };
        let other = mutant.other.as_deref().map(&spec_path);
        let names = |place: &str| {
            let on = |p: &str| {
                place == p
                    || place.starts_with(&format!("{p}."))
                    || place.starts_with(&format!("{p} "))
            };
            on(&target)
                || (mutant.kind != "reset" && on(&register))
                || other.as_deref().is_some_and(on)
        };
        let killed_by = report
            .failures
            .iter()
            .find(|f| names(&f.place))
            .map(|f| f.to_string());
        outcomes.push(Outcome {
            mutant: mutant.clone(),
            unnamed: if killed_by.is_some() {
                Vec::new()
            } else {
                report.failures.iter().map(|f| f.to_string()).collect()
            },
            killed_by,
        });
    }
    Ok(outcomes)
}

/// `count` mutants spread over the kinds and the file: round-robin over the kinds, each
/// kind's mutants taken at even steps. Deterministic, so CI runs the same sample.
pub fn sample(mutants: &[Mutant], count: usize) -> Vec<Mutant> {
    if count >= mutants.len() {
        return mutants.to_vec();
    }
    let mut kinds: Vec<(&str, Vec<&Mutant>)> = Vec::new();
    for m in mutants {
        match kinds.iter_mut().find(|(k, _)| *k == m.kind) {
            Some((_, list)) => list.push(m),
            None => kinds.push((m.kind, vec![m])),
        }
    }
    let mut per_kind: Vec<usize> = vec![0; kinds.len()];
    let mut left = count;
    while left > 0 {
        let mut progressed = false;
        for (i, (_, list)) in kinds.iter().enumerate() {
            if left > 0 && per_kind[i] < list.len() {
                per_kind[i] += 1;
                left -= 1;
                progressed = true;
            }
        }
        if !progressed {
            break;
        }
    }
    let mut out: Vec<Mutant> = kinds
        .iter()
        .zip(&per_kind)
        .flat_map(|((_, list), &n)| (0..n).map(move |i| list[i * list.len() / n.max(1)].clone()))
        .collect();
    out.sort_by_key(|m| m.id);
    out
}

/// The score line and the survivors, for the report.
pub fn summary(outcomes: &[Outcome], total: usize, verbose: bool) -> (String, bool) {
    let killed = outcomes.iter().filter(|o| o.killed_by.is_some()).count();
    let run = outcomes.len();
    let score = if run == 0 {
        100.0
    } else {
        100.0 * killed as f64 / run as f64
    };
    let mut text = String::new();
    let mut kinds: Vec<(&str, usize, usize)> = Vec::new();
    for o in outcomes {
        match kinds.iter_mut().find(|(k, _, _)| *k == o.mutant.kind) {
            Some((_, n, k)) => {
                *n += 1;
                *k += usize::from(o.killed_by.is_some());
            }
            None => kinds.push((o.mutant.kind, 1, usize::from(o.killed_by.is_some()))),
        }
    }
    for o in outcomes {
        let m = &o.mutant;
        let head = format!(
            "mutant {} (line {}, {}, {}: `{}` -> `{}`)",
            m.id, m.line, m.kind, m.target, m.change.0, m.change.1
        );
        match &o.killed_by {
            Some(by) if verbose => {
                let _ = writeln!(text, "{head}: killed: {by}");
            }
            Some(_) => {}
            None if o.unnamed.is_empty() => {
                let _ = writeln!(text, "SURVIVED {head}: every check passed");
            }
            None => {
                let _ = writeln!(
                    text,
                    "SURVIVED {head}: failed without naming it: {}",
                    o.unnamed[0]
                );
            }
        }
    }
    let by_kind: Vec<String> = kinds
        .iter()
        .map(|(k, n, killed)| format!("{k} {killed}/{n}"))
        .collect();
    let _ = writeln!(
        text,
        "mutants: {killed} of {run} killed with the register and field named ({score:.1} %; {} \
         generated, {run} run; {})",
        total,
        by_kind.join(", ")
    );
    (text, score >= 95.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cut of regblock's output for two registers: a woclr field, a plain one behind a
    /// lock, their decodes and their readback.
    const SV: &str = "module m (
    input wire clk
);
    always_comb begin
        decoded_reg_strb.regs.A = cpuif_req_masked & (cpuif_addr == 7'h0);
        decoded_reg_strb.regs.B = cpuif_req_masked & (cpuif_addr == 7'h4);
        decoded_reg_strb.regs.C = cpuif_req_masked & (cpuif_addr == 7'h8) & !cpuif_req_is_wr;
    end
    // Field: top.regs.A.EV
    always_comb begin
        next_c = field_storage.regs.A.EV.value;
        if(decoded_reg_strb.regs.A && decoded_req_is_wr) begin // SW write 1 clear
            next_c = field_storage.regs.A.EV.value & ~(decoded_wr_data[3:0] & decoded_wr_biten[3:0]);
        end else if(hwif_in.regs.A.EV.we) begin // HW Write - we
            next_c = hwif_in.regs.A.EV.next;
        end
    end
    always_ff @(posedge clk) begin
        if(rst) begin
            field_storage.regs.A.EV.value <= 4'h2;
        end
    end
    // Field: top.regs.B.V
    always_comb begin
        if(decoded_reg_strb.regs.B && decoded_req_is_wr && !(field_storage.regs.A.EV.value)) begin // SW write
            next_c = (field_storage.regs.B.V.value & ~decoded_wr_biten[15:8]) | (decoded_wr_data[15:8] & decoded_wr_biten[15:8]);
        end
    end
    //--------------------------------------------------------------------------
    always_comb begin
        if(rd_mux_addr == 7'h0) begin
            readback_data_var[3:0] = field_storage.regs.A.EV.value;
        end
        if(rd_mux_addr == 7'h4) begin
            readback_data_var[3:0] = field_storage.regs.B.V.value;
        end
    end
endmodule
";

    #[test]
    fn every_kind_is_generated_once_where_the_text_allows() {
        let (mutants, schemata) = generate(SV);
        let got: Vec<(&str, &str, Option<&str>)> = mutants
            .iter()
            .map(|m| (m.kind, m.target.as_str(), m.other.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                // C's strobe is read by nothing: no decode mutant for it.
                ("decode", "regs.B", Some("regs.A")),
                ("access decode", "regs.A.EV", None),
                ("side effect", "regs.A.EV", None),
                ("hardware write", "regs.A.EV", None),
                ("reset", "regs.A.EV", None),
                ("access decode", "regs.B.V", None),
                ("lock gating", "regs.B.V", None),
                ("bit slice", "regs.B.V", None),
                ("byte strobe", "regs.B.V", None),
                ("read mux", "regs.B.V", Some("regs.A")),
            ]
        );
        assert_eq!(mutants[4].change, ("4'h2".into(), "4'h3".into()));
        assert_eq!(
            mutants[7].change,
            (
                "decoded_wr_data[15:8]".into(),
                "decoded_wr_data[14:7]".into()
            )
        );
        // Each mutant is selected by its number; the selector comes from the command line.
        assert!(schemata.contains("((gba_mutant == 5) ? (4'h3) : (4'h2))"));
        assert!(schemata.contains("$value$plusargs(\"gba_mutant=%d\", gba_mutant)"));
        assert!(
            schemata.contains("((gba_mutant == 7) ? (1'b1) : (!(field_storage.regs.A.EV.value)))")
        );
    }

    #[test]
    fn an_msb0_readback_loses_its_reversal() {
        let sv = "    // Field: top.regs.R.TOP
    always_comb begin
        if(rd_mux_addr == 7'h0) begin
            readback_data_var[3:0] = {<<{field_storage.regs.R.TOP.value}};
        end
    end
";
        let (mutants, schemata) = generate(sv);
        let got: Vec<(&str, &str)> = mutants
            .iter()
            .map(|m| (m.kind, m.target.as_str()))
            .collect();
        assert_eq!(got, [("bit order", "regs.R.TOP")]);
        assert!(
            schemata.contains(
                "readback_data_var[3:0] = ((gba_mutant == 1) ? (field_storage.regs.R.TOP.value) \
                 : ({<<{field_storage.regs.R.TOP.value}}));"
            ),
            "{schemata}"
        );
    }

    #[test]
    fn a_sample_spreads_over_the_kinds() {
        let (mutants, _) = generate(SV);
        let sample = sample(&mutants, 4);
        let kinds: Vec<&str> = sample.iter().map(|m| m.kind).collect();
        assert_eq!(
            kinds,
            ["decode", "access decode", "side effect", "hardware write"]
        );
        assert_eq!(self::sample(&mutants, 100).len(), mutants.len());
    }
}
