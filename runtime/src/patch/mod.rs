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

pub use apply::{apply, apply_builtin};
pub use webhook::webhook;

use serde_json::Value;

use crate::builtin::BuiltinKinds;
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

/// [`patch`] on what `registry` serves, as a fake API server routes a PATCH: an object of a
/// kind a CRD declares is patched as a custom resource; one of Kubernetes' own kinds, when
/// the registry serves them ([`Registry::with_builtins`](crate::Registry::with_builtins)), as
/// [`patch_builtin`] patches it; anything else is [`Error::NoSuchKind`] (nothing serves it).
/// The resource is the stored object's, or for an apply that creates, the one its body names.
///
/// ```
/// use kstruct::builtin::Release;
/// use kstruct::patch::PatchType;
/// use kstruct::{DecodeOptions, Registry};
/// use serde_json::json;
///
/// let registry = Registry::new().with_builtins(Release::newest());
/// let stored = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
///     "spec": {"ports": [{"port": 80, "name": "http", "protocol": "TCP"}, {"port": 53, "protocol": "UDP"}]}});
/// let body = b"{apiVersion: v1, kind: Service, metadata: {name: web}, spec: {ports: [{port: 80, targetPort: 8080}]}}";
/// let applied = kstruct::patch::patch_served(&registry, Some(&stored), body, PatchType::Apply, &DecodeOptions::default())?;
/// // Ports are keyed by port and protocol (TCP when unset): the same port, merged.
/// assert_eq!(applied.object["spec"]["ports"][0], json!({"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080}));
/// assert_eq!(applied.object["spec"]["ports"][1]["port"], 53);
/// # Ok::<(), kstruct::Error>(())
/// ```
///
/// # Errors
/// As [`patch`] and [`patch_builtin`]; [`Error::NoSuchKind`] as above.
pub fn patch_served(
    registry: &crate::Registry,
    existing: Option<&Value>,
    body: &[u8],
    patch_type: PatchType,
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    let read;
    let named = match existing {
        Some(e) => e,
        None => {
            read = kstruct_schema::yaml::to_json_bytes(body).map(|c| c.value);
            read.as_ref().unwrap_or(&Value::Null)
        }
    };
    let Value::Object(named) = named else {
        // Nothing names a resource: the handler's own answer to the body.
        return patch(registry, existing, body, patch_type, options);
    };
    let text = |k: &str| named.get(k).and_then(Value::as_str).unwrap_or("");
    let (group, version) = crate::parse_group_version(text("apiVersion")).unwrap_or(("", ""));
    let kind = text("kind");
    if registry.find(group, kind).is_some() {
        return patch(registry, existing, body, patch_type, options);
    }
    match registry.builtins() {
        Some(kinds) if kinds.kind(group, version, kind).is_some() => {
            patch_builtin(kinds, existing, body, patch_type, options)
        }
        _ => Err(Error::NoSuchKind {
            group: group.to_string(),
            kind: kind.to_string(),
        }),
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
    json_patch_of(&Custom(target), existing, body, options)
}

fn json_patch_of<T: Patchable>(
    target: &T,
    existing: &Value,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    let (decoded, old, old_json) = read(target, existing, body, options)?;
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
    let patched = json_patch::apply(&old_json, &ops);
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
    merge_patch_of(&Custom(target), existing, body, options)
}

fn merge_patch_of<T: Patchable>(
    target: &T,
    existing: &Value,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    let (decoded, old, old_json) = read(target, existing, body, options)?;
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
    let answer = match merge_patch::apply(&old_json, body) {
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
fn read<T: Patchable>(
    target: &T,
    existing: &Value,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<(crate::json::DecodedJson, Value, Vec<u8>), Error> {
    check_size(body, options)?;
    let decoded = crate::json::decode(body).map_err(|_| bad_request("invalid JSON patch".into()))?;
    match target.stored(existing) {
        Ok((old, old_json)) => Ok((decoded, old, old_json)),
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
fn finish<T: Patchable>(
    target: &T,
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
    let mut decoded = match target.decode_patched(&patched, &decode, old) {
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
    target.update(decoded, old, options)
}

/// What a JSON or merge patch is applied to: a custom resource's endpoint, or one of
/// Kubernetes' own kinds. The handler's steps are the same; reading and encoding the stored
/// object, decoding the patched one and the update after it are the target's.
trait Patchable {
    /// The stored object, as the server reads it from storage, and its JSON, as the server
    /// encodes it for the patch library.
    fn stored(&self, existing: &Value) -> Result<(Value, Vec<u8>), Error>;
    /// The patched document decoded through the write path (fieldValidation Warn or Ignore).
    fn decode_patched(&self, patched: &[u8], options: &DecodeOptions, old: &Value) -> Result<Decoded, Error>;
    /// The update's steps after decoding.
    fn update(&self, decoded: Decoded, old: &Value, options: &DecodeOptions) -> Result<Decoded, Error>;
}

/// A custom resource's endpoint.
struct Custom<'a, R: ?Sized>(&'a R);

impl<R: Resolve + ?Sized> Patchable for Custom<'_, R> {
    fn stored(&self, existing: &Value) -> Result<(Value, Vec<u8>), Error> {
        let old = decode::update_stored(self.0, existing)?;
        let json = kstruct_schema::go::marshal_json(&old).into_bytes();
        Ok((old, json))
    }

    fn decode_patched(&self, patched: &[u8], options: &DecodeOptions, _old: &Value) -> Result<Decoded, Error> {
        decode::request_by_value(self.0, patched, options, None)
    }

    fn update(&self, decoded: Decoded, old: &Value, options: &DecodeOptions) -> Result<Decoded, Error> {
        decode::update_finish(self.0, decoded, old, options.validate, decode::Via::Patch).map(|mut d| {
            decode::set_resource_version(&mut d.object, options.resource_version);
            d
        })
    }
}

impl Patchable for BuiltinKinds {
    fn stored(&self, existing: &Value) -> Result<(Value, Vec<u8>), Error> {
        // Read once, as the encoder writes it: the patch library keeps the document's order,
        // and the 422 quotes the patched object in it; the value is those bytes parsed.
        let json = self.encode_object(existing).map_err(stored_unreadable)?;
        let old = crate::json::decode(&json).map_err(|e| stored_unreadable(Error::NotModelled(e.to_string())))?;
        Ok((old.value, json))
    }

    fn decode_patched(&self, patched: &[u8], options: &DecodeOptions, old: &Value) -> Result<Decoded, Error> {
        // The patched object is decoded into the stored object's kind: one that names another
        // group or kind gets an answer kstruct does not model.
        let text = |k: &str| old.get(k).and_then(Value::as_str).unwrap_or("");
        let (group, version) = crate::parse_group_version(text("apiVersion")).unwrap_or(("", ""));
        let endpoint = crate::GroupVersionKind::new(group, version, text("kind"));
        self.decode_at(Some(&endpoint), patched, options)
    }

    fn update(&self, decoded: Decoded, _old: &Value, _options: &DecodeOptions) -> Result<Decoded, Error> {
        // The kind's registry strategy, defaulting and validation are not modelled.
        Ok(decoded)
    }
}

/// A stored object of a built-in kind read into its Go types; one they cannot read is not
/// something the server stores.
fn read_stored_builtin(kinds: &BuiltinKinds, existing: &Value) -> Result<Value, Error> {
    kinds.read_object(existing).map_err(stored_unreadable)
}

fn stored_unreadable(e: Error) -> Error {
    Error::NotModelled(format!(
        "a stored object the kind's Go types cannot read ({e}): the API server stores none such"
    ))
}

/// Applies a patch of `patch_type` to the stored object `existing` of one of Kubernetes' own
/// kinds, as the API server's patch handler does up to the kind's own steps: a JSON or merge
/// patch as [`json`] and [`merge`] apply one (the stored object encoded in the Go types'
/// field order, the patched object decoded into the Go types: their strict and type errors
/// are the 422 `Invalid` on `patch` quoting it), a server-side apply as [`apply_builtin`].
///
/// **Not modelled**: the kind's defaulting, registry strategy (generation, status, name
/// checks) and validation, which the server runs next. The object returned is the patched
/// one read into the Go types.
///
/// ```
/// use kstruct::builtin::{BuiltinKinds, Release};
/// use kstruct::patch::PatchType;
/// use kstruct::{DecodeOptions, FieldValidation};
/// use serde_json::json;
///
/// let kinds = BuiltinKinds::new(Release::newest());
/// let stored = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}});
/// let strict = DecodeOptions { field_validation: FieldValidation::Strict, ..DecodeOptions::default() };
/// let err = kstruct::patch::patch_builtin(&kinds, Some(&stored), br#"{"data": {"b": 2}}"#, PatchType::Merge, &strict)
///     .unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#" "" is invalid: patch: Invalid value: "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\",\"b\":2},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}": json: cannot unmarshal number into Go struct field ConfigMap.data of type string"#
/// );
/// ```
///
/// # Errors
/// As [`json`], [`merge`] and [`apply_builtin`].
pub fn patch_builtin(
    kinds: &BuiltinKinds,
    existing: Option<&Value>,
    body: &[u8],
    patch_type: PatchType,
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    match (patch_type, existing) {
        (PatchType::Apply, existing) => apply_builtin(kinds, existing, body, options),
        (_, None) => Err(Error::NotFound),
        (PatchType::Json, Some(e)) => json_patch_of(kinds, e, body, options),
        (PatchType::Merge, Some(e)) => merge_patch_of(kinds, e, body, options),
    }
}

#[cfg(test)]
mod tests;
