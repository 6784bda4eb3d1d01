//! IP-XACT's expressions: IEEE 1685-2014 writes numbers (addresses, sizes, widths, counts,
//! reset values) as SystemVerilog constant expressions over the component's parameters
//! (`'h10`, `32'hFF`, `BASE + 4 * N`, `$clog2(DEPTH)`); 1685-2009 wrote plain numbers, with the
//! `0x`, `#` and K/M/G/T forms of its `scaledNonNegativeInteger`.
//!
//! [`eval`] computes such an expression exactly, or says by name why it cannot: an unknown
//! parameter, an operator whose value depends on SystemVerilog's expression widths (`~`, the
//! reductions), `x`/`z` digits, a string or real, a value past 64 bits. It never guesses: the
//! importer refuses the file with the expression's text and line rather than read it as 0.
//!
//! Hand-written rather than a crate: the one SystemVerilog front end on crates.io
//! (`sv-parser`) parses whole source files, its expression tree is a few hundred types, and it
//! does not evaluate; what IP-XACT needs is the integer subset of the constant-expression
//! grammar below, which fits in one small file that its tests cover operator by operator.
//!
//! Arithmetic is exact (on `i128`), and a value that leaves the 64-bit range at any step is
//! refused rather than wrapped: IP-XACT's numbers are `longint`s, and where SystemVerilog's
//! sized arithmetic would wrap, the author of the file did not mean the wrapped value.

use std::collections::HashMap;

/// The parameters an expression may name: by `parameterId` (1685-2014's references) or by
/// name, each to its expression (evaluated when used, so that parameters may use others).
#[derive(Clone, Debug, Default)]
pub(crate) struct Parameters {
    /// Each parameter's expression text.
    values: Vec<String>,
    /// id or name → the parameter; `None` when two parameters share the name.
    by_key: HashMap<String, Option<usize>>,
}

impl Parameters {
    /// Adds a parameter: its `parameterId` (if any) and name both refer to `value`. A name
    /// that two parameters share with different values becomes ambiguous.
    pub fn add(&mut self, id: Option<&str>, name: &str, value: &str) {
        let index = self.values.len();
        self.values.push(value.to_string());
        if let Some(id) = id.filter(|id| !id.is_empty()) {
            self.by_key.insert(id.to_string(), Some(index));
        }
        if !name.is_empty() {
            match self.by_key.get(name) {
                Some(Some(old)) if self.values[*old].trim() != value.trim() => {
                    self.by_key.insert(name.to_string(), None);
                }
                Some(_) => {}
                None => {
                    self.by_key.insert(name.to_string(), Some(index));
                }
            }
        }
    }

    /// Replaces the value of the parameter with this id or name (an override): every
    /// reference to it, by id or by name, sees the new value.
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        match self.by_key.get(key) {
            Some(Some(index)) => {
                self.values[*index] = value.to_string();
                true
            }
            _ => false,
        }
    }

    fn get(&self, key: &str) -> Option<Option<&str>> {
        self.by_key
            .get(key)
            .map(|slot| slot.map(|index| self.values[index].as_str()))
    }
}

/// The value of `text`, or why it has none (a sentence naming what could not be evaluated).
pub(crate) fn eval(text: &str, parameters: &Parameters) -> Result<u64, String> {
    let value = eval_signed(text, parameters, &mut Vec::new())?;
    u64::try_from(value).map_err(|_| format!("the value is negative ({value})"))
}

fn eval_signed(
    text: &str,
    parameters: &Parameters,
    using: &mut Vec<String>,
) -> Result<i128, String> {
    if let Some(value) = legacy(text) {
        return Ok(i128::from(value));
    }
    let tokens = lex(text)?;
    if tokens.is_empty() {
        return Err("the expression is empty".into());
    }
    let mut parser = Parser {
        tokens,
        at: 0,
        parameters,
        using,
    };
    let value = parser.ternary()?;
    if let Some(token) = parser.tokens.get(parser.at) {
        return Err(format!("unexpected `{}`", token.text()));
    }
    Ok(value)
}

