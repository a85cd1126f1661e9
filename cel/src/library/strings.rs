//! cel-go's strings extension at version 2 (what the API server registers from 1.29): `charAt`,
//! `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`,
//! `trim`, `join`, `strings.quote` and `format`. Indexes count code points, as cel-go's do.
//!
//! `format` is cel-go's first formatter (`en_US` locale through `golang.org/x/text`): `%f`
//! groups thousands (`1,234.500000`), `%e` writes `1.052033×10⁰³`, infinities are `∞`. As
//! `x/text` keeps a precision in a byte, precisions wrap at 256.

use super::Call;
use crate::value::{EvalError, Value};

fn ok(v: Value) -> Call {
    Some(Ok(v))
}

fn err(message: impl Into<String>) -> Call {
    Some(Err(EvalError::new(message)))
}

fn int(n: usize) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn out_of_range(i: i64) -> Call {
    err(format!("index out of range: {i}"))
}

/// The strings extension's functions.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    use Value as V;
    match (target, function, args) {
        (None, "strings.quote", [V::String(s)]) => ok(Value::string(quote(s))),
        (Some(V::List(l)), "join", []) => join(&l.items, ""),
        (Some(V::List(l)), "join", [V::String(sep)]) => join(&l.items, sep),
        (Some(V::String(s)), _, _) => string_method(s, function, args),
        _ => None,
    }
}

fn string_method(s: &str, function: &str, args: &[Value]) -> Call {
    use Value as V;
    match (function, args) {
        ("charAt", [V::Int(i)]) => {
            let chars: Vec<char> = s.chars().collect();
            match usize::try_from(*i) {
                Ok(n) if n < chars.len() => ok(Value::string(chars[n].to_string())),
                Ok(n) if n == chars.len() => ok(Value::string("")),
                _ => out_of_range(*i),
            }
        }
        ("indexOf", [V::String(sub)]) => index_of(s, sub, 0),
        ("indexOf", [V::String(sub), V::Int(off)]) => index_of(s, sub, *off),
        ("lastIndexOf", [V::String(sub)]) => {
            let len = s.chars().count();
            if sub.is_empty() {
                return ok(int(len));
            }
            if s.len() < sub.len() {
                return ok(Value::Int(-1));
            }
            last_index_of(s, sub, i64::try_from(len).unwrap_or(i64::MAX) - 1)
        }
        ("lastIndexOf", [V::String(sub), V::Int(off)]) => last_index_of(s, sub, *off),
        ("lowerAscii", []) => ok(Value::string(s.to_ascii_lowercase())),
        ("upperAscii", []) => ok(Value::string(s.to_ascii_uppercase())),
        ("replace", [V::String(old), V::String(new)]) => ok(Value::string(s.replace(&**old, new))),
        ("replace", [V::String(old), V::String(new), V::Int(n)]) => ok(Value::string(match usize::try_from(*n) {
            Ok(n) => s.replacen(&**old, new, n),
            // A negative count replaces all, as Go's strings.Replace.
            Err(_) => s.replace(&**old, new),
        })),
        ("split", [V::String(sep)]) => ok(string_list(split(s, sep, -1))),
        ("split", [V::String(sep), V::Int(n)]) => ok(string_list(split(s, sep, *n))),
        ("substring", [V::Int(start)]) => {
            let chars: Vec<char> = s.chars().collect();
            match usize::try_from(*start) {
                Ok(b) if b <= chars.len() => ok(Value::string(chars[b..].iter().collect::<String>())),
                _ => out_of_range(*start),
            }
        }
        ("substring", [V::Int(start), V::Int(end)]) => {
            if start > end {
                return err(format!("invalid substring range. start: {start}, end: {end}"));
            }
            let chars: Vec<char> = s.chars().collect();
            let Some(b) = usize::try_from(*start).ok().filter(|&b| b <= chars.len()) else {
                return out_of_range(*start);
            };
            let Some(e) = usize::try_from(*end).ok().filter(|&e| e <= chars.len()) else {
                return out_of_range(*end);
            };
            ok(Value::string(chars[b..e].iter().collect::<String>()))
        }
        // Go's strings.TrimSpace trims Unicode White_Space, as Rust's `trim`.
        ("trim", []) => ok(Value::string(s.trim())),
        ("format", [V::List(l)]) => Some(format(s, &l.items).map(Value::string).map_err(EvalError::new)),
        _ => None,
    }
}

fn string_list(items: Vec<&str>) -> Value {
    Value::list(items.into_iter().map(Value::string).collect())
}

/// cel-go's `indexOf(sub, offset)`, in code points.
fn index_of(s: &str, sub: &str, off: i64) -> Call {
    let Ok(off) = usize::try_from(off) else {
        return out_of_range(off);
    };
    let chars: Vec<char> = s.chars().collect();
    if sub.is_empty() {
        // The empty string matches at the offset, clamped to the end.
        return ok(int(off.min(chars.len())));
    }
    let needle: Vec<char> = sub.chars().collect();
    if off >= chars.len() {
        return ok(Value::Int(-1));
    }
    let found = (off..chars.len()).find(|&i| chars.get(i..i + needle.len()) == Some(&needle[..]));
    ok(found.map_or(Value::Int(-1), int))
}

