//! `Coerce`: checking TypeMeta and normalising ObjectMeta of embedded resources.

use serde_json::Value;

use kstruct_schema::Structural;
use kstruct_schema::field::{BadValue, FieldError, Path};

use super::{GetOptions, get_object_meta, set_object_meta};

/// Options of [`coerce`] (the reference's `CoerceOptions`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CoerceOptions {
    /// Delete `apiVersion`/`kind` that are not strings and drop malformed metadata fields
    /// instead of failing.
    pub drop_invalid_fields: bool,
    /// Collect the paths of unknown metadata fields.
    pub return_unknown_field_paths: bool,
}

/// Walks `obj` with schema `s` and, in every embedded resource (and at the root when
/// `is_resource_root`), checks that `apiVersion` and `kind` are strings and round-trips
/// `metadata` through ObjectMeta (unknown fields dropped, values normalised). Unknown fields
/// outside metadata are left alone: pruning is a separate step.
///
/// Returns the unknown metadata paths (sorted) when asked for, or the first error, e.g.
/// `spec.template.apiVersion: Invalid value: 1: must be a string`. Where the reference would
/// report the first failure in Go's random map order, we report the first in key order.
pub fn coerce(
    path: &Path,
    obj: &mut Value,
    s: Option<&Structural>,
    is_resource_root: bool,
    opts: CoerceOptions,
) -> Result<Vec<String>, FieldError> {
    let s = s.or(is_resource_root.then(Structural::empty));
    let mut unknown = Vec::new();
    walk(&At::Base(path), obj, s, is_resource_root, opts, &mut unknown)?;
    unknown.sort();
    Ok(unknown)
}

/// Where the walk is: rendered into a [`Path`] only where a message or a metadata prefix
/// needs one, so that walking costs no allocation per node.
enum At<'a> {
    Base(&'a Path),
    Child(&'a At<'a>, &'a str),
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl At<'_> {
    fn path(&self) -> Path {
        let mut steps = Vec::new();
        let mut at = self;
        let base = loop {
            match at {
                At::Base(p) => break *p,
                At::Child(up, _) | At::Key(up, _) | At::Index(up, _) => {
                    steps.push(at);
                    at = up;
                }
            }
        };
        let mut path = base.clone();
        for step in steps.iter().rev() {
            path = match step {
                At::Child(_, k) => path.child(k),
                At::Key(_, k) => path.key(k),
                At::Index(_, i) => path.index(*i),
                At::Base(_) => path,
            };
        }
        path
    }

    fn is_nil(&self) -> bool {
        matches!(self, At::Base(p) if p.is_nil())
    }
}

fn walk(
    at: &At<'_>,
    x: &mut Value,
    s: Option<&Structural>,
    force_embedded: bool,
    opts: CoerceOptions,
    unknown: &mut Vec<String>,
) -> Result<(), FieldError> {
    let Some(s) = s else { return Ok(()) };
    stacker::maybe_grow(
        kstruct_schema::STACK_RED_ZONE,
        kstruct_schema::STACK_GROWTH,
        || match x {
            Value::Object(map) => {
                let embedded = force_embedded || s.extensions.x_embedded_resource;
                if !embedded {
                    // Nothing to change here: visit the children that have schemas.
                    for (k, v) in map.iter_mut() {
                        let (child_schema, is_property) = match s.properties.get(k) {
                            Some(p) => (Some(p), true),
                            None => (s.additional_properties.as_ref().and_then(|ap| ap.schema()), false),
                        };
                        if let Some(cs) = child_schema {
                            let child = if is_property { At::Child(at, k) } else { At::Key(at, k) };
                            walk(&child, v, Some(cs), false, opts, unknown)?;
                        }
                    }
                    return Ok(());
                }
                let path = at.path();
                let keys: Vec<String> = map.keys().cloned().collect();
                for k in &keys {
                    // The value the reference recurses into: for metadata, the one it read before
                    // writing the normalised metadata back.
                    let mut detached: Option<Value> = None;
                    if embedded {
                        match k.as_str() {
                            "apiVersion" | "kind" => {
                                let v = &map[k];
                                if !v.is_string() {
                                    if opts.drop_invalid_fields {
                                        map.remove(k);
                                        continue;
                                    }
                                    return Err(FieldError::invalid(
                                        &path.child(k),
                                        BadValue::from(v),
                                        "must be a string",
                                    ));
                                }
                            }
                            "metadata" => {
                                let get = GetOptions {
                                    drop_malformed_fields: opts.drop_invalid_fields,
                                    return_unknown_field_paths: opts.return_unknown_field_paths,
                                    parent_path: (!at.is_nil()).then(|| path.clone()),
                                };
                                match get_object_meta(map, &get) {
                                    Err(e) => {
                                        if !opts.drop_invalid_fields {
                                            return Err(FieldError::invalid(
                                                &path.child("metadata"),
                                                BadValue::from(&map["metadata"]),
                                                e,
                                            ));
                                        }
                                    }
                                    Ok(found) => {
                                        if let Some(meta) = found.meta {
                                            unknown.extend(found.unknown_fields);
                                            detached = map.remove("metadata");
                                            set_object_meta(map, Some(&meta));
                                        }
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                    let (child, child_schema) = match s.properties.get(k) {
                        Some(p) => (At::Child(at, k), Some(p)),
                        None => match &s.additional_properties {
                            Some(ap) => (At::Key(at, k), ap.schema()),
                            None => continue,
                        },
                    };
                    let target = match detached.as_mut() {
                        Some(v) => v,
                        None => match map.get_mut(k) {
                            Some(v) => v,
                            None => continue,
                        },
                    };
                    let walked = walk(&child, target, child_schema, false, opts, unknown);
                    if let Some(d) = detached {
                        crate::json::dispose(d);
                    }
                    walked?;
                }
                Ok(())
            }
            Value::Array(items) => {
                for (i, v) in items.iter_mut().enumerate() {
                    walk(&At::Index(at, i), v, s.items.as_deref(), false, opts, unknown)?;
                }
                Ok(())
            }
            _ => Ok(()),
        },
    )
}
