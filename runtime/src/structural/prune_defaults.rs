//! Serve-time pruning of defaults (the reference's `defaulting.PruneDefaults`).
//!
//! Before it serves a CRD version, the API server cleans every `default` in the schema: it
//! plugs the default into an object at the default's position, coerces ObjectMeta and prunes
//! that object with the whole schema, and takes the default back out. Unknown fields inside
//! defaults thus disappear, and defaults inside `metadata` are normalised.

use serde_json::{Map, Value};

use kstruct_schema::Structural;
use kstruct_schema::field::Path;

use super::prune::prune;
use crate::objectmeta::{CoerceOptions, coerce};

/// One step from the root of the surrounding object down to a default's position.
#[derive(Debug, Clone)]
enum Step {
    /// A property, or `*` for an additionalProperties value.
    Child(String),
    /// An array element.
    Index,
}

/// Prunes every default in `s` in place, in the reference's order (a node's own default, then
/// its additionalProperties schema, items, and properties).
///
/// On error (`failed to prune default value: ...`, e.g. for any default under a root that is
/// not an object), the defaults visited so far stay pruned and the rest stay as written, which
/// is what a server ignoring the error would serve.
pub fn prune_defaults(s: &mut Structural) -> Result<(), String> {
    let mut results = Vec::new();
    let outcome = collect(s, s, &mut Vec::new(), &mut results);
    let mut results = results.into_iter();
    apply(s, &mut results);
    outcome
}

/// First pass, on the unchanged schema: the pruned value of every default, in order, until
/// the first error. Pruning never looks at defaults, so the order of updates cannot matter.
fn collect(
    root: &Structural,
    s: &Structural,
    steps: &mut Vec<Step>,
    out: &mut Vec<Option<Value>>,
) -> Result<(), String> {
    stacker::maybe_grow(kstruct_schema::STACK_RED_ZONE, kstruct_schema::STACK_GROWTH, || {
        if let Some(d) = &s.generic.default {
            out.push(pruned(root, d, steps).map_err(|e| format!("failed to prune default value: {e}"))?);
        }
        if let Some(ap) = s.additional_properties.as_ref().and_then(|a| a.schema()) {
            steps.push(Step::Child("*".into()));
            let r = collect(root, ap, steps, out);
            steps.pop();
            r?;
        }
        if let Some(items) = &s.items {
            steps.push(Step::Index);
            let r = collect(root, items, steps, out);
            steps.pop();
            r?;
        }
        for (k, p) in &s.properties {
            steps.push(Step::Child(k.clone()));
            let r = collect(root, p, steps, out);
            steps.pop();
            r?;
        }
        Ok(())
    })
}

/// Second pass: writes the collected values back, in the same order.
fn apply(s: &mut Structural, results: &mut impl Iterator<Item = Option<Value>>) -> bool {
    stacker::maybe_grow(kstruct_schema::STACK_RED_ZONE, kstruct_schema::STACK_GROWTH, || {
        if s.generic.default.is_some() {
            match results.next() {
                Some(v) => s.generic.default = v,
                None => return false,
            }
        }
        if let Some(ap) = s.additional_properties.as_mut().and_then(|a| a.schema_mut())
            && !apply(ap, results)
        {
            return false;
        }
        if let Some(items) = &mut s.items
            && !apply(items, results)
        {
            return false;
        }
        for p in s.properties.values_mut() {
            if !apply(p, results) {
                return false;
            }
        }
        true
    })
}

/// The default `d` at position `steps`, after coercion and pruning with the root schema;
/// `None` when pruning removed it.
fn pruned(root: &Structural, d: &Value, steps: &[Step]) -> Result<Option<Value>, String> {
    let mut focus = d.clone();
    for step in steps.iter().rev() {
        focus = match step {
            Step::Child(k) => Value::Object(Map::from_iter([(k.clone(), focus)])),
            Step::Index => Value::Array(vec![focus]),
        };
    }
    if !focus.is_object() {
        return Err("object root default value must be of object type".into());
    }
    let opts = CoerceOptions {
        drop_invalid_fields: true,
        return_unknown_field_paths: false,
    };
    // With invalid fields dropped, coercion cannot fail.
    let _ = coerce(&Path::nil(), &mut focus, Some(root), true, opts);
    prune(&mut focus, Some(root), true, false);
    extract(focus, steps)
}

