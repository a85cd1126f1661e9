//! The `Pipeline` trait: what the interpreter and compiled code both do to objects.

use serde_json::Value;

use crate::Error;

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

/// The API server's `fieldValidation` modes (KEP-2885).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum FieldValidation {
    /// Unknown and duplicate fields fail the request.
    Strict,
    /// Unknown and duplicate fields become warnings (the API server's default).
    #[default]
    Warn,
    /// Unknown fields are dropped silently.
    Ignore,
}

/// Options of [`Pipeline::decode`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecodeOptions {
    /// How to treat unknown and duplicate fields.
    pub field_validation: FieldValidation,
}

/// An object decoded as the API server decodes it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decoded {
    /// The object as the API server would store it: pruned, normalised, defaulted.
    pub object: Value,
    /// Warnings the API server would return.
    pub warnings: Vec<String>,
    /// Unknown-field paths, in the API server's order.
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
    /// Removes the fields the schema does not specify.
    fn prune(&self, value: &mut Value, options: PruneOptions) -> PruneReport;

    /// Removes `null` fields whose schema is neither nullable nor defaulted.
    fn prune_nulls(&self, value: &mut Value);

    /// Applies the schema's defaults.
    fn default(&self, value: &mut Value);

    /// Decodes a request body through the API server's write path.
    fn decode(&self, body: &[u8], options: &DecodeOptions) -> Result<Decoded, Error>;

    /// Decodes a stored object through the API server's read-from-storage path.
    fn decode_storage(&self, body: &[u8]) -> Result<Decoded, Error>;
}
