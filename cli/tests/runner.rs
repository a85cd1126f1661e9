//! `kstruct compile --crate`: the written crate builds, and its binary (generated code only)
//! reproduces the corpus conformance lines exactly as `kstruct` does:
//!
//! - a runner compiled from corpus CRD files (`--crd`), decoding corpus-decode lines in every
//!   fieldValidation mode;
//! - a runner compiled from hundreds of bare schemas at once (`--schema`, each corpus CRD
//!   version's openAPIV3Schema in its own file), pruning and defaulting the corpus lines.
//!
//! Builds go to `target/runners` (shared by both runners, so dependencies build once). Skips
//! loudly when ../shared is absent.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use kstruct::schema::crd::CustomResourceDefinition;
use kstruct_tests::{CrdCache, announce, decode_report_matches, json_eq, read_jsonl, require_shared};
use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

/// Writes a runner crate with `kstruct compile <args> --crate <dir>` and builds it; returns
/// its binary.
fn build_runner(name: &str, compile_args: &[String]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kstruct-runner-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_kstruct"))
        .arg("compile")
        .args(compile_args)
        .arg("--crate")
        .arg(&dir)
        .arg("--kstruct-path")
        .arg(workspace())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    announce(&format!(
        "runner {name}: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    ));
    // The workspace's lock file: the same dependency versions, no network.
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let target = workspace().join("target/runners");
    let started = std::time::Instant::now();
    let status = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        // What is tested is that the crate builds and answers; debug info of 400,000 generated
        // lines would be most of the build and never read.
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .status()
        .unwrap();
    assert!(status.success(), "building the {name} runner failed");
    announce(&format!("runner {name}: built in {:.1?}", started.elapsed()));
    let bin = dir.file_name().unwrap().to_string_lossy().into_owned();
    target.join("debug").join(bin)
}

fn reports(bin: &Path, args: &[&str], inputs: &[&Value], scratch: &Path) -> Vec<Value> {
    let text: String = inputs.iter().map(|v| format!("{v}\n")).collect();
    let input = scratch.join("input.json");
    std::fs::write(&input, text).unwrap();
    let out = Command::new(bin)
        .args(args)
        .arg("--report")
        .arg(&input)
        .output()
        .unwrap();
    assert!(out.status.code().is_some(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kstruct-runner-scratch-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn crd_runner_reproduces_corpus_decode() {
    let Some(shared) = require_shared("the `kstruct compile --crate` CRD runner") else {
        return;
    };
    let lines = read_jsonl(&shared.join("conformance/corpus-decode.jsonl"));
    let nonstrict = read_jsonl(&shared.join("conformance/corpus-decode-nonstrict.jsonl"));
    // One CRD file per group and kind (and per kind, so that `--kind` names one).
    let mut crds = CrdCache::new(&shared);
    let (mut kinds, mut files) = (BTreeSet::new(), BTreeSet::new());
    for line in &lines {
        let file = line["crd"].as_str().unwrap();
        let crd: &CustomResourceDefinition = crds.get(file);
        if files.contains(file) || kinds.insert(crd.kind.clone()) {
            files.insert(file.to_string());
        }
    }
    let mut args = vec!["--crd".to_string()];
    args.extend(
        files
            .iter()
            .map(|f| shared.join("corpus/crds").join(f).display().to_string()),
    );
    let bin = build_runner("crds", &args);
    let dir = scratch("crds");

    let (mut total, mut failures) = (0, Vec::new());
    for (suite, modes) in [(&lines, &["Warn", "Strict"][..]), (&nonstrict, &["Ignore"][..])] {
        let mut groups: BTreeMap<(String, String), Vec<&Value>> = BTreeMap::new();
        for line in suite.iter().filter(|l| files.contains(l["crd"].as_str().unwrap())) {
            let key = (
                line["crd"].as_str().unwrap().to_string(),
                line["version"].as_str().unwrap().to_string(),
            );
            groups.entry(key).or_default().push(line);
        }
        for ((file, version), group) in &groups {
            let kind = crds.get(file).kind.clone();
            for mode in modes {
                let inputs: Vec<&Value> = group.iter().map(|l| &l["input"]).collect();
                let args = [
                    "decode",
                    "--field-validation",
                    mode,
                    "--version",
                    version,
                    "--kind",
                    &kind,
                ];
                let got = reports(&bin, &args, &inputs, &dir);
                assert_eq!(got.len(), group.len());
                for (want, got) in group.iter().zip(&got) {
                    total += 1;
                    if !decode_report_matches(mode, want, got) {
                        failures.push(format!("{} ({mode}): got {got}", want["instance"]));
                    }
                }
            }
        }
    }
    announce(&format!(
        "conformance corpus-decode via a compiled runner ({} CRD files): {}/{total} match",
        files.len(),
        total - failures.len()
    ));
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn schema_runner_reproduces_corpus_prune_and_default() {
    let Some(shared) = require_shared("the `kstruct compile --crate` bare-schema runner") else {
        return;
    };
    let prune = read_jsonl(&shared.join("conformance/corpus-prune.jsonl"));
    let default = read_jsonl(&shared.join("conformance/corpus-default.jsonl"));
    let mut crds = CrdCache::new(&shared);
    // Every CRD version the lines use, as a bare schema file named <n>.json.
    let dir = scratch("schemas");
    let mut names: BTreeMap<(String, String), String> = BTreeMap::new();
    for line in prune.iter().chain(&default) {
        let key = (
            line["crd"].as_str().unwrap().to_string(),
            line["version"].as_str().unwrap().to_string(),
        );
        if names.contains_key(&key) {
            continue;
        }
        let crd = crds.get(&key.0);
        let schema = crd
            .version(&key.1)
            .and_then(|v| v.schema.clone())
            .unwrap_or(Value::Null);
        let name = format!("schema-{:04}", names.len());
        std::fs::write(dir.join(format!("{name}.json")), schema.to_string()).unwrap();
        names.insert(key, name);
    }
    let mut args = vec!["--schema".to_string()];
    args.extend(
        names
            .values()
            .map(|n| dir.join(format!("{n}.json")).display().to_string()),
    );
    let bin = build_runner("schemas", &args);
    // Several schemas and no --schema-name: a usage error, as `kstruct prune` without --schema.
    let out = Command::new(&bin).args(["prune", "-"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--schema-name"));
    let out = Command::new(&bin)
        .args(["prune", "--schema-name", "nope", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));

    let (mut total, mut failures) = (0, Vec::new());
    for (suite, command) in [(&prune, "prune"), (&default, "default")] {
        let mut groups: BTreeMap<&String, Vec<&Value>> = BTreeMap::new();
        for line in suite.iter() {
            let key = (
                line["crd"].as_str().unwrap().to_string(),
                line["version"].as_str().unwrap().to_string(),
            );
            // A bare schema always gets serve-time default pruning; a CRD that preserves unknown
            // fields does not: `kstruct default --crd` is the command for those.
            if command == "default" && crds.get(&key.0).preserve_unknown_fields {
                continue;
            }
            groups.entry(&names[&key]).or_default().push(line);
        }
        for (name, group) in &groups {
            let inputs: Vec<&Value> = group.iter().map(|l| &l["input"]).collect();
            let got = reports(&bin, &[command, "--schema-name", name], &inputs, &dir);
            assert_eq!(got.len(), group.len());
            for (want, got) in group.iter().zip(&got) {
                total += 1;
                let ok = got["error"].is_null()
                    && json_eq(&got["object"], &want["object"])
                    && (command == "default" || json_eq(&got["unknownFields"], &want["unknownFields"]));
                if !ok {
                    failures.push(format!("{} ({command}): got {got}", want["instance"]));
                }
            }
        }
    }
    announce(&format!(
        "conformance corpus-prune + corpus-default via a compiled runner of {} bare schemas: {}/{total} match",
        names.len(),
        total - failures.len()
    ));
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}
