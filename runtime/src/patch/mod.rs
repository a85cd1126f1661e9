//! Layer 12: PATCH of custom resources, as the API server's patch handler does it: RFC 6902 JSON patch
//! ([`json`]) and RFC 7386 merge patch ([`merge`]) applied to the stored object, the result
//! decoded through the write path with fieldValidation and then updated as a PUT is
//! ([`decode::update`](crate::decode::update())); server-side apply bodies ([`apply`]); and
//! what the server keeps of an object a mutating admission webhook patched ([`webhook`]).
//!
//! ```
//! use kstruct::{DecodeOptions, FieldValidation, RegisteredCrd};
//! use serde_json::json;
//!
//! let crd = RegisteredCrd::new(kstruct::schema::crd::CustomResourceDefinition::from_value(&json!({
//!     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
//!     "metadata": {"name": "widgets.example.com"},
//!     "spec": {"group": "example.com", "scope": "Namespaced",
//!              "names": {"kind": "Widget", "plural": "widgets"},
//!              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
//!                  "type": "object",
//!                  "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}}]}
//! })).unwrap());
//! let stored = json!({"apiVersion": "example.com/v1", "kind": "Widget",
//!     "metadata": {"name": "w", "namespace": "default", "resourceVersion": "7", "generation": 1},
//!     "spec": {"size": 1}});
//!
//! let patched = kstruct::patch::merge(&crd, &stored, br#"{"spec": {"size": 2, "colour": "red"}}"#,
//!     &DecodeOptions::default()).unwrap();
//! assert_eq!(patched.object["spec"], json!({"size": 2}));
//! assert_eq!(patched.object["metadata"]["generation"], 2);
//! assert_eq!(patched.warnings, [r#"unknown field "spec.colour""#]);
//!
//! let strict = DecodeOptions { field_validation: FieldValidation::Strict, ..DecodeOptions::default() };
//! let err = kstruct::patch::json(&crd, &stored, br#"[{"op": "add", "path": "/spec/colour", "value": "red", "why": 1}]"#,
//!     &strict).unwrap_err();
//! assert!(err.to_string().ends_with(
//!     r#"strict decoding error: json patch unknown field "[0].why", unknown field "spec.colour""#));
//! assert_eq!(err.status().code, 422);
//! ```

mod apply;
pub mod json_patch;
mod lazy;
pub mod merge_patch;
mod strict;
mod typed;
mod webhook;

pub use apply::apply;
pub use webhook::webhook;

use serde_json::Value;

use crate::decode::{self, DecodeOptions, Decoded, FieldValidation, Resolve};
use crate::pipeline::{Pipeline, PruneOptions};
use crate::{BodyFormat, Error};
use kstruct_schema::field::{BadValue, FieldError, Path};

/// The patch types the API server accepts for custom resources (there is no strategic merge
/// patch for them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PatchType {
    /// `application/json-patch+json`: RFC 6902.
    Json,
    /// `application/merge-patch+json`: RFC 7386.
    Merge,
    /// `application/apply-patch+yaml`: server-side apply.
    Apply,
}

impl PatchType {
    /// The patch type of a request's `Content-Type` (parameters ignored).
    ///
    /// # Errors
    /// [`Error::UnsupportedPatchType`] (the server's 415) for any other media type.
    ///
    /// ```
    /// use kstruct::patch::PatchType;
    /// assert_eq!(PatchType::from_content_type("application/merge-patch+json; charset=utf-8").unwrap(), PatchType::Merge);
    /// assert_eq!(PatchType::from_content_type("application/strategic-merge-patch+json").unwrap_err().status().code, 415);
    /// ```
    pub fn from_content_type(content_type: &str) -> Result<PatchType, Error> {
        match content_type.split(';').next().unwrap_or("").trim() {
            "application/json-patch+json" => Ok(PatchType::Json),
            "application/merge-patch+json" => Ok(PatchType::Merge),
            "application/apply-patch+yaml" => Ok(PatchType::Apply),
            _ => Err(Error::UnsupportedPatchType(content_type.to_string())),
        }
    }
}

/// Applies a patch of `patch_type` to the stored object `existing` (`None`: there is none,
/// which only an apply may create), as the API server's patch handler does. See [`json`],
/// [`merge`] and [`apply`].
///
/// # Errors
/// As those functions; [`Error::NotFound`] for a JSON or merge patch without a stored object.
pub fn patch<R: Resolve + ?Sized>(
    target: &R,
    existing: Option<&Value>,
    body: &[u8],
    patch_type: PatchType,
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    match (patch_type, existing) {
        (PatchType::Apply, existing) => apply(target, existing, body, options),
        (_, None) => Err(Error::NotFound),
        (PatchType::Json, Some(e)) => json(target, e, body, options),
        (PatchType::Merge, Some(e)) => merge(target, e, body, options),
    }
}

