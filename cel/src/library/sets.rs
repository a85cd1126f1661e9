//! cel-go's sets extension: `sets.contains`, `sets.equivalent`, `sets.intersects` on lists,
//! membership by CEL equality (numbers compare across types), with cel-go's runtime cost
//! (one plus the product of the sizes, doubled for `sets.equivalent`).

use super::Call;
use crate::value::{List, Value};

/// Whether `list` holds a value equal to `x`.
fn has(list: &List, x: &Value) -> bool {
    list.items.iter().any(|y| y.equals(x) == Some(true))
}

/// Whether every item of `sub` is in `list`.
fn contains_all(list: &List, sub: &List) -> bool {
    sub.items.iter().all(|x| has(list, x))
}

/// The sets extension's functions.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    let (None, [Value::List(a), Value::List(b)]) = (target, args) else {
        return None;
    };
    let result = match function {
        "sets.contains" => contains_all(a, b),
        "sets.equivalent" => contains_all(a, b) && contains_all(b, a),
        "sets.intersects" => a.items.iter().any(|x| has(b, x)),
        _ => return None,
    };
    Some(Ok(Value::Bool(result)))
}

/// cel-go's cost trackers: `1 + |a| × |b| × factor` (factor 2 for `sets.equivalent`).
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    let (None, [Value::List(a), Value::List(b)]) = (target, args) else {
        return None;
    };
    let factor = match function {
        "sets.contains" | "sets.intersects" => 1.0,
        "sets.equivalent" => 2.0,
        _ => return None,
    };
    let product = (a.items.len() as u64).saturating_mul(b.items.len() as u64);
    Some(1u64.saturating_add((product as f64 * factor) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Value {
        Value::list(v.iter().map(|&i| Value::Int(i)).collect())
    }

    fn run(f: &str, a: Value, b: Value) -> bool {
        match call(f, None, &[a, b]).unwrap().unwrap() {
            Value::Bool(b) => b,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn from_cel_go_tests() {
        assert!(run("sets.contains", ints(&[]), ints(&[])));
        assert!(!run("sets.contains", ints(&[]), ints(&[1])));
        assert!(run("sets.contains", ints(&[1, 2, 3, 4]), ints(&[2, 3])));
        assert!(run(
            "sets.contains",
            ints(&[1, 2, 3]),
            Value::list(vec![Value::Double(1.0), Value::Uint(2)])
        ));
        assert!(!run("sets.contains", ints(&[1, 2]), ints(&[2, 3])));
        assert!(run("sets.equivalent", ints(&[]), ints(&[])));
        assert!(run("sets.equivalent", ints(&[1, 2, 3]), ints(&[3, 2, 1, 1])));
        assert!(!run("sets.equivalent", ints(&[1, 2]), ints(&[1, 2, 3])));
        assert!(run("sets.intersects", ints(&[1, 2]), ints(&[2, 3])));
        assert!(!run("sets.intersects", ints(&[]), ints(&[])));
        assert!(!run("sets.intersects", ints(&[1]), ints(&[2])));
        assert!(call("sets.contains", None, &[ints(&[1]), Value::Int(1)]).is_none());
    }

    #[test]
    fn costs() {
        assert_eq!(
            cost(
                "sets.contains",
                None,
                &[ints(&[1, 2]), ints(&[1, 2, 3])],
                &Value::Bool(true)
            ),
            Some(7)
        );
        assert_eq!(
            cost(
                "sets.equivalent",
                None,
                &[ints(&[1, 2]), ints(&[1, 2, 3])],
                &Value::Bool(true)
            ),
            Some(13)
        );
        assert_eq!(
            cost("sets.intersects", None, &[ints(&[]), ints(&[1])], &Value::Bool(false)),
            Some(1)
        );
    }
}
