//! CEL rules on arbitrary expressions, type-checked and evaluated against a fixed object: the
//! checker and the evaluator never panic, and evaluation stops at its cost limit.
#![no_main]

use kstruct::cel::check::{Env, RuleKind, compile_rule};
use kstruct::cel::eval::{Vars, evaluate};
use kstruct::cel::schema::{rule_variables, schema_decl_type, self_type_name};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

const SCHEMA: &str = r#"{"type": "object", "properties": {
  "name": {"type": "string", "maxLength": 64},
  "replicas": {"type": "integer"},
  "ratio": {"type": "number"},
  "tags": {"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 16}},
  "labels": {"type": "object", "additionalProperties": {"type": "string"}},
  "port": {"x-kubernetes-int-or-string": true},
  "when": {"type": "string", "format": "date-time"}}}"#;

const OBJECT: &str = r#"{"name": "web", "replicas": 3, "ratio": 0.5, "tags": ["a", "b"],
  "labels": {"app": "web"}, "port": "http", "when": "2024-01-02T03:04:05Z"}"#;

/// The schema's rule variables and environment, and the object as a CEL value, built once.
struct Fixed {
    vars: kstruct::cel::schema::RuleVariables,
    env: Env,
    this: kstruct::cel::value::Value,
}

static FIXED: LazyLock<Fixed> = LazyLock::new(|| {
    let schema = kstruct::schema::convert::from_text(SCHEMA).unwrap().unwrap();
    let object: serde_json::Value = serde_json::from_str(OBJECT).unwrap();
    let decl = schema_decl_type(&schema, false).unwrap();
    let vars = rule_variables(&decl, &self_type_name(0), false);
    let env = Env::for_rule(&vars);
    let this = kstruct::rules::to_cel(&object, &schema, false);
    Fixed { vars, env, this }
});

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let fixed = &*FIXED;
    let _ = compile_rule(src, &fixed.env, RuleKind::Rule).map(|(expr, checked)| {
        let _ = kstruct::cel::cost::estimate(&expr, &checked, Some(&fixed.vars.scoped));
    });
    if let Ok(expr) = kstruct::cel::parse(src) {
        let out = evaluate(&expr, &Vars::new().with("self", fixed.this.clone()), 100_000);
        assert!(out.cost <= 100_000 + 1_000_000, "cost {} past the limit", out.cost);
    }
});
