//! Pruning: removing the fields a schema does not specify (the reference's `PruneWithOptions`).

use serde_json::Value;

use kstruct_schema::Structural;

/// `apiVersion`, `kind` and `metadata`: kept untouched in resources and embedded resources.
pub(crate) fn is_meta_field(k: &str) -> bool {
    matches!(k, "apiVersion" | "kind" | "metadata")
}

/// Removes from `obj` every field `s` does not specify, and returns the removed fields'
/// paths in byte order when `track` is set (empty otherwise).
///
/// With `is_resource_root`, the root is treated as an embedded resource: its `apiVersion`,
/// `kind` and `metadata` are left alone (metadata is handled by ObjectMeta coercion instead).
/// Otherwise those three keys are removed silently when unknown at the very top, and reported
/// like any other field anywhere deeper.
///
/// The shape of the value decides, never the schema's `type`: an object under an array
/// schema loses all its keys, and an object under `additionalProperties: true|false` (no
/// schema) is emptied. `x-kubernetes-preserve-unknown-fields` keeps unknown fields at its
/// node and, through `items`, in list elements, while specified fields are still pruned.
pub fn prune(obj: &mut Value, s: Option<&Structural>, is_resource_root: bool, track: bool) -> Vec<String> {
    let mut p = Pruner {
        track,
        path: String::new(),
        depth: 0,
        unknown: Vec::new(),
    };
    // The reference substitutes an empty schema for a missing one at a resource root.
    let s = s.or(is_resource_root.then(Structural::empty));
    p.prune(obj, s, is_resource_root);
    p.unknown.sort();
    p.unknown
}

/// The walk's state. The path is kept as one string plus a count of the reference's path
/// tokens, because the reference decides "at the top" by token count, not by text (a key
/// `""` is a token that prints as nothing).
struct Pruner {
    track: bool,
    path: String,
    depth: usize,
    unknown: Vec<String>,
}

impl Pruner {
    fn push_key(&mut self, k: &str) -> (usize, usize) {
        let saved = (self.path.len(), self.depth);
        if self.track {
            if self.depth > 0 {
                self.path.push('.');
            }
            self.path.push_str(k);
            self.depth += 1;
        }
        saved
    }

    fn push_index(&mut self, i: usize) -> (usize, usize) {
        let saved = (self.path.len(), self.depth);
        if self.track {
            self.path.push('[');
            self.path.push_str(&i.to_string());
            self.path.push(']');
            self.depth += 3;
        }
        saved
    }

    fn pop(&mut self, saved: (usize, usize)) {
        self.path.truncate(saved.0);
        self.depth = saved.1;
    }

    fn record(&mut self, k: &str) {
        if self.track {
            let saved = self.push_key(k);
            self.unknown.push(self.path.clone());
            self.pop(saved);
        }
    }

    fn prune(&mut self, x: &mut Value, s: Option<&Structural>, force_embedded: bool) {
        if let Some(s) = s
            && s.extensions.x_preserve_unknown_fields
        {
            return self.skip_prune(x, s, force_embedded);
        }
        stacker::maybe_grow(
            kstruct_schema::STACK_RED_ZONE,
            kstruct_schema::STACK_GROWTH,
            || match x {
                Value::Object(map) => {
                    let Some(s) = s else {
                        if self.track {
                            for k in map.keys() {
                                let k = k.clone();
                                self.record(&k);
                            }
                        }
                        map.clear();
                        return;
                    };
                    let embedded = force_embedded || s.extensions.x_embedded_resource;
                    map.retain(|k, v| {
                        if embedded && is_meta_field(k) {
                            return true;
                        }
                        let child = match s.properties.get(k) {
                            Some(p) => Some(p),
                            None => match &s.additional_properties {
                                Some(ap) => ap.schema(),
                                None => {
                                    if !is_meta_field(k) || self.depth > 0 {
                                        self.record(k);
                                    }
                                    return false;
                                }
                            },
                        };
                        let saved = self.push_key(k);
                        self.prune(v, child, false);
                        self.pop(saved);
                        true
                    });
                }
                Value::Array(items) => {
                    let item_schema = s.and_then(|s| s.items.as_deref());
                    for (i, v) in items.iter_mut().enumerate() {
                        let saved = self.push_index(i);
                        self.prune(v, item_schema, false);
                        self.pop(saved);
                    }
                }
                _ => {}
            },
        )
    }

    /// Pruning under `x-kubernetes-preserve-unknown-fields`: unknown keys stay, specified ones
    /// are pruned normally, and list elements are walked the same way with the items schema.
    fn skip_prune(&mut self, x: &mut Value, s: &Structural, force_embedded: bool) {
        stacker::maybe_grow(
            kstruct_schema::STACK_RED_ZONE,
            kstruct_schema::STACK_GROWTH,
            || match x {
                Value::Object(map) => {
                    let embedded = force_embedded || s.extensions.x_embedded_resource;
                    for (k, v) in map.iter_mut() {
                        if embedded && is_meta_field(k) {
                            continue;
                        }
                        let child = match s.properties.get(k) {
                            Some(p) => Some(p),
                            None => match &s.additional_properties {
                                Some(ap) => ap.schema(),
                                None => continue,
                            },
                        };
                        let saved = self.push_key(k);
                        self.prune(v, child, false);
                        self.pop(saved);
                    }
                }
                Value::Array(items) => {
                    let Some(item_schema) = s.items.as_deref() else {
                        return;
                    };
                    for (i, v) in items.iter_mut().enumerate() {
                        let saved = self.push_index(i);
                        self.skip_prune(v, item_schema, false);
                        self.pop(saved);
                    }
                }
                _ => {}
            },
        )
    }
}
