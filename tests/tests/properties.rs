//! Invariants over generated schemas and objects: nothing panics on odd input, and the
//! algorithms behave as the reference's do when run twice (pruning, null pruning and defaulting
//! are idempotent), conversion and serialization round-trip, and YAML/JSON output reads back.

use kstruct::DecodeExt;
use kstruct::interpreter::{default, prune, prune_defaults, prune_nulls};
use kstruct::schema::convert::from_value;
use kstruct::schema::field::Path;
use kstruct::schema::validation::validate_structural;
use kstruct::schema::{go, serialize, yaml};
use kstruct_tests::json_eq;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Keys that have tripped implementations before: empty, dotted, bracketed, quoted, control
/// characters, and the resource meta fields.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("a.b".to_string()),
        Just("[0]".to_string()),
        Just("\"".to_string()),
        Just("\n".to_string()),
        Just("apiVersion".to_string()),
        Just("kind".to_string()),
        Just("metadata".to_string()),
        Just("name".to_string()),
        Just("ü*".to_string()),
        "[a-c]{1,2}",
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        (-1e30f64..1e30).prop_map(|f| json!(f)),
        Just(json!(9.223372036854776e18)),
        Just(json!(1e300)),
        // Printed by Go's rules: `\"`, `\\`, `\n`, `\u003c`, `\u0001`, `\u2028`, raw UTF-8.
        "[a-z\"\\\\ <>&é\n\t\u{1}\u{2028}\u{1F600}]{0,4}".prop_map(Value::String),
        Just(json!("yes")),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..5).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Root metadata as clients write it, and not: ObjectMeta's fields with values of every
/// type, times valid or not, owner references and managed fields with unknown fields.
fn metadata() -> impl Strategy<Value = Value> {
    let field = prop_oneof![
        Just("name"),
        Just("generateName"),
        Just("uid"),
        Just("generation"),
        Just("creationTimestamp"),
        Just("deletionTimestamp"),
        Just("deletionGracePeriodSeconds"),
        Just("labels"),
        Just("annotations"),
        Just("finalizers"),
        Just("ownerReferences"),
        Just("managedFields"),
        Just("bogus"),
    ];
    let text = prop_oneof![
        Just(json!("")),
        Just(json!("w")),
        Just(json!("2024-04-14T19:24:54+02:00")),
        Just(json!("0001-01-01T00:00:00Z")),
        Just(json!("<&>\u{2028}é")),
    ];
    let owner = prop::collection::btree_map(
        prop_oneof![
            Just("apiVersion"),
            Just("kind"),
            Just("uid"),
            Just("controller"),
            Just("x")
        ],
        prop_oneof![text.clone(), Just(json!(true)), Just(Value::Null), Just(json!(1))],
        0..4,
    )
    .prop_map(|m| json!(m));
    let managed = prop::collection::btree_map(
        prop_oneof![
            Just("manager"),
            Just("operation"),
            Just("time"),
            Just("fieldsV1"),
            Just("subresource"),
            Just("y")
        ],
        prop_oneof![
            text.clone(),
            Just(Value::Null),
            Just(json!(1)),
            Just(json!({"f:spec": {"f:a": {}, ".": {}}, "k:{\"n\":1}": {}})),
            Just(json!([2.5, -0.0, "\u{1}"]))
        ],
        0..4,
    )
    .prop_map(|m| json!(m));
    let item = prop_oneof![
        text.clone(),
        Just(Value::Null),
        Just(json!(0)),
        Just(json!(7)),
        Just(json!(1.0)),
        Just(json!(true)),
        prop::collection::btree_map("[a-c]", prop_oneof![text.clone(), Just(Value::Null)], 0..3).prop_map(|m| json!(m)),
        prop::collection::vec(prop_oneof![text, Just(Value::Null)], 0..3).prop_map(Value::Array),
        prop::collection::vec(owner, 0..3).prop_map(Value::Array),
        prop::collection::vec(managed, 0..3).prop_map(Value::Array),
    ];
    prop::collection::btree_map(field, item, 0..6).prop_map(|m| json!(m))
}

