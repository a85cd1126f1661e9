//! What the API server keeps of a custom resource a mutating admission webhook patched.

use serde_json::Value;

use super::json_patch;
use crate::decode::{self, DecodeOptions, Decoded, Resolve, Selected};
use crate::pipeline::Pipeline;
use crate::{Error, json};

/// The object the API server keeps after a mutating admission webhook answered with the JSON
/// patch `patch` for `object` (the object the server sent it, decoded from the request),
/// for a create (`old` is `None`) or an update of the stored object `old`:
///
/// 1. the patch is applied as the admission dispatcher applies it ([`json_patch`]); a patch
///    that is not a JSON array of operations, or does not apply, is the server's 500
///    ([`Error::Internal`]);
/// 2. the result is decoded without a schema: nothing is pruned and nothing is reported, but
///    the CRD's defaults are applied;
/// 3. the create's or the update's steps follow (the registry's: resourceVersion, generation,
///    status; not the handler's checks of the client's body, which ran before admission), and
///    with [`DecodeOptions::validate`] their validation (a `null` or a wrong type the webhook
///    wrote is a 422, as if the client had sent it; a name or uid it changed is `field is
///    immutable`; an unknown field is not an error);
/// 4. the object is written with its unknown fields, and pruned, null-pruned, coerced and
///    defaulted again whenever it is read back: the object returned is that reading, what the
///    client and every reader see. [`Decoded::unknown_fields`] lists what the reading pruned
///    (in the server's order: root metadata, then the rest sorted), which the server keeps in
///    storage but never shows.
///
/// The pruning KEP says objects are pruned after mutating webhooks; the server does it through
/// this storage round trip.
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
///                  "properties": {"spec": {"type": "object", "properties": {
///                      "size": {"type": "integer"}, "mode": {"type": "string", "default": "fast"}}}}}}}]}
/// })).unwrap());
/// let sent = json!({"apiVersion": "example.com/v1", "kind": "Widget",
///     "metadata": {"name": "w", "namespace": "default"}, "spec": {"size": 1}});
/// let patch = br#"[{"op": "add", "path": "/spec/injected", "value": true},
///                  {"op": "replace", "path": "/spec/size", "value": 3}]"#;
///
/// let kept = kstruct::patch::webhook(&crd, &sent, patch, None, &DecodeOptions::default()).unwrap();
/// assert_eq!(kept.object["spec"], json!({"size": 3, "mode": "fast"}));
/// assert_eq!(kept.unknown_fields, ["spec.injected"]);
/// ```
///
/// # Errors
/// As above.
pub fn webhook<R: Resolve + ?Sized>(
    target: &R,
    object: &Value,
    patch: &[u8],
    old: Option<&Value>,
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    json::dispose(json::decode(patch).map_err(|e| Error::Internal(e.message))?.value);
    let ops = json_patch::decode(patch).map_err(Error::Internal)?;
    // The server patches the object's JSON and decodes the result: numbers are typed by the
    // text they end up with (the object's as Go prints them, the patch's as it wrote them),
    // which is what the generation's comparison with the stored object sees.
    let text = json_patch::apply(kstruct_schema::go::marshal_json(object).as_bytes(), &ops).map_err(Error::Internal)?;
    let mut doc = json::decode(&text).map_err(|e| Error::Internal(e.message))?.value;
    // The dispatcher decodes the result with the JSON serializer, whose pre-parse reads the
    // TypeMeta first (in the patched JSON's order: Go's, keys sorted).
    if let Err(cause) = decode::pre_parse(&doc) {
        json::dispose(doc);
        return Err(Error::Internal(cause));
    }
    let text = |k: &str| doc.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let (kind, api_version) = (text("kind"), text("apiVersion"));
    if !doc.is_object() || kind.is_empty() {
        let data = kstruct_schema::go::marshal_json(&doc);
        json::dispose(doc);
        return Err(Error::Internal(format!("Object 'Kind' is missing in '{data}'")));
    }
    // The server converts the result back to the request's version, which needs the same
    // group (`GroupVersion.KindForGroupVersionKinds`).
    let to = object.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let group_of = |v: &str| crate::parse_group_version(v).map_or(None, |(g, _)| Some(g.to_string()));
    if api_version.is_empty() || group_of(&api_version) != group_of(to) {
        json::dispose(doc);
        let (group, version) = crate::parse_group_version(&api_version).unwrap_or(("", ""));
        return Err(Error::Unconvertible(format!(
            "{group}/{version}, Kind={kind} is unstructured and is not suitable for converting to {}",
            kstruct_schema::go::quote(to)
        )));
    }
    let (group, version) = crate::parse_group_version(&api_version).unwrap_or(("", ""));
    let pipeline = match target.resolve(group, version, &kind)? {
        Selected::Crd { pipeline, .. } => pipeline,
        Selected::Other => None,
    };
    if let Some(p) = pipeline {
        p.default(&mut doc);
    }
    // The server decodes what the webhook returned itself: what a client's body would get
    // as a 400 is its internal error here (a 422 stays one).
    let internal = |e: Error| match e {
        Error::Rejected(r) if r.invalid.is_none() => Error::Internal(r.message),
        other => other,
    };
    let (written, warnings) = match old {
        None => decode::validated(target, doc, None, options.validate).map_err(internal)?,
        Some(old) => {
            let old = decode::update_stored(target, old)?;
            let updated = decode::update_finish(
                target,
                Decoded {
                    object: doc,
                    ..Decoded::default()
                },
                &old,
                options.validate,
                decode::Via::Webhook,
            )
            .map_err(internal)?;
            let warnings = updated.warnings.iter().map(str::to_string).collect();
            (updated.object, warnings)
        }
    };
    // What a reading of the written object prunes, for the report.
    let unknown_fields = match pipeline.filter(|p| !p.preserves_unknown_fields()) {
        Some(p) => super::unknown_paths(Some(p), &written),
        None => Vec::new(),
    };
    let mut read = decode::update_stored(target, &written)?;
    json::dispose(written);
    if options.validate || old.is_some() {
        decode::set_resource_version(&mut read, options.resource_version);
    }
    Ok(Decoded {
        object: read,
        warnings: warnings.into(),
        unknown_fields: unknown_fields.into(),
        ..Decoded::default()
    })
}
