//! JSON under a schema to CEL values, as the API server's `UnstructuredToVal` types them:
//! objects with properties are objects whose fields are the declared properties under their
//! escaped names (`x-id` is `x__dash__id`); objects with `additionalProperties` are maps;
//! `x-kubernetes-int-or-string` is an int or a string; `number` is a double; strings of
//! format `date-time`/`date` are timestamps, `duration` durations, `byte` bytes; lists carry
//! their list type; embedded resources (and the root) show `apiVersion`, `kind` and
//! `metadata.name`/`generateName`.

use std::sync::Arc;

use serde_json::Value;

use kstruct_cel::value::{Hidden, List, ListKind, Map, Value as Cel};
use kstruct_schema::Structural;

/// `value` as a CEL value under `schema`; `resource` for a resource's root (or an embedded
/// resource), where `apiVersion`, `kind` and `metadata`'s `name` and `generateName` are
/// visible whatever the schema says (`WithTypeAndObjectMeta`: a schema that declares them all
/// is kept as it is, its other metadata properties visible too).
pub fn to_cel(value: &Value, schema: &Structural, resource: bool) -> Cel {
    let resource = (resource || schema.extensions.x_embedded_resource) && !declares_type_and_object_meta(schema);
    kstruct_schema::grow(|| typed(value, schema, resource))
}

/// The schema declares `kind` and `apiVersion` strings and a `metadata` object with `name`
/// and `generateName` strings.
fn declares_type_and_object_meta(s: &Structural) -> bool {
    let is = |p: Option<&Structural>, t: &str| p.is_some_and(|p| p.generic.type_ == t);
    let meta = s.properties.get("metadata");
    is(s.properties.get("kind"), "string")
        && is(s.properties.get("apiVersion"), "string")
        && is(meta, "object")
        && meta
            .is_some_and(|m| is(m.properties.get("name"), "string") && is(m.properties.get("generateName"), "string"))
}

fn typed(value: &Value, s: &Structural, resource: bool) -> Cel {
    if value.is_null() {
        return if s.generic.nullable {
            Cel::Null
        } else {
            Cel::invalid_data("invalid data, got null for schema with nullable=false")
        };
    }
    if s.extensions.x_int_or_string {
        return match value {
            Value::String(_) => untyped(value),
            Value::Number(n) if n.as_i64().is_some() => untyped(value),
            _ => Cel::invalid_data("invalid data, expected XIntOrString value to be either a string or integer"),
        };
    }
    match (s.generic.type_.as_str(), value) {
        ("object", Value::Object(m)) => {
            if resource || !s.properties.is_empty() {
                return object(m, |k| {
                    if resource && matches!(k, "apiVersion" | "kind") {
                        Member::TypeMeta
                    } else if resource && k == "metadata" {
                        Member::Metadata
                    } else {
                        s.properties.get(k).map_or(Member::Unknown, Member::Declared)
                    }
                });
            }
            if let Some(additional) = s.additional_properties.as_ref().and_then(|a| a.schema()) {
                let entries = m
                    .iter()
                    .map(|(k, v)| (Cel::string(k.as_str()), to_cel(v, additional, false)))
                    .collect();
                return Cel::map(entries);
            }
            untyped(value)
        }
        ("array", Value::Array(items)) => {
            let Some(item_schema) = s.items.as_deref() else {
                return Cel::invalid_data("invalid array type, expected Items with a non-empty Schema");
            };
            let kind = match s.extensions.x_list_type.as_deref() {
                Some("set") => ListKind::Set,
                Some("map") => ListKind::Map(
                    s.extensions
                        .x_list_map_keys
                        .iter()
                        .flatten()
                        .map(|k| kstruct_cel::escape_property(k).unwrap_or_else(|| k.clone()))
                        .collect::<Vec<_>>()
                        .into(),
                ),
                _ => ListKind::Atomic,
            };
            Cel::List(Arc::new(List {
                items: items.iter().map(|v| to_cel(v, item_schema, false)).collect(),
                kind,
            }))
        }
        ("string", Value::String(text)) => match s.value_validation.format.as_str() {
            "byte" => match base64_decode(text) {
                Some(b) => Cel::Bytes(b.into()),
                None => Cel::string(text.as_str()),
            },
            "date-time" | "date" | "duration" => kstruct_cel::value::parse_formatted(text, &s.value_validation.format)
                .unwrap_or_else(|| Cel::string(text.as_str())),
            _ => Cel::string(text.as_str()),
        },
        ("number", Value::Number(n)) => Cel::Double(n.as_f64().unwrap_or(f64::NAN)),
        ("integer", Value::Number(n)) if n.as_i64().is_some() => untyped(value),
        ("boolean", Value::Bool(_)) => untyped(value),
        ("object", _) => Cel::invalid_data("invalid data, expected a map for the provided schema with type=object"),
        ("array", _) => Cel::invalid_data("invalid data, expected an array for the provided schema with type=array"),
        ("string", _) => Cel::invalid_data(format!("invalid data, expected string, got {}", go_type(value))),
        ("number", _) => Cel::invalid_data(format!("invalid data, expected float, got {}", go_type(value))),
        ("integer", _) => Cel::invalid_data(format!("invalid data, expected int, got {}", go_type(value))),
        ("boolean", _) => Cel::invalid_data(format!("invalid data, expected bool, got {}", go_type(value))),
        _ if s.extensions.x_preserve_unknown_fields => untyped(value),
        (other, _) => Cel::invalid_data(format!(
            "invalid type, expected object, array, number, integer, boolean or string, or no type with \
             x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got {other}"
        )),
    }
}

