//! `kstruct check`: every manifest against its CRD, as `kubectl apply --dry-run=server`
//! would answer for custom resources, without a cluster.
//!
//! The work is in three steps: [`collect`] reads the files (each once) and splits them into
//! documents; every CRD document is linted and, when the server would accept it, put in the
//! [`catalog::Catalog`] (the first per group/kind; repeats are errors); then [`document`]
//! checks every document, giving one [`Report`] each, which [`text`] or [`machine`] prints.

mod builtin;
mod catalog;
pub(crate) mod collect;
mod document;
mod hints;
mod machine;
pub(crate) mod non_objects;
mod text;

use std::io::Write;

use kstruct::FieldValidation;
use kstruct::source::Position;
use serde_json::Value;

use super::Outcome as ExitOutcome;
use crate::{CheckArgs, ColorArg, NonObjectsArg, OutputArg, ShowArg};

/// What became of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The server would accept it as it is.
    Ok,
    /// Accepted, with warnings (fieldValidation Warn).
    Warning,
    /// Refused, or not servable.
    Error,
    /// Not checked (built-in kind, `--skip-kinds`, `--ignore-missing-crds`, not an object).
    Skipped,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Warning => "warning",
            Outcome::Error => "error",
            Outcome::Skipped => "skipped",
        }
    }
}

/// An unknown or duplicate field, where it is written.
#[derive(Debug, Clone)]
pub struct Field {
    /// The API server's field path.
    pub path: String,
    /// Where its key is in the file (`None` if it could not be found in the text).
    pub at: Option<Position>,
    /// For a duplicate: where the key was first written.
    pub first: Option<Position>,
    /// For people: the known field it most likely meant.
    pub suggestion: Option<String>,
    /// For a validation error: the server's text of it (`spec.size: Required value`).
    pub message: Option<String>,
}

/// A syntax error said for people.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    /// The parser's own text (`yaml: line 8: found unexpected end of stream`).
    pub text: String,
    /// What the parser was reading and where it starts (`the quoted scalar starts here`).
    pub context: Option<(String, Position)>,
}

/// The result of checking one document (or one item of a `kind: List`).
#[derive(Debug, Clone)]
pub struct Report {
    pub file: String,
    /// 1-based index of the document in its file.
    pub document: usize,
    /// Where the document (or List item) starts in the file.
    pub start: Position,
    pub api_version: Option<String>,
    pub kind: Option<String>,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub outcome: Outcome,
    /// Why a document was skipped, or what a document that is not a Kubernetes object lacks.
    pub reason: Option<String>,
    /// The document is not a Kubernetes object (see `reason`): where to say so.
    pub not_object: Option<Position>,
    /// The document is a CRD (linted, not sent as an object).
    pub crd: bool,
    /// The API server's messages, exactly (for CRDs, the lint's; for objects no CRD serves,
    /// kstruct's own).
    pub messages: Vec<String>,
    /// Where in the file each message points, when it points somewhere more precise than the
    /// document's start (a syntax error, the field of a CRD finding); by message index.
    pub message_at: Vec<Option<Position>>,
    /// For people: a hint to go with the messages (did you mean, the refused CRD, ...).
    pub hint: Option<String>,
    /// The API server's warnings that belong to no field, exactly (a deprecated API's).
    pub warnings: Vec<String>,
    /// For people: the syntax error that refused the document, without the server's wrapping
    /// (which dumps the start of the body), and where the construct it broke starts.
    pub syntax: Option<SyntaxError>,
    pub unknown_fields: Vec<Field>,
    pub duplicate_fields: Vec<Field>,
    /// Each error of a create refused by validation, at its field.
    pub validation_errors: Vec<Field>,
    /// Unknown and duplicate fields are warnings (fieldValidation Warn), even when validation
    /// refused the document.
    pub fields_are_warnings: bool,
    /// How many errors validation would report that the server's strict decoding error hides
    /// (it answers before validating); `None` when it hides none.
    pub hidden: Option<usize>,
    /// The schema has CEL rules and validation evaluated them (they do not run when decoding
    /// refused the document, or when other errors came first, as on the server).
    pub rules_checked: bool,
    /// The object is one of Kubernetes' own kinds: decoded into its Go type, its defaulting
    /// and validation not modelled.
    pub builtin: bool,
    /// What the server would store (accepted objects only).
    pub stored: Option<Value>,
    /// The document as read (for `--show diff`).
    pub input: Option<Value>,
}

impl Report {
    fn new(file: &str, document: usize, start: Position) -> Report {
        Report {
            file: file.to_string(),
            document,
            start,
            api_version: None,
            kind: None,
            namespace: None,
            name: None,
            outcome: Outcome::Ok,
            reason: None,
            not_object: None,
            crd: false,
            messages: Vec::new(),
            message_at: Vec::new(),
            builtin: false,
            hint: None,
            warnings: Vec::new(),
            syntax: None,
            unknown_fields: Vec::new(),
            duplicate_fields: Vec::new(),
            validation_errors: Vec::new(),
            fields_are_warnings: false,
            hidden: None,
            rules_checked: false,
            stored: None,
            input: None,
        }
    }