/// 1685-2009's number forms that are not SystemVerilog: `0x1F`, `#1F`, and a K/M/G/T
/// multiplier on a decimal or hexadecimal number (`4K`, `0x1M`).
fn legacy(text: &str) -> Option<u64> {
    let text = text.trim().replace('_', "");
    let (digits, shift) = match text.chars().last()? {
        c @ ('K' | 'k' | 'M' | 'm' | 'G' | 'g' | 'T' | 't') if !text.starts_with('#') => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                _ => 40,
            };
            (&text[..text.len() - 1], shift)
        }
        _ => (text.as_str(), 0),
    };
    let value = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
        .or_else(|| digits.strip_prefix('#'))
    {
        u64::from_str_radix(hex, 16).ok()?
    } else if shift > 0 && digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() {
        digits.parse().ok()?
    } else {
        return None;
    };
    value.checked_mul(1u64 << shift)
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(i128),
    Ident(String),
    System(String),
    Op(&'static str),
}

impl Token {
    fn text(&self) -> String {
        match self {
            Token::Number(n) => n.to_string(),
            Token::Ident(s) | Token::System(s) => s.clone(),
            Token::Op(op) => (*op).to_string(),
        }
    }
}

/// Operators, longest first so that `<<<` is not read as `<<` `<`.
const OPERATORS: &[&str] = &[
    "<<<", ">>>", "===", "!==", "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "~&", "~|",
    "~^", "^~", "+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "~", "!", "?", ":", "(", ")",
    ",",
];

fn lex(text: &str) -> Result<Vec<Token>, String> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == b'\'' {
            let (token, next) = number(text, i)?;
            tokens.push(token);
            i = next;
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || b"_$".contains(&bytes[i]))
            {
                i += 1;
            }
            let word = &text[start..i];
            tokens.push(if c == b'$' {
                Token::System(word.to_string())
            } else {
                Token::Ident(word.to_string())
            });
        } else if c == b'"' {
            return Err("a string is not a number".into());
        } else if let Some(op) = OPERATORS.iter().find(|op| text[i..].starts_with(**op)) {
            tokens.push(Token::Op(op));
            i += op.len();
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(format!("unexpected character `{ch}`"));
        }
    }
    Ok(tokens)
}

/// A literal at `start`: decimal (`42`, `1_000`), or based with an optional size
/// (`'h1F`, `8'b1010_0101`, `32'sd7`). Returns the token and where the text goes on.
fn number(text: &str, start: usize) -> Result<(Token, usize), String> {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
        i += 1;
    }
    let decimal = text[start..i].replace('_', "");
    // A based literal may have white space between size, base and digits.
    let mut j = i;
    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
        j += 1;
    }
    if j >= bytes.len() || bytes[j] != b'\'' {
        if i < bytes.len() && (bytes[i] == b'.' || bytes[i] == b'e' || bytes[i] == b'E') {
            return Err(format!(
                "`{}` is a real number, not an integer",
                &text[start..]
            ));
        }
        let value = decimal
            .parse::<i128>()
            .ok()
            .filter(|v| *v <= i128::from(u64::MAX))
            .ok_or_else(|| format!("`{decimal}` does not fit in 64 bits"))?;
        return Ok((Token::Number(value), i));
    }
    let size = if decimal.is_empty() {
        None
    } else {
        match decimal.parse::<u32>() {
            Ok(0) | Err(_) => return Err(format!("`{decimal}` is not a literal's size")),
            Ok(size) => Some(size),
        }
    };
    j += 1;
    if j < bytes.len() && (bytes[j] == b's' || bytes[j] == b'S') {
        j += 1;
    }
    let Some(&base) = bytes.get(j) else {
        return Err("a based literal without its base".into());
    };
    let radix = match base.to_ascii_lowercase() {
        b'h' => 16,
        b'd' => 10,
        b'o' => 8,
        b'b' => 2,
        _ => {
            return Err(format!(
                "`'{}` is not a base (`'h`, `'d`, `'o`, `'b`)",
                base as char
            ));
        }
    };
    j += 1;
    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
        j += 1;
    }
    let digits_start = j;
    while j < bytes.len()
        && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b'?')
    {
        j += 1;
    }
    let digits = text[digits_start..j].replace('_', "");
    let literal = &text[start..j];
    if digits.is_empty() {
        return Err(format!("`{literal}` has no digits"));
    }
    if digits.chars().any(|c| "xXzZ?".contains(c)) {
        return Err(format!(
            "`{literal}` has x or z digits, which have no numeric value"
        ));
    }
    let value = u128::from_str_radix(&digits, radix)
        .ok()
        .filter(|v| *v <= u128::from(u64::MAX))
        .ok_or_else(|| format!("`{literal}` is not a number of 64 bits or fewer"))?;
    // A sized literal keeps its low `size` bits, as SystemVerilog truncates it.
    let value = match size {
        Some(size) if size < 64 => value & ((1u128 << size) - 1),
        _ => value,
    };
    Ok((Token::Number(value as i128), j))
}

