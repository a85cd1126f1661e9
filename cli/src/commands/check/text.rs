//! Diagnostics for people: `FILE:LINE:COL: error: ...`, like a compiler, and a summary.

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};
use kstruct::source::Position;

use super::{Outcome, Report, Summary};
use crate::ShowArg;

const BOLD: Style = Style::new().bold();
const ERROR: Style = AnsiColor::Red.on_default().bold();
const WARNING: Style = AnsiColor::Yellow.on_default().bold();
const NOTE: Style = AnsiColor::Cyan.on_default().bold();
const OK: Style = AnsiColor::Green.on_default();
const DIM: Style = Style::new().dimmed();

/// Prints every report with findings (and, `verbose`, the others), then the summary.
pub fn print(
    w: &mut dyn Write,
    reports: &[Report],
    summary: &Summary,
    show: Option<ShowArg>,
    verbose: bool,
) -> io::Result<()> {
    for r in reports {
        report(w, r, verbose)?;
        match show {
            Some(ShowArg::Stored) => stored(w, r)?,
            Some(ShowArg::Diff) => diff(w, r)?,
            None => {}
        }
    }
    summary_line(w, summary)
}

fn loc(file: &str, at: Position) -> String {
    format!("{file}:{}:{}", at.line, at.column)
}

fn say(w: &mut dyn Write, file: &str, at: Position, level: Style, label: &str, text: &str) -> io::Result<()> {
    writeln!(w, "{BOLD}{}:{BOLD:#} {level}{label}:{level:#} {text}", loc(file, at))
}

fn report(w: &mut dyn Write, r: &Report, verbose: bool) -> io::Result<()> {
    if let Some(at) = r.not_object {
        // One line, whatever the server's message (which quotes the whole document) says.
        let what = r.reason.as_deref().unwrap_or("not a Kubernetes object");
        return match r.outcome {
            Outcome::Error => say(w, &r.file, at, ERROR, "error", what),
            _ => say(w, &r.file, at, NOTE, "note", &format!("skipped: {what}")),
        };
    }
    for warning in &r.warnings {
        say(w, &r.file, r.start, WARNING, "warning", warning)?;
    }
    let (level, label) = match r.outcome {
        Outcome::Error => (ERROR, "error"),
        Outcome::Warning => (WARNING, "warning"),
        Outcome::Ok => {
            if verbose {
                let only = if r.builtin {
                    " (decoded; validation not checked)"
                } else {
                    ""
                };
                writeln!(
                    w,
                    "{BOLD}{}:{BOLD:#} {OK}ok:{OK:#} {}{only}",
                    loc(&r.file, r.start),
                    r.title()
                )?;
            }
            return Ok(());
        }
        Outcome::Skipped => {
            if verbose {
                let why = r.reason.as_deref().unwrap_or("not checked");
                writeln!(
                    w,
                    "{BOLD}{}:{BOLD:#} {DIM}not checked:{DIM:#} {} ({why})",
                    loc(&r.file, r.start),
                    r.title()
                )?;
            }
            return Ok(());
        }
    };
    if r.unknown_fields.is_empty() && r.duplicate_fields.is_empty() && r.validation_errors.is_empty() {
        if let Some(syntax) = &r.syntax {
            // The server's message wraps the parser's with a dump of the body's first bytes.
            say(w, &r.file, r.message_position(0), level, label, &syntax.text)?;
            if let Some((what, at)) = &syntax.context {
                say(w, &r.file, *at, NOTE, "note", what)?;
            }
            return hidden_note(w, r);
        }
        for (i, m) in r.messages.iter().enumerate() {
            let at = r.message_position(i);
            let m = shorten(m);
            let text = match (&r.hint, i) {
                (Some(h), 0) if h.starts_with("did you mean") => format!("{m} ({h})"),
                _ => m,
            };
            say(w, &r.file, at, level, label, &text)?;
        }
        if let Some(h) = r.hint.as_ref().filter(|h| !h.starts_with("did you mean")) {
            say(w, &r.file, r.start, NOTE, "note", h)?;
        }
        return hidden_note(w, r);
    }
    // Field by field, in the file's order (what has no place in the text last, in the
    // server's order); the server's message says the same in one line.
    // Under Warn unknown and duplicate fields are warnings even when validation refused the
    // document.
    let severity = Severity { level, label };
    let field_severity = if r.fields_are_warnings {
        Severity {
            level: WARNING,
            label: "warning",
        }
    } else {
        severity
    };
    let mut fields: Vec<FieldLine> = Vec::new();
    for f in &r.unknown_fields {
        let text = match &f.suggestion {
            Some(s) => format!("unknown field {:?} (did you mean {s:?}?)", f.path),
            None => format!("unknown field {:?}", f.path),
        };
        fields.push(FieldLine::new(f.at, text, None, field_severity));
    }
    for f in &r.duplicate_fields {
        let text = format!("duplicate field {:?}", f.path);
        fields.push(FieldLine::new(f.at, text, f.first, field_severity));
    }
    for f in &r.validation_errors {
        let text = f.message.clone().unwrap_or_else(|| f.path.clone());
        fields.push(FieldLine::new(f.at, shorten(&text), None, severity));
    }
    fields.sort_by_key(|f| f.at.map_or((usize::MAX, 0), |p| (p.line, p.column)));
    for f in fields {
        let Severity { level, label } = f.severity;
        say(w, &r.file, f.at.unwrap_or(r.start), level, label, &f.text)?;
        if let Some(first) = f.first {
            say(w, &r.file, first, NOTE, "note", "first written here")?;
        }
    }
    hidden_note(w, r)?;
    if verbose {
        for m in &r.messages {
            writeln!(w, "{DIM}  the API server would answer: {m}{DIM:#}")?;
        }
    }
    Ok(())
}