/// cel-go's `lastIndexOf(sub, offset)`: the last match starting at or before the offset.
fn last_index_of(s: &str, sub: &str, off: i64) -> Call {
    let Ok(off) = usize::try_from(off) else {
        return out_of_range(off);
    };
    let chars: Vec<char> = s.chars().collect();
    if sub.is_empty() {
        return ok(int(off.min(chars.len())));
    }
    let needle: Vec<char> = sub.chars().collect();
    if off >= chars.len() || needle.len() > chars.len() {
        return ok(Value::Int(-1));
    }
    let start = off.min(chars.len() - needle.len());
    let found = (0..=start)
        .rev()
        .find(|&i| chars.get(i..i + needle.len()) == Some(&needle[..]));
    ok(found.map_or(Value::Int(-1), int))
}

/// Go's `strings.SplitN` (`n < 0`: all pieces; `n == 0`: none): an empty separator splits
/// into code points, the last piece keeping the rest.
fn split<'a>(s: &'a str, sep: &str, n: i64) -> Vec<&'a str> {
    if n == 0 {
        return Vec::new();
    }
    let limit = usize::try_from(n).unwrap_or(usize::MAX);
    if sep.is_empty() {
        let mut out = Vec::new();
        let mut rest = s;
        while !rest.is_empty() {
            if out.len() + 1 == limit {
                out.push(rest);
                break;
            }
            let w = rest.chars().next().map_or(1, char::len_utf8);
            out.push(&rest[..w]);
            rest = &rest[w..];
        }
        return out;
    }
    s.splitn(limit, sep).collect()
}

/// `join`: every item must be a string (`join: invalid input: <item>` otherwise).
fn join(items: &[Value], sep: &str) -> Call {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        let Value::String(s) = item else {
            return err(format!("join: invalid input: {}", go_value(item)));
        };
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(s);
    }
    ok(Value::string(out))
}

/// A value as Go's `%v` prints a CEL value in messages.
fn go_value(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => crate::eval::format_double(*d),
        Value::Bool(b) => b.to_string(),
        Value::Null => "NULL_VALUE".to_owned(),
        Value::String(s) => s.to_string(),
        other => other.type_name().to_owned(),
    }
}

/// `strings.quote`: double quotes, with `\a \b \f \n \r \t \v \\ \"` escaped.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether Go's `unicode.IsPrint` holds, as far as this crate can tell without Unicode
/// category tables: controls, separators other than the ASCII space, the common format
/// characters and non-characters are not printable.
fn go_printable(c: char) -> bool {
    let u = c as u32;
    !(c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(u, 0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E)
        || matches!(u, 0x2060..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xE000..=0xF8FF | 0xFFFE | 0xFFFF)
        || matches!(u, 0xE0001 | 0xE0020..=0xE007F | 0xF0000..=0x10FFFF))
}

