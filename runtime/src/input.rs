//! Reading a stream of objects (JSON values or YAML documents) as kubectl reads manifests.

use serde_json::Value;

use kstruct_schema::yaml;

use crate::Error;

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
/// as a sequence of JSON values (as kubectl decides); anything else as YAML documents
/// separated by `---` lines, each converted to JSON as `sigs.k8s.io/yaml` converts it.
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
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|i| bytes[i] == b'{') {
        read_json_stream(bytes, origin)
    } else {
        read_yaml_stream(bytes, origin)
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
