//! CEL's standard library, as cel-go evaluates it: operators (with overflow and division
//! errors), comparisons across numeric types (the API server enables cross-type numeric
//! comparisons), conversions, `size`, the string predicates, the optional type's functions
//! and the two-variable comprehensions' map insertion.

use std::cmp::Ordering;
use std::sync::Arc;

use super::Call;
use super::strings::go_quote;
use crate::eval::{concat_lists, format_double, map_insert};
use crate::value::{EvalError, Number, Timestamp, Value};

fn err(message: impl Into<String>) -> Call {
    Some(Err(EvalError::new(message)))
}

fn ok(v: Value) -> Call {
    Some(Ok(v))
}

/// The receiver and arguments as one list: `x.f(a)` and `f(x, a)` are the same overload for
/// most standard functions.
fn operands<'a>(target: Option<&'a Value>, args: &'a [Value]) -> Vec<&'a Value> {
    target.into_iter().chain(args).collect()
}

pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    let all = operands(target, args);
    match (function, all.as_slice()) {
        ("_==_", [a, b]) => ok(Value::Bool(a.equals(b) == Some(true))),
        ("_!=_", [a, b]) => ok(Value::Bool(a.equals(b) != Some(true))),
        ("!_", [Value::Bool(b)]) => ok(Value::Bool(!b)),
        ("-_", [v]) => negate(v),
        ("_+_", [a, b]) => add(a, b),
        ("_-_", [a, b]) => subtract(a, b),
        ("_*_", [a, b]) => multiply(a, b),
        ("_/_", [a, b]) => divide(a, b),
        ("_%_", [a, b]) => modulo(a, b),
        ("_<_" | "_<=_" | "_>_" | "_>=_", [a, b]) => compare(function, a, b),
        ("@in", [x, container]) => contained(x, container),
        ("size", [v]) => size(v).map(|n| Ok(Value::Int(n))),
        ("contains", [Value::String(s), Value::String(sub)]) => ok(Value::Bool(s.contains(&**sub))),
        ("startsWith", [Value::String(s), Value::String(p)]) => ok(Value::Bool(s.starts_with(&**p))),
        ("endsWith", [Value::String(s), Value::String(p)]) => ok(Value::Bool(s.ends_with(&**p))),
        ("matches", [Value::String(s), Value::String(re)]) => {
            Some(super::regex::compile(re).map(|re| Value::Bool(re.is_match(s))))
        }
        ("int", [v]) if target.is_none() => to_int(v),
        ("uint", [v]) if target.is_none() => to_uint(v),
        ("double", [v]) if target.is_none() => to_double(v),
        ("string", [v]) if target.is_none() => to_string(v),
        ("bytes", [Value::Bytes(b)]) if target.is_none() => ok(Value::Bytes(b.clone())),
        ("bytes", [Value::String(s)]) if target.is_none() => ok(Value::Bytes(Arc::from(s.as_bytes()))),
        ("bool", [v]) if target.is_none() => to_bool(v),
        ("dyn", [v]) if target.is_none() => ok((*v).clone()),
        ("type", [v]) if target.is_none() => ok(Value::Type(Arc::from(v.type_name()))),
        ("optional.of", [v]) if target.is_none() => ok(Value::Optional(Some(Arc::new((*v).clone())))),
        ("optional.none", []) => ok(Value::Optional(None)),
        ("optional.ofNonZeroValue", [v]) if target.is_none() => {
            ok(Value::Optional((!is_zero(v)).then(|| Arc::new((*v).clone()))))
        }
        ("hasValue", [Value::Optional(o)]) if target.is_some() => ok(Value::Bool(o.is_some())),
        ("value", [Value::Optional(o)]) if target.is_some() => match o {
            Some(v) => ok((**v).clone()),
            None => err("optional.none() dereference"),
        },
        ("or", [Value::Optional(a), Value::Optional(b)]) if target.is_some() => {
            ok(Value::Optional(a.clone().or_else(|| b.clone())))
        }
        ("orValue", [Value::Optional(a), b]) if target.is_some() => ok(match a {
            Some(v) => (**v).clone(),
            None => (*b).clone(),
        }),
        ("cel.@mapInsert", [Value::Map(m), k, v]) => Some(map_insert(m, k, v)),
        ("cel.@mapInsert", [Value::Map(m), Value::Map(other)]) => {
            let mut out = Value::Map(m.clone());
            for (k, v) in &other.entries {
                let Value::Map(cur) = &out else { break };
                match map_insert(cur, k, v) {
                    Ok(next) => out = next,
                    Err(e) => return Some(Err(e)),
                }
            }
            ok(out)
        }
        _ => None,
    }
}

