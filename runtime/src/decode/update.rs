//! The update (PUT) path: the body decoded as a create's, then what the update handler and
//! the registry do with the stored object. Patches end here too, with the patched object as
//! the body.

use serde_json::Value;

use super::{DecodeOptions, Decoded, Resolve, request_in, set_resource_version};
use crate::Error;
use crate::json::dispose;
use crate::validation;
use kstruct_schema::field::{BadValue, FieldError, Path};

/// The text of a 409 `Conflict` for a stale `resourceVersion`.
pub const OPTIMISTIC_LOCK: &str =
    "the object has been modified; please apply your changes to the latest version and try again";

/// Decodes a PUT body for the stored object `existing`, as the API server's update handler
/// and registry do for a custom resource.
///
/// `existing` is read as the server reads it from storage ([`storage`](super::storage):
/// pruned, defaulted). The body goes through the write path of a create (fieldValidation,
/// pruning, defaulting; see [`request`](super::request)), then:
/// - its namespace, when it has one, and its name must be the stored object's (the URL's):
///   400 `BadRequest` otherwise; a namespaced object without a namespace gets the stored
///   one's, a cluster-scoped one loses its own;
/// - a `uid` other than the stored one's, or a `resourceVersion` other than the stored one's,
///   is a 409 [`Error::Conflict`]; custom resources allow no unconditional update, so an
///   empty `resourceVersion` is a 422 (`metadata.resourceVersion: Invalid value: 0: must be
///   specified for an update`);
/// - `BeforeUpdate`: `generation`, `uid`, `creationTimestamp` and deletion fields come from
///   the stored object, `status` too under the status subresource, and `generation` goes up
///   by one when anything outside `metadata` changed
///   ([`before_update`](crate::validation::before_update));
/// - with [`DecodeOptions::validate`], the update's validation
///   ([`validate_update`](crate::validation::validate_update): ObjectMeta and its update
///   rules, OpenAPI values with ratcheting, scale paths, embedded resources, list types) and
///   the finalizer warnings of names the update adds.
///
/// The stored object's `resourceVersion` stays as it was (the server then assigns a new one),
/// and `managedFields` are not updated. A PUT of an object that is not stored is the server's
/// 404; there is nothing to call this with.
///
/// ```
/// use kstruct::{DecodeOptions, RegisteredCrd};
/// use serde_json::json;
///
/// let crd = RegisteredCrd::new(kstruct::schema::crd::CustomResourceDefinition::from_value(&json!({
///     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
///     "metadata": {"name": "widgets.example.com"},
///     "spec": {"group": "example.com", "scope": "Namespaced",
///              "names": {"kind": "Widget", "plural": "widgets"},
///              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
///                  "type": "object",
///                  "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}}]}
/// })).unwrap());
/// let stored = json!({"apiVersion": "example.com/v1", "kind": "Widget",
///     "metadata": {"name": "w", "namespace": "default", "uid": "u1", "resourceVersion": "7", "generation": 1},
///     "spec": {"size": 1}});
/// let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget",
///     "metadata": {"name": "w", "resourceVersion": "7"}, "spec": {"size": 2, "colour": "red"}}"#;
///
/// let updated = kstruct::decode::update(&crd, &stored, body, &DecodeOptions::default()).unwrap();
/// assert_eq!(updated.object["metadata"], json!({"name": "w", "namespace": "default", "uid": "u1",
///     "resourceVersion": "7", "generation": 2}));
/// assert_eq!(updated.object["spec"], json!({"size": 2}));
/// assert_eq!(updated.warnings, [r#"unknown field "spec.colour""#]);
/// ```
///
/// # Errors
/// As [`request`](super::request), and [`Error::Rejected`] with the server's texts for a name
/// or namespace other than the stored object's and (with `validate`) a refused update, and
/// [`Error::Conflict`].
pub fn update<R: Resolve + ?Sized>(
    target: &R,
    existing: &Value,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    let old = update_stored(target, existing)?;
    let decode = DecodeOptions {
        validate: false,
        ..*options
    };
    let decoded = request_in(target, body, &decode, None)?;
    // The handler accepts only the URL's group and version, which are the stored object's
    // as the client read it.
    let (body_version, url_version) = (text(&decoded.object, "/apiVersion"), text(&old, "/apiVersion"));
    if body_version != url_version {
        let message = format!(
            "the API version in the data ({}) does not match the expected API version ({})",
            go_group_version(body_version),
            go_group_version(url_version)
        );
        dispose(decoded.object);
        crate::json::dispose(old);
        return Err(bad_request(message).with_warnings(decoded.warnings.iter()));
    }
    let answer = update_finish(target, decoded, &old, options.validate, Via::Put).map(|mut d| {
        set_resource_version(&mut d.object, options.resource_version);
        d
    });
    crate::json::dispose(old);
    answer
}

