//! What the API server's `unstructuredSchemaCoercer` does to a decoded object: round-trip the
//! root metadata, prune, drop nulls, coerce embedded resources and restore the root TypeMeta
//! and ObjectMeta, for objects of the CRD's group and kind.

use serde_json::Value;

use super::{Resolve, Selected};
use crate::Error;
use crate::messages::accessor_error;
use crate::objectmeta::{self, CoerceOptions, GetOptions};
use crate::pipeline::{Pipeline, PruneOptions, Steps};

/// How the coercer runs: on the write path it tracks unknown fields (when fieldValidation
/// asks for them); on the storage path it drops malformed metadata and repairs generations.
#[derive(Debug, Clone, Copy)]
pub(super) struct Mode {
    pub track: bool,
    pub drop_invalid_metadata: bool,
    pub repair_generation: bool,
}

/// What [`apply`] did.
pub(super) struct Applied<'a, P: ?Sized> {
    /// Unknown-field paths: root metadata, then pruning (sorted), then embedded metadata
    /// (sorted).
    pub unknown: Vec<String>,
    /// The pipeline that defaults the object: the one of its CRD version, if it has one.
    pub pipeline: Option<&'a P>,
}

/// Why [`apply`] failed.
pub(super) enum Failure {
    /// The API server rejects the object with this text.
    Rejected(String),
    /// The target could not say how to treat the object.
    Target(Error),
}

/// The reference's `unstructuredSchemaCoercer.apply`, on a root object.
pub(super) fn apply<'a, R: Resolve + ?Sized>(
    obj: &mut Value,
    target: &'a R,
    mode: Mode,
) -> Result<Applied<'a, R::Pipeline>, Failure> {
    let Value::Object(map) = obj else {
        return Ok(Applied {
            unknown: Vec::new(),
            pipeline: None,
        });
    };
    let kind = nested_string(map, "kind")?;
    let api_version = nested_string(map, "apiVersion")?;
    let get = GetOptions {
        drop_malformed_fields: mode.drop_invalid_metadata,
        return_unknown_field_paths: mode.track,
        parent_path: None,
    };
    let found = objectmeta::get_object_meta(map, &get).map_err(Failure::Rejected)?;
    let mut meta = found.meta;
    let mut unknown = found.unknown_fields;
    let (group, version) =
        crate::parse_group_version(api_version.as_deref().unwrap_or("")).map_err(Failure::Rejected)?;
    let selected = target
        .resolve(group, version, kind.as_deref().unwrap_or(""))
        .map_err(Failure::Target)?;
    let mut pipeline = None;
    if let Selected::Crd {
        pipeline: p,
        preserve_unknown_fields,
    } = selected
    {
        pipeline = p;
        if !preserve_unknown_fields {
            let opts = PruneOptions {
                resource_root: true,
                track_unknown_fields: mode.track,
            };
            match p {
                Some(p) => {
                    unknown.extend(p.walk(obj, opts, Steps::PRUNE_NULLS).unknown_fields);
                }
                // A version the CRD does not have: an empty schema.
                None => unknown.extend(crate::structural::prune(obj, None, true, mode.track)),
            }
        }
        if let Some(p) = p {
            let opts = CoerceOptions {
                drop_invalid_fields: mode.drop_invalid_metadata,
                return_unknown_field_paths: mode.track,
            };
            let paths = p
                .coerce_embedded(obj, opts)
                .map_err(|e| Failure::Rejected(e.to_string()))?;
            unknown.extend(paths);
        }
        // Very old objects were stored without a generation. (The reference dereferences a
        // nil ObjectMeta here when metadata is absent; there is nothing to repair then.)
        if mode.repair_generation
            && let Some(m) = meta.as_mut()
            && m.generation == 0
        {
            m.generation = 1;
        }
    }
    // Restore the root TypeMeta and ObjectMeta, whatever the schema did to them.
    if let Value::Object(map) = obj {
        if let Some(k) = kind {
            map.insert("kind".into(), Value::String(k));
        }
        if let Some(v) = api_version {
            map.insert("apiVersion".into(), Value::String(v));
        }
        if let Some(m) = meta.as_ref() {
            objectmeta::set_object_meta(map, Some(m));
        }
    }
    Ok(Applied { unknown, pipeline })
}

/// `unstructured.NestedString` at the top level: `None` when absent.
fn nested_string(map: &serde_json::Map<String, Value>, field: &str) -> Result<Option<String>, Failure> {
    match map.get(field) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(Failure::Rejected(accessor_error(field, other))),
    }
}
