//! go-yaml v2's implicit and explicit tag resolution for scalars
//! (`resolve.go`), including the Go `strconv` parsing rules it relies on.

use super::value::GoVal;

pub(super) const STR_TAG: &str = "tag:yaml.org,2002:str";
pub(super) const BOOL_TAG: &str = "tag:yaml.org,2002:bool";
pub(super) const INT_TAG: &str = "tag:yaml.org,2002:int";
pub(super) const FLOAT_TAG: &str = "tag:yaml.org,2002:float";
pub(super) const NULL_TAG: &str = "tag:yaml.org,2002:null";
pub(super) const TIMESTAMP_TAG: &str = "tag:yaml.org,2002:timestamp";
pub(super) const BINARY_TAG: &str = "tag:yaml.org,2002:binary";
pub(super) const MERGE_TAG: &str = "tag:yaml.org,2002:merge";

const LONG_TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// `shortTag`: `tag:yaml.org,2002:x` is printed as `!!x` in messages.
pub(super) fn short_tag(tag: &str) -> String {
    match tag.strip_prefix(LONG_TAG_PREFIX) {
        Some(rest) => format!("!!{rest}"),
        None => tag.to_string(),
    }
}

/// The value of a scalar node decoded into `interface{}` (`decoder.scalar`).
///
/// `tag` is the node's full tag (empty when it has none) and `implicit` is
/// libyaml's `plain_implicit`. The error is the message after `yaml: `.
pub(super) fn scalar_value(tag: &str, implicit: bool, value: &str) -> Result<GoVal, String> {
    if tag.is_empty() && !implicit {
        return Ok(GoVal::Str(value.to_string()));
    }
    let (rtag, resolved) = resolve(tag, value)?;
    if rtag == BINARY_TAG {
        let GoVal::Str(text) = &resolved else {
            return Ok(resolved);
        };
        return match decode_base64(text) {
            Some(bytes) => Ok(GoVal::Str(go_lossy_utf8(&bytes))),
            None => Err("!!binary value contains invalid base64 data".to_string()),
        };
    }
    // Timestamps decoded into interface{} stay strings in v2, for
    // backward compatibility.
    if rtag == TIMESTAMP_TAG {
        return Ok(GoVal::Str(value.to_string()));
    }
    Ok(resolved)
}

fn resolvable(tag: &str) -> bool {
    matches!(
        tag,
        "" | STR_TAG | BOOL_TAG | INT_TAG | FLOAT_TAG | NULL_TAG | TIMESTAMP_TAG
    )
}

/// `resolve(tag, in)`: the resolved tag and value, or the failure text of
/// its deferred tag check.
pub(super) fn resolve(tag: &str, input: &str) -> Result<(String, GoVal), String> {
    if !resolvable(tag) {
        return Ok((tag.to_string(), GoVal::Str(input.to_string())));
    }
    let (rtag, out) = resolve_untyped(tag, input);
    if tag.is_empty() || tag == rtag || tag == STR_TAG || tag == BINARY_TAG {
        return Ok((rtag.to_string(), out));
    }
    // Only int/int64 widen to float; a uint64 does not (v2 lacks that case).
    if let (FLOAT_TAG, INT_TAG, GoVal::Int(i)) = (tag, rtag, &out) {
        return Ok((FLOAT_TAG.to_string(), GoVal::Float(*i as f64)));
    }
    Err(format!(
        "cannot decode {} `{}` as a {}",
        short_tag(rtag),
        input,
        short_tag(tag)
    ))
}

fn hint(b: u8) -> u8 {
    match b {
        b'+' | b'-' => b'S',
        b'0'..=b'9' => b'D',
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => b'M',
        b'.' => b'.',
        _ => 0,
    }
}

fn lookup(input: &str) -> Option<(&'static str, GoVal)> {
    Some(match input {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            (BOOL_TAG, GoVal::Bool(true))
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            (BOOL_TAG, GoVal::Bool(false))
        }
        "" | "~" | "null" | "Null" | "NULL" => (NULL_TAG, GoVal::Null),
        ".nan" | ".NaN" | ".NAN" => (FLOAT_TAG, GoVal::Float(f64::NAN)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => (FLOAT_TAG, GoVal::Float(f64::INFINITY)),
        "-.inf" | "-.Inf" | "-.INF" => (FLOAT_TAG, GoVal::Float(f64::NEG_INFINITY)),
        "<<" => (MERGE_TAG, GoVal::Str("<<".to_string())),
        _ => return None,
    })
}