/// A v1 schema: typed leaves, objects with properties and additionalProperties, arrays, with
/// the structural extensions sprinkled at every level (valid or not).
fn schema() -> impl Strategy<Value = Value> {
    let leaf = (
        prop_oneof![
            Just("string"),
            Just("integer"),
            Just("number"),
            Just("boolean"),
            Just("")
        ],
        any::<bool>(),
        prop::option::of(scalar()),
    )
        .prop_map(|(t, nullable, d)| {
            let mut m = Map::new();
            if !t.is_empty() {
                m.insert("type".into(), json!(t));
            }
            if nullable {
                m.insert("nullable".into(), json!(true));
            }
            if let Some(d) = d {
                m.insert("default".into(), d);
            }
            Value::Object(m)
        });
    leaf.prop_recursive(4, 40, 4, |inner| {
        let object = (
            prop::collection::btree_map(key(), inner.clone(), 0..4),
            prop::option::of(prop_oneof![Just(json!(true)), Just(json!(false)), inner.clone()]),
            any::<(bool, bool, bool)>(),
            prop::option::of(value()),
        )
            .prop_map(|(props, additional, (preserve, embedded, nullable), d)| {
                let mut m = Map::new();
                m.insert("type".into(), json!("object"));
                if !props.is_empty() {
                    m.insert("properties".into(), Value::Object(props.into_iter().collect()));
                }
                if let Some(a) = additional {
                    m.insert("additionalProperties".into(), a);
                }
                if preserve {
                    m.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
                }
                if embedded {
                    m.insert("x-kubernetes-embedded-resource".into(), json!(true));
                }
                if nullable {
                    m.insert("nullable".into(), json!(true));
                }
                if let Some(d) = d {
                    m.insert("default".into(), d);
                }
                Value::Object(m)
            });
        let array = (inner, any::<bool>(), prop::option::of(value())).prop_map(|(items, preserve, d)| {
            let mut m = Map::new();
            m.insert("type".into(), json!("array"));
            m.insert("items".into(), items);
            if preserve {
                m.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
            }
            if let Some(d) = d {
                m.insert("default".into(), d);
            }
            Value::Object(m)
        });
        prop_oneof![object, array]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn algorithms_are_total_and_idempotent(schema_json in schema(), obj in value(), root in any::<bool>()) {
        let schema = from_value(&schema_json).expect("generated schemas convert").expect("not null");
        let _ = validate_structural(&Path::nil(), &schema);

        let mut served = schema.clone();
        let _ = prune_defaults(&mut served);

        let mut once = obj.clone();
        let _ = prune(&mut once, Some(&served), root, true);
        let mut twice = once.clone();
        prop_assert!(prune(&mut twice, Some(&served), root, true).is_empty());
        prop_assert_eq!(&twice, &once);

        prune_nulls(&mut once, Some(&served));
        let mut again = once.clone();
        prune_nulls(&mut again, Some(&served));
        prop_assert_eq!(&again, &once);

        default(&mut once, Some(&served));
        let mut again = once.clone();
        default(&mut again, Some(&served));
        prop_assert_eq!(&again, &once);
    }

    #[test]
    fn schemas_round_trip_through_json_and_yaml(schema_json in schema()) {
        let schema = from_value(&schema_json).unwrap().unwrap();
        prop_assert_eq!(&from_value(&serialize::to_value(&schema)).unwrap().unwrap(), &schema);
        let text = serialize::to_yaml(&schema);
        prop_assert_eq!(&kstruct::schema::convert::from_text(&text).unwrap().unwrap(), &schema, "{}", text);
    }

    #[test]
    fn values_read_back_from_yaml_and_go_json(v in value()) {
        let text = yaml::emit(&v);
        let back = yaml::to_json(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?.value;
        prop_assert!(json_eq(&back, &v), "{} -> {}", text, back);
        let json_text = go::marshal_json(&v);
        let back: Value = serde_json::from_str(&json_text).unwrap();
        prop_assert!(json_eq(&back, &v));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary bytes, and arbitrary mutations of a valid manifest, through every reader.
    #[test]
    fn readers_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
    ) {
        for doc in kstruct::input::read_documents(&bytes, "fuzz") {
            let _ = doc.value;
        }
        let _ = kstruct::json::decode(&bytes);
        let mut manifest = b"apiVersion: v1\nkind: K\nmetadata: {name: a, labels: {x: \"1\"}}\nspec:\n  - [1, 2.5, {a: b}]\n  - &x y\n  - *x\n".to_vec();
        for (at, byte) in edits {
            let i = at.index(manifest.len());
            manifest[i] = byte;
        }
        for doc in kstruct::input::read_documents(&manifest, "fuzz") {
            if let Ok(v) = doc.value {
                let _ = kstruct::schema::convert::from_value(&v);
            }
        }
        let json = serde_json::to_vec(&json!({"a": [1, {"b": "c"}], "d": null})).unwrap();
        let mut json = json;
        let i = (bytes.len() * 7) % json.len();
        json[i] = bytes.first().copied().unwrap_or(b'{');
        let _ = kstruct::json::decode(&json);
    }
}

#[test]
fn unknown_types_and_shapes_never_panic() {
    let schemas = [
        json!(null),
        json!({"type": 5}),
        json!({"items": 5, "properties": null, "additionalProperties": "x"}),
        json!({"type": "object", "properties": {"a": null, "": {"type": "array"}}}),
        json!([1, 2]),
        json!({"allOf": [null, 1], "not": {"not": {"not": {"items": [1]}}}}),
    ];
    for s in schemas {
        let _ = from_value(&s);
    }
}

fn decode_options(field_validation: kstruct::FieldValidation) -> kstruct::DecodeOptions {
    kstruct::DecodeOptions {
        field_validation,
        ..kstruct::DecodeOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// The fieldValidation modes agree: Ignore stores what Warn stores, Strict fails exactly
    /// when Warn warns, every unknown field is warned about, and the stored object decodes
    /// again unchanged and without warnings.
    #[test]
    fn decoding_modes_agree_and_settle(
        schema_json in schema(),
        spec in value(),
        meta in value(),
        extra in prop::collection::btree_map(key(), value(), 0..3),
        repeat in any::<bool>(),
    ) {
        use kstruct::{Error, FieldValidation};
        let (pipeline, obj) = widget(&schema_json, spec, meta, extra);
        let body = repeat_first(go::marshal_json(&obj), repeat);
        let warn = pipeline.decode(body.as_bytes(), &decode_options(FieldValidation::Warn));
        let ignore = pipeline.decode(body.as_bytes(), &decode_options(FieldValidation::Ignore));
        let strict = pipeline.decode(body.as_bytes(), &decode_options(FieldValidation::Strict));
        match (&warn, &ignore) {
            (Ok(w), Ok(i)) => {
                prop_assert_eq!(&w.object, &i.object);
                prop_assert!(i.warnings.is_empty() && i.unknown_fields.is_empty());
                prop_assert_eq!(repeat, !w.duplicate_fields.is_empty());
                for p in &w.unknown_fields {
                    let warning = format!("unknown field \"{p}\"");
                    prop_assert!(w.warnings.contains(&warning), "{} not in {:?}", warning, w.warnings);
                }
                match &strict {
                    Ok(s) => {
                        prop_assert!(w.warnings.is_empty(), "{:?}", w.warnings);
                        prop_assert_eq!(&s.object, &w.object);
                    }
                    Err(Error::Rejected(r)) => {
                        prop_assert!(!w.warnings.is_empty());
                        // Warnings are the strict errors, each text once (a root schema that
                        // is itself an embedded resource reports root metadata twice).
                        let mut once: Vec<String> = Vec::new();
                        for e in &r.strict_errors {
                            if !once.contains(e) {
                                once.push(e.clone());
                            }
                        }
                        prop_assert_eq!(&once, &w.warnings);
                    }
                    Err(e) => prop_assert!(false, "{}", e),
                }
                // Defaults are applied after everything else: a default the API server's CRD
                // validation would reject (a null for a non-nullable field, unknown fields,
                // bad embedded metadata, anything under root metadata) is changed, reported or
                // refused when the object is read again. Generated defaults are arbitrary.
                if go::marshal_json(&schema_json).contains("\"default\"") {
                    return Ok(());
                }
                let again = pipeline
                    .decode(go::marshal_json(&w.object).as_bytes(), &decode_options(FieldValidation::Warn))
                    .map_err(|e| TestCaseError::fail(format!("{e}")))?;
                prop_assert_eq!(&again.object, &w.object, "{}", body);
                prop_assert!(again.warnings.is_empty(), "{:?}", again.warnings);
            }
            (Err(Error::Rejected(a)), Err(Error::Rejected(b))) => {
                // Failures that do not come from strictness fail every mode alike.
                prop_assert_eq!(&a.strict_errors, &b.strict_errors);
                prop_assert!(matches!(strict, Err(Error::Rejected(_))));
            }
            (w, i) => prop_assert!(false, "Warn {:?} but Ignore {:?}", w, i),
        }
    }
}

/// The interpreter of `schema_json` serving Widget `example.com/v1`, and a Widget with
/// `spec`, `metadata` and the `extra` fields.
fn widget(
    schema_json: &Value,
    spec: Value,
    meta: Value,
    extra: std::collections::BTreeMap<String, Value>,
) -> (kstruct::Interpreter, Value) {
    let schema = from_value(schema_json).unwrap().unwrap();
    let pipeline = kstruct::Interpreter::new(Some(schema)).with_resource(kstruct::GroupVersionKind::new(
        "example.com",
        "v1",
        "Widget",
    ));
    let mut obj: Map<String, Value> = extra.into_iter().collect();
    obj.insert("apiVersion".into(), json!("example.com/v1"));
    obj.insert("kind".into(), json!("Widget"));
    obj.insert("metadata".into(), meta);
    obj.insert("spec".into(), spec);
    (pipeline, Value::Object(obj))
}

/// `body` with its first field written again after itself when `repeat` is set: the later
/// value wins, a duplicate is reported.
fn repeat_first(body: String, repeat: bool) -> String {
    if !repeat {
        return body;
    }
    let first_end = body.find(",\"").unwrap_or(body.len() - 1);
    format!("{},{}", &body[..first_end], &body[1..])
}

/// The contract of `decode_bytes` (the byte walk where it answers, the `Value` path where it
/// does not): in every mode, the bytes are the printed object of the `Value` path, with the
/// same reports, or both fail alike; and `decode` gives the `Value` path's answer.
fn bytes_agree(p: &dyn kstruct::Pipeline, body: &[u8]) -> Result<(), TestCaseError> {
    use kstruct::FieldValidation;
    for mode in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
        let opts = decode_options(mode);
        let mut out = Vec::new();
        let spec = kstruct::decode::request_by_value(&kstruct::decode::OneVersion(p), body, &opts, None);
        // `decode` (the walk to a `Value` where it answers) is the `Value` path's answer.
        match (p.decode(body, &opts), &spec) {
            (Ok(a), Ok(b)) => prop_assert_eq!(&a, b, "{:?}", mode),
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            (a, b) => prop_assert!(false, "{:?}: decode {:?}, Value path {:?}", mode, a, b),
        }
        match (p.decode_bytes(body, &opts, &mut out), spec) {
            (Ok(r), Ok(d)) => {
                prop_assert_eq!(
                    String::from_utf8(out).unwrap(),
                    go::marshal_json(&d.object),
                    "{:?}",
                    mode
                );
                prop_assert_eq!(
                    (r.warnings, r.unknown_fields, r.duplicate_fields),
                    (d.warnings, d.unknown_fields, d.duplicate_fields)
                );
            }
            (Err(a), Err(b)) => {
                prop_assert_eq!(a.to_string(), b.to_string());
                prop_assert!(out.is_empty());
            }
            (a, b) => prop_assert!(
                false,
                "{:?}: decode_bytes {:?}, decode {:?}",
                mode,
                a,
                b.map(|d| d.object)
            ),
        }
    }
    Ok(())
}

/// `v` with every object's keys in reverse order and white space around tokens, as a
/// client may send it.
fn reversed(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let members: Vec<String> = m
                .iter()
                .rev()
                .map(|(k, v)| format!("{} : {}", go::marshal_json(&json!(k)), reversed(v)))
                .collect();
            format!("{{ {} }}", members.join(" ,\n"))
        }
        Value::Array(items) => format!("[ {} ]", items.iter().map(reversed).collect::<Vec<_>>().join(", ")),
        other => go::marshal_json(other),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Decoding to bytes (the byte walk) gives the `Value` path's bytes and reports, and
    /// decoding to a `Value` (the walk, read back) its `Decoded`, for generated schemas and
    /// objects sent in any key order, with repeated fields or not.
    #[test]
    fn decoding_to_bytes_prints_the_value_path(
        schema_json in schema(),
        spec in value(),
        meta in prop_oneof![value(), metadata()],
        extra in prop::collection::btree_map(key(), value(), 0..3),
        repeat in any::<bool>(),
        // Go prints the first two as integers: they keep the plan from the walk to a `Value`.
        float_default in prop::option::of(prop_oneof![Just(json!(2.0)), Just(json!(-0.0)), Just(json!(0.5))]),
    ) {
        let mut schema_json = schema_json;
        if let Some(d) = float_default
            && schema_json["type"] == "object"
            && schema_json.get("additionalProperties").is_none()
        {
            schema_json["properties"]["ratio"] = json!({"type": "number", "default": d});
        }
        let (pipeline, obj) = widget(&schema_json, spec, meta, extra);
        for body in [go::marshal_json(&obj), reversed(&obj)] {
            bytes_agree(&pipeline, repeat_first(body, repeat).as_bytes())?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary bytes, and mutations of a request body, through the write and read paths.
    #[test]
    fn decoding_never_panics(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
    ) {
        use kstruct::{FieldValidation};
        let schema = from_value(&json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "a": {"type": "string", "default": "x"},
            "t": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}}}}))
            .unwrap();
        let pipeline = kstruct::Interpreter::new(schema)
            .with_resource(kstruct::GroupVersionKind::new("example.com", "v1", "Widget"));
        let mut body = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "a", "labels": {"x": "1"}, "generation": 2, "creationTimestamp": "2020-01-01T00:00:00Z"}, "spec": {"a": null, "t": {"apiVersion": "v1", "kind": "K", "metadata": {"name": "b"}}, "b": [1, 2.5e3]}}"#.to_vec();
        for (at, byte) in edits {
            let i = at.index(body.len());
            body[i] = byte;
        }
        for input in [&bytes, &body] {
            for mode in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
                let _ = pipeline.decode(input, &decode_options(mode));
            }
            let _ = pipeline.decode_storage(input);
            bytes_agree(&pipeline, input)?;
        }
    }
}