    /// Where message `i` points.
    pub fn message_position(&self, i: usize) -> Position {
        self.message_at.get(i).copied().flatten().unwrap_or(self.start)
    }

    /// A name for people: `Kind/name`, `Kind`, or `document N`.
    pub fn title(&self) -> String {
        match (&self.kind, &self.name) {
            (Some(k), Some(n)) => format!("{k}/{n}"),
            (Some(k), None) => k.clone(),
            _ => format!("document {}", self.document),
        }
    }

    /// A kind without an apiVersion: an object with a mistake (an error whatever
    /// `--non-objects` says), not a file of another tool.
    pub fn is_object_without_version(&self) -> bool {
        self.kind.as_deref().is_some_and(|k| !k.is_empty())
            && self.api_version.as_deref().is_none_or(str::is_empty)
            && !self.crd
    }

    /// An object sent as a request (a CRD, a skipped document or another tool's file is not).
    pub fn is_object(&self) -> bool {
        !self.crd && self.outcome != Outcome::Skipped && (self.not_object.is_none() || self.is_object_without_version())
    }

    /// The note for people and tools on what the server's strict decoding error hides.
    pub fn hidden_note(&self) -> Option<String> {
        let n = self.hidden?;
        let errors = if n == 1 { "error" } else { "errors" };
        Some(format!(
            "validation would report {n} more {errors} once the unknown and duplicate fields are fixed; \
             --field-validation Warn shows them"
        ))
    }
}

/// Totals for the summary line.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    pub documents: usize,
    /// CRD documents (used or not).
    pub crds: usize,
    /// Other documents checked as requests (not skipped, and Kubernetes objects: a document
    /// that does not read counts, one without apiVersion or kind does not).
    pub objects: usize,
    pub files: usize,
    pub ok: usize,
    pub warnings: usize,
    pub errors: usize,
    pub skipped: usize,
    pub unreadable: usize,
    /// Documents whose CEL rules were evaluated.
    pub rules_checked: usize,
    /// Objects of Kubernetes' own kinds (decoded, not validated).
    pub builtin: usize,
    /// Values were validated (no `--skip-validation`).
    pub validated: bool,
    /// Errors hidden behind strict decoding errors, over all documents.
    pub hidden: usize,
    /// Objects by outcome (the documents' totals above count CRDs and non-objects too).
    pub objects_ok: usize,
    pub objects_with_warnings: usize,
    pub objects_with_errors: usize,
    /// CRDs with errors (the server would refuse them, or another CRD declares their kind).
    pub crds_with_errors: usize,
    /// Documents neither objects nor CRDs that are errors (`--non-objects error`).
    pub others_with_errors: usize,
}

impl Summary {
    fn count(&mut self, r: &Report) {
        self.documents += 1;
        // What is not a Kubernetes object is no object checked, even as an error.
        if r.crd {
            self.crds += 1;
        } else if r.is_object() {
            self.objects += 1;
            if r.builtin {
                self.builtin += 1;
            }
        }
        self.hidden += r.hidden.unwrap_or(0);
        if r.rules_checked {
            self.rules_checked += 1;
        }
        match r.outcome {
            Outcome::Ok => self.ok += 1,
            Outcome::Warning => self.warnings += 1,
            Outcome::Error => self.errors += 1,
            Outcome::Skipped => self.skipped += 1,
        }
        match (r.outcome, r.crd, r.is_object()) {
            (Outcome::Ok, _, true) => self.objects_ok += 1,
            (Outcome::Warning, _, true) => self.objects_with_warnings += 1,
            (Outcome::Error, _, true) => self.objects_with_errors += 1,
            (Outcome::Error, true, _) => self.crds_with_errors += 1,
            (Outcome::Error, false, false) => self.others_with_errors += 1,
            _ => {}
        }
    }
}

/// How documents are checked.
pub struct Settings {
    pub field_validation: FieldValidation,
    pub skip_kinds: Vec<String>,
    pub ignore_missing_crds: bool,
    /// The release whose built-in kinds are served.
    pub release: kstruct_builtins::Release,
    /// Validate values as a create does.
    pub validate: bool,
    /// The largest request body the server reads.
    pub max_body: usize,
    /// Keep the stored object and the input in reports.
    pub keep_objects: bool,
    /// Documents that are not Kubernetes objects are errors, not skipped.
    pub non_objects_are_errors: bool,
}

