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
use crate::objectmeta::{self, ObjectMeta, path_segment_name, validate_object_meta};

use super::accessor_meta as meta_of;

/// The custom-resource strategy's `PrepareForUpdate`: under the status subresource an update
/// cannot set `status` (the stored one is kept, or none); any change outside `metadata`
/// increments `metadata.generation`.
pub fn prepare_for_update(new: &mut Value, old: &Value, status_subresource: bool) {
    let (Value::Object(new_map), Value::Object(old_map)) = (&mut *new, old) else {
        return;
    };
    if status_subresource {
        let replaced = match old_map.get("status") {
            Some(status) => new_map.insert("status".into(), crate::json::deep_clone(status)),
            None => new_map.remove("status"),
        };
        if let Some(v) = replaced {
            crate::json::dispose(v);
        }
    }
    let changed = new_map.len() - usize::from(new_map.contains_key("metadata"))
        != old_map.len() - usize::from(old_map.contains_key("metadata"))
        || new_map
            .iter()
            .filter(|(k, _)| *k != "metadata")
            .any(|(k, v)| old_map.get(k).is_none_or(|o| !same(None, v, o)));
    if changed {
        // Go's int64 wraps; validation then finds the generation decremented.
        let generation = meta_of(old).generation.wrapping_add(1);
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
    validate_update_warned(ctx, new, old).0
}

/// [`validate_update`], with the warnings the server sends for CEL rules' errors on
/// unchanged values (ratcheted: `spec.size: Invalid value: 3: failed rule: self > 5`).
pub fn validate_update_warned(ctx: &CreateContext<'_>, new: &Value, old: &Value) -> (Vec<FieldError>, Vec<String>) {
    let mut warnings = Vec::new();
    let metadata = Path::new("metadata");
    let (meta, old_meta) = (meta_of(new), meta_of(old));
    let mut errs = validate_object_meta(&meta, ctx.namespaced, &path_segment_name, &metadata);
    let update_rules = object_meta_update(&meta, &old_meta, &metadata);
    errs.extend(update_rules.iter().cloned());
    let type_errors = super::create::type_meta(ctx, new);
    let schema_errors = ctx.pipeline.map(|p| p.validate(new)).unwrap_or_default();
    if type_errors.is_empty() {
        errs.extend(update_rules);
        let unchanged = unchanged_paths(ctx.pipeline.and_then(|p| p.skeleton()), new, old);
        errs.extend(schema_errors.values.into_iter().filter(|e| !ratcheted(e, &unchanged)));
        if let Some(scale) = &ctx.scale {
            errs.extend(super::create::scale_errors(scale, new));
        }
    } else {
        // The validator stops at apiVersion and kind; the strategy goes on.
        errs.extend(type_errors);
    }
    errs.extend(schema_errors.embedded_resources);
    // All or nothing: only when the stored object had no list-type error (looked for only
    // when there is something to drop).
    if !schema_errors.list_types.is_empty() && ctx.pipeline.is_none_or(|p| p.validate(old).list_types.is_empty()) {
        errs.extend(schema_errors.list_types);
    }
    if let Some(p) = ctx.pipeline.filter(|p| p.has_validation_rules()) {
        if errs.iter().any(super::create::is_blocking) {
            errs.push(super::create::rules_not_checked());
        } else if let Some(schema) = p.rules_schema() {
            // Errors of unchanged values are ratcheted: the server sends them as warnings.
            let rules = crate::rules::validate_rules_update(schema, new, Some(old), crate::rules::RUNTIME_COST_BUDGET);
            errs.extend(rules.errors);
            warnings.extend(rules.warnings.iter().map(ToString::to_string));
        }
    }
    (errs, warnings)
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

/// Deep equality without recursion limits (values nest as deep as input goes); with a schema,
/// the items of `map` lists are matched by their keys, whatever their order (kube-openapi's
/// `CachedDeepEqual` of the ratcheting validator); without one, lists compare item by item
/// (`Semantic.DeepEqual`).
fn same(schema: Option<&Structural>, a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.get(k)
                        .is_some_and(|w| kstruct_schema::grow(|| same(child(schema, k), v, w)))
                })
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return false;
            }
            let items = schema.and_then(|s| s.items.as_deref());
            match schema.and_then(map_list_keys) {
                Some(keys) => x.iter().all(|item| {
                    let key = list_key(keys, item);
                    key.is_some()
                        && y.iter()
                            .find(|o| list_key(keys, o) == key)
                            .is_some_and(|o| kstruct_schema::grow(|| same(items, item, o)))
                }),
                None => x.iter().zip(y).all(|(v, w)| kstruct_schema::grow(|| same(items, v, w))),
            }
        }
        _ => a == b,
    }
}

fn child<'a>(schema: Option<&'a Structural>, key: &str) -> Option<&'a Structural> {
    schema.and_then(|s| {
        s.properties
            .get(key)
            .or(s.additional_properties.as_ref().and_then(|a| a.schema()))
    })
}

fn map_list_keys(s: &Structural) -> Option<&[String]> {
    (s.extensions.x_list_type.as_deref() == Some("map")).then(|| s.extensions.x_list_map_keys.as_deref().unwrap_or(&[]))
}

/// A `map` list item's key values, by reference; `None` for an item that is not an object.
fn list_key<'a>(keys: &[String], item: &'a Value) -> Option<Vec<Option<&'a Value>>> {
    let map = item.as_object()?;
    Some(keys.iter().map(|k| map.get(k)).collect())
}

fn correlate(schema: Option<&Structural>, new: &Value, old: &Value, path: String, out: &mut HashSet<String>) {
    if same(schema, new, old) {
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
                kstruct_schema::grow(|| correlate(child(schema, k), v, ov, join(k), out));
            }
        }
        (Value::Array(n), Value::Array(o)) => {
            let Some(s) = schema else { return };
            let Some(keys) = map_list_keys(s) else { return };
            let items = s.items.as_deref();
            for (i, item) in n.iter().enumerate() {
                let Some(key) = list_key(keys, item) else { continue };
                if let Some(old_item) = o.iter().find(|x| list_key(keys, x).as_ref() == Some(&key)) {
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
