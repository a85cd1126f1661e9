//! Server-side apply bodies (`application/apply-patch+yaml`) of custom resources: what the
//! field manager refuses, with structured-merge-diff's words and paths; the YAML strict check
//! after it; and what is stored (the applied fields merged into the stored object, or a
//! create).
//!
//! Managed fields are not modelled: every apply is a forced apply whose manager owns nothing
//! yet, so fields the stored object has and the body leaves out are kept (the server removes
//! those a manager applied before and no longer applies).

use serde_json::{Map, Value};

use kstruct_schema::Structural;

use super::{bad_request, check_size};
use crate::Error;
use crate::decode::{self, DecodeOptions, Decoded, FieldValidation, Resolve, Selected};
use crate::pipeline::Pipeline;

/// apimachinery's `hasJSONPrefix`: the first byte after Unicode white space is `{`.
fn has_json_prefix(body: &[u8]) -> bool {
    String::from_utf8_lossy(body).trim_start().starts_with('{')
}

/// Applies a server-side apply body to the stored object `existing` (`None`: the apply
/// creates the object), as the API server does for a custom resource:
/// 1. the body (YAML or JSON) is read leniently (repeated keys: the last wins);
/// 2. the field manager converts it to a typed object: fields the schema does not declare
///    (outside `x-kubernetes-preserve-unknown-fields`) fail the request whatever the
///    fieldValidation, with its 500 answer ([`Error::Apply`]:
///    `failed to create typed patch object (/w; example.com/v1, Kind=Widget): .spec.x: field
///    not declared in schema`); as the field manager, only the first such field of each
///    object is named (kstruct takes them in key order: the server in Go's map order);
/// 3. only then, under fieldValidation Strict and Warn, the body's repeated keys are
///    `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal
///    errors:\n  line 10: key "x" already set in map` (400) or one warning per line;
/// 4. the applied fields are merged into the stored object (objects member by member,
///    `map` lists item by item by their keys, `set` lists as unions, anything else
///    replaced) and the result is updated as a PUT is ([`decode::update`]), or created as a
///    create is ([`decode::request`], with [`DecodeOptions::validate`] validated).
///
/// # Errors
/// As above, and [`Error::Rejected`] (400) for a body that is not a YAML or JSON object, an
/// apiVersion other than the stored object's (`Incorrect version specified in apply patch`)
/// or `metadata.managedFields`.
pub fn apply<R: Resolve + ?Sized>(
    target: &R,
    existing: Option<&Value>,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    check_size(body, options)?;
    // The handler converts a YAML body to JSON before anything else (a JSON one, starting
    // with `{`, is passed on unread): YAML that does not parse fails here, before the
    // stored object is even looked up.
    let early = if has_json_prefix(body) {
        None
    } else {
        let converted = kstruct_schema::yaml::to_json_bytes(body)
            .map_err(|e| bad_request(format!("error encoding patch: {}", e.message())))?;
        Some(converted)
    };
    let old = existing.map(|e| decode::update_stored(target, e)).transpose()?;
    let converted = match early {
        Some(converted) => converted,
        None => kstruct_schema::yaml::to_json_bytes(body).map_err(|e| {
            bad_request(format!(
                "error decoding YAML: error converting YAML to JSON: {}",
                e.message()
            ))
        })?,
    };
    let duplicates = converted.strict_error();
    let applied = match converted.value {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        other => {
            return Err(bad_request(format!(
                "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                kstruct_schema::go::json_kind(&other)
            )));
        }
    };
    let text = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let api_version = text(&applied, "apiVersion");
    let kind = text(&applied, "kind");
    if let Some(Value::Object(old)) = &old {
        let expected = text(old, "apiVersion");
        if api_version != expected {
            return Err(bad_request(format!(
                "Incorrect version specified in apply patch. Specified patch version: {api_version}, expected: {expected}"
            )));
        }
    }
    if applied
        .get("metadata")
        .and_then(|m| m.get("managedFields"))
        .is_some_and(|m| !m.is_null())
    {
        return Err(bad_request("metadata.managedFields must be nil".into()));
    }
    let (group, version) = crate::parse_group_version(&api_version).unwrap_or(("", ""));
    let pipeline = match target.resolve(group, version, &kind)? {
        Selected::Crd {
            pipeline,
            preserve_unknown_fields,
        } => pipeline.filter(|_| !preserve_unknown_fields),
        Selected::Other => None,
    };
    let mut applied = Value::Object(applied);
    let undeclared = undeclared_fields(pipeline, &applied);
    if !undeclared.is_empty() {
        let meta = applied.get("metadata");
        let field = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str).unwrap_or("");
        let detail = match undeclared.as_slice() {
            [one] => format!("{one}: field not declared in schema"),
            many => {
                let mut s = String::from("errors:");
                for p in many {
                    s.push_str(&format!("\n  {p}: field not declared in schema"));
                }
                s
            }
        };
        return Err(Error::Apply(format!(
            "failed to create typed patch object ({}/{}; {}/{}, Kind={kind}): {detail}",
            field("namespace"),
            field("name"),
            group,
            version,
        )));
    }
    let mut warnings = Vec::new();
    if options.field_validation != FieldValidation::Ignore
        && let Some(dups) = duplicates
    {
        let err = format!("error converting YAML to JSON: {dups}");
        if options.field_validation == FieldValidation::Strict {
            return Err(bad_request(format!("error strict decoding YAML: {err}")));
        }
        warnings = crate::messages::warnings(vec![err]);
    }
    let structural = pipeline.and_then(|p| p.skeleton());
    let Some(old) = old else {
        // A create: the applied object, defaulted, through the create's steps.
        let read = decode::update_stored(target, &applied)?;
        crate::json::dispose(applied);
        let (mut object, create_warnings) = decode::validated(target, read, None, options.validate)?;
        if options.validate {
            decode::set_resource_version(&mut object, options.resource_version);
        }
        warnings.extend(create_warnings);
        return Ok(Decoded {
            object,
            warnings: warnings.into(),
            ..Decoded::default()
        });
    };
    let mut merged = crate::json::deep_clone(&old);
    merge(&mut merged, std::mem::take(&mut applied), structural);
    let read = decode::update_stored(target, &merged)?;
    crate::json::dispose(merged);
    let decoded = Decoded {
        object: read,
        warnings: warnings.into(),
        ..Decoded::default()
    };
    decode::update_finish(target, decoded, &old, options.validate, true).map(|mut d| {
        decode::set_resource_version(&mut d.object, options.resource_version);
        d
    })
}

