//! The decoding suites: the API server's write path over the corpus
//! (../shared/conformance/corpus-decode*.jsonl) and the upstream fieldValidation e2e bodies.

use std::path::PathBuf;

use kstruct::DecodeExt;
use kstruct::schema::go::marshal_json;
use kstruct::{DecodeOptions, Error, FieldValidation};
use kstruct_tests::{CrdCache, Tally, expect_json, read_jsonl, require_shared};
use serde_json::{Value, json};

fn options(field_validation: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation,
        ..DecodeOptions::default()
    }
}

/// A corpus file's 1,301 lines and a cache of the CRDs they name; `None` (announced) without
/// ../shared.
fn corpus(file: &str) -> Option<(PathBuf, Vec<Value>, CrdCache)> {
    let shared = require_shared(&format!("corpus {file}"))?;
    let lines = read_jsonl(&shared.join("conformance").join(file));
    assert_eq!(lines.len(), 1301, "{file}");
    let crds = CrdCache::new(&shared);
    Some((shared, lines, crds))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default()
}

/// Warn: the object, each strict error as a warning, the unknown and duplicate paths.
/// Strict: the same object when there is no strict error, else the API server's message.
#[test]
fn corpus_decode_strict() {
    let Some((_, lines, mut crds)) = corpus("corpus-decode.jsonl") else {
        return;
    };
    let mut warn_tally = Tally::new("corpus-decode (Warn)");
    let mut strict_tally = Tally::new("corpus-decode (Strict)");
    for line in &lines {
        let crd = crds.for_line(line);
        let id = line["instance"].as_str().unwrap_or("?");
        let body = marshal_json(&line["input"]);
        assert!(line["error"].is_null(), "{id}: the corpus has no fatal errors");

        let warned = crd.decode(body.as_bytes(), &options(FieldValidation::Warn));
        let result = match warned {
            Err(e) => Err(format!("failed: {e}")),
            Ok(d) => expect_json("object", &d.object, &line["object"])
                .and_then(|()| expect_json("warnings", &json!(d.warnings), &line["strictErrors"]))
                .and_then(|()| expect_json("unknownFields", &json!(d.unknown_fields), &line["unknownFields"]))
                .and_then(|()| expect_json("duplicateFields", &json!(d.duplicate_fields), &line["duplicateFields"])),
        };
        warn_tally.check(id, result);

        let strict = crd.decode(body.as_bytes(), &options(FieldValidation::Strict));
        let result = match (strict, line["strictError"].as_str()) {
            (Ok(d), None) => expect_json("object", &d.object, &line["object"]),
            (Ok(_), Some(want)) => Err(format!("decoded, but the reference failed with {want}")),
            (Err(Error::Rejected(r)), Some(want)) => {
                let kind = line["input"]["kind"].as_str().unwrap_or("");
                let api_version = line["input"]["apiVersion"].as_str().unwrap_or("");
                let version = api_version.rsplit('/').next().unwrap_or("");
                let message = format!(
                    "{kind} in version \"{version}\" cannot be handled as a {}: {want}",
                    line["kind"].as_str().unwrap_or("")
                );
                if r.message == message && r.strict_errors == strings(&line["strictErrors"]) {
                    Ok(())
                } else {
                    Err(format!("message differs\n   got: {}\n  want: {message}", r.message))
                }
            }
            (Err(e), _) => Err(format!("failed: {e}")),
        };
        strict_tally.check(id, result);
    }
    warn_tally.finish();
    strict_tally.finish();
}

/// Ignore: the object only; nothing is reported.
#[test]
fn corpus_decode_ignore() {
    let Some((_, lines, mut crds)) = corpus("corpus-decode-nonstrict.jsonl") else {
        return;
    };
    let mut tally = Tally::new("corpus-decode-nonstrict (Ignore)");
    for line in &lines {
        let crd = crds.for_line(line);
        let id = line["instance"].as_str().unwrap_or("?");
        let body = marshal_json(&line["input"]);
        let result = match crd.decode(body.as_bytes(), &options(FieldValidation::Ignore)) {
            Err(e) => Err(format!("failed: {e}")),
            Ok(d) if !d.warnings.is_empty() || !d.unknown_fields.is_empty() => {
                Err(format!("reported {:?} {:?}", d.warnings, d.unknown_fields))
            }
            Ok(d) => expect_json("object", &d.object, &line["object"]),
        };
        tally.check(id, result);
    }
    tally.finish();
}

