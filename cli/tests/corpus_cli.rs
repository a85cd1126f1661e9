//! The corpus conformance suites run through the `kstruct` binary, as users (and our
//! acceptance checks) run it: one `--report` run per CRD, objects picking their version by
//! apiVersion. Skips loudly when ../shared is absent.

use std::collections::BTreeMap;
use std::process::Command;

use kstruct_tests::{announce, json_eq, require_shared};
use serde_json::Value;

/// Runs `kstruct <command> --report --crd <crd>` on every corpus instance of each CRD and
/// compares objects (and, for prune, unknown fields) with the reference's.
fn run(command: &str, file: &str) {
    let Some(shared) = require_shared(&format!("{file} via the CLI")) else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("conformance").join(file)).unwrap();
    let mut by_crd: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        by_crd
            .entry(v["crd"].as_str().unwrap().to_string())
            .or_default()
            .push(v);
    }
    let dir = std::env::temp_dir().join(format!("kstruct-corpus-cli-{}-{command}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut total, mut failures) = (0, Vec::new());
    for (crd, lines) in &by_crd {
        let input: String = lines.iter().map(|l| format!("{}\n", l["input"])).collect();
        let input_path = dir.join("input.json");
        std::fs::write(&input_path, input).unwrap();
        let crd_path = shared.join("corpus/crds").join(crd);
        let out = Command::new(env!("CARGO_BIN_EXE_kstruct"))
            .args([command, "--report", "--crd"])
            .arg(&crd_path)
            .arg(&input_path)
            .output()
            .unwrap();
        let reports: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            reports.len(),
            lines.len(),
            "{crd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for (want, got) in lines.iter().zip(&reports) {
            total += 1;
            let unknown_ok = command != "prune" || json_eq(&got["unknownFields"], &want["unknownFields"]);
            if !json_eq(&got["object"], &want["object"]) || !unknown_ok || !got["error"].is_null() {
                failures.push(format!("{}: got {got}", want["instance"]));
            }
        }
    }
    announce(&format!(
        "conformance {file} via `kstruct {command}`: {}/{total} match",
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
fn corpus_prune_through_the_cli() {
    run("prune", "corpus-prune.jsonl");
}

#[test]
fn corpus_default_through_the_cli() {
    run("default", "corpus-default.jsonl");
}

/// Runs `kstruct decode --report --crd <crd> --version <v> --field-validation <mode>` on the
/// corpus instances of each CRD version (registered alone, as the reference ran them).
fn run_decode(file: &str, mode: &str) {
    let Some(shared) = require_shared(&format!("{file} via `kstruct decode --field-validation {mode}`")) else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("conformance").join(file)).unwrap();
    let mut by_crd: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let key = (
            v["crd"].as_str().unwrap().to_string(),
            v["version"].as_str().unwrap().to_string(),
        );
        by_crd.entry(key).or_default().push(v);
    }
    let dir = std::env::temp_dir().join(format!("kstruct-corpus-cli-{}-decode-{mode}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut total, mut failures) = (0, Vec::new());
    for ((crd, version), lines) in &by_crd {
        let input: String = lines.iter().map(|l| format!("{}\n", l["input"])).collect();
        let input_path = dir.join("input.json");
        std::fs::write(&input_path, input).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_kstruct"))
            .args([
                "decode",
                "--report",
                "--field-validation",
                mode,
                "--version",
                version,
                "--crd",
            ])
            .arg(shared.join("corpus/crds").join(crd))
            .arg(&input_path)
            .output()
            .unwrap();
        let reports: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            reports.len(),
            lines.len(),
            "{crd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for (want, got) in lines.iter().zip(&reports) {
            total += 1;
            let ok = match (mode, want["strictError"].as_str()) {
                ("Strict", Some(strict)) => {
                    let input = &want["input"];
                    let version = input["apiVersion"]
                        .as_str()
                        .unwrap_or("")
                        .rsplit('/')
                        .next()
                        .unwrap_or("");
                    let message = format!(
                        "{} in version \"{version}\" cannot be handled as a {}: {strict}",
                        input["kind"].as_str().unwrap_or(""),
                        want["kind"].as_str().unwrap_or("")
                    );
                    got["object"].is_null() && got["error"] == message.as_str()
                }
                _ => {
                    let (warnings, unknown) = match mode {
                        "Warn" => (&want["strictErrors"], &want["unknownFields"]),
                        _ => (&Value::Array(vec![]), &Value::Array(vec![])),
                    };
                    got["error"].is_null()
                        && json_eq(&got["object"], &want["object"])
                        && json_eq(&got["warnings"], warnings)
                        && json_eq(&got["unknownFields"], unknown)
                }
            };
            if !ok {
                failures.push(format!("{}: got {got}", want["instance"]));
            }
        }
    }
    announce(&format!(
        "conformance {file} via `kstruct decode --field-validation {mode}`: {}/{total} match",
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
fn corpus_decode_warn_through_the_cli() {
    run_decode("corpus-decode.jsonl", "Warn");
}

#[test]
fn corpus_decode_strict_through_the_cli() {
    run_decode("corpus-decode.jsonl", "Strict");
}

#[test]
fn corpus_decode_ignore_through_the_cli() {
    run_decode("corpus-decode-nonstrict.jsonl", "Ignore");
}
