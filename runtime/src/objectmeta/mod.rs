//! Layer 4: ObjectMeta and TypeMeta handling: how the API server reads, normalises and writes back
//! `metadata`, at the root of a custom resource and in embedded resources
//! (`x-kubernetes-embedded-resource`).

pub(crate) mod coerce;
mod meta;
mod time;
pub(crate) mod validate;

pub use coerce::{CoerceOptions, coerce};
pub use meta::{ManagedFieldsEntry, ObjectMeta, OwnerReference};
pub use time::{ParseError, Time};
pub use validate::{NameRules, path_segment_name, validate, validate_object_meta};

use serde_json::{Map, Value};

use kstruct_schema::field::Path;

/// How to read `metadata` (the reference's `ObjectMetaOptions`).
#[derive(Debug, Clone, Default)]
pub struct GetOptions {
    /// Drop fields that do not decode, one top-level field at a time (the storage read path),
    /// instead of failing.
    pub drop_malformed_fields: bool,
    /// Collect the paths of unknown fields.
    pub return_unknown_field_paths: bool,
    /// Where the object sits, to prefix unknown-field paths (`spec.template.metadata.x`).
    pub parent_path: Option<Path>,
}

/// What [`get_object_meta`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    /// The decoded metadata; `None` when `metadata` is absent (or unusable, with
    /// `drop_malformed_fields`).
    pub meta: Option<ObjectMeta>,
    /// Unknown-field paths, when asked for (e.g. `metadata.unknownField`).
    pub unknown_fields: Vec<String>,
}

/// Reads `obj["metadata"]` as the reference's `GetObjectMetaWithOptions` does.
///
/// Errors are Go's decoding texts; with `drop_malformed_fields` the only error is
/// `invalid metadata: expected object, got <type>` for a `metadata` that is not an object.
pub fn get_object_meta(obj: &Map<String, Value>, opts: &GetOptions) -> Result<Found, String> {
    let Some(metadata) = obj.get("metadata") else {
        return Ok(Found::default());
    };
    let prefix = || match &opts.parent_path {
        None => "metadata".to_string(),
        Some(p) => p.child("metadata").to_string(),
    };
    let mut unknown = Vec::new();
    let mut meta = ObjectMeta::default();
    let tracked = opts.return_unknown_field_paths.then_some(&mut unknown);
    let err = match meta.decode_into(metadata, tracked) {
        Ok(()) => {
            // One strict decoding call: sigs.k8s.io/json keeps its first 100 errors.
            unknown.truncate(crate::json::MAX_STRICT_ERRORS);
            let p = prefix();
            let unknown_fields = unknown.into_iter().map(|u| format!("{p}.{u}")).collect();
            return Ok(Found {
                meta: Some(meta),
                unknown_fields,
            });
        }
        Err(e) => e,
    };
    if !opts.drop_malformed_fields {
        return Err(err);
    }
    let Value::Object(fields) = metadata else {
        return Err(format!(
            "invalid metadata: expected object, got {}",
            kstruct_schema::go::type_name(metadata)
        ));
    };
    // Field by field: a field that decodes on its own is kept, any other is dropped whole.
    let mut accumulated = ObjectMeta::default();
    let mut unknown_fields = Vec::new();
    for (k, v) in fields {
        let single = Value::Object(Map::from_iter([(k.clone(), crate::json::deep_clone(v))]));
        if ObjectMeta::decode(&single).is_ok() {
            let mut unknown = Vec::new();
            let tracked = opts.return_unknown_field_paths.then_some(&mut unknown);
            let _ = accumulated.decode_into(&single, tracked);
            unknown.truncate(crate::json::MAX_STRICT_ERRORS);
            let p = prefix();
            unknown_fields.extend(unknown.into_iter().map(|u| format!("{p}.{u}")));
        }
        crate::json::dispose(single);
    }
    Ok(Found {
        meta: Some(accumulated),
        unknown_fields,
    })
}

