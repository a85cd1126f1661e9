//! The corpus suites (../shared/conformance/corpus-*.jsonl): what the reference did with 317
//! real CRDs and 1,301 real instances, reproduced by kstruct.

use kstruct::interpreter::{default, prune};
use kstruct::schema::field::Path;
use kstruct::schema::validation::validate_structural;
use kstruct_tests::{CrdCache, Tally, expect_json, read_jsonl, require_shared};
use serde_json::{Value, json};

fn lines(file: &str) -> Option<(Vec<Value>, CrdCache)> {
    let shared = require_shared(&format!("corpus {file}"))?;
    let lines = read_jsonl(&shared.join("conformance").join(file));
    assert!(!lines.is_empty(), "{file} is empty");
    Some((lines, CrdCache::new(&shared)))
}

fn id(line: &Value) -> String {
    match line.get("instance") {
        Some(i) => i.as_str().unwrap_or("?").to_string(),
        None => format!(
            "{} {}",
            line["crd"].as_str().unwrap_or("?"),
            line["version"].as_str().unwrap_or("?")
        ),
    }
}

#[test]
fn structural() {
    let Some((lines, mut crds)) = lines("corpus-structural.jsonl") else {
        return;
    };
    let mut tally = Tally::new("corpus-structural");
    for line in &lines {
        let crd = crds.get(line["crd"].as_str().expect("crd"));
        let version = crd
            .version(line["version"].as_str().expect("version"))
            .expect("version in CRD");
        let result = match version.structural() {
            Err(e) => match line["newStructuralError"].as_str() {
                Some(want) if want == e.to_string() => Ok(()),
                _ => Err(format!("conversion failed: {e}")),
            },
            Ok(schema) => {
                let got: Vec<String> = schema
                    .as_ref()
                    .map(|s| {
                        validate_structural(&Path::nil(), s)
                            .iter()
                            .map(ToString::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                if line["newStructuralError"].is_null() {
                    expect_json("messages", &json!(got), &line["errors"])
                } else {
                    Err(format!(
                        "converted, but the reference failed with {}",
                        line["newStructuralError"]
                    ))
                }
            }
        };
        tally.check(id(line), result);
    }
    tally.finish();
}

#[test]
fn prune_instances() {
    let Some((lines, mut crds)) = lines("corpus-prune.jsonl") else {
        return;
    };
    let mut tally = Tally::new("corpus-prune");
    for line in &lines {
        let schema = crds.schema(
            line["crd"].as_str().expect("crd"),
            line["version"].as_str().expect("version"),
            false,
        );
        let mut obj = line["input"].clone();
        let root = line["root"].as_bool().unwrap_or(true);
        let unknown = prune(&mut obj, schema.as_deref(), root, true);
        let result = expect_json("object", &obj, &line["object"])
            .and_then(|()| expect_json("unknown fields", &json!(unknown), &line["unknownFields"]));
        tally.check(id(line), result);
    }
    tally.finish();
}

#[test]
fn default_instances() {
    let Some((lines, mut crds)) = lines("corpus-default.jsonl") else {
        return;
    };
    let mut tally = Tally::new("corpus-default");
    for line in &lines {
        let served = line["pruneDefaults"] == true;
        let schema = crds.schema(
            line["crd"].as_str().expect("crd"),
            line["version"].as_str().expect("version"),
            served,
        );
        let mut obj = line["input"].clone();
        default(&mut obj, schema.as_deref());
        tally.check(id(line), expect_json("object", &obj, &line["object"]));
    }
    tally.finish();
}
