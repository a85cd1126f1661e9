//! Reports for machines: JSON Lines, JUnit XML, SARIF, and the stored objects as YAML.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::Value;

use super::{Field, Outcome, Report, Summary};

/// One JSON line per document (the format other tools rely on).
#[derive(Serialize)]
struct Line<'a> {
    file: &'a str,
    document: usize,
    line: usize,
    #[serde(rename = "apiVersion")]
    api_version: Option<&'a str>,
    kind: Option<&'a str>,
    namespace: Option<&'a str>,
    name: Option<&'a str>,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    messages: &'a [String],
    /// The server's warnings that belong to no field (a deprecated API's).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    warnings: &'a [String],
    #[serde(rename = "unknownFields")]
    unknown_fields: Vec<Located<'a>>,
    #[serde(rename = "duplicateFields")]
    duplicate_fields: Vec<Located<'a>>,
    #[serde(rename = "validationErrors")]
    validation_errors: Vec<Invalid<'a>>,
    /// How many errors validation would report besides, hidden by the strict decoding error
    /// in `messages` (the server answers it before validating).
    #[serde(skip_serializing_if = "Option::is_none")]
    hidden: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stored: Option<&'a Value>,
    /// What was checked of one of Kubernetes' own kinds: `"decoding"` (its defaulting and
    /// validation are not modelled); absent for custom resources.
    #[serde(skip_serializing_if = "Option::is_none")]
    checked: Option<&'static str>,
}

#[derive(Serialize)]
struct Located<'a> {
    path: &'a str,
    line: Option<usize>,
    column: Option<usize>,
}

/// One error of a create refused by validation: the server's field path and text, and where
/// the field (or the nearest enclosing one present) is written.
#[derive(Serialize)]
struct Invalid<'a> {
    path: &'a str,
    message: &'a str,
    line: Option<usize>,
    column: Option<usize>,
}

fn located(fields: &[Field]) -> Vec<Located<'_>> {
    fields
        .iter()
        .map(|f| Located {
            path: &f.path,
            line: f.at.map(|p| p.line),
            column: f.at.map(|p| p.column),
        })
        .collect()
}

/// The last JSON line's `summary`.
#[derive(Serialize)]
struct SummaryLine {
    documents: usize,
    /// Documents checked as objects (not CRDs, not skipped).
    objects: usize,
    /// CRD documents.
    crds: usize,
    files: usize,
    ok: usize,
    warnings: usize,
    errors: usize,
    skipped: usize,
    unreadable: usize,
    /// Whether object values were validated against the schemas.
    #[serde(rename = "valueValidation")]
    value_validation: bool,
    /// Documents whose CEL rules were evaluated.
    #[serde(rename = "rulesChecked")]
    rules_checked: usize,
    /// Errors hidden behind strict decoding errors, over all documents.
    hidden: usize,
    /// Objects of Kubernetes' own kinds among `objects`: decoded as the API server decodes
    /// them, their defaulting and validation not modelled.
    builtin: usize,
}

#[derive(Serialize)]
struct SummaryWrapper {
    summary: SummaryLine,
}

/// `--output json`: one line per document in input order, then `{"summary": {...}}`.
pub fn json_lines(w: &mut dyn Write, reports: &[Report], summary: &Summary, stored: bool) -> io::Result<()> {
    for r in reports {
        let line = Line {
            file: &r.file,
            document: r.document,
            line: r.start.line,
            api_version: r.api_version.as_deref(),
            kind: r.kind.as_deref(),
            namespace: r.namespace.as_deref(),
            name: r.name.as_deref(),
            outcome: r.outcome.as_str(),
            reason: r.reason.as_deref(),
            messages: &r.messages,
            warnings: &r.warnings,
            unknown_fields: located(&r.unknown_fields),
            duplicate_fields: located(&r.duplicate_fields),
            validation_errors: r
                .validation_errors
                .iter()
                .map(|f| Invalid {
                    path: &f.path,
                    message: f.message.as_deref().unwrap_or_default(),
                    line: f.at.map(|p| p.line),
                    column: f.at.map(|p| p.column),
                })
                .collect(),
            hidden: r.hidden,
            stored: if stored { r.stored.as_ref() } else { None },
            checked: r.builtin.then_some("decoding"),
        };
        serde_json::to_writer(&mut *w, &line)?;
        writeln!(w)?;
    }
    let s = summary;
    let last = SummaryWrapper {
        summary: SummaryLine {
            documents: s.documents,
            objects: s.objects,
            crds: s.crds,
            files: s.files,
            ok: s.ok,
            warnings: s.warnings,
            errors: s.errors,
            skipped: s.skipped,
            unreadable: s.unreadable,
            value_validation: s.validated,
            rules_checked: s.rules_checked,
            builtin: s.builtin,
            hidden: s.hidden,
        },
    };
    serde_json::to_writer(&mut *w, &last)?;
    writeln!(w)
}

