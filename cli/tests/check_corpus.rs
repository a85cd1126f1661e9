//! `kstruct check` on the real corpus (../shared/corpus): per project, CRDs and instances as a
//! repository would hold them, against the reference's corpus-decode.jsonl. Every unknown
//! field must be reported at the line and column of its key in the instance file, nothing
//! else may be flagged but what the API server would also refuse, and the corpus' repeated
//! CRDs must be listed as errors when all projects are checked at once. Skips loudly when
//! ../shared is absent.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

use kstruct_tests::{announce, require_shared};
use serde_json::Value;

fn check_json(args: &[&Path], dir: &Path) -> Vec<Value> {
    check_json_with(args, dir, false)
}

fn check_json_with(args: &[&Path], dir: &Path, validate: bool) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_kstruct"))
        .current_dir(dir)
        .arg("check")
        .args(["-o", "json"])
        .args(if validate { &[][..] } else { &["--skip-validation"][..] })
        .args(args)
        .output()
        .expect("run kstruct check");
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn read_yaml(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    let mut docs = kstruct::input::read_documents(&bytes, &path.display().to_string());
    docs.remove(0).value.unwrap()
}

/// Whether the text at (line, column) of `file` is the key `key` (bare or quoted).
fn key_at(file: &Path, line: u64, column: u64, key: &str) -> bool {
    let text = std::fs::read_to_string(file).unwrap();
    let Some(l) = text.lines().nth(line as usize - 1) else {
        return false;
    };
    let rest: String = l.chars().skip(column as usize - 1).collect();
    rest.starts_with(key) || rest.starts_with(&format!("\"{key}\"")) || rest.starts_with(&format!("'{key}'"))
}

