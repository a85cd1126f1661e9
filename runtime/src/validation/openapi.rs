//! kube-openapi's `SchemaValidator` (`k8s.io/kube-openapi/pkg/validation/validate`), as the
//! API server runs it on custom resources and on CRD defaults, and the conversion of its
//! results to field errors (`kubeOpenAPIResultToFieldErrors`).
//!
//! Facts worth knowing: a `null` only meets the type and `enum` checks; every other check
//! applies to values of its JSON kind only (`maxLength` to strings, `required` to objects...);
//! error names are kube-openapi's own dotted paths (`spec.items[0].name`, map keys joined with
//! `.`), which the API server appends to the field path as one piece; messages are kept once
//! (the first of equal texts); nothing is sorted. Where kube-openapi walks a Go map (properties)
//! its order is random; we walk keys in byte order.

use std::collections::HashMap;

use serde_json::Value;

use kstruct_schema::field::{BadValue, ErrorKind, FieldError, Path};
use kstruct_schema::go::{format_float_g, quote};

use super::formats;
use super::node::{Additional, Node};

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

/// One kube-openapi error: its code decides the field error it becomes.
#[derive(Debug, Clone)]
enum Fail {
    Type {
        name: String,
        msg: String,
        value: String,
    },
    Required {
        name: String,
        msg: String,
    },
    Enum {
        name: String,
        msg: String,
        value: Value,
        values: Vec<Value>,
    },
    TooLong {
        name: String,
        msg: String,
        max: i64,
    },
    TooMany {
        name: String,
        msg: String,
        actual: i64,
        max: i64,
    },
    Other {
        name: String,
        msg: String,
        value: Option<Value>,
    },
    Composite {
        msg: String,
    },
}

impl Fail {
    fn msg(&self) -> &str {
        match self {
            Fail::Type { msg, .. }
            | Fail::Required { msg, .. }
            | Fail::Enum { msg, .. }
            | Fail::TooLong { msg, .. }
            | Fail::TooMany { msg, .. }
            | Fail::Other { msg, .. }
            | Fail::Composite { msg } => msg,
        }
    }
}

/// kube-openapi's `Result`: errors (kept once per message) and the match count that picks
/// the best failing `anyOf`/`oneOf` branch.
#[derive(Default)]
struct Res {
    errors: Vec<Fail>,
    matches: usize,
}

impl Res {
    fn add(&mut self, f: Fail) {
        if !self.errors.iter().any(|e| e.msg() == f.msg()) {
            self.errors.push(f);
        }
    }

    fn merge(&mut self, other: Res) {
        for e in other.errors {
            self.add(e);
        }
        self.matches += other.matches;
    }