/// How a diagnostic is labelled: `error` in red, `warning` in yellow.
#[derive(Clone, Copy)]
struct Severity {
    level: Style,
    label: &'static str,
}

/// One diagnostic of a document's field-by-field findings.
struct FieldLine {
    /// Where the field is written (`None`: not found in the text).
    at: Option<Position>,
    text: String,
    /// For a repeated key: where it was first written.
    first: Option<Position>,
    severity: Severity,
}

impl FieldLine {
    fn new(at: Option<Position>, text: String, first: Option<Position>, severity: Severity) -> FieldLine {
        FieldLine {
            at,
            text,
            first,
            severity,
        }
    }
}

/// What the server's strict decoding error hides: the errors validation would report once the
/// unknown and duplicate fields are fixed.
fn hidden_note(w: &mut dyn Write, r: &Report) -> io::Result<()> {
    match r.hidden_note() {
        Some(note) => say(w, &r.file, r.start, NOTE, "note", &note),
        None => Ok(()),
    }
}

/// Messages that quote a whole body (`Object 'Kind' is missing in '...'`) are cut for people
/// (`-o json` has them whole). Line breaks are shown as `\n`, so that each diagnostic is one line.
fn shorten(m: &str) -> String {
    const MAX: usize = 600;
    let (head, rest) = match m.char_indices().nth(MAX) {
        None => (m, 0),
        Some((cut, _)) => (&m[..cut], m[cut..].chars().count()),
    };
    let head = head.replace('\n', "\\n");
    if rest == 0 {
        head
    } else {
        format!("{head}… ({rest} more characters; -o json has the whole message)")
    }
}

fn header(w: &mut dyn Write, r: &Report, what: &str) -> io::Result<()> {
    writeln!(w, "{DIM}--- {}:{} {} ({what}){DIM:#}", r.file, r.start.line, r.title())
}

fn stored(w: &mut dyn Write, r: &Report) -> io::Result<()> {
    if let Some(obj) = &r.stored {
        header(w, r, "stored")?;
        w.write_all(kstruct::schema::yaml::emit(obj).as_bytes())?;
    }
    Ok(())
}

fn diff(w: &mut dyn Write, r: &Report) -> io::Result<()> {
    let (Some(input), Some(stored)) = (&r.input, &r.stored) else {
        return Ok(());
    };
    let before = kstruct::schema::yaml::emit(input);
    let after = kstruct::schema::yaml::emit(stored);
    if before == after {
        return Ok(());
    }
    header(w, r, "input -> stored")?;
    let diff = similar::TextDiff::from_lines(&before, &after);
    for hunk in diff.unified_diff().context_radius(2).iter_hunks() {
        writeln!(w, "{DIM}{}{DIM:#}", hunk.header())?;
        for change in hunk.iter_changes() {
            let (style, sign) = match change.tag() {
                similar::ChangeTag::Delete => (AnsiColor::Red.on_default(), "-"),
                similar::ChangeTag::Insert => (AnsiColor::Green.on_default(), "+"),
                similar::ChangeTag::Equal => (Style::new(), " "),
            };
            write!(w, "{style}{sign}{}{style:#}", change.value())?;
            if change.missing_newline() {
                writeln!(w)?;
            }
        }
    }
    Ok(())
}

fn summary_line(w: &mut dyn Write, s: &Summary) -> io::Result<()> {
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {many}")
        }
    };
    // The objects' outcomes first; CRDs and other documents with errors after them, so that
    // "3 objects: 3 ok" never counts a refused CRD as an object.
    let mut parts = vec![format!("{} ok", s.objects_ok)];
    if s.objects_with_warnings > 0 {
        parts.push(format!("{} with warnings", s.objects_with_warnings));
    }
    parts.push(format!("{} with errors", s.objects_with_errors));
    parts.push(format!("{} skipped", s.skipped));
    let mut line = parts.join(", ");
    if s.crds_with_errors > 0 {
        line.push_str(&format!("; {} with errors", plural(s.crds_with_errors, "CRD", "CRDs")));
    }
    if s.others_with_errors > 0 {
        line.push_str(&format!(
            "; {} not Kubernetes objects",
            plural(s.others_with_errors, "document", "documents")
        ));
    }
    let style = if s.errors > 0 { ERROR } else { BOLD };
    let objects = if s.builtin > 0 {
        format!("{} ({} built-in)", plural(s.objects, "object", "objects"), s.builtin)
    } else {
        plural(s.objects, "object", "objects")
    };
    writeln!(
        w,
        "{style}checked {objects} against {} in {}:{style:#} {line}",
        plural(s.crds, "CRD", "CRDs"),
        plural(s.files, "file", "files"),
    )?;
    if s.builtin > 0 {
        writeln!(
            w,
            "{DIM}note: built-in objects are decoded as the API server decodes them; their defaulting and validation are not checked yet{DIM:#}"
        )?;
    }
    if !s.validated && s.documents > s.skipped {
        writeln!(w, "{DIM}note: values were not validated (--skip-validation){DIM:#}")?;
    }
    Ok(())
}
