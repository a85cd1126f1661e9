//! Layer 11: decoding request bodies and stored objects exactly as the API server does.
//!
//! The write path ([`request`]) is what a create or update of a custom resource goes
//! through: the body (JSON, or YAML as the API server's YAML content type takes it) is
//! decoded strictly or not according to `fieldValidation`, its apiVersion and kind are
//! pre-parsed, root `metadata` is round-tripped through ObjectMeta, and — only for objects of
//! the CRD's group and kind — the object is pruned with the schema of the version its
//! apiVersion names, non-nullable nulls are dropped, embedded resources are coerced, the root
//! TypeMeta and ObjectMeta are restored, and defaults are applied. Duplicate and unknown
//! fields become a strict decoding error (fieldValidation `Strict`), warnings (`Warn`) or
//! nothing (`Ignore`).
//!
//! The read path ([`storage`]) is what happens to an object read back from etcd: malformed
//! metadata fields are dropped one by one instead of failing, a zero generation becomes 1,
//! unknown fields are pruned silently, defaults are applied.
//!
//! Both take a [`Resolve`]: what an endpoint serves. [`Pipeline`]s (one version of one kind,
//! or any object for a bare schema), [`RegisteredCrd`](crate::RegisteredCrd) (every version of
//! one CRD) and [`Registry`](crate::Registry) (every CRD) implement it.
//!
//! ```
//! use kstruct::{DecodeOptions, FieldValidation, Pipeline, RegisteredCrd};
//!
//! let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&serde_json::json!({
//!     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
//!     "metadata": {"name": "widgets.example.com"},
//!     "spec": {"group": "example.com", "scope": "Namespaced",
//!              "names": {"kind": "Widget", "plural": "widgets"},
//!              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
//!                  "type": "object",
//!                  "properties": {"spec": {"type": "object", "properties": {
//!                      "size": {"type": "integer", "default": 1}}}}}}}]}
//! })).unwrap();
//! let crd = RegisteredCrd::new(crd);
//! let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget",
//!                 "metadata": {"name": "w", "name": "w2"}, "spec": {"colour": "red"}}"#;
//!
//! let warned = kstruct::decode::request(&crd, body, &DecodeOptions::default()).unwrap();
//! assert_eq!(warned.object["spec"], serde_json::json!({"size": 1}));
//! assert_eq!(warned.warnings, [r#"duplicate field "metadata.name""#, r#"unknown field "spec.colour""#]);
//!
//! let strict = DecodeOptions { field_validation: FieldValidation::Strict, ..DecodeOptions::default() };
//! let err = kstruct::decode::request(&crd, body, &strict).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     r#"Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "metadata.name", unknown field "spec.colour""#
//! );
//! ```

mod body;
mod bytes;
mod coercer;
mod ext;
mod scan;
mod update;

use serde_json::Value;

use crate::error::refused;
pub use crate::error::{Invalid, Rejection};
pub use crate::format::{BodyFormat, FieldValidation};
pub use crate::texts::{TextIter, TextList};
pub(crate) use body::{Gvk, pre_parse, read_typed};
pub use bytes::{DecodeReport, request_bytes};
pub use ext::DecodeExt;
pub use scan::{try_request_bytes, try_request_bytes_prefix, try_request_value};
pub use update::{OPTIMISTIC_LOCK, update};
pub(crate) use update::{Via, invalid, update_finish, update_stored};

use crate::Error;
use crate::json::dispose;
use crate::messages;
use crate::pipeline::Pipeline;
use crate::validation;