    fn valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Validates `data` against `schema`; errors are the API server's field errors, placed under
/// `fld_path` (`None` is the reference's nil path, whose own errors print as `<nil>`).
pub(crate) fn validate(fld_path: Option<&Path>, schema: Node<'_>, data: &Value, mode: Mode) -> Vec<FieldError> {
    let res = value(schema, "", data, mode);
    res.errors.into_iter().map(|f| to_field_error(fld_path, f)).collect()
}

fn value(s: Node<'_>, path: &str, data: &Value, mode: Mode) -> Res {
    kstruct_schema::grow(|| value_inner(s, path, data, mode))
}

fn value_inner(s: Node<'_>, path: &str, data: &Value, mode: Mode) -> Res {
    let mut r = Res::default();
    let types = types(s, mode);
    let format = format_of(s, mode);
    if data.is_null() {
        if !types.is_empty() && !s.nullable() {
            r.add(invalid_type(path, &types.join(","), "null"));
        }
        r.merge(common(s, path, data));
        return r;
    }
    if !types.is_empty() || !format.is_empty() {
        r.merge(type_check(&types, format, path, data));
        r.matches += 1;
    }
    r.merge(schema_props(s, path, data, mode));
    r.matches += 1;
    if let Value::String(text) = data {
        r.merge(string(s, path, text));
        r.matches += 1;
        if !format.is_empty() && formats::known(format, mode) {
            if !formats::valid(format, text) {
                r.add(Fail::Type {
                    name: path.to_string(),
                    msg: format!("{path} in body must be of type {format}: {}", quote(text)),
                    value: text.clone(),
                });
            }
            r.matches += 1;
        }
    }
    if let Value::Number(_) = data {
        r.merge(number(s, path, data));
        r.matches += 1;
    }
    if let Value::Array(items) = data {
        r.merge(slice(s, path, items, mode));
        r.matches += 1;
    }
    r.merge(common(s, path, data));
    r.matches += 1;
    if let Value::Object(map) = data {
        r.merge(object(s, path, map, mode));
        r.matches += 1;
    }
    r.matches += 1;
    r
}

fn types(s: Node<'_>, mode: Mode) -> Vec<&str> {
    if mode == Mode::Resource && s.int_or_string() {
        return vec!["integer", "string"];
    }
    match s.type_() {
        "" => vec![],
        t => vec![t],
    }
}

fn format_of(s: Node<'_>, mode: Mode) -> &str {
    let f = s.values().format.as_str();
    if mode == Mode::Resource && !formats::supported_for_resources(f) {
        return "";
    }
    f
}

fn invalid_type(path: &str, type_: &str, observed: &str) -> Fail {
    Fail::Type {
        name: path.to_string(),
        msg: format!("{path} in body must be of type {type_}: {}", quote(observed)),
        value: observed.to_string(),
    }
}

/// The JSON kind kube-openapi sees, and its format (`schemaInfoForType`).
fn observed(data: &Value) -> (&'static str, &'static str) {
    match data {
        Value::Bool(_) => ("boolean", ""),
        Value::String(_) => ("string", ""),
        Value::Number(n) if n.is_i64() => ("integer", "int64"),
        Value::Number(_) => ("number", "float64"),
        Value::Array(_) => ("array", ""),
        _ => ("object", ""),
    }
}

/// `swag.IsFloat64AJSONInteger`.
fn is_float_a_json_integer(f: f64) -> bool {
    if f.is_nan() || f.is_infinite() || f.abs() > 9_007_199_254_740_991.0 {
        return false;
    }
    if f == f.trunc() {
        return true;
    }
    let diff = (f.round() - f).abs();
    diff / f.abs() < 1e-9
}

fn type_check(types: &[&str], format: &str, path: &str, data: &Value) -> Res {
    let mut r = Res::default();
    let (sch_type, observed_format) = observed(data);
    let has = |t: &str| types.contains(&t);
    let is_float_int = sch_type == "number" && data.as_f64().is_some_and(is_float_a_json_integer) && has("integer");
    let is_int_float = sch_type == "integer" && has("number");
    let kind_string_or_slice = matches!(data, Value::String(_) | Value::Array(_));
    let format_matches = has(sch_type) || observed_format == format || is_float_int || is_int_float;
    if !(kind_string_or_slice || format.is_empty() || format_matches) {
        r.add(invalid_type(path, format, observed_format));
        return r;
    }
    let numeric = has("number") || has("integer");
    if kind_string_or_slice && !(numeric || format.is_empty()) {
        r.matches += 1;
        return r;
    }
    if !(has(sch_type) || is_float_int || is_int_float) {
        r.add(invalid_type(path, &types.join(","), sch_type));
        return r;
    }
    r.matches += 1;
    r
}

fn schema_props(s: Node<'_>, path: &str, data: &Value, mode: Mode) -> Res {
    let v = s.values();
    let mut r = Res::default();
    if !v.any_of.is_empty() {
        let mut best: Option<Res> = None;
        let mut ok = false;
        for branch in &v.any_of {
            let res = value(Node::Nested(branch), path, data, mode);
            if res.valid() {
                ok = true;
                break;
            }
            if best.as_ref().is_none_or(|b| res.matches > b.matches) {
                best = Some(res);
            }
        }
        if !ok {
            r.add(Fail::Composite {
                msg: format!("{} must validate at least one schema (anyOf)", quote(path)),
            });
            if let Some(b) = best {
                r.merge(b);
            }
        }
    }
    if !v.one_of.is_empty() {
        let mut best: Option<Res> = None;
        let mut validated = 0;
        for branch in &v.one_of {
            let res = value(Node::Nested(branch), path, data, mode);
            if res.valid() {
                validated += 1;
            } else if validated == 0 && best.as_ref().is_none_or(|b| res.matches > b.matches) {
                best = Some(res);
            }
        }
        if validated != 1 {
            let extra = if validated == 0 {
                "Found none valid".to_string()
            } else {
                format!("Found {validated} valid alternatives")
            };
            r.add(Fail::Composite {
                msg: format!("{} must validate one and only one schema (oneOf). {extra}", quote(path)),
            });
            if validated == 0
                && let Some(b) = best
            {
                r.merge(b);
            }
        }
    }
    if !v.all_of.is_empty() {
        let mut valid = 0;
        for branch in &v.all_of {
            let res = value(Node::Nested(branch), path, data, mode);
            if res.valid() {
                valid += 1;
            }
            r.merge(res);
        }
        if valid != v.all_of.len() {
            let extra = if valid == 0 { ". None validated" } else { "" };
            r.add(Fail::Composite {
                msg: format!("{} must validate all the schemas (allOf){extra}", quote(path)),
            });
        }
    }
    if let Some(not) = &v.not
        && value(Node::Nested(not), path, data, mode).valid()
    {
        r.add(Fail::Composite {
            msg: format!("{} must not validate the schema (not)", quote(path)),
        });
    }
    r.matches += 1;
    r
}

fn string(s: Node<'_>, path: &str, data: &str) -> Res {
    let v = s.values();
    let mut r = Res::default();
    let len = data.chars().count() as i64;
    if let Some(max) = v.max_length
        && len > max
    {
        r.add(Fail::TooLong {
            name: path.to_string(),
            msg: format!("{path} in body should be at most {max} chars long"),
            max,
        });
        return r;
    }
    if let Some(min) = v.min_length
        && len < min
    {
        r.add(Fail::Other {
            name: path.to_string(),
            msg: format!("{path} in body should be at least {min} chars long"),
            value: Some(Value::String(data.to_string())),
        });
        return r;
    }
    if !v.pattern.is_empty() {
        match pattern(&v.pattern) {
            Some(re) if !re.is_match(data) => r.add(Fail::Other {
                name: path.to_string(),
                msg: format!("{path} in body should match '{}'", v.pattern),
                value: Some(Value::String(data.to_string())),
            }),
            // A pattern Go accepts and the regex crate does not (rare: ValidateStructural has
            // already checked Go's syntax) is not enforced.
            _ => {}
        }
    }
    r
}

/// `pattern` compiled once per distinct pattern: values are validated far more often than
/// schemas change. `None` for a pattern the regex crate does not take.
fn pattern(p: &str) -> Option<regex::Regex> {
    static CACHE: std::sync::LazyLock<std::sync::Mutex<HashMap<String, Option<regex::Regex>>>> =
        std::sync::LazyLock::new(Default::default);
    let mut cache = CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    cache
        .entry(p.to_string())
        .or_insert_with(|| regex::Regex::new(p).ok())
        .clone()
}

fn number(s: Node<'_>, path: &str, data: &Value) -> Res {
    let v = s.values();
    let mut r = Res::default();
    let fail = |msg: String| Fail::Other {
        name: path.to_string(),
        msg,
        value: Some(data.clone()),
    };
    // kube-openapi compares in the value's own Go type: bounds are truncated for integers.
    let int = data.as_i64().filter(|_| data.is_i64());
    let float = data.as_f64().unwrap_or(f64::NAN);
    let bound = |b: f64| match int {
        Some(_) => (b as i64).to_string(),
        None => format_float_g(b),
    };
    if let Some(factor) = v.multiple_of {
        match int {
            Some(i) => {
                let f = factor as i64;
                if f != 0 && i % f != 0 {
                    r.add(fail(format!("{path} in body should be a multiple of {f}")));
                }
            }
            None => {
                if factor < 0.0 {
                    r.add(fail(format!(
                        "factor MultipleOf declared for {path} must be positive: {}",
                        format_float_g(factor)
                    )));
                } else {
                    let mult = if factor < 1.0 {
                        1.0 / factor * float
                    } else {
                        float / factor
                    };
                    if !is_float_a_json_integer(mult) {
                        r.add(fail(format!(
                            "{path} in body should be a multiple of {}",
                            format_float_g(factor)
                        )));
                    }
                }
            }
        }
    }
    if let Some(min) = v.minimum {
        let below = match int {
            Some(i) => {
                let m = min as i64;
                (!v.exclusive_minimum && i < m) || (v.exclusive_minimum && i <= m)
            }
            None => (!v.exclusive_minimum && float < min) || (v.exclusive_minimum && float <= min),
        };
        if below {
            let rel = if v.exclusive_minimum {
                "greater than"
            } else {
                "greater than or equal to"
            };
            r.add(fail(format!("{path} in body should be {rel} {}", bound(min))));
        }
    }
    if let Some(max) = v.maximum {
        let above = match int {
            Some(i) => {
                let m = max as i64;
                (!v.exclusive_maximum && i > m) || (v.exclusive_maximum && i >= m)
            }
            None => (!v.exclusive_maximum && float > max) || (v.exclusive_maximum && float >= max),
        };
        if above {
            let rel = if v.exclusive_maximum {
                "less than"
            } else {
                "less than or equal to"
            };
            r.add(fail(format!("{path} in body should be {rel} {}", bound(max))));
        }
    }
    r.matches += 1;
    r
}

fn slice(s: Node<'_>, path: &str, items: &[Value], mode: Mode) -> Res {
    let v = s.values();
    let mut r = Res::default();
    if let Some(schema) = s.items() {
        for (i, item) in items.iter().enumerate() {
            r.merge(value(schema, &format!("{path}[{i}]"), item, mode));
        }
    }
    let size = items.len() as i64;
    if let Some(min) = v.min_items
        && size < min
    {
        r.add(Fail::Other {
            name: path.to_string(),
            msg: format!("{path} in body should have at least {min} items"),
            value: Some(Value::from(size)),
        });
    }
    if let Some(max) = v.max_items
        && size > max
    {
        r.add(Fail::TooMany {
            name: path.to_string(),
            msg: format!("{path} in body should have at most {max} items"),
            actual: size,
            max,
        });
    }
    if v.unique_items {
        let mut seen: Vec<&Value> = Vec::new();
        if items.iter().any(|i| {
            let dup = seen.contains(&i);
            seen.push(i);
            dup
        }) {
            r.add(Fail::Other {
                name: path.to_string(),
                msg: format!("{path} in body shouldn't contain duplicates"),
                value: None,
            });
        }
    }
    r.matches += 1;
    r
}

/// `enum`, with Go's conversions between the value's and each entry's types.
fn common(s: Node<'_>, path: &str, data: &Value) -> Res {
    let mut r = Res::default();
    let entries = &s.values().enum_;
    if entries.is_empty() {
        return r;
    }
    if entries.iter().any(|e| enum_matches(data, e)) {
        return r;
    }
    r.add(Fail::Enum {
        name: path.to_string(),
        msg: format!("{path} in body should be one of {}", go_print_list(entries)),
        value: data.clone(),
        values: entries.clone(),
    });
    r
}

fn enum_matches(data: &Value, entry: &Value) -> bool {
    match (data, entry) {
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Number(d), Value::Number(e)) => {
            match (d.as_i64().filter(|_| d.is_i64()), e.as_i64().filter(|_| e.is_i64())) {
                (Some(a), Some(b)) => a == b,
                // A float value converts to the entry's int64 by truncation.
                (None, Some(b)) => d.as_f64().is_some_and(|f| f as i64 == b),
                (Some(a), None) => e.as_f64() == Some(a as f64),
                (None, None) => d.as_f64() == e.as_f64(),
            }
        }
        // Go converts an int64 to a string as the rune with that code point.
        (Value::Number(d), Value::String(e)) => d.as_i64().filter(|_| d.is_i64()).is_some_and(|i| {
            u32::try_from(i)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or('\u{fffd}')
                .to_string()
                == *e
        }),
        (a, b) => a == b,
    }
}

