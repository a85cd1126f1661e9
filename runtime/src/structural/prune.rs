//! Pruning: removing the fields a schema does not specify (the reference's `PruneWithOptions`).

use serde_json::Value;

use kstruct_schema::Structural;

use crate::json::push_decimal;

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
    let mut p = Pruner::new(track);
    // The reference substitutes an empty schema for a missing one at a resource root.
    let s = s.or(is_resource_root.then(Structural::empty));
    p.prune(obj, s, is_resource_root);
    p.finish()
}

/// The state of one pruning walk: where it is, and the removed fields' paths when they are
/// tracked. Compiled code walks with the same state (see
/// [`compiled::v1::Pruner`](crate::compiled::v1::Pruner)), so both build paths identically.
///
/// The path is kept as one string plus a count of the reference's path tokens, because the
/// reference decides "at the top" by token count, not by text (a key `""` is a token that
/// prints as nothing). Nothing is built unless tracking was asked for.
#[derive(Debug)]
pub struct Pruner {
    track: bool,
    path: String,
    depth: usize,
    unknown: Vec<String>,
    steps: Steps,
}

/// Which of the three walks over an object's fields a [`Pruner`] takes part in: pruning,
/// dropping non-nullable nulls without defaults, defaulting. Generated code has one walk that
/// does any of them ([`Pipeline::prune`](crate::Pipeline::prune) alone, or all three as
/// [`Pipeline::prune_nulls_default`](crate::Pipeline::prune_nulls_default)); the interpreter's
/// pruning walk only prunes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Steps {
    /// Remove the fields the schema does not specify.
    pub prune: bool,
    /// Remove `null` fields whose schema is neither nullable nor defaulted.
    pub nulls: bool,
    /// Fill absent (and non-nullable `null`) fields with their defaults.
    pub defaults: bool,
}

impl Steps {
    /// The steps whose flags are set.
    pub const fn new(prune: bool, nulls: bool, defaults: bool) -> Steps {
        Steps { prune, nulls, defaults }
    }

    /// Pruning alone.
    pub const PRUNE: Steps = Steps::new(true, false, false);
    /// Dropping nulls alone.
    pub const NULLS: Steps = Steps::new(false, true, false);
    /// Defaulting alone.
    pub const DEFAULTS: Steps = Steps::new(false, false, true);
    /// Pruning, then dropping nulls (what decoding does before it coerces embedded resources).
    pub const PRUNE_NULLS: Steps = Steps::new(true, true, false);
    /// Pruning and defaulting.
    pub const PRUNE_DEFAULTS: Steps = Steps::new(true, false, true);
    /// All three, in their order.
    pub const ALL: Steps = Steps::new(true, true, true);
}

/// Where a [`Pruner`] was before it stepped into a field or element; [`Pruner::back`]
/// returns there.
#[derive(Debug, Clone, Copy)]
pub struct Mark(usize, usize);

impl Pruner {
    /// A walk that records removed fields' paths when `track` is set.
    pub fn new(track: bool) -> Pruner {
        Pruner::with_steps(track, Steps::PRUNE)
    }

    /// A walk taking the `steps` (generated code's walk; see [`Steps`]) that records removed
    /// fields' paths when `track` is set.
    pub fn with_steps(track: bool, steps: Steps) -> Pruner {
        Pruner {
            track: track && steps.prune,
            path: String::new(),
            depth: 0,
            unknown: Vec::new(),
            steps,
        }
    }

    /// The removed fields' paths, in byte order (empty without tracking).
    pub fn finish(mut self) -> Vec<String> {
        self.unknown.sort();
        self.unknown
    }

    /// Steps into field `k`.
    #[inline]
    pub fn key(&mut self, k: &str) -> Mark {
        let saved = Mark(self.path.len(), self.depth);
        if self.track {
            if self.depth > 0 {
                self.path.push('.');
            }
            self.path.push_str(k);
            self.depth += 1;
        }
        saved
    }

    /// Steps into element `i`.
    #[inline]
    pub fn index(&mut self, i: usize) -> Mark {
        let saved = Mark(self.path.len(), self.depth);
        if self.track {
            self.path.push('[');
            push_decimal(&mut self.path, i);
            self.path.push(']');
            self.depth += 3;
        }
        saved
    }

    /// Returns to where `mark` was taken.
    #[inline]
    pub fn back(&mut self, mark: Mark) {
        if self.track {
            self.path.truncate(mark.0);
            self.depth = mark.1;
        }
    }

    /// Field `k` of the current object is unknown: whether it stays (only when this walk does
    /// not prune). A removed field is recorded; `apiVersion`, `kind` and `metadata` of the
    /// top-level object are removed without a report, as the reference does.
    #[inline]
    pub fn unknown(&mut self, k: &str) -> bool {
        if !self.steps.prune {
            return true;
        }
        if self.track && (self.depth > 0 || !is_meta_field(k)) {
            self.removed(k);
        }
        false
    }

    /// Whether a `null` field whose schema is neither nullable nor defaulted stays (only when
    /// this walk does not drop nulls).
    #[inline]
    pub fn keep_null(&self) -> bool {
        !self.steps.nulls
    }

    /// Whether this walk defaults (generated code fills defaults by it; see
    /// `compiled::v1`).
    #[inline]
    pub(crate) fn defaults(&self) -> bool {
        self.steps.defaults
    }

