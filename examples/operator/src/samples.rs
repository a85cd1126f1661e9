//! The sample manifests in `manifests/`, each sent as a create through the compiled CRDs, and
//! the answer each one is expected to get from the API server.
//!
//! Some samples are refused on purpose: a refusal is the API server's answer to them, so it is
//! what [`SAMPLES`] expects. A run is as expected when every document gets the declared answer;
//! anything else (a different answer, a document without an expectation, a document that
//! cannot be read) is unexpected.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::Path;

use kstruct::{DecodeOptions, FieldValidation, Pipeline};

use crate::crds;
use crate::types::MaintenanceNightlyJob;

/// What the API server answers a create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Accepted: the object is stored (warnings allowed).
    Stored,
    /// Refused, with this `reason` in the server's `Status` (`BadRequest`, `Invalid`, ...).
    Refused(Cow<'static, str>),
}

/// A refusal with `reason`, for tables of expectations.
pub const fn refused(reason: &'static str) -> Answer {
    Answer::Refused(Cow::Borrowed(reason))
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Stored => f.write_str("stored"),
            Answer::Refused(reason) => write!(f, "refused ({reason})"),
        }
    }
}

/// The answers one document is expected to get.
#[derive(Debug, Clone)]
pub struct Expected {
    /// The file's name, in `manifests/`.
    pub file: &'static str,
    /// The line where the document starts.
    pub line: usize,
    /// The answer to the create with fieldValidation=Warn (kubectl's default).
    pub warn: Answer,
    /// The answer to the same create with fieldValidation=Strict.
    pub strict: Answer,
    /// What the sample shows.
    pub shows: &'static str,
}

/// The API server's answers to the samples in `manifests/`.
pub const SAMPLES: &[Expected] = &[
    Expected {
        file: "backups.yaml",
        line: 1,
        warn: Answer::Stored,
        strict: refused("BadRequest"),
        shows: "typos and a repeated key are pruned with warnings, refused under Strict",
    },
    Expected {
        file: "backups.yaml",
        line: 34,
        warn: refused("Invalid"),
        strict: refused("Invalid"),
        shows: "a number where the schema wants a string is refused as Invalid",
    },
    Expected {
        file: "backups.yaml",
        line: 45,
        warn: Answer::Stored,
        strict: Answer::Stored,
        shows: "v1alpha1 keeps unknown fields",
    },
    Expected {
        file: "maintenance.json",
        line: 1,
        warn: Answer::Stored,
        strict: refused("BadRequest"),
        shows: "a duplicate and an unknown JSON field; defaults filled in",
    },
    Expected {
        file: "maintenance.yaml",
        line: 1,
        warn: Answer::Stored,
        strict: refused("BadRequest"),
        shows: "a field the schema does not declare is pruned, not stored",
    },
    Expected {
        file: "maintenance.yaml",
        line: 13,
        warn: Answer::Stored,
        strict: refused("BadRequest"),
        shows: "a repeated key; defaults fill timeoutSeconds and runAs",
    },
];

/// The directory of the sample manifests.
pub fn manifest_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/manifests"))
}

/// The sample manifests, in path order.
///
/// # Errors
/// The directory cannot be read.
pub fn manifest_files() -> io::Result<Vec<std::path::PathBuf>> {
    let mut found = std::fs::read_dir(manifest_dir())?
        .map(|e| e.map(|e| e.path()))
        .collect::<io::Result<Vec<_>>>()?;
    found.sort();
    Ok(found)
}

/// How a run went.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Documents sent.
    pub documents: usize,
    /// Of those, stored with fieldValidation=Warn.
    pub stored: usize,
    /// Of those, refused with fieldValidation=Warn.
    pub refused: usize,
    /// Documents whose answers were not the expected ones (or that could not be read).
    pub unexpected: Vec<String>,
}

