//! RFC 7386 JSON merge patch, as the API server applies it (`evanphx/json-patch` v4's
//! `MergePatch`): a `null` member deletes, objects merge member by member, anything else
//! replaces. Where the library differs from the RFC, it is followed:
//!
//! - `null` members are stripped from objects the patch adds, also inside arrays, but `null`
//!   items of arrays are kept;
//! - an array (or scalar) replacing an existing object is taken as it is, `null`s included;
//! - a patch that is an array replaces the whole document; one that is `null` or a scalar is
//!   refused (`Invalid JSON Patch`).

use serde_json::Value;

/// The library's `ErrBadJSONPatch` text.
pub const BAD_PATCH: &str = "Invalid JSON Patch";

/// Merges `patch` into `doc` (the stored object, an object).
///
/// # Errors
/// [`BAD_PATCH`] for a `null` or scalar patch.
pub fn apply(doc: Value, patch: Value) -> Result<Value, &'static str> {
    match (doc, patch) {
        (doc, Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_)) => {
            crate::json::dispose(doc);
            Err(BAD_PATCH)
        }
        (doc, Value::Array(mut items)) => {
            crate::json::dispose(doc);
            prune_array_nulls(&mut items);
            Ok(Value::Array(items))
        }
        (Value::Object(mut doc), Value::Object(patch)) => {
            merge_objects(&mut doc, patch);
            Ok(Value::Object(doc))
        }
        (doc, mut patch) => {
            crate::json::dispose(doc);
            prune_nulls(&mut patch);
            Ok(patch)
        }
    }
}

fn merge_objects(doc: &mut serde_json::Map<String, Value>, patch: serde_json::Map<String, Value>) {
    for (k, mut v) in patch {
        if v.is_null() {
            discard(doc.remove(&k));
            continue;
        }
        match doc.get_mut(&k) {
            Some(Value::Object(cur)) => match v {
                Value::Object(p) => kstruct_schema::grow(|| merge_objects(cur, p)),
                other => discard(doc.insert(k, other)),
            },
            _ => {
                prune_nulls(&mut v);
                discard(doc.insert(k, v));
            }
        }
    }
}

/// Drops a replaced value without recursion (values nest as deep as input goes).
fn discard(v: Option<Value>) {
    if let Some(v) = v {
        crate::json::dispose(v);
    }
}

/// `pruneNulls`: `null` members removed from objects, at every depth, through arrays.
fn prune_nulls(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            for v in map.values_mut() {
                kstruct_schema::grow(|| prune_nulls(v));
            }
        }
        Value::Array(items) => prune_array_nulls(items),
        _ => {}
    }
}

fn prune_array_nulls(items: &mut [Value]) {
    for v in items {
        kstruct_schema::grow(|| prune_nulls(v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merges_as_the_library_does() {
        let doc = json!({"a": {"b": 1, "c": 2}, "s": "x", "o": {"k": 1}, "l": [1]});
        let patch = json!({"a": {"b": null, "d": {"e": null, "f": 1}}, "s": {"x": null, "y": [{"z": null}, null]},
                           "o": [{"k": null}], "l": null, "new": {"n": null}});
        assert_eq!(
            apply(doc, patch),
            Ok(json!({"a": {"c": 2, "d": {"f": 1}}, "s": {"y": [{}, null]}, "o": [{"k": null}], "new": {}}))
        );
    }

    #[test]
    fn whole_document_patches() {
        assert_eq!(
            apply(json!({"a": 1}), json!([{"a": null}, null])),
            Ok(json!([{}, null]))
        );
        assert_eq!(apply(json!({"a": 1}), json!(null)), Err(BAD_PATCH));
        assert_eq!(apply(json!({"a": 1}), json!("x")), Err(BAD_PATCH));
        assert_eq!(apply(json!([1]), json!({"a": null, "b": 1})), Ok(json!({"b": 1})));
    }
}