fn bad_request(message: String) -> Error {
    crate::error::refused(message, None)
}

fn check_size(body: &[u8], options: &DecodeOptions) -> Result<(), Error> {
    match options.max_body_size {
        Some(limit) if body.len() > limit => Err(Error::TooLarge { limit }),
        _ => Ok(()),
    }
}

/// Applies an RFC 6902 JSON patch to the stored object `existing`, as the API server does for
/// a custom resource (`application/json-patch+json`):
/// - under fieldValidation Strict and Warn the operations are first decoded strictly: unknown
///   and repeated members are `json patch unknown field "[0].foo"` and
///   `json patch duplicate field "[1].path"`;
/// - more than 10,000 operations are refused (413);
/// - the operations are applied with the server's library's semantics ([`json_patch`]);
///   one that does not apply fails the patch with the server's 422 answer,
///   `the server rejected our request due to an error in our request`
///   ([`Error::PatchNotApplied`], whose `cause` keeps the library's text);
/// - the patched object is decoded through the write path: its unknown fields follow the
///   body's strict errors. Under Strict any of them is a 422 `Invalid` on the field `patch`
///   quoting the patched JSON (` "" is invalid: patch: Invalid value: "{...}": strict decoding
///   error: ...`); under Warn they are warnings;
/// - the result is updated as a PUT is ([`decode::update`]): name checks, resourceVersion,
///   generation, status, and with [`DecodeOptions::validate`] the update's validation.
///
/// # Errors
/// As above; [`Error::Rejected`] (400) for a body that is not JSON (`invalid JSON patch`) or
/// not an array of operations (`error decoding patch: json: cannot unmarshal ...`).
pub fn json<R: Resolve + ?Sized>(
    target: &R,
    existing: &Value,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    let (decoded, old) = read(target, existing, body, options)?;
    let strict = options.field_validation != FieldValidation::Ignore;
    let body_report = if strict {
        match strict::json_patch_ops(&decoded, body) {
            Ok(report) => report,
            Err(e) => {
                crate::json::dispose(decoded.value);
                crate::json::dispose(old);
                return Err(bad_request(format!("error decoding patch: {e}")));
            }
        }
    } else {
        strict::Report::default()
    };
    crate::json::dispose(decoded.value);
    let ops = match json_patch::decode(body) {
        Ok(ops) => ops,
        Err(e) => {
            crate::json::dispose(old);
            return Err(bad_request(e));
        }
    };
    if ops.len() > json_patch::MAX_OPERATIONS {
        crate::json::dispose(old);
        return Err(Error::TooManyOperations { count: ops.len() });
    }
    // The library patches the stored object's JSON, as the server encodes it.
    let patched = json_patch::apply(kstruct_schema::go::marshal_json(&old).as_bytes(), &ops);
    let answer = match patched {
        Ok(patched) => finish(target, patched, &old, body_report, options),
        Err(cause) => Err(Error::PatchNotApplied { cause }),
    };
    crate::json::dispose(old);
    answer
}

/// Applies an RFC 7386 merge patch to the stored object `existing`, as the API server does
/// for a custom resource (`application/merge-patch+json`): under fieldValidation Strict and
/// Warn the body's repeated keys are strict errors (`duplicate field "spec.x"`, before those
/// of the result); the patch is merged with the server's library's semantics
/// ([`merge_patch`]); then as [`json`] from the decoding of the result on.
///
/// # Errors
/// [`Error::Rejected`] (400) for a body that is not JSON (`invalid JSON patch`), not an
/// object under strict decoding (`error decoding patch: ...`), or `null` or a scalar
/// (`Invalid JSON Patch`); otherwise as [`json`].
pub fn merge<R: Resolve + ?Sized>(
    target: &R,
    existing: &Value,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    let (decoded, old) = read(target, existing, body, options)?;
    let strict = options.field_validation != FieldValidation::Ignore;
    let body_report = if strict {
        match strict::merge_patch(decoded) {
            Ok((value, report)) => {
                crate::json::dispose(value);
                report
            }
            Err(e) => {
                crate::json::dispose(old);
                return Err(bad_request(format!("error decoding patch: {e}")));
            }
        }
    } else {
        crate::json::dispose(decoded.value);
        strict::Report::default()
    };
    // The library merges the body's text into the stored object's JSON.
    let answer = match merge_patch::apply(kstruct_schema::go::marshal_json(&old).as_bytes(), body) {
        Ok(patched) => finish(target, patched, &old, body_report, options),
        Err(e) => Err(bad_request(e.into())),
    };
    crate::json::dispose(old);
    answer
}

