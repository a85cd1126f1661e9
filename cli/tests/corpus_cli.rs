//! The corpus conformance suites run through the `kstruct` binary, as users (and our
//! acceptance checks) run it: one `--report` run per CRD, objects picking their version by
//! apiVersion. Skips loudly when ../shared is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn shared() -> Option<PathBuf> {
    let dir = match std::env::var_os("KSTRUCT_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    if dir.join("conformance").is_dir() {
        Some(dir)
    } else {
        announce("*** SKIPPED corpus via the CLI: ../shared (conformance data) not found; set KSTRUCT_SHARED ***");
        None
    }
}

/// Prints past the test harness's output capture, so the line shows in every run.
fn announce(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Runs `kstruct <command> --report --crd <crd>` on every corpus instance of each CRD and
/// compares objects (and, for prune, unknown fields) with the reference's.
fn run(command: &str, file: &str) {
    let Some(shared) = shared() else { return };
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
