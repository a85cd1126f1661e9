//! One fixture per rule of the write and read paths.

use serde_json::json;

use super::*;
use crate::json::dispose;
use crate::{GroupVersionKind, Interpreter};

/// A schema that exercises every decoding rule: defaults, nullable and non-nullable fields,
/// embedded resources as a property, in a list and in a map, preserved fields.
fn schema() -> kstruct_schema::Structural {
    kstruct_schema::convert::from_value(&json!({
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer", "default": 1},
                "name": {"type": "string"},
                "maybe": {"type": "string", "nullable": true},
                "mode": {"type": "string", "default": "auto"},
                "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                             "x-kubernetes-preserve-unknown-fields": true},
                "items": {"type": "array", "items": {"type": "object", "x-kubernetes-embedded-resource": true,
                          "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string"}}}}}},
                "byName": {"type": "object", "additionalProperties": {"type": "object",
                           "x-kubernetes-embedded-resource": true}},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            }},
            "status": {"type": "object", "properties": {"phase": {"type": "string"}}},
        },
    }))
    .unwrap()
    .unwrap()
}

fn widget() -> Interpreter {
    Interpreter::new(Some(schema())).with_resource(GroupVersionKind::new("example.com", "v1", "Widget"))
}

fn opts(field_validation: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation,
        format: BodyFormat::Auto,
        validate: false,
        max_body_size: None,
        resource_version: None,
    }
}

fn warn(body: &str) -> Decoded {
    widget()
        .decode(body.as_bytes(), &opts(FieldValidation::Warn))
        .unwrap_or_else(|e| panic!("{body}: {e}"))
}

fn rejected(body: &str, mode: FieldValidation) -> Rejection {
    match widget().decode(body.as_bytes(), &opts(mode)) {
        Err(Error::Rejected(r)) => *r,
        other => panic!("{body}: expected a rejection, got {other:?}"),
    }
}

const HEAD: &str = r#""apiVersion": "example.com/v1", "kind": "Widget""#;

#[test]
fn prunes_defaults_and_reports_unknown_fields() {
    let d = warn(&format!(
        r#"{{{HEAD}, "metadata": {{"name": "w", "x": 1}}, "spec": {{"zzz": 1, "name": "n"}}, "top": 2}}"#
    ));
    assert_eq!(
        d.object,
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
               "spec": {"name": "n", "replicas": 1, "mode": "auto"}})
    );
    assert_eq!(d.unknown_fields, ["metadata.x", "spec.zzz", "top"]);
    assert_eq!(
        d.warnings,
        [
            r#"unknown field "metadata.x""#,
            r#"unknown field "spec.zzz""#,
            r#"unknown field "top""#
        ]
    );
    assert!(d.duplicate_fields.is_empty());
}

#[test]
fn strict_errors_come_in_the_reference_order() {
    let body = format!(
        r#"{{{HEAD}, "spec": {{"b": 1, "name": "a", "name": "b", "a": 2, "template": {{"apiVersion": "v1", "kind": "K",
            "metadata": {{"u": 1}}}}, "items": [{{"metadata": {{"v": 1, "v": 2}}}}]}},
            "metadata": {{"name": "x", "name": "y", "zz": 1, "aa": 2}}}}"#
    );
    let r = rejected(&body, FieldValidation::Strict);
    let want = [
        r#"duplicate field "spec.name""#,
        r#"duplicate field "spec.items[0].metadata.v""#,
        r#"duplicate field "metadata.name""#,
        r#"unknown field "metadata.aa""#,
        r#"unknown field "metadata.zz""#,
        r#"unknown field "spec.a""#,
        r#"unknown field "spec.b""#,
        r#"unknown field "spec.items[0].metadata.v""#,
        r#"unknown field "spec.template.metadata.u""#,
    ];
    assert_eq!(r.strict_errors, want);
    assert_eq!(r.cause, format!("strict decoding error: {}", want.join(", ")));
    assert_eq!(
        r.message,
        format!("Widget in version \"v1\" cannot be handled as a Widget: {}", r.cause)
    );
    // Warn: the same texts as warnings; the object goes on, last values winning.
    let d = warn(&body);
    assert_eq!(d.warnings, want);
    assert_eq!(d.object["spec"]["name"], "b");
    assert_eq!(d.object["metadata"], json!({"name": "y"}));
    assert_eq!(
        d.duplicate_fields,
        ["spec.name", "spec.items[0].metadata.v", "metadata.name"]
    );
    // Ignore: nothing reported, the object the same.
    let i = widget()
        .decode(body.as_bytes(), &opts(FieldValidation::Ignore))
        .unwrap();
    assert!(i.warnings.is_empty() && i.unknown_fields.is_empty() && i.duplicate_fields.is_empty());
    assert_eq!(i.object, d.object);
}

