//! Layer 9: the `Pipeline` trait: what the interpreter and compiled code both do to objects.

use serde_json::Value;

use kstruct_schema::field::FieldError;

use crate::byte_walk::Plan;
use crate::gvk::GroupVersionKind;
use crate::objectmeta::CoerceOptions;
pub use crate::structural::prune::Steps;
use crate::value_validation::SchemaErrors;

/// Options of [`Pipeline::prune`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PruneOptions {
    /// The value is a resource (a whole custom resource): its `apiVersion`, `kind` and
    /// `metadata` are never pruned, as in the API server's decoding.
    pub resource_root: bool,
    /// Collect the paths of the removed fields (costs allocations; off by default).
    pub track_unknown_fields: bool,
}

/// What [`Pipeline::prune`] removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PruneReport {
    /// Paths of the removed fields, in byte order, as the API server reports them
    /// (`spec.a.b`, `items[0].x`, keys unescaped). Empty unless tracking was asked for.
    pub unknown_fields: Vec<String>,
}

/// What the API server does to custom resources of one kind and version, as one object-safe
/// trait: implemented by the [`Interpreter`](crate::Interpreter) and by the types the
/// kstruct compiler generates, so that either can stand in for the other.
///
/// ```
/// use kstruct::{Interpreter, Pipeline, PruneOptions};
/// use serde_json::json;
///
/// let schema = kstruct::schema::convert::from_value(&json!({
///     "type": "object",
///     "properties": {"spec": {"type": "object", "properties": {
///         "replicas": {"type": "integer", "default": 1}}}},
/// })).unwrap();
/// let pipeline: Box<dyn Pipeline> = Box::new(Interpreter::new(schema));
///
/// let mut obj = json!({"apiVersion": "a/v1", "kind": "K", "spec": {"x": 1}});
/// let report = pipeline.prune(&mut obj, PruneOptions { resource_root: true, track_unknown_fields: true });
/// pipeline.default(&mut obj);
/// assert_eq!(obj, json!({"apiVersion": "a/v1", "kind": "K", "spec": {"replicas": 1}}));
/// assert_eq!(report.unknown_fields, ["spec.x"]);
/// ```
pub trait Pipeline: Send + Sync {
    /// The steps asked for of pruning (removing the fields the schema does not specify),
    /// dropping `null` fields whose schema is neither nullable nor defaulted, and defaulting,
    /// in that order, as if each were a walk of its own. Compiled code takes them in one walk
    /// over the value; the interpreter walks once per step.
    ///
    /// ```
    /// use kstruct::{Interpreter, Pipeline, PruneOptions, Steps};
    /// use serde_json::json;
    ///
    /// let schema = kstruct::schema::convert::from_value(&json!({"type": "object", "properties": {
    ///     "size": {"type": "integer", "default": 1}, "name": {"type": "string"}}}))
    /// .unwrap();
    /// let mut obj = json!({"name": null, "colour": "red"});
    /// let report = Interpreter::new(schema).walk(&mut obj, PruneOptions::default(), Steps::PRUNE_NULLS);
    /// assert_eq!(obj, json!({}));
    /// assert!(report.unknown_fields.is_empty()); // not tracked
    /// ```
    fn walk(&self, value: &mut Value, options: PruneOptions, steps: Steps) -> PruneReport;

    /// Removes the fields the schema does not specify.
    fn prune(&self, value: &mut Value, options: PruneOptions) -> PruneReport {
        self.walk(value, options, Steps::PRUNE)
    }

    /// Removes `null` fields whose schema is neither nullable nor defaulted.
    fn prune_nulls(&self, value: &mut Value) {
        self.walk(value, PruneOptions::default(), Steps::NULLS);
    }

    /// Applies the schema's defaults.
    fn default(&self, value: &mut Value) {
        self.walk(value, PruneOptions::default(), Steps::DEFAULTS);
    }

    /// Checks and normalises embedded resources (`x-kubernetes-embedded-resource`) below the
    /// root, as decoding does: `apiVersion` and `kind` must be strings, `metadata` is
    /// round-tripped through ObjectMeta. Returns the unknown metadata paths (sorted) when
    /// asked for, or the first error (`spec.template.apiVersion: Invalid value: 1: must be a
    /// string`).
    ///
    /// # Errors
    /// The first embedded resource whose TypeMeta or ObjectMeta does not decode, unless
    /// `options.drop_invalid_fields`.
    fn coerce_embedded(&self, value: &mut Value, options: CoerceOptions) -> Result<Vec<String>, FieldError>;