/// Options of [`request`] and [`DecodeExt::decode`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecodeOptions {
    /// How to treat unknown and duplicate fields.
    pub field_validation: FieldValidation,
    /// How to read the body.
    pub format: BodyFormat,
    /// Go on as a create does after decoding: the request's namespace, the strategy's
    /// `PrepareForCreate` (`status` dropped under the status subresource, generation 1) and
    /// validation (ObjectMeta, OpenAPI values, scale paths, embedded resources, list types; see
    /// [`validate_create`](crate::validation::validate_create)). A failure is
    /// [`Error::Rejected`] with the server's `<Kind>.<group> "<name>" is invalid: ...`.
    /// The request's namespace is the object's own, or `default` (see [`request_in`] to name
    /// another).
    pub validate: bool,
    /// The largest body accepted, in bytes: `Some(n)` refuses longer bodies with
    /// [`Error::TooLarge`], as the API server refuses requests over its limit
    /// ([`API_SERVER_MAX_BODY_SIZE`], 3 MiB, by default). `None` (the default here): no limit.
    pub max_body_size: Option<usize>,
    /// The `metadata.resourceVersion` a write that goes through stores, as a server assigns
    /// its next one (a fake API server passes its counter): creates with
    /// [`validate`](Self::validate), updates, patches, apply and webhooks. `None` (the
    /// default): an update keeps the stored object's, a create has none.
    pub resource_version: Option<u64>,
}

/// Stores `resource_version` in `object`'s metadata, when there is one to store.
pub(crate) fn set_resource_version(object: &mut Value, resource_version: Option<u64>) {
    if let (Some(rv), Some(Value::Object(meta))) = (resource_version, object.get_mut("metadata")) {
        meta.insert("resourceVersion".into(), Value::String(rv.to_string()));
    }
}

/// The API server's default limit on request bodies (`MaxRequestBodyBytes`, 3 MiB); see
/// [`DecodeOptions::max_body_size`].
pub const API_SERVER_MAX_BODY_SIZE: usize = 3 * 1024 * 1024;

/// An object decoded as the API server decodes it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decoded {
    /// The object as the API server would go on with it: pruned, normalised, defaulted.
    pub object: Value,
    /// Warnings the API server would return (fieldValidation `Warn`).
    pub warnings: TextList,
    /// Unknown-field paths in the API server's order: root metadata, then pruned fields
    /// (sorted), then embedded metadata (sorted). Empty under `Ignore` and on the read path.
    pub unknown_fields: TextList,
    /// Paths of repeated JSON keys, in document order. Empty under `Ignore` and on the read
    /// path.
    pub duplicate_fields: TextList,
}

/// What an endpoint serves: which pipeline, if any, processes an object of a given group,
/// version and kind.
pub trait Resolve {
    /// The pipelines handed out.
    type Pipeline: Pipeline + ?Sized;

    /// The kind the endpoint serves, as the API server names it in rejections (`... cannot be
    /// handled as a <Kind>`); `None` to use the object's own kind.
    fn served_kind(&self) -> Option<&str>;

    /// The group and version of the endpoint's URL, when there is only one it can be: what
    /// the serializer reports for a body that names no apiVersion. `None` by default.
    fn served_group_version(&self) -> Option<(&str, &str)> {
        None
    }

    /// How to treat an object whose apiVersion is `group`/`version` and whose kind is `kind`.
    ///
    /// # Errors
    /// When the endpoint cannot serve that version (its schema did not convert).
    fn resolve(&self, group: &str, version: &str, kind: &str) -> Result<Selected<'_, Self::Pipeline>, Error>;

    /// What a create of an object of `group`/`version`/`kind` is validated against, for
    /// [`DecodeOptions::validate`]; `None` when the endpoint does not serve the kind.
    ///
    /// # Errors
    /// When the endpoint serves the kind but cannot validate a create (a lone pipeline, which
    /// does not know its CRD's scope and subresources).
    fn create_context(
        &self,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Result<Option<crate::validation::CreateContext<'_>>, Error> {
        let _ = (group, version, kind);
        Err(Error::ValidationUnavailable)
    }
}

/// How an object is treated, by its group, version and kind.
pub enum Selected<'a, P: ?Sized> {
    /// The object is of the CRD's group and kind: it is pruned (unless the CRD preserves
    /// unknown fields), coerced and defaulted by `pipeline`, the pipeline of the version its
    /// apiVersion names; `None` when the CRD has no such version (pruned as with an empty
    /// schema, not defaulted).
    Crd {
        /// The version's pipeline.
        pipeline: Option<&'a P>,
        /// The CRD's `spec.preserveUnknownFields`.
        preserve_unknown_fields: bool,
    },
    /// Another group or kind: only the root metadata is normalised.
    Other,
}

