//! A small OpenAPI value validator with the API server's semantics (kube-openapi's
//! `SchemaValidator`), for the derive's serde-contract tests until object validation lands in
//! kstruct itself.
//!
//! What it checks, as kube-openapi does:
//! - `null`: only the type (rejected when the node has a type and is not nullable) and `enum`
//!   (a `null` never matches an enum); nothing else runs for a `null`;
//! - `type` (int-or-string nodes accept integers and strings);
//! - `enum` (any value);
//! - `allOf`, `anyOf`, `oneOf`, `not` (any non-null value);
//! - objects: `required`, `minProperties`, `maxProperties`, `properties`, `additionalProperties`;
//! - arrays: `minItems`, `maxItems`, `items`;
//! - strings: `minLength`, `maxLength` (in characters), `pattern`;
//! - numbers: `minimum`, `maximum` (exclusive or not), `multipleOf`.
//!
//! Each validator only applies to values of its JSON type, which is what lets typeless
//! schemas (unions) carry validations for several types. Messages are ours, not the
//! reference's: the tests only count them.

use kstruct::schema::{AdditionalProperties, NestedValueValidation, Structural, ValueValidation};
use serde_json::Value;

/// Every way `value` fails `schema`, as `path: problem` lines (empty when it passes).
pub fn validate(schema: &Structural, value: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    structural(schema, value, "", &mut errors);
    errors
}

fn structural(s: &Structural, v: &Value, path: &str, errors: &mut Vec<String>) {
    let int_or_string = s.extensions.x_int_or_string;
    if v.is_null() {
        if (!s.generic.type_.is_empty() || int_or_string) && !s.generic.nullable {
            errors.push(format!("{path}: null, but not nullable"));
        }
        if !s.value_validation.enum_.is_empty() {
            errors.push(format!("{path}: null is not in the enum"));
        }
        return;
    }
    let type_ok = match s.generic.type_.as_str() {
        "" if int_or_string => is_integer(v) || v.is_string(),
        "" => true,
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => is_integer(v),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        other => {
            errors.push(format!("{path}: unknown type {other}"));
            true
        }
    };
    if !type_ok {
        errors.push(format!("{path}: {v} is not of type {}", s.generic.type_));
        return;
    }
    values(&s.value_validation, v, path, errors);
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let child = format!("{path}.{k}");
                match s.properties.get(k) {
                    Some(p) => structural(p, x, &child, errors),
                    None => {
                        if let Some(AdditionalProperties::Schema(ap)) = &s.additional_properties {
                            structural(ap, x, &child, errors);
                        }
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(schema) = &s.items {
                for (i, x) in items.iter().enumerate() {
                    structural(schema, x, &format!("{path}[{i}]"), errors);
                }
            }
        }
        _ => {}
    }
}

fn nested(n: &NestedValueValidation, v: &Value, path: &str, errors: &mut Vec<String>) {
    values(&n.value_validation, v, path, errors);
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let child = format!("{path}.{k}");
                match n.properties.as_ref().and_then(|p| p.get(k)) {
                    Some(p) => nested(p, x, &child, errors),
                    None => {
                        if let Some(ap) = &n.additional_properties {
                            nested(ap, x, &child, errors);
                        }
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(schema) = &n.items {
                for (i, x) in items.iter().enumerate() {
                    nested(schema, x, &format!("{path}[{i}]"), errors);
                }
            }
        }
        _ => {}
    }
}

