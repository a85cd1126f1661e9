//! The walk against the `Value` path, rule by rule, and the bodies it must leave to that path.

use serde_json::json;

use super::*;
use crate::decode::{Decoded, OneVersion, request_by_value};
use crate::{GroupVersionKind, Interpreter};

fn widget() -> Interpreter {
    let schema = kstruct_schema::convert::from_value(&json!({
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer", "default": 1},
                "name": {"type": "string"},
                "maybe": {"type": "string", "nullable": true},
                "mode": {"type": "string", "default": "auto"},
                "limits": {"type": "object", "default": {}, "properties": {
                    "cpu": {"type": "string", "default": "1"}, "memory": {"type": "string"}}},
                "ports": {"type": "array", "items": {"type": "object", "properties": {
                    "port": {"type": "integer", "default": 80}, "name": {"type": "string"}}}},
                "tags": {"type": "array", "items": {"type": "string", "default": "t"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "opaque": {"type": "object", "additionalProperties": true},
                "any": {"type": "array"},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                         "properties": {"known": {"type": "object", "properties": {"a": {"type": "string"}}}}},
                "rows": {"type": "array", "x-kubernetes-preserve-unknown-fields": true,
                         "items": {"type": "object", "properties": {"k": {"type": "object",
                             "properties": {"a": {"type": "integer"}}}}}},
                "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                             "x-kubernetes-preserve-unknown-fields": true},
                "pods": {"type": "array", "items": {"type": "object", "x-kubernetes-embedded-resource": true,
                          "properties": {"note": {"type": "string", "default": "x"},
                                         "spec": {"type": "object", "properties": {"a": {"type": "string"}}}}}},
                "byName": {"type": "object", "additionalProperties": {"type": "object",
                           "x-kubernetes-embedded-resource": true, "properties": {"x": {"type": "integer"}}}},
                "busy": {"type": "object", "x-kubernetes-embedded-resource": true,
                         "properties": {"metadata": {"type": "object", "properties": {"name": {"type": "string", "default": "n"}}}}},
            }},
            "status": {"type": "object", "properties": {"phase": {"type": "string"}}},
        },
    }))
    .unwrap()
    .unwrap();
    Interpreter::new(Some(schema)).with_resource(GroupVersionKind::new("example.com", "v1", "Widget"))
}

fn opts(field_validation: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation,
        ..DecodeOptions::default()
    }
}

/// The walk's answer, checked against the `Value` path's; `None` when it leaves the body.
fn walk(body: &str, mode: FieldValidation) -> Option<(String, DecodeReport)> {
    let p = widget();
    let mut out = b"kept:".to_vec();
    let report = try_request_bytes(&OneVersion(&p), body.as_bytes(), &opts(mode), &mut out);
    let Some(report) = report else {
        assert_eq!(out, b"kept:", "{body}: nothing appended when the walk gives up");
        return None;
    };
    let text = String::from_utf8(out[5..].to_vec()).expect("UTF-8");
    let spec: Decoded = request_by_value(&OneVersion(&p), body.as_bytes(), &opts(mode), None)
        .unwrap_or_else(|e| panic!("{body}: the walk answered a body the Value path refuses: {e}"));
    // The walk to a `Value` answers alike, but for floats Go prints as integers.
    match try_request_value(&OneVersion(&p), body.as_bytes(), &opts(mode), None) {
        Some(v) => assert_eq!(v.expect("decodes"), spec, "{body} ({mode:?}): the walk's Value"),
        None => assert!(has_float_literal(body), "{body}: the walk to a Value leaves it"),
    }
    assert_eq!(
        text,
        kstruct_schema::go::marshal_json(&spec.object),
        "{body} ({mode:?})"
    );
    assert_eq!(report.warnings, spec.warnings, "{body}");
    assert_eq!(report.unknown_fields, spec.unknown_fields, "{body}");
    assert_eq!(report.duplicate_fields, spec.duplicate_fields, "{body}");
    Some((text, report))
}

/// Whether `body` has a number written with a fraction or an exponent (outside strings).
fn has_float_literal(body: &str) -> bool {
    let (mut in_string, mut escaped, mut token) = (false, false, String::new());
    for c in body.chars() {
        if in_string {
            (in_string, escaped) = match (escaped, c) {
                (true, _) => (true, false),
                (false, '\\') => (true, true),
                (false, '"') => (false, false),
                _ => (true, false),
            };
            continue;
        }
        if c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E') && !token.is_empty() || c == '-' {
            token.push(c);
            continue;
        }
        if token.contains(['.', 'e', 'E']) {
            return true;
        }
        token.clear();
        in_string = c == '"';
    }
    token.contains(['.', 'e', 'E'])
}