/// The two corpus instances whose YAML repeats keys, sent as YAML: the duplicate-key error
/// comes first, and under Warn it is one warning per line.
#[test]
fn corpus_yaml_duplicates() {
    let Some((shared, lines, mut crds)) = corpus("corpus-decode.jsonl") else {
        return;
    };
    let mut tally = Tally::new("corpus-decode YAML duplicate keys");
    for line in lines.iter().filter(|l| !l["yamlConversion"].is_null()) {
        let crd = crds.for_line(line);
        let id = line["instance"].as_str().unwrap_or("?");
        let body = std::fs::read(shared.join("corpus/instances").join(id)).expect("instance");
        let yaml_error = line["yamlConversion"]["yamlStrictError"].as_str().unwrap();
        let mut want_errors = vec![yaml_error.to_string()];
        want_errors.extend(strings(&line["strictErrors"]));
        let result = match crd.decode(&body, &options(FieldValidation::Strict)) {
            Err(Error::Rejected(r)) if r.strict_errors == want_errors => Ok(()),
            Err(e) => Err(format!("failed: {e}")),
            Ok(_) => Err("decoded without the YAML duplicate-key error".to_string()),
        };
        let result = result.and_then(|()| match crd.decode(&body, &options(FieldValidation::Warn)) {
            Err(e) => Err(format!("failed: {e}")),
            Ok(d) => {
                let mut want: Vec<String> = yaml_error.lines().skip(1).map(|l| l.trim().to_string()).collect();
                want.extend(strings(&line["strictErrors"]));
                expect_json("warnings", &json!(d.warnings), &json!(want))
                    .and_then(|()| expect_json("object", &d.object, &line["object"]))
            }
        });
        tally.check(id, result);
    }
    tally.finish();
}

/// kubernetes/kubernetes' field-validation integration test bodies, decoded exactly.
#[test]
fn upstream_field_validation_e2e() {
    let Some(shared) = require_shared("upstream fieldvalidation_e2e.jsonl") else {
        return;
    };
    let lines = read_jsonl(&shared.join("conformance/upstream/fieldvalidation_e2e.jsonl"));
    let mut tally = Tally::new("upstream fieldvalidation_e2e");
    for (i, line) in lines.iter().enumerate() {
        let schema = kstruct::schema::convert::from_value(&line["schema"]).expect("schema");
        let pipeline = kstruct::Interpreter::new(schema).with_resource(kstruct::GroupVersionKind::new(
            "schema.example.com",
            "v1",
            "Noxu",
        ));
        let mode = match line["fieldValidation"].as_str() {
            Some("Strict") => FieldValidation::Strict,
            Some("Warn") => FieldValidation::Warn,
            other => panic!("fieldValidation {other:?}"),
        };
        let body = line["body"].as_str().expect("body");
        let result = match (pipeline.decode(body.as_bytes(), &options(mode)), mode) {
            (Err(Error::Rejected(r)), FieldValidation::Strict) => {
                let want = line["expectedErrorSuffix"].as_str().unwrap_or("");
                if r.message.ends_with(want)
                    && r.message
                        .starts_with("Noxu in version \"v1\" cannot be handled as a Noxu: ")
                {
                    Ok(())
                } else {
                    Err(format!("message differs\n   got: {}\n  want: ...{want}", r.message))
                }
            }
            (Ok(d), FieldValidation::Warn) => expect_json("warnings", &json!(d.warnings), &line["expectedWarnings"]),
            (Ok(_), _) => Err("decoded without error".to_string()),
            (Err(e), _) => Err(format!("failed: {e}")),
        };
        tally.check(format!("line {i}"), result);
    }
    tally.finish();
}
