//! Invariants over generated schemas and objects: nothing panics on odd input, and the
//! algorithms behave as the reference's do when run twice (pruning, null pruning and defaulting
//! are idempotent), conversion and serialization round-trip, and YAML/JSON output reads back.

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
        "[a-z\"\\\\ ]{0,4}".prop_map(Value::String),
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