/// Writes `meta` back into `obj["metadata"]` (the reference's `SetObjectMeta`); `None`
/// removes `metadata`.
pub fn set_object_meta(obj: &mut Map<String, Value>, meta: Option<&ObjectMeta>) {
    match meta {
        None => {
            if let Some(old) = obj.remove("metadata") {
                crate::json::dispose(old);
            }
        }
        Some(m) => {
            // The replaced value may hold anything, nested as deep as input goes.
            if let Some(old) = obj.insert("metadata".into(), m.to_value()) {
                crate::json::dispose(old);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn drops_malformed_fields_one_by_one() {
        let o = obj(json!({"metadata": {"name": "n", "namespace": ["abc"], "labels": {"foo": 42}, "x": 1}}));
        let opts = GetOptions {
            drop_malformed_fields: true,
            return_unknown_field_paths: true,
            parent_path: None,
        };
        let found = get_object_meta(&o, &opts).unwrap();
        assert_eq!(found.meta.unwrap().to_value(), json!({"name": "n"}));
        assert_eq!(found.unknown_fields, ["metadata.x"]);
    }

    #[test]
    fn at_most_100_unknown_paths_per_decoding_call() {
        let fields: Map<String, Value> = (0..150).map(|i| (format!("u{i:03}"), json!(1))).collect();
        let refs: Vec<Value> = (0..120).map(|_| json!({"x": 1})).collect();
        let mut o = obj(json!({"metadata": fields}));
        let opts = GetOptions {
            return_unknown_field_paths: true,
            ..GetOptions::default()
        };
        let found = get_object_meta(&o, &opts).unwrap();
        assert_eq!(found.unknown_fields.len(), 100);
        assert_eq!(found.unknown_fields[99], "metadata.u099");
        // Field by field (the read path), the limit holds per field.
        o.insert("metadata".into(), json!({"ownerReferences": refs, "name": 1}));
        let opts = GetOptions {
            drop_malformed_fields: true,
            return_unknown_field_paths: true,
            parent_path: None,
        };
        assert_eq!(get_object_meta(&o, &opts).unwrap().unknown_fields.len(), 100);
    }

    #[test]
    fn owner_references_are_checked_field_by_field() {
        let o = obj(json!({"metadata": {"name": "n", "ownerReferences": [
            {"apiVersion": "", "kind": "", "name": "", "uid": ""},
            {"apiVersion": "a/b/c", "kind": "K", "name": "o", "uid": "u"},
            {"apiVersion": "/v1", "kind": "Event", "name": "e", "uid": "u", "controller": true},
        ]}}));
        let meta = get_object_meta(&o, &GetOptions::default()).unwrap().meta.unwrap();
        let names = |_: &str, _: bool| Vec::new();
        let errs: Vec<String> = validate_object_meta(&meta, false, &names, &Path::new("metadata"))
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            errs,
            [
                "metadata.ownerReferences[0].apiVersion: Required value: must not be empty",
                "metadata.ownerReferences[0].kind: Required value: must not be empty",
                "metadata.ownerReferences[0].name: Required value: must not be empty",
                "metadata.ownerReferences[0].uid: Required value: must not be empty",
                "metadata.ownerReferences[1].apiVersion: Invalid value: \"a/b/c\": must be <group>/<version> or <version>",
                "metadata.ownerReferences[2]: Invalid value: {\"apiVersion\":\"/v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u\",\"controller\":true}: /v1, Kind=Event is disallowed from being an owner",
            ]
        );
    }

    #[test]
    fn non_object_metadata() {
        let o = obj(json!({"metadata": [42]}));
        let opts = GetOptions {
            drop_malformed_fields: true,
            ..GetOptions::default()
        };
        assert_eq!(
            get_object_meta(&o, &opts).unwrap_err(),
            "invalid metadata: expected object, got []interface {}"
        );
        let opts = GetOptions::default();
        assert_eq!(
            get_object_meta(&o, &opts).unwrap_err(),
            "json: cannot unmarshal array into Go value of type v1.ObjectMeta"
        );
    }

    #[test]
    fn prefixes_unknown_paths_with_the_parent() {
        let o = obj(json!({"metadata": {"u": 1}}));
        let opts = GetOptions {
            return_unknown_field_paths: true,
            parent_path: Some(Path::new("spec").child("template")),
            ..GetOptions::default()
        };
        assert_eq!(
            get_object_meta(&o, &opts).unwrap().unknown_fields,
            ["spec.template.metadata.u"]
        );
    }
}