    /// Walks field `k`'s value `v` with `walk` without pruning it (`apiVersion`, `kind` and
    /// `metadata` of an embedded resource: dropping nulls and defaulting go on inside).
    #[inline]
    pub fn unpruned(&mut self, k: &str, v: &mut Value, walk: fn(&mut Value, &mut Pruner), below: Steps) {
        let steps = self.steps;
        self.steps.prune = false;
        self.field(k, v, walk, below);
        self.steps = steps;
    }

    /// Records that field `k` of the current object is removed (no exception for the
    /// top-level metadata fields: a value without a schema loses them with a report).
    #[inline]
    fn removed(&mut self, k: &str) {
        if self.track {
            let saved = self.key(k);
            self.unknown.push(self.path.clone());
            self.back(saved);
        }
    }

    /// Walks field `k`'s value `v` with `walk`, unless none of this walk's steps has work
    /// there: `below` says which do (generated code knows where nulls and defaults are).
    #[inline]
    pub fn field(&mut self, k: &str, v: &mut Value, walk: fn(&mut Value, &mut Pruner), below: Steps) {
        if self.takes(below) {
            let m = self.key(k);
            walk(v, self);
            self.back(m);
        }
    }

    /// Whether this walk takes any of the steps `below` has work for.
    #[inline]
    pub fn takes(&self, below: Steps) -> bool {
        let s = self.steps;
        (s.prune && below.prune) || (s.nulls && below.nulls) || (s.defaults && below.defaults)
    }

    /// Prunes field `k`'s value `v`, whose schema is a leaf (see [`leaf`](Self::leaf)).
    #[inline]
    pub fn leaf_field(&mut self, k: &str, v: &mut Value) {
        if self.steps.prune && matches!(v, Value::Object(_) | Value::Array(_)) {
            let m = self.key(k);
            self.leaf(v);
            self.back(m);
        }
    }

    /// Prunes field `k`'s value `v`, which has no schema (see [`no_schema`](Self::no_schema)).
    #[inline]
    pub fn no_schema_field(&mut self, k: &str, v: &mut Value) {
        if self.steps.prune && matches!(v, Value::Object(_) | Value::Array(_)) {
            let m = self.key(k);
            self.no_schema(v);
            self.back(m);
        }
    }

    /// Prunes every element of an array with `walk`. (Generated code now writes this loop out
    /// with direct calls; kept for code generated against earlier versions of `v1`.)
    #[inline]
    pub fn elements(&mut self, items: &mut [Value], walk: fn(&mut Value, &mut Pruner)) {
        for (i, v) in items.iter_mut().enumerate() {
            let m = self.index(i);
            walk(v, self);
            self.back(m);
        }
    }

    /// Prunes every element of an array whose items schema is a leaf.
    pub fn leaf_elements(&mut self, items: &mut [Value]) {
        if !self.steps.prune {
            return;
        }
        for (i, v) in items.iter_mut().enumerate() {
            if matches!(v, Value::Object(_) | Value::Array(_)) {
                let m = self.index(i);
                self.leaf(v);
                self.back(m);
            }
        }
    }

    /// Prunes every element of an array without an items schema.
    pub fn no_schema_elements(&mut self, items: &mut [Value]) {
        if !self.steps.prune {
            return;
        }
        for (i, v) in items.iter_mut().enumerate() {
            if matches!(v, Value::Object(_) | Value::Array(_)) {
                let m = self.index(i);
                self.no_schema(v);
                self.back(m);
            }
        }
    }

    /// Prunes a value that has no schema (an unknown schema, or `additionalProperties:
    /// true|false`): objects lose every field, arrays are walked.
    pub fn no_schema(&mut self, x: &mut Value) {
        if self.steps.prune {
            self.prune(x, None, false);
        }
    }

    /// Prunes a value whose schema has no `properties`, `items`, `additionalProperties` or
    /// extension that matters to pruning (any scalar schema): objects lose every field (the
    /// top-level `apiVersion`, `kind` and `metadata` without a report), arrays' elements have
    /// no schema.
    #[inline]
    pub fn leaf(&mut self, x: &mut Value) {
        if !self.steps.prune || !matches!(x, Value::Object(_) | Value::Array(_)) {
            return;
        }
        self.prune(x, Some(Structural::empty()), false);
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
                                self.removed(k);
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
                                    self.unknown(k);
                                    return false;
                                }
                            },
                        };
                        let saved = self.key(k);
                        self.prune(v, child, false);
                        self.back(saved);
                        true
                    });
                }
                Value::Array(items) => {
                    let item_schema = s.and_then(|s| s.items.as_deref());
                    for (i, v) in items.iter_mut().enumerate() {
                        let saved = self.index(i);
                        self.prune(v, item_schema, false);
                        self.back(saved);
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
                        let saved = self.key(k);
                        self.prune(v, child, false);
                        self.back(saved);
                    }
                }
                Value::Array(items) => {
                    let Some(item_schema) = s.items.as_deref() else {
                        return;
                    };
                    for (i, v) in items.iter_mut().enumerate() {
                        let saved = self.index(i);
                        self.skip_prune(v, item_schema, false);
                        self.back(saved);
                    }
                }
                _ => {}
            },
        )
    }
}