fn obj(rest: &str) -> String {
    format!(r#"{{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {{"name": "w"}}{rest}}}"#)
}

fn walked(body: &str) -> String {
    for mode in [FieldValidation::Ignore, FieldValidation::Warn] {
        assert!(walk(body, mode).is_some(), "{body}: the walk gave up under {mode:?}");
    }
    walk(body, FieldValidation::Ignore).map(|(t, _)| t).unwrap_or_default()
}

#[test]
fn prunes_defaults_and_sorts_like_the_value_path() {
    let text = walked(&obj(
        r#", "spec": {"name": "n", "x": {"deep": [1, {"a": 2}]}, "ports": [{"name": "p", "y": 1}, {"port": 1}]}"#,
    ));
    assert_eq!(
        text,
        r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"limits":{"cpu":"1"},"mode":"auto","name":"n","ports":[{"name":"p","port":80},{"port":1}],"replicas":1}}"#
    );
    let (_, report) = walk(
        &obj(r#", "spec": {"x": 1, "ports": [{"y": 1}]}, "zz": {"q": 1}"#),
        FieldValidation::Warn,
    )
    .unwrap();
    assert_eq!(report.unknown_fields, ["spec.ports[0].y", "spec.x", "zz"]);
    assert_eq!(
        report.warnings,
        [
            r#"unknown field "spec.ports[0].y""#,
            r#"unknown field "spec.x""#,
            r#"unknown field "zz""#
        ]
    );
}

