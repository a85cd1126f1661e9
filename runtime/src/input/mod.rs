//! Layer 3: reading a stream of objects (JSON values or YAML documents) as kubectl reads manifests.

use std::path::{Path, PathBuf};

use serde_json::Value;

use kstruct_schema::yaml;

use crate::Error;
use crate::format::BodyFormat;

mod stream;

pub use stream::{JsonStream, StreamDocument};

/// One document of an input stream.
#[derive(Debug)]
pub struct Document {
    /// 0-based position of the document in its stream.
    pub index: usize,
    /// 1-based line where the document starts.
    pub line: usize,
    /// The document as a JSON value, or why it could not be read.
    pub value: Result<Value, Error>,
}

/// Reads every document of `bytes`. A stream whose first non-space character is `{` is read
/// as a sequence of JSON values (as kubectl decides); a stream that starts like another JSON
/// value (`[`, `"`, a number, `true`, `false`, `null`) is read as JSON values when it is one
/// (a JSON string such as `"\ud83d\ude42"` is not valid YAML), and as YAML otherwise; anything
/// else as YAML documents separated by `---` lines, each converted to JSON as
/// `sigs.k8s.io/yaml` converts it.
///
/// A broken YAML document yields an error and the next documents are still read; in a JSON
/// stream nothing after a syntax error can be trusted, so reading stops there. Numbers follow
/// the API server's model: integers that fit `i64` stay integers, all others become `f64`.
///
/// ```
/// let docs = kstruct::input::read_documents(b"a: 1\n---\nb: [x\n---\nc: yes\n", "in.yaml");
/// assert_eq!(docs.len(), 3);
/// assert_eq!(docs[0].value.as_ref().unwrap(), &serde_json::json!({"a": 1}));
/// assert!(docs[1].value.is_err());
/// assert_eq!(docs[2].value.as_ref().unwrap(), &serde_json::json!({"c": true}));
/// ```
pub fn read_documents(bytes: &[u8], origin: &str) -> Vec<Document> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    match first {
        Some(b'{') => read_json_stream(bytes, origin),
        Some(b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => {
            // JSON if it reads as JSON, or if at least two values did before a broken one (a
            // JSON stream with an error, the earlier documents kept, as in a stream starting
            // with `{`); YAML otherwise (`"a"` then a `---` line is a YAML stream).
            let docs = read_json_stream(bytes, origin);
            let read = docs.iter().take_while(|d| d.value.is_ok()).count();
            if read == docs.len() || read >= 2 {
                docs
            } else {
                read_yaml_stream(bytes, origin)
            }
        }
        _ => read_yaml_stream(bytes, origin),
    }
}

fn read_json_stream(bytes: &[u8], origin: &str) -> Vec<Document> {
    let mut docs = Vec::new();
    let mut stream = crate::json::Stream::new(bytes);
    loop {
        if stream.at_end() {
            break;
        }
        let line = stream.line_of(stream.offset());
        match stream.next_value() {
            Ok(None) => break,
            Ok(Some(decoded)) => docs.push(Document {
                index: docs.len(),
                line,
                value: Ok(decoded.value),
            }),
            Err(e) => {
                let err = Error::Input {
                    origin: origin.to_string(),
                    line: e.line,
                    message: format!("invalid JSON: {}", e.message),
                };
                docs.push(Document {
                    index: docs.len(),
                    line,
                    value: Err(err),
                });
                break;
            }
        }
    }
    docs
}

fn read_yaml_stream(bytes: &[u8], origin: &str) -> Vec<Document> {
    let parts = match yaml::split_document_bytes(bytes) {
        Ok(parts) => parts,
        Err(e) => {
            let err = Error::Input {
                origin: origin.to_string(),
                line: e.line().unwrap_or(1),
                message: e.message().to_string(),
            };
            return vec![Document {
                index: 0,
                line: 1,
                value: Err(err),
            }];
        }
    };
    parts
        .into_iter()
        .enumerate()
        .map(|(index, part)| {
            let value = yaml::to_json_bytes(part.bytes)
                .map(|c| c.value)
                .map_err(|e| Error::Input {
                    origin: origin.to_string(),
                    line: part.first_line + e.line().unwrap_or(1) - 1,
                    message: e.message().to_string(),
                });
            Document {
                index,
                line: part.first_line,
                value,
            }
        })
        .collect()
}

/// One document of an input stream, as the bytes a client would send for it.
#[derive(Debug)]
pub struct RawDocument<'a> {
    /// 0-based position of the document in its stream.
    pub index: usize,
    /// 1-based line where the document starts.
    pub line: usize,
    /// The document's bytes (one JSON value, or one YAML document), or why the stream could
    /// not be split there.
    pub body: Result<&'a [u8], Error>,
    /// How the bytes are to be read.
    pub format: BodyFormat,
}

/// Splits `bytes` into request bodies, without decoding them: a stream whose first non-space
/// character is `{` into its JSON values, anything else into its YAML documents (as
/// [`read_documents`] tells them apart). YAML documents that are empty or hold only comments
/// are skipped, as kubectl skips them. A stream of a single document is one body,
/// white space and all.
///
/// ```
/// let docs = kstruct::input::split_documents(b"a: 1\n---\n# nothing\n---\nb: 2\n", "in.yaml");
/// let bodies: Vec<_> = docs.iter().map(|d| d.body.as_ref().unwrap().to_vec()).collect();
/// assert_eq!(bodies, [b"a: 1\n".to_vec(), b"b: 2\n".to_vec()]);
/// assert_eq!((docs[0].line, docs[1].line), (1, 5));
/// ```
pub fn split_documents<'a>(bytes: &'a [u8], origin: &str) -> Vec<RawDocument<'a>> {
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|i| bytes[i] == b'{') {
        split_json_stream(bytes)
    } else {
        split_yaml_stream(bytes, origin)
    }
}

