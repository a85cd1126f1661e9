//! The byte walk ([`kstruct::scan`]) on the corpus: every body it answers must give the
//! reference's object and reports (../shared/conformance/corpus-decode*.jsonl), and the bytes
//! of kstruct's `Value` path; the bodies it leaves must be the ones it is meant to leave. The
//! walk to a `Value` must give the `Value` path's `Decoded`.

use kstruct::schema::go::{marshal_json, write_string};
use kstruct::{DecodeOptions, FieldValidation};
use kstruct_tests::{CrdCache, Tally, expect_json, read_jsonl, require_shared};
use serde_json::{Value, json};

/// `v` as a client might send it: keys in reverse order, spaced and indented.
fn reversed(v: &Value, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent + 1);
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, item)) in m.iter().rev().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                out.push_str(&pad);
                write_string(out, k);
                out.push_str(" : ");
                reversed(item, indent + 1, out);
            }
            out.push_str(" }");
        }
        Value::Array(items) if !items.is_empty() => {
            out.push_str("[ ");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                reversed(item, indent + 1, out);
            }
            out.push(']');
        }
        other => out.push_str(&marshal_json(other)),
    }
}

fn check(file: &str, mode: FieldValidation) {
    let Some(shared) = require_shared(&format!("scan {file}")) else {
        return;
    };
    let lines = read_jsonl(&shared.join("conformance").join(file));
    let mut crds = CrdCache::new(&shared);
    let mut tally = Tally::new(&format!("scan {file} ({mode:?})"));
    let (mut answered, mut left, mut compiled_walked, mut valued) = (0, 0, 0, 0);
    let options = DecodeOptions {
        field_validation: mode,
        ..DecodeOptions::default()
    };
    for line in &lines {
        let crd = crds.for_line(line);
        let id = line["instance"].as_str().unwrap_or("?");
        let mut spaced = String::new();
        reversed(&line["input"], 0, &mut spaced);
        for body in [marshal_json(&line["input"]), spaced] {
            let mut out = Vec::new();
            let Some(report) = kstruct::scan::try_request_bytes(&*crd, body.as_bytes(), &options, &mut out) else {
                left += 1;
                continue;
            };
            answered += 1;
            // Compiled code walks by the same plan, held as static data.
            if let Some(registry) = kstruct_tests::compiled::corpus(line["crd"].as_str().unwrap_or("")) {
                let mut compiled = Vec::new();
                let again = kstruct::scan::try_request_bytes(registry, body.as_bytes(), &options, &mut compiled);
                tally.check(
                    format!("{id} (compiled)"),
                    match again {
                        Some(r) if compiled == out && r == report => Ok(()),
                        Some(_) => Err("the compiled plan answers differently".to_string()),
                        None => Err("the compiled plan leaves it".to_string()),
                    },
                );
                compiled_walked += 1;
            }
            let spec = kstruct::decode::request_by_value(&*crd, body.as_bytes(), &options, None)
                .expect("the Value path decodes it");
            // The walk for a `Value` answers as the `Value` path does, when it answers.
            match kstruct::scan::try_request_value(&*crd, body.as_bytes(), &options, None) {
                Some(Ok(v)) => {
                    valued += 1;
                    tally.check(
                        format!("{id} (Value)"),
                        match v == spec {
                            true => Ok(()),
                            false => Err(format!("the walk's Value differs\n   got: {v:?}\n  want: {spec:?}")),
                        },
                    );
                }
                Some(Err(e)) => tally.check(format!("{id} (Value)"), Err(format!("the walk's Value fails: {e}"))),
                None => {}
            }
            // As a create: the walked object validated as the `Value` path's is, with the same
            // answer, refusals included.
            let create = DecodeOptions {
                validate: true,
                ..options
            };
            if let Some(walked) = kstruct::scan::try_request_value(&*crd, body.as_bytes(), &create, None) {
                let spec = kstruct::decode::request_by_value(&*crd, body.as_bytes(), &create, None);
                let same = match (&walked, &spec) {
                    (Ok(a), Ok(b)) => a == b,
                    (Err(a), Err(b)) => a.to_string() == b.to_string(),
                    _ => false,
                };
                tally.check(
                    format!("{id} (create)"),
                    match same {
                        true => Ok(()),
                        false => Err(format!(
                            "the walked create differs\n   got: {walked:?}\n  want: {spec:?}"
                        )),
                    },
                );
            }
            let text = String::from_utf8(out).expect("UTF-8");
            let result = if text != marshal_json(&spec.object) {
                Err(format!("bytes differ from the Value path's\n   got: {text}"))
            } else {
                let object: Value = serde_json::from_str(&text).expect("JSON");
                let warned = mode == FieldValidation::Warn;
                expect_json("object", &object, &line["object"]).and_then(|()| match warned {
                    true => expect_json("unknownFields", &json!(report.unknown_fields), &line["unknownFields"])
                        .and_then(|()| expect_json("warnings", &json!(report.warnings), &line["strictErrors"])),
                    false => expect_json(
                        "reports",
                        &json!([report.warnings, report.unknown_fields]),
                        &json!([[], []]),
                    ),
                })
            };
            tally.check(id, result);
        }
    }
    kstruct_tests::announce(&format!(
        "scan {file} ({mode:?}): {answered} bodies walked ({compiled_walked} also by compiled plans, {valued} also to a Value), {left} left to the Value path"
    ));
    tally.finish();
    // The walk is the common path: the corpus must overwhelmingly take it.
    if !lines.is_empty() {
        assert!(
            answered * 10 >= (answered + left) * 9,
            "only {answered} of {} walked",
            answered + left
        );
        assert!(
            valued * 10 >= answered * 9,
            "only {valued} of {answered} walked to a Value"
        );
    }
}

#[test]
fn corpus_walk_warn() {
    check("corpus-decode.jsonl", FieldValidation::Warn);
}

#[test]
fn corpus_walk_ignore() {
    check("corpus-decode-nonstrict.jsonl", FieldValidation::Ignore);
}
