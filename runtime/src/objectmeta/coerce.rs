//! `Coerce`: checking TypeMeta and normalising ObjectMeta of embedded resources.

use serde_json::{Map, Value};

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
    let mut cx = Coercer::new(opts);
    walk(&At::Base(path), obj, s, is_resource_root, &mut cx)?;
    Ok(cx.finish())
}

/// Where a coercion walk is: rendered into a [`Path`] only where a message or a metadata
/// prefix needs one, so that walking costs no allocation per node.
#[derive(Debug, Clone, Copy)]
pub enum At<'a> {
    /// Where the walk started.
    Base(&'a Path),
    /// A property (`.name`).
    Child(&'a At<'a>, &'a str),
    /// An additionalProperties key (`[key]`).
    Key(&'a At<'a>, &'a str),
    /// An array element (`[i]`).
    Index(&'a At<'a>, usize),
}

impl<'a> At<'a> {
    /// The property `name` below this position.
    #[inline]
    pub fn child(&'a self, name: &'a str) -> At<'a> {
        At::Child(self, name)
    }

    /// The additionalProperties key `key` below this position.
    #[inline]
    pub fn key(&'a self, key: &'a str) -> At<'a> {
        At::Key(self, key)
    }

    /// Element `i` below this position.
    #[inline]
    pub fn index(&'a self, i: usize) -> At<'a> {
        At::Index(self, i)
    }

    /// The position as a field path.
    pub fn path(&self) -> Path {
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

/// The state of one coercion walk: its options and the unknown metadata paths found so far.
/// Compiled code walks with the same state (see
/// [`compiled::v1::Coercer`](crate::compiled::v1::Coercer)).
#[derive(Debug, Default)]
pub struct Coercer {
    opts: CoerceOptions,
    unknown: Vec<String>,
}

impl Coercer {
    /// A walk with `opts`.
    pub fn new(opts: CoerceOptions) -> Coercer {
        Coercer {
            opts,
            unknown: Vec::new(),
        }
    }

    /// The unknown metadata paths found, sorted.
    pub fn finish(mut self) -> Vec<String> {
        self.unknown.sort();
        self.unknown
    }
}

fn walk(
    at: &At<'_>,
    x: &mut Value,
    s: Option<&Structural>,
    force_embedded: bool,
    cx: &mut Coercer,
) -> Result<(), FieldError> {
    let Some(s) = s else { return Ok(()) };
    stacker::maybe_grow(
        kstruct_schema::STACK_RED_ZONE,
        kstruct_schema::STACK_GROWTH,
        || match x {
            Value::Object(map) => {
                let embedded = force_embedded || s.extensions.x_embedded_resource;
                let mut descend = |at: &At<'_>, k: &str, v: &mut Value, cx: &mut Coercer| match s.properties.get(k) {
                    Some(p) => walk(&at.child(k), v, Some(p), false, cx),
                    None => match s.additional_properties.as_ref().and_then(|ap| ap.schema()) {
                        Some(ap) => walk(&at.key(k), v, Some(ap), false, cx),
                        None => Ok(()),
                    },
                };
                if embedded {
                    return resource(at, map, cx, &mut descend);
                }
                // Nothing to change here: visit the children that have schemas.
                for (k, v) in map.iter_mut() {
                    descend(at, k, v, cx)?;
                }
                Ok(())
            }
            Value::Array(items) => {
                for (i, v) in items.iter_mut().enumerate() {
                    walk(&at.index(i), v, s.items.as_deref(), false, cx)?;
                }
                Ok(())
            }
            _ => Ok(()),
        },
    )
}

/// How [`resource`] walks each field's value: `(at, key, value, walk)`.
pub type Descend<'a> = dyn FnMut(&At<'_>, &str, &mut Value, &mut Coercer) -> Result<(), FieldError> + 'a;

/// Coerces the embedded resource `map` at `at`: its `apiVersion` and `kind` must be strings,
/// its `metadata` is round-tripped through ObjectMeta; then `descend(at, key, value, cx)`
/// walks each field's value (for `metadata`, the value as it was read, before the normalised
/// metadata replaced it, as the reference does).
///
/// # Errors
/// The first field that does not decode, unless the walk drops invalid fields.
pub fn resource(
    at: &At<'_>,
    map: &mut Map<String, Value>,
    cx: &mut Coercer,
    descend: &mut Descend<'_>,
) -> Result<(), FieldError> {
    let opts = cx.opts;
    let path = at.path();
    let keys: Vec<String> = map.keys().cloned().collect();
    for k in &keys {
        // The value the reference recurses into: for metadata, the one it read before
        // writing the normalised metadata back.
        let mut detached: Option<Value> = None;
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
                            cx.unknown.extend(found.unknown_fields);
                            detached = map.remove("metadata");
                            set_object_meta(map, Some(&meta));
                        }
                    }
                }
            }
            _ => {}
        }
        let target = match detached.as_mut() {
            Some(v) => v,
            None => match map.get_mut(k) {
                Some(v) => v,
                None => continue,
            },
        };
        let walked = descend(at, k, target, cx);
        if let Some(d) = detached {
            crate::json::dispose(d);
        }
        walked?;
    }
    Ok(())
}