/// Decodes a request body through the API server's write path.
///
/// A JSON body of a served version is walked once ([`try_request_value`]): what the
/// schema prunes is skipped, never allocated, and the object is built from the stored bytes.
/// Anything else takes [`request_by_value`]; both give the same answer.
///
/// # Errors
/// [`Error::Rejected`] when the API server would reject the body (syntax errors, missing
/// kind, malformed metadata, and under fieldValidation `Strict` any duplicate or unknown
/// field); other errors when `target` cannot serve the object's version.
pub fn request<R: Resolve + ?Sized>(target: &R, body: &[u8], options: &DecodeOptions) -> Result<Decoded, Error> {
    request_in(target, body, options, None)
}

/// [`request`] for a request to `namespace` (`/namespaces/<namespace>/...`): with
/// [`DecodeOptions::validate`], a namespaced object without a namespace gets this one, and one
/// with another namespace is refused as the API server refuses it (`None`: the object's own
/// namespace, or `default`, as kubectl sends it).
///
/// # Errors
/// As [`request`].
pub fn request_in<R: Resolve + ?Sized>(
    target: &R,
    body: &[u8],
    options: &DecodeOptions,
    namespace: Option<&str>,
) -> Result<Decoded, Error> {
    match scan::try_request_value(target, body, options, namespace) {
        Some(answer) => answer,
        None => request_by_value(target, body, options, namespace),
    }
}

/// [`request_in`] by the `Value` path alone: the body read whole into a `Value`, then pruned,
/// coerced and defaulted in place. This is the specification the [byte walk](crate::scan)
/// is checked against; [`request_in`] takes the walk when it can (the same answer, without
/// allocating what the schema prunes).
///
/// # Errors
/// As [`request`].
pub fn request_by_value<R: Resolve + ?Sized>(
    target: &R,
    body: &[u8],
    options: &DecodeOptions,
    namespace: Option<&str>,
) -> Result<Decoded, Error> {
    if let Some(limit) = options.max_body_size
        && body.len() > limit
    {
        return Err(Error::TooLarge { limit });
    }
    let track = options.field_validation != FieldValidation::Ignore;
    let mode = coercer::Mode {
        track,
        drop_invalid_metadata: false,
        repair_generation: false,
    };
    let mut stage = decode(target, body, options.format, mode)?.map_err(|r| Error::Rejected(Box::new(r)))?;
    let mut errors = std::mem::take(&mut stage.strict_errors);
    errors.extend(stage.unknown_fields.iter().map(|p| messages::unknown_field(p)));
    if options.field_validation == FieldValidation::Strict && !errors.is_empty() {
        dispose(stage.object);
        let cause = messages::strict_decoding_error(&errors);
        let message = messages::rejection(Some((&stage.kind, &stage.version)), target.served_kind(), &cause, body);
        return Err(Error::Rejected(Box::new(Rejection {
            strict_errors: errors,
            ..Rejection::bad_request(message, cause)
        })));
    }
    if let Some(p) = stage.pipeline {
        p.default(&mut stage.object);
    }
    let mut warnings = if options.field_validation == FieldValidation::Warn {
        messages::warnings(errors)
    } else {
        Vec::new()
    };
    // A create refused after a Warn decoding answers with the warnings too.
    let (mut object, create_warnings) =
        validated(target, stage.object, namespace, options.validate).map_err(|e| e.with_warnings(&warnings))?;
    if options.validate {
        set_resource_version(&mut object, options.resource_version);
    }
    warnings.extend(create_warnings);
    Ok(Decoded {
        object,
        warnings: warnings.into(),
        unknown_fields: stage.unknown_fields.into(),
        duplicate_fields: stage.duplicate_fields.into(),
    })
}

