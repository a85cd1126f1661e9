//! The AST validators the API server turns on (cel-go `cel/validator.go`): duration,
//! timestamp and regex literals (Go's regexp syntax, from `kstruct-regexp`), and homogeneous
//! aggregate literals (lists and maps whose elements differ in type, outside `format` calls);
//! and the regex constants cel-go compiles when it plans a program.

use crate::ast::{Expr, ExprKind, Literal};
use crate::types::Type;

use super::Checked;

/// The errors, as (offset, message), in the order cel-go reports them.
pub(super) fn validate(expr: &Expr, checked: &Checked) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    homogeneous(expr, checked, false, &mut out, true);
    homogeneous(expr, checked, false, &mut out, false);
    literals(expr, "duration", &mut out);
    literals(expr, "timestamp", &mut out);
    literals(expr, "matches", &mut out);
    out
}

/// cel-go's planner with the API server's regex optimizations (`matches`, and Kubernetes'
/// `find` and `findAll`): a call whose pattern (its second argument, counting a receiver) is
/// a string literal compiles it when the program is built, and the first pattern that does
/// not compile, in planning order (arguments before their call), fails the program with Go's
/// error (`error parsing regexp: unexpected ): `)``).
pub(super) fn regex_constants(e: &Expr) -> Result<(), String> {
    for c in children(e) {
        regex_constants(c)?;
    }
    if let ExprKind::Call { function, target, args } = &e.kind
        && matches!(function.as_str(), "matches" | "find" | "findAll")
    {
        let mut all = target.iter().map(|t| &**t).chain(args);
        if let Some(Expr {
            kind: ExprKind::Literal(Literal::String(pattern)),
            ..
        }) = all.nth(1)
        {
            kstruct_regexp::check(pattern).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

fn equivalent(a: &Type, b: &Type) -> bool {
    a.kind() == b.kind() && a.type_name() == b.type_name() && {
        let (pa, pb) = (a.parameters(), b.parameters());
        pa.len() == pb.len() && pa.iter().zip(pb).all(|(x, y)| equivalent(x, y))
    }
}

fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Literal(_) | ExprKind::Ident(_) => Vec::new(),
        ExprKind::Select { operand, .. } => vec![operand],
        ExprKind::Call { target, args, .. } => target.iter().map(|t| &**t).chain(args).collect(),
        ExprKind::List { elements, .. } => elements.iter().collect(),
        ExprKind::Map { entries } => entries.iter().flat_map(|e| [&e.key, &e.value]).collect(),
        ExprKind::Struct { fields, .. } => fields.iter().map(|f| &f.value).collect(),
        ExprKind::Comprehension(c) => vec![&c.iter_range, &c.accu_init, &c.loop_condition, &c.loop_step, &c.result],
    }
}

fn homogeneous(e: &Expr, checked: &Checked, exempt: bool, out: &mut Vec<(usize, String)>, lists: bool) {
    let ty = |e: &Expr| checked.types.get(&e.id).cloned().unwrap_or(Type::Dyn);
    let mismatch = |out: &mut Vec<(usize, String)>, at: &Expr, expected: &Type, actual: &Type| {
        out.push((at.offset, format!("expected type '{expected}' but found '{actual}'")));
    };
    if !exempt {
        match &e.kind {
            ExprKind::List {
                elements,
                optional_indices,
            } if lists => {
                let mut first: Option<Type> = None;
                for (i, el) in elements.iter().enumerate() {
                    let mut t = ty(el);
                    if optional_indices.contains(&i) {
                        t = t.optional_param().cloned().unwrap_or(t);
                    }
                    match &first {
                        None => first = Some(t),
                        Some(f) if !equivalent(f, &t) => {
                            mismatch(out, el, f, &t);
                            break;
                        }
                        _ => {}
                    }
                }
            }
            ExprKind::Map { entries } if !lists => {
                let mut first: Option<(Type, Type)> = None;
                for entry in entries {
                    let kt = ty(&entry.key);
                    let mut vt = ty(&entry.value);
                    if entry.optional {
                        vt = vt.optional_param().cloned().unwrap_or(vt);
                    }
                    match &first {
                        None => first = Some((kt, vt)),
                        Some((fk, fv)) => {
                            if !equivalent(fk, &kt) {
                                mismatch(out, &entry.key, fk, &kt);
                            }
                            if !equivalent(fv, &vt) {
                                mismatch(out, &entry.value, fv, &vt);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let exempt = exempt || matches!(&e.kind, ExprKind::Call { function, .. } if function == "format");
    for c in children(e) {
        homogeneous(c, checked, exempt, out, lists);
    }
}

fn literals(e: &Expr, function: &str, out: &mut Vec<(usize, String)>) {
    if let ExprKind::Call { function: f, args, .. } = &e.kind
        && f == function
        && let Some(Expr {
            kind: ExprKind::Literal(l),
            offset,
            ..
        }) = args.first()
    {
        let ok = match (function, l) {
            ("duration", Literal::String(s)) => parse_duration(s).is_some(),
            // cel-go checks the first argument (not counting a receiver): the pattern of
            // `s.matches(re)`, the string of `matches(s, re)`.
            ("matches", Literal::String(s)) => kstruct_regexp::check(s).is_ok(),
            ("timestamp", Literal::String(s)) => valid_timestamp(s),
            ("timestamp", Literal::Int(i)) => (MIN_UNIX..=MAX_UNIX).contains(i),
            _ => true,
        };
        if !ok {
            out.push((*offset, format!("invalid {function} argument")));
        }
    }
    for c in children(e) {
        literals(c, function, out);
    }
}

/// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds (CEL's timestamp range).
const MIN_UNIX: i64 = -62_135_596_800;
const MAX_UNIX: i64 = 253_402_300_799;

/// Go's `time.ParseDuration`: nanoseconds, or `None`.
pub(crate) fn parse_duration(s: &str) -> Option<i64> {
    let mut rest = s;
    let mut neg = false;
    if let Some(r) = rest.strip_prefix('-') {
        neg = true;
        rest = r;
    } else if let Some(r) = rest.strip_prefix('+') {
        rest = r;
    }
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let int_part = &rest[..int_len];
        rest = &rest[int_len..];
        let mut frac_part = "";
        if let Some(r) = rest.strip_prefix('.') {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            frac_part = &r[..n];
            rest = &r[n..];
            if int_len == 0 && n == 0 {
                return None;
            }
        } else if int_len == 0 {
            return None;
        }
        let unit_len = rest
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit: u64 = match &rest[..unit_len] {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        rest = &rest[unit_len..];
        let mut v: u64 = 0;
        for d in int_part.bytes() {
            v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        }
        let mut v = v.checked_mul(unit)?;
        if !frac_part.is_empty() {
            let mut scale = 1.0f64;
            let mut f: u64 = 0;
            for d in frac_part.bytes() {
                if f > (1 << 62) / 10 {
                    break;
                }
                f = f * 10 + u64::from(d - b'0');
                scale *= 10.0;
            }
            v = v.checked_add((f as f64 * (unit as f64 / scale)) as u64)?;
        }
        total = total.checked_add(v)?;
        if total > 1 << 63 {
            return None;
        }
    }
    if neg {
        Some(0i64.checked_sub_unsigned(total)?)
    } else if total > i64::MAX as u64 {
        None
    } else {
        Some(total as i64)
    }
}

/// Go's `time.Parse(time.RFC3339, s)` succeeding within CEL's timestamp range.
fn valid_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let d = b.get(r)?;
        if !d.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(d).ok()?.parse().ok()
    };
    let parse = || -> Option<()> {
        let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
        if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || b.get(10) != Some(&b'T') {
            return None;
        }
        let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
        if b.get(13) != Some(&b':') || b.get(16) != Some(&b':') {
            return None;
        }
        let mut i = 19;
        if b.get(i) == Some(&b'.') {
            let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if n == 0 {
                return None;
            }
            i += 1 + n;
        }
        let mut offset_minutes: i64 = 0;
        match b.get(i) {
            Some(b'Z') if i + 1 == b.len() => {}
            Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
                let (h, m) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
                if h > 23 || m > 59 {
                    return None;
                }
                offset_minutes = i64::from(h * 60 + m) * if sign == b'-' { -1 } else { 1 };
            }
            _ => return None,
        }
        let leap = |y: u32| y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400));
        let days_in = [
            31,
            if leap(year) { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ];
        if !(1..=12).contains(&month)
            || day < 1
            || day > days_in[month as usize - 1]
            || hour > 23
            || minute > 59
            || second > 59
        {
            return None;
        }
        // Days since 1970-01-01 (civil from days, Howard Hinnant's algorithm).
        let (y, m) = if month <= 2 {
            (i64::from(year) - 1, month + 9)
        } else {
            (i64::from(year), month - 3)
        };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * i64::from(m) + 2) / 5 + i64::from(day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        let secs =
            days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second) - offset_minutes * 60;
        (MIN_UNIX..=MAX_UNIX).contains(&secs).then_some(())
    };
    parse().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1h"), Some(3_600_000_000_000));
        assert_eq!(parse_duration("1.5s"), Some(1_500_000_000));
        assert_eq!(parse_duration("-1m30s"), Some(-90_000_000_000));
        assert_eq!(parse_duration("0"), Some(0));
        assert_eq!(parse_duration(""), None);
        assert_eq!(parse_duration("1"), None);
        assert_eq!(parse_duration("1d"), None);
        assert_eq!(parse_duration("3000000h"), None);
    }

    #[test]
    fn timestamps() {
        assert!(valid_timestamp("2023-01-01T00:00:00Z"));
        assert!(valid_timestamp("2023-01-01T00:00:00.123+05:30"));
        assert!(!valid_timestamp("2023-02-30T00:00:00Z"));
        assert!(!valid_timestamp("2023-01-01"));
        assert!(!valid_timestamp("0000-01-01T00:00:00Z"));
    }
}
