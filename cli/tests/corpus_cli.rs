//! The corpus conformance suites run through the `kstruct` binary, as users (and our
//! acceptance checks) run it: one `--report` run per CRD (per CRD version for `decode`),
//! objects picking their version by apiVersion. Skips loudly when ../shared is absent.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use kstruct_tests::{announce, decode_report_matches, json_eq, require_shared};
use serde_json::Value;

/// Runs `kstruct <args> --report --crd <crd> <inputs>` for each group of corpus lines (grouped
/// by `group_of`), and checks each report with `check(reference line, report)`.
fn run(
    file: &str,
    what: &str,
    group_of: impl Fn(&Value) -> (String, Vec<String>),
    check: impl Fn(&Value, &Value) -> bool,
) {
    let Some(shared) = require_shared(&format!("{file} via `kstruct {what}`")) else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("conformance").join(file)).unwrap();
    let mut groups: BTreeMap<(String, Vec<String>), Vec<Value>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        groups.entry(group_of(&v)).or_default().push(v);
    }
    let tag: String = what.chars().filter(char::is_ascii_alphanumeric).collect();
    let dir = std::env::temp_dir().join(format!("kstruct-corpus-cli-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut total, mut failures) = (0, Vec::new());
    for ((crd, args), lines) in &groups {
        let input: String = lines.iter().map(|l| format!("{}\n", l["input"])).collect();
        let input_path = dir.join("input.json");
        std::fs::write(&input_path, input).unwrap();
        let reports = reports(args, &shared.join("corpus/crds").join(crd), &input_path);
        assert_eq!(reports.len(), lines.len(), "{crd}: one report per instance");
        for (want, got) in lines.iter().zip(&reports) {
            total += 1;
            if !check(want, got) {
                failures.push(format!("{}: got {got}", want["instance"]));
            }
        }
    }
    announce(&format!(
        "conformance {file} via `kstruct {what}`: {}/{total} match",
        total - failures.len()
    ));
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

fn reports(args: &[String], crd: &Path, input: &Path) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_kstruct"))
        .args(args)
        .args(["--report", "--crd"])
        .arg(crd)
        .arg(input)
        .output()
        .unwrap();
    assert!(out.status.code().is_some(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn by_crd(command: &'static str) -> impl Fn(&Value) -> (String, Vec<String>) {
    move |v| (v["crd"].as_str().unwrap().to_string(), vec![command.to_string()])
}

#[test]
fn corpus_prune_through_the_cli() {
    run("corpus-prune.jsonl", "prune", by_crd("prune"), |want, got| {
        got["error"].is_null()
            && json_eq(&got["object"], &want["object"])
            && json_eq(&got["unknownFields"], &want["unknownFields"])
    });
}

#[test]
fn corpus_default_through_the_cli() {
    run("corpus-default.jsonl", "default", by_crd("default"), |want, got| {
        got["error"].is_null() && json_eq(&got["object"], &want["object"])
    });
}

/// `kstruct decode --field-validation <mode> --version <v>`: each CRD version registered alone,
/// as the reference ran them.
fn decode(file: &str, mode: &'static str) {
    let group_of = move |v: &Value| {
        let version = v["version"].as_str().unwrap().to_string();
        let args = ["decode", "--field-validation", mode, "--version", &version].map(String::from);
        (v["crd"].as_str().unwrap().to_string(), args.to_vec())
    };
    let check = move |want: &Value, got: &Value| decode_report_matches(mode, want, got);
    run(file, &format!("decode --field-validation {mode}"), group_of, check);
}

#[test]
fn corpus_decode_warn_through_the_cli() {
    decode("corpus-decode.jsonl", "Warn");
}

#[test]
fn corpus_decode_strict_through_the_cli() {
    decode("corpus-decode.jsonl", "Strict");
}

#[test]
fn corpus_decode_ignore_through_the_cli() {
    decode("corpus-decode-nonstrict.jsonl", "Ignore");
}
