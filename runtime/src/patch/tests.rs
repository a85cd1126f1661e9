//! The patch handler's flow, end to end on a small CRD.

use serde_json::{Value, json};

use super::*;
use crate::RegisteredCrd;
use crate::test_support::widget_crd;

fn crd() -> RegisteredCrd {
    widget_crd(json!({
        "size": {"type": "integer", "minimum": 0},
        "mode": {"type": "string", "default": "fast"},
        "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}))
}

fn stored() -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns", "resourceVersion": "5", "generation": 2},
        "spec": {"size": 1}})
}

fn opts(field_validation: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation,
        validate: true,
        ..DecodeOptions::default()
    }
}

#[test]
fn a_json_patch_that_does_not_apply_is_the_servers_422() {
    let err = json(
        &crd(),
        &stored(),
        br#"[{"op": "remove", "path": "/spec/x"}]"#,
        &opts(FieldValidation::Warn),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the server rejected our request due to an error in our request"
    );
    assert_eq!(err.status().code, 422);
    match err {
        Error::PatchNotApplied { cause } => assert_eq!(
            cause,
            "error in remove for path: '/spec/x': Unable to remove nonexistent key: x: missing value"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bodies_the_handler_cannot_read() {
    let c = crd();
    let warn = opts(FieldValidation::Warn);
    let ignore = opts(FieldValidation::Ignore);
    let message = |r: Result<Decoded, Error>| r.unwrap_err().to_string();
    assert_eq!(
        message(json(&c, &stored(), br#"{"op": "add"}"#, &warn)),
        "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
    );
    assert_eq!(
        message(json(&c, &stored(), br#"{"op": "add"}"#, &ignore)),
        "json: cannot unmarshal object into Go value of type jsonpatch.Patch"
    );
    assert_eq!(message(merge(&c, &stored(), b"null", &warn)), "Invalid JSON Patch");
    // A body that is not JSON is refused before anything else, for both patch types.
    assert_eq!(message(merge(&c, &stored(), b"{", &ignore)), "invalid JSON patch");
    assert_eq!(message(merge(&c, &stored(), b"nope", &warn)), "invalid JSON patch");
    assert_eq!(message(json(&c, &stored(), b"[{\"op\": ", &warn)), "invalid JSON patch");
    // A member of the wrong type in an operation, under strict decoding.
    assert_eq!(
        message(json(
            &c,
            &stored(),
            br#"[{"op": "add", "path": ["spec"], "value": 1}]"#,
            &warn
        )),
        "error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string"
    );
    assert_eq!(
        message(merge(&c, &stored(), b"[1]", &warn)),
        "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"
    );
    let ops: Vec<Value> = (0..10_001).map(|_| json!({"op": "test", "path": "/spec"})).collect();
    let err = json(&c, &stored(), &serde_json::to_vec(&ops).unwrap(), &ignore).unwrap_err();
    assert_eq!(err.status().code, 413);
    assert_eq!(
        err.to_string(),
        "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
    );
}

#[test]
fn strict_errors_quote_the_patched_object() {
    let err = merge(
        &crd(),
        &stored(),
        br#"{"spec": {"x": 1, "x": 2, "free": {"y": 1}}}"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#" "" is invalid: patch: Invalid value: "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"generation\":2,\"name\":\"w\",\"namespace\":\"ns\",\"resourceVersion\":\"5\"},\"spec\":{\"free\":{\"y\":1},\"mode\":\"fast\",\"size\":1,\"x\":2}}": strict decoding error: duplicate field "spec.x", unknown field "spec.x""#
    );
    assert_eq!(err.status().code, 422);
    // A result that does not decode: the decoder's error, the patch's own dropped.
    let err = json(
        &crd(),
        &stored(),
        br#"[{"op": "remove", "path": "/kind", "why": 1}]"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert!(err.to_string().ends_with(r#"": Object 'Kind' is missing in '{"apiVersion":"example.com/v1","metadata":{"generation":2,"name":"w","namespace":"ns","resourceVersion":"5"},"spec":{"mode":"fast","size":1}}'"#), "{err}");
}

#[test]
fn the_patched_object_keeps_the_patchs_numbers_as_written() {
    for patch in [
        &br#"{"spec": {"x": 123456789012345678901234567890, "size": 1.0}}"#[..],
        br#"[{"op": "add", "path": "/spec/x", "value": 123456789012345678901234567890},
            {"op": "replace", "path": "/spec/size", "value": 1.0}]"#,
    ] {
        let err = if patch.starts_with(b"[") {
            json(&crd(), &stored(), patch, &opts(FieldValidation::Strict))
        } else {
            merge(&crd(), &stored(), patch, &opts(FieldValidation::Strict))
        }
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#" "" is invalid: patch: Invalid value: "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"generation\":2,\"name\":\"w\",\"namespace\":\"ns\",\"resourceVersion\":\"5\"},\"spec\":{\"mode\":\"fast\",\"size\":1.0,\"x\":123456789012345678901234567890}}": strict decoding error: unknown field "spec.x""#
        );
    }
}

#[test]
fn a_patched_object_is_updated_and_validated() {
    let c = crd();
    let out = merge(
        &c,
        &stored(),
        br#"{"spec": {"size": 4, "mode": null}}"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap();
    assert_eq!(out.object["spec"], json!({"size": 4, "mode": "fast"}));
    assert_eq!(out.object["metadata"]["generation"], 3);
    let err = json(
        &c,
        &stored(),
        br#"[{"op": "replace", "path": "/spec/size", "value": -1}]"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Widget.example.com "w" is invalid: spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0"#
    );
    let err = merge(
        &c,
        &stored(),
        br#"{"metadata": {"resourceVersion": "4"}}"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert_eq!(err.status().code, 409);
    let err = merge(
        &c,
        &stored(),
        br#"{"metadata": {"name": "v"}}"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the name of the object (v) does not match the name on the URL (w)"
    );
}

#[test]
fn apply_refuses_undeclared_fields_whatever_the_field_validation() {
    let c = crd();
    let body = b"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: ns\n  bogus: 1\nspec:\n  size: 2\n  b: 1\n  a: 1\n  free: {anything: 1}\n";
    let err = apply(&c, Some(&stored()), body, &opts(FieldValidation::Ignore)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to create typed patch object (ns/w; example.com/v1, Kind=Widget): errors:\n  .metadata.bogus: field not declared in schema\n  .spec.a: field not declared in schema"
    );
    assert_eq!(err.status().code, 500);
}

#[test]
fn apply_types_the_body_by_structured_merge_diffs_schema() {
    let c = widget_crd(json!({
        "name": {"type": "string"},
        "nested": {"type": "object", "properties": {"a": {"type": "string"}}},
        "enabled": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
            "properties": {"x": {"type": "object", "properties": {"inner": {"type": "object"}}}}},
        "template": {"type": "object", "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true}}));
    let refused = |body: &str| {
        let err = apply(&c, None, body.as_bytes(), &opts(FieldValidation::Ignore)).unwrap_err();
        assert_eq!(err.status().code, 500);
        err.to_string()
    };
    let head = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec:\n";
    assert_eq!(
        refused(&format!("{head}  template:\n    metadata:\n      Kind: x\n")),
        "failed to create typed patch object (ns/w; example.com/v1, Kind=Widget): .spec.template.metadata.Kind: field not declared in schema"
    );
    assert_eq!(
        refused(&format!("{head}  nested:\n    '': 1\n")),
        "failed to create typed patch object (ns/w; example.com/v1, Kind=Widget): .spec.nested.: field not declared in schema"
    );
    assert_eq!(
        refused(&format!("{head}  name: {{a: [1, 2.5]}}\n")),
        "failed to create typed patch object (ns/w; example.com/v1, Kind=Widget): .spec.name: expected string, got &value.valueUnstructured{Value:map[string]interface {}{\"a\":[]interface {}{1, 2.5}}}"
    );
    // Everything written inside a preserved node takes unknown fields; pruning then
    // removes those its properties do not declare.
    let created = apply(
        &c,
        None,
        format!("{head}  enabled:\n    free: 1\n    x:\n      inner:\n        deep: 1\n").as_bytes(),
        &opts(FieldValidation::Strict),
    )
    .unwrap();
    assert_eq!(
        created.object["spec"],
        json!({"enabled": {"free": 1, "x": {"inner": {}}}})
    );
}

#[test]
fn apply_merges_into_the_stored_object_or_creates() {
    let c = crd();
    let body = b"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: ns\nspec:\n  mode: slow\n  mode: safe\n";
    let out = apply(&c, Some(&stored()), body, &opts(FieldValidation::Warn)).unwrap();
    assert_eq!(out.object["spec"], json!({"size": 1, "mode": "safe"}));
    assert_eq!(out.object["metadata"]["generation"], 3);
    assert_eq!(out.warnings, [r#"line 8: key "mode" already set in map"#]);
    let err = apply(&c, Some(&stored()), body, &opts(FieldValidation::Strict)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key \"mode\" already set in map"
    );
    let created = apply(&c, None, body, &opts(FieldValidation::Ignore)).unwrap();
    assert_eq!(
        created.object,
        json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "ns", "generation": 1}, "spec": {"mode": "safe"}})
    );
}

#[test]
fn webhook_output_is_defaulted_validated_and_pruned_on_reading() {
    let c = crd();
    let sent = stored();
    let patch = br#"[{"op": "add", "path": "/spec/extra", "value": 1}, {"op": "add", "path": "/metadata/labels", "value": {"a": "b"}}]"#;
    let kept = webhook(&c, &sent, patch, Some(&stored()), &opts(FieldValidation::Warn)).unwrap();
    assert_eq!(kept.object["spec"], json!({"size": 1, "mode": "fast"}));
    assert_eq!(kept.object["metadata"]["labels"], json!({"a": "b"}));
    assert_eq!(kept.unknown_fields, ["spec.extra"]);
    let bad = br#"[{"op": "replace", "path": "/spec/size", "value": null}]"#;
    let err = webhook(&c, &sent, bad, Some(&stored()), &opts(FieldValidation::Warn)).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Widget.example.com "w" is invalid: spec.size: Invalid value: "null": spec.size in body must be of type integer: "null""#
    );
    let err = webhook(
        &c,
        &sent,
        br#"[{"op": "test", "path": "/spec/size", "value": 2}]"#,
        None,
        &opts(FieldValidation::Warn),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Internal error occurred: testing value /spec/size failed: test failed"
    );
    assert_eq!(err.status().code, 500);
}

#[test]
fn deep_values_go_through_every_patch_type() {
    let c = crd();
    let depth = 9_000;
    let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let merge_body = format!(r#"{{"spec": {{"free": {{"deep": {deep}}}}}}}"#);
    let out = merge(&c, &stored(), merge_body.as_bytes(), &opts(FieldValidation::Strict)).unwrap();
    let json_body = format!(
        r#"[{{"op": "add", "path": "/spec/free", "value": {{"deep": {deep}}}}}, {{"op": "copy", "from": "/spec/free", "path": "/spec/free/again"}}, {{"op": "test", "path": "/spec/free/deep", "value": {deep}}}]"#
    );
    let patched = json(&c, &out.object, json_body.as_bytes(), &opts(FieldValidation::Strict)).unwrap();
    // The YAML reader takes 255 levels of flow collections (a documented limit).
    let shallower = format!("{}1{}", "[".repeat(250), "]".repeat(250));
    let apply_body = format!(
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: w, namespace: ns}}\nspec: {{free: {{deep: {shallower}}}}}\n"
    );
    apply(
        &c,
        Some(&patched.object),
        apply_body.as_bytes(),
        &opts(FieldValidation::Strict),
    )
    .unwrap();
    webhook(
        &c,
        &patched.object,
        json_body.as_bytes(),
        Some(&patched.object),
        &opts(FieldValidation::Warn),
    )
    .unwrap();
    for d in [out, patched] {
        crate::json::dispose(d.object);
    }
}

#[test]
fn webhook_changes_to_identity_are_immutable_not_conflicts() {
    let c = crd();
    let mut old = stored();
    old["metadata"]["uid"] = json!("u1");
    let err = webhook(
        &c,
        &old,
        br#"[{"op": "replace", "path": "/metadata/uid", "value": "zz"}]"#,
        Some(&old),
        &opts(FieldValidation::Warn),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Widget.example.com "w" is invalid: metadata.uid: Invalid value: "zz": field is immutable"#
    );
    // A resourceVersion written as another spelling of the same number is the same version.
    let mut body = stored();
    body["metadata"]["resourceVersion"] = json!("05");
    let out = crate::decode::update(
        &c,
        &stored(),
        &serde_json::to_vec(&body).unwrap(),
        &opts(FieldValidation::Strict),
    )
    .unwrap();
    assert_eq!(out.object["metadata"]["resourceVersion"], "05");
}

#[test]
fn apply_bodies_that_do_not_parse_are_refused_first() {
    let c = crd();
    // YAML is converted before the stored object is read: this 400 comes first.
    let body = b"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec\n  size: 2\n";
    let err = apply(&c, Some(&stored()), body, &opts(FieldValidation::Strict)).unwrap_err();
    assert_eq!(err.status().code, 400);
    assert_eq!(
        err.to_string(),
        "error encoding patch: yaml: line 6: could not find expected ':'"
    );
    // A JSON body is passed on unread, and fails where the applier decodes it.
    let err = apply(&c, Some(&stored()), b"{\"a\": ", &opts(FieldValidation::Strict)).unwrap_err();
    assert_eq!(err.status().code, 400);
    assert!(
        err.to_string()
            .starts_with("error decoding patch: error converting YAML to JSON: yaml: "),
        "{err}"
    );
}

#[test]
fn type_meta_a_patch_changes_is_the_strategys_to_refuse() {
    let c = crd();
    let warn = opts(FieldValidation::Warn);
    let message = |r: Result<Decoded, Error>| r.unwrap_err().to_string();
    // The endpoint stays the stored object's; the strategy names the object by its own kind.
    assert_eq!(
        message(merge(&c, &stored(), br#"{"kind": "x1"}"#, &warn)),
        r#"x1.example.com "w" is invalid: kind: Invalid value: "x1": must be Widget"#
    );
    assert_eq!(
        message(merge(&c, &stored(), br#"{"apiVersion": "a"}"#, &warn)),
        r#"Widget "w" is invalid: apiVersion: Invalid value: "a": must be example.com/v1"#
    );
    let err = json(&c, &stored(), br#"[{"op": "remove", "path": "/apiVersion"}]"#, &warn).unwrap_err();
    assert_eq!(err.status().code, 500);
    assert_eq!(
        err.to_string(),
        "Internal error occurred: Object 'apiVersion' is missing in 'object has no apiVersion field'"
    );
}

#[test]
fn a_put_of_another_api_version_is_the_handlers_400() {
    let body = br#"{"apiVersion": "value", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "5"}}"#;
    let err = crate::decode::update(&crd(), &stored(), body, &opts(FieldValidation::Warn)).unwrap_err();
    assert_eq!(err.status().code, 400);
    assert_eq!(
        err.to_string(),
        "the API version in the data (value) does not match the expected API version (example.com/v1)"
    );
}

#[test]
fn a_webhook_that_drops_the_api_version_leaves_an_unconvertible_object() {
    let sent = stored();
    let err = webhook(
        &crd(),
        &sent,
        br#"[{"op": "remove", "path": "/apiVersion"}]"#,
        Some(&stored()),
        &opts(FieldValidation::Warn),
    )
    .unwrap_err();
    assert_eq!(err.status().code, 500);
    assert_eq!(
        err.to_string(),
        r#"/, Kind=Widget is unstructured and is not suitable for converting to "example.com/v1""#
    );
    // Another group cannot be converted back either.
    let err = webhook(
        &crd(),
        &sent,
        br#"[{"op": "replace", "path": "/apiVersion", "value": "other.io/v1"}]"#,
        Some(&stored()),
        &opts(FieldValidation::Warn),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"other.io/v1, Kind=Widget is unstructured and is not suitable for converting to "example.com/v1""#
    );
}

#[test]
fn a_caller_can_give_the_resource_version_a_write_stores() {
    let c = crd();
    let mut o = opts(FieldValidation::Warn);
    let kept = merge(&c, &stored(), br#"{"spec": {"size": 2}}"#, &o).unwrap();
    assert_eq!(kept.object["metadata"]["resourceVersion"], "5");
    o.resource_version = Some(6);
    let next = merge(&c, &stored(), br#"{"spec": {"size": 2}}"#, &o).unwrap();
    assert_eq!(next.object["metadata"]["resourceVersion"], "6");
    // A create through apply stores it too.
    let body = b"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: ns\n";
    let created = apply(&c, None, body, &o).unwrap();
    assert_eq!(created.object["metadata"]["resourceVersion"], "6");
}

#[test]
fn malformed_metadata_a_webhook_writes_is_dropped_on_reading() {
    // The registry reads metadata field by field (the unstructured accessor): labels that are
    // not strings leave the name and namespace readable; the storage read drops them.
    let sent = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns"}, "spec": {}});
    let patch = br#"[{"op": "add", "path": "/metadata/labels", "value": {"a": 1}}]"#;
    let kept = webhook(&crd(), &sent, patch, None, &opts(FieldValidation::Strict)).unwrap();
    assert_eq!(
        kept.object["metadata"],
        json!({"name": "w", "namespace": "ns", "generation": 1})
    );
}

#[test]
fn a_webhooks_result_is_typed_by_its_json_text() {
    // The object the server sent is its JSON (`2.0` prints as `2`): a webhook that changes only
    // metadata leaves the generation; one that writes `2.0` changes a number's type, and the
    // server counts that.
    let sent = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns", "resourceVersion": "5"}, "spec": {"size": 1.0, "mode": "fast"}});
    let label = br#"[{"op": "add", "path": "/metadata/labels", "value": {"a": "b"}}]"#;
    let kept = webhook(&crd(), &sent, label, Some(&stored()), &opts(FieldValidation::Strict)).unwrap();
    assert_eq!(kept.object["metadata"]["generation"], 2);
    assert!(kept.object["spec"]["size"].is_i64());
    let float = br#"[{"op": "replace", "path": "/spec/size", "value": 1.0}]"#;
    let kept = webhook(&crd(), &sent, float, Some(&stored()), &opts(FieldValidation::Strict)).unwrap();
    assert_eq!(kept.object["metadata"]["generation"], 3);
}

#[test]
fn the_quoted_patched_document_is_the_librarys_text() {
    // A JSON patch's value keeps its key order and escapes (a lone surrogate included); a
    // merge patch's objects are parsed (to drop nulls) and print sorted, its strings as written.
    let err = json(
        &crd(),
        &stored(),
        br#"[{"op": "add", "path": "/spec/x", "value": {"b": "\ud800", "a": 1}}]"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#" "" is invalid: patch: Invalid value: "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"generation\":2,\"name\":\"w\",\"namespace\":\"ns\",\"resourceVersion\":\"5\"},\"spec\":{\"mode\":\"fast\",\"size\":1,\"x\":{\"b\":\"\\ud800\",\"a\":1}}}": strict decoding error: unknown field "spec.x""#
    );
    let err = merge(
        &crd(),
        &stored(),
        br#"{"spec": {"x": {"b": "\u00e9", "a": 1}}}"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains(r#"\"x\":{\"a\":1,\"b\":\"\\u00e9\"}"#),
        "{err}"
    );
}

#[test]
fn a_patch_has_no_uid_precondition() {
    // A PUT's uid is a precondition of the storage (409); a patch sets none, so a uid it
    // changes is validation's to refuse.
    let c = crd();
    let mut old = stored();
    old["metadata"]["uid"] = json!("u1");
    let err = merge(
        &c,
        &old,
        br#"{"metadata": {"uid": "zz"}}"#,
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert_eq!(err.status().code, 422);
    assert_eq!(
        err.to_string(),
        r#"Widget.example.com "w" is invalid: metadata.uid: Invalid value: "zz": field is immutable"#
    );
    let mut body = old.clone();
    body["metadata"]["uid"] = json!("zz");
    let err = crate::decode::update(
        &c,
        &old,
        &serde_json::to_vec(&body).unwrap(),
        &opts(FieldValidation::Strict),
    )
    .unwrap_err();
    assert_eq!(err.status().code, 409);
    assert!(
        err.to_string()
            .ends_with("Precondition failed: UID in precondition: zz, UID in object meta: u1"),
        "{err}"
    );
}

#[test]
fn an_update_without_a_name_is_undeterminable_and_keeps_its_warnings() {
    // The second `metadata` replaces the first: the object has no name. Under Warn the
    // duplicate is a warning the server sends with its 400.
    let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "resourceVersion": "5"}, "metadata": {"resourceVersion": "5"}}"#;
    let err = crate::decode::update(&crd(), &stored(), body, &opts(FieldValidation::Warn)).unwrap_err();
    assert_eq!(err.status().code, 400);
    assert_eq!(
        err.to_string(),
        "the name of the object (w based on URL) was undeterminable: name must be provided"
    );
    assert_eq!(err.warnings(), [r#"duplicate field "metadata""#]);
    let err = crate::decode::update(&crd(), &stored(), body, &opts(FieldValidation::Ignore)).unwrap_err();
    assert!(err.warnings().is_empty());
    // A merge patch that removes the name.
    let err = merge(
        &crd(),
        &stored(),
        br#"{"metadata": {"name": null}}"#,
        &opts(FieldValidation::Warn),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the name of the object (w based on URL) was undeterminable: name must be provided"
    );
}

#[test]
fn apply_checks_the_objects_type_first() {
    let c = crd();
    let strict = opts(FieldValidation::Strict);
    let message = |r: Result<Decoded, Error>| {
        let e = r.unwrap_err();
        assert_eq!(e.status().code, 400, "{e}");
        e.to_string()
    };
    let body = b"apiVersion: example.com/v1\nmetadata:\n  name: w\n";
    assert_eq!(
        message(apply(&c, Some(&stored()), body, &strict)),
        "invalid object type: example.com/v1, Kind="
    );
    assert_eq!(
        message(apply(&c, None, body, &strict)),
        "invalid object type: example.com/v1, Kind="
    );
    let body = b"kind: Widget\nmetadata:\n  name: w\n";
    assert_eq!(
        message(apply(&c, Some(&stored()), body, &strict)),
        "invalid object type: /, Kind=Widget"
    );
    let body = b"apiVersion: example.com/v2\nkind: Widget\nmetadata:\n  name: w\n";
    assert_eq!(
        message(apply(&c, Some(&stored()), body, &strict)),
        "invalid object type: example.com/v2, Kind=Widget"
    );
    let body = b"apiVersion: a/b/c\nkind: Widget\nmetadata:\n  name: w\n";
    assert_eq!(
        message(apply(&c, Some(&stored()), body, &strict)),
        "invalid object type: /, Kind="
    );
    // Decoding the body comes first, in the handler's words.
    assert_eq!(
        message(apply(&c, Some(&stored()), b"[1]", &strict)),
        "error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}"
    );
    // A name other than the URL's.
    let body = b"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: x\n";
    assert_eq!(
        message(apply(&c, Some(&stored()), body, &strict)),
        "the name of the object (x) does not match the name on the URL (w)"
    );
}

#[test]
fn a_webhooks_result_is_pre_parsed_for_its_type_meta() {
    let sent = stored();
    let result = |patch: &[u8]| {
        webhook(&crd(), &sent, patch, Some(&stored()), &opts(FieldValidation::Warn))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        result(br#"[{"op": "replace", "path": "/apiVersion", "value": true}]"#),
        "Internal error occurred: couldn't get version/kind; json parse error: json: cannot unmarshal bool into Go struct field .apiVersion of type string"
    );
    assert_eq!(
        result(br#"[{"op": "replace", "path": "/kind", "value": 5}]"#),
        "Internal error occurred: couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string"
    );
    // Both wrong: the patched JSON's order (keys sorted) names apiVersion first.
    assert_eq!(
        result(br#"[{"op": "replace", "path": "/kind", "value": {}}, {"op": "replace", "path": "/apiVersion", "value": []}]"#),
        "Internal error occurred: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go struct field .apiVersion of type string"
    );
    assert_eq!(
        result(br#"[{"op": "replace", "path": "/apiVersion", "value": "a/b/c"}]"#),
        "Internal error occurred: unexpected GroupVersion string: a/b/c"
    );
}

#[test]
fn root_keys_a_schema_preserves_count_for_the_generation() {
    let c = crate::test_support::widget_crd_of(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    let mut old = stored();
    old["data"] = json!({"k": 1});
    let generation = |patch: &[u8]| {
        merge(&c, &old, patch, &opts(FieldValidation::Strict)).unwrap().object["metadata"]["generation"].clone()
    };
    // Every root key but metadata is compared, the ones only the schema's preserving keeps too.
    assert_eq!(generation(br#"{"data": {"k": 2}}"#), 3);
    assert_eq!(generation(br#"{"extra": true}"#), 3);
    assert_eq!(generation(br#"{"data": {"k": 1}}"#), 2);
    assert_eq!(generation(br#"{"metadata": {"labels": {"a": "b"}}}"#), 2);
    // `1.0` decodes as a float, which is not the stored integer `1`.
    assert_eq!(generation(br#"{"data": {"k": 1.0}}"#), 3);
}

mod builtin {
    use super::*;
    use crate::builtin::{BuiltinKinds, Release};

    fn kinds() -> BuiltinKinds {
        BuiltinKinds::new(Release::newest())
    }

    fn deployment() -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "web", "image": "nginx"}]}}}})
    }

    #[test]
    fn json_and_merge_patches_decode_the_result_into_the_go_types() {
        let patch = br#"[{"op": "replace", "path": "/spec/replicas", "value": 3},
            {"op": "add", "path": "/spec/replicaz", "value": 1, "why": "x"}]"#;
        let err = patch_builtin(
            &kinds(),
            Some(&deployment()),
            patch,
            PatchType::Json,
            &opts(FieldValidation::Strict),
        )
        .unwrap_err();
        assert_eq!(err.status().code, 422);
        assert!(
            err.to_string().ends_with(
                r#"strict decoding error: json patch unknown field "[1].why", unknown field "spec.replicaz""#
            ),
            "{err}"
        );
        let warned = patch_builtin(
            &kinds(),
            Some(&deployment()),
            patch,
            PatchType::Json,
            &opts(FieldValidation::Warn),
        )
        .unwrap();
        assert_eq!(
            warned.warnings,
            [
                r#"json patch unknown field "[1].why""#,
                r#"unknown field "spec.replicaz""#
            ]
        );
        assert_eq!(warned.object["spec"]["replicas"], 3);
        assert!(warned.object["spec"].get("replicaz").is_none());
        // Written back by the Go types: zero values of what the stored object left out.
        assert_eq!(warned.object["spec"]["strategy"], json!({}));

        // A type error hides the strict errors, as the decoder's does.
        let merge = br#"{"spec": {"replicas": "3", "x": 1}}"#;
        let err = patch_builtin(
            &kinds(),
            Some(&deployment()),
            merge,
            PatchType::Merge,
            &opts(FieldValidation::Strict),
        )
        .unwrap_err();
        assert!(
            err.to_string().ends_with(
                ": json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
            ),
            "{err}"
        );
        // Nothing stored: the server's 404.
        assert!(matches!(
            patch_builtin(&kinds(), None, merge, PatchType::Merge, &opts(FieldValidation::Warn)),
            Err(Error::NotFound)
        ));
    }

    #[test]
    fn the_stored_object_is_encoded_in_the_go_types_order() {
        // The library keeps what the patch does not walk as the encoder wrote it.
        let encoded = String::from_utf8(kinds().stored(&deployment()).unwrap().1).unwrap();
        assert!(
            encoded.starts_with(r#"{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":1,"#),
            "{encoded}"
        );
    }

    #[test]
    fn a_registry_routes_patches_to_its_crds_or_its_built_in_kinds() {
        let mut registry = crate::Registry::new().with_builtins(Release::newest());
        registry.add(crate::test_support::widget_definition(
            json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}),
        ));
        let widget = patch_served(
            &registry,
            Some(&stored()),
            br#"{"spec": {"size": 7, "x": 1}}"#,
            PatchType::Merge,
            &opts(FieldValidation::Warn),
        )
        .unwrap();
        // The CRD's path: pruned, the generation bumped by the update.
        assert_eq!(widget.object["spec"], json!({"size": 7}));
        assert_eq!(widget.object["metadata"]["generation"], 3);
        let body =
            b"{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop}, spec: {replicas: 5}}";
        let applied = patch_served(
            &registry,
            Some(&deployment()),
            body,
            PatchType::Apply,
            &opts(FieldValidation::Warn),
        )
        .unwrap();
        assert_eq!(applied.object["spec"]["replicas"], 5);
        assert_eq!(
            applied.object["spec"]["template"]["spec"]["containers"][0]["name"],
            "web"
        );
        // An apply that creates is routed by its body.
        let created = patch_served(&registry, None, body, PatchType::Apply, &opts(FieldValidation::Warn)).unwrap();
        assert_eq!(created.object["spec"]["replicas"], 5);
        // Nothing serves it: the registry's 404.
        let gadget = json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g"}});
        assert!(matches!(
            patch_served(
                &registry,
                Some(&gadget),
                b"{}",
                PatchType::Merge,
                &opts(FieldValidation::Warn)
            ),
            Err(Error::NoSuchKind { .. })
        ));
        let without = crate::Registry::new();
        assert!(matches!(
            patch_served(
                &without,
                Some(&deployment()),
                b"{}",
                PatchType::Merge,
                &opts(FieldValidation::Warn)
            ),
            Err(Error::NoSuchKind { .. })
        ));
    }

    #[test]
    fn a_patch_that_changes_the_kind_is_not_modelled() {
        let merge = br#"{"kind": "StatefulSet"}"#;
        assert!(matches!(
            patch_builtin(
                &kinds(),
                Some(&deployment()),
                merge,
                PatchType::Merge,
                &opts(FieldValidation::Warn)
            ),
            Err(Error::NotModelled(_))
        ));
    }
}