/// Sends every document of `paths` as a create, with fieldValidation=Warn and then Strict,
/// through the compiled CRDs, and prints the API server's answers to `out`. Each document's
/// answers are compared with its entry in `expected` (by file name and line); a document with
/// no entry is expected to be stored with fieldValidation=Warn, whatever Strict answers, and
/// an entry for a file that was read but matching none of its documents is unexpected.
///
/// # Errors
/// A file cannot be read, or `out` cannot be written.
pub fn run(paths: &[impl AsRef<Path>], expected: &[Expected], out: &mut dyn Write) -> io::Result<Tally> {
    let mut tally = Tally::default();
    let mut matched = vec![false; expected.len()];
    let mut names = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let name = path
            .file_name()
            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        for doc in kstruct::input::split_documents(&bytes, &path.display().to_string()) {
            let at = format!("{name}:{}", doc.line);
            let index = expected.iter().position(|e| e.file == name && e.line == doc.line);
            if let Some(i) = index {
                matched[i] = true;
            }
            let entry = index.map(|i| &expected[i]);
            match entry {
                Some(e) => writeln!(out, "== {at}: {}", e.shows)?,
                None => writeln!(out, "== {at}")?,
            }
            tally.documents += 1;
            let body = match doc.body {
                Ok(b) => b,
                Err(e) => {
                    writeln!(out, "cannot be read: {e}")?;
                    tally.unexpected.push(format!("{at}: cannot be read"));
                    continue;
                }
            };
            let warn = create(body, doc.format, FieldValidation::Warn, out)?;
            let strict = create(body, doc.format, FieldValidation::Strict, out)?;
            match warn {
                Answer::Stored => tally.stored += 1,
                Answer::Refused(_) => tally.refused += 1,
            }
            let (want_warn, want_strict) = entry.map_or((Answer::Stored, None), |e| (e.warn.clone(), Some(&e.strict)));
            if warn != want_warn {
                let what = format!("{at}: expected {want_warn} with fieldValidation=Warn, got {warn}");
                writeln!(out, "UNEXPECTED: {what}")?;
                tally.unexpected.push(what);
            }
            if let Some(want) = want_strict.filter(|&w| *w != strict) {
                let what = format!("{at}: expected {want} with fieldValidation=Strict, got {strict}");
                writeln!(out, "UNEXPECTED: {what}")?;
                tally.unexpected.push(what);
            }
        }
        names.push(name);
    }
    // An expectation for a file that was read, but no document starts at its line: the
    // samples changed and the table did not.
    for (e, _) in expected
        .iter()
        .zip(&matched)
        .filter(|(e, m)| !**m && names.contains(&e.file.to_owned()))
    {
        let what = format!(
            "{}:{}: no document starts there, but an answer is expected",
            e.file, e.line
        );
        writeln!(out, "UNEXPECTED: {what}")?;
        tally.unexpected.push(what);
    }
    Ok(tally)
}

/// One create, printed as the API server (and kubectl) would answer it; the answer.
fn create(
    body: &[u8],
    format: kstruct::BodyFormat,
    field_validation: FieldValidation,
    out: &mut dyn Write,
) -> io::Result<Answer> {
    // A create, as `kubectl create` sends it: decoded, then validated against the schema
    // (compiled too) and the CRD's scope and subresources.
    let options = DecodeOptions {
        field_validation,
        format,
        validate: true,
        ..DecodeOptions::default()
    };
    let strict = field_validation == FieldValidation::Strict;
    // REGISTRY dispatches on apiVersion and kind, like the API server's endpoints.
    let decoded = match crds::REGISTRY.decode(body, &options) {
        Ok(decoded) => decoded,
        Err(e) => {
            let status = e.status();
            let prefix = if strict { "with fieldValidation=Strict: " } else { "" };
            writeln!(out, "{prefix}Error from server ({}): {e}", status.reason)?;
            return Ok(Answer::Refused(status.reason.into()));
        }
    };
    if strict {
        writeln!(out, "with fieldValidation=Strict: stored")?;
        return Ok(Answer::Stored);
    }
    for w in &decoded.warnings {
        writeln!(out, "Warning: {w}")?;
    }
    writeln!(out, "stored: {}", kstruct::schema::go::marshal_json(&decoded.object))?;
    // The operator's own kind, read into its Rust type.
    if decoded.object["kind"] == "MaintenanceNightlyJob" {
        match serde_json::from_value::<MaintenanceNightlyJob>(decoded.object) {
            Ok(job) => writeln!(
                out,
                "typed: {} runs {:?} on {} machine(s) as {}:{}, timeout {} s",
                job.metadata.name.as_deref().unwrap_or("?"),
                job.spec.shell.trim(),
                job.spec.machines.len(),
                job.spec.run_as.user,
                job.spec.run_as.group,
                job.spec.timeout_seconds
            )?,
            Err(e) => writeln!(out, "typed: does not read as a MaintenanceNightlyJob: {e}")?,
        }
    }
    Ok(Answer::Stored)
}

/// One kind and version on its own: the generated type is a `kstruct::Pipeline`, a drop-in for
/// `kstruct::Interpreter`. Prints what it prunes and the defaulted object.
///
/// # Errors
/// `out` cannot be written.
pub fn one_kind(out: &mut dyn Write) -> io::Result<()> {
    let job = crds::operations_example_com::v1::MaintenanceNightlyJob;
    let mut object = kstruct::json::decode(br#"{"spec": {"shell": "true", "extra": 1}}"#)
        .expect("valid JSON")
        .value;
    let pruned = job.prune(
        &mut object,
        kstruct::PruneOptions {
            resource_root: true,
            track_unknown_fields: true,
        },
    );
    job.default(&mut object);
    writeln!(
        out,
        "== MaintenanceNightlyJob alone: pruned {:?}, defaulted to {}",
        pruned.unknown_fields,
        kstruct::schema::go::marshal_json(&object)
    )
}
