//! kube-openapi's `SchemaValidator` (`k8s.io/kube-openapi/pkg/validation/validate`), as the
//! API server runs it on custom resources and on CRD defaults, interpreted from the schema;
//! the checks and their messages are in [`super::checks`], shared with compiled validators.
//!
//! Facts worth knowing: a `null` only meets the type and `enum` checks; every other check
//! applies to values of its JSON kind only (`maxLength` to strings, `required` to objects...);
//! messages are kept once (the first of equal texts); nothing is sorted. Where kube-openapi
//! walks a Go map (properties) its order is random; we walk keys in byte order.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, PoisonError, RwLock};

use serde_json::Value;

use kstruct_schema::field::{FieldError, Path};

use super::checks::{self, NumberKind, Numeric, Res};
use super::formats;
use super::node::{Additional, Node};
use crate::objectmeta::coerce::At;

/// Which schema the validator is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Custom resources: the CRD's schema with `x-kubernetes-int-or-string` as the types
    /// `integer,string`, and formats other than kube-openapi's fixed list dropped.
    Resource,
    /// Defaults at CRD creation: `Structural.ToKubeOpenAPI()`, where int-or-string adds no type
    /// and every format kube-openapi knows is checked.
    Defaults,
}

/// Validates `data` against `schema`; errors are the API server's field errors, placed under
/// `fld_path` (`None` is the reference's nil path, whose own errors print as `<nil>`).
pub(crate) fn validate(fld_path: Option<&Path>, schema: Node<'_>, data: &Value, mode: Mode) -> Vec<FieldError> {
    let base = Path::nil();
    let mut r = Res::new();
    value(schema, &At::Base(&base), data, mode, &mut r);
    r.into_field_errors(fld_path)
}

fn value(s: Node<'_>, at: &At<'_>, data: &Value, mode: Mode, r: &mut Res) {
    kstruct_schema::grow(|| value_inner(s, at, data, mode, r));
}

fn fresh(s: Node<'_>, at: &At<'_>, data: &Value, mode: Mode) -> Res {
    let mut r = Res::new();
    value(s, at, data, mode, &mut r);
    r
}

/// One node: a child's errors and matches go straight into its parent's result, which is
/// what merging a child's own result would give.
fn value_inner(s: Node<'_>, at: &At<'_>, data: &Value, mode: Mode, r: &mut Res) {
    // The types the validator checks: int-or-string is `integer,string` for custom resources.
    let single;
    let types: &[&str] = if mode == Mode::Resource && s.int_or_string() {
        &["integer", "string"]
    } else if s.type_().is_empty() {
        &[]
    } else {
        single = [s.type_()];
        &single
    };
    let format = format_of(s, mode);
    let v = s.values();
    if data.is_null() {
        if !types.is_empty() && !s.nullable() {
            checks::null_type(at, types, r);
        }
        checks::enum_(at, data, &v.enum_, r);
        return;
    }
    if !types.is_empty() || !format.is_empty() {
        checks::check_type(at, types, format, data, r);
        r.matched(1);
    }
    composites(s, at, data, mode, r);
    r.matched(1);
    match data {
        Value::String(text) => {
            if checks::string_lengths(at, text, v.min_length, v.max_length, r) && !v.pattern.is_empty() {
                checks::pattern(at, text, &v.pattern, cached_pattern(&v.pattern).as_ref().as_ref(), r);
            }
            r.matched(1);
            if !format.is_empty() && formats::known(format, mode) {
                checks::format(at, format, text, r);
                r.matched(1);
            }
        }
        Value::Number(_) => {
            checks::number(at, data, &numeric(s, format), r);
            r.matched(1);
        }
        Value::Array(items) => {
            if let Some(schema) = s.items() {
                for (i, item) in items.iter().enumerate() {
                    value(schema, &at.index(i), item, mode, r);
                }
            }
            checks::item_counts(at, items.len(), v.min_items, v.max_items, r);
            if v.unique_items {
                checks::unique_items(at, items, r);
            }
            r.matched(2);
        }
        _ => {}
    }
    checks::enum_(at, data, &v.enum_, r);
    r.matched(1);
    if let Value::Object(map) = data {
        object(s, at, map, mode, r);
        r.matched(1);
    }
    r.matched(1);
}