/// Takes the value at `steps` back out, with the reference's accessor errors (each step
/// wraps the error of the steps above it with its own prefix).
fn extract(root: Value, steps: &[Step]) -> Result<Option<Value>, String> {
    let mut cur = root;
    for (i, step) in steps.iter().enumerate() {
        let next = match (step, cur) {
            (Step::Child(k), Value::Object(mut m)) => m.remove(k),
            (Step::Index, Value::Array(mut a)) => (!a.is_empty()).then(|| a.swap_remove(0)),
            (step, _) => {
                let mut msg = match step {
                    Step::Child(k) => format!(".{k} must be of object type"),
                    Step::Index => "[] must be of array type".to_string(),
                };
                for outer in steps[i + 1..].iter().rev() {
                    msg = match outer {
                        Step::Child(k) => format!(".{k}{msg}"),
                        Step::Index => format!("[]{msg}"),
                    };
                }
                return Err(msg);
            }
        };
        match next {
            Some(v) => cur = v,
            None => return Ok(None),
        }
    }
    Ok((!cur.is_null()).then_some(cur))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kstruct_schema::convert::from_value;
    use serde_json::json;

    fn schema(v: Value) -> Structural {
        from_value(&v).unwrap().unwrap()
    }

    #[test]
    fn removes_unknown_fields_from_defaults() {
        let mut s = schema(json!({
            "type": "object",
            "properties": {
                "spec": {"type": "object", "default": {"known": 1, "unknown": 2},
                         "properties": {"known": {"type": "integer"}}},
                "m": {"type": "object", "additionalProperties": {"type": "object",
                      "properties": {"a": {"type": "string"}}, "default": {"a": "x", "b": "y"}}},
                "l": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}},
                      "default": {"a": "x", "z": 1}}},
            },
        }));
        prune_defaults(&mut s).unwrap();
        assert_eq!(s.properties["spec"].generic.default, Some(json!({"known": 1})));
        let m = s.properties["m"]
            .additional_properties
            .as_ref()
            .unwrap()
            .schema()
            .unwrap();
        assert_eq!(m.generic.default, Some(json!({"a": "x"})));
        assert_eq!(
            s.properties["l"].items.as_ref().unwrap().generic.default,
            Some(json!({"a": "x"}))
        );
    }

    #[test]
    fn normalises_defaults_in_metadata() {
        let mut s = schema(json!({
            "type": "object",
            "properties": {
                "metadata": {"type": "object", "default": {"name": "n", "foo": 1}},
                "t": {"type": "object", "x-kubernetes-embedded-resource": true,
                      "x-kubernetes-preserve-unknown-fields": true,
                      "default": {"apiVersion": 1, "kind": "K", "metadata": {"labels": {"a": "b"}, "x": 1}}},
            },
        }));
        prune_defaults(&mut s).unwrap();
        assert_eq!(s.properties["metadata"].generic.default, Some(json!({"name": "n"})));
        assert_eq!(
            s.properties["t"].generic.default,
            Some(json!({"kind": "K", "metadata": {"labels": {"a": "b"}}}))
        );
    }

    #[test]
    fn non_object_roots_keep_their_defaults() {
        let mut s = schema(json!({"type": "array", "items": {"type": "object", "default": {"a": 1}}}));
        let before = s.clone();
        assert_eq!(
            prune_defaults(&mut s).unwrap_err(),
            "failed to prune default value: object root default value must be of object type"
        );
        assert_eq!(s, before);
    }
}
