//! `kstruct lint`: what the API server checks when CRDs are created (`kstruct::lint`), or the
//! structural rules on bare schemas.
//!
//! Standard output holds the server's messages and nothing else (scripts compare it byte for
//! byte), or with `-o json|sarif` one record per finding with where its field is written;
//! notes on skipped documents and a summary go to standard error.

use std::io::Write;
use std::path::{Path as FsPath, PathBuf};

use kstruct::BodyFormat;
use kstruct::schema::field::Path;
use kstruct::schema::validation::validate_structural;
use kstruct::source::{Position, SourceMap};
use serde::Serialize;
use serde_json::Value;

use super::Outcome;
use super::check::collect::{Doc, documents_of};
use super::positions;
use crate::LintOutputArg;
use crate::inputs::{Input, read_file, read_stdin};

/// One linted document (a CRD, a List item, or a bare schema) and what it got.
struct Linted {
    origin: String,
    line: usize,
    name: String,
    messages: Vec<String>,
    /// Where each message points in the file, by message index.
    at: Vec<Position>,
}

/// What was read, for the summary.
#[derive(Default)]
struct Counts {
    files: usize,
    crds: usize,
    schemas: usize,
    /// Documents that are neither CRDs nor schemas.
    skipped: usize,
    /// Documents that could not be read (each a finding).
    unreadable: usize,
}