    /// Validates a decoded object against the schema as the API server does on create and
    /// update: OpenAPI value validation (types, formats, enums, bounds, lengths, patterns,
    /// required, composites...), embedded resources' metadata, `set`/`map` list duplicates.
    /// Positions start from the nil path, as the server's (`spec.replicas`, or `<nil>` for the
    /// object itself). What the schema cannot know (ObjectMeta of the root, the scale
    /// subresource) is [`validation::validate_create`](crate::validation::validate_create)'s.
    ///
    /// ```
    /// use kstruct::{Interpreter, Pipeline};
    /// use serde_json::json;
    ///
    /// let schema = kstruct::schema::convert::from_value(&json!({
    ///     "type": "object",
    ///     "properties": {"spec": {"type": "object", "required": ["size"], "properties": {
    ///         "size": {"type": "integer", "maximum": 10}}}},
    /// })).unwrap();
    /// let errors = Interpreter::new(schema).validate(&json!({"spec": {"size": 11}}));
    /// assert_eq!(errors.values[0].to_string(),
    ///     "spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10");
    /// ```
    fn validate(&self, value: &Value) -> SchemaErrors;

    /// Whether the schema has CEL rules (`x-kubernetes-validations`): the API server evaluates
    /// them after the other validations, and reports that it skipped them when other errors
    /// block them. `false` unless a pipeline says otherwise (with the schema to evaluate them
    /// by, [`rules_schema`](Pipeline::rules_schema)).
    fn has_validation_rules(&self) -> bool {
        false
    }

    /// The schema CEL rules are evaluated with: the interpreted schema by default; compiled
    /// pipelines with rules read theirs once per process.
    fn rules_schema(&self) -> Option<&kstruct_schema::Structural> {
        self.structural()
    }

    /// The schema, where the pipeline interprets one (`None` for compiled pipelines).
    fn structural(&self) -> Option<&kstruct_schema::Structural> {
        None
    }

    /// The schema's structure ([`Structural::skeleton`](kstruct_schema::Structural::skeleton), or
    /// the whole schema): what update validation's ratcheting correlates `map` list items by
    /// and what server-side apply types and merges a body with. The interpreted schema by
    /// default; compiled pipelines read the structure they embed once per process.
    fn skeleton(&self) -> Option<&kstruct_schema::Structural> {
        self.structural()
    }

    /// The group, version and kind this pipeline serves, if it serves one: decoding then
    /// treats it as a CRD with this one version (other versions of the kind get an empty
    /// schema, other kinds are left alone). `None` (the default) serves every object.
    fn resource(&self) -> Option<&GroupVersionKind> {
        None
    }

    /// [`prune`](Pipeline::prune), then [`prune_nulls`](Pipeline::prune_nulls), then
    /// [`default`](Pipeline::default): what the API server does to an object's fields, in one
    /// call (see [`walk`](Pipeline::walk)).
    ///
    /// ```
    /// use kstruct::{Interpreter, Pipeline, PruneOptions};
    /// use serde_json::json;
    ///
    /// let schema = kstruct::schema::convert::from_value(&json!({"type": "object", "properties": {
    ///     "spec": {"type": "object", "properties": {
    ///         "size": {"type": "integer", "default": 1},
    ///         "name": {"type": "string"}}}}}))
    /// .unwrap();
    /// let crd = Interpreter::new(schema);
    /// let mut obj = json!({"apiVersion": "example.com/v1", "kind": "Widget",
    ///                      "spec": {"name": null, "colour": "red"}});
    /// let options = PruneOptions { resource_root: true, track_unknown_fields: true };
    /// let report = crd.prune_nulls_default(&mut obj, options);
    /// assert_eq!(obj, json!({"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"size": 1}}));
    /// assert_eq!(report.unknown_fields, ["spec.colour"]);
    /// ```
    fn prune_nulls_default(&self, value: &mut Value, options: PruneOptions) -> PruneReport {
        self.walk(value, options, Steps::ALL)
    }

    /// What decoding from bytes to bytes walks by ([`scan`](crate::scan)); `None` (the
    /// default) sends every decode through the `Value` path.
    fn scan_plan(&self) -> Option<&Plan> {
        None
    }

    /// Whether the CRD has `spec.preserveUnknownFields: true` (decoding then never prunes).
    fn preserves_unknown_fields(&self) -> bool {
        false
    }

    /// Why serve-time default pruning stopped for this schema, if it did (the defaults it
    /// did not reach are used as written; see
    /// [`Interpreter::default_pruning_error`](crate::Interpreter::default_pruning_error)).
    fn default_pruning_error(&self) -> Option<&str> {
        None
    }
}
