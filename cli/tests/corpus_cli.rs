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