/// `schema.GroupVersion.String()` of an apiVersion: the version alone for the core group.
fn go_group_version(api_version: &str) -> String {
    match crate::parse_group_version(api_version) {
        Ok((group, version)) => crate::gvk::join_group_version(group, version),
        Err(_) => String::new(),
    }
}

/// The stored object as the server reads it back.
pub(crate) fn update_stored<R: Resolve + ?Sized>(target: &R, existing: &Value) -> Result<Value, Error> {
    // Go's encoding, which writes deep values without recursion.
    let bytes = kstruct_schema::go::marshal_json(existing);
    Ok(super::storage(target, bytes.as_bytes())?.object)
}

/// How an updated object reached the registry: which of the handler's checks it went through.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Via {
    /// A PUT: the handler checks the body's namespace and name against the URL, and a uid in
    /// the body is a precondition of the storage (a 409 when it is not the stored one's).
    Put,
    /// A JSON, merge or apply patch: namespace and name are checked; the patch handler sets
    /// no preconditions, so a uid a patch changes is validation's `field is immutable`.
    Patch,
    /// What a mutating webhook returned: none of the handler's checks.
    Webhook,
}

/// What the update handler and the registry do after decoding (see [`update`]), for an
/// object that came `via` a PUT, a patch or a webhook. An error carries the warnings the
/// decoding gave (the server sends them with it).
pub(crate) fn update_finish<R: Resolve + ?Sized>(
    target: &R,
    mut decoded: Decoded,
    old: &Value,
    validate: bool,
    via: Via,
) -> Result<Decoded, Error> {
    match update_object(target, &mut decoded.object, old, validate, via) {
        Ok(warnings) => {
            if !warnings.is_empty() {
                let mut all: Vec<String> = decoded.warnings.iter().map(str::to_string).collect();
                all.extend(warnings);
                decoded.warnings = all.into();
            }
            Ok(decoded)
        }
        Err(e) => {
            dispose(std::mem::take(&mut decoded.object));
            Err(e.with_warnings(decoded.warnings.iter()))
        }
    }
}

fn bad_request(message: String) -> Error {
    crate::error::refused(message, None)
}

fn text<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

fn update_object<R: Resolve + ?Sized>(
    target: &R,
    new: &mut Value,
    old: &Value,
    validate: bool,
    via: Via,
) -> Result<Vec<String>, Error> {
    let handler_checks = via != Via::Webhook;
    // The endpoint is the stored object's resource, whatever the new object says it is: the
    // strategy then refuses another kind or apiVersion (`kind: Invalid value: ...`).
    let kind = text(new, "/kind").to_string();
    let url_kind = text(old, "/kind").to_string();
    let ctx = match crate::parse_group_version(text(old, "/apiVersion")) {
        Ok((group, version)) => match target.create_context(group, version, &url_kind) {
            Ok(ctx) => ctx,
            Err(Error::ValidationUnavailable) if !validate => None,
            Err(e) => return Err(e),
        },
        Err(_) => None,
    };
    // The handler: the URL names the stored object's namespace and name.
    let old_ns = text(old, "/metadata/namespace").to_string();
    let namespaced = ctx.as_ref().map_or(!old_ns.is_empty(), |c| c.namespaced);
    let (name, old_name) = (text(new, "/metadata/name").to_string(), text(old, "/metadata/name"));
    if handler_checks {
        validation::apply_request_namespace(new, namespaced, Some(&old_ns)).map_err(bad_request)?;
    }
    // `checkName`: the namer finds no name in the object first, then compares.
    if handler_checks && name.is_empty() {
        return Err(bad_request(format!(
            "the name of the object ({old_name} based on URL) was undeterminable: name must be provided"
        )));
    }
    if handler_checks && name != old_name {
        return Err(bad_request(format!(
            "the name of the object ({name}) does not match the name on the URL ({old_name})"
        )));
    }
    let (group, plural) = match &ctx {
        Some(c) => (
            c.group.to_string(),
            c.resource.split('.').next().unwrap_or("").to_string(),
        ),
        None => (String::new(), kind.to_lowercase()),
    };
    let resource = if group.is_empty() {
        plural.clone()
    } else {
        format!("{plural}.{group}")
    };
    // The storage: a uid in a PUT's body is a precondition.
    let (uid, old_uid) = (text(new, "/metadata/uid"), text(old, "/metadata/uid"));
    if via == Via::Put && !uid.is_empty() && uid != old_uid {
        let key = match old_ns.as_str() {
            "" => format!("/registry/{group}/{plural}/{name}"),
            ns => format!("/registry/{group}/{plural}/{ns}/{name}"),
        };
        return Err(Error::Conflict {
            detail: format!(
                "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object meta: {old_uid}"
            ),
            resource,
            name,
            warnings: Vec::new(),
        });
    }
    // The registry: custom resources allow no unconditional update. Versions are numbers
    // (`07` is `7`); text that is not one is compared as it is.
    let rv = text(new, "/metadata/resourceVersion");
    let number = |v: &str| v.parse::<u64>().ok().filter(|_| v.bytes().all(|b| b.is_ascii_digit()));
    let old_rv = text(old, "/metadata/resourceVersion");
    if rv.is_empty() || number(rv) == Some(0) {
        let errors = vec![FieldError::invalid(
            &Path::new("metadata").child("resourceVersion"),
            BadValue::Int(0),
            "must be specified for an update",
        )];
        return Err(invalid(&group, &plural, &name, errors));
    }
    let same = match (number(rv), number(old_rv)) {
        (Some(a), Some(b)) => a == b,
        _ => rv == old_rv,
    };
    if !same {
        return Err(Error::Conflict {
            resource,
            name,
            detail: OPTIMISTIC_LOCK.into(),
            warnings: Vec::new(),
        });
    }
    // `BeforeUpdate` asks the object's kind first: one without a kind or an apiVersion (a
    // patch removed it) is the typer's error, a 500.
    if kind.is_empty() {
        return Err(Error::Internal(
            "Object 'Kind' is missing in 'object has no kind field '".into(),
        ));
    }
    if text(new, "/apiVersion").is_empty() {
        return Err(Error::Internal(
            "Object 'apiVersion' is missing in 'object has no apiVersion field'".into(),
        ));
    }
    validation::before_update(ctx.as_ref(), new, old);
    let Some(ctx) = ctx.filter(|_| validate) else {
        return Ok(Vec::new());
    };
    // Ratcheted rule errors are warnings, added during validation, before the strategy's.
    let (errors, mut warnings) = validation::validate_update_warned(&ctx, new, old);
    if !errors.is_empty() {
        // `BeforeUpdate` names the object by its own kind and group.
        let group = crate::parse_group_version(text(new, "/apiVersion")).map_or("", |(g, _)| g);
        return Err(invalid(group, &kind, &name, errors));
    }
    warnings.extend(validation::update_warnings(new, old));
    Ok(warnings)
}