/// Go's `strconv.Quote` (`%q`) of text that may hold invalid UTF-8 (bytes values).
pub(crate) fn go_quote_bytes(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len() + 2);
    out.push('"');
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{7}' => out.push_str("\\a"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{b}' => out.push_str("\\v"),
                c if go_printable(c) => out.push(c),
                c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
                c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push_str(&format!("\\U{:08x}", c as u32)),
            }
        }
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.Quote` (`%q`).
pub(crate) fn go_quote(s: &str) -> String {
    go_quote_bytes(s.as_bytes())
}

/// cel-go's `string.format` with its error texts.
fn format(fmt: &str, args: &[Value]) -> Result<String, String> {
    let bytes = fmt.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(fmt.len());
    let mut i = 0;
    let mut arg_index = 0usize;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        if bytes.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        let Some(arg) = args.get(arg_index) else {
            return Err(format!("index {arg_index} out of range"));
        };
        if i + 1 >= bytes.len() {
            return Err("unexpected end of string".to_owned());
        }
        let (read, verb, precision) =
            parse_clause(&bytes[i + 1..]).map_err(|e| format!("could not parse formatting clause: {e}"))?;
        let text = format_clause(verb, precision, arg).map_err(|e| format!("error during formatting: {e}"))?;
        out.extend_from_slice(text.as_bytes());
        i += 1 + read;
        arg_index += 1;
    }
    // Only whole UTF-8 sequences were copied around ASCII '%' clauses.
    String::from_utf8(out).map_err(|_| "invalid UTF-8 in format string".to_owned())
}

/// A clause after its `%`: (bytes read, verb, precision).
fn parse_clause(s: &[u8]) -> Result<(usize, u8, Option<i64>), String> {
    let mut i = 0;
    let mut precision = None;
    if s.first() == Some(&b'.') {
        i = 1;
        let digits_start = i;
        loop {
            match s.get(i) {
                None => return Err("error while parsing precision: could not find end of precision specifier".into()),
                Some(b) if b.is_ascii_digit() => i += 1,
                Some(_) => break,
            }
        }
        let digits = std::str::from_utf8(&s[digits_start..i]).unwrap_or("");
        let p = if digits.is_empty() {
            return Err(
                "error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax"
                    .into(),
            );
        } else {
            digits.parse::<i64>().map_err(|_| {
                format!(
                    "error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"{digits}\": value out of range"
                )
            })?
        };
        precision = Some(p);
    }
    let Some(&verb) = s.get(i) else {
        return Err("unexpected end of string".into());
    };
    match verb {
        b's' | b'd' | b'f' | b'e' | b'b' | b'x' | b'X' | b'o' => Ok((i + 1, verb, precision)),
        // Go prints the byte as a rune (Latin-1 for a byte of a longer sequence).
        other => Err(format!("unrecognized formatting clause \"{}\"", char::from(other))),
    }
}

fn format_clause(verb: u8, precision: Option<i64>, arg: &Value) -> Result<String, String> {
    use Value as V;
    let type_name = arg.type_name();
    match verb {
        b's' => format_string(arg),
        b'd' => match arg {
            V::Int(i) => Ok(i.to_string()),
            V::Uint(u) => Ok(u.to_string()),
            _ => Err(format!(
                "decimal clause can only be used on integers, was given {type_name}"
            )),
        },
        b'f' | b'e' => {
            let value = match arg {
                V::Double(d) => *d,
                V::String(s) if &**s == "NaN" => f64::NAN,
                V::String(s) if &**s == "Infinity" => f64::INFINITY,
                V::String(s) if &**s == "-Infinity" => f64::NEG_INFINITY,
                _ if verb == b'f' => {
                    return Err(format!(
                        "fixed-point clause can only be used on doubles, was given {type_name}"
                    ));
                }
                _ => {
                    return Err(format!(
                        "scientific clause can only be used on doubles, was given {type_name}"
                    ));
                }
            };
            // x/text keeps the digit counts in a byte.
            let digits = precision.map_or(6, |p| (p.rem_euclid(256)) as usize);
            Ok(if verb == b'f' {
                localized_fixed(value, digits)
            } else {
                localized_scientific(value, digits)
            })
        }
        b'b' => match arg {
            V::Int(i) => Ok(signed_radix(*i, |u| format!("{u:b}"))),
            V::Uint(u) => Ok(format!("{u:b}")),
            V::Bool(b) => Ok(if *b { "1" } else { "0" }.to_owned()),
            _ => Err(format!(
                "only integers and bools can be formatted as binary, was given {type_name}"
            )),
        },
        b'o' => match arg {
            V::Int(i) => Ok(signed_radix(*i, |u| format!("{u:o}"))),
            V::Uint(u) => Ok(format!("{u:o}")),
            _ => Err(format!(
                "octal clause can only be used on integers, was given {type_name}"
            )),
        },
        _ => {
            let upper = verb == b'X';
            let hex = match arg {
                V::Int(i) => signed_radix(*i, |u| format!("{u:x}")),
                V::Uint(u) => format!("{u:x}"),
                V::String(s) => s.bytes().map(|b| format!("{b:02x}")).collect(),
                V::Bytes(b) => b.iter().map(|b| format!("{b:02x}")).collect(),
                _ => {
                    return Err(format!(
                        "only integers, byte buffers, and strings can be formatted as hex, was given {type_name}"
                    ));
                }
            };
            Ok(if upper { hex.to_ascii_uppercase() } else { hex })
        }
    }
}

/// Go's `%b`, `%o`, `%x` of a signed integer: a minus sign and the magnitude.
fn signed_radix(i: i64, digits: impl Fn(u64) -> String) -> String {
    let magnitude = digits(i.unsigned_abs());
    if i < 0 { format!("-{magnitude}") } else { magnitude }
}

/// `%.Nf` in `en_US`: grouped thousands, `NaN`, `∞`.
fn localized_fixed(v: f64, digits: usize) -> String {
    if v.is_nan() {
        return "NaN".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "-∞" }.to_owned();
    }
    let plain = format!("{:.*}", digits, v.abs());
    let (int_part, frac) = plain.split_once('.').unwrap_or((&plain, ""));
    let mut grouped = String::with_capacity(plain.len() + plain.len() / 3);
    for (n, c) in int_part.chars().enumerate() {
        if n > 0 && (int_part.len() - n) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if v.is_sign_negative() && plain.bytes().any(|b| matches!(b, b'1'..=b'9')) {
        "-"
    } else {
        ""
    };
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

/// `%.Ne` in `en_US`: `1.052033×10⁰³` (as the API server's pinned cel-go writes it: the
/// exponent in superscript digits, at least two of them).
fn localized_scientific(v: f64, digits: usize) -> String {
    if v.is_nan() {
        return "NaN".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "-∞" }.to_owned();
    }
    let plain = format!("{:.*e}", digits, v);
    let (mantissa, exp) = plain.split_once('e').unwrap_or((&plain, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut out = format!("{mantissa}×10");
    if exp < 0 {
        out.push('⁻');
    }
    let magnitude = format!("{:02}", exp.unsigned_abs());
    out.extend(magnitude.bytes().map(|b| SUPERSCRIPT[usize::from(b - b'0')]));
    out
}

/// `%s`: the value's string form (lists and maps in CEL syntax).
fn format_string(arg: &Value) -> Result<String, String> {
    use Value as V;
    match arg {
        V::List(l) => format_list(&l.items),
        V::Map(m) if m.object.is_none() => format_map(&m.entries),
        V::Null => Ok("null".to_owned()),
        V::String(s) => Ok(s.to_string()),
        V::Int(i) => Ok(i.to_string()),
        V::Uint(u) => Ok(u.to_string()),
        V::Double(d) => Ok(crate::eval::format_double(*d)),
        V::Bool(b) => Ok(b.to_string()),
        V::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => Ok(s.to_owned()),
            Err(_) => Err("could not convert argument to string: invalid UTF-8 in bytes".to_owned()),
        },
        V::Timestamp(t) => Ok(super::time::timestamp_to_string(*t)),
        V::Duration(d) => Ok(super::time::duration_to_string(*d)),
        V::Type(t) => Ok(t.to_string()),
        other => Err(format!(
            "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {}",
            other.type_name()
        )),
    }
}

/// An item of a list or map inside `%s`, written as CEL would read it back.
fn format_member(v: &Value) -> Result<String, String> {
    use Value as V;
    Ok(match v {
        V::Int(i) => i.to_string(),
        V::Uint(u) => u.to_string(),
        V::String(s) => go_quote(s),
        V::Bytes(b) => format!("b{}", go_quote_bytes(b)),
        V::Bool(b) => b.to_string(),
        V::Null => "null".to_owned(),
        V::Type(t) => t.to_string(),
        V::Timestamp(t) => format!("timestamp({})", go_quote(&super::time::timestamp_to_string(*t))),
        V::Duration(d) => format!("duration({})", go_quote(&super::time::duration_to_string(*d))),
        V::List(l) => format_list(&l.items)?,
        V::Map(m) if m.object.is_none() => format_map(&m.entries)?,
        V::Double(d) => {
            // Go's plain %.6f: NaN and infinities come out quoted.
            if d.is_nan() {
                "\"NaN\"".to_owned()
            } else if d.is_infinite() {
                if *d > 0.0 { "\"+Inf\"" } else { "\"-Inf\"" }.to_owned()
            } else {
                format!("{d:.6}")
            }
        }
        other => return Err(format!("no formatting function for {}", other.type_name())),
    })
}

fn format_list(items: &[Value]) -> Result<String, String> {
    let parts: Result<Vec<String>, String> = items.iter().map(format_member).collect();
    Ok(format!("[{}]", parts?.join(", ")))
}

/// Maps print sorted by their written keys.
fn format_map(entries: &[(Value, Value)]) -> Result<String, String> {
    let mut pairs = Vec::with_capacity(entries.len());
    for (k, v) in entries {
        let key = match k {
            Value::String(s) => go_quote(s),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Uint(u) => u.to_string(),
            other => {
                return Err(format!(
                    "no formatting function for map key of type {}",
                    other.type_name()
                ));
            }
        };
        pairs.push((key, format_member(v)?));
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let parts: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
    Ok(format!("{{{}}}", parts.join(", ")))
}

/// `ceil(n * factor)` computed in floating point, as Go computes it (the same rounding of
/// products such as 3 × 0.1 = 0.30000000000000004).
pub(crate) fn scaled_cost(n: usize, factor: f64) -> u64 {
    (n as f64 * factor).ceil() as u64
}

fn chars(v: &Value) -> usize {
    match v {
        Value::String(s) => s.chars().count(),
        Value::List(l) => l.items.len(),
        _ => 1,
    }
}

/// Kubernetes' traversal cost: a tenth of each string's bytes (rounded down), one for
/// other scalars, summed over lists and maps.
pub(crate) fn traversal_cost(v: &Value) -> u64 {
    match v {
        Value::String(s) => (s.len() as f64 * 0.1) as u64,
        Value::Bytes(b) => (b.len() as f64 * 0.1) as u64,
        Value::List(l) => l.items.iter().map(traversal_cost).fold(0, u64::saturating_add),
        Value::Map(m) => m
            .entries
            .iter()
            .map(|(k, v)| traversal_cost(k).saturating_add(traversal_cost(v)))
            .fold(0, u64::saturating_add),
        _ => 1,
    }
}

/// The costs Kubernetes' cost estimator (and cel-go's defaults) charge for these functions.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], result: &Value) -> Option<u64> {
    let Some(receiver) = target else {
        return match (function, args) {
            ("strings.quote", [s @ Value::String(_)]) => Some(scaled_cost(chars(s), 0.1)),
            _ => None,
        };
    };
    match (function, receiver) {
        ("lowerAscii" | "upperAscii" | "substring" | "trim", Value::String(_)) => {
            Some(scaled_cost(chars(receiver), 0.1))
        }
        ("replace" | "split", Value::String(_)) => Some(((chars(receiver) as f64) * 2.0 * 0.1).ceil() as u64),
        ("join", Value::List(_)) => Some(((chars(result) as f64) * 2.0 * 0.1).ceil() as u64),
        ("indexOf" | "lastIndexOf", Value::String(_)) => Some(traversal_cost(receiver)),
        ("format", Value::String(_)) if matches!(args, [Value::List(_)]) => Some(scaled_cost(chars(receiver), 0.1)),
        ("charAt", Value::String(_)) => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn s(v: &str) -> Value {
        Value::string(v)
    }

    fn run(target: Value, f: &str, args: &[Value]) -> Result<Value, EvalError> {
        call(f, Some(&target), args).unwrap()
    }

    fn text(v: Result<Value, EvalError>) -> String {
        match v {
            Ok(Value::String(s)) => s.to_string(),
            other => panic!("{other:?}"),
        }
    }

    fn num(v: Result<Value, EvalError>) -> i64 {
        match v {
            Ok(Value::Int(i)) => i,
            other => panic!("{other:?}"),
        }
    }

    fn list(v: Result<Value, EvalError>) -> Vec<String> {
        match v {
            Ok(Value::List(l)) => l.items.iter().map(|v| text(Ok(v.clone()))).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn char_at_and_indexes() {
        // cel-go's ext/strings_test.go.
        assert_eq!(text(run(s("tacocat"), "charAt", &[Value::Int(3)])), "o");
        assert_eq!(text(run(s("tacocat"), "charAt", &[Value::Int(7)])), "");
        assert_eq!(text(run(s("©αT"), "charAt", &[Value::Int(1)])), "α");
        assert_eq!(
            run(s("tacocat"), "charAt", &[Value::Int(30)]).unwrap_err().message,
            "index out of range: 30"
        );
        assert_eq!(
            run(s("tacocat"), "charAt", &[Value::Int(-1)]).unwrap_err().message,
            "index out of range: -1"
        );
        assert_eq!(num(run(s("tacocat"), "indexOf", &[s("")])), 0);
        assert_eq!(num(run(s("tacocat"), "indexOf", &[s("ac")])), 1);
        assert_eq!(num(run(s("tacocat"), "indexOf", &[s("none")])), -1);
        assert_eq!(num(run(s("tacocat"), "indexOf", &[s(""), Value::Int(3)])), 3);
        assert_eq!(num(run(s("tacocat"), "indexOf", &[s("a"), Value::Int(3)])), 5);
        assert_eq!(num(run(s("tacocat"), "indexOf", &[s("at"), Value::Int(3)])), 5);
        assert_eq!(num(run(s("ta©o©αT"), "indexOf", &[s("©")])), 2);
        assert_eq!(num(run(s("ta©o©αT"), "indexOf", &[s("©"), Value::Int(3)])), 4);
        assert_eq!(num(run(s("ta©o©αT"), "indexOf", &[s("©αT"), Value::Int(3)])), 4);
        assert_eq!(num(run(s("ta©o©αT"), "indexOf", &[s("©α"), Value::Int(5)])), -1);
        assert_eq!(num(run(s("ijk"), "indexOf", &[s("k")])), 2);
        assert_eq!(num(run(s("hello wello"), "indexOf", &[s("hello wello")])), 0);
        assert_eq!(num(run(s("hello wello"), "indexOf", &[s("ello"), Value::Int(6)])), 7);
        assert_eq!(num(run(s("hello wello"), "indexOf", &[s("elbo room!!")])), -1);
        assert_eq!(num(run(s("hello"), "indexOf", &[s(""), Value::Int(10)])), 5);
        assert_eq!(
            run(s("tacocat"), "indexOf", &[s("a"), Value::Int(-1)])
                .unwrap_err()
                .message,
            "index out of range: -1"
        );
        assert_eq!(num(run(s("tacocat"), "lastIndexOf", &[s("")])), 7);
        assert_eq!(num(run(s("tacocat"), "lastIndexOf", &[s("at")])), 5);
        assert_eq!(num(run(s("tacocat"), "lastIndexOf", &[s("none")])), -1);
        assert_eq!(num(run(s("tacocat"), "lastIndexOf", &[s(""), Value::Int(3)])), 3);
        assert_eq!(num(run(s("tacocat"), "lastIndexOf", &[s("a"), Value::Int(3)])), 1);
        assert_eq!(num(run(s("ta©o©αT"), "lastIndexOf", &[s("©")])), 4);
        assert_eq!(num(run(s("ta©o©αT"), "lastIndexOf", &[s("©"), Value::Int(3)])), 2);
        assert_eq!(num(run(s("ta©o©αT"), "lastIndexOf", &[s("©α"), Value::Int(4)])), 4);
        assert_eq!(num(run(s("hello wello"), "lastIndexOf", &[s("hello wello")])), 0);
        assert_eq!(
            num(run(s("bananananana"), "lastIndexOf", &[s("nana"), Value::Int(7)])),
            6
        );
        assert_eq!(
            run(s("tacocat"), "lastIndexOf", &[s("a"), Value::Int(-1)])
                .unwrap_err()
                .message,
            "index out of range: -1"
        );
    }

    #[test]
    fn transforms() {
        assert_eq!(text(run(s("TacoCat"), "lowerAscii", &[])), "tacocat");
        assert_eq!(text(run(s("TacoCÆt Xii"), "lowerAscii", &[])), "tacocÆt xii");
        assert_eq!(text(run(s("tacoCat"), "upperAscii", &[])), "TACOCAT");
        assert_eq!(text(run(s("tacoCαt"), "upperAscii", &[])), "TACOCαT");
        assert_eq!(
            text(run(s("12 days 12 hours"), "replace", &[s("{0}"), s("2")])),
            "12 days 12 hours"
        );
        assert_eq!(
            text(run(s("{0} days {0} hours"), "replace", &[s("{0}"), s("2")])),
            "2 days 2 hours"
        );
        assert_eq!(
            text(run(
                s("{0} days {0} hours"),
                "replace",
                &[s("{0}"), s("2"), Value::Int(1)]
            )),
            "2 days {0} hours"
        );
        assert_eq!(
            text(run(
                s("{0} days {0} hours"),
                "replace",
                &[s("{0}"), s("2"), Value::Int(-1)]
            )),
            "2 days 2 hours"
        );
        assert_eq!(
            text(run(
                s("{0} days {0} hours"),
                "replace",
                &[s("{0}"), s("2"), Value::Int(0)]
            )),
            "{0} days {0} hours"
        );
        assert_eq!(text(run(s("ta©o©αT"), "replace", &[s("©α"), s("©")])), "ta©o©T");
        assert_eq!(text(run(s("abc"), "replace", &[s(""), s("-")])), "-a-b-c-");
        assert_eq!(text(run(s("tacocat"), "substring", &[Value::Int(4)])), "cat");
        assert_eq!(text(run(s("tacocat"), "substring", &[Value::Int(7)])), "");
        assert_eq!(
            text(run(s("tacocat"), "substring", &[Value::Int(0), Value::Int(4)])),
            "taco"
        );
        assert_eq!(
            text(run(s("tacocat"), "substring", &[Value::Int(4), Value::Int(4)])),
            ""
        );
        assert_eq!(
            text(run(s("ta©o©αT"), "substring", &[Value::Int(2), Value::Int(6)])),
            "©o©α"
        );
        assert_eq!(
            text(run(s("ta©o©αT"), "substring", &[Value::Int(7), Value::Int(7)])),
            ""
        );
        assert_eq!(
            run(s("tacocat"), "substring", &[Value::Int(40)]).unwrap_err().message,
            "index out of range: 40"
        );
        assert_eq!(
            run(s("tacocat"), "substring", &[Value::Int(-1)]).unwrap_err().message,
            "index out of range: -1"
        );
        assert_eq!(
            run(s("tacocat"), "substring", &[Value::Int(1), Value::Int(50)])
                .unwrap_err()
                .message,
            "index out of range: 50"
        );
        assert_eq!(
            run(s("tacocat"), "substring", &[Value::Int(49), Value::Int(50)])
                .unwrap_err()
                .message,
            "index out of range: 49"
        );
        assert_eq!(
            run(s("tacocat"), "substring", &[Value::Int(4), Value::Int(3)])
                .unwrap_err()
                .message,
            "invalid substring range. start: 4, end: 3"
        );
        assert_eq!(text(run(s(" \ttrim\n    "), "trim", &[])), "trim");
        assert_eq!(text(run(s("\u{2005}\u{3000}trim\u{85}"), "trim", &[])), "trim");
    }

    #[test]
    fn split_and_join() {
        assert_eq!(list(run(s("hello world"), "split", &[s(" ")])), ["hello", "world"]);
        assert_eq!(
            list(run(s("hello world events!"), "split", &[s(" "), Value::Int(0)])),
            Vec::<String>::new()
        );
        assert_eq!(
            list(run(s("hello world events!"), "split", &[s(" "), Value::Int(1)])),
            ["hello world events!"]
        );
        assert_eq!(
            list(run(s("o©o©o©o"), "split", &[s("©"), Value::Int(-1)])),
            ["o", "o", "o", "o"]
        );
        assert_eq!(
            list(run(s("o©o©o©o"), "split", &[s("©"), Value::Int(2)])),
            ["o", "o©o©o"]
        );
        assert_eq!(list(run(s("ab©"), "split", &[s("")])), ["a", "b", "©"]);
        assert_eq!(list(run(s("abc"), "split", &[s(""), Value::Int(2)])), ["a", "bc"]);
        assert_eq!(list(run(s(""), "split", &[s(",")])), [""]);
        assert_eq!(list(run(s(""), "split", &[s("")])), Vec::<String>::new());
        let l = Value::list(vec![s("x"), s("y")]);
        assert_eq!(text(run(l.clone(), "join", &[])), "xy");
        assert_eq!(text(run(l, "join", &[s("-")])), "x-y");
        assert_eq!(text(run(Value::list(vec![]), "join", &[s("-")])), "");
        assert_eq!(
            run(Value::list(vec![s("a"), Value::Int(1)]), "join", &[])
                .unwrap_err()
                .message,
            "join: invalid input: 1"
        );
    }

    #[test]
    fn quoting() {
        let q = |v: &str| text(call("strings.quote", None, &[s(v)]).unwrap());
        assert_eq!(q("first\nsecond"), "\"first\\nsecond\"");
        assert_eq!(q("bell\u{7}"), "\"bell\\a\"");
        assert_eq!(q("\\"), "\"\\\\\"");
        assert_eq!(q("\"a\""), "\"\\\"a\\\"\"");
        assert_eq!(q("ta©o©αT"), "\"ta©o©αT\"");
        assert_eq!(go_quote("a\u{0}é"), "\"a\\x00é\"");
        assert_eq!(go_quote_bytes(b"\xff"), "\"\\xff\"");
    }

    fn fmt(f: &str, args: Vec<Value>) -> Result<String, String> {
        format(f, &args)
    }

    #[test]
    // cel-go's cases use 2.71828 and 3.14 literally.
    #[allow(clippy::approx_constant)]
    fn format_from_cel_go_tests() {
        assert_eq!(
            fmt("str is %s and some more", vec![s("filler")]).unwrap(),
            "str is filler and some more"
        );
        assert_eq!(fmt("%% and also %%", vec![]).unwrap(), "% and also %");
        assert_eq!(fmt("%%%s%%", vec![s("text")]).unwrap(), "%text%");
        assert_eq!(fmt("%.3f", vec![Value::Double(1.2345)]).unwrap(), "1.234");
        assert_eq!(
            fmt("this is 5 in binary: %b", vec![Value::Int(5)]).unwrap(),
            "this is 5 in binary: 101"
        );
        assert_eq!(fmt("%b", vec![Value::Int(-5)]).unwrap(), "-101");
        assert_eq!(fmt("%b", vec![Value::Uint(64)]).unwrap(), "1000000");
        assert_eq!(fmt("%b", vec![Value::Bool(true)]).unwrap(), "1");
        assert_eq!(fmt("%o", vec![Value::Int(11)]).unwrap(), "13");
        assert_eq!(fmt("%o", vec![Value::Int(-11)]).unwrap(), "-13");
        assert_eq!(fmt("%o", vec![Value::Uint(65535)]).unwrap(), "177777");
        assert_eq!(fmt("%x", vec![Value::Int(30)]).unwrap(), "1e");
        assert_eq!(fmt("%X", vec![Value::Int(30)]).unwrap(), "1E");
        assert_eq!(fmt("%x", vec![Value::Int(-30)]).unwrap(), "-1e");
        assert_eq!(fmt("%X", vec![Value::Uint(6000)]).unwrap(), "1770");
        assert_eq!(fmt("%x", vec![s("Hello world!")]).unwrap(), "48656c6c6f20776f726c6421");
        assert_eq!(
            fmt("%x", vec![Value::Bytes(Arc::from(&b"\x00\x00byte string\x00"[..]))]).unwrap(),
            "00006279746520737472696e6700"
        );
        assert_eq!(
            fmt("%.6e", vec![Value::Double(1052.032911275)]).unwrap(),
            "1.052033×10⁰³"
        );
        assert_eq!(fmt("%e", vec![Value::Double(2.71828)]).unwrap(), "2.718280×10⁰⁰");
        assert_eq!(fmt("%f", vec![Value::Double(2.71828)]).unwrap(), "2.718280");
        assert_eq!(fmt("%s", vec![Value::Double(2.71)]).unwrap(), "2.71");
        assert_eq!(
            fmt("%s", vec![Value::list(vec![Value::Double(2.71)])]).unwrap(),
            "[2.710000]"
        );
        assert_eq!(fmt("%s", vec![Value::Double(0.000000002)]).unwrap(), "2e-09");
        assert_eq!(fmt("%f", vec![s("NaN")]).unwrap(), "NaN");
        assert_eq!(fmt("%f", vec![s("Infinity")]).unwrap(), "∞");
        assert_eq!(fmt("%f", vec![s("-Infinity")]).unwrap(), "-∞");
        assert_eq!(
            fmt(
                "%s",
                vec![Value::list(vec![
                    Value::Double(f64::NAN),
                    Value::Double(f64::INFINITY),
                    Value::Double(f64::NEG_INFINITY)
                ])]
            )
            .unwrap(),
            r#"["NaN", "+Inf", "-Inf"]"#
        );
        assert_eq!(fmt("null: %s", vec![Value::Null]).unwrap(), "null: null");
        assert_eq!(
            fmt("some bytes: %s", vec![Value::Bytes(Arc::from(&b"xyz"[..]))]).unwrap(),
            "some bytes: xyz"
        );
        assert_eq!(
            fmt("type is %s", vec![Value::Type(Arc::from("string"))]).unwrap(),
            "type is string"
        );
        assert_eq!(fmt("%s", vec![Value::Duration(6_347_000_000_000)]).unwrap(), "6347s");
        assert_eq!(fmt("%s", vec![Value::Duration(2)]).unwrap(), "0.000000002s");
        let ts = super::super::time::parse_timestamp("2023-02-03T23:31:20Z").unwrap();
        assert_eq!(
            fmt(
                "%s",
                vec![Value::list(vec![
                    s("abc"),
                    Value::Double(3.14),
                    Value::Null,
                    Value::list(vec![Value::Int(9), Value::Int(8)]),
                    Value::Timestamp(ts)
                ])]
            )
            .unwrap(),
            r#"["abc", 3.140000, null, [9, 8], timestamp("2023-02-03T23:31:20Z")]"#
        );
        let m = Value::map(vec![
            (s("key1"), Value::Bytes(Arc::from(&b"xyz"[..]))),
            (s("key5"), Value::Null),
            (s("key2"), Value::Duration(7_200_000_000_000)),
            (s("key4"), Value::Bool(true)),
            (s("key3"), Value::Double(2.71828)),
        ]);
        assert_eq!(
            fmt("%s", vec![m]).unwrap(),
            r#"{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}"#
        );
        let m = Value::map(vec![
            (Value::Int(1), s("value1")),
            (Value::Uint(2), s("value2")),
            (Value::Bool(true), Value::Double(f64::NAN)),
        ]);
        assert_eq!(fmt("%s", vec![m]).unwrap(), r#"{1:"value1", 2:"value2", true:"NaN"}"#);
        assert_eq!(fmt("%f", vec![Value::Double(1234567.5)]).unwrap(), "1,234,567.500000");
    }

    #[test]
    fn format_errors() {
        assert_eq!(
            fmt("%a", vec![Value::Int(1)]).unwrap_err(),
            "could not parse formatting clause: unrecognized formatting clause \"a\""
        );
        assert_eq!(fmt("%s %s", vec![s("a")]).unwrap_err(), "index 1 out of range");
        assert_eq!(fmt("%s", vec![]).unwrap_err(), "index 0 out of range");
        assert_eq!(fmt("%", vec![Value::Int(1)]).unwrap_err(), "unexpected end of string");
        assert_eq!(
            fmt("%b", vec![s("a")]).unwrap_err(),
            "error during formatting: only integers and bools can be formatted as binary, was given string"
        );
        assert_eq!(
            fmt("%d", vec![Value::Duration(1)]).unwrap_err(),
            "error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration"
        );
        assert_eq!(
            fmt("%x", vec![Value::Double(1.0)]).unwrap_err(),
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double"
        );
        assert_eq!(
            fmt("%e", vec![Value::Null]).unwrap_err(),
            "error during formatting: scientific clause can only be used on doubles, was given null_type"
        );
        assert_eq!(
            fmt("%.3", vec![Value::Double(1.0)]).unwrap_err(),
            "could not parse formatting clause: error while parsing precision: could not find end of precision specifier"
        );
    }

    #[test]
    fn costs() {
        // apiserver's cost tests count the call's own cost.
        assert_eq!(cost("lowerAscii", Some(&s("ABCDEFGHIJK")), &[], &s("")), Some(2));
        assert_eq!(cost("replace", Some(&s("abc")), &[s("a"), s("b")], &s("")), Some(1));
        assert_eq!(cost("split", Some(&s("aaaaaaaaaaaaaaaa")), &[s(",")], &s("")), Some(4));
        assert_eq!(cost("indexOf", Some(&s("abc")), &[s("b")], &Value::Int(1)), Some(0));
        assert_eq!(cost("charAt", Some(&s("abc")), &[Value::Int(1)], &s("b")), Some(1));
        assert_eq!(cost("strings.quote", None, &[s("abcdefghijk")], &s("")), Some(2));
        let l = Value::list(vec![s("aa"), s("bb")]);
        assert_eq!(cost("join", Some(&l), &[], &s("aabb")), Some(1));
        assert_eq!(scaled_cost(30, 0.1), 3);
        assert_eq!(scaled_cost(31, 0.1), 4);
    }
}