fn format_of(s: Node<'_>, mode: Mode) -> &str {
    let f = s.values().format.as_str();
    if mode == Mode::Resource {
        return formats::for_resources(s.type_(), f);
    }
    f
}

fn numeric(s: Node<'_>, format: &str) -> Numeric {
    let v = s.values();
    Numeric {
        kind: NumberKind::of(s.type_(), format),
        multiple_of: v.multiple_of,
        minimum: v.minimum,
        exclusive_minimum: v.exclusive_minimum,
        maximum: v.maximum,
        exclusive_maximum: v.exclusive_maximum,
    }
}

fn composites(s: Node<'_>, at: &At<'_>, data: &Value, mode: Mode, r: &mut Res) {
    let v = s.values();
    if !v.any_of.is_empty() {
        checks::any_of(
            at,
            v.any_of.len(),
            |i| fresh(Node::Nested(&v.any_of[i]), at, data, mode),
            r,
        );
    }
    if !v.one_of.is_empty() {
        checks::one_of(
            at,
            v.one_of.len(),
            |i| fresh(Node::Nested(&v.one_of[i]), at, data, mode),
            r,
        );
    }
    if !v.all_of.is_empty() {
        checks::all_of(
            at,
            v.all_of.len(),
            |i| fresh(Node::Nested(&v.all_of[i]), at, data, mode),
            r,
        );
    }
    if let Some(not) = &v.not {
        checks::not(at, &fresh(Node::Nested(not), at, data, mode), r);
    }
}

/// `pattern` compiled once per distinct pattern and shared by all threads: values are
/// validated far more often than schemas change. A compiled `Regex` keeps its own per-thread
/// match caches, so it is shared (not cloned: a clone would start with cold caches).
fn cached_pattern(p: &str) -> Arc<Option<regex::Regex>> {
    static CACHE: LazyLock<RwLock<HashMap<String, Arc<Option<regex::Regex>>>>> = LazyLock::new(Default::default);
    if let Some(re) = CACHE.read().unwrap_or_else(PoisonError::into_inner).get(p) {
        return Arc::clone(re);
    }
    let mut cache = CACHE.write().unwrap_or_else(PoisonError::into_inner);
    Arc::clone(
        cache
            .entry(p.to_string())
            .or_insert_with(|| Arc::new(regex::Regex::new(p).ok())),
    )
}