fn split_json_stream(bytes: &[u8]) -> Vec<RawDocument<'_>> {
    let docs = split_json_values(bytes);
    whole_if_single(bytes, docs)
}

/// The JSON values of `bytes`, each its own body (a syntax error makes the rest one body).
fn split_json_values(bytes: &[u8]) -> Vec<RawDocument<'_>> {
    let mut docs = Vec::new();
    let mut stream = crate::json::Stream::new(bytes);
    while !stream.at_end() {
        let start = stream.offset();
        let line = stream.line_of(start);
        let (body, broken) = match stream.skip_value() {
            Ok(false) => break,
            // The value is passed over only to find where it ends (and to stop at a syntax
            // error), without being built: decoding reads the bytes, since what it reports
            // depends on them.
            Ok(true) => (&bytes[start..stream.offset()], false),
            // A number beyond float64 is the decoder's business, not the splitter's.
            Err(e) if e.message.starts_with("json: cannot unmarshal number") => (&bytes[start..stream.offset()], false),
            // A syntax error: the rest of the stream is one body, and decoding it gives the API
            // server's answer to it, with the error's position. Nothing after it can be trusted.
            Err(_) => (&bytes[start..], true),
        };
        docs.push(RawDocument {
            index: docs.len(),
            line,
            body: Ok(body),
            format: BodyFormat::Json,
        });
        if broken {
            break;
        }
    }
    docs
}

/// Whether a YAML document holds nothing but blank lines and comments (kubectl skips such
/// documents: they decode to `null`).
fn is_blank_yaml(doc: &[u8]) -> bool {
    doc.split(|&b| b == b'\n').all(|line| {
        let line = line.trim_ascii_start();
        line.is_empty() || line[0] == b'#'
    })
}

/// A stream of one document is one body, surrounding white space included, as a client
/// sending the file would send it.
fn whole_if_single<'a>(bytes: &'a [u8], mut docs: Vec<RawDocument<'a>>) -> Vec<RawDocument<'a>> {
    if let [doc] = docs.as_mut_slice()
        && doc.body.is_ok()
    {
        doc.body = Ok(bytes);
        doc.line = 1;
    }
    docs
}

fn split_yaml_stream<'a>(bytes: &'a [u8], origin: &str) -> Vec<RawDocument<'a>> {
    let parts = match yaml::split_document_bytes(bytes) {
        Ok(parts) => parts,
        Err(e) => {
            return vec![RawDocument {
                index: 0,
                line: 1,
                body: Err(Error::Input {
                    origin: origin.to_string(),
                    line: e.line().unwrap_or(1),
                    message: e.message().to_string(),
                }),
                format: BodyFormat::Yaml,
            }];
        }
    };
    let single = parts.len() == 1;
    let mut docs = Vec::new();
    for part in parts {
        if is_blank_yaml(part.bytes) {
            continue;
        }
        docs.push(RawDocument {
            index: docs.len(),
            line: part.first_line,
            body: Ok(part.bytes),
            format: BodyFormat::Yaml,
        });
    }
    if single { whole_if_single(bytes, docs) } else { docs }
}

/// Every `.yaml`, `.yml` and `.json` file below `dir` (recursively, in path order), leaving
/// out files and directories `skip` names; beside them, each directory that could not be read,
/// with why. This is how `kstruct lint`, `kstruct check` and
/// [`Registry::load_dir`](crate::Registry::load_dir) read directories.
pub fn manifest_files(dir: &Path, skip: &dyn Fn(&Path) -> bool) -> (Vec<PathBuf>, Vec<(PathBuf, std::io::Error)>) {
    let mut files = Vec::new();
    let mut unreadable = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(e) => e,
            Err(e) => {
                unreadable.push((d, e));
                continue;
            }
        };
        for entry in entries {
            let path = match entry {
                Ok(entry) => entry.path(),
                Err(e) => {
                    unreadable.push((d.clone(), e));
                    continue;
                }
            };
            if skip(&path) {
                continue;
            }
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    (files, unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn values(text: &str) -> Vec<Value> {
        read_documents(text.as_bytes(), "in")
            .into_iter()
            .map(|d| d.value.unwrap_or_else(|e| panic!("{text:?}: {e}")))
            .collect()
    }

    #[test]
    fn json_values_that_are_not_objects_are_read_as_json() {
        // A surrogate pair is JSON, not YAML; raw U+2028 in a string is JSON too.
        assert_eq!(values(r#""\ud83d\ude42""#), [json!("🙂")]);
        assert_eq!(values("[\"a\u{2028}b\", 1]"), [json!(["a\u{2028}b", 1])]);
        assert_eq!(
            values("1 true null [2]"),
            [json!(1), json!(true), json!(null), json!([2])]
        );
        assert_eq!(values("-1.5e3"), [json!(-1500.0)]);
        // Once the first value read as JSON, a broken one is a JSON error.
        let docs = read_documents(b"[1]\n[2]\n[3,", "in");
        assert_eq!(docs.len(), 3);
        assert!(docs[2].value.as_ref().unwrap_err().to_string().contains("invalid JSON"));
    }

    #[test]
    fn yaml_that_starts_like_json_is_still_yaml() {
        assert_eq!(values("name: x\n"), [json!({"name": "x"})]);
        assert_eq!(values("- a\n- b\n"), [json!(["a", "b"])]);
        assert_eq!(values("[a, b]\n"), [json!(["a", "b"])]);
        assert_eq!(values("\"a\"\n---\n\"b\"\n"), [json!("a"), json!("b")]);
        assert_eq!(values("true: yes\n"), [json!({"true": true})]);
    }
}