/// The fields of `obj` the field manager's typed conversion refuses, as structured-merge-diff
/// names them (`.spec.ports[containerPort=80,protocol="TCP"].x`): those pruning would remove,
/// and unknown fields of the root metadata, the first of each object only (the conversion
/// stops at it).
fn undeclared_fields<P: Pipeline + ?Sized>(pipeline: Option<&P>, obj: &Value) -> Vec<String> {
    let paths = super::unknown_paths(pipeline, obj);
    let structural = pipeline.and_then(|p| p.skeleton());
    let mut segmented: Vec<Vec<Segment>> = paths.iter().map(|p| segments(p)).collect();
    segmented.sort();
    // Each object is walked in key order and left at its first undeclared field.
    let mut stopped: Vec<(Vec<Segment>, Segment)> = Vec::new();
    let mut out = Vec::new();
    for path in segmented {
        let cut = stopped
            .iter()
            .any(|(parent, key)| path.len() > parent.len() && path.starts_with(parent) && path[parent.len()] > *key)
            || stopped.iter().any(|(parent, key)| {
                path.len() > parent.len() + 1 && path.starts_with(parent) && path[parent.len()] == *key
            });
        if cut {
            continue;
        }
        let parent = path[..path.len() - 1].to_vec();
        stopped.push((parent, path[path.len() - 1].clone()));
        out.push(render(structural, obj, &path));
    }
    out
}

/// A step of a kube field path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Segment {
    Key(String),
    Index(usize),
}

/// `spec.ports[0].x` as steps. Keys are written unescaped, so a key holding `.`, `[` or `]`
/// reads as several steps: its rendering then follows the text, as the path's does.
fn segments(path: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Segment::Key(key.to_string()));
        }
        // `[i]` steps; anything else left over is a key's text.
        while let Some(inner) = rest.strip_prefix('[') {
            let Some(end) = inner.find(']') else { break };
            match inner[..end].parse() {
                Ok(i) => out.push(Segment::Index(i)),
                Err(_) => out.push(Segment::Key(inner[..end].to_string())),
            }
            rest = &inner[end + 1..];
        }
        if !rest.is_empty() {
            out.push(Segment::Key(rest.to_string()));
        }
    }
    out
}

/// structured-merge-diff's rendering of a path: `.field`, `[k1=v1,k2="v2"]` for items of
/// `map` lists (keys sorted), `[="v"]` for items of `set` lists, `[i]` otherwise.
fn render(schema: Option<&Structural>, obj: &Value, path: &[Segment]) -> String {
    let mut out = String::new();
    let (mut s, mut v) = (schema, Some(obj));
    for seg in path {
        match seg {
            Segment::Key(k) => {
                out.push('.');
                out.push_str(k);
                s = s.and_then(|s| {
                    s.properties
                        .get(k)
                        .or(s.additional_properties.as_ref().and_then(|a| a.schema()))
                });
                v = v.and_then(|v| v.get(k));
            }
            Segment::Index(i) => {
                let item = v.and_then(|v| v.get(*i));
                let ext = s.map(|s| &s.extensions);
                match (ext.and_then(|e| e.x_list_type.as_deref()), item) {
                    (Some("map"), Some(Value::Object(m))) => {
                        let mut keys: Vec<&str> = ext
                            .and_then(|e| e.x_list_map_keys.as_deref())
                            .unwrap_or(&[])
                            .iter()
                            .map(String::as_str)
                            .collect();
                        keys.sort_unstable();
                        let parts: Vec<String> = keys
                            .iter()
                            .filter_map(|k| m.get(*k).map(|x| format!("{k}={}", smd_value(x))))
                            .collect();
                        out.push_str(&format!("[{}]", parts.join(",")));
                    }
                    (Some("set"), Some(x)) => out.push_str(&format!("[={}]", smd_value(x))),
                    _ => out.push_str(&format!("[{i}]")),
                }
                s = s.and_then(|s| s.items.as_deref());
                v = item;
            }
        }
    }
    out
}

