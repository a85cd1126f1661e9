//! The error type shared by every stage of the conversion.

use std::fmt;

/// Which stage of the conversion failed.
///
/// The stages follow the order in which Go reports them: a stream is split
/// first, then the bytes are read, then the text is parsed, then the node tree
/// is decoded, then the decoded value is made JSON-able, and finally it is
/// marshalled. An error from an earlier stage hides any from a later one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A `---` line followed by something other than a comment
    /// (apimachinery's `YAMLReader`).
    Separator,
    /// Invalid encoding or a forbidden control character (libyaml's reader).
    Reader,
    /// A syntax error found while scanning or parsing (libyaml's scanner and
    /// parser, as go-yaml reports them).
    Syntax,
    /// A failure while building values from the node tree: unknown or
    /// self-containing anchors, excessive aliasing, bad merges, tags that
    /// cannot be honoured, invalid map keys.
    Decode,
    /// Duplicate mapping keys, as `YAMLToJSONStrict` reports them.
    Duplicate,
    /// A map key that JSON cannot represent (`convertToJSONableObject`).
    Convert,
    /// A value `encoding/json` refuses to marshal (`NaN`, `±Inf`).
    Json,
    /// A limit this implementation enforces where Go would go on: the JSON
    /// nesting limit of Go's decoders, or a parser limit that go-yaml lacks.
    Limit,
}

/// A conversion error.
///
/// [`Error::message`] is the text Go would report where Go reports one (for
/// example `yaml: line 3: mapping values are not allowed in this context`);
/// [`Error::line`] and [`Error::column`] locate the problem in the text that
/// was converted, as precisely as this implementation knows it, independently
/// of the line number Go embeds in its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    line: Option<usize>,
    column: Option<usize>,
    context: Option<Context>,
}

/// What the parser was reading when a syntax error stopped it, and where that starts: a
/// quoted scalar left open, the block mapping a line does not fit. libyaml records it;
/// go-yaml's message leaves it out, so it is for people only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    /// libyaml's words, e.g. `while scanning a quoted scalar`.
    pub text: &'static str,
    /// 1-based line where it starts.
    pub line: usize,
    /// 1-based column (in characters) where it starts.
    pub column: usize,
}

impl Error {
    pub(super) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            line: None,
            column: None,
            context: None,
        }
    }

    pub(super) fn with_context(mut self, context: Context) -> Self {
        self.context = Some(context);
        self
    }

    /// What the parser was reading, for a syntax error whose cause starts before the place
    /// where it was found (an unclosed quote, say).
    pub fn context(&self) -> Option<Context> {
        self.context
    }

    pub(super) fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    pub(super) fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    /// The stage that failed.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The error text, equal to Go's where Go reports the same error.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The 1-based line of the problem in the converted text, if known.
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// The 1-based column (in characters) of the problem, if known.
    pub fn column(&self) -> Option<usize> {
        self.column
    }

    /// Shifts the location by `offset` lines, to map a position inside one
    /// document of a stream onto the stream.
    pub fn offset_lines(mut self, offset: usize) -> Self {
        if let Some(line) = self.line.as_mut() {
            *line += offset;
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, " (at line {line}, column {column})"),
            (Some(line), None) => write!(f, " (at line {line})"),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for Error {}