/// cel-go's runtime costs of the standard functions (`CostTracker.costCall`): string and
/// bytes operations are charged a tenth of a unit per character or byte they traverse,
/// rounded up (so an empty operand can cost nothing), `==` and `!=` by the smaller operand's
/// size, `in` of a list by its length, everything else one unit. Kubernetes' estimator takes
/// `==` over with one unit when the left operand is one of its library types.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    let all = operands(target, args);
    let tenth = |n: u64| n.div_ceil(10);
    Some(match (function, all.as_slice()) {
        ("_==_", [Value::Opaque(_), _]) => 1,
        ("_==_" | "_!=_", [a, b]) => tenth(actual_size(a).min(actual_size(b))),
        (
            "_<_" | "_<=_" | "_>_" | "_>=_",
            [a @ Value::String(_), b @ Value::String(_)] | [a @ Value::Bytes(_), b @ Value::Bytes(_)],
        ) => tenth(actual_size(a).min(actual_size(b))),
        ("_+_", [a @ Value::String(_), b @ Value::String(_)] | [a @ Value::Bytes(_), b @ Value::Bytes(_)]) => {
            tenth(actual_size(a).saturating_add(actual_size(b)))
        }
        ("contains", [a @ Value::String(_), b @ Value::String(_)]) => {
            tenth(actual_size(a)).saturating_mul(tenth(actual_size(b)))
        }
        // The receiver is the first argument of cel-go's call: the string searched.
        ("startsWith" | "endsWith", [a @ Value::String(_), Value::String(_)]) => tenth(actual_size(a)),
        ("matches", [a @ Value::String(_), re @ Value::String(_)]) => {
            let str_cost = tenth(actual_size(a).saturating_add(1));
            str_cost.saturating_mul(actual_size(re).div_ceil(4))
        }
        ("@in", [_, l @ Value::List(_)]) => actual_size(l),
        ("bytes", [s @ Value::String(_)]) | ("string", [s @ Value::Bytes(_)]) => tenth(actual_size(s)),
        _ => return None,
    })
}

/// cel-go's `actualSize`: the size of a string (in characters), bytes, a list or a map, of
/// an optional's value, and 1 for anything else.
pub(crate) fn actual_size(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.chars().count() as u64,
        Value::Bytes(b) => b.len() as u64,
        Value::List(l) => l.items.len() as u64,
        Value::Map(m) => m.entries.len() as u64,
        Value::Optional(Some(inner)) => actual_size(inner),
        _ => 1,
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Uint(u) => *u == 0,
        Value::Double(d) => *d == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::List(l) => l.items.is_empty(),
        Value::Map(m) => m.entries.is_empty(),
        Value::Duration(d) => *d == 0,
        // Go's zero time, 0001-01-01T00:00:00Z.
        Value::Timestamp(t) => t.seconds == super::time::MIN_SECONDS && t.nanos == 0,
        Value::Optional(o) => o.is_none(),
        Value::Type(_) | Value::Opaque(_) => false,
    }
}

fn size(v: &Value) -> Option<i64> {
    let n = match v {
        Value::String(s) => s.chars().count(),
        Value::Bytes(b) => b.len(),
        Value::List(l) => l.items.len(),
        Value::Map(m) => m.entries.len(),
        _ => return None,
    };
    Some(i64::try_from(n).unwrap_or(i64::MAX))
}