#[test]
fn nulls_are_dropped_kept_or_defaulted_by_the_schema() {
    let text = walked(&obj(
        r#", "spec": {"name": null, "maybe": null, "replicas": null, "tags": [null, "a"], "labels": {"a": null, "b": "c"}, "opaque": {"n": null}, "free": {"u": null}}"#,
    ));
    assert!(text.contains(r#""maybe":null"#), "{text}");
    assert!(text.contains(r#""replicas":1"#), "{text}");
    assert!(text.contains(r#""tags":["t","a"]"#), "{text}");
    assert!(text.contains(r#""labels":{"b":"c"}"#), "{text}");
    assert!(text.contains(r#""free":{"u":null}"#), "{text}");
    assert!(!text.contains(r#""name":null"#), "{text}");
}

#[test]
fn preserved_fields_keep_unknowns_and_still_prune_known_ones() {
    walked(&obj(
        r#", "spec": {"free": {"z": {"b": 1, "a": [{"y": 1, "x": 2}]}, "known": {"a": "s", "b": 1}}}"#,
    ));
    walked(&obj(
        r#", "spec": {"rows": [{"u": 1, "k": {"a": 1, "b": 2}}, 3], "any": [{"a": 1}, [1]]}"#,
    ));
    walked(&obj(r#", "status": [{"a": 1}], "spec": "text""#));
}

#[test]
fn scalars_print_as_go_prints_them() {
    walked(&obj(
        r#", "spec": {"free": {"n": [-0, 0, -0.0, 1.0, 1.5e300, 1e21, 0.000001, 1e-7, 12345678901234567890, -9223372036854775808, 100000000000000000000000, 1E2]}}"#,
    ));
    walked(&obj(
        r#", "spec": {"free": {"s": ["<&>", "\u2028x\u2029", "é", "\u00e9\"\\\/\b\f\n\r\t", "\ud800", "\ud83d\ude00", "a\u0000"]}}"#,
    ));
    walked(&obj(r#", "spec": {"free": {"<k>": 1, "é": 2, "e": 3}}"#));
    // Floats read back as floats; only those Go prints as integers are left to the `Value`
    // path by the walk to a `Value`.
    let p = widget();
    let floats = obj(r#", "spec": {"free": {"n": [1.5, 1e21, 1e-7, 12345678901234567890]}}"#);
    let decoded = try_request_value(&OneVersion(&p), floats.as_bytes(), &opts(FieldValidation::Ignore), None);
    let n = &decoded.expect("walked").expect("decodes").object["spec"]["free"]["n"];
    assert!(n.as_array().unwrap().iter().all(serde_json::Value::is_f64), "{n}");
    for integral in ["1.0", "1E2", "-0.0"] {
        let body = obj(&format!(r#", "spec": {{"free": {{"n": {integral}}}}}"#));
        assert!(try_request_value(&OneVersion(&p), body.as_bytes(), &opts(FieldValidation::Ignore), None).is_none());
    }
    // Invalid UTF-8 becomes U+FFFD.
    let mut body = obj(r#", "spec": {"name": "aXb"}"#).into_bytes();
    let at = body.iter().position(|&b| b == b'X').unwrap();
    body[at] = 0xff;
    let p = widget();
    let mut out = Vec::new();
    try_request_bytes(&OneVersion(&p), &body, &opts(FieldValidation::Warn), &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("\"a\u{fffd}b\""));
}

#[test]
fn escaped_strings_are_re_escaped_piece_by_piece() {
    // Short escapes, `\/`, `\u` escapes of every kind Go writes back differently, and escapes
    // next to runs that need escaping themselves.
    for s in [
        r#"a\nb\tc\"d\\e\rf\bg\fh"#,
        r#"\/x\/"#,
        r#"\u003cb\u003e \u0026 \u00e9\u00E9 \u0041 \u2028\u2029 \u0000\u001f \u007f"#,
        "<\\n>&é\\n\u{2028}\\\"é",
        r#"\n"#,
        r#"x\n"#,
        r#"\u20ac rest of a long run of text that spans several words\n"#,
    ] {
        walked(&obj(&format!(
            r#", "spec": {{"name": "{s}", "free": {{"k": ["{s}", {{"j": "{s}"}}]}}}}"#
        )));
    }
    // Surrogates are the reader's: pairs decode to one character, lone ones to U+FFFD.
    walked(&obj(r#", "spec": {"name": "a\ud83d\ude00b\ud800c\udc00"}"#));
    // Malformed escapes: the `Value` path's error.
    for s in [r#"\x"#, r#"\u12"#, r#"\u12g4"#, r#"a\"#] {
        let body = obj(&format!(r#", "spec": {{"name": "{s}"}}"#));
        assert!(walk(&body, FieldValidation::Ignore).is_none(), "{body}");
    }
    // Invalid UTF-8 and control characters after an escape: the reader's U+FFFD and error.
    let mut body = obj(r#", "spec": {"name": "a\nXb"}"#).into_bytes();
    let at = body.iter().position(|&b| b == b'X').unwrap();
    body[at] = 0xff;
    let p = widget();
    let mut out = Vec::new();
    try_request_bytes(&OneVersion(&p), &body, &opts(FieldValidation::Warn), &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("\"a\\n\u{fffd}b\""));
    body[at] = 0x01;
    assert!(walk(std::str::from_utf8(&body).unwrap(), FieldValidation::Ignore).is_none());
}

#[test]
fn members_are_put_in_key_order_however_they_come() {
    // Heads that differ; heads that are equal (keys alike in their first eight bytes); more
    // members than are ordered by heads alone.
    let many: Vec<String> = (0..40).rev().map(|i| format!(r#""k{i:02}": {i}"#)).collect();
    for free in [
        r#"{"c": 1, "b": {"z": 1, "y": [2, {"x": 1, "w": 2}]}, "a": 3}"#.to_string(),
        r#"{"abcdefghZ": 1, "b": 2, "abcdefghA": 3, "abcdefgh": 4, "abcdefg": 5}"#.to_string(),
        format!("{{{}}}", many.join(", ")),
        // Members in place at the start (they stay), then the rest.
        r#"{"a": 1, "b": {"d": 1, "e": 2, "c": 3}, "c": 2, "f": 5, "e": 6}"#.to_string(),
    ] {
        let text = walked(&obj(&format!(r#", "spec": {{"free": {free}}}"#)));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&String> = v["spec"]["free"].as_object().unwrap().keys().collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{text}");
    }
    // Repeats are the `Value` path's to report under Warn; ignored, the last one wins.
    let body = obj(r#", "spec": {"free": {"b": 1, "a": 2, "b": 3}}"#);
    let (text, _) = walk(&body, FieldValidation::Ignore).expect("walked");
    assert!(text.contains(r#""free":{"a":2,"b":3}"#), "{text}");
    let body = obj(r#", "spec": {"free": {"a": 1, "b": 2, "d": 3, "b": 4, "c": 5}}"#);
    let (text, _) = walk(&body, FieldValidation::Ignore).expect("walked");
    assert!(text.contains(r#""free":{"a":1,"b":4,"c":5,"d":3}"#), "{text}");
}

#[test]
fn members_that_are_properties_are_ordered_by_their_properties() {
    // In reverse order, with defaults to add, a repeat that wins, a repeat that is dropped
    // (`null` for a property that is not nullable), unknown keys in between.
    for (body, expected) in [
        (
            r#"{"tags": [], "name": "n", "mode": "m", "limits": {"memory": "2", "cpu": "3"}}"#,
            r#""spec":{"limits":{"cpu":"3","memory":"2"},"mode":"m","name":"n","replicas":1,"tags":[]}"#,
        ),
        (
            r#"{"name": "a", "x": 1, "replicas": 5, "name": "b", "y": 2}"#,
            r#""spec":{"limits":{"cpu":"1"},"mode":"auto","name":"b","replicas":5}"#,
        ),
        (
            r#"{"name": "a", "mode": "m", "name": null}"#,
            r#""spec":{"limits":{"cpu":"1"},"mode":"m","replicas":1}"#,
        ),
        (
            r#"{"limits": {}, "mode": "m", "name": "a", "replicas": 2, "name": null}"#,
            r#""spec":{"limits":{"cpu":"1"},"mode":"m","replicas":2}"#,
        ),
        (
            r#"{"limits": {}, "mode": "m", "name": "a", "replicas": 2, "name": "b"}"#,
            r#""spec":{"limits":{"cpu":"1"},"mode":"m","name":"b","replicas":2}"#,
        ),
        (
            r#"{"name": null, "mode": "m", "name": "c"}"#,
            r#""spec":{"limits":{"cpu":"1"},"mode":"m","name":"c","replicas":1}"#,
        ),
    ] {
        let (text, _) = walk(&obj(&format!(r#", "spec": {body}"#)), FieldValidation::Ignore).expect("walked");
        assert!(text.contains(expected), "{body}: {text}");
    }
    // Tracked: a property read twice, or an unknown key read twice, is the `Value` path's.
    assert!(
        walk(
            &obj(r#", "spec": {"name": "a", "mode": "m", "name": null}"#),
            FieldValidation::Warn
        )
        .is_none()
    );
    assert!(
        walk(
            &obj(r#", "spec": {"x": 1, "mode": "m", "x": 2}"#),
            FieldValidation::Warn
        )
        .is_none()
    );
    let (_, report) = walk(
        &obj(r#", "spec": {"x": 1, "mode": "m", "y": 2}"#),
        FieldValidation::Warn,
    )
    .expect("walked");
    assert_eq!(report.unknown_fields, ["spec.x", "spec.y"]);

    // Past the 64th property, members are ordered by their keys.
    let props: serde_json::Map<String, serde_json::Value> = (0..70)
        .map(|i| (format!("p{i:02}"), json!({"type": "integer"})))
        .collect();
    let schema = kstruct_schema::convert::from_value(&json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": props}}}))
    .unwrap()
    .unwrap();
    let p = Interpreter::new(Some(schema)).with_resource(GroupVersionKind::new("example.com", "v1", "Widget"));
    for members in [
        (0..70).rev().map(|i| format!(r#""p{i:02}": {i}"#)).collect::<Vec<_>>(),
        [69, 3, 65, 1, 3].iter().map(|i| format!(r#""p{i:02}": {i}"#)).collect(),
        [5, 2, 9].iter().map(|i| format!(r#""p{i:02}": {i}"#)).collect(),
    ] {
        let body = obj(&format!(r#", "spec": {{{}}}"#, members.join(", ")));
        let mut out = Vec::new();
        try_request_bytes(
            &OneVersion(&p),
            body.as_bytes(),
            &opts(FieldValidation::Ignore),
            &mut out,
        )
        .expect("walked");
        let spec = request_by_value(&OneVersion(&p), body.as_bytes(), &opts(FieldValidation::Ignore), None).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            kstruct_schema::go::marshal_json(&spec.object)
        );
    }
}

#[test]
fn a_streams_document_ends_with_its_root_object() {
    let p = widget();
    let doc = obj(r#", "spec": {"name": "n", "x": 1}"#);
    let mut stream = format!("  {doc}\n{doc}").into_bytes();
    let mut out = Vec::new();
    let (report, end) =
        try_request_bytes_prefix(&OneVersion(&p), &stream, &opts(FieldValidation::Warn), &mut out).expect("walked");
    assert_eq!(end, 2 + doc.len());
    let (whole, _) = walk(&doc, FieldValidation::Warn).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), whole);
    assert_eq!(report.unknown_fields, ["spec.x"]);
    // Cut short, or longer than the largest body: not walked, nothing written.
    let mut out = b"kept".to_vec();
    assert!(try_request_bytes_prefix(&OneVersion(&p), &stream[..20], &opts(FieldValidation::Warn), &mut out).is_none());
    let limit = |n| DecodeOptions {
        max_body_size: Some(n),
        ..opts(FieldValidation::Warn)
    };
    assert!(try_request_bytes_prefix(&OneVersion(&p), &stream, &limit(doc.len() - 1), &mut out).is_none());
    assert_eq!(out, b"kept");
    assert!(try_request_bytes_prefix(&OneVersion(&p), &stream, &limit(doc.len()), &mut Vec::new()).is_some());
    // Whatever follows the object is the next document's.
    stream.truncate(2 + doc.len());
    stream.extend_from_slice(b"} garbage");
    assert!(try_request_bytes_prefix(&OneVersion(&p), &stream, &opts(FieldValidation::Ignore), &mut out).is_some());
}

#[test]
fn repeated_keys_last_wins_when_ignored() {
    let text = walk(
        &obj(r#", "spec": {"name": "a", "replicas": 2, "name": "b", "replicas": null, "z": 1, "z": 2}"#),
        FieldValidation::Ignore,
    )
    .unwrap()
    .0;
    assert!(
        text.contains(r#""name":"b""#) && text.contains(r#""replicas":1"#),
        "{text}"
    );
    // Tracked, they are the Value path's to report.
    assert!(walk(&obj(r#", "spec": {"name": "a", "name": "b"}"#), FieldValidation::Warn).is_none());
    assert!(walk(&obj(r#", "spec": {"x": {"a": 1, "a": 2}}"#), FieldValidation::Warn).is_none());
    assert!(walk(&obj(r#", "spec": {"x": {"a": 1, "a": 2}}"#), FieldValidation::Ignore).is_some());
}

#[test]
fn type_meta_may_come_last_and_metadata_is_round_tripped() {
    let body = r#"{"spec": {"name": "n"}, "metadata": {"name": "w", "labels": {"b": "1", "a": "2"}, "bogus": 1}, "kind": "Widget", "apiVersion": "example.com/v1"}"#;
    let (text, report) = walk(body, FieldValidation::Warn).unwrap();
    assert!(
        text.starts_with(
            r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{"a":"2","b":"1"},"name":"w"}"#
        ),
        "{text}"
    );
    assert_eq!(report.unknown_fields, ["metadata.bogus"]);
    walked(r#"{"apiVersion": "example.com/v1", "kind": "Widget"}"#);
    walked(r#"{"kind": "Widget", "apiVersion": "example.com/v1", "metadata": {}}"#);
}

#[test]
fn everything_else_is_left_to_the_value_path() {
    let w = FieldValidation::Warn;
    for body in [
        "kind: Widget\napiVersion: example.com/v1\n",
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget"} x"#,
        r#"{"apiVersion": "example.com/v1", "Kind": "Widget"}"#,
        // Keys that fold to `kind` or `apiVersion` (the Kelvin sign, the long s).
        "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"\u{212a}IND\": \"Widget\"}",
        "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"APIVER\u{17f}ION\": \"x/v1\"}",
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "APIVERSION": "x/v1"}"#,
        r#"{"apiVersion": "example.com/v1", "kind": 1}"#,
        r#"{"apiVersion": "example.com/v1"}"#,
        r#"{"apiVersion": "example.com/v2", "kind": "Widget"}"#,
        r#"{"apiVersion": "other.com/v1", "kind": "Widget"}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"n\u0061me": "x"}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"x": 1e400}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"template": {"kind": 1}}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"template": {"metadata": null}}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"busy": {"kind": "K"}}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": 1}}"#,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"a": 1, "a": 2}}"#,
        "[]",
    ] {
        assert!(walk(body, w).is_none(), "{body}");
    }
    let deep = obj(&format!(
        r#", "spec": {{"free": {{"x": {}1{}}}}}"#,
        "[".repeat(300),
        "]".repeat(300)
    ));
    assert!(walk(&deep, w).is_none());
    let strict = FieldValidation::Strict;
    assert!(walk(&obj(r#", "spec": {"x": 1}"#), strict).is_none());
    assert!(walk(&obj(r#", "spec": {"name": "n"}"#), strict).is_some());
    let validate = DecodeOptions {
        validate: true,
        ..DecodeOptions::default()
    };
    assert!(try_request_bytes(&OneVersion(&widget()), obj("").as_bytes(), &validate, &mut Vec::new()).is_none());
}

#[test]
fn metadata_round_trips_as_through_object_meta() {
    for meta in [
        r#"{}"#,
        r#"{"name": "", "namespace": null, "generation": 0, "creationTimestamp": null, "labels": {}, "annotations": null, "finalizers": [], "ownerReferences": null}"#,
        r#"{"name": "w", "generation": 3, "deletionGracePeriodSeconds": 0, "uid": "u", "resourceVersion": "7", "selfLink": "/x", "generateName": "w-"}"#,
        r#"{"creationTimestamp": "2024-04-14T19:24:54+02:00", "deletionTimestamp": "2024-04-14T17:24:54.5Z"}"#,
        r#"{"creationTimestamp": "0001-01-01T00:00:00Z", "deletionTimestamp": "0001-01-01T00:00:00Z"}"#,
        r#"{"creationTimestamp": "2024-04-14T19:24:54Z", "deletionTimestamp": "2024-02-29T00:00:59Z"}"#,
        r#"{"labels": {"b": "1", "a": null, "<": "&"}, "annotations": {"z": "\u00e9\n"}, "finalizers": ["f", null, "a"]}"#,
        r#"{"ownerReferences": [{"uid": "1", "kind": "K", "bogus": [1], "controller": true, "blockOwnerDeletion": false, "zzz": 1}, {"name": "n", "controller": null}, {}]}"#,
        r#"{"zeta": 1, "alpha": {"x": 1}, "ownerReferences": [{"b": 1}, {"a": 1}], "name": "w"}"#,
        r#"{"managedFields": [{"manager": "m", "operation": "Apply", "fieldsV1": {"f:spec": {}}}], "name": "w"}"#,
        r#"{"managedFields": [{"time": "2024-04-14T19:24:54+02:00", "subresource": "status", "fieldsType": "FieldsV1", "apiVersion": "a/v1", "fieldsV1": {"f:b": {".": {}}, "f:a": {"k:{\"x\":1}": {}}}}, {}]}"#,
        r#"{"managedFields": [{"time": "0001-01-01T00:00:00Z", "manager": "", "operation": null, "fieldsV1": null}]}"#,
        r#"{"managedFields": [{"time": "2024-04-14T17:24:54Z", "fieldsV1": "raw"}, {"fieldsV1": [1, -0, 2.5, {"z": 1, "a": null}]}]}"#,
        r#"{"managedFields": [{"manager": "m", "zz": 1, "aa": {"x": 1}}, {"bogus": null}], "zeta": 1, "name": "w"}"#,
        r#"{"managedFields": [], "ownerReferences": [{"zz": 1}], "mz": 1, "managedFieldz": [{}]}"#,
        r#"{"managedFields": null, "name": "w"}"#,
        r#"{"managedFields": [null, {"manager": "m"}]}"#,
        r#"{"generation": -0, "deletionGracePeriodSeconds": -0}"#,
        r#"{"generation": -12, "deletionGracePeriodSeconds": 9223372036854775807}"#,
        r#"{"creationTimestamp": "2024-04-14T17:24:54\u005a", "deletionTimestamp": "\u0032024-04-14T17:24:54Z"}"#,
        r#"{"ownerReferences": [{"apiVersion": "a\/b", "kind": "K\u00e9", "name": "\u003c", "uid": "u\"1\\"}]}"#,
        // Every field, in reverse key order.
        r#"{"uid": "u", "selfLink": "/s", "resourceVersion": "1", "ownerReferences": [{"name": "o"}], "namespace": "ns",
            "name": "n", "managedFields": [{"time": "2024-04-14T17:24:54Z", "subresource": "s", "operation": "Update",
            "manager": "m", "fieldsV1": {}, "fieldsType": "FieldsV1", "apiVersion": "v1"}], "labels": {"l": "1"},
            "generation": 2, "generateName": "g", "finalizers": ["f"], "deletionTimestamp": "2024-04-14T17:24:54Z",
            "deletionGracePeriodSeconds": 30, "creationTimestamp": "2024-02-29T23:59:59Z", "annotations": {"a": "1"}}"#,
        r#"{"creationTimestamp": "0000-01-01T00:00:00Z", "deletionTimestamp": "9999-12-31T23:59:59Z"}"#,
    ] {
        walked(&format!(
            r#"{{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {meta}, "spec": {{}}}}"#
        ));
    }
    // Repeated keys: the last value wins as a whole, when ignored.
    for meta in [
        r#"{"name": "a", "name": null}"#,
        r#"{"labels": {"a": "1"}, "labels": {"b": "2"}}"#,
        r#"{"generation": 2, "generation": 0, "labels": {"a": "1", "a": "2"}}"#,
        r#"{"ownerReferences": [{"name": "a", "name": null}]}"#,
        r#"{"managedFields": [{"manager": "a", "manager": null, "fieldsV1": {"a": 1}, "fieldsV1": {"b": 2}}]}"#,
        r#"{"managedFields": [{"fieldsV1": {"a": 1, "a": 2}}]}"#,
        r#"{"managedFields": [{"time": "2024-04-14T17:24:54Z", "time": null}]}"#,
        r#"{"uid": "a", "name": "n", "uid": "b"}"#,
        r#"{"name": "n", "uid": "a", "name": ""}"#,
        r#"{"labels": {"a": "1"}, "name": "n", "labels": null, "annotations": {"b": "2"}}"#,
    ] {
        let body = format!(r#"{{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {meta}}}"#);
        walk(&body, FieldValidation::Ignore);
        assert!(walk(&body, FieldValidation::Warn).is_none(), "{body}");
    }
    // Known fields after more members than an object's ranks note (256): ordered by keys.
    let unknown: String = (0..300).map(|i| format!(r#""u{i}": {i}, "#)).collect();
    walked(&format!(
        r#"{{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {{{unknown}"uid": "u", "name": "n", "labels": {{"a": "1"}}}}}}"#
    ));
    // What the round trip refuses is the `Value` path's to say.
    for meta in [
        r#"{"name": 1}"#,
        r#"{"generation": "1"}"#,
        r#"{"creationTimestamp": "yesterday"}"#,
        r#"{"creationTimestamp": "2023-02-29T00:00:00Z"}"#,
        r#"{"creationTimestamp": "2024-04-14T24:00:00Z"}"#,
        r#"{"labels": {"a": 1}}"#,
        r#"{"finalizers": "f"}"#,
        r#"{"ownerReferences": [{"controller": "yes"}]}"#,
        r#"{"managedFields": [{"manager": 1}]}"#,
        r#"{"managedFields": [{"time": "now"}]}"#,
        r#"{"managedFields": {}}"#,
        r#"[]"#,
    ] {
        let body = format!(r#"{{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {meta}}}"#);
        assert!(walk(&body, FieldValidation::Warn).is_none(), "{body}");
    }
}

#[test]
fn embedded_resources_are_coerced_as_the_value_path_coerces_them() {
    for spec in [
        r#"{"template": {"kind": "K", "apiVersion": "v1", "metadata": {"name": "t", "zz": 1, "aa": {"b": 1}}, "spec": {"x": [1]}}}"#,
        r#"{"template": {}}"#,
        r#"{"pods": [{"metadata": {"labels": {"a": "b"}, "q": 1}, "spec": {"a": "s", "b": 2}, "other": 1}, {"kind": "Job"}, {}]}"#,
        r#"{"byName": {"one": {"x": 1, "y": 2, "metadata": {"bogus": true}}, "two": {"apiVersion": "a/b"}}}"#,
        r#"{"byName": {"a.b": {"metadata": {"u": 1}}}, "pods": [{"metadata": {"u": 1}}], "x": 1}"#,
    ] {
        walked(&obj(&format!(r#", "spec": {spec}"#)));
    }
    let (_, report) = walk(
        &obj(r#", "spec": {"byName": {"k": {"metadata": {"u": 1}, "y": 1}}, "pods": [{"metadata": {"v": 1}}]}"#),
        FieldValidation::Warn,
    )
    .unwrap();
    assert_eq!(
        report.unknown_fields,
        [
            "spec.byName.k.y",
            "spec.byName[k].metadata.u",
            "spec.pods[0].metadata.v"
        ]
    );
}

/// Nesting up to the walk's limit, on a thread with a small stack: the walk recurses once
/// per level, and gives deeper bodies to the `Value` path (which grows its stack).
#[test]
fn deep_nesting_fits_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            for depth in [190, 400] {
                let nested = format!("{}1{}", "[{\"a\":".repeat(depth / 2), "}]".repeat(depth / 2));
                let body = obj(&format!(
                    r#", "spec": {{"free": {{"x": {nested}}}, "any": [{nested}]}}"#
                ));
                let p = widget();
                let mut out = Vec::new();
                let walked =
                    try_request_bytes(&OneVersion(&p), body.as_bytes(), &opts(FieldValidation::Warn), &mut out);
                assert_eq!(walked.is_some(), depth < 200, "depth {depth}");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

/// A default holding a float Go prints as an integer, and `managedFields` holding one: the
/// bytes are walked, the `Value` is the `Value` path's (which keeps the float).
#[test]
fn floats_printed_as_integers_outside_the_body_stay_with_the_value_path() {
    let schema = kstruct_schema::convert::from_value(&json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "ratio": {"type": "number", "default": 1.0},
            "half": {"type": "number", "default": 0.5}}}}}))
    .unwrap()
    .unwrap();
    let floats = Interpreter::new(Some(schema)).with_resource(GroupVersionKind::new("example.com", "v1", "Widget"));
    assert!(!floats.scan_plan().unwrap().value_exact());
    let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {}}"#;
    let o = opts(FieldValidation::Ignore);
    assert!(try_request_bytes(&OneVersion(&floats), body, &o, &mut Vec::new()).is_some());
    assert!(try_request_value(&OneVersion(&floats), body, &o, None).is_none());
    let decoded = crate::decode::request_in(&OneVersion(&floats), body, &o, None).unwrap();
    assert!(decoded.object["spec"]["ratio"].is_f64(), "{:?}", decoded.object);
    assert_eq!(decoded, request_by_value(&OneVersion(&floats), body, &o, None).unwrap());
    // Exact defaults (0.5) do not keep a plan from the walk to a `Value`.
    assert!(widget().scan_plan().unwrap().value_exact());

    let p = widget();
    for fields in [r#"{"f:a": 1.0}"#, r#"{"f:a": -0.0}"#, r#"{"f:a": 1.5}"#] {
        let body = obj(r#", "spec": {}"#).replace(
            r#""metadata": {"name": "w"}"#,
            &format!(r#""metadata": {{"name": "w", "managedFields": [{{"manager": "m", "fieldsV1": {fields}}}]}}"#),
        );
        let walked = try_request_value(&OneVersion(&p), body.as_bytes(), &o, None);
        let spec = request_by_value(&OneVersion(&p), body.as_bytes(), &o, None).unwrap();
        match walked {
            Some(v) => assert_eq!(v.unwrap(), spec, "{body}"),
            None => assert!(fields != r#"{"f:a": 1.5}"#, "{body}: 1.5 reads back"),
        }
        assert_eq!(
            crate::decode::request_in(&OneVersion(&p), body.as_bytes(), &o, None).unwrap(),
            spec
        );
    }
}

#[test]
fn root_metadata_reports_first_and_each_warning_once() {
    // A pruned root key that prints as an unknown metadata field does, and embedded metadata
    // beside them: the walk's report, checked against the `Value` path's by `walk`.
    let pruned_like_meta = r#"{"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "a", "x": 1, "b": 2}, "metadata.x": 1,
        "spec": {"zz": 1, "aa": 2, "template": {"metadata": {"q": 1}}}}"#;
    let (_, report) = walk(pruned_like_meta, FieldValidation::Warn).expect("walked");
    assert_eq!(
        report.unknown_fields,
        [
            "metadata.b",
            "metadata.x",
            "metadata.x",
            "spec.aa",
            "spec.zz",
            "spec.template.metadata.q"
        ]
    );
    assert_eq!(
        report.warnings.iter().filter(|w| w.contains("\"metadata.x\"")).count(),
        1
    );
    // Metadata the fast path leaves to the ObjectMeta round trip reports in the same place.
    let round_trip = r#"{"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "a", "ownerReferences": [null], "x": 1}, "spec": {"zz": 1}}"#;
    let (_, report) = walk(round_trip, FieldValidation::Warn).expect("walked");
    assert_eq!(report.unknown_fields, ["metadata.x", "spec.zz"]);
}

#[test]
fn unknown_fields_come_in_byte_order_whatever_the_keys() {
    // The runs of paths each container reports are ordered by their first paths; these keys
    // are where that could go wrong: `-` and upper case sort before `.` and `[`, index 10
    // before index 2, keys with `.` or `[` in them (sorted in full), the empty key.
    let ports: Vec<String> = (0..12).map(|i| format!(r#"{{"port": {i}, "z{i}": 1}}"#)).collect();
    let bodies = [
        obj(&format!(
            r#", "spec": {{"ports": [{}], "ports-x": 1, "portsA": 2}}"#,
            ports.join(",")
        )),
        obj(r#", "spec": {"limits": {"q": 1, "cpu": "2", "b": 1}, "limits-": 1, "limitsZ": 1, "a": 1, "": 1}"#),
        obj(r#", "zz": 1, "status": {"x": 1}, "spec": {"ports": [{"b": 1}, {"a": 1}], "p.orts": 1}, "aa": 1"#),
        obj(r#", "spec": {"limits": {"z": 1, "b": 1}, "limits.q": 1, "limits[": 1, "limit": 1}"#),
        obj(r#", "spec": {"ports": [{"b": 1}, {"a": 1}], "ports[0].q": 1}"#),
        obj(r#", "spec": {"opaque": {"k": {"z": 1}}, "rows": [{"k": {"q": 1, "a": 1}}], "b": 1}, "a": {"x": 1}"#),
    ];
    // Embedded resources' metadata reports after the rest, as the `Value` path's does.
    let embedded = obj(
        r#", "spec": {"pods": [{"apiVersion": "v1", "kind": "P", "metadata": {"name": "p", "q": 1}, "z": 1, "spec": {"y": 1}}], "x": 1}"#,
    );
    let (_, report) = walk(&embedded, FieldValidation::Warn).expect("walked");
    assert_eq!(
        report.unknown_fields,
        [
            "spec.pods[0].spec.y",
            "spec.pods[0].z",
            "spec.x",
            "spec.pods[0].metadata.q"
        ]
    );
    for body in &bodies {
        let (_, report) = walk(body, FieldValidation::Warn).expect("walked");
        let mut sorted: Vec<&str> = report.unknown_fields.iter().collect();
        sorted.sort();
        assert!(report.unknown_fields.len() >= 3, "{body}: {:?}", report.unknown_fields);
        assert_eq!(report.unknown_fields, sorted, "{body}");
    }
}
