//! Layer 7: what the API server checks when a CustomResourceDefinition is created, as a library: the
//! CRD registry strategy's validation (`ValidateCustomResourceDefinition`) after v1 decoding,
//! defaulting and conversion, with the reference's messages and paths. An operator's test can
//! assert that its generated CRD would be accepted; `kstruct lint` prints the same findings.
//!
//! ```
//! let crd = serde_json::json!({
//!     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
//!     "metadata": {"name": "widgets.example.com"},
//!     "spec": {"group": "example.com", "scope": "Namespaced",
//!              "names": {"kind": "Widget", "plural": "widgets"},
//!              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
//!                  "type": "object",
//!                  "properties": {"spec": {"type": "object", "properties": {
//!                      "size": {"type": "integer", "minimum": 1, "default": 0}}}}}}}]},
//! });
//! let errors: Vec<String> = kstruct::lint::lint_crd(&crd).unwrap().iter().map(|e| e.to_string()).collect();
//! assert_eq!(errors, [
//!     // The reference validates the default from an unnamed root: its message starts with " in body".
//!     "spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: 0:  \
//!      in body should be greater than or equal to 1",
//! ]);
//! ```
//!
//! CEL rules are compiled in the environment of the server's compatibility version (1.36 by
//! default; [`LintOptions`] picks another, for a CRD meant for older servers).

mod defaults;
mod model;
mod spec;

use serde_json::Value;

use kstruct_schema::Structural;
use kstruct_schema::field::{FieldError, Path};
use kstruct_schema::validation::openapi::{self, SchemaOptions};

use crate::Error;

/// Every error the API server returns when `doc` (an `apiextensions.k8s.io/v1`
/// CustomResourceDefinition) is created, in its order; empty when it would be accepted.
///
/// # Errors
/// The document is refused before validation: not a v1 CRD, or a field of the wrong JSON type
/// (the message is the API server's, e.g. `CustomResourceDefinition in version "v1" cannot be
/// handled as a CustomResourceDefinition: json: cannot unmarshal number into Go struct field
/// CustomResourceDefinitionSpec.spec.group of type string`).
pub fn lint_crd(doc: &Value) -> Result<Vec<FieldError>, Error> {
    lint_crd_with(doc, &LintOptions::default())
}

/// What a CRD is checked against: the server it will be created on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LintOptions {
    /// The compatibility version whose CEL environment new rules are compiled in: a server's
    /// minor version minus one (a 1.31 server compiles them for 1.30, where `format.*`,
    /// two-variable comprehensions and `self.if` for the property `if` are not yet known).
    pub cel_compatibility: kstruct_cel::Compatibility,
}

/// [`lint_crd`] for the server [`LintOptions`] describes.
///
/// ```
/// use kstruct::lint::{LintOptions, lint_crd_with};
/// let crd = serde_json::json!({
///     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
///     "metadata": {"name": "widgets.example.com"},
///     "spec": {"group": "example.com", "scope": "Namespaced",
///              "names": {"kind": "Widget", "plural": "widgets"},
///              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
///                  "type": "object",
///                  "properties": {"spec": {"type": "object",
///                      "x-kubernetes-validations": [{"rule": "self.tags.all(i, t, t != '')"}],
///                      "properties": {"tags": {"type": "array", "maxItems": 8,
///                          "items": {"type": "string", "maxLength": 8}}}}}}}}]},
/// });
/// assert!(lint_crd_with(&crd, &LintOptions::default()).unwrap().is_empty());
/// // Two-variable comprehensions came with 1.32: a 1.32 server (compatibility 1.31) refuses it.
/// let old = LintOptions { cel_compatibility: "1.31".parse().unwrap() };
/// let errors = lint_crd_with(&crd, &old).unwrap();
/// assert!(errors[0].to_string().contains("undeclared reference to 'i'"), "{}", errors[0]);
/// ```
///
/// # Errors
/// As [`lint_crd`].
pub fn lint_crd_with(doc: &Value, opts: &LintOptions) -> Result<Vec<FieldError>, Error> {
    let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if api_version != kstruct_schema::crd::API_VERSION {
        return Err(Error::Crd(format!(
            "{api_version} CustomResourceDefinitions are not served by the API server since Kubernetes 1.22; \
             convert the document to {}",
            kstruct_schema::crd::API_VERSION
        )));
    }
    let refused = |e: String| {
        Error::Crd(format!(
            "CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: {e}"
        ))
    };
    let crd = model::read(doc).map_err(|e| refused(e.0))?;
    // Schemas are decoded with Go's rules first: a schema that does not decode refuses the
    // whole document.
    let schemas = crd
        .validation
        .iter()
        .chain(crd.versions.iter().filter_map(|v| v.schema.as_ref()));
    for s in schemas.filter_map(|s| s.open_api_v3_schema.as_ref()) {
        if let Err(kstruct_schema::Error::Decode(text)) = kstruct_schema::convert::check_decodes(s) {
            return Err(refused(text.replacen(
                "Go struct field JSONSchemaProps.",
                "Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.",
                1,
            )));
        }
    }
    let mut errs = Vec::new();
    spec::validate(&crd, opts, &mut errs);
    Ok(errs)
}

/// [`lint_crd`] for a typed CRD, e.g. one a `#[derive(CustomResourceSchema)]` type generated:
/// an operator's test can assert that `lint_typed(&Widget::crd())` is empty.
///
/// # Errors
/// As [`lint_crd`].
pub fn lint_typed(crd: &crate::apiextensions::CustomResourceDefinition) -> Result<Vec<FieldError>, Error> {
    lint_crd(&crd.to_value())
}

/// The API server's `validateCustomResourceDefinitionValidation` on one schema: the structural
/// rules, the default checks, and the rules of `ValidateCustomResourceDefinitionOpenAPISchema`,
/// for the schema at `path.openAPIV3Schema` (`path` is e.g. `spec.validation`).
///
/// # Errors
/// The schema does not decode as a `JSONSchemaProps` (Go's message).
pub fn validate_crd_schema(
    path: &Path,
    schema: &Value,
    status_subresource: bool,
    opts: &SchemaOptions,
    require_pruned_defaults: bool,
) -> Result<Vec<FieldError>, Error> {
    let mut defaults = |at: &Path, s: &Structural| defaults::validate_defaults(at, s, require_pruned_defaults);
    Ok(openapi::validate_crd_schema(
        path,
        schema,
        status_subresource,
        opts,
        &mut defaults,
    )?)
}
