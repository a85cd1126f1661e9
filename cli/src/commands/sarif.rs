//! SARIF 2.1.0 for code review annotations, as `kstruct check -o sarif` and
//! `kstruct lint -o sarif` write it: one run of the `kstruct` tool, one result per finding.

use std::io::{self, Write};

use serde_json::{Value, json};

/// One finding: which rule, how severe, the text, and where.
pub struct Finding {
    pub rule: &'static str,
    /// `error`, `warning` or `note`.
    pub level: &'static str,
    pub text: String,
    /// The file, as written in the other outputs (backslashes become slashes in the URI).
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// Writes one SARIF log: `rules` are (id, short description) of every rule a finding may name.
pub fn write(w: &mut dyn Write, rules: &[(&str, &str)], findings: &[Finding]) -> io::Result<()> {
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            json!({
                "ruleId": f.rule,
                "level": f.level,
                "message": {"text": f.text},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": f.file.replace('\\', "/")},
                    "region": {"startLine": f.line, "startColumn": f.column}
                }}]
            })
        })
        .collect();
    let rules: Vec<Value> = rules
        .iter()
        .map(|(id, text)| json!({"id": id, "shortDescription": {"text": text}}))
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "kstruct",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/kstruct/kstruct",
                "rules": rules
            }},
            "results": results
        }]
    });
    serde_json::to_writer_pretty(&mut *w, &doc)?;
    writeln!(w)
}