/// The API server's 422 `Invalid` answer.
pub(crate) fn invalid(group: &str, kind: &str, name: &str, errors: Vec<FieldError>) -> Error {
    let message = validation::invalid_message(group, kind, name, &errors);
    crate::error::refused(
        message,
        Some(Box::new(super::Invalid {
            group: group.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
            errors,
        })),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RegisteredCrd;
    use crate::decode::FieldValidation;
    use serde_json::json;

    fn crd(status: bool) -> RegisteredCrd {
        let subresources = if status { json!({"status": {}}) } else { json!({}) };
        RegisteredCrd::new(
            kstruct_schema::crd::CustomResourceDefinition::from_value(&json!({
                "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                "metadata": {"name": "widgets.example.com"},
                "spec": {"group": "example.com", "scope": "Namespaced",
                         "names": {"kind": "Widget", "plural": "widgets"},
                         "versions": [{"name": "v1", "served": true, "storage": true,
                            "subresources": subresources,
                            "schema": {"openAPIV3Schema": {
                             "type": "object",
                             "properties": {
                                "spec": {"type": "object", "properties": {
                                    "size": {"type": "integer", "maximum": 10},
                                    "mode": {"type": "string", "default": "fast"},
                                    "ports": {"type": "array", "x-kubernetes-list-type": "map",
                                        "x-kubernetes-list-map-keys": ["port"],
                                        "items": {"type": "object", "required": ["port"], "properties": {
                                            "port": {"type": "integer"}, "name": {"type": "string", "maxLength": 3}}}}}},
                                "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}}}}]}
            }))
            .unwrap(),
        )
    }

    fn stored() -> Value {
        json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "ns", "uid": "u1", "resourceVersion": "7", "generation": 3,
                         "creationTimestamp": "2026-01-02T03:04:05Z", "finalizers": ["keep"]},
            "spec": {"size": 1, "mode": "fast"}, "status": {"ready": true}})
    }

    fn validating() -> DecodeOptions {
        DecodeOptions {
            validate: true,
            ..DecodeOptions::default()
        }
    }

    #[test]
    fn metadata_comes_from_the_stored_object_and_generation_follows_changes() {
        let c = crd(true);
        let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "resourceVersion": "7", "creationTimestamp": "2020-01-01T00:00:00Z", "generation": 99,
                         "finalizers": ["keep", "added"]},
            "spec": {"size": 1}, "status": {"ready": false}}"#;
        let out = update(&c, &stored(), body, &validating()).unwrap();
        // Only metadata changed: the generation stays; status is the stored one's.
        assert_eq!(
            out.object,
            json!({"apiVersion": "example.com/v1", "kind": "Widget",
                "metadata": {"name": "w", "namespace": "ns", "uid": "u1", "resourceVersion": "7", "generation": 3,
                             "creationTimestamp": "2026-01-02T03:04:05Z", "finalizers": ["keep", "added"]},
                "spec": {"size": 1, "mode": "fast"}, "status": {"ready": true}})
        );
        assert_eq!(
            out.warnings,
            [
                r#"metadata.finalizers: "added": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"#
            ]
        );
        let changed = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "7"}, "spec": {"size": 2}}"#;
        let out = update(&c, &stored(), changed, &validating()).unwrap();
        assert_eq!(out.object["metadata"]["generation"], 4);
        // Without the status subresource, status is the body's (absent: gone).
        let out = update(&crd(false), &stored(), changed, &validating()).unwrap();
        assert_eq!(out.object.get("status"), None);
    }

    #[test]
    fn names_namespaces_and_versions_as_the_server_refuses_them() {
        let c = crd(true);
        let other = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "v"}}"#;
        assert_eq!(
            update(&c, &stored(), other, &validating()).unwrap_err().to_string(),
            "the name of the object (v) does not match the name on the URL (w)"
        );
        let ns = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "7", "namespace": "x"}}"#;
        assert_eq!(
            update(&c, &stored(), ns, &validating()).unwrap_err().to_string(),
            "the namespace of the provided object does not match the namespace sent on the request"
        );
        let stale =
            br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "6"}}"#;
        let err = update(&c, &stored(), stale, &validating()).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"Operation cannot be fulfilled on widgets.example.com "w": the object has been modified; please apply your changes to the latest version and try again"#
        );
        assert_eq!(err.status().code, 409);
        let uid = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "7", "uid": "u2"}}"#;
        let err = update(&c, &stored(), uid, &validating()).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"Operation cannot be fulfilled on widgets.example.com "w": StorageError: invalid object, Code: 4, Key: /registry/example.com/widgets/ns/w, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u2, UID in object meta: u1"#
        );
        assert_eq!(err.status().code, 409);
        let unconditional = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}"#;
        let err = update(&c, &stored(), unconditional, &validating()).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"widgets.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update"#
        );
        assert_eq!(err.status().code, 422);
    }

    #[test]
    fn ratcheting_keeps_errors_the_update_did_not_make() {
        let c = crd(false);
        // The stored object breaks the schema (it was written before the schema tightened).
        let mut old = stored();
        old["spec"] = json!({"size": 11, "ports": [{"port": 1, "name": "long"}, {"port": 2, "name": "ok"}]});
        let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "7"},
            "spec": {"size": 11, "ports": [{"port": 2, "name": "toolong"}, {"port": 1, "name": "long"}, {"port": 3}]}}"#;
        let err = update(&c, &old, body, &validating()).unwrap_err();
        // size and ports[1] (port 1, as stored) are unchanged: only the changed item fails.
        assert_eq!(
            err.to_string(),
            r#"Widget.example.com "w" is invalid: spec.ports[0].name: Too long: may not be more than 3 bytes"#
        );
        // A create checks everything.
        let create = DecodeOptions {
            validate: true,
            field_validation: FieldValidation::Strict,
            ..DecodeOptions::default()
        };
        let err = crate::decode::request_in(&c, body, &create, Some("ns"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("spec.size: Invalid value: 11"), "{err}");
    }

    #[test]
    fn ratcheting_matches_map_list_items_by_key_whatever_their_order() {
        let crd = crate::test_support::widget_crd(json!({
            "ports": {"type": "array", "maxItems": 1, "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["port"],
                "items": {"type": "object", "required": ["port"], "properties": {"port": {"type": "integer"}}}}}));
        let mut old = stored();
        old["spec"] = json!({"ports": [{"port": 1}, {"port": 2}]});
        let reordered =
            br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "7"},
            "spec": {"ports": [{"port": 2}, {"port": 1}]}}"#;
        let out = update(&crd, &old, reordered, &validating()).unwrap();
        // Reordering a map list changes the object (generation) but not its value for ratcheting.
        assert_eq!(out.object["metadata"]["generation"], 4);
        let grown =
            br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "7"},
            "spec": {"ports": [{"port": 2}, {"port": 1}, {"port": 3}]}}"#;
        assert_eq!(
            update(&crd, &old, grown, &validating()).unwrap_err().to_string(),
            r#"Widget.example.com "w" is invalid: spec.ports: Too many: 3: must have at most 1 item"#
        );
    }

    #[test]
    fn strict_decoding_errors_come_first() {
        let body =
            br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "v"}, "spec": {"x": 1}}"#;
        let strict = DecodeOptions {
            field_validation: FieldValidation::Strict,
            ..validating()
        };
        assert_eq!(
            update(&crd(false), &stored(), body, &strict).unwrap_err().to_string(),
            r#"Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.x""#
        );
    }
}