fn resolve_untyped(tag: &str, input: &str) -> (&'static str, GoVal) {
    let h = input.as_bytes().first().map_or(b'N', |&b| hint(b));
    if h != 0 && tag != STR_TAG && tag != BINARY_TAG {
        if let Some(found) = lookup(input) {
            return found;
        }
        match h {
            b'.' => {
                if let Some(f) = go_parse_float(input) {
                    return (FLOAT_TAG, GoVal::Float(f));
                }
            }
            b'D' | b'S' => {
                if (tag.is_empty() || tag == TIMESTAMP_TAG) && is_timestamp(input) {
                    return (TIMESTAMP_TAG, GoVal::Str(input.to_string()));
                }
                let plain: String = input.chars().filter(|&c| c != '_').collect();
                if let Some(i) = go_parse_int(&plain) {
                    return (INT_TAG, GoVal::Int(i));
                }
                if let Ok(u) = go_parse_uint(&plain) {
                    return (INT_TAG, GoVal::Uint(u));
                }
                if yaml_style_float(&plain)
                    && let Some(f) = parse_finite(&plain)
                {
                    return (FLOAT_TAG, GoVal::Float(f));
                }
                // resolve.go's extra 0b/-0b branches can never succeed where
                // base-0 ParseInt/ParseUint above failed, so they are omitted.
            }
            _ => {}
        }
    }
    (STR_TAG, GoVal::Str(input.to_string()))
}

#[derive(Debug, PartialEq, Eq)]
enum NumErr {
    Syntax,
    Range,
}

/// `strconv.ParseUint(s, 0, 64)` for input without underscores.
fn go_parse_uint(s: &str) -> Result<u64, NumErr> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err(NumErr::Syntax);
    }
    let (base, digits): (u64, &[u8]) = if b[0] == b'0' {
        let second = b.get(1).map(u8::to_ascii_lowercase);
        match second {
            Some(b'b') if b.len() >= 3 => (2, &b[2..]),
            Some(b'o') if b.len() >= 3 => (8, &b[2..]),
            Some(b'x') if b.len() >= 3 => (16, &b[2..]),
            _ => (8, &b[1..]),
        }
    } else {
        (10, b)
    };
    let mut n: u64 = 0;
    for &c in digits {
        let d = match c {
            b'0'..=b'9' => u64::from(c - b'0'),
            b'a'..=b'z' | b'A'..=b'Z' => u64::from(c.to_ascii_lowercase() - b'a') + 10,
            _ => return Err(NumErr::Syntax),
        };
        if d >= base {
            return Err(NumErr::Syntax);
        }
        n = n
            .checked_mul(base)
            .and_then(|n| n.checked_add(d))
            .ok_or(NumErr::Range)?;
    }
    Ok(n)
}

/// `strconv.ParseInt(s, 0, 64)` for input without underscores.
fn go_parse_int(s: &str) -> Option<i64> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let un = go_parse_uint(rest).ok()?;
    if neg {
        if un > 1 << 63 {
            None
        } else {
            Some((un as i64).wrapping_neg())
        }
    } else {
        i64::try_from(un).ok()
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Parses a syntactically valid decimal float; Go's `ParseFloat` reports
/// overflow as an error, so infinities count as failures.
fn parse_finite(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// `strconv.ParseFloat(s, 64)` for strings that start with `.` (the only
/// ones resolve.go hands to it unmodified): decimal digits with one point,
/// an optional exponent, and Go's rules for `_` separators.
fn go_parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut saw_dot = false;
    let mut saw_digits = false;
    let mut underscores = false;
    while i < b.len() {
        match b[i] {
            b'_' => underscores = true,
            b'.' if !saw_dot => saw_dot = true,
            b'0'..=b'9' => saw_digits = true,
            _ => break,
        }
        i += 1;
    }
    if !saw_digits {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if i >= b.len() || !b[i].is_ascii_digit() {
            return None;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            underscores |= b[i] == b'_';
            i += 1;
        }
    }
    if i != b.len() || (underscores && !underscore_ok(s)) {
        return None;
    }
    let plain: String = s.chars().filter(|&c| c != '_').collect();
    parse_finite(&plain)
}

/// Go's `underscoreOK`: `_` may only sit between digits (or after a base
/// prefix).
fn underscore_ok(s: &str) -> bool {
    let mut b = s.as_bytes();
    let mut saw = b'^';
    let mut i = 0;
    if let Some(b'+' | b'-') = b.first() {
        b = &b[1..];
    }
    let mut hex = false;
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1].to_ascii_lowercase(), b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = b[1].eq_ignore_ascii_case(&b'x');
    }
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

