//! What the API server does to a decoded custom resource before it stores an update (PUT, and
//! the result of a PATCH): the registry's `BeforeUpdate` (metadata the client cannot change
//! is taken from the stored object, the strategy's `PrepareForUpdate`), then the validation of
//! `BeforeUpdate` and of the custom-resource strategy's `ValidateUpdate`, with CRD validation
//! ratcheting (errors in values the update did not change are dropped).

use std::collections::HashSet;

use serde_json::{Map, Value};

use kstruct_schema::Structural;
use kstruct_schema::field::{BadValue, ErrorKind, FieldError, Path};

use super::create::{CreateContext, create_warnings};
use crate::objectmeta::{self, GetOptions, ObjectMeta, path_segment_name, validate_object_meta};

/// The metadata of `obj`, as the registry reads it (`meta.Accessor`); empty when absent or
/// malformed.
fn meta_of(obj: &Value) -> ObjectMeta {
    match obj {
        Value::Object(map) => objectmeta::get_object_meta(map, &GetOptions::default())
            .ok()
            .and_then(|f| f.meta)
            .unwrap_or_default(),
        _ => ObjectMeta::default(),
    }
}

/// The custom-resource strategy's `PrepareForUpdate`: under the status subresource an update
/// cannot set `status` (the stored one is kept, or none); any change outside `metadata`
/// increments `metadata.generation`.
pub fn prepare_for_update(new: &mut Value, old: &Value, status_subresource: bool) {
    let (Value::Object(new_map), Value::Object(old_map)) = (&mut *new, old) else {
        return;
    };
    if status_subresource {
        match old_map.get("status") {
            Some(status) => {
                new_map.insert("status".into(), status.clone());
            }
            None => {
                new_map.remove("status");
            }
        }
    }
    let changed = new_map.len() - usize::from(new_map.contains_key("metadata"))
        != old_map.len() - usize::from(old_map.contains_key("metadata"))
        || new_map
            .iter()
            .filter(|(k, _)| *k != "metadata")
            .any(|(k, v)| old_map.get(k) != Some(v));
    if changed {
        let generation = meta_of(old).generation + 1;
        set_generation(new_map, generation);
    }
}

fn set_generation(map: &mut Map<String, Value>, generation: i64) {
    if let Some(Value::Object(meta)) = map.get_mut("metadata") {
        if generation == 0 {
            meta.remove("generation");
        } else {
            meta.insert("generation".into(), generation.into());
        }
    }
}

/// The registry's `BeforeUpdate` up to validation: a cluster-scoped object loses its
/// namespace, `generation` is the stored one's (then [`prepare_for_update`]), and `uid`
/// (when the update has none), `creationTimestamp`, `deletionTimestamp` and
/// `deletionGracePeriodSeconds` (when the update has none) are the stored object's.
/// `ctx` is `None` where the CRD is unknown (a lone pipeline): no scope, no status
/// subresource.
pub fn before_update(ctx: Option<&CreateContext<'_>>, new: &mut Value, old: &Value) {
    let old_meta = meta_of(old);
    let mut meta = meta_of(new);
    if ctx.is_some_and(|c| !c.namespaced) {
        meta.namespace.clear();
    }
    meta.generation = old_meta.generation;
    if let Value::Object(map) = new {
        objectmeta::set_object_meta(map, Some(&meta));
    }
    prepare_for_update(new, old, ctx.is_some_and(|c| c.status_subresource));
    let mut meta = meta_of(new);
    if meta.uid.is_empty() {
        meta.uid.clone_from(&old_meta.uid);
    }
    if !old_meta.creation_timestamp.is_zero() {
        meta.creation_timestamp = old_meta.creation_timestamp;
    }
    if old_meta.deletion_timestamp.is_some() {
        meta.deletion_timestamp = old_meta.deletion_timestamp;
    }
    if old_meta.deletion_grace_period_seconds.is_some() && meta.deletion_grace_period_seconds.is_none() {
        meta.deletion_grace_period_seconds = old_meta.deletion_grace_period_seconds;
    }
    if let Value::Object(map) = new {
        objectmeta::set_object_meta(map, Some(&meta));
    }
}