fn object(s: Node<'_>, at: &At<'_>, map: &serde_json::Map<String, Value>, mode: Mode, r: &mut Res) {
    let v = s.values();
    checks::property_counts(at, map.len(), v.min_properties, v.max_properties, r);
    match s.additional() {
        Additional::Bool(false) => {
            for k in map.keys().filter(|k| !s.has_property(k)) {
                checks::forbidden_property(at, k, r);
            }
        }
        Additional::Schema(ap) => {
            for (k, item) in map.iter().filter(|(k, _)| !s.has_property(k)) {
                value(ap, &at.key(k), item, mode, r);
            }
        }
        Additional::Bool(true) | Additional::None => {}
    }
    for (name, schema) in s.properties() {
        if let Some(item) = map.get(name) {
            value(schema, &at.child(name), item, mode, r);
        }
    }
    for k in v.required.iter().flatten() {
        if !map.contains_key(k) {
            checks::required(at, k, r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value, data: Value) -> Vec<String> {
        let s = kstruct_schema::convert::from_value(
            &json!({"type": "object", "properties": {"spec": {"type": "object", "properties": schema}}}),
        )
        .unwrap()
        .unwrap();
        validate(None, Node::Structural(&s), &json!({ "spec": data }), Mode::Resource)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The API server's messages for custom resources, as its users see them.
    #[test]
    fn messages_are_the_api_server_s() {
        let cases = [
            (
                json!({"n": {"type": "integer"}}),
                json!({"n": "x"}),
                "spec.n: Invalid value: \"string\": spec.n in body must be of type integer: \"string\"",
            ),
            (
                json!({"n": {"type": "integer", "minimum": 1}}),
                json!({"n": 0}),
                "spec.n: Invalid value: 0: spec.n in body should be greater than or equal to 1",
            ),
            (
                json!({"n": {"type": "number", "minimum": 1e6}}),
                json!({"n": 0.5}),
                "spec.n: Invalid value: 0.5: spec.n in body should be greater than or equal to 1e+06",
            ),
            (
                json!({"n": {"type": "integer", "maximum": 10, "exclusiveMaximum": true}}),
                json!({"n": 11}),
                "spec.n: Invalid value: 11: spec.n in body should be less than 10",
            ),
            (
                json!({"n": {"type": "string", "maxLength": 3}}),
                json!({"n": "abcd"}),
                "spec.n: Too long: may not be more than 3 bytes",
            ),
            (
                json!({"n": {"type": "string", "minLength": 3}}),
                json!({"n": "ab"}),
                "spec.n: Invalid value: \"ab\": spec.n in body should be at least 3 chars long",
            ),
            (
                json!({"n": {"type": "string", "pattern": "^[a-z]+$"}}),
                json!({"n": "AB"}),
                "spec.n: Invalid value: \"AB\": spec.n in body should match '^[a-z]+$'",
            ),
            (
                json!({"n": {"type": "string", "enum": ["a", 1]}}),
                json!({"n": "x"}),
                "spec.n: Unsupported value: \"x\": supported values: \"a\", \"1\"",
            ),
            (
                json!({"l": {"type": "array", "maxItems": 1, "items": {"type": "integer"}}}),
                json!({"l": [1, 2]}),
                "spec.l: Too many: 2: must have at most 1 item",
            ),
            (
                json!({"l": {"type": "array", "minItems": 1, "items": {"type": "integer"}}}),
                json!({"l": []}),
                "spec.l: Invalid value: 0: spec.l in body should have at least 1 items",
            ),
            (
                json!({"l": {"type": "array", "items": {"type": "integer"}}}),
                json!({"l": [1, "x"]}),
                "spec.l[1]: Invalid value: \"string\": spec.l[1] in body must be of type integer: \"string\"",
            ),
            (
                json!({"t": {"type": "string", "format": "date-time"}}),
                json!({"t": "x"}),
                "spec.t: Invalid value: \"x\": spec.t in body must be of type date-time: \"x\"",
            ),
            (
                json!({"m": {"type": "object", "additionalProperties": {"type": "integer"}}}),
                json!({"m": {"k": true}}),
                "spec.m.k: Invalid value: \"boolean\": spec.m.k in body must be of type integer: \"boolean\"",
            ),
            (
                json!({"s": {"type": "string"}}),
                json!({"s": null}),
                "spec.s: Invalid value: \"null\": spec.s in body must be of type string: \"null\"",
            ),
            (
                json!({"i": {"x-kubernetes-int-or-string": true}}),
                json!({"i": true}),
                "spec.i: Invalid value: \"boolean\": spec.i in body must be of type integer,string: \"boolean\"",
            ),
        ];
        for (schema, data, want) in cases {
            assert_eq!(check(schema.clone(), data), [want], "{schema}");
        }
    }

    #[test]
    fn required_and_composites() {
        let s = kstruct_schema::convert::from_value(&json!({"type": "object", "required": ["a"],
            "anyOf": [{"required": ["b"]}, {"required": ["c"]}]}))
        .unwrap()
        .unwrap();
        let got: Vec<String> = validate(None, Node::Structural(&s), &json!({"d": 1}), Mode::Resource)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            got,
            [
                "<nil>: Invalid value: \"\": \"\" must validate at least one schema (anyOf)",
                "b: Required value",
                "a: Required value",
            ]
        );
    }

    #[test]
    fn integers_and_whole_floats() {
        assert_eq!(
            check(json!({"n": {"type": "integer"}}), json!({"n": 1.0})),
            Vec::<String>::new()
        );
        assert_eq!(
            check(json!({"n": {"type": "number"}}), json!({"n": 1})),
            Vec::<String>::new()
        );
        // A bound that is no integer on an integer node is an error of its own, and the value
        // is then compared as a float64.
        assert_eq!(
            check(json!({"n": {"type": "integer", "minimum": 1.5}}), json!({"n": 1})),
            [
                "<nil>: Invalid value: \"\": Minimum boundary value must be of type integer (default format) in spec.n",
                "spec.n: Invalid value: 1: spec.n in body should be greater than or equal to 1.5",
            ]
        );
        // Without a single type, integer values compare with the bound truncated to an int64.
        assert_eq!(
            check(
                json!({"n": {"x-kubernetes-int-or-string": true, "minimum": 1.5}}),
                json!({"n": 1})
            ),
            Vec::<String>::new()
        );
    }
}