/// Go's `%T` of a value `encoding/json` decoded into an `interface{}` (integers as `int64`, as
/// the API server's unstructured decoder leaves them).
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.as_i64().is_some() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// What a member of an object is to rules.
enum Member<'a> {
    /// A declared property, with its schema.
    Declared(&'a Structural),
    /// A resource's `apiVersion` or `kind`: a string.
    TypeMeta,
    /// A resource's `metadata`: its `name` and `generateName`.
    Metadata,
    /// Undeclared (a preserved unknown field).
    Unknown,
}

/// An object: its declared members as fields under their escaped names (a `null` one
/// absent), the rest kept aside for equality ([`Hidden`]).
fn object<'a>(m: &serde_json::Map<String, Value>, member: impl Fn(&str) -> Member<'a>) -> Cel {
    let mut entries = Vec::with_capacity(m.len());
    let mut hidden = Hidden {
        len: m.len(),
        ..Hidden::default()
    };
    for (k, v) in m {
        let member = member(k);
        if matches!(member, Member::Unknown) {
            hidden.unknown.push((Arc::from(k.as_str()), untyped(v)));
            continue;
        }
        // A property set to null is absent for rules (`has()` is false).
        if v.is_null() {
            hidden.nulls.push(Arc::from(k.as_str()));
            continue;
        }
        let field = match member {
            Member::Declared(p) => to_cel(v, p, false),
            Member::TypeMeta if !v.is_string() => continue,
            Member::TypeMeta => untyped(v),
            Member::Metadata => metadata(v),
            Member::Unknown => continue,
        };
        match kstruct_cel::escape_property(k) {
            Some(name) => entries.push((Cel::string(name), field)),
            None => hidden.unnamed.push((Arc::from(k.as_str()), field)),
        }
    }
    let hidden = (hidden.len != entries.len()).then(|| Arc::new(hidden));
    Cel::Map(Arc::new(Map {
        entries,
        object: Some(Arc::from("object")),
        hidden,
    }))
}

/// `metadata` of a resource as rules see it: its `name` and `generateName`.
fn metadata(v: &Value) -> Cel {
    let Value::Object(m) = v else { return untyped(v) };
    object(m, |k| match k {
        "name" | "generateName" if m.get(k).is_some_and(|v| v.is_string() || v.is_null()) => Member::Declared(&STRING),
        _ => Member::Unknown,
    })
}

/// The schema of `metadata.name` and `generateName`.
static STRING: std::sync::LazyLock<Structural> = std::sync::LazyLock::new(|| {
    let mut s = Structural::default();
    s.generic.type_ = "string".into();
    s
});

/// A value without a schema (preserved unknown fields, int-or-string): JSON's own types,
/// integers as `int` and other numbers as `double`.
fn untyped(v: &Value) -> Cel {
    match v {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Cel::Int(i),
            None => Cel::Double(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Cel::string(s.as_str()),
        Value::Array(items) => Cel::list(items.iter().map(untyped).collect()),
        Value::Object(m) => Cel::map(m.iter().map(|(k, v)| (Cel::string(k.as_str()), untyped(v))).collect()),
    }
}

/// Standard base64 (with padding), as `strfmt.Base64` decodes it.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut buf = 0u32;
    let mut bits = 0;
    let body = s.trim_end_matches('=');
    if !s.len().is_multiple_of(4) || s.len() - body.len() > 2 {
        return None;
    }
    for c in body.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        buf = (buf << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
        }
    }
    Some(out)
}