/// Names that are valid, invalid, or valid for one rule and not another.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("widgets".to_string()),
        Just("Widget".to_string()),
        Just("v1".to_string()),
        Just(String::new()),
        Just("1x".to_string()),
        Just("a.b".to_string()),
        "[a-zA-Z0-9.-]{1,6}",
    ]
}

/// A CRD document with generated names, versions, subresources, columns, selectable fields and
/// schemas (the same or different per version).
fn crd() -> impl Strategy<Value = Value> {
    let version = (
        prop_oneof![Just("v1".to_string()), Just("v2".to_string()), name()],
        any::<(bool, bool, bool)>(),
        prop::option::of(schema()),
        prop::option::of(prop_oneof![
            Just(json!({"status": {}})),
            Just(json!({"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}})),
            Just(json!({"scale": {"specReplicasPath": "spec", "statusReplicasPath": "", "labelSelectorPath": ".x"}})),
        ]),
        prop::collection::vec(("[a-z]{0,3}", prop_oneof![Just("string"), Just("date"), Just("map")], "[.a-z]{0,4}"), 0..3),
        prop::collection::vec("[.a-z\\['\\]]{0,6}", 0..3),
    )
        .prop_map(|(name, (served, storage, deprecated), schema, subresources, columns, selectable)| {
            let mut v = json!({"name": name, "served": served, "storage": storage, "deprecated": deprecated});
            if let Some(s) = schema {
                v["schema"] = json!({"openAPIV3Schema": s});
            }
            if let Some(s) = subresources {
                v["subresources"] = s;
            }
            v["additionalPrinterColumns"] =
                json!(columns.iter().map(|(n, t, p)| json!({"name": n, "type": t, "jsonPath": p})).collect::<Vec<_>>());
            v["selectableFields"] = json!(selectable.iter().map(|p| json!({"jsonPath": p})).collect::<Vec<_>>());
            v
        });
    (
        name(),
        name(),
        prop_oneof![Just("example.com".to_string()), Just("x.k8s.io".to_string()), name()],
        prop_oneof![Just("Namespaced"), Just("Cluster"), Just("namespaced"), Just("")],
        prop::collection::vec(version, 0..3),
        any::<bool>(),
    )
        .prop_map(|(plural, kind, group, scope, versions, preserve)| {
            json!({
                "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                "metadata": {"name": format!("{plural}.{group}")},
                "spec": {"group": group, "scope": scope, "preserveUnknownFields": preserve,
                         "names": {"plural": plural, "kind": kind}, "versions": versions},
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// The CRD lint never panics, gives the same messages every time, and every message names a
    /// field of the CRD.
    #[test]
    fn crd_lint_is_total_and_deterministic(doc in crd()) {
        let first = kstruct::lint::lint_crd(&doc).map(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>());
        let second = kstruct::lint::lint_crd(&doc).map(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>());
        match (first, second) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(&a, &b);
                for m in &a {
                    prop_assert!(
                        m.starts_with("metadata.") || m.starts_with("spec.") || m.starts_with("status."),
                        "{}", m
                    );
                }
            }
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            _ => prop_assert!(false, "the two runs disagree"),
        }
    }

    /// Value validation and list-type checks never panic on any value against any schema.
    #[test]
    fn value_validation_is_total(schema_json in schema(), obj in value()) {
        let schema = from_value(&schema_json).unwrap().unwrap();
        let a = kstruct::validation::validate_value(None, &schema, &obj);
        let b = kstruct::validation::validate_value(None, &schema, &obj);
        prop_assert_eq!(a, b);
        let _ = kstruct::validation::validate_list_types(None, &schema, &obj);
    }
}