struct Parser<'p> {
    tokens: Vec<Token>,
    at: usize,
    parameters: &'p Parameters,
    /// The parameters being evaluated, outermost first (a cycle is refused).
    using: &'p mut Vec<String>,
}

/// Binary operators by precedence, loosest first (IEEE 1800-2017 table 11-2).
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^", "~^", "^~"],
    &["&"],
    &["==", "!=", "===", "!=="],
    &["<", "<=", ">", ">="],
    &["<<", ">>", "<<<", ">>>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn peek_op(&self) -> Option<&'static str> {
        match self.tokens.get(self.at) {
            Some(Token::Op(op)) => Some(op),
            _ => None,
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.peek_op() == Some(op) {
            self.at += 1;
            Ok(())
        } else {
            Err(match self.tokens.get(self.at) {
                Some(t) => format!("expected `{op}`, found `{}`", t.text()),
                None => format!("expected `{op}` at the end"),
            })
        }
    }

    fn ternary(&mut self) -> Result<i128, String> {
        let condition = self.binary(0)?;
        if self.peek_op() != Some("?") {
            return Ok(condition);
        }
        self.at += 1;
        let yes = self.ternary()?;
        self.expect(":")?;
        let no = self.ternary()?;
        Ok(if condition != 0 { yes } else { no })
    }

    fn binary(&mut self, level: usize) -> Result<i128, String> {
        if level == LEVELS.len() {
            return self.power();
        }
        let mut left = self.binary(level + 1)?;
        while let Some(op) = self.peek_op().filter(|op| LEVELS[level].contains(op)) {
            self.at += 1;
            let right = self.binary(level + 1)?;
            left = apply(op, left, right)?;
        }
        Ok(left)
    }

    /// `**` binds tighter than `*` and, in SystemVerilog, left to right.
    fn power(&mut self) -> Result<i128, String> {
        let mut left = self.unary()?;
        while self.peek_op() == Some("**") {
            self.at += 1;
            let right = self.unary()?;
            left = apply("**", left, right)?;
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<i128, String> {
        match self.peek_op() {
            Some("+") => {
                self.at += 1;
                self.unary()
            }
            Some("-") => {
                self.at += 1;
                Ok(-self.unary()?)
            }
            Some("!") => {
                self.at += 1;
                Ok(i128::from(self.unary()? == 0))
            }
            Some(op @ ("~" | "&" | "|" | "^" | "~&" | "~|" | "~^" | "^~")) => Err(format!(
                "`{op}` depends on SystemVerilog's expression widths, which the importer does \
                 not model"
            )),
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<i128, String> {
        let Some(token) = self.tokens.get(self.at).cloned() else {
            return Err("the expression ends too early".into());
        };
        self.at += 1;
        match token {
            Token::Number(n) => Ok(n),
            Token::Op("(") => {
                let value = self.ternary()?;
                self.expect(")")?;
                Ok(value)
            }
            Token::Ident(name) => self.parameter(&name),
            Token::System(name) => {
                if name != "$clog2" {
                    return Err(format!("the system function `{name}` is not evaluated"));
                }
                self.expect("(")?;
                let argument = self.ternary()?;
                self.expect(")")?;
                match name.as_str() {
                    "$clog2" => Ok(clog2(argument)),
                    _ => Err(format!("the system function `{name}` is not evaluated")),
                }
            }
            Token::Op(op) => Err(format!("unexpected `{op}`")),
        }
    }

    fn parameter(&mut self, name: &str) -> Result<i128, String> {
        match name {
            "true" => return Ok(1),
            "false" => return Ok(0),
            _ => {}
        }
        let Some(slot) = self.parameters.get(name) else {
            return Err(format!("`{name}` is no parameter of the component"));
        };
        let Some(text) = slot else {
            return Err(format!(
                "`{name}` names two parameters with different values"
            ));
        };
        if self.using.iter().any(|u| u == name) {
            return Err(format!(
                "parameter `{name}` depends on itself ({} → {name})",
                self.using.join(" → ")
            ));
        }
        let text = text.to_string();
        self.using.push(name.to_string());
        let value = eval_signed(&text, self.parameters, self.using)
            .map_err(|why| format!("parameter `{name}` = `{}`: {why}", text.trim()));
        self.using.pop();
        value
    }
}

fn clog2(value: i128) -> i128 {
    if value <= 1 {
        0
    } else {
        i128::from(128 - (value - 1).leading_zeros())
    }
}

/// `left op right`, exactly; a result outside the 64-bit range (signed or unsigned) is
/// refused.
fn apply(op: &str, left: i128, right: i128) -> Result<i128, String> {
    let overflow = || format!("`{left} {op} {right}` does not fit in 64 bits");
    let shift = |amount: i128| -> Result<u32, String> {
        u32::try_from(amount)
            .ok()
            .filter(|a| *a < 64)
            .ok_or_else(|| format!("a shift by {amount}"))
    };
    let value = match op {
        "||" => i128::from(left != 0 || right != 0),
        "&&" => i128::from(left != 0 && right != 0),
        "==" | "===" => i128::from(left == right),
        "!=" | "!==" => i128::from(left != right),
        "<" => i128::from(left < right),
        "<=" => i128::from(left <= right),
        ">" => i128::from(left > right),
        ">=" => i128::from(left >= right),
        "+" => left.checked_add(right).ok_or_else(overflow)?,
        "-" => left.checked_sub(right).ok_or_else(overflow)?,
        "*" => left.checked_mul(right).ok_or_else(overflow)?,
        "/" | "%" if right == 0 => {
            return Err(format!("`{left} {op} 0` divides by zero"));
        }
        "/" => left / right,
        "%" => left % right,
        "**" => {
            let exponent = u32::try_from(right).map_err(|_| overflow())?;
            left.checked_pow(exponent).ok_or_else(overflow)?
        }
        "<<" | "<<<" => left
            .checked_mul(1i128 << shift(right)?)
            .ok_or_else(overflow)?,
        ">>" | ">>>" if left < 0 => {
            return Err(format!(
                "`{op}` of a negative value depends on its SystemVerilog width"
            ));
        }
        ">>" | ">>>" => left >> shift(right)?,
        "&" | "|" | "^" | "~^" | "^~" if left < 0 || right < 0 => {
            return Err(format!(
                "`{op}` of a negative value depends on its SystemVerilog width"
            ));
        }
        "&" => left & right,
        "|" => left | right,
        "^" => left ^ right,
        _ => {
            return Err(format!(
                "`{op}` depends on SystemVerilog's expression widths, which the importer does \
                 not model"
            ));
        }
    };
    if value < i128::from(i64::MIN) || value > i128::from(u64::MAX) {
        return Err(overflow());
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(list: &[(&str, &str, &str)]) -> Parameters {
        let mut p = Parameters::default();
        for (id, name, value) in list {
            p.add(Some(id), name, value);
        }
        p
    }

    fn value(text: &str) -> Result<u64, String> {
        eval(text, &Parameters::default())
    }

    #[test]
    fn literals_in_every_form_the_standards_write() {
        for (text, want) in [
            ("16", 16),
            ("1_000", 1000),
            ("'h10", 16),
            ("'H1f", 31),
            ("32'hFF", 255),
            ("32'h0000_0010", 16),
            ("8'b1010_0101", 0xa5),
            ("'o17", 15),
            ("'d42", 42),
            ("16'sd7", 7),
            ("4'hFF", 0xf),
            ("32 'h 10", 16),
            ("0x1F", 31),
            ("#1F", 31),
            ("4K", 4096),
            ("0x1M", 1 << 20),
            ("64'hFFFF_FFFF_FFFF_FFFF", u64::MAX),
            ("true", 1),
            ("false", 0),
        ] {
            assert_eq!(value(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn operators_with_systemverilog_precedence() {
        for (text, want) in [
            ("2 + 3 * 4", 14),
            ("(2 + 3) * 4", 20),
            ("2 ** 3 ** 2", 64),
            ("1 << 4 + 1", 32),
            ("'h100 >> 4", 16),
            ("17 % 5", 2),
            ("10 / 3", 3),
            ("4 - 2 - 1", 1),
            ("-2 + 3", 1),
            ("3 > 2 ? 'h10 : 'h20", 16),
            ("0 ? 1 : 0 ? 2 : 3", 3),
            ("'hF0 | 'h0F", 255),
            ("'hF0 & 'h3C", 0x30),
            ("'hF0 ^ 'hFF", 0x0F),
            ("1 == 1 && 2 != 3", 1),
            ("!0 || 0", 1),
            ("$clog2(1)", 0),
            ("$clog2(2)", 1),
            ("$clog2(5)", 3),
            ("$clog2(1024)", 10),
            ("4 * $clog2(16) + 1", 17),
        ] {
            assert_eq!(value(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn parameters_by_id_and_by_name_and_through_each_other() {
        let p = params(&[
            ("uuid_base", "BASE", "'h1000"),
            ("uuid_n", "N", "4"),
            ("uuid_size", "SIZE", "uuid_n * 4"),
        ]);
        assert_eq!(eval("uuid_base + SIZE", &p), Ok(0x1010));
        assert_eq!(eval("BASE + uuid_size", &p), Ok(0x1010));
        let mut p = p;
        assert!(p.set("N", "8"));
        assert_eq!(
            eval("SIZE", &p),
            Ok(32),
            "the override reaches what uses it"
        );
        assert!(!p.set("NOPE", "1"));
    }

    #[test]
    fn what_cannot_be_evaluated_is_named() {
        let p = params(&[
            ("a", "A", "B + 1"),
            ("b", "B", "A"),
            ("x", "SAME", "1"),
            ("y", "SAME", "2"),
        ]);
        for (text, why) in [
            ("BASE + 4", "`BASE` is no parameter"),
            ("A", "depends on itself"),
            ("SAME", "two parameters"),
            ("~0", "`~` depends on SystemVerilog's expression widths"),
            ("&'hF", "`&` depends"),
            ("'hxF", "x or z digits"),
            ("4'bzz01", "x or z digits"),
            ("1 / 0", "divides by zero"),
            ("2 - 3", "negative"),
            ("64'hFFFF_FFFF_FFFF_FFFF + 1", "does not fit in 64 bits"),
            ("1 << 64", "a shift by 64"),
            ("$bits(A)", "`$bits` is not evaluated"),
            ("\"text\"", "a string"),
            ("1.5", "real number"),
            ("(1 + 2", "expected `)`"),
            ("1 2", "unexpected `2`"),
            ("", "empty"),
            ("'q1", "not a base"),
        ] {
            let got = eval(text, &p);
            assert!(
                got.as_ref().is_err_and(|e| e.contains(why)),
                "{text}: {got:?}, expected an error saying {why:?}"
            );
        }
    }
}