/// `value.ToString`: strings quoted as Go's `%q`, other values as they print.
fn smd_value(v: &Value) -> String {
    match v {
        Value::String(s) => kstruct_schema::go::quote(s),
        Value::Null => "null".into(),
        other => kstruct_schema::go::marshal_json(other),
    }
}

/// Merges the applied configuration into the stored object.
fn merge(live: &mut Value, applied: Value, schema: Option<&Structural>) {
    match (live, applied) {
        (Value::Object(l), Value::Object(a))
            if schema.is_none_or(|s| s.extensions.x_map_type.as_deref() != Some("atomic")) =>
        {
            for (k, v) in a {
                let child = schema.and_then(|s| {
                    s.properties
                        .get(&k)
                        .or(s.additional_properties.as_ref().and_then(|a| a.schema()))
                });
                match l.get_mut(&k) {
                    Some(cur) => kstruct_schema::grow(|| merge(cur, v, child)),
                    None => {
                        l.insert(k, v);
                    }
                }
                // (a replaced value is dropped by `merge` itself)
            }
        }
        (Value::Array(l), Value::Array(a)) => {
            let ext = schema.map(|s| &s.extensions);
            let items = schema.and_then(|s| s.items.as_deref());
            match ext.and_then(|e| e.x_list_type.as_deref()) {
                Some("map") => {
                    let keys = ext.and_then(|e| e.x_list_map_keys.clone()).unwrap_or_default();
                    let key_of = |x: &Value| -> Vec<Option<Value>> { keys.iter().map(|k| x.get(k).cloned()).collect() };
                    for item in a {
                        let key = key_of(&item);
                        match l.iter_mut().find(|x| key_of(x) == key) {
                            Some(cur) => merge(cur, item, items),
                            None => l.push(item),
                        }
                    }
                }
                Some("set") => {
                    for item in a {
                        if !l.contains(&item) {
                            l.push(item);
                        }
                    }
                }
                _ => crate::json::dispose(Value::Array(std::mem::replace(l, a))),
            }
        }
        (live, applied) => crate::json::dispose(std::mem::replace(live, applied)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_as_structured_merge_diff_renders_them() {
        // Keys with brackets never break the reading.
        for odd in ["a[0]]", "a[0]é]", "x[]]", "[", "]", "a[b", "é[0]x"] {
            assert!(!segments(odd).is_empty(), "{odd}");
        }
        assert_eq!(
            segments("spec.ports[0].x"),
            [
                Segment::Key("spec".into()),
                Segment::Key("ports".into()),
                Segment::Index(0),
                Segment::Key("x".into())
            ]
        );
        let schema = kstruct_schema::convert::from_text(
            "type: object
properties:
  spec:
    type: object
    properties:
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [protocol, containerPort]
        items: {type: object, properties: {containerPort: {type: integer}, protocol: {type: string}}}
      tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
",
        )
        .unwrap()
        .unwrap();
        let obj =
            serde_json::json!({"spec": {"ports": [{"containerPort": 80, "protocol": "TCP", "x": 1}], "tags": ["a"]}});
        assert_eq!(
            render(Some(&schema), &obj, &segments("spec.ports[0].x")),
            r#".spec.ports[containerPort=80,protocol="TCP"].x"#
        );
        assert_eq!(
            render(Some(&schema), &obj, &segments("spec.tags[0]")),
            r#".spec.tags[="a"]"#
        );
        assert_eq!(render(None, &obj, &segments("spec.ports[0].x")), ".spec.ports[0].x");
    }

    #[test]
    fn merges_by_list_types() {
        let schema = kstruct_schema::convert::from_text(
            "type: object
properties:
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items: {type: object, properties: {name: {type: string}, port: {type: integer}, host: {type: string}}}
  tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
  args: {type: array, items: {type: string}}
  labels: {type: object, x-kubernetes-map-type: atomic, additionalProperties: {type: string}}
",
        )
        .unwrap()
        .unwrap();
        let mut live = serde_json::json!({"ports": [{"name": "a", "port": 1, "host": "h"}, {"name": "b", "port": 2}],
            "tags": ["x"], "args": ["1", "2"], "labels": {"a": "1"}, "kept": true});
        let applied = serde_json::json!({"ports": [{"name": "c", "port": 3}, {"name": "a", "port": 9}],
            "tags": ["y", "x"], "args": ["3"], "labels": {"b": "2"}});
        merge(&mut live, applied, Some(&schema));
        assert_eq!(
            live,
            serde_json::json!({"ports": [{"name": "a", "port": 9, "host": "h"}, {"name": "b", "port": 2}, {"name": "c", "port": 3}],
                "tags": ["x", "y"], "args": ["3"], "labels": {"b": "2"}, "kept": true})
        );
    }
}