/// The handler's first look at a JSON or merge patch (`validateAndTranscodePatch`), then
/// the stored object: a body over the size limit is a 413 and one that is not JSON a 400
/// `invalid JSON patch`, before the stored object is looked up. The value read is what the
/// strict and the library's decodings then look at.
fn read<R: Resolve + ?Sized>(
    target: &R,
    existing: &Value,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<(crate::json::DecodedJson, Value), Error> {
    check_size(body, options)?;
    let decoded = crate::json::decode(body).map_err(|_| bad_request("invalid JSON patch".into()))?;
    match decode::update_stored(target, existing) {
        Ok(old) => Ok((decoded, old)),
        Err(e) => {
            crate::json::dispose(decoded.value);
            Err(e)
        }
    }
}

/// The unknown-field paths of `obj`, as decoding reports them: root metadata, then what
/// `pipeline` prunes (sorted). `obj` is left as it is.
fn unknown_paths<P: Pipeline + ?Sized>(pipeline: Option<&P>, obj: &Value) -> Vec<String> {
    let mut paths = Vec::new();
    if let Value::Object(map) = obj {
        let opts = crate::objectmeta::GetOptions {
            return_unknown_field_paths: true,
            ..Default::default()
        };
        if let Ok(found) = crate::objectmeta::get_object_meta(map, &opts) {
            paths.extend(found.unknown_fields);
        }
    }
    if let Some(p) = pipeline {
        let mut copy = crate::json::deep_clone(obj);
        let options = PruneOptions {
            resource_root: true,
            track_unknown_fields: true,
        };
        paths.extend(p.prune(&mut copy, options).unknown_fields);
        crate::json::dispose(copy);
    }
    paths
}

/// Decodes the patched document (the library's text: what the patch wrote keeps its text)
/// through the write path and updates with it.
fn finish<R: Resolve + ?Sized>(
    target: &R,
    patched: Vec<u8>,
    old: &Value,
    body_report: strict::Report,
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    // What the 422 quotes (invalid UTF-8 a patch wrote is U+FFFD, as Go's encoder writes it).
    let patched_json = String::from_utf8_lossy(&patched).into_owned();
    let strict = options.field_validation != FieldValidation::Ignore;
    let decode = DecodeOptions {
        field_validation: if strict {
            FieldValidation::Warn
        } else {
            FieldValidation::Ignore
        },
        format: BodyFormat::Json,
        validate: false,
        max_body_size: None,
        resource_version: None,
    };
    // `Invalid` with an empty kind and name, on the field `patch`, quoting the patched JSON.
    let invalid = |detail: String| {
        let error = FieldError::invalid(&Path::new("patch"), BadValue::String(patched_json.clone()), detail);
        decode::invalid("", "", "", vec![error])
    };
    let mut decoded = match decode::request_by_value(target, &patched, &decode, None) {
        Ok(d) => d,
        // The patch's own strict errors are dropped: the result does not decode at all.
        Err(Error::Rejected(r)) => return Err(invalid(r.cause)),
        Err(e) => return Err(e),
    };
    let mut errors = body_report.errors;
    errors.extend(decoded.warnings.iter().map(str::to_string));
    if options.field_validation == FieldValidation::Strict && !errors.is_empty() {
        crate::json::dispose(std::mem::take(&mut decoded.object));
        let mut e = invalid(crate::messages::strict_decoding_error(&errors));
        if let Error::Rejected(r) = &mut e {
            r.strict_errors = errors;
        }
        return Err(e);
    }
    decoded.warnings = if options.field_validation == FieldValidation::Warn {
        crate::messages::warnings(errors).into()
    } else {
        Vec::<String>::new().into()
    };
    decoded.duplicate_fields = body_report.duplicates.into();
    decode::update_finish(target, decoded, old, options.validate, decode::Via::Patch).map(|mut d| {
        decode::set_resource_version(&mut d.object, options.resource_version);
        d
    })
}

#[cfg(test)]
mod tests;