#[test]
fn duplicates_are_quoted_deduplicated_and_capped() {
    let d = warn(&format!(
        r#"{{{HEAD}, "spec": {{"free": {{"a\"b": 1, "a\"b": 2, "é\u0001": 1, "é\u0001": 2, "a\"b": 3}}}}}}"#
    ));
    assert_eq!(
        d.warnings,
        [
            r#"duplicate field "spec.free.a\"b""#,
            r#"duplicate field "spec.free.é\x01""#
        ]
    );
    assert_eq!(d.duplicate_fields, ["spec.free.a\"b", "spec.free.é\u{1}"]);
    // A field both repeated and unknown is reported as both.
    let d = warn(&format!(r#"{{{HEAD}, "spec": {{"x": 1, "x": 2}}}}"#));
    assert_eq!(d.warnings, [r#"duplicate field "spec.x""#, r#"unknown field "spec.x""#]);
    // At most 100 strict decoding errors come from the JSON decoder.
    let fields: Vec<String> = (0..150).map(|i| format!(r#""f{i}": 1, "f{i}": 2"#)).collect();
    let d = warn(&format!(r#"{{{HEAD}, "spec": {{"free": {{{}}}}}}}"#, fields.join(", ")));
    assert_eq!(d.duplicate_fields.len(), 100);
    assert_eq!(d.warnings.len(), 100);
    assert_eq!(&d.warnings[99], r#"duplicate field "spec.free.f99""#);
}

#[test]
fn a_repeated_object_reports_what_its_values_repeat() {
    let d = warn(&format!(
        r#"{{{HEAD}, "spec": {{"free": {{"q": 1, "q": 2}}}}, "spec": {{"name": "n"}}}}"#
    ));
    assert_eq!(d.duplicate_fields, ["spec.free.q", "spec"]);
    assert_eq!(d.object["spec"], json!({"name": "n", "replicas": 1, "mode": "auto"}));
    // The repeated key comes before what its new value repeats.
    let d = warn(&format!(
        r#"{{{HEAD}, "spec": {{"free": {{"q": 1, "q": 2}}}}, "spec": {{"free": {{"r": 1, "r": 2}}}}}}"#
    ));
    assert_eq!(d.duplicate_fields, ["spec.free.q", "spec", "spec.free.r"]);
    assert_eq!(d.object["spec"]["free"], json!({"r": 2}));
}

#[test]
fn api_version_must_parse_before_anything_else() {
    // The meta factory parses the group version right after the pre-parse (more than one `/`
    // is an error), before the kind is looked at and before strict decoding.
    for (body, api_version) in [
        (r#"{"apiVersion": "a/b/c", "kind": "Widget"}"#, "a/b/c"),
        (r#"{"apiVersion": "a//b"}"#, "a//b"),
        (
            r#"{"apiVersion": "v1", "APIVERSION": "x/y/z", "kind": "Widget", "kind": "Widget"}"#,
            "x/y/z",
        ),
        ("apiVersion: a/b/c\nkind: Widget\n", "a/b/c"),
    ] {
        for mode in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
            let r = rejected(body, mode);
            assert_eq!(
                r.cause,
                format!("unexpected GroupVersion string: {api_version}"),
                "{body}"
            );
            assert!(r.strict_errors.is_empty());
            assert!(
                r.message.starts_with(&format!(
                    "the object provided is unrecognized (must be of type Widget): unexpected GroupVersion string: {api_version} ("
                )),
                "{}",
                r.message
            );
        }
    }
    // One slash or none parses: `/v1` is the core group, `a/` a group without a version.
    for body in [
        r#"{"apiVersion": "/v1", "kind": "Widget"}"#,
        r#"{"apiVersion": "a/", "kind": "Widget"}"#,
    ] {
        let result = widget().decode(body.as_bytes(), &opts(FieldValidation::Warn));
        assert!(!format!("{result:?}").contains("GroupVersion"), "{result:?}");
    }
}

#[test]
fn kind_must_be_named() {
    for body in [
        r#"{"apiVersion": "example.com/v1"}"#,
        r#"{"apiVersion": "example.com/v1", "kind": ""}"#,
        r#"{"apiVersion": "example.com/v1", "kind": null}"#,
        r#"{"apiVersion": "example.com/v1", "Kind": "Widget"}"#,
        "null",
    ] {
        let r = rejected(body, FieldValidation::Warn);
        assert_eq!(r.cause, format!("Object 'Kind' is missing in '{body}'"), "{body}");
        assert!(
            r.message
                .starts_with("the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing"),
            "{}",
            r.message
        );
    }
    // Strict decoding quotes the body as sent, the lenient decoder the value without the
    // white space around it.
    let body = " {\"kind\": \"\"}\n";
    assert_eq!(
        rejected(body, FieldValidation::Warn).cause,
        "Object 'Kind' is missing in ' {\"kind\": \"\"}\n'"
    );
    assert_eq!(
        rejected(body, FieldValidation::Ignore).cause,
        "Object 'Kind' is missing in '{\"kind\": \"\"}'"
    );
}

#[test]
fn the_lenient_decoder_names_a_missing_kind_by_the_pre_parse() {
    // Ignore decodes without strictness: the serializer reports the kind and version its
    // pre-parse read (null is no value for it, so an earlier `kind` stands), with the
    // endpoint's for what the body leaves out, and the handler says `cannot be handled as`.
    let cases = [
        (
            r#"{"apiVersion": "example.com/v1", "kind": "Widget", "kind": null}"#,
            "Widget in version \"v1\" cannot be handled as a Widget: Object 'Kind' is missing in '{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"kind\": null}'",
        ),
        (
            r#"{"metadata": {"name": "w"}}"#,
            "Widget in version \"v1\" cannot be handled as a Widget: Object 'Kind' is missing in '{\"metadata\": {\"name\": \"w\"}}'",
        ),
        (
            r#"{"apiVersion": "other.io/v2", "KIND": "Gadget", "kind": null}"#,
            "Gadget in version \"v2\" cannot be handled as a Widget: Object 'Kind' is missing in '{\"apiVersion\": \"other.io/v2\", \"KIND\": \"Gadget\", \"kind\": null}'",
        ),
    ];
    for (body, want) in cases {
        assert_eq!(rejected(body, FieldValidation::Ignore).message, want, "{body}");
        // Strict and Warn decode strictly: the kind is the object's, and there is none.
        assert!(
            rejected(body, FieldValidation::Warn)
                .message
                .starts_with("the object provided is unrecognized (must be of type Widget): "),
            "{body}"
        );
    }
    // A body that fails later without an apiVersion: the endpoint's version.
    let r = rejected(
        r#"{"kind": "Widget", "spec": {"size": 1e400}}"#,
        FieldValidation::Ignore,
    );
    assert!(
        r.message
            .starts_with("Widget in version \"v1\" cannot be handled as a Widget: "),
        "{}",
        r.message
    );
}

#[test]
fn kind_and_api_version_are_pre_parsed_case_insensitively() {
    let cases = [
        (
            r#"{"KIND": 1}"#,
            "json: cannot unmarshal number into Go struct field .KIND of type string",
        ),
        (
            r#"{"Kind": {}}"#,
            "json: cannot unmarshal object into Go struct field .Kind of type string",
        ),
        (
            r#"{"apiversion": true, "kind": 1}"#,
            "json: cannot unmarshal bool into Go struct field .apiversion of type string",
        ),
        (
            "{\"\u{212a}ind\": []}",
            "json: cannot unmarshal array into Go struct field .\u{212a}ind of type string",
        ),
        (
            "{\"apiVer\u{17f}ion\": 1.5}",
            "json: cannot unmarshal number into Go struct field .apiVer\u{17f}ion of type string",
        ),
        (
            r#"{"kind": 1, "kind": "Widget"}"#,
            "json: cannot unmarshal number into Go struct field .kind of type string",
        ),
        (
            "[1]",
            r#"json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }"#,
        ),
    ];
    for (body, want) in cases {
        let r = rejected(body, FieldValidation::Strict);
        assert_eq!(
            r.cause,
            format!("couldn't get version/kind; json parse error: {want}"),
            "{body}"
        );
        assert!(
            r.message.starts_with(&format!(
                "the object provided is unrecognized (must be of type Widget): {} (",
                r.cause
            )),
            "{}",
            r.message
        );
    }
    // Variants that are strings or null pass; the object's own "kind" decides.
    let d = warn(&format!(r#"{{{HEAD}, "KIND": "Other", "ApiVersion": null}}"#));
    assert_eq!(d.unknown_fields, ["ApiVersion", "KIND"]);
}

#[test]
fn api_version_must_be_a_string() {
    let r = rejected(r#"{"apiVersion": null, "kind": "Widget"}"#, FieldValidation::Warn);
    assert_eq!(
        r.cause,
        ".apiVersion accessor error: <nil> is of the type <nil>, expected string"
    );
    assert_eq!(
        r.message,
        "Widget in version \"\" cannot be handled as a Widget: .apiVersion accessor error: <nil> is of the type <nil>, expected string"
    );
}

#[test]
fn syntax_errors_and_limits() {
    let cause = |body: &str| rejected(body, FieldValidation::Warn).cause;
    // The API server's text, and the position apart.
    let r = rejected(r#"{"kind": "Widget",}"#, FieldValidation::Warn);
    assert_eq!(
        r.cause,
        "couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string"
    );
    assert_eq!(r.position, Some((1, 19)));
    let r = rejected("{}\n x", FieldValidation::Warn);
    assert_eq!(
        r.cause,
        "couldn't get version/kind; json parse error: invalid character 'x' after top-level value"
    );
    assert_eq!(r.position, Some((2, 2)));
    let deep = format!("{{{HEAD}, \"spec\": {}{}}}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(
        cause(&deep),
        "couldn't get version/kind; json parse error: exceeded max depth"
    );
    // A number beyond float64 fails the decoding after the pre-parse, which names the kind.
    let r = rejected(
        &format!(r#"{{{HEAD}, "spec": {{"replicas": 1e400}}}}"#),
        FieldValidation::Ignore,
    );
    assert_eq!(
        r.cause,
        "json: cannot unmarshal number 1e400 into Go value of type float64"
    );
    assert_eq!(
        r.message,
        "Widget in version \"v1\" cannot be handled as a Widget: json: cannot unmarshal number 1e400 into Go value of type float64"
    );
    // ... but a syntax error anywhere comes first.
    assert!(cause(r#"{"a": 1e400, "b": tru}"#).contains("invalid character '}' in literal true"));
}

#[test]
fn numbers_keep_the_servers_model() {
    let d = warn(&format!(
        r#"{{{HEAD}, "spec": {{"free": {{"big": 9223372036854775808, "neg": -9223372036854775809, "f": 1.0, "i": 7}}}}}}"#
    ));
    let free = &d.object["spec"]["free"];
    assert!(free["big"].is_f64() && free["neg"].is_f64() && free["f"].is_f64() && free["i"].is_i64());
    assert_eq!(
        kstruct_schema::go::marshal_json(free),
        r#"{"big":9223372036854776000,"f":1,"i":7,"neg":-9223372036854776000}"#
    );
}

#[test]
fn root_metadata_is_normalised() {
    let d = warn(&format!(
        r#"{{{HEAD}, "metadata": {{"name": "w", "namespace": "", "generation": 1e3, "labels": {{"a": null}},
            "creationTimestamp": "2020-01-01T10:00:00.5+02:00", "annotations": {{}}, "Name": "x"}}}}"#
    ));
    assert_eq!(
        d.object["metadata"],
        json!({"name": "w", "generation": 1000, "labels": {"a": ""}, "creationTimestamp": "2020-01-01T08:00:00Z"})
    );
    assert_eq!(d.unknown_fields, ["metadata.Name"]);
    assert_eq!(
        warn(&format!(r#"{{{HEAD}, "metadata": null}}"#)).object["metadata"],
        json!({})
    );
    // Malformed metadata fails the write.
    let r = rejected(
        &format!(r#"{{{HEAD}, "metadata": {{"generation": 2.5}}}}"#),
        FieldValidation::Ignore,
    );
    assert_eq!(
        r.message,
        "Widget in version \"v1\" cannot be handled as a Widget: json: cannot unmarshal number 2.5 into Go struct field ObjectMeta.generation of type int64"
    );
    let r = rejected(
        &format!(r#"{{{HEAD}, "metadata": {{"annotations": 1}}}}"#),
        FieldValidation::Warn,
    );
    assert_eq!(
        r.cause,
        "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
    );
}

#[test]
fn nulls_are_dropped_kept_or_defaulted() {
    let d = warn(&format!(
        r#"{{{HEAD}, "spec": {{"name": null, "maybe": null, "mode": null, "replicas": null}}}}"#
    ));
    assert_eq!(d.object["spec"], json!({"maybe": null, "mode": "auto", "replicas": 1}));
    assert!(d.warnings.is_empty());
}

#[test]
fn embedded_resources_are_coerced() {
    let r = rejected(
        &format!(r#"{{{HEAD}, "spec": {{"template": {{"apiVersion": 1}}}}}}"#),
        FieldValidation::Warn,
    );
    assert_eq!(r.cause, "spec.template.apiVersion: Invalid value: 1: must be a string");
    assert_eq!(
        r.message,
        "Widget in version \"v1\" cannot be handled as a Widget: spec.template.apiVersion: Invalid value: 1: must be a string"
    );
    let d = warn(&format!(
        r#"{{{HEAD}, "spec": {{"template": {{"apiVersion": "v1", "kind": "Pod", "Kind": "x",
            "metadata": {{"name": "p", "creationTimestamp": null, "q": 1}}, "spec": {{"any": 1}}}},
            "byName": {{"k.1": {{"metadata": {{"labels": {{"a": "b"}}, "z": 1}}, "other": 2}}}}}}}}"#
    ));
    assert_eq!(
        d.object["spec"]["template"],
        json!({"apiVersion": "v1", "kind": "Pod", "Kind": "x", "metadata": {"name": "p"}, "spec": {"any": 1}})
    );
    assert_eq!(
        d.object["spec"]["byName"],
        json!({"k.1": {"metadata": {"labels": {"a": "b"}}}})
    );
    assert_eq!(
        d.unknown_fields,
        [
            "spec.byName.k.1.other",
            "spec.byName[k.1].metadata.z",
            "spec.template.metadata.q"
        ]
    );
}

#[test]
fn other_groups_kinds_and_versions() {
    // Another kind: metadata normalised, nothing pruned or defaulted.
    let d = warn(r#"{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"x": 1}, "spec": {"y": 1}}"#);
    assert_eq!(
        d.object,
        json!({"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {}, "spec": {"y": 1}})
    );
    assert_eq!(d.warnings, [r#"unknown field "metadata.x""#]);
    // No apiVersion: the core group, not the CRD's.
    let d = warn(r#"{"kind": "Widget", "spec": {"y": 1}}"#);
    assert_eq!(d.object, json!({"kind": "Widget", "spec": {"y": 1}}));
    // Another version of the CRD's kind: an empty schema.
    let d = warn(
        r#"{"apiVersion": "example.com/v2", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"replicas": 3}}"#,
    );
    assert_eq!(
        d.object,
        json!({"apiVersion": "example.com/v2", "kind": "Widget", "metadata": {"name": "w"}})
    );
    assert_eq!(d.unknown_fields, ["spec"]);
    // A strict failure names the object's kind and version, then the endpoint's kind.
    let r = rejected(
        r#"{"apiVersion": "example.com/v2", "kind": "Widget", "spec": {}}"#,
        FieldValidation::Strict,
    );
    assert_eq!(
        r.message,
        r#"Widget in version "v2" cannot be handled as a Widget: strict decoding error: unknown field "spec""#
    );
}

#[test]
fn bare_schemas_serve_every_kind() {
    let bare = Interpreter::new(Some(schema()));
    let d = bare
        .decode(
            br#"{"apiVersion": "x/y", "kind": "Any", "spec": {"q": 1}}"#,
            &opts(FieldValidation::Warn),
        )
        .unwrap();
    assert_eq!(d.object["spec"], json!({"replicas": 1, "mode": "auto"}));
    let Err(Error::Rejected(r)) = bare.decode(br#"{"kind": "Any", "q": 1}"#, &opts(FieldValidation::Strict)) else {
        panic!()
    };
    assert_eq!(
        r.message,
        r#"Any in version "" cannot be handled as a Any: strict decoding error: unknown field "q""#
    );
}

#[test]
fn preserve_unknown_fields_crds_are_not_pruned() {
    let p = Interpreter::without_default_pruning(Some(schema()))
        .with_resource(GroupVersionKind::new("example.com", "v1", "Widget"))
        .with_preserve_unknown_fields(true);
    let d = p
        .decode(
            format!(r#"{{{HEAD}, "metadata": {{"u": 1}}, "spec": {{"q": 1, "name": null}}}}"#).as_bytes(),
            &opts(FieldValidation::Warn),
        )
        .unwrap();
    assert_eq!(
        d.object["spec"],
        json!({"q": 1, "name": null, "replicas": 1, "mode": "auto"})
    );
    assert_eq!(d.warnings, [r#"unknown field "metadata.u""#]);
}

#[test]
fn yaml_bodies() {
    let body = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: a\n  name: b\nspec:\n  name: yes\n  free: {on: off}\n  x: 1\n";
    let d = warn(body);
    assert_eq!(
        d.warnings,
        ["line 5: key \"name\" already set in map", "unknown field \"spec.x\""]
    );
    assert_eq!(
        d.object["spec"],
        json!({"name": true, "free": {"true": false}, "replicas": 1, "mode": "auto"})
    );
    let r = rejected(body, FieldValidation::Strict);
    assert_eq!(
        r.strict_errors,
        [
            "yaml: unmarshal errors:\n  line 5: key \"name\" already set in map",
            "unknown field \"spec.x\""
        ]
    );
    // Ignore does not look for repeated keys.
    let i = widget()
        .decode(body.as_bytes(), &opts(FieldValidation::Ignore))
        .unwrap();
    assert!(i.warnings.is_empty());
    // Conversion errors are fatal, and the body is summarised in hex.
    let r = rejected("a: [\n", FieldValidation::Warn);
    assert!(r.cause.starts_with("yaml: line"), "{}", r.cause);
    assert!(r.message.ends_with("(613a205b0a)"), "{}", r.message);
    // Missing kind quotes the YAML when strict and the converted JSON otherwise.
    assert_eq!(
        rejected("a: yes\n", FieldValidation::Warn).cause,
        "Object 'Kind' is missing in 'a: yes\n'"
    );
    assert_eq!(
        rejected("a: yes\n", FieldValidation::Ignore).cause,
        "Object 'Kind' is missing in '{\"a\":true}'"
    );
    assert_eq!(
        rejected("# nothing\n", FieldValidation::Ignore).cause,
        "Object 'Kind' is missing in 'null'"
    );
    assert!(
        rejected("kind: 1\n", FieldValidation::Ignore)
            .cause
            .ends_with(".kind of type string")
    );
}

#[test]
fn storage_drops_malformed_metadata_and_repairs_generation() {
    let d = widget()
        .decode_storage(
            format!(r#"{{{HEAD}, "metadata": {{"name": "w", "labels": {{"a": 1}}, "namespace": ["x"], "u": 1}}, "spec": {{"z": 1, "template": {{"apiVersion": 5, "metadata": {{"generation": "x", "name": "t"}}}}}}}}"#)
                .as_bytes(),
        )
        .unwrap();
    assert_eq!(
        d.object,
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "generation": 1},
               "spec": {"replicas": 1, "mode": "auto", "template": {"metadata": {"name": "t"}}}})
    );
    assert!(d.warnings.is_empty() && d.unknown_fields.is_empty());
    let Err(Error::Rejected(r)) = widget().decode_storage(format!(r#"{{{HEAD}, "metadata": 1}}"#).as_bytes()) else {
        panic!()
    };
    assert_eq!(r.message, "invalid metadata: expected object, got int64");
    // Without metadata there is no generation to repair.
    let d = widget().decode_storage(format!("{{{HEAD}}}").as_bytes()).unwrap();
    assert_eq!(d.object, json!({"apiVersion": "example.com/v1", "kind": "Widget"}));
}

#[test]
fn registered_crds_pick_the_version() {
    let crd = kstruct_schema::crd::CustomResourceDefinition::from_value(&json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"},
                 "versions": [
                     {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                         "type": "object", "properties": {"spec": {"type": "object", "properties": {
                             "a": {"type": "string", "default": "one"}}}}}}},
                     {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {
                         "type": "object", "properties": {"spec": {"type": "object", "properties": {
                             "b": {"type": "string", "default": "two"}}}}}}}]}
    }))
    .unwrap();
    let mut registry = crate::Registry::new();
    registry.add(crd);
    for (version, want) in [("v1", json!({"a": "one"})), ("v2", json!({"b": "two"}))] {
        let body =
            format!(r#"{{"apiVersion": "example.com/{version}", "kind": "Widget", "spec": {{"a": "x", "b": "y"}}}}"#);
        let d = registry
            .decode(body.as_bytes(), &opts(FieldValidation::Ignore))
            .unwrap();
        let mut want = want;
        let kept = if version == "v1" { "a" } else { "b" };
        want[kept] = json!(if version == "v1" { "x" } else { "y" });
        assert_eq!(d.object["spec"], want);
    }
}

/// 10,000 levels, as the API server accepts, on a thread with the default 2 MiB stack, through
/// every step that walks or replaces values: pruning, coercion, metadata round trips, defaults.
#[test]
fn deep_bodies_do_not_overflow_the_stack() {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            // The root and "spec" (or "metadata") take 2 of the 10,000 levels.
            let depth = crate::json::MAX_DEPTH - 2;
            let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let bodies = [
                format!(r#"{{{HEAD}, "spec": {{"free": {deep}}}}}"#),
                format!(r#"{{{HEAD}, "spec": {{"unknown": {deep}}}}}"#),
                format!(r#"{{{HEAD}, "metadata": {{"x": {deep}}}}}"#),
                format!(
                    r#"{{{HEAD}, "metadata": {{"managedFields": [{{"fieldsV1": {}}}]}}}}"#,
                    &deep[2..deep.len() - 2]
                ),
                format!(
                    r#"{{{HEAD}, "spec": {{"template": {{"metadata": {{"x": {}}}}}}}}}"#,
                    &deep[2..deep.len() - 2]
                ),
                format!(r#"{{"apiVersion": "other/v1", "kind": "Gadget", "spec": {deep}}}"#),
            ];
            for body in &bodies {
                for mode in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
                    match widget().decode(body.as_bytes(), &opts(mode)) {
                        Ok(d) => dispose(d.object),
                        Err(Error::Rejected(r)) => assert!(r.cause.starts_with("strict decoding error")),
                        Err(e) => panic!("{e}"),
                    }
                }
                if let Ok(d) = widget().decode_storage(body.as_bytes()) {
                    dispose(d.object);
                }
            }
            let too_deep = format!(r#"{{{HEAD}, "spec": {{"free": [{deep}]}}}}"#);
            let Err(Error::Rejected(r)) = widget().decode(too_deep.as_bytes(), &opts(FieldValidation::Warn)) else {
                panic!("10,001 levels decoded")
            };
            assert_eq!(
                r.cause,
                "couldn't get version/kind; json parse error: exceeded max depth"
            );
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn rejections_display_the_api_message() {
    let e = widget()
        .decode(
            b"{\"kind\": \"Widget\", \"apiVersion\": \"example.com/v1\", \"q\": 1}",
            &opts(FieldValidation::Strict),
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "q""#
    );
}

#[test]
fn bodies_over_the_limit_get_the_servers_413() {
    let body = r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"name": "n"}}"#;
    let limited = |max| DecodeOptions {
        max_body_size: Some(max),
        ..opts(FieldValidation::Strict)
    };
    assert!(widget().decode(body.as_bytes(), &limited(body.len())).is_ok());
    let err = widget().decode(body.as_bytes(), &limited(body.len() - 1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("Request entity too large: limit is {}", body.len() - 1)
    );
    let status = err.status();
    assert_eq!((status.code, status.reason.as_str()), (413, "RequestEntityTooLarge"));
    assert_eq!(API_SERVER_MAX_BODY_SIZE, 3_145_728);
}

#[test]
fn bytes_are_appended_to_whatever_the_buffer_holds() {
    let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"name": "<n>"}}"#;
    let printed = crate::schema::go::marshal_json(&widget().decode(body, &opts(FieldValidation::Warn)).unwrap().object);
    for prior in [&b""[..], b"text ", b"\xff not UTF-8 "] {
        let mut out = prior.to_vec();
        widget()
            .decode_bytes(body, &opts(FieldValidation::Warn), &mut out)
            .unwrap();
        assert_eq!(&out[..prior.len()], prior);
        assert_eq!(&out[prior.len()..], printed.as_bytes());
    }
}

#[test]
fn the_bodys_own_kind_is_printed_as_written() {
    // `%s` of the body's kind (raw), `%q` of its version, then the endpoint's kind.
    let r = rejected(
        r#"{"apiVersion": "example.com/v\u00e9", "kind": "W\u00eddget\u0007", "a": 1, "a": 2}"#,
        FieldValidation::Strict,
    );
    assert_eq!(
        r.message,
        "W\u{ed}dget\u{7} in version \"v\u{e9}\" cannot be handled as a Widget: strict decoding error: duplicate field \"a\""
    );
}
