//! YAML to JSON exactly as Kubernetes converts it.
//!
//! kubectl and the API server turn YAML into JSON with sigs.k8s.io/yaml
//! v1.6.0 (`YAMLToJSON`, `YAMLToJSONStrict`), which decodes with go-yaml v2
//! (`go.yaml.in/yaml/v2` v2.4.x, the module `sigs.k8s.io/yaml/goyaml.v2`
//! aliases), a Go port of libyaml implementing YAML 1.1. kubectl first splits
//! multi-document files with apimachinery's `YAMLReader`. This module
//! reproduces that pipeline:
//!
//! - [`split_documents`]: `YAMLReader` (`---` lines, junk after them).
//! - [`to_json`] / [`to_json_bytes`]: `YAMLToJSON` for one document — only
//!   the first document of the text is read, as go-yaml does. Duplicate keys
//!   are collected, the last one wins.
//! - [`to_json_strict`]: `YAMLToJSONStrict`, with Go's error precedence.
//!
//! Numbers come out as the API server sees them after decoding the JSON
//! that Go wrote: integers that fit `i64` are `i64`, everything else `f64`,
//! and a float Go prints without exponent or fraction (`1.0`, `1e3`) is the
//! integer it prints as. Never `u64`.
//!
//! Scalars resolve by YAML 1.1 as go-yaml v2 does: `yes`/`no`/`on`/`off`/`y`/
//! `n` are booleans, `0777` is octal, `0x1F` hex, `0b101` binary, `0o17`
//! octal, `_` separators are dropped, `~` is null, timestamps stay strings.
//!
//! # Values deeper than the stack
//!
//! Nothing here recurses, but dropping a `serde_json::Value` does. Values
//! from untrusted input can nest up to 10,000 levels; drop them with
//! [`dispose`] on threads with small stacks.
//!
//! # The parser is go-yaml's
//!
//! The reader, scanner and parser implement the algorithm go-yaml v2 runs (its port of
//! libyaml, YAML 1.1) rule for rule: the same documents are accepted and read to the same
//! values, and syntax errors carry go-yaml's text and line. That includes the leniencies the
//! server has and a YAML 1.2 parser lacks (a quoted scalar continued at any indentation, a
//! flow collection's lines at any indentation, tabs after a key's `:`, `\'` in double
//! quotes, a root flow collection ending the document), its refusals (tabs where a token may
//! start, `\/`, `[a?b]`, simple keys longer than 1024 characters, `%YAML` other than 1.1,
//! more than 10,000 levels), NEL, U+2028 and U+2029 as line breaks, and go-yaml's own quirks
//! (a flow collection as a key, a byte-order mark inside a document). The reader decodes in
//! libyaml's 512-byte windows, so a bad byte is found when go-yaml would find it: after a
//! syntax error that comes before it, never beyond the end of the first document's window.
//! `testdata/go_expected.jsonl` pins go-yaml v2.4.0's results on the documents of
//! `testdata/go_corpus.txt`.
//!
//! # DIVERGENCES
//!
//! - Go iterates maps in random order. Where that makes Go's result random,
//!   this module picks document order: which unsupported key is reported
//!   first, and which value survives when two keys of one mapping stringify
//!   alike (`1` and `"1"`: the later one wins here).
//! - `%#v` in error texts: map keys of different types print in a fixed type
//!   order (Go orders them by type-descriptor address).
//! - Output nested deeper than 10,000 levels (reachable through alias
//!   chains, and through indentless sequences or flow collections inside
//!   10,000 block levels) is an [`ErrorKind::Limit`] error: `YAMLToJSON`
//!   would succeed, but every Go JSON decoder downstream rejects such JSON.
//! - `!!binary` values that are not UTF-8 become U+FFFD per bad byte, as
//!   `json.Marshal` writes them; duplicate detection among such keys compares
//!   the replaced text rather than the raw bytes.
//! - sigs.k8s.io/yaml v1.6.0 decodes with go.yaml.in/yaml/v2 v2.4.2; the
//!   reference outputs come from gopkg.in/yaml.v2 v2.4.0, the same decoder
//!   under its previous module path.

mod convert;
mod decode;
mod emit;
mod error;
mod gofmt;
mod parse;
mod parser;
mod reader;
mod resolve;
mod scanner;
mod split;
mod value;

#[cfg(test)]
mod generate;
#[cfg(test)]
mod tests;

use std::fmt::Write;

use serde_json::Value;

pub use convert::dispose;
pub use decode::DuplicateKey;
pub use emit::emit;
pub use error::{Context, Error, ErrorKind};
pub use parser::{Event, EventKind};
pub use scanner::{Mark, ScalarStyle};
pub use split::{Document, DocumentBytes, split_document_bytes, split_documents};

/// The JSON value of a document and the duplicate keys it contained.
#[derive(Debug)]
pub struct Converted {
    /// The value as the API server sees it after decoding Go's JSON.
    pub value: Value,
    /// Duplicate mapping keys in the order go-yaml reports them (repeated
    /// for each expansion of an alias that contains them, and including keys
    /// a `<<` merge sets twice). The value keeps the last occurrence.
    pub duplicate_keys: Vec<DuplicateKey>,
}

impl Converted {
    /// The error `YAMLToJSONStrict` returns for the duplicates, if any, e.g.
    /// `yaml: unmarshal errors:\n  line 6: key "name" already set in map`.
    pub fn strict_error(&self) -> Option<String> {
        strict_message(&self.duplicate_keys)
    }
}

