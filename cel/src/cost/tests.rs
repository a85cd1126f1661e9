//! apiextensions compilation_test.go `TestCostEstimation` cases (rule, schema, expected
//! cost computed from the schema, and with the size limit set). Upstream's `has()` cases expect
//! 0, which its test harness reads as "not checked"; they are left out.

use super::*;
use crate::check::tests::{S, arr, ty};
use crate::check::{Env, RuleKind, compile_rule};
use crate::schema::{rule_variables, schema_decl_type};

fn cost_of(s: &S, rule: &str) -> u64 {
    let decl = schema_decl_type(s, false).expect("a type");
    let vars = rule_variables(&decl, "selfType0", false);
    let env = Env::for_rule(&vars);
    let (expr, checked) = compile_rule(rule, &env, RuleKind::Rule).unwrap_or_else(|e| panic!("{rule}: {e}"));
    estimate(&expr, &checked, Some(&vars.scoped)).max
}

fn array(item: &'static str, max: Option<i64>) -> S {
    S {
        max_items: max,
        ..arr(ty(item))
    }
}

fn map(value: &'static str, max: Option<i64>) -> S {
    S {
        t: "object",
        additional: Some(Box::new(ty(value))),
        max_properties: max,
        ..S::default()
    }
}

fn string(max: Option<i64>) -> S {
    S {
        max_length: max,
        ..ty("string")
    }
}

#[test]
fn upstream_costs() {
    let cases: [(S, S, &str, u64, u64); 13] = [
        (
            array("number", None),
            array("number", Some(10)),
            "self.all(x, true)",
            4_718_591,
            32,
        ),
        (
            array("string", None),
            array("string", Some(20)),
            "self.all(x, true)",
            3_145_727,
            62,
        ),
        (
            array("boolean", None),
            array("boolean", Some(5)),
            "self.all(x, true)",
            1_887_437,
            17,
        ),
        (
            S {
                ..arr(arr(ty("number")))
            },
            S {
                max_items: Some(100),
                ..arr(arr(ty("number")))
            },
            "self.all(x, true)",
            3_145_727,
            302,
        ),
        (
            map("number", None),
            map("number", Some(10)),
            "self.all(x, true)",
            1_348_169,
            32,
        ),
        (
            map("string", None),
            map("string", Some(3)),
            "self.all(x, true)",
            1_179_647,
            11,
        ),
        (
            map("boolean", None),
            map("boolean", Some(100)),
            "self.all(x, true)",
            943_718,
            302,
        ),
        (string(None), string(Some(10)), "self.contains('test')", 314_574, 5),
        (string(None), string(Some(15)), "self.startsWith('test')", 2, 2),
        (string(None), string(Some(30)), "self.endsWith('test')", 2, 2),
        (
            string(None),
            string(Some(4)),
            r#"size(self + "hello") > size("hello")"#,
            314_578,
            7,
        ),
        (
            array("number", None),
            array("number", Some(5000)),
            "self[1] == 0.0",
            2,
            2,
        ),
        (
            array("string", None),
            array("string", Some(8)),
            "self[1] == self[1]",
            314_577,
            314_577,
        ),
    ];
    for (calc, set, rule, expected_calc, expected_set) in cases {
        assert_eq!(cost_of(&calc, rule), expected_calc, "{rule} (computed sizes)");
        assert_eq!(cost_of(&set, rule), expected_set, "{rule} (sizes set)");
    }
    assert!(cost_of(&array("number", None), "self.all(x, self.all(y, true))") > PER_CALL_LIMIT);
}

#[test]
fn equality_of_library_values_is_constant() {
    let s = crate::check::tests::obj(vec![("cidr", string(Some(48)))]);
    assert!(cost_of(&s, "cidr(self.cidr) == cidr(self.cidr).masked()") < 100);
}