/// The key an unknown-field path ends with (`spec.a[0].b` -> `b`).
fn last_key(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

#[test]
fn check_reports_the_corpus_unknown_fields_where_they_are_written() {
    let Some(shared) = require_shared("kstruct check on the corpus") else {
        return;
    };
    let corpus = shared.join("corpus");
    let expected: HashMap<String, Value> = kstruct_tests::read_jsonl(&shared.join("conformance/corpus-decode.jsonl"))
        .into_iter()
        .map(|v| (format!("instances/{}", v["instance"].as_str().unwrap()), v))
        .collect();
    let mut projects: Vec<String> = std::fs::read_dir(corpus.join("instances"))
        .unwrap()
        .filter_map(|e| {
            let e = e.unwrap();
            e.path().is_dir().then(|| e.file_name().to_string_lossy().into_owned())
        })
        .collect();
    projects.sort();
    let (mut instances, mut located, mut unserved, mut yaml_dups) = (0, 0, 0, 0);
    for project in &projects {
        let crds = Path::new("crds").join(project);
        let inst = Path::new("instances").join(project);
        let lines = check_json(&[Path::new("--crds"), &crds, &inst], &corpus);
        let (last, lines) = lines.split_last().unwrap();
        assert_eq!(last["summary"]["documents"].as_u64().unwrap() as usize, lines.len());
        for got in lines.iter().filter(|l| l["kind"] != "CustomResourceDefinition") {
            let file = got["file"].as_str().unwrap();
            let want = expected
                .get(file)
                .unwrap_or_else(|| panic!("{file}: not in corpus-decode.jsonl"));
            instances += 1;
            let mut got_paths: Vec<&str> = got["unknownFields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u["path"].as_str().unwrap())
                .collect();
            got_paths.sort();
            let mut want_paths: Vec<&str> = want["unknownFields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u.as_str().unwrap())
                .collect();
            want_paths.sort();
            assert_eq!(got_paths, want_paths, "{file}: unknown fields");
            for u in got["unknownFields"].as_array().unwrap() {
                let path = u["path"].as_str().unwrap();
                let (line, column) = (u["line"].as_u64().unwrap(), u["column"].as_u64().unwrap());
                assert!(
                    key_at(&corpus.join(file), line, column, last_key(path)),
                    "{file}:{line}:{column}: not the key of {path}"
                );
                located += 1;
            }
            let message = got["messages"].get(0).and_then(Value::as_str).unwrap_or_default();
            let reference_refuses = !want["error"].is_null() || !want["strictError"].is_null();
            if got["outcome"] == "error" && !reference_refuses {
                // Only what the API server would also refuse: a version the CRD does not serve
                // (the reference decoded these regardless), or a YAML body with repeated keys
                // (the reference decoded the converted JSON; its YAML conversion says why).
                if let Some(yaml) = want.pointer("/yamlConversion/yamlStrictError").and_then(Value::as_str) {
                    assert!(
                        message.ends_with(&format!("strict decoding error: {yaml}")),
                        "{file}: {message}"
                    );
                    assert!(
                        !got["duplicateFields"].as_array().unwrap().is_empty(),
                        "{file}: duplicates listed"
                    );
                    yaml_dups += 1;
                } else {
                    let crd = read_yaml(&corpus.join("crds").join(want["crd"].as_str().unwrap()));
                    let version = want["version"].as_str().unwrap();
                    let served = crd["spec"]["versions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|v| v["name"] == version)
                        .map(|v| v["served"] == true);
                    assert_eq!(
                        served,
                        Some(false),
                        "{file}: flagged, but the reference accepts it: {message}"
                    );
                    assert_eq!(
                        message,
                        format!(
                            "no matches for kind {:?} in version \"{}/{version}\"",
                            want["kind"].as_str().unwrap(),
                            want["group"].as_str().unwrap()
                        )
                    );
                    unserved += 1;
                }
            } else {
                assert_eq!(got["outcome"] == "error", reference_refuses, "{file}: {message}");
            }
        }
    }
    assert_eq!(instances, expected.len(), "every instance checked once");
    announce(&format!(
        "kstruct check, corpus: {instances} instances in {} projects; {located} unknown fields, each at its key's line and column; \
         flagged besides: {unserved} objects of unserved versions, {yaml_dups} YAML bodies with repeated keys",
        projects.len()
    ));
}

#[test]
fn check_lists_repeated_crds_of_the_whole_corpus() {
    let Some(shared) = require_shared("kstruct check on the whole corpus") else {
        return;
    };
    let corpus = shared.join("corpus");
    // Group and kind of every CRD file, in path order.
    let mut by_kind: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let lines = check_json(
        &[Path::new("--crds"), Path::new("crds"), Path::new("instances")],
        &corpus,
    );
    for l in lines.iter().filter(|l| l["kind"] == "CustomResourceDefinition") {
        let file = l["file"].as_str().unwrap();
        let crd = read_yaml(&corpus.join(file));
        let key = (
            crd["spec"]["group"].as_str().unwrap().to_string(),
            crd["spec"]["names"]["kind"].as_str().unwrap().to_string(),
        );
        by_kind.entry(key).or_default().push(file.to_string());
    }
    let repeats: usize = by_kind.values().map(|f| f.len() - 1).sum();
    let flagged: Vec<&Value> = lines
        .iter()
        .filter(|l| {
            l["messages"].as_array().is_some_and(|m| {
                m.iter()
                    .any(|m| m.as_str().unwrap().starts_with("a CustomResourceDefinition for kind"))
            })
        })
        .collect();
    assert_eq!(flagged.len(), repeats);
    for l in &flagged {
        let file = l["file"].as_str().unwrap();
        let (key, files) = by_kind.iter().find(|(_, f)| f.iter().any(|f| f == file)).unwrap();
        let first = &files[0];
        assert_ne!(first, file);
        let message = l["messages"].as_array().unwrap().last().unwrap().as_str().unwrap();
        assert!(
            message.contains(&format!(
                "kind {:?} in group {:?} is already defined at {first}:",
                key.1, key.0
            )),
            "{file}: {message}"
        );
    }
    announce(&format!(
        "kstruct check, whole corpus at once: {} CRD files, {} group/kinds declared more than once, {repeats} repeats listed as errors",
        by_kind.values().map(Vec::len).sum::<usize>(),
        by_kind.values().filter(|f| f.len() > 1).count()
    ));
}

#[test]
fn validation_on_the_corpus_keeps_decoding_and_locates_its_errors() {
    let Some(shared) = require_shared("kstruct check with validation on the corpus") else {
        return;
    };
    let corpus = shared.join("corpus");
    let mut projects: Vec<String> = std::fs::read_dir(corpus.join("instances"))
        .unwrap()
        .filter_map(|e| {
            let e = e.unwrap();
            e.path().is_dir().then(|| e.file_name().to_string_lossy().into_owned())
        })
        .collect();
    projects.sort();
    let (mut refused, mut errors, mut located, mut templates) = (0, 0, 0, 0);
    for project in &projects {
        let crds = Path::new("crds").join(project);
        let inst = Path::new("instances").join(project);
        let args = [Path::new("--crds"), &crds, &inst];
        let plain = check_json(&args, &corpus);
        let validated = check_json_with(&args, &corpus, true);
        assert_eq!(plain.len(), validated.len());
        for (p, v) in plain.iter().zip(&validated) {
            if p.get("summary").is_some() {
                assert_eq!(v["summary"]["valueValidation"], true);
                continue;
            }
            // Validation comes after decoding: what decoding found stays.
            assert_eq!(p["unknownFields"], v["unknownFields"], "{}", p["file"]);
            assert_eq!(p["duplicateFields"], v["duplicateFields"], "{}", p["file"]);
            let errs = v["validationErrors"].as_array().unwrap();
            if errs.is_empty() {
                continue;
            }
            refused += 1;
            assert_eq!(
                p["outcome"], "ok",
                "{}: refused by decoding and by validation",
                p["file"]
            );
            let message = v["messages"][0].as_str().unwrap();
            assert!(message.contains(" is invalid: "), "{message}");
            let file = corpus.join(v["file"].as_str().unwrap());
            if std::fs::read_to_string(&file).unwrap().contains("${") {
                templates += 1;
            }
            for e in errs {
                errors += 1;
                let path = e["path"].as_str().unwrap();
                assert!(message.contains(e["message"].as_str().unwrap()), "{message}");
                if e["line"].is_u64() {
                    located += 1;
                } else {
                    assert!(path == "<nil>" || !e["message"].as_str().unwrap().is_empty());
                }
            }
        }
    }
    announce(&format!(
        "kstruct check with validation, corpus: {refused} of the instances refused ({templates} of them templates with ${{VAR}} placeholders), \
         {errors} validation errors, {located} located at a line and column"
    ));
}
