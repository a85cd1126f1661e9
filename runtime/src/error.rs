//! The error type of the `kstruct` crate.

use std::path::PathBuf;

/// Everything that can go wrong in `kstruct`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A schema or CRD could not be read or converted.
    #[error(transparent)]
    Schema(#[from] kstruct_schema::Error),
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A document of an input stream is not valid JSON or YAML.
    #[error("{origin}:{line}: {message}")]
    Input {
        /// Where the input came from (a file name, or `<stdin>`).
        origin: String,
        /// The 1-based line of the problem in that input.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A CRD document is not usable, or CRDs cannot be merged.
    #[error("{0}")]
    Crd(String),
    /// No CRD declares the object's group and kind (an API server answers 404: nothing serves
    /// that resource).
    #[error("no CRD for kind {kind:?} in group {group:?}")]
    NoSuchKind {
        /// The object's API group (`""` for the core group).
        group: String,
        /// The object's kind.
        kind: String,
    },
    /// The CRD of the object's group and kind does not serve the version its apiVersion
    /// names (absent, or `served: false`); the text is the one kubectl prints.
    #[error("no matches for kind {kind:?} in version \"{group}/{version}\"")]
    NoSuchVersion {
        /// The API group.
        group: String,
        /// The version the object names.
        version: String,
        /// The kind.
        kind: String,
    },
    /// A served version's schema could not be converted, so the API server would not serve
    /// it.
    #[error("CRD {crd} version {version}: {reason}")]
    Unservable {
        /// The CRD's name.
        crd: String,
        /// The version.
        version: String,
        /// Why its schema did not convert.
        reason: String,
    },
    /// The API server would reject the body (see [`Rejection`](crate::decode::Rejection)).
    #[error("{}", .0.message)]
    Rejected(crate::decode::Rejection),
    /// A `fieldValidation` value the API server does not accept (its 422 on the request's
    /// options).
    #[error("CreateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: {}: supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"", kstruct_schema::go::quote(.0))]
    FieldValidation(String),
    /// A `Content-Type` the API server cannot decode custom resources from (its 415).
    #[error(
        "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml"
    )]
    UnsupportedMediaType(String),
    /// Validation on create was asked of a lone [`Pipeline`](crate::Pipeline), which knows its
    /// schema but not its CRD's scope and subresources; a `RegisteredCrd`, a `Registry`, a
    /// compiled `CompiledCrd` or a compiled `REGISTRY` knows them.
    #[error(
        "a lone pipeline cannot validate a create (it does not know the CRD's scope and subresources): decode with a RegisteredCrd, a Registry, or a compiled CRD or REGISTRY, or call Pipeline::validate for the schema's checks"
    )]
    ValidationUnavailable,
    /// The body is longer than [`DecodeOptions::max_body_size`](crate::DecodeOptions::max_body_size)
    /// (the API server's 413 and its text).
    #[error("Request entity too large: limit is {limit}")]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The decoded object does not deserialize into the Rust type asked for (see
    /// [`Registry::decode_as`](crate::Registry::decode_as)).
    #[error("the decoded object is not a {type_name}: {source}")]
    Deserialize {
        /// The Rust type.
        type_name: &'static str,
        /// serde's error.
        source: serde_json::Error,
    },
    /// A Rust type's schema cannot be generated as asked (see
    /// [`try_schema_for`](crate::try_schema_for)).
    #[error("the schema of {type_name} cannot be generated:{}", problems.iter().map(|p| format!("\n  - {p}")).collect::<String>())]
    TypeSchema {
        /// The type whose schema was asked for.
        type_name: String,
        /// Every problem found, in the order of the type's fields.
        problems: Vec<crate::rust_schema::Problem>,
    },
}

impl Error {
    /// The API server's answer to this error, as a `metav1.Status`: 400 `BadRequest` for a
    /// body it rejects while decoding, 404 `NotFound` when nothing serves the object's kind or
    /// version, 500 `InternalError` otherwise.
    ///
    /// ```
    /// let err = kstruct::Error::NoSuchKind { group: "example.com".into(), kind: "Widgt".into() };
    /// assert_eq!(err.status().code, 404);
    /// ```
    pub fn status(&self) -> crate::status::Status {
        use crate::status::Status;
        match self {
            Error::Rejected(r) => match &r.invalid {
                None => Status::bad_request(&r.message),
                Some(invalid) => Status {
                    code: 422,
                    reason: "Invalid".into(),
                    message: r.message.clone(),
                    details: Some(crate::status::StatusDetails {
                        name: invalid.name.clone(),
                        group: invalid.group.clone(),
                        kind: invalid.kind.clone(),
                        causes: invalid
                            .errors
                            .iter()
                            .map(|e| crate::status::StatusCause {
                                reason: e.kind.go_name().into(),
                                message: e.body(),
                                field: e.field.clone(),
                            })
                            .collect(),
                    }),
                },
            },
            Error::NoSuchKind { .. } | Error::NoSuchVersion { .. } => Status::not_found(),
            Error::TooLarge { .. } => Status {
                code: 413,
                reason: "RequestEntityTooLarge".into(),
                message: self.to_string(),
                details: None,
            },
            Error::UnsupportedMediaType(_) => Status {
                code: 415,
                reason: "UnsupportedMediaType".into(),
                message: self.to_string(),
                details: None,
            },
            Error::FieldValidation(value) => Status {
                code: 422,
                reason: "Invalid".into(),
                message: self.to_string(),
                details: Some(crate::status::StatusDetails {
                    group: "meta.k8s.io".into(),
                    kind: "CreateOptions".into(),
                    causes: vec![crate::status::StatusCause {
                        reason: "FieldValueNotSupported".into(),
                        message: format!(
                            "Unsupported value: {}: supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"",
                            kstruct_schema::go::quote(value)
                        ),
                        field: "fieldValidation".into(),
                    }],
                    ..Default::default()
                }),
            },
            other => Status::internal(&other.to_string()),
        }
    }
}
