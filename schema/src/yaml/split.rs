//! Splitting a stream into documents the way apimachinery's `YAMLReader`
//! does (kubectl's `-f` path): line by line, on lines that start with `---`.

use super::error::{Error, ErrorKind};

/// One document of a stream, as `YAMLReader.Read` returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Document<'a> {
    /// The document's lines, separators excluded. Go hands the same lines to
    /// go-yaml with `\r\n` turned into `\n` and a final `\n` added; both
    /// differences are invisible to the parser.
    pub text: &'a str,
    /// The 1-based line of `text`'s first line in the stream. Lines inside
    /// the document (errors, duplicate keys) map to the stream by adding
    /// `first_line - 1`, see [`Error::offset_lines`].
    pub first_line: usize,
}

/// [`Document`] for a stream that may not be valid UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocumentBytes<'a> {
    /// The document's bytes, separators excluded.
    pub bytes: &'a [u8],
    /// The 1-based line of the first line of `bytes` in the stream.
    pub first_line: usize,
}

/// Splits `stream` into documents as `YAMLReader` does.
///
/// A line starting with `---` ends the current document if anything but
/// white space and a comment follows the dashes the whole stream is rejected
/// with `invalid Yaml document separator: …`. Empty documents (no lines at
/// all between separators) are skipped; documents holding only blank lines or
/// comments are kept (they convert to `null`). `...` lines are left in the
/// text: go-yaml stops reading a document there.
///
/// # Errors
/// [`ErrorKind::Separator`] for a separator line followed by other content.
pub fn split_documents(stream: &str) -> Result<Vec<Document<'_>>, Error> {
    let docs = split_document_bytes(stream.as_bytes())?;
    Ok(docs
        .into_iter()
        .map(|d| Document {
            // Separator lines are ASCII and end at '\n', so every slice
            // boundary is a char boundary.
            text: std::str::from_utf8(d.bytes).unwrap_or_default(),
            first_line: d.first_line,
        })
        .collect())
}

/// [`split_documents`] for bytes, which `YAMLReader` never decodes.
///
/// # Errors
/// [`ErrorKind::Separator`] for a separator line followed by other content.
pub fn split_document_bytes(stream: &[u8]) -> Result<Vec<DocumentBytes<'_>>, Error> {
    let mut docs = Vec::new();
    let mut doc_start = 0;
    let mut doc_line = 1;
    let mut pos = 0;
    let mut line_no = 1;
    while pos < stream.len() {
        let end = stream[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(stream.len(), |i| pos + i + 1);
        // bufio.Reader.ReadLine drops "\n" and a "\r" right before it.
        let mut content = &stream[pos..end];
        if let Some(c) = content.strip_suffix(b"\n") {
            content = c.strip_suffix(b"\r").unwrap_or(c);
        }
        if let Some(after) = content.strip_prefix(b"---") {
            let after = String::from_utf8_lossy(after);
            let trimmed = after.trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                return Err(Error::new(
                    ErrorKind::Separator,
                    format!("invalid Yaml document separator: {trimmed}"),
                )
                .at(line_no, 4));
            }
            if doc_start < pos {
                docs.push(DocumentBytes {
                    bytes: &stream[doc_start..pos],
                    first_line: doc_line,
                });
            }
            doc_start = end;
            doc_line = line_no + 1;
        }
        pos = end;
        line_no += 1;
    }
    if doc_start < stream.len() {
        docs.push(DocumentBytes {
            bytes: &stream[doc_start..],
            first_line: doc_line,
        });
    }
    Ok(docs)
}