/// `--output yaml`: what the server would store, one YAML document per accepted object.
pub fn yaml(w: &mut dyn Write, reports: &[Report]) -> io::Result<()> {
    for obj in reports.iter().filter_map(|r| r.stored.as_ref()) {
        writeln!(w, "---")?;
        w.write_all(kstruct::schema::yaml::emit(obj).as_bytes())?;
    }
    Ok(())
}

/// One finding of a report, for JUnit and SARIF.
struct Finding {
    line: usize,
    column: usize,
    rule: &'static str,
    /// `error`, `warning` or `note`.
    level: &'static str,
    text: String,
}

impl Finding {
    fn at(at: kstruct::source::Position, rule: &'static str, level: &'static str, text: String) -> Finding {
        Finding {
            line: at.line,
            column: at.column,
            rule,
            level,
            text,
        }
    }
}

/// Every finding of a report, in the file's order, then a note of the errors the server's
/// strict decoding error hides.
fn findings(r: &Report) -> Vec<Finding> {
    let level = match r.outcome {
        Outcome::Error => "error",
        Outcome::Warning => "warning",
        Outcome::Ok | Outcome::Skipped => "note",
    };
    // Under Warn, unknown and duplicate fields are warnings even in a refused document.
    let field_level = if r.fields_are_warnings { "warning" } else { level };
    let mut out = Vec::new();
    let mut push = |at: Option<kstruct::source::Position>, rule, level, text| {
        out.push(Finding::at(at.unwrap_or(r.start), rule, level, text));
    };
    for f in &r.unknown_fields {
        push(
            f.at,
            "unknown-field",
            field_level,
            format!("unknown field {:?}", f.path),
        );
    }
    for f in &r.duplicate_fields {
        let first = f
            .first
            .map(|p| format!(" (first written at line {})", p.line))
            .unwrap_or_default();
        push(
            f.at,
            "duplicate-field",
            field_level,
            format!("duplicate field {:?}{first}", f.path),
        );
    }
    for f in &r.validation_errors {
        push(f.at, "invalid-value", "error", f.message.clone().unwrap_or_default());
    }
    out.sort_by_key(|f| (f.line, f.column));
    if out.is_empty() {
        let rule = rule_of(r);
        for (i, m) in r.messages.iter().enumerate() {
            let at = r.not_object.unwrap_or_else(|| r.message_position(i));
            let text = match r.hint.as_ref().or(r.not_object.and(r.reason.as_ref())) {
                Some(h) => format!("{m} ({h})"),
                None => m.clone(),
            };
            out.push(Finding::at(at, rule, level, text));
        }
    }
    if let Some(text) = r.hidden_note() {
        out.push(Finding::at(r.start, "hidden-errors", "note", text));
    }
    for w in &r.warnings {
        out.push(Finding::at(r.start, "deprecated-api", "warning", w.clone()));
    }
    out
}

fn rule_of(r: &Report) -> &'static str {
    let first = r.messages.first().map(String::as_str).unwrap_or_default();
    if r.kind.as_deref() == Some("CustomResourceDefinition") {
        if first.starts_with("a CustomResourceDefinition for kind") {
            "duplicate-crd"
        } else {
            "invalid-crd"
        }
    } else if r.not_object.is_some() {
        "not-an-object"
    } else if first.starts_with("no CRD for kind") {
        "no-crd"
    } else if first.starts_with("no matches for kind") {
        "unserved-version"
    } else {
        "rejected"
    }
}

fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 cannot hold most control characters, even escaped.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// `--output junit`: one test suite per file, one test case per document.
pub fn junit(w: &mut dyn Write, reports: &[Report], summary: &Summary) -> io::Result<()> {
    writeln!(w, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        w,
        r#"<testsuites name="kstruct check" tests="{}" failures="{}" skipped="{}">"#,
        summary.documents, summary.errors, summary.skipped
    )?;
    let mut i = 0;
    while i < reports.len() {
        let file = &reports[i].file;
        let end = reports[i..]
            .iter()
            .position(|r| &r.file != file)
            .map_or(reports.len(), |n| i + n);
        let group = &reports[i..end];
        let count = |o: Outcome| group.iter().filter(|r| r.outcome == o).count();
        writeln!(
            w,
            r#"  <testsuite name="{}" tests="{}" failures="{}" skipped="{}">"#,
            xml(file),
            group.len(),
            count(Outcome::Error),
            count(Outcome::Skipped)
        )?;
        for r in group {
            let name = format!("#{} {} (line {})", r.document, r.title(), r.start.line);
            write!(w, r#"    <testcase classname="{}" name="{}""#, xml(file), xml(&name))?;
            let lines: Vec<String> = findings(r)
                .into_iter()
                .map(|f| format!("{file}:{}:{}: {}", f.line, f.column, f.text))
                .collect();
            match r.outcome {
                Outcome::Ok => writeln!(w, "/>")?,
                Outcome::Skipped => writeln!(
                    w,
                    ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                    xml(r.reason.as_deref().unwrap_or("not checked"))
                )?,
                Outcome::Warning => writeln!(
                    w,
                    ">\n      <system-out>{}</system-out>\n    </testcase>",
                    xml(&lines.join("\n"))
                )?,
                Outcome::Error => writeln!(
                    w,
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                    xml(r.messages.first().map(String::as_str).unwrap_or_default()),
                    rule_of(r),
                    xml(&lines.join("\n"))
                )?,
            }
        }
        writeln!(w, "  </testsuite>")?;
        i = end;
    }
    writeln!(w, "</testsuites>")
}

const RULES: &[(&str, &str)] = &[
    (
        "unknown-field",
        "A field the CRD's schema does not declare (fieldValidation Strict refuses it; the API server prunes it otherwise).",
    ),
    ("duplicate-field", "A key written twice in one mapping."),
    (
        "rejected",
        "The API server would refuse the document while decoding it.",
    ),
    (
        "invalid-value",
        "The API server would refuse the object's values (its 422 Invalid answer).",
    ),
    ("no-crd", "No CRD declares the object's group and kind."),
    (
        "unserved-version",
        "The object's CRD does not serve the version its apiVersion names.",
    ),
    ("invalid-crd", "The API server would refuse the CRD."),
    ("duplicate-crd", "A second CRD for a group and kind already declared."),
    (
        "deprecated-api",
        "A built-in group-version the chosen Kubernetes release serves and has deprecated (the API server's warning).",
    ),
    (
        "not-an-object",
        "A document that is not a Kubernetes object (no apiVersion or kind, or an unrendered template).",
    ),
    (
        "hidden-errors",
        "Errors validation would report, hidden by the strict decoding error the API server answers first.",
    ),
];

/// `--output sarif`: SARIF 2.1.0, one result per finding, for code review annotations.
pub fn sarif(w: &mut dyn Write, reports: &[Report]) -> io::Result<()> {
    let mut results = Vec::new();
    for r in reports {
        if !matches!(r.outcome, Outcome::Error | Outcome::Warning) && r.warnings.is_empty() {
            continue;
        }
        for f in findings(r) {
            results.push(crate::commands::sarif::Finding {
                rule: f.rule,
                level: f.level,
                text: f.text,
                file: r.file.clone(),
                line: f.line,
                column: f.column,
            });
        }
    }
    crate::commands::sarif::write(w, RULES, &results)
}
