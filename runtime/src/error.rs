//! Layer 2: the error type of the `kstruct` crate.

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
    /// The object names a group, version and kind that is not one of the chosen Kubernetes
    /// release's own kinds (or that the release no longer serves).
    #[error("Kubernetes {release} has no kind {kind:?} in {group_version:?}")]
    NotBuiltin {
        /// `apps/v1`, or `v1` for the core group.
        group_version: String,
        /// The kind.
        kind: String,
        /// The release asked for.
        release: String,
    },
    /// The API server's answer depends on what kstruct does not model; the text says what.
    #[error("not modelled: {0}")]
    NotModelled(String),
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
    /// The API server would reject the body (see [`Rejection`](Rejection)).
    #[error("{}", .0.message)]
    Rejected(Box<Rejection>),
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
    /// An update or patch names a `resourceVersion` other than the stored object's, or a
    /// `uid` other than its (the API server's 409 `Conflict`, with its text).
    #[error(
        "Operation cannot be fulfilled on {resource} {}: {detail}",
        kstruct_schema::go::quote(name)
    )]
    Conflict {
        /// The resource, `<plural>.<group>`.
        resource: String,
        /// The object's name.
        name: String,
        /// Why: [`OPTIMISTIC_LOCK`](crate::decode::OPTIMISTIC_LOCK) for a stale
        /// `resourceVersion`.
        detail: String,
        /// The warnings the server sends with the answer (see [`Rejection::warnings`]).
        warnings: Vec<String>,
    },
    /// A JSON patch or merge patch of an object that is not stored (the server's 404).
    #[error("the object to patch does not exist")]
    NotFound,
    /// A PATCH `Content-Type` the API server does not accept for custom resources (its 415).
    #[error(
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
    )]
    UnsupportedPatchType(String),
    /// A JSON patch of more operations than the API server accepts (its 413).
    #[error("Request entity too large: The allowed maximum operations in a JSON patch is 10000, got {count}")]
    TooManyOperations {
        /// How many operations the patch has.
        count: usize,
    },
    /// A JSON patch that does not apply to the stored object: the API server's 422 answer,
    /// which does not say why; `cause` is the patch library's reason.
    #[error("the server rejected our request due to an error in our request")]
    PatchNotApplied {
        /// Why the patch does not apply, in the patch library's words (not sent by the server).
        cause: String,
    },
    /// Something the API server answers with a 500 `InternalError` (a mutating webhook's
    /// patch that does not apply), with its text.
    #[error("Internal error occurred: {0}")]
    Internal(String),
    /// A server-side apply body the field manager refuses (fields the schema does not
    /// declare): the API server's 500, with its text.
    #[error("{0}")]
    Apply(String),
    /// An object a mutating webhook returned without an apiVersion, which the server cannot
    /// convert back (`/, Kind=Widget is unstructured and is not suitable for converting to
    /// "example.com/v1"`): its bare 500, with its text.
    #[error("{0}")]
    Unconvertible(String),
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
        problems: Vec<Problem>,
    },
}

impl Error {
    /// The warnings the server sends with this answer: fieldValidation Warn's, recorded
    /// before an update, patch or create failed (400, 409 and 422 answers carry them).
    pub fn warnings(&self) -> &[String] {
        match self {
            Error::Rejected(r) => &r.warnings,
            Error::Conflict { warnings, .. } => warnings,
            _ => &[],
        }
    }