/// The value validations of one node (not its properties or items).
fn values(vv: &ValueValidation, v: &Value, path: &str, errors: &mut Vec<String>) {
    if !vv.enum_.is_empty() && !vv.enum_.iter().any(|e| crate::json_eq(e, v)) {
        errors.push(format!("{path}: {v} is not one of {:?}", vv.enum_));
    }
    let passes = |n: &NestedValueValidation| {
        let mut e = Vec::new();
        nested(n, v, path, &mut e);
        e.is_empty()
    };
    for n in &vv.all_of {
        nested(n, v, path, errors);
    }
    if !vv.any_of.is_empty() && !vv.any_of.iter().any(passes) {
        errors.push(format!("{path}: matches none of anyOf"));
    }
    if !vv.one_of.is_empty() {
        let matching = vv.one_of.iter().filter(|n| passes(n)).count();
        if matching != 1 {
            errors.push(format!("{path}: matches {matching} of oneOf, not exactly one"));
        }
    }
    if let Some(not) = &vv.not
        && passes(not)
    {
        errors.push(format!("{path}: matches `not`"));
    }
    match v {
        Value::Object(m) => {
            for r in vv.required.iter().flatten() {
                if !m.contains_key(r) {
                    errors.push(format!("{path}.{r}: required"));
                }
            }
            let n = m.len() as i64;
            if vv.min_properties.is_some_and(|min| n < min) || vv.max_properties.is_some_and(|max| n > max) {
                errors.push(format!("{path}: {n} properties is out of bounds"));
            }
        }
        Value::Array(items) => {
            let n = items.len() as i64;
            if vv.min_items.is_some_and(|min| n < min) || vv.max_items.is_some_and(|max| n > max) {
                errors.push(format!("{path}: {n} items is out of bounds"));
            }
        }
        Value::String(s) => {
            let n = s.chars().count() as i64;
            if vv.min_length.is_some_and(|min| n < min) || vv.max_length.is_some_and(|max| n > max) {
                errors.push(format!("{path}: length {n} is out of bounds"));
            }
            if !vv.pattern.is_empty() {
                match regex::Regex::new(&vv.pattern) {
                    Ok(re) if re.is_match(s) => {}
                    Ok(_) => errors.push(format!("{path}: {s:?} does not match {}", vv.pattern)),
                    Err(e) => errors.push(format!("{path}: pattern {}: {e}", vv.pattern)),
                }
            }
        }
        Value::Number(num) => {
            let x = num.as_f64().unwrap_or(f64::NAN);
            if let Some(min) = vv.minimum
                && (x < min || (vv.exclusive_minimum && x == min))
            {
                errors.push(format!("{path}: {x} is below the minimum {min}"));
            }
            if let Some(max) = vv.maximum
                && (x > max || (vv.exclusive_maximum && x == max))
            {
                errors.push(format!("{path}: {x} is above the maximum {max}"));
            }
            if let Some(m) = vv.multiple_of
                && (x / m).fract() != 0.0
            {
                errors.push(format!("{path}: {x} is not a multiple of {m}"));
            }
        }
        _ => {}
    }
}

fn is_integer(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value, value: Value) -> usize {
        let s = kstruct::schema::convert::from_value(&schema).unwrap().unwrap();
        validate(&s, &value).len()
    }

    #[test]
    fn null_checks_only_type_and_enum() {
        assert_eq!(check(json!({"type": "string"}), json!(null)), 1);
        assert_eq!(check(json!({"type": "string", "nullable": true}), json!(null)), 0);
        assert_eq!(
            check(json!({"type": "string", "nullable": true, "enum": ["a"]}), json!(null)),
            1
        );
        assert_eq!(
            check(
                json!({"type": "string", "nullable": true, "allOf": [{"enum": ["a"]}]}),
                json!(null)
            ),
            0
        );
        assert_eq!(
            check(
                json!({"type": "string", "nullable": true, "allOf": [{"enum": ["a"]}]}),
                json!("b")
            ),
            1
        );
    }

    #[test]
    fn validators_apply_to_their_type_only() {
        let s = json!({"x-kubernetes-preserve-unknown-fields": true, "pattern": "^a$",
                       "required": ["k"], "maxProperties": 1});
        assert_eq!(check(s.clone(), json!("a")), 0);
        assert_eq!(check(s.clone(), json!("b")), 1);
        assert_eq!(check(s.clone(), json!({"k": 1})), 0);
        assert_eq!(check(s.clone(), json!({"j": 1, "k": 2})), 1);
        assert_eq!(check(s, json!({"j": 1, "l": 2})), 2);
    }

    #[test]
    fn junctors() {
        let s = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                       "oneOf": [{"required": ["a"]}, {"required": ["b"]}]});
        assert_eq!(check(s.clone(), json!({"a": "x"})), 0);
        assert_eq!(check(s.clone(), json!({"a": "x", "b": "y"})), 1);
        assert_eq!(check(s, json!({})), 1);
        assert_eq!(check(json!({"type": "integer", "not": {"enum": [0]}}), json!(0)), 1);
        assert_eq!(check(json!({"x-kubernetes-int-or-string": true}), json!(1.5)), 1);
    }
}