/// Go's `%v` of a `[]interface{}` (only in a message that never reaches a field error).
fn go_print_list(values: &[Value]) -> String {
    let parts: Vec<String> = values
        .iter()
        .map(|v| match v {
            Value::String(s) => s.clone(),
            Value::Null => "<nil>".into(),
            other => other.to_string(),
        })
        .collect();
    format!("[{}]", parts.join(" "))
}

fn object(s: Node<'_>, path: &str, map: &serde_json::Map<String, Value>, mode: Mode) -> Res {
    let v = s.values();
    let mut r = Res::default();
    let size = map.len() as i64;
    if let Some(min) = v.min_properties
        && size < min
    {
        r.add(Fail::Other {
            name: path.to_string(),
            msg: format!("{path} in body should have at least {min} properties"),
            value: Some(Value::from(size)),
        });
    }
    if let Some(max) = v.max_properties
        && size > max
    {
        r.add(Fail::TooMany {
            name: path.to_string(),
            msg: format!("{path} in body should have at most {max} properties"),
            actual: size,
            max,
        });
    }
    match s.additional() {
        Additional::Bool(false) => {
            for k in map.keys().filter(|k| !s.has_property(k)) {
                r.add(Fail::Other {
                    name: path.to_string(),
                    msg: format!("{path}.{k} in body is a forbidden property"),
                    value: Some(Value::String(k.clone())),
                });
            }
        }
        Additional::Schema(ap) => {
            for (k, item) in map.iter().filter(|(k, _)| !s.has_property(k)) {
                r.merge(value(ap, &format!("{path}.{k}"), item, mode));
            }
        }
        Additional::Bool(true) | Additional::None => {}
    }
    for (name, schema) in s.properties() {
        if let Some(item) = map.get(name) {
            let child = if path.is_empty() {
                name.to_string()
            } else {
                format!("{path}.{name}")
            };
            r.merge(value(schema, &child, item, mode));
        }
    }
    for k in v.required.iter().flatten() {
        if !map.contains_key(k) {
            let name = format!("{path}.{k}");
            r.add(Fail::Required {
                msg: format!("{name} in body is required"),
                name,
            });
        }
    }
    r
}

