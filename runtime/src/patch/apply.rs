//! Server-side apply bodies (`application/apply-patch+yaml`) of custom resources: what the
//! field manager refuses, with structured-merge-diff's words and paths; the YAML strict check
//! after it; and what is stored (the applied fields merged into the stored object, or a
//! create).
//!
//! Managed fields are not modelled: every apply is a forced apply whose manager owns nothing
//! yet, so fields the stored object has and the body leaves out are kept (the server removes
//! those a manager applied before and no longer applies).

use serde_json::{Map, Value};

use super::typed::TypedSchema;
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
/// 2. the field manager converts it to a typed object by structured-merge-diff's schema of
///    the version (see below); what that refuses fails the request whatever the
///    fieldValidation, with its 500 answer ([`Error::Apply`]: `failed to create typed patch
///    object (/w; example.com/v1, Kind=Widget): .spec.x: field not declared in schema`,
///    `.spec.name: expected string, got &value.valueUnstructured{Value:5}`, `.spec.ports:
///    duplicate entries for key [name="a"]`); as the field manager, an object is left at its
///    first undeclared key (kstruct walks keys in byte order: the server in Go's map order);
/// 3. only then, under fieldValidation Strict and Warn, the body's repeated keys are
///    `error strict decoding patch: error converting YAML to JSON: yaml: unmarshal
///    errors:\n  line 10: key "x" already set in map` (400) or one warning per line;
/// 4. the applied fields are merged into the stored object by the same schema (objects
///    member by member, `map` lists item by item by their keys and `set` lists as unions,
///    in structured-merge-diff's order, anything else replaced) and the result is updated as a PUT is ([`decode::update`]), or created as a
///    create is ([`decode::request`], with [`DecodeOptions::validate`] validated).
///
/// The typed schema is the version's with the server's changes: `apiVersion` and `kind` are
/// strings and `metadata` is ObjectMeta (its unknown keys refused) at the root and in every
/// embedded resource; `x-kubernetes-preserve-unknown-fields` holds for every node written
/// inside the node that sets it (so `.spec.free.x.y.deep` under it is accepted, though
/// pruning removes it afterwards), and `spec.preserveUnknownFields: true` for every object;
/// a string with a format other than `byte`, and an int-or-string, take any scalar.
///
/// # Errors
/// As above, and [`Error::Rejected`] (400) for a body that is not a YAML or JSON object
/// (`error decoding patch: ...`), one of another group, version or kind than the stored
/// object's, or without an apiVersion or a kind (`invalid object type: example.com/v1,
/// Kind=`), or with `metadata.managedFields`.
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
                "error decoding patch: error converting YAML to JSON: {}",
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
                "error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                kstruct_schema::go::json_kind(&other)
            )));
        }
    };
    let text = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let api_version = text(&applied, "apiVersion");
    let kind = text(&applied, "kind");
    // The field manager's first step (`versionCheckManager`): the applied object must be of
    // the endpoint's group, version and kind. The endpoint is the stored object's resource;
    // an apply that creates goes to the resource its body names (as kubectl builds the URL),
    // which a body without a version or a kind cannot name.
    let applied_gvk = unstructured_gvk(&applied);
    let refused = match &old {
        Some(Value::Object(old)) => applied_gvk != unstructured_gvk(old),
        _ => applied_gvk.1.is_empty() || applied_gvk.2.is_empty(),
    };
    if refused {
        let (group, version, kind) = applied_gvk;
        return Err(bad_request(format!(
            "invalid object type: {group}/{version}, Kind={kind}"
        )));
    }
    if has_managed_fields(&applied) {
        return Err(bad_request("metadata.managedFields must be nil".into()));
    }
    let (group, version) = crate::parse_group_version(&api_version).unwrap_or(("", ""));
    let typed = match target.resolve(group, version, &kind)? {
        Selected::Crd {
            pipeline,
            preserve_unknown_fields,
        } => TypedSchema {
            root: pipeline.and_then(|p| p.skeleton()),
            preserve_all: preserve_unknown_fields,
        },
        Selected::Other => TypedSchema {
            root: None,
            preserve_all: false,
        },
    };
    let mut applied = Value::Object(applied);
    let errors = typed.validate(&applied);
    if !errors.is_empty() {
        let meta = applied.get("metadata");
        let field = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str).unwrap_or("");
        let detail = match errors.as_slice() {
            [one] => one.clone(),
            many => {
                let mut s = String::from("errors:");
                for e in many {
                    s.push_str("\n  ");
                    s.push_str(e);
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
            return Err(bad_request(format!("error strict decoding patch: {err}")));
        }
        warnings = crate::messages::warnings(vec![err]);
    }
    let Some(old) = old else {
        // A create: the applied object, defaulted, through the create's steps.
        let read = decode::update_stored(target, &applied)?;
        crate::json::dispose(applied);
        let (mut object, create_warnings) =
            decode::validated(target, read, None, options.validate).map_err(|e| e.with_warnings(&warnings))?;
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
    typed.merge(typed.root(), &mut merged, std::mem::take(&mut applied));
    let read = decode::update_stored(target, &merged)?;
    crate::json::dispose(merged);
    let decoded = Decoded {
        object: read,
        warnings: warnings.into(),
        ..Decoded::default()
    };
    decode::update_finish(target, decoded, &old, options.validate, decode::Via::Patch).map(|mut d| {
        decode::set_resource_version(&mut d.object, options.resource_version);
        d
    })
}

/// `Unstructured.GroupVersionKind()`: group, version and kind, all empty when the apiVersion
/// does not parse; a value that is not a string reads as empty.
fn unstructured_gvk(obj: &Map<String, Value>) -> (String, String, String) {
    let text = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("");
    match crate::parse_group_version(text("apiVersion")) {
        Ok((group, version)) => (group.to_string(), version.to_string(), text("kind").to_string()),
        Err(_) => Default::default(),
    }
}

/// Whether the body sets managed fields as the field manager reads them (`GetManagedFields()
/// != nil`): a list, empty or of entries that all convert (string members, a time that
/// parses). Anything else reads as none, and goes on to be typed.
fn has_managed_fields(obj: &Map<String, Value>) -> bool {
    let Some(Value::Array(items)) = obj.get("metadata").and_then(|m| m.get("managedFields")) else {
        return false;
    };
    items.iter().all(|item| {
        let Value::Object(entry) = item else { return false };
        entry.iter().all(|(k, v)| match (k.as_str(), v) {
            (_, Value::Null) => true,
            ("time", Value::String(t)) => crate::objectmeta::Time::parse_rfc3339(t).is_ok(),
            ("manager" | "operation" | "apiVersion" | "fieldsType" | "subresource", v) => v.is_string(),
            // `fieldsV1` takes any JSON; other keys are not the entry's.
            _ => true,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn managed_fields_as_the_field_manager_reads_them() {
        let with = |m: Value| has_managed_fields(json!({"metadata": {"managedFields": m}}).as_object().unwrap());
        assert!(with(json!([])));
        assert!(with(
            json!([{"manager": "m", "time": "2024-01-01T00:00:00Z", "fieldsV1": {"f:a": {}}, "x": 1}])
        ));
        assert!(!with(json!(null)));
        assert!(!with(json!("x")));
        assert!(!with(json!([1])));
        assert!(!with(json!([{"manager": 1}])));
        assert!(!with(json!([{"time": "yesterday"}])));
    }
}