fn negate(v: &Value) -> Call {
    match *v {
        Value::Int(i) => match i.checked_neg() {
            Some(n) => ok(Value::Int(n)),
            None => err("integer overflow"),
        },
        Value::Double(d) => ok(Value::Double(-d)),
        Value::Duration(d) => match d.checked_neg() {
            Some(n) => ok(Value::Duration(n)),
            None => err("integer overflow"),
        },
        _ => None,
    }
}

fn int_result(r: Option<i64>) -> Call {
    match r {
        Some(n) => ok(Value::Int(n)),
        None => err("integer overflow"),
    }
}

fn uint_result(r: Option<u64>) -> Call {
    match r {
        Some(n) => ok(Value::Uint(n)),
        None => err("unsigned integer overflow"),
    }
}

fn add(a: &Value, b: &Value) -> Call {
    use Value as V;
    match (a, b) {
        (V::Int(x), V::Int(y)) => int_result(x.checked_add(*y)),
        (V::Uint(x), V::Uint(y)) => uint_result(x.checked_add(*y)),
        (V::Double(x), V::Double(y)) => ok(V::Double(x + y)),
        (V::String(x), V::String(y)) => ok(V::string(format!("{x}{y}"))),
        (V::Bytes(x), V::Bytes(y)) => ok(V::Bytes([&x[..], &y[..]].concat().into())),
        (V::List(x), V::List(y)) => ok(concat_lists(x, y)),
        (V::Duration(x), V::Duration(y)) => match x.checked_add(*y) {
            Some(d) => ok(V::Duration(d)),
            None => err("integer overflow"),
        },
        (V::Timestamp(t), V::Duration(d)) | (V::Duration(d), V::Timestamp(t)) => shift(*t, *d),
        _ => None,
    }
}

fn subtract(a: &Value, b: &Value) -> Call {
    use Value as V;
    match (a, b) {
        (V::Int(x), V::Int(y)) => int_result(x.checked_sub(*y)),
        (V::Uint(x), V::Uint(y)) => uint_result(x.checked_sub(*y)),
        (V::Double(x), V::Double(y)) => ok(V::Double(x - y)),
        (V::Duration(x), V::Duration(y)) => match x.checked_sub(*y) {
            Some(d) => ok(V::Duration(d)),
            None => err("integer overflow"),
        },
        (V::Timestamp(t), V::Duration(d)) => match d.checked_neg() {
            Some(d) => shift(*t, d),
            None => err("integer overflow"),
        },
        (V::Timestamp(x), V::Timestamp(y)) => Some(super::time::timestamp_difference(*x, *y).map(V::Duration)),
        _ => None,
    }
}

/// A timestamp moved by a duration, within CEL's timestamp range.
fn shift(t: Timestamp, d: i64) -> Call {
    Some(super::time::add_duration(t, d).map(Value::Timestamp))
}

fn multiply(a: &Value, b: &Value) -> Call {
    use Value as V;
    match (a, b) {
        (V::Int(x), V::Int(y)) => int_result(x.checked_mul(*y)),
        (V::Uint(x), V::Uint(y)) => uint_result(x.checked_mul(*y)),
        (V::Double(x), V::Double(y)) => ok(V::Double(x * y)),
        _ => None,
    }
}

fn divide(a: &Value, b: &Value) -> Call {
    use Value as V;
    match (a, b) {
        (V::Int(_), V::Int(0)) | (V::Uint(_), V::Uint(0)) => err("division by zero"),
        (V::Int(x), V::Int(y)) => int_result(x.checked_div(*y)),
        (V::Uint(x), V::Uint(y)) => uint_result(x.checked_div(*y)),
        (V::Double(x), V::Double(y)) => ok(V::Double(x / y)),
        _ => None,
    }
}

fn modulo(a: &Value, b: &Value) -> Call {
    use Value as V;
    match (a, b) {
        (V::Int(_), V::Int(0)) | (V::Uint(_), V::Uint(0)) => err("modulus by zero"),
        (V::Int(x), V::Int(y)) => int_result(x.checked_rem(*y)),
        (V::Uint(x), V::Uint(y)) => uint_result(x.checked_rem(*y)),
        _ => None,
    }
}