/// Runs `kstruct check`.
pub fn run(args: &CheckArgs) -> Result<ExitOutcome, String> {
    let excludes = collect::Excludes::new(&args.exclude)?;
    let settings = Settings {
        field_validation: args.field_validation.into(),
        skip_kinds: args
            .skip_kinds
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        ignore_missing_crds: args.ignore_missing_crds,
        release: args.kubernetes_version,
        validate: !args.skip_validation,
        max_body: args.max_body_size,
        keep_objects: args.show.is_some() || args.output == OutputArg::Yaml,
        non_objects_are_errors: args.non_objects == NonObjectsArg::Error,
    };
    let collected = collect::collect(&args.crds, &args.paths, &excludes);
    let mut progress = Progress::new(collected.files.len());
    let reports = document::check_all(&collected, &settings, &mut |i, name| progress.tick(i, name));
    progress.clear();
    let mut summary = Summary {
        files: collected.files.len(),
        unreadable: collected.unreadable,
        validated: settings.validate,
        ..Summary::default()
    };
    for r in &reports {
        summary.count(r);
    }
    let written = match args.output {
        OutputArg::Text | OutputArg::Yaml => {
            let color = match args.color {
                ColorArg::Always => anstream::ColorChoice::Always,
                ColorArg::Never => anstream::ColorChoice::Never,
                ColorArg::Auto => anstream::ColorChoice::Auto,
            };
            let yaml = args.output == OutputArg::Yaml;
            let show = if yaml { None } else { args.show };
            // With `-o yaml` the objects go to standard output, the diagnostics to standard
            // error.
            let mut diag: Box<dyn Write> = if yaml {
                Box::new(anstream::AutoStream::new(std::io::stderr(), color))
            } else {
                Box::new(anstream::AutoStream::new(std::io::stdout(), color))
            };
            let mut printed = text::print(&mut diag, &reports, &summary, show, args.verbose);
            if yaml && printed.is_ok() {
                printed = machine::yaml(&mut std::io::stdout().lock(), &reports);
            }
            printed
        }
        OutputArg::Json => machine::json_lines(
            &mut std::io::stdout().lock(),
            &reports,
            &summary,
            args.show == Some(ShowArg::Stored),
        ),
        OutputArg::Junit => machine::junit(&mut std::io::stdout().lock(), &reports, &summary),
        OutputArg::Sarif => machine::sarif(&mut std::io::stdout().lock(), &reports),
    };
    match written {
        // A closed pipe (`kstruct check | head`) ends quietly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e.to_string()),
        Ok(()) => {}
    }
    if summary.unreadable > 0 {
        return Err(format!("{} input(s) could not be read", summary.unreadable));
    }
    if summary.objects == 0 && !args.allow_no_objects {
        return Err(nothing_checked(&collected, &summary));
    }
    Ok(if summary.errors > 0 {
        ExitOutcome::Findings
    } else {
        ExitOutcome::Clean
    })
}

/// Why a run that checked no object fails: what the inputs held instead.
fn nothing_checked(collected: &collect::Collected, s: &Summary) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let held = if s.files == 0 {
        let excluded = match collected.excluded {
            0 => String::new(),
            n => format!(" ({} left out by --exclude)", plural(n, "path", "paths")),
        };
        format!("the inputs hold no .yaml, .yml or .json file{excluded}")
    } else if s.documents == 0 && collected.stdin_by_default {
        "standard input, read because no path was given, was empty".to_string()
    } else if s.documents == 0 {
        "the inputs hold no document".to_string()
    } else {
        let mut parts = Vec::new();
        if s.crds > 0 {
            parts.push(plural(s.crds, "CRD", "CRDs"));
        }
        if s.skipped > 0 {
            parts.push(format!(
                "{} (-v lists them)",
                plural(s.skipped, "skipped document", "skipped documents")
            ));
        }
        format!("the inputs hold {}, but no object", parts.join(" and "))
    };
    format!("no object was checked: {held}; --allow-no-objects lets a run without objects pass")
}

/// A progress line on standard error, for long runs on a terminal.
struct Progress {
    files: usize,
    enabled: bool,
    started: std::time::Instant,
    last: std::time::Instant,
    shown: bool,
}

impl Progress {
    fn new(files: usize) -> Progress {
        use std::io::IsTerminal;
        let now = std::time::Instant::now();
        Progress {
            files,
            enabled: std::io::stderr().is_terminal(),
            started: now,
            last: now,
            shown: false,
        }
    }

    fn tick(&mut self, i: usize, name: &str) {
        if !self.enabled {
            return;
        }
        let now = std::time::Instant::now();
        // Quick runs print nothing; long ones refresh a few times a second.
        if now.duration_since(self.started).as_millis() < 500 || now.duration_since(self.last).as_millis() < 100 {
            return;
        }
        self.last = now;
        self.shown = true;
        eprint!("\r\x1b[Kchecking {}/{}: {name}", i + 1, self.files);
    }

    fn clear(&self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}