    /// This error, with `warnings` recorded before it.
    pub(crate) fn with_warnings<S: AsRef<str>>(mut self, before: impl IntoIterator<Item = S>) -> Error {
        let slot = match &mut self {
            Error::Rejected(r) => Some(&mut r.warnings),
            Error::Conflict { warnings, .. } => Some(warnings),
            _ => None,
        };
        if let Some(warnings) = slot {
            let later = std::mem::take(warnings);
            warnings.extend(before.into_iter().map(|w| w.as_ref().to_string()));
            warnings.extend(later);
        }
        self
    }

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
            Error::NoSuchKind { .. } | Error::NoSuchVersion { .. } | Error::NotFound => Status::not_found(),
            Error::Conflict { resource, name, .. } => {
                let (plural, group) = resource.split_once('.').unwrap_or((resource, ""));
                Status {
                    code: 409,
                    reason: "Conflict".into(),
                    message: self.to_string(),
                    details: Some(crate::status::StatusDetails {
                        name: name.clone(),
                        group: group.into(),
                        kind: plural.into(),
                        causes: Vec::new(),
                    }),
                }
            }
            Error::TooLarge { .. } => Status {
                code: 413,
                reason: "RequestEntityTooLarge".into(),
                message: self.to_string(),
                details: None,
            },
            Error::PatchNotApplied { .. } => Status {
                code: 422,
                reason: "Invalid".into(),
                message: self.to_string(),
                details: Some(crate::status::StatusDetails::default()),
            },
            Error::TooManyOperations { .. } => Status {
                code: 413,
                reason: "RequestEntityTooLarge".into(),
                message: self.to_string(),
                details: None,
            },
            Error::Apply(message) | Error::Unconvertible(message) => Status {
                code: 500,
                reason: String::new(),
                message: message.clone(),
                details: None,
            },
            Error::UnsupportedMediaType(_) | Error::UnsupportedPatchType(_) => Status {
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

/// A create the API server refuses after decoding: its 422 `Invalid` answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// The kind's group.
    pub group: String,
    /// The kind.
    pub kind: String,
    /// The object's name.
    pub name: String,
    /// Each field error, in the server's order.
    pub errors: Vec<kstruct_schema::field::FieldError>,
}

/// A body the API server rejects.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    /// The message of the API server's 400 answer, e.g. `Widget in version "v1" cannot be
    /// handled as a Widget: strict decoding error: unknown field "spec.x"`.
    pub message: String,
    /// The decoder's own error, without the handler's wrapping (`strict decoding error: ...`,
    /// `Object 'Kind' is missing in '...'`, `spec.template.apiVersion: Invalid value: 1: must
    /// be a string`).
    pub cause: String,
    /// For strict decoding failures, each strict error in the API server's order.
    pub strict_errors: Vec<String>,
    /// Where in the body a syntax error is, as (line, column), both 1-based: a JSON syntax
    /// error's (Go's texts name no position), or a YAML error's (whose text names the line).
    /// Kept out of `message` and `cause`, which are the API server's text.
    pub position: Option<(usize, usize)>,
    /// For a decoding error inside a built-in kind's body (a Go type error, a quantity or a
    /// time that does not parse): the path of the value, list indices included
    /// (`spec.template.spec.containers[0].ports[0].containerPort`), to locate it. Go's own
    /// text names the field without indices, or not at all.
    pub field: Option<String>,
    /// For a create refused by validation (422 `Invalid`): the field errors. `None` for the
    /// 400s of decoding.
    pub invalid: Option<Box<Invalid>>,
    /// The warnings the server sends with this answer: what fieldValidation Warn recorded
    /// before the request failed (`duplicate field "metadata"` beside a name it left empty).
    pub warnings: Vec<String>,
}

impl Rejection {
    /// A 400 of decoding: the handler's `message` for the decoder's `cause`, nothing else
    /// known (the other fields are set with struct update syntax where they are).
    pub(crate) fn bad_request(message: String, cause: String) -> Rejection {
        Rejection {
            message,
            cause,
            strict_errors: Vec::new(),
            position: None,
            field: None,
            invalid: None,
            warnings: Vec::new(),
        }
    }
}

/// The server's refusal with `message`: a 400 `BadRequest`, or with `invalid` a 422 `Invalid`.
pub(crate) fn refused(message: String, invalid: Option<Box<Invalid>>) -> Error {
    Error::Rejected(Box::new(Rejection {
        invalid,
        ..Rejection::bad_request(message.clone(), message)
    }))
}

/// Something the schema of a type cannot do, found when the schema is generated (the derive
/// finds everything it can at compile time; these depend on other types' schemas or on
/// values).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The Rust type whose schema has the problem (as `std::any::type_name` prints it).
    pub type_name: String,
    /// Where in the schema, as a field path from the outermost type (`spec.items[].name`);
    /// empty for the outermost node.
    pub path: String,
    /// What is wrong and what to do.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.type_name, self.message)
        } else {
            write!(f, "{} at `{}`: {}", self.type_name, self.path, self.message)
        }
    }
}
