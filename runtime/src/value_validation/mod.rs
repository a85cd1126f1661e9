//! Layer 5: validating values against a schema, as the API server does: OpenAPI value validation
//! (kube-openapi's `SchemaValidator`, with its messages) and list-type uniqueness
//! (`x-kubernetes-list-type: set` and `map`). This is what checks CRD defaults when a CRD is
//! created ([`lint`](crate::lint)), and the core of validating objects.
//!
//! ```
//! use kstruct::schema::convert;
//! use kstruct::validation::validate_value;
//!
//! let schema = convert::from_text(r#"
//! type: object
//! properties:
//!   spec:
//!     type: object
//!     properties:
//!       replicas: {type: integer, minimum: 1}
//!       mode: {type: string, enum: [fast, safe]}
//! "#).unwrap().unwrap();
//! let object = serde_json::json!({"spec": {"replicas": 0, "mode": "quick"}});
//! let errors: Vec<String> = validate_value(None, &schema, &object).iter().map(|e| e.to_string()).collect();
//! assert_eq!(errors, [
//!     "spec.mode: Unsupported value: \"quick\": supported values: \"fast\", \"safe\"",
//!     "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
//! ]);
//! ```

pub(crate) mod checks;
pub(crate) mod formats;
pub(crate) mod listtype;
mod node;
pub(crate) mod openapi;

use serde_json::Value;

use kstruct_schema::Structural;
use kstruct_schema::field::{FieldError, Path};

pub use checks::{NumberKind, Numeric, Pattern, Res};
pub(crate) use node::Node;
pub(crate) use openapi::Mode;

/// OpenAPI value validation of a custom resource (the API server's `ValidateCustomResource`):
/// `x-kubernetes-int-or-string` accepts integers and strings, unsupported formats are ignored.
/// `path` is where the value sits (`None` for a whole object, as the API server validates it).
pub fn validate_value(path: Option<&Path>, schema: &Structural, value: &Value) -> Vec<FieldError> {
    openapi::validate(path, Node::Structural(schema), value, Mode::Resource)
}

/// Duplicate items of `set` lists and duplicate keys of `map` lists
/// (`ValidateListSetsAndMaps`).
///
/// ```
/// use kstruct::schema::convert;
/// let schema = convert::from_text(r#"
/// type: object
/// properties:
///   tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
/// "#).unwrap().unwrap();
/// let errors = kstruct::validation::validate_list_types(None, &schema, &serde_json::json!({"tags": ["a", "b", "a"]}));
/// assert_eq!(errors[0].to_string(), "tags[2]: Duplicate value: \"a\"");
/// ```
pub fn validate_list_types(path: Option<&Path>, schema: &Structural, value: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let root = path.cloned().unwrap_or_else(Path::nil);
    listtype::validate(&root, Some(schema), value, &mut errs);
    errs
}

/// What a version's schema finds wrong in an object, in the three groups the API server
/// reports in this order (with the scale subresource's errors between the first two):
/// OpenAPI value validation, embedded resources, list types. See [`Pipeline::validate`](crate::Pipeline::validate).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SchemaErrors {
    /// kube-openapi's value validation of the whole object (`ValidateCustomResource`).
    pub values: Vec<FieldError>,
    /// Embedded resources' apiVersion, kind and metadata (`objectmeta.Validate`).
    pub embedded_resources: Vec<FieldError>,
    /// Duplicates in `set` and `map` lists (`ValidateListSetsAndMaps`).
    pub list_types: Vec<FieldError>,
}

impl SchemaErrors {
    /// No error at all.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.embedded_resources.is_empty() && self.list_types.is_empty()
    }

    /// All errors, in the API server's order.
    pub fn into_vec(self) -> Vec<FieldError> {
        let mut all = self.values;
        all.extend(self.embedded_resources);
        all.extend(self.list_types);
        all
    }
}

/// [`SchemaErrors`] of `value` under `schema`, interpreted (what the
/// [`Interpreter`](crate::Interpreter) does).
pub fn validate_schema(schema: &Structural, value: &Value) -> SchemaErrors {
    SchemaErrors {
        values: validate_value(None, schema, value),
        embedded_resources: crate::objectmeta::validate(&Path::nil(), value, Some(schema), false),
        list_types: validate_list_types(None, schema, value),
    }
}
