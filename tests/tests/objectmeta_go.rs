//! Metadata values read and written back by Go (tests/testdata/go_object_meta.jsonl, see
//! tools/genmetacases): kstruct's ObjectMeta handling must give the same errors, the same
//! unknown-field paths and the same written-back metadata, at the root (tracking unknown
//! fields, not tracking, dropping malformed fields) and in an embedded resource.

use kstruct::objectmeta::{CoerceOptions, GetOptions, coerce, get_object_meta, set_object_meta};
use kstruct::schema::field::Path;
use kstruct_tests::{Tally, expect_json};
use serde_json::{Map, Value, json};

/// The object holding `metadata` (parsed with the API server's number model), or none.
fn with_metadata(metadata: &Value) -> Map<String, Value> {
    let mut obj = Map::new();
    if let Some(text) = metadata.as_str() {
        let value = kstruct::json::decode(text.as_bytes()).expect("fixture metadata").value;
        obj.insert("metadata".into(), value);
    }
    obj
}

/// Root: GetObjectMetaWithOptions, then SetObjectMeta; `(error, unknown paths, metadata)`.
fn root(metadata: &Value, drop: bool, track: bool) -> (Value, Value, Value) {
    let mut obj = with_metadata(metadata);
    let opts = GetOptions {
        drop_malformed_fields: drop,
        return_unknown_field_paths: track,
        parent_path: None,
    };
    match get_object_meta(&obj, &opts) {
        Err(e) => (json!(e), json!([]), Value::Null),
        Ok(found) => {
            let out = match &found.meta {
                Some(m) => {
                    set_object_meta(&mut obj, Some(m));
                    obj["metadata"].clone()
                }
                None => Value::Null,
            };
            (Value::Null, json!(found.unknown_fields), out)
        }
    }
}

fn check(case: &Value) -> Result<(), String> {
    let metadata = &case["metadata"];
    let strict = &case["strict"];
    let (err, unknown, out) = root(metadata, false, true);
    expect_json("strict error", &err, &strict["err"])?;
    expect_json("strict unknown fields", &unknown, &strict["unknown"])?;
    expect_json("strict metadata", &out, &strict["out"])?;
    for (mode, drop) in [("lenient", false), ("drop", true)] {
        let want = match &case[mode] {
            Value::String(s) if s == "same" => strict,
            other => other,
        };
        let (err, _, out) = root(metadata, drop, false);
        expect_json(&format!("{mode} error"), &err, &want["err"])?;
        expect_json(&format!("{mode} metadata"), &out, &want["out"])?;
    }
    let schema = kstruct::schema::convert::from_value(&json!({"type": "object", "properties": {"e": {
        "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}}))
    .unwrap()
    .unwrap();
    let mut e = with_metadata(metadata);
    e.insert("apiVersion".into(), json!("v1"));
    e.insert("kind".into(), json!("K"));
    let mut obj = json!({"e": e});
    let opts = CoerceOptions {
        drop_invalid_fields: false,
        return_unknown_field_paths: true,
    };
    let want = &case["embedded"];
    match coerce(&Path::nil(), &mut obj, Some(&schema), false, opts) {
        Err(fe) => {
            if fe.field != "e.metadata" {
                return Err(format!("embedded error at {}", fe.field));
            }
            expect_json("embedded error", &json!(fe.detail), &want["err"])
        }
        Ok(unknown) => {
            expect_json("embedded error", &Value::Null, &want["err"])?;
            expect_json("embedded unknown fields", &json!(unknown), &want["unknown"])?;
            let got = obj["e"].get("metadata").cloned().unwrap_or(Value::Null);
            expect_json("embedded metadata", &got, &want["metadata"])
        }
    }
}

#[test]
fn object_meta_matches_go() {
    let text = include_str!("../testdata/go_object_meta.jsonl");
    let mut tally = Tally::new("Go ObjectMeta round trips (tools/genmetacases)");
    let mut count = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).expect("fixture line");
        count += 1;
        tally.check(case["id"].as_str().unwrap_or("?"), check(&case));
    }
    assert!(count > 1000, "the fixture has {count} cases");
    tally.finish();
}