/// `object` after [`create`] when `validate` is set, with the strategy's warnings; a refused
/// object is disposed of.
pub(crate) fn validated<R: Resolve + ?Sized>(
    target: &R,
    mut object: Value,
    namespace: Option<&str>,
    validate: bool,
) -> Result<(Value, Vec<String>), Error> {
    if !validate {
        return Ok((object, Vec::new()));
    }
    match create(target, &mut object, namespace) {
        Ok(warnings) => Ok((object, warnings)),
        Err(e) => {
            dispose(object);
            Err(e)
        }
    }
}

/// What a create does after decoding (see [`DecodeOptions::validate`]); the strategy's
/// warnings when it passes.
fn create<R: Resolve + ?Sized>(target: &R, object: &mut Value, namespace: Option<&str>) -> Result<Vec<String>, Error> {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let (kind, api_version) = (text(object, "kind"), text(object, "apiVersion"));
    let Ok((group, version)) = crate::parse_group_version(&api_version) else {
        return Ok(Vec::new());
    };
    let Some(ctx) = target.create_context(group, version, &kind)? else {
        return Ok(Vec::new());
    };
    validation::wipe_system_fields(object);
    validation::apply_request_namespace(object, ctx.namespaced, namespace).map_err(|m| refused(m, None))?;
    generate_name(object);
    validation::prepare_for_create(object, ctx.status_subresource);
    let errors = validation::validate_create(&ctx, object);
    if errors.is_empty() {
        return Ok(validation::create_warnings(object));
    }
    let name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let message = validation::invalid_message(ctx.group, ctx.kind, name, &errors);
    Err(refused(
        message,
        Some(Box::new(Invalid {
            group: ctx.group.to_string(),
            kind: ctx.kind.to_string(),
            name: name.to_string(),
            errors,
        })),
    ))
}

/// The registry's name generation for `generateName` without `name`: the prefix, cut to 58
/// characters, and 5 characters the server picks at random (here `xxxxx`, so that results
/// are reproducible).
fn generate_name(object: &mut Value) {
    let Some(Value::Object(meta)) = object.get_mut("metadata") else {
        return;
    };
    let has_name = meta.get("name").and_then(Value::as_str).is_some_and(|n| !n.is_empty());
    let prefix = meta.get("generateName").and_then(Value::as_str).unwrap_or("");
    if has_name || prefix.is_empty() {
        return;
    }
    let base: String = if prefix.len() > 58 {
        prefix.chars().take(58).collect()
    } else {
        prefix.to_string()
    };
    meta.insert("name".into(), Value::String(format!("{base}xxxxx")));
}

/// Decodes a stored object through the API server's read-from-storage path: malformed
/// metadata fields are dropped (instead of failing), a zero `metadata.generation` becomes 1,
/// unknown fields are pruned without being reported, and defaults are applied.
///
/// # Errors
/// [`Error::Rejected`] for bodies the storage decoder cannot read (syntax errors, missing
/// kind, metadata that is not an object); other errors when `target` cannot serve the
/// object's version.
pub fn storage<R: Resolve + ?Sized>(target: &R, body: &[u8]) -> Result<Decoded, Error> {
    let mode = coercer::Mode {
        track: false,
        drop_invalid_metadata: true,
        repair_generation: true,
    };
    let mut stage = decode(target, body, BodyFormat::Auto, mode)?.map_err(|mut rejection| {
        // No handler wraps errors of the read path.
        rejection.message = rejection.cause.clone();
        Error::Rejected(Box::new(rejection))
    })?;
    if let Some(p) = stage.pipeline {
        p.default(&mut stage.object);
    }
    Ok(Decoded {
        object: stage.object,
        ..Decoded::default()
    })
}

/// An object after the serializer and the coercer: everything but defaulting.
struct Stage<'a, P: ?Sized> {
    object: Value,
    /// The pipeline that defaults the object.
    pipeline: Option<&'a P>,
    strict_errors: Vec<String>,
    duplicate_fields: Vec<String>,
    unknown_fields: Vec<String>,
    /// The object's kind and version, as the serializer reports them.
    kind: String,
    version: String,
}

