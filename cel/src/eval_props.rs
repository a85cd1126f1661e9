//! Property tests of the checker and the evaluator on generated rules and values: no panic,
//! the same answer twice, and the cost limit bounds the work.

use proptest::prelude::*;

use crate::eval::{Vars, evaluate};
use crate::value::Value;

/// Expressions over `self` (a list of ints), `m` (a map) and `s` (a string): literals,
/// operators, macros, library calls, nested up to a few levels.
fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("self".to_owned()),
        Just("m".to_owned()),
        Just("s".to_owned()),
        (-3i64..1000).prop_map(|i| i.to_string()),
        Just("'ab'".to_owned()),
        Just("true".to_owned()),
        Just("null".to_owned()),
        Just("1.5".to_owned()),
        Just("[1, 2, 3]".to_owned()),
        Just("{'a': 1}".to_owned()),
    ];
    leaf.prop_recursive(4, 64, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "%", "==", "<", "&&", "||", "in"])
            )
                .prop_map(|(a, b, op)| format!("({a} {op} {b})")),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
            (
                inner.clone(),
                prop::sample::select(vec!["all", "exists", "exists_one", "map", "filter"]),
                inner.clone()
            )
                .prop_map(|(l, m, body)| format!("{l}.{m}(x, {body})")),
            (
                inner.clone(),
                prop::sample::select(vec![
                    "size()",
                    "reverse()",
                    "distinct()",
                    "sort()",
                    "isSorted()",
                    "sum()",
                    "lowerAscii()",
                    "contains('a')"
                ])
            )
                .prop_map(|(t, call)| format!("{t}.{call}")),
            (inner.clone(), inner.clone()).prop_map(|(a, i)| format!("{a}[{i}]")),
            inner.clone().prop_map(|a| format!("string({a})")),
            inner.prop_map(|a| format!("!{a}")),
        ]
    })
}

fn vars(n: i64) -> Vars {
    Vars::new()
        .with("self", Value::list((0..n).map(Value::Int).collect()))
        .with("m", Value::map(vec![(Value::string("a"), Value::Int(n))]))
        .with("s", Value::string("x".repeat(n as usize)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any generated rule evaluates without panicking, deterministically, and stops near its
    /// cost limit.
    #[test]
    fn evaluation_is_total_deterministic_and_bounded(src in expr(), n in 0i64..50, limit in 1u64..5_000) {
        let Ok(e) = crate::parse(&src) else { return Ok(()) };
        let v = vars(n);
        let first = evaluate(&e, &v, limit);
        let second = evaluate(&e, &v, limit);
        prop_assert_eq!(format!("{:?}", first.result), format!("{:?}", second.result));
        prop_assert_eq!(first.cost, second.cost);
        // One step can charge at most a traversal of what it touches (small here).
        prop_assert!(first.cost <= limit + 10_000, "{} cost {} over {}", src, first.cost, limit);
        if let Err(err) = &first.result && err.cost_exceeded {
            prop_assert!(first.cost > limit);
        }
    }

    /// The checker never panics on generated rules over a declared `self`.
    #[test]
    fn checking_is_total(src in expr()) {
        let mut env = crate::check::Env::crd();
        env.declare_variable("self", crate::types::Type::List(Box::new(crate::types::Type::Int)));
        env.declare_variable("m", crate::types::Type::Map(Box::new(crate::types::Type::String), Box::new(crate::types::Type::Int)));
        env.declare_variable("s", crate::types::Type::String);
        if let Ok(e) = crate::parse(&src) {
            let _ = crate::check::check(&e, &src, &env).map(|c| crate::cost::estimate(&e, &c, None));
        }
    }
}
