//! Request bodies decoded by Go's own libraries (tests/testdata/go_request_bodies.jsonl, made by
//! tools/gendecodecases): kstruct's serializer stage must give the same object, the same
//! strict errors and the same fatal error. The schema keeps every field, so what is compared
//! is the decoding itself (root metadata, when present, is compared after normalisation).

use kstruct::DecodeExt;
use kstruct::{BodyFormat, DecodeOptions, Error, FieldValidation, Interpreter};
use kstruct_tests::{Tally, expect_json};
use serde_json::{Value, json};

fn body(case: &Value) -> Vec<u8> {
    match (case["body"].as_str(), case["bodyHex"].as_str()) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(hex)) => (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
            .collect(),
        _ => panic!("case without a body: {case}"),
    }
}

/// kstruct's text without the position it adds to JSON syntax errors.
fn without_position(text: &str) -> &str {
    match text.rfind(" (line ") {
        Some(i) if text.ends_with(')') => &text[..i],
        _ => text,
    }
}

#[test]
fn serializer_stage_matches_go() {
    let text = include_str!("../testdata/go_request_bodies.jsonl");
    let schema = kstruct::schema::convert::from_value(&json!({
        "type": "object", "x-kubernetes-preserve-unknown-fields": true,
    }))
    .unwrap();
    let keep_all = Interpreter::new(schema);
    let mut tally = Tally::new("Go request bodies (tools/gendecodecases)");
    let mut count = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).expect("fixture line");
        count += 1;
        let format = match case["format"].as_str() {
            Some("yaml") => BodyFormat::Yaml,
            _ => BodyFormat::Json,
        };
        let strict = case["strict"].as_bool().unwrap_or(false);
        let options = |field_validation| DecodeOptions {
            field_validation,
            format,
            validate: false,
            max_body_size: None,
            resource_version: None,
        };
        let bytes = body(&case);
        let want_errors = &case["strictErrors"];
        let result = match (case["fatal"].as_str(), strict) {
            (Some(fatal), _) => {
                let mode = if strict {
                    FieldValidation::Strict
                } else {
                    FieldValidation::Ignore
                };
                match keep_all.decode(&bytes, &options(mode)) {
                    Err(Error::Rejected(r)) if without_position(&r.cause) == fatal => Ok(()),
                    Err(e) => Err(format!("failed with {e:?}, want {fatal}")),
                    Ok(_) => Err(format!("decoded, want {fatal}")),
                }
            }
            (None, true) => {
                // The strict errors come with Strict, the object with Warn.
                let errors = match keep_all.decode(&bytes, &options(FieldValidation::Strict)) {
                    Ok(_) => json!([]),
                    Err(Error::Rejected(r)) => json!(r.strict_errors),
                    Err(e) => json!(e.to_string()),
                };
                expect_json("strict errors", &errors, want_errors).and_then(|()| {
                    match keep_all.decode(&bytes, &options(FieldValidation::Warn)) {
                        Ok(d) => expect_json("object", &d.object, &normalised(&case["object"])),
                        Err(e) => Err(format!("Warn failed: {e}")),
                    }
                })
            }
            (None, false) => match keep_all.decode(&bytes, &options(FieldValidation::Ignore)) {
                Ok(d) => expect_json("object", &d.object, &normalised(&case["object"])),
                Err(e) => Err(format!("failed: {e}")),
            },
        };
        tally.check(case["name"].as_str().unwrap_or("?"), result);
    }
    assert!(count > 2000, "the fixture has {count} cases");
    tally.finish();
}

/// The Go side stops before the ObjectMeta round trip: metadata comes out of kstruct
/// normalised (this fixture only has plain names there).
fn normalised(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(Value::Null) = object.get("metadata") {
        object["metadata"] = json!({});
    }
    object
}