/// Serializer and coercer. The outer error is the target's, the inner one the API server's.
fn decode<'a, R: Resolve + ?Sized>(
    target: &'a R,
    body: &[u8],
    format: BodyFormat,
    mode: coercer::Mode,
) -> Result<Result<Stage<'a, R::Pipeline>, Rejection>, Error> {
    let into = target.served_kind();
    let read = match body::read(body, format, mode.track) {
        Ok(r) => r,
        Err(f) => {
            // The serializer fills in what the body does not name from the endpoint's
            // group/version/kind (`gvkWithDefaults`).
            let gvk = f
                .gvk
                .map(|g| with_endpoint_defaults(g, into, target.served_group_version()));
            let gvk = gvk.as_ref().map(|g| (g.kind.as_str(), g.version.as_str()));
            let message = messages::rejection(gvk, into, &f.cause, body);
            return Ok(Err(Rejection {
                position: f.position,
                ..Rejection::bad_request(message, f.cause)
            }));
        }
    };
    let (kind, version) = (read.kind, read.version);
    let mut object = Value::Object(read.object);
    match coercer::apply(&mut object, target, mode) {
        Ok(applied) => Ok(Ok(Stage {
            object,
            pipeline: applied.pipeline,
            strict_errors: read.strict_errors,
            duplicate_fields: read.duplicate_fields,
            unknown_fields: applied.unknown,
            kind,
            version,
        })),
        Err(coercer::Failure::Rejected(cause)) => {
            dispose(object);
            let message = messages::rejection(Some((&kind, &version)), into, &cause, body);
            Ok(Err(Rejection::bad_request(message, cause)))
        }
        Err(coercer::Failure::Target(e)) => {
            dispose(object);
            Err(e)
        }
    }
}

/// apimachinery's `gvkWithDefaults`: the endpoint's kind for a body that names none, its
/// group and version for one that names neither, its version for one of its group without a
/// version.
pub(crate) fn with_endpoint_defaults(
    mut gvk: body::Gvk,
    kind: Option<&str>,
    group_version: Option<(&str, &str)>,
) -> body::Gvk {
    if gvk.kind.is_empty()
        && let Some(kind) = kind
    {
        gvk.kind = kind.to_string();
    }
    if let Some((group, version)) = group_version
        && gvk.version.is_empty()
        && (gvk.group.is_empty() || gvk.group == group)
    {
        gvk.group = group.to_string();
        gvk.version = version.to_string();
    }
    gvk
}

/// A [`Pipeline`] as an endpoint: a CRD with that one version (or, without
/// [`Pipeline::resource`], whatever object comes). What [`DecodeExt::decode`] decodes with;
/// wrap a pipeline in it to call this module's functions, e.g. [`request_by_value`].
pub struct OneVersion<'a, P: ?Sized>(pub &'a P);

impl<P: Pipeline + ?Sized> Resolve for OneVersion<'_, P> {
    type Pipeline = P;

    fn served_kind(&self) -> Option<&str> {
        self.0.resource().map(|r| r.kind.as_str())
    }

    fn served_group_version(&self) -> Option<(&str, &str)> {
        self.0.resource().map(|r| (r.group.as_str(), r.version.as_str()))
    }

    fn resolve(&self, group: &str, version: &str, kind: &str) -> Result<Selected<'_, P>, Error> {
        let preserve_unknown_fields = self.0.preserves_unknown_fields();
        Ok(match self.0.resource() {
            None => Selected::Crd {
                pipeline: Some(self.0),
                preserve_unknown_fields,
            },
            Some(r) if r.group == group && r.kind == kind => Selected::Crd {
                pipeline: (r.version == version).then_some(self.0),
                preserve_unknown_fields,
            },
            Some(_) => Selected::Other,
        })
    }
}

#[cfg(test)]
mod tests;