fn compare(function: &str, a: &Value, b: &Value) -> Call {
    use Value as V;
    let order = match (a, b) {
        (V::String(x), V::String(y)) => Some(x.cmp(y)),
        (V::Bytes(x), V::Bytes(y)) => Some(x.cmp(y)),
        (V::Bool(x), V::Bool(y)) => Some(x.cmp(y)),
        (V::Timestamp(x), V::Timestamp(y)) => Some(x.cmp(y)),
        (V::Duration(x), V::Duration(y)) => Some(x.cmp(y)),
        _ => match (a.as_number(), b.as_number()) {
            (Some(x), Some(y)) => Number::compare(x, y),
            _ => return None,
        },
    };
    let result = match order {
        // NaN compares false with everything.
        None => false,
        Some(o) => match function {
            "_<_" => o == Ordering::Less,
            "_<=_" => o != Ordering::Greater,
            "_>_" => o == Ordering::Greater,
            _ => o != Ordering::Less,
        },
    };
    ok(Value::Bool(result))
}

fn contained(x: &Value, container: &Value) -> Call {
    match container {
        Value::List(l) => ok(Value::Bool(l.items.iter().any(|y| y.equals(x) == Some(true)))),
        Value::Map(m) => ok(Value::Bool(m.get(x).is_some())),
        _ => None,
    }
}

fn to_int(v: &Value) -> Call {
    match *v {
        Value::Int(i) => ok(Value::Int(i)),
        Value::Uint(u) => match i64::try_from(u) {
            Ok(i) => ok(Value::Int(i)),
            Err(_) => err("integer overflow"),
        },
        Value::Double(d) => {
            // cel-go refuses doubles outside (-2^63, 2^63) and NaN.
            if d.is_nan() || d <= -9_223_372_036_854_775_808.0 || d >= 9_223_372_036_854_775_807.0 {
                err("integer overflow")
            } else {
                ok(Value::Int(d as i64))
            }
        }
        Value::String(ref s) => match s.parse::<i64>() {
            Ok(i) if !s.starts_with('+') || s.len() > 1 => ok(Value::Int(i)),
            _ => err(format!(
                "strconv.ParseInt: parsing {}: {}",
                go_quote(s),
                if s.trim_start_matches(['-', '+']).chars().all(|c| c.is_ascii_digit()) && !s.is_empty() {
                    "value out of range"
                } else {
                    "invalid syntax"
                }
            )),
        },
        Value::Timestamp(t) => ok(Value::Int(t.seconds)),
        Value::Duration(d) => ok(Value::Int(d)),
        _ => None,
    }
}

fn to_uint(v: &Value) -> Call {
    match *v {
        Value::Uint(u) => ok(Value::Uint(u)),
        Value::Int(i) => match u64::try_from(i) {
            Ok(u) => ok(Value::Uint(u)),
            Err(_) => err("unsigned integer overflow"),
        },
        Value::Double(d) => {
            if d.is_nan() || !(0.0..18_446_744_073_709_551_615.0).contains(&d) {
                err("unsigned integer overflow")
            } else {
                ok(Value::Uint(d as u64))
            }
        }
        Value::String(ref s) => match s.parse::<u64>() {
            Ok(u) if !s.starts_with('+') => ok(Value::Uint(u)),
            _ => err(format!(
                "strconv.ParseUint: parsing {}: {}",
                go_quote(s),
                if s.chars().all(|c| c.is_ascii_digit()) && !s.is_empty() {
                    "value out of range"
                } else {
                    "invalid syntax"
                }
            )),
        },
        _ => None,
    }
}

