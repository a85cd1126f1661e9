//! `kstruct lint`: structural validation of CRDs and bare schemas.

use std::io::Write;
use std::path::PathBuf;

use kstruct::schema::crd::{self, CustomResourceDefinition};
use kstruct::schema::field::{BadValue, FieldError, Path};
use kstruct::schema::validation::validate_structural;
use serde_json::Value;

use super::Outcome;
use crate::inputs::read_file;

/// Prints every finding of every document of every file, one per line.
pub fn run(files: &[PathBuf]) -> Result<Outcome, String> {
    let inputs = files.iter().map(|f| read_file(f)).collect::<Result<Vec<_>, _>>()?;
    let mut out = std::io::stdout().lock();
    let mut findings = 0usize;
    for input in &inputs {
        for doc in kstruct::input::read_documents(&input.bytes, &input.origin) {
            let messages = match doc.value {
                Err(e) => vec![e.to_string()],
                Ok(value) => lint_document(&value, &input.origin, doc.line),
            };
            for m in messages {
                findings += 1;
                writeln!(out, "{m}").map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(if findings == 0 {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}

/// The findings for one document: a CRD (every version), or a bare openAPIV3Schema.
fn lint_document(value: &Value, origin: &str, line: usize) -> Vec<String> {
    if crd::is_crd(value) {
        return lint_crd(value, origin, line);
    }
    if value.get("apiVersion").is_some_and(Value::is_string) && value.get("kind").is_some_and(Value::is_string) {
        eprintln!(
            "kstruct: note: {origin}:{line}: skipping a {} (not a CRD or a schema)",
            value["kind"]
        );
        return vec![];
    }
    match kstruct::schema::convert::from_value(value) {
        Err(e) => vec![e.to_string()],
        Ok(None) => vec![],
        Ok(Some(schema)) => validate_structural(&Path::nil(), &schema)
            .iter()
            .map(ToString::to_string)
            .collect(),
    }
}

fn lint_crd(value: &Value, origin: &str, line: usize) -> Vec<String> {
    let crd = match CustomResourceDefinition::from_value(value) {
        Ok(crd) => crd,
        Err(e) => return vec![format!("{origin}:{line}: {e}")],
    };
    let mut messages = Vec::new();
    for (i, v) in crd.versions.iter().enumerate() {
        let path = Path::new("spec")
            .child("versions")
            .index(i)
            .child("schema")
            .child("openAPIV3Schema");
        match v.structural() {
            Ok(None) => {}
            Ok(Some(schema)) => messages.extend(validate_structural(&path, &schema).iter().map(ToString::to_string)),
            // What the API server's CRD validation reports when the schema does not convert.
            Err(e) => {
                messages.push(FieldError::invalid(&path, BadValue::String(String::new()), e.to_string()).to_string())
            }
        }
    }
    messages
}