/// `parseTimestamp`: `time.Parse` with the layouts go-yaml v2 allows.
pub(super) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    [b'T', b't', b' ', 0].iter().any(|&sep| parse_layout(b, sep))
}

/// `getnum(s, false)`: one or two digits.
fn getnum(b: &[u8], i: &mut usize) -> Option<u32> {
    let d0 = *b.get(*i).filter(|c| c.is_ascii_digit())?;
    *i += 1;
    let mut n = u32::from(d0 - b'0');
    if let Some(&d1) = b.get(*i).filter(|c| c.is_ascii_digit()) {
        *i += 1;
        n = n * 10 + u32::from(d1 - b'0');
    }
    Some(n)
}

fn expect(b: &[u8], i: &mut usize, c: u8) -> Option<()> {
    (b.get(*i) == Some(&c)).then(|| *i += 1)
}

/// One of `2006-1-2T15:4:5.999999999Z07:00` (`sep` `T` or `t`),
/// `2006-1-2 15:4:5.999999999` (`sep` space) or `2006-1-2` (`sep` 0).
fn parse_layout(b: &[u8], sep: u8) -> bool {
    let run = || -> Option<()> {
        let year: u32 = std::str::from_utf8(&b[..4]).ok()?.parse().ok()?;
        let mut i = 5;
        let month = getnum(b, &mut i)?;
        expect(b, &mut i, b'-')?;
        let day = getnum(b, &mut i)?;
        if !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) {
            return None;
        }
        if sep == 0 {
            return (i == b.len()).then_some(());
        }
        expect(b, &mut i, sep)?;
        let hour = getnum(b, &mut i)?;
        expect(b, &mut i, b':')?;
        let minute = getnum(b, &mut i)?;
        expect(b, &mut i, b':')?;
        let second = getnum(b, &mut i)?;
        if hour >= 24 || minute >= 60 || second >= 60 {
            return None;
        }
        if i + 1 < b.len() && matches!(b[i], b'.' | b',') && b[i + 1].is_ascii_digit() {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        if sep != b' ' {
            if b.get(i) == Some(&b'Z') {
                i += 1;
            } else {
                let z = b.get(i..i + 6)?;
                let digits = |r: &[u8]| r.iter().all(u8::is_ascii_digit);
                if !matches!(z[0], b'+' | b'-') || z[3] != b':' || !digits(&z[1..3]) || !digits(&z[4..6]) {
                    return None;
                }
                let zh = u32::from(z[1] - b'0') * 10 + u32::from(z[2] - b'0');
                let zm = u32::from(z[4] - b'0') * 10 + u32::from(z[5] - b'0');
                if zh > 24 || zm > 60 {
                    return None;
                }
                i += 6;
            }
        }
        (i == b.len()).then_some(())
    };
    run().is_some()
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `base64.StdEncoding.DecodeString`: padded standard alphabet, `\r` and
/// `\n` ignored, non-zero trailing bits tolerated.
fn decode_base64(s: &str) -> Option<Vec<u8>> {
    fn val(c: u8) -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }
    let chars: Vec<u8> = s.bytes().filter(|&c| c != b'\r' && c != b'\n').collect();
    if !chars.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(chars.len() / 4 * 3);
    let quanta = chars.len() / 4;
    for (qi, q) in chars.chunks(4).enumerate() {
        let pad = q.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && qi + 1 != quanta) {
            return None;
        }
        let mut n = 0u32;
        for &c in &q[..4 - pad] {
            n = (n << 6) | val(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

/// How Go's `encoding/json` writes a string holding arbitrary bytes: every
/// byte that does not start a valid UTF-8 sequence becomes U+FFFD.
pub(super) fn go_lossy_utf8(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                out.push('\u{FFFD}');
                bytes = &rest[1..];
            }
        }
    }
}