fn to_double(v: &Value) -> Call {
    match *v {
        Value::Double(d) => ok(Value::Double(d)),
        Value::Int(i) => ok(Value::Double(i as f64)),
        Value::Uint(u) => ok(Value::Double(u as f64)),
        Value::String(ref s) => match parse_go_float(s) {
            Some(d) => ok(Value::Double(d)),
            None => err(format!("strconv.ParseFloat: parsing {}: invalid syntax", go_quote(s))),
        },
        _ => None,
    }
}

/// Go's `strconv.ParseFloat` for the forms people write (`1`, `1.5`, `-1e3`, `Inf`, `NaN`).
fn parse_go_float(s: &str) -> Option<f64> {
    let lower = s.to_ascii_lowercase();
    match lower.trim_start_matches(['+', '-']) {
        "inf" | "infinity" | "nan" => return s.parse::<f64>().ok(),
        _ => {}
    }
    if s.is_empty() || s.contains(['_', ' ']) {
        return None;
    }
    s.parse::<f64>().ok()
}

fn to_string(v: &Value) -> Call {
    let s = match v {
        Value::String(s) => return ok(Value::String(s.clone())),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => format_double(*d),
        Value::Bool(b) => b.to_string(),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => s.to_owned(),
            Err(_) => return err("invalid UTF-8 in bytes, cannot convert to string"),
        },
        Value::Timestamp(t) => super::time::timestamp_to_string(*t),
        Value::Duration(d) => super::time::duration_to_string(*d),
        Value::Opaque(o) => super::opaque_to_string(&**o)?,
        Value::Type(t) => t.to_string(),
        _ => return None,
    };
    ok(Value::string(s))
}

fn to_bool(v: &Value) -> Call {
    match v {
        Value::Bool(b) => ok(Value::Bool(*b)),
        Value::String(s) => match &**s {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => ok(Value::Bool(true)),
            "0" | "f" | "F" | "FALSE" | "false" | "False" => ok(Value::Bool(false)),
            other => err(format!("type conversion error from 'string' to 'bool': {other}")),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::string(v)
    }

    #[test]
    fn arithmetic_errors_are_cel_gos() {
        let e = |c: Call| c.unwrap().unwrap_err().message;
        assert_eq!(
            e(call("_+_", None, &[Value::Int(i64::MAX), Value::Int(1)])),
            "integer overflow"
        );
        assert_eq!(
            e(call("_-_", None, &[Value::Uint(0), Value::Uint(1)])),
            "unsigned integer overflow"
        );
        assert_eq!(
            e(call("_/_", None, &[Value::Int(1), Value::Int(0)])),
            "division by zero"
        );
        assert_eq!(e(call("_%_", None, &[Value::Int(1), Value::Int(0)])), "modulus by zero");
        assert_eq!(
            e(call("_/_", None, &[Value::Int(i64::MIN), Value::Int(-1)])),
            "integer overflow"
        );
        assert_eq!(e(call("-_", None, &[Value::Int(i64::MIN)])), "integer overflow");
        assert_eq!(
            e(call("int", None, &[s("abc")])),
            "strconv.ParseInt: parsing \"abc\": invalid syntax"
        );
    }

    #[test]
    fn numbers_compare_across_types() {
        let t = |f: &str, a: Value, b: Value| matches!(call(f, None, &[a, b]), Some(Ok(Value::Bool(true))));
        assert!(t("_<_", Value::Int(-1), Value::Uint(0)));
        assert!(t("_==_", Value::Int(1), Value::Double(1.0)));
        assert!(t("_>_", Value::Double(1.5), Value::Int(1)));
        assert!(!t("_<_", Value::Double(f64::NAN), Value::Int(1)));
        assert!(t("_!=_", Value::Int(1), s("1")));
    }

    #[test]
    fn strings_count_code_points() {
        assert!(matches!(call("size", Some(&s("héllo")), &[]), Some(Ok(Value::Int(5)))));
        assert!(matches!(call("size", None, &[s("héllo")]), Some(Ok(Value::Int(5)))));
        assert!(matches!(
            call("string", None, &[Value::Double(1e6)]),
            Some(Ok(Value::String(x))) if &*x == "1e+06"
        ));
    }
}