/// `kubeOpenAPIResultToFieldErrors`.
fn to_field_error(fld_path: Option<&Path>, f: Fail) -> FieldError {
    let (kind, name, value, detail) = match f {
        Fail::Type { name, msg, value } => (ErrorKind::TypeInvalid, name, BadValue::String(value), msg),
        Fail::Required { name, .. } => (ErrorKind::Required, name, BadValue::Omit, String::new()),
        Fail::Enum {
            name, value, values, ..
        } => {
            let list: Vec<String> = values
                .iter()
                .map(|v| match v {
                    Value::String(s) => quote(s),
                    other => quote(&kstruct_schema::go::marshal_json(other)),
                })
                .collect();
            (
                ErrorKind::NotSupported,
                name,
                BadValue::from(&value),
                format!("supported values: {}", list.join(", ")),
            )
        }
        Fail::TooLong { name, max, .. } => {
            let unit = if max == 1 { "byte" } else { "bytes" };
            (
                ErrorKind::TooLong,
                name,
                BadValue::Omit,
                format!("may not be more than {max} {unit}"),
            )
        }
        Fail::TooMany { name, actual, max, .. } => {
            let unit = if max == 1 { "item" } else { "items" };
            (
                ErrorKind::TooMany,
                name,
                BadValue::Int(actual),
                format!("must have at most {max} {unit}"),
            )
        }
        Fail::Other { name, msg, value } => (
            ErrorKind::Invalid,
            name,
            value.as_ref().map_or(BadValue::String(String::new()), BadValue::from),
            msg,
        ),
        // Not a kube-openapi `Validation`: reported at the path the validation started from.
        Fail::Composite { msg } => (ErrorKind::Invalid, String::new(), BadValue::String(String::new()), msg),
    };
    // The error's name is appended as one piece; the nil path prints as `<nil>`.
    let base = fld_path.cloned().unwrap_or_else(Path::nil);
    let path = match name.as_str() {
        "" | "." => base,
        name => base.child(name.strip_prefix('.').unwrap_or(name)),
    };
    FieldError::new(kind, &path, value, detail)
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
        // Bounds are truncated for integer values, as kube-openapi compares int64s.
        assert_eq!(
            check(json!({"n": {"type": "integer", "minimum": 1.5}}), json!({"n": 1})),
            Vec::<String>::new()
        );
    }
}
