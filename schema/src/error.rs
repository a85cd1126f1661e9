//! The error type of this crate.

/// Why a schema or CRD could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The schema is not a valid `JSONSchemaProps` document: a value has the wrong JSON type.
    /// The text is Go's, e.g. `json: cannot unmarshal number into Go struct field
    /// JSONSchemaProps.type of type string`.
    #[error("{0}")]
    Decode(String),
    /// The reference's `NewStructural` refused the schema, e.g. `OpenAPIV3Schema '$ref' is not
    /// supported`.
    #[error("{0}")]
    Unsupported(String),
    /// The text is not valid YAML (or JSON).
    #[error("{0}")]
    Yaml(#[from] crate::yaml::Error),
    /// The document is not a usable CustomResourceDefinition.
    #[error("{0}")]
    Crd(String),
}