/// Lints every document of every input; `schema_mode` reads every document as a bare schema.
pub fn run(
    paths: &[PathBuf],
    exclude: &[String],
    schema_mode: bool,
    opts: &kstruct::lint::LintOptions,
    output: LintOutputArg,
) -> Result<Outcome, String> {
    let excludes = super::check::collect::Excludes::new(exclude)?;
    let mut unreadable = 0usize;
    let mut inputs = Vec::new();
    for p in paths {
        match expand(p, &excludes) {
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
    let mut counts = Counts {
        files: inputs.len(),
        ..Counts::default()
    };
    for input in &inputs {
        lint_input(input, schema_mode, opts, &mut linted, &mut counts);
    }
    let mut out = std::io::stdout().lock();
    let written = match output {
        LintOutputArg::Text => text(&mut out, &linted, inputs.len() > 1 || linted.len() > 1),
        LintOutputArg::Json => json_lines(&mut out, &linted),
        LintOutputArg::Sarif => sarif(&mut out, &linted, schema_mode),
    };
    match written {
        // A closed pipe (`kstruct lint | head`) ends quietly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e.to_string()),
        Ok(()) => {}
    }
    let with_errors = linted.iter().filter(|l| !l.messages.is_empty()).count();
    eprintln!("kstruct: {}", summary(&counts, with_errors, schema_mode));
    if unreadable > 0 {
        return Err(format!("{unreadable} input(s) could not be read"));
    }
    if counts.crds + counts.schemas + counts.unreadable == 0 {
        return Err(if schema_mode {
            "no document was found in the inputs".to_string()
        } else {
            "no CustomResourceDefinition was found in the inputs; `kstruct check` checks manifests".to_string()
        });
    }
    Ok(if with_errors == 0 {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}

/// The summary line for standard error.
fn summary(c: &Counts, with_errors: usize, schema_mode: bool) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut linted = Vec::new();
    if c.crds > 0 || !schema_mode {
        linted.push(plural(c.crds, "CRD", "CRDs"));
    }
    if c.schemas > 0 || schema_mode {
        linted.push(plural(c.schemas, "schema", "schemas"));
    }
    let mut parts = vec![format!("{with_errors} with errors")];
    if c.unreadable > 0 {
        parts.push(format!("{} unreadable", c.unreadable));
    }
    if c.skipped > 0 {
        parts.push(format!(
            "{} skipped (neither CRDs nor schemas)",
            plural(c.skipped, "document", "documents")
        ));
    }
    format!(
        "linted {} in {}: {}",
        linted.join(" and "),
        plural(c.files, "file", "files"),
        parts.join(", ")
    )
}

/// The server's messages, one per line; with several documents, `==> FILE:LINE (NAME)` before
/// each one with findings.
fn text(out: &mut dyn Write, linted: &[Linted], several: bool) -> std::io::Result<()> {
    for l in linted.iter().filter(|l| !l.messages.is_empty()) {
        if several {
            writeln!(out, "==> {}:{} ({})", l.origin, l.line, l.name)?;
        }
        for m in &l.messages {
            writeln!(out, "{m}")?;
        }
    }
    Ok(())
}

/// One JSON line per finding: the server's message and where its field is written.
#[derive(Serialize)]
struct FindingLine<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    /// The CRD's name (`schema` for a bare schema, `unreadable` for a document that is not
    /// YAML or JSON).
    name: &'a str,
    message: &'a str,
}

fn json_lines(out: &mut dyn Write, linted: &[Linted]) -> std::io::Result<()> {
    for l in linted {
        for (m, at) in l.messages.iter().zip(&l.at) {
            let line = FindingLine {
                file: &l.origin,
                line: at.line,
                column: at.column,
                name: &l.name,
                message: m,
            };
            serde_json::to_writer(&mut *out, &line)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

const RULES: &[(&str, &str)] = &[
    ("invalid-crd", "The API server would refuse to create the CRD."),
    ("invalid-schema", "The schema breaks the API server's structural rules."),
    ("unreadable", "The document is not valid YAML or JSON."),
];

fn sarif(out: &mut dyn Write, linted: &[Linted], schema_mode: bool) -> std::io::Result<()> {
    let mut findings = Vec::new();
    for l in linted {
        let rule = match l.name.as_str() {
            "unreadable" => "unreadable",
            "schema" if schema_mode || !l.messages.is_empty() => "invalid-schema",
            _ => "invalid-crd",
        };
        for (m, at) in l.messages.iter().zip(&l.at) {
            findings.push(super::sarif::Finding {
                rule,
                level: "error",
                text: m.clone(),
                file: l.origin.clone(),
                line: at.line,
                column: at.column,
            });
        }
    }
    super::sarif::write(out, RULES, &findings)
}

/// A path as inputs: a directory gives every `.yaml`, `.yml` and `.json` file below it that
/// `--exclude` leaves in, in path order.
fn expand(p: &FsPath, excludes: &super::check::collect::Excludes) -> Result<Vec<PathBuf>, String> {
    if p.as_os_str() == "-" || !p.is_dir() {
        return Ok(vec![p.to_path_buf()]);
    }
    let (files, unreadable) = kstruct::input::manifest_files(p, &|found| excludes.excluded(p, found));
    match unreadable.into_iter().next() {
        Some((dir, e)) => Err(format!("{}: {e}", dir.display())),
        None => Ok(files),
    }
}

/// The text of a document: its bytes, how to read them and where they start in the file.
struct Source<'a> {
    text: &'a [u8],
    format: BodyFormat,
    start: Position,
    /// Its first key, past comments: where findings about the whole document point.
    content: Position,
}

impl Source<'_> {
    fn map(&self) -> Option<SourceMap> {
        SourceMap::new(self.text, self.format)
    }
}

/// The text of each document `kstruct::input::read_documents` read, found among the
/// documents split as `kstruct check` splits them: by index in a JSON stream, by first line in
/// a YAML stream (whose blank documents only the reader keeps).
fn sources<'a>(bytes: &'a [u8], raw: &'a [Doc], doc: &kstruct::input::Document, count: usize) -> Option<Source<'a>> {
    let json = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let found = if raw.len() == 1 && count == 1 {
        raw.first()
    } else if json {
        raw.get(doc.index)
    } else {
        raw.iter().find(|d| d.start.line == doc.line)
    }?;
    if found.broken.is_some() {
        return None;
    }
    Some(Source {
        text: &bytes[found.range.clone()],
        format: found.format,
        start: found.start,
        content: found.content,
    })
}

fn lint_input(
    input: &Input,
    schema_mode: bool,
    opts: &kstruct::lint::LintOptions,
    linted: &mut Vec<Linted>,
    counts: &mut Counts,
) {
    let docs = kstruct::input::read_documents(&input.bytes, &input.origin);
    let raw = documents_of(&input.bytes, &input.origin);
    for doc in &docs {
        let source = sources(&input.bytes, &raw, doc, docs.len());
        let doc_start = source.as_ref().map_or(
            Position {
                line: doc.line,
                column: 1,
            },
            |s| s.start,
        );
        let doc_content = source.as_ref().map_or(doc_start, |s| s.content);
        let value = match &doc.value {
            Err(e) => {
                let line = match e {
                    kstruct::Error::Input { line, .. } => *line,
                    _ => doc.line,
                };
                counts.unreadable += 1;
                linted.push(Linted {
                    origin: input.origin.clone(),
                    line: doc.line,
                    name: "unreadable".into(),
                    messages: vec![e.to_string()],
                    at: vec![Position { line, column: 1 }],
                });
                continue;
            }
            // Only comments (a license header before the first `---`): nothing to lint, as
            // nothing is sent.
            Ok(Value::Null) => continue,
            Ok(v) => v,
        };
        // `kubectl get crd -o yaml` writes a List of CRDs.
        let items = match value.get("items").and_then(Value::as_array) {
            Some(items) if !schema_mode && value.get("kind").and_then(Value::as_str) == Some("List") => {
                items.iter().enumerate().map(|(i, v)| (Some(i), v)).collect()
            }
            _ => vec![(None, value)],
        };
        // Built only when a finding needs a position.
        let mut map: Option<Option<SourceMap>> = None;
        for (i, item) in items {
            let patch = (!schema_mode && kstruct::schema::crd::is_crd(item))
                .then(|| super::check::non_objects::crd_patch(item))
                .flatten();
            if let Some(what) = patch {
                counts.skipped += 1;
                let hint = super::check::non_objects::exclude_hint(&input.origin);
                eprintln!("kstruct: note: {}:{}: skipping {what}; {hint}", input.origin, doc.line);
                continue;
            }
            let Some(found) = lint_document(item, schema_mode, opts, counts) else {
                note_skipped(item, &input.origin, doc.line);
                continue;
            };
            let prefix = i.map(|i| format!("items[{i}].")).unwrap_or_default();
            let at = found
                .fields
                .iter()
                .map(|field| {
                    let map = map
                        .get_or_insert_with(|| source.as_ref().and_then(Source::map))
                        .as_ref();
                    let located = match (map, field) {
                        (Some(map), Some(field)) if found.crd => positions::crd_finding(map, &prefix, field, doc_start),
                        (Some(map), Some(field)) => {
                            let path = positions::object_source_path(field);
                            positions::locate_nearest(map, &format!("{prefix}{path}")).map(|p| p.offset_by(doc_start))
                        }
                        _ => None,
                    };
                    let item_start = || {
                        map.zip(i)
                            .and_then(|(m, i)| m.locate(&format!("items[{i}]")))
                            .map(|p| p.offset_by(doc_start))
                    };
                    located.or_else(item_start).unwrap_or(doc_content)
                })
                .collect();
            linted.push(Linted {
                origin: input.origin.clone(),
                line: doc.line,
                name: found.name,
                messages: found.messages,
                at,
            });
        }
    }
}

/// What linting one document found.
struct Found {
    name: String,
    /// It is a CRD (its fields are the internal CRD's), not a bare schema.
    crd: bool,
    messages: Vec<String>,
    /// The field each message names, by message index.
    fields: Vec<Option<String>>,
}

/// The findings for one document, or `None` when it is neither a CRD nor a schema.
fn lint_document(
    value: &Value,
    schema_mode: bool,
    opts: &kstruct::lint::LintOptions,
    counts: &mut Counts,
) -> Option<Found> {
    let field = |e: &kstruct::schema::field::FieldError| Some(e.field.clone()).filter(|f| !f.is_empty());
    if !schema_mode && kstruct::schema::crd::is_crd(value) {
        counts.crds += 1;
        let name = value
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("unnamed CRD")
            .to_string();
        let (messages, fields) = match kstruct::lint::lint_crd_with(value, opts) {
            Ok(errors) => errors.iter().map(|e| (e.to_string(), field(e))).unzip(),
            Err(e) => (vec![e.to_string()], vec![None]),
        };
        return Some(Found {
            name,
            crd: true,
            messages,
            fields,
        });
    }
    let is_object =
        value.get("apiVersion").is_some_and(Value::is_string) && value.get("kind").is_some_and(Value::is_string);
    let plausible = value.as_object().is_some_and(|m| {
        !m.is_empty()
            && m.keys()
                .all(|k| kstruct::schema::convert::SCHEMA_KEYS.contains(&k.as_str()))
    });
    if !schema_mode && (is_object || !plausible) {
        counts.skipped += 1;
        return None;
    }
    counts.schemas += 1;
    let (messages, fields) = match kstruct::schema::convert::from_value(value) {
        Err(e) => (vec![e.to_string()], vec![None]),
        Ok(None) => (vec![], vec![]),
        Ok(Some(schema)) => validate_structural(&Path::nil(), &schema)
            .iter()
            .map(|e| (e.to_string(), field(e)))
            .unzip(),
    };
    Some(Found {
        name: "schema".into(),
        crd: false,
        messages,
        fields,
    })
}

/// Says on standard error why a document was skipped.
fn note_skipped(value: &Value, origin: &str, line: usize) {
    match value.get("kind").and_then(Value::as_str) {
        Some(kind) if value.get("apiVersion").is_some_and(Value::is_string) => eprintln!(
            "kstruct: note: {origin}:{line}: skipping a {kind} (not a CustomResourceDefinition; \
             `kstruct check` checks objects against their CRDs)"
        ),
        _ => eprintln!(
            "kstruct: note: {origin}:{line}: skipping a document that is neither a Kubernetes object nor a \
             schema (use --schema to lint it as a bare openAPIV3Schema)"
        ),
    }
}