fn strict_message(dups: &[DuplicateKey]) -> Option<String> {
    if dups.is_empty() {
        return None;
    }
    let mut msg = String::from("yaml: unmarshal errors:");
    for d in dups {
        let _ = write!(msg, "\n  line {}: key {} already set in map", d.line, d.key);
    }
    Some(msg)
}

type Stages = (Result<Value, Error>, Vec<DuplicateKey>);

/// Parses and decodes; the inner result is the conversion, which Go only
/// attempts once decoding succeeded.
fn stages(input: &reader::Input<'_>) -> Result<Stages, Error> {
    let tree = parse::parse(input)?;
    let (decoded, duplicates) = decode::decode(&tree)?;
    drop(tree);
    Ok((convert::to_value(decoded), duplicates))
}

fn lenient(stages: Stages) -> Result<Converted, Error> {
    let (value, duplicate_keys) = stages;
    Ok(Converted {
        value: value?,
        duplicate_keys,
    })
}

fn strict(stages: Stages) -> Result<Value, Error> {
    let (value, dups) = stages;
    // UnmarshalStrict fails before the conversion runs.
    if let Some(msg) = strict_message(&dups) {
        if let Ok(v) = value {
            dispose(v);
        }
        return Err(Error::new(ErrorKind::Duplicate, msg).at_line(dups[0].line));
    }
    value
}

/// `YAMLToJSON` for one document (only the first document of `doc` is read).
///
/// # Errors
/// Any failure Go reports, in Go's order of precedence, plus the
/// [`ErrorKind::Limit`] cases listed under DIVERGENCES.
pub fn to_json(doc: &str) -> Result<Converted, Error> {
    lenient(stages(&reader::from_str(doc))?)
}

/// [`to_json`] for raw bytes: BOMs select UTF-8 or UTF-16 and invalid
/// encodings fail as libyaml's reader fails.
///
/// # Errors
/// As [`to_json`], plus [`ErrorKind::Reader`] for undecodable input.
pub fn to_json_bytes(doc: &[u8]) -> Result<Converted, Error> {
    lenient(stages(&reader::decode(doc))?)
}

/// `YAMLToJSONStrict`: like [`to_json`], but duplicate keys are an error
/// (reported before any conversion error, as Go does).
///
/// # Errors
/// As [`to_json`], plus [`ErrorKind::Duplicate`].
pub fn to_json_strict(doc: &str) -> Result<Value, Error> {
    strict(stages(&reader::from_str(doc))?)
}

/// [`to_json_strict`] for raw bytes.
///
/// # Errors
/// As [`to_json_strict`], plus [`ErrorKind::Reader`].
pub fn to_json_strict_bytes(doc: &[u8]) -> Result<Value, Error> {
    strict(stages(&reader::decode(doc))?)
}

/// The JSON key [`to_json`] makes of a mapping key written as `value`: a plain (unquoted,
/// untagged) key is resolved as YAML 1.1 resolves it (`y` and `on` are booleans, so the key
/// is `"true"`; `0x10` is `"16"`), a quoted one is kept as written. `None` for a key the
/// conversion refuses (`~`).
///
/// ```
/// use kstruct_schema::yaml::json_key;
/// assert_eq!(json_key("y", true).as_deref(), Some("true"));
/// assert_eq!(json_key("0x10", true).as_deref(), Some("16"));
/// assert_eq!(json_key("y", false).as_deref(), Some("y"));
/// assert_eq!(json_key("name", true).as_deref(), Some("name"));
/// ```
pub fn json_key(value: &str, plain: bool) -> Option<String> {
    if !plain {
        return Some(value.to_owned());
    }
    let resolved = resolve::scalar_value("", true, value).ok()?;
    convert::key_string(&resolved)
}

/// The events of the first document of `text` as go-yaml's parser delivers them, up to and
/// including that document's end (or the stream's end, for a text without documents). The
/// bytes are read as [`to_json_bytes`] reads them.
///
/// ```
/// use kstruct_schema::yaml::{events, EventKind};
/// let evs = events(b"a: [1, *x]\n").unwrap_err();
/// assert_eq!(evs.message(), "yaml: unknown anchor 'x' referenced");
/// let evs = events(b"spec:\n  size: 3\n").unwrap();
/// // stream start, document start, the root mapping, `spec`, its mapping, then `size`
/// let key = &evs[5];
/// assert!(matches!(&key.kind, EventKind::Scalar { value, .. } if value == "size"));
/// assert_eq!((key.start.line, key.start.column), (1, 2));
/// ```
///
/// # Errors
/// The reader's and parser's errors, as [`to_json_bytes`] reports them; an alias to an
/// anchor not defined before it.
pub fn events(text: &[u8]) -> Result<Vec<Event>, Error> {
    let input = reader::decode(text);
    let mut events = parse::Events::new(&input);
    let mut out = Vec::new();
    let mut anchors = std::collections::HashSet::new();
    loop {
        let ev = events.next()?;
        let end = matches!(ev.kind, EventKind::DocumentEnd | EventKind::StreamEnd);
        match &ev.kind {
            EventKind::Alias { anchor } if !anchors.contains(anchor) => {
                return Err(
                    Error::new(ErrorKind::Decode, format!("yaml: unknown anchor '{anchor}' referenced"))
                        .at(ev.start.line + 1, ev.start.column + 1),
                );
            }
            EventKind::Scalar { anchor: Some(a), .. }
            | EventKind::SequenceStart { anchor: Some(a), .. }
            | EventKind::MappingStart { anchor: Some(a), .. } => {
                anchors.insert(a.clone());
            }
            _ => {}
        }
        out.push(ev);
        if end {
            return Ok(out);
        }
    }
}
