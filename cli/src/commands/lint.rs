//! `kstruct lint`: what the API server checks when CRDs are created (`kstruct::lint`), or the
//! structural rules on bare schemas.

use std::io::Write;
use std::path::{Path as FsPath, PathBuf};

use kstruct::schema::field::Path;
use kstruct::schema::validation::validate_structural;
use serde_json::Value;

use super::Outcome;
use crate::inputs::{Input, read_file, read_stdin};

/// One linted document and what it got.
struct Linted {
    origin: String,
    line: usize,
    name: String,
    messages: Vec<String>,
}

/// Lints every document of every input; `schema_mode` reads every document as a bare schema.
pub fn run(paths: &[PathBuf], schema_mode: bool) -> Result<Outcome, String> {
    let mut unreadable = 0usize;
    let mut inputs = Vec::new();
    for p in paths {
        match expand(p) {
            Ok(found) => {
                for f in found {
                    match if f.as_os_str() == "-" {
                        read_stdin()
                    } else {
                        read_file(&f)
                    } {
                        Ok(input) => inputs.push(input),
                        Err(e) => {
                            eprintln!("kstruct: {e}");
                            unreadable += 1;
                        }
                    }
                }
            }
            Err(e) => {
                eprintln!("kstruct: {e}");
                unreadable += 1;
            }
        }
    }
    let mut linted = Vec::new();
    for input in &inputs {
        lint_input(input, schema_mode, &mut linted);
    }
    let several = inputs.len() > 1 || linted.len() > 1;
    let mut out = std::io::stdout().lock();
    let mut findings = 0usize;
    for l in &linted {
        if l.messages.is_empty() {
            continue;
        }
        if several {
            writeln!(out, "==> {}:{} ({})", l.origin, l.line, l.name).map_err(|e| e.to_string())?;
        }
        for m in &l.messages {
            findings += 1;
            writeln!(out, "{m}").map_err(|e| e.to_string())?;
        }
    }
    if unreadable > 0 {
        return Err(format!("{unreadable} input(s) could not be read"));
    }
    Ok(if findings == 0 {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}

/// A path as inputs: a directory gives every `.yaml`, `.yml` and `.json` file below it, in
/// path order.
fn expand(p: &FsPath) -> Result<Vec<PathBuf>, String> {
    if p.as_os_str() == "-" || !p.is_dir() {
        return Ok(vec![p.to_path_buf()]);
    }
    let (files, unreadable) = kstruct::input::manifest_files(p, &|_| false);
    match unreadable.into_iter().next() {
        Some((dir, e)) => Err(format!("{}: {e}", dir.display())),
        None => Ok(files),
    }
}

fn lint_input(input: &Input, schema_mode: bool, linted: &mut Vec<Linted>) {
    for doc in kstruct::input::read_documents(&input.bytes, &input.origin) {
        let value = match doc.value {
            Err(e) => {
                linted.push(Linted {
                    origin: input.origin.clone(),
                    line: doc.line,
                    name: "unreadable".into(),
                    messages: vec![e.to_string()],
                });
                continue;
            }
            Ok(v) => v,
        };
        // `kubectl get crd -o yaml` writes a List of CRDs.
        let items = match value.get("items").and_then(Value::as_array) {
            Some(items) if !schema_mode && value.get("kind").and_then(Value::as_str) == Some("List") => items.clone(),
            _ => vec![value],
        };
        for item in items {
            if let Some(l) = lint_document(&item, &input.origin, doc.line, schema_mode) {
                linted.push(l);
            }
        }
    }
}

/// The findings for one document, or `None` when it is skipped (with a note on stderr).
fn lint_document(value: &Value, origin: &str, line: usize, schema_mode: bool) -> Option<Linted> {
    let found = |name: String, messages: Vec<String>| {
        Some(Linted {
            origin: origin.to_string(),
            line,
            name,
            messages,
        })
    };
    if !schema_mode && kstruct::schema::crd::is_crd(value) {
        let name = value
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("unnamed CRD")
            .to_string();
        return match kstruct::lint::lint_crd(value) {
            Ok(errors) => found(name, errors.iter().map(ToString::to_string).collect()),
            Err(e) => found(name, vec![e.to_string()]),
        };
    }
    let is_object =
        value.get("apiVersion").is_some_and(Value::is_string) && value.get("kind").is_some_and(Value::is_string);
    if !schema_mode && is_object {
        eprintln!(
            "kstruct: note: {origin}:{line}: skipping a {} (not a CustomResourceDefinition)",
            value["kind"].as_str().unwrap_or("")
        );
        return None;
    }
    let plausible = value.as_object().is_some_and(|m| {
        !m.is_empty()
            && m.keys()
                .all(|k| kstruct::schema::convert::SCHEMA_KEYS.contains(&k.as_str()))
    });
    if !schema_mode && !plausible {
        eprintln!(
            "kstruct: note: {origin}:{line}: skipping a document that is neither a Kubernetes object nor a \
             schema (use --schema to lint it as a bare openAPIV3Schema)"
        );
        return None;
    }
    let messages = match kstruct::schema::convert::from_value(value) {
        Err(e) => vec![e.to_string()],
        Ok(None) => vec![],
        Ok(Some(schema)) => validate_structural(&Path::nil(), &schema)
            .iter()
            .map(ToString::to_string)
            .collect(),
    };
    found("schema".into(), messages)
}