/// Everything the API server checks on an update after [`before_update`], in its order:
/// ObjectMeta with path-segment names and its update rules (`validateCommonFields`), then the
/// strategy's `ValidateUpdate`: apiVersion and kind (alone, when wrong), the update rules
/// again, OpenAPI value validation with ratcheting, the scale subresource's paths, embedded
/// resources, list types (only when the stored object had no list-type error), and the CEL
/// notice when blocking errors stop CEL rules. Repeated messages are the server's too; its
/// `Invalid` answer prints each once ([`invalid_message`](super::invalid_message)).
pub fn validate_update(ctx: &CreateContext<'_>, new: &Value, old: &Value) -> Vec<FieldError> {
    let metadata = Path::new("metadata");
    let (meta, old_meta) = (meta_of(new), meta_of(old));
    let mut errs = validate_object_meta(&meta, ctx.namespaced, &path_segment_name, &metadata);
    let update_rules = object_meta_update(&meta, &old_meta, &metadata);
    errs.extend(update_rules.iter().cloned());
    let type_errors = super::create::type_meta(ctx, new);
    let schema_errors = ctx.pipeline.map(|p| p.validate(new)).unwrap_or_default();
    if type_errors.is_empty() {
        errs.extend(update_rules);
        let unchanged = unchanged_paths(ctx.pipeline.and_then(|p| p.structural()), new, old);
        errs.extend(schema_errors.values.into_iter().filter(|e| !ratcheted(e, &unchanged)));
        if let Some(scale) = &ctx.scale {
            errs.extend(super::create::scale_errors(scale, new));
        }
    } else {
        // The validator stops at apiVersion and kind; the strategy goes on.
        errs.extend(type_errors);
    }
    errs.extend(schema_errors.embedded_resources);
    let old_list_errors = ctx.pipeline.map(|p| p.validate(old).list_types).unwrap_or_default();
    if old_list_errors.is_empty() {
        errs.extend(schema_errors.list_types);
    }
    if ctx.pipeline.is_some_and(|p| p.has_validation_rules()) && errs.iter().any(super::create::is_blocking) {
        errs.push(FieldError::invalid(
            &Path::nil(),
            BadValue::Null,
            "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ));
    }
    errs
}

/// `ValidateObjectMetaAccessorUpdate`.
fn object_meta_update(new: &ObjectMeta, old: &ObjectMeta, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if old.deletion_timestamp.is_some() {
        let before: HashSet<&str> = old.finalizers.iter().map(String::as_str).collect();
        let added: Vec<&String> = new.finalizers.iter().filter(|f| !before.contains(f.as_str())).collect();
        if !added.is_empty() {
            errs.push(FieldError::forbidden(
                &path.child("finalizers"),
                format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                    added.iter().map(|f| kstruct_schema::go::quote(f)).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
    if new.resource_version.is_empty() {
        errs.push(FieldError::invalid(
            &path.child("resourceVersion"),
            BadValue::String(String::new()),
            "must be specified for an update",
        ));
    }
    if new.generation < old.generation {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            BadValue::Int(new.generation),
            "must not be decremented",
        ));
    }
    let immutable = |errs: &mut Vec<FieldError>, field: &str, changed: bool, value: BadValue| {
        if changed {
            errs.push(FieldError::invalid(&path.child(field), value, "field is immutable"));
        }
    };
    immutable(
        &mut errs,
        "name",
        new.name != old.name,
        BadValue::String(new.name.clone()),
    );
    immutable(
        &mut errs,
        "namespace",
        new.namespace != old.namespace,
        BadValue::String(new.namespace.clone()),
    );
    immutable(&mut errs, "uid", new.uid != old.uid, BadValue::String(new.uid.clone()));
    immutable(
        &mut errs,
        "creationTimestamp",
        new.creation_timestamp != old.creation_timestamp,
        BadValue::String(new.creation_timestamp.to_rfc3339_utc()),
    );
    immutable(
        &mut errs,
        "deletionTimestamp",
        new.deletion_timestamp != old.deletion_timestamp,
        new.deletion_timestamp
            .as_ref()
            .map_or(BadValue::Null, |t| BadValue::String(t.to_rfc3339_utc())),
    );
    immutable(
        &mut errs,
        "deletionGracePeriodSeconds",
        new.deletion_grace_period_seconds != old.deletion_grace_period_seconds,
        new.deletion_grace_period_seconds.map_or(BadValue::Null, BadValue::Int),
    );
    errs
}

/// The warnings of an update that passed (`WarningsOnUpdate`): those of a create, for the
/// finalizers the update adds.
pub fn update_warnings(new: &Value, old: &Value) -> Vec<String> {
    let before: HashSet<&str> = old
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map(|f| f.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let added: Vec<Value> = new
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map(|f| {
            f.iter()
                .filter(|v| v.as_str().is_some_and(|s| !before.contains(s)))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    create_warnings(&serde_json::json!({"metadata": {"finalizers": added}}))
}

/// Paths (kube-openapi's names: properties and map keys joined with `.`, items as `[i]`, the
/// root `""`) where the new object's value equals the one the ratcheting validator
/// correlates it with in the old object: the same property or map key, and in `map` lists
/// the item with the same keys (other lists are not correlated).
fn unchanged_paths(schema: Option<&Structural>, new: &Value, old: &Value) -> HashSet<String> {
    let mut out = HashSet::new();
    correlate(schema, new, old, String::new(), &mut out);
    out
}

fn correlate(schema: Option<&Structural>, new: &Value, old: &Value, path: String, out: &mut HashSet<String>) {
    if new == old {
        out.insert(path);
        return;
    }
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => {
            for (k, v) in n {
                let Some(ov) = o.get(k) else { continue };
                let child = schema.and_then(|s| {
                    s.properties
                        .get(k)
                        .or(s.additional_properties.as_ref().and_then(|a| a.schema()))
                });
                kstruct_schema::grow(|| correlate(child, v, ov, join(k), out));
            }
        }
        (Value::Array(n), Value::Array(o)) => {
            let Some(s) = schema.filter(|s| s.extensions.x_list_type.as_deref() == Some("map")) else {
                return;
            };
            let keys = s.extensions.x_list_map_keys.as_deref().unwrap_or(&[]);
            let key_of = |item: &Value| -> Option<Vec<Option<Value>>> {
                let map = item.as_object()?;
                Some(keys.iter().map(|k| map.get(k).cloned()).collect())
            };
            let items = s.items.as_deref();
            for (i, item) in n.iter().enumerate() {
                let Some(key) = key_of(item) else { continue };
                if let Some(old_item) = o.iter().find(|x| key_of(x).as_ref() == Some(&key)) {
                    kstruct_schema::grow(|| correlate(items, item, old_item, format!("{path}[{i}]"), out));
                }
            }
        }
        _ => {}
    }
}

/// Whether ratcheting drops `e`: the node that raised it (the parent of a `Required` key) is
/// at or below an unchanged path.
fn ratcheted(e: &FieldError, unchanged: &HashSet<String>) -> bool {
    if unchanged.contains("") {
        return true;
    }
    let field = e.field.as_str();
    let node = if e.kind == ErrorKind::Required {
        field.rfind('.').map_or("", |i| &field[..i])
    } else {
        field
    };
    let bytes = node.as_bytes();
    (1..=bytes.len())
        .any(|end| (end == bytes.len() || bytes[end] == b'.' || bytes[end] == b'[') && unchanged.contains(&node[..end]))
}
