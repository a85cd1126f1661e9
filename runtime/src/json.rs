//! Layer 0: a JSON decoder that reads request bodies the way the API server does.
//!
//! `serde_json` is exact about JSON, but the API server (Go's `encoding/json` as forked by
//! `sigs.k8s.io/json`) is lenient where bodies are odd, and strict where `serde_json` is silent:
//!
//! - invalid UTF-8 and unpaired surrogates (`"\ud800"`) in strings become U+FFFD;
//! - integers that fit `i64` stay integers, every other number becomes `f64`
//!   (`9223372036854775808` reads as `9223372036854775808.0`); a number beyond `f64`
//!   (`1e400`) fails;
//! - objects and arrays nest up to 10,000 levels; the 10,001st fails with `exceeded max depth`;
//! - a key repeated in one object is recorded (with its path, once per path, in document
//!   order) and the last value wins, where `serde_json::Value` keeps the last silently.
//!
//! Nothing here recurses, so no input can overflow the stack.

use std::fmt;

use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// The deepest nesting the API server's decoder accepts.
pub const MAX_DEPTH: usize = 10_000;

/// sigs.k8s.io/json keeps at most this many strict errors (duplicate or unknown fields) per
/// decoding call.
pub(crate) const MAX_STRICT_ERRORS: usize = 100;

/// A syntax or range error, with its position in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// What is wrong.
    pub message: String,
    /// 1-based line of the offending byte.
    pub line: usize,
    /// 1-based column (in bytes) of the offending byte.
    pub column: usize,
    /// Byte offset of the offending byte.
    pub offset: usize,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (line {}, column {})", self.message, self.line, self.column)
    }
}

impl std::error::Error for JsonError {}

/// One decoded JSON value and the paths of the keys it repeated.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedJson {
    /// The value (for repeated keys, the last occurrence).
    pub value: Value,
    /// Paths of repeated keys, once each, in the order their repetition appears: `metadata.name`,
    /// `spec.ports[0].hostPort` (keys unescaped, as the API server builds them).
    pub duplicates: Vec<String>,
}

/// Decodes exactly one JSON value from `input` (surrounding whitespace allowed).
///
/// ```
/// let d = kstruct::json::decode(br#"{"a": 1, "b": {"c": 2, "c": 3}, "a": "\ud800"}"#).unwrap();
/// assert_eq!(d.value, serde_json::json!({"a": "\u{fffd}", "b": {"c": 3}}));
/// assert_eq!(d.duplicates, ["b.c", "a"]);
/// ```
pub fn decode(input: &[u8]) -> Result<DecodedJson, JsonError> {
    let body = decode_body(input)?;
    match body.range_error {
        Some(e) => {
            dispose(body.decoded.value);
            Err(e)
        }
        None => Ok(body.decoded),
    }
}

/// Checks that `input` is exactly one JSON value, as Go's `checkValid` does before a typed
/// decoder runs (the same syntax and depth errors as [`decode`], without building the value;
/// numbers beyond `f64` are no syntax error: the typed decoder refuses them per field), and
/// reads what the TypeMeta pre-parse reads: the top-level keys that fold to `kind` or
/// `apiVersion`, in document order, with each value's JSON kind and its text when a string;
/// `Ok(Err(kind))` with the root's JSON kind when the root is not an object (or `null`).
#[allow(clippy::type_complexity)]
pub(crate) fn check_syntax(
    input: &[u8],
) -> Result<Result<Vec<(String, &'static str, Option<String>)>, &'static str>, JsonError> {
    let mut stream = Stream::new(input);
    stream.top_keys = Some(Vec::new());
    if !stream.skip()? {
        return Err(stream.error_at(stream.pos, "unexpected end of JSON input"));
    }
    stream.skip_ws();
    if stream.pos < input.len() {
        return Err(stream.error_at(
            stream.pos,
            &format!(
                "invalid character {} after top-level value",
                describe(input, stream.pos)
            ),
        ));
    }
    let root = input
        .iter()
        .copied()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    match root {
        Some(b'{' | b'n') => {}
        Some(b'[') => return Ok(Err("array")),
        Some(b'"') => return Ok(Err("string")),
        Some(b't' | b'f') => return Ok(Err("bool")),
        _ => return Ok(Err("number")),
    }
    let keys = stream.top_keys.take().unwrap_or_default();
    Ok(Ok(keys
        .into_iter()
        .map(|(key, at)| {
            let (kind, text) = match input.get(at) {
                Some(b'"') => ("string", string_at(input, at).ok().map(|(s, _)| s)),
                Some(b'{') => ("object", None),
                Some(b'[') => ("array", None),
                Some(b't' | b'f') => ("bool", None),
                Some(b'n') => ("null", None),
                _ => ("number", None),
            };
            (key, kind, text)
        })
        .collect()))
}

/// The end of the value that starts at `at` (after any white space) in `input`, which
/// [`check_syntax`] accepted.
pub(crate) fn skip_valid(input: &[u8], mut at: usize) -> usize {
    let mut depth = 0usize;
    loop {
        match input.get(at) {
            None => return at,
            Some(b'"') => {
                at += 1;
                while let Some(&c) = input.get(at) {
                    at += match c {
                        b'\\' => 2,
                        b'"' => break,
                        _ => 1,
                    };
                }
                at += 1;
            }
            Some(b'{' | b'[') => {
                depth += 1;
                at += 1;
                continue;
            }
            Some(b'}' | b']') => {
                depth = depth.saturating_sub(1);
                at += 1;
            }
            Some(b',' | b':' | b' ' | b'\t' | b'\n' | b'\r') => {
                at += 1;
                continue;
            }
            Some(_) => {
                while let Some(&c) = input.get(at) {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    at += 1;
                }
            }
        }
        if depth == 0 {
            return at.min(input.len());
        }
    }
}

/// A request body as the API server's decoders see it: the value, plus what Go notices in
/// separate passes over the same bytes.
pub(crate) struct Body {
    /// The value; a number beyond `f64` reads as `0` here (see `range_error`).
    pub decoded: DecodedJson,
    /// The first number beyond `f64`: Go's syntax check accepts it, its value decoding fails.
    pub range_error: Option<JsonError>,
    /// Top-level keys that Go's case-insensitive TypeMeta pre-parse matches to `kind` or
    /// `apiVersion`, in document order (repeats included), with the JSON kind of each value.
    pub type_meta: Vec<(String, &'static str, Option<String>)>,
}

/// Decodes exactly one value, keeping the facts [`Body`] describes. Syntax errors anywhere
/// (and nesting beyond [`MAX_DEPTH`]) win over a range error, as Go checks syntax first.
pub(crate) fn decode_body(input: &[u8]) -> Result<Body, JsonError> {
    let mut stream = Stream::new(input);
    stream.record_type_meta = true;
    let first = stream.read()?;
    let Some(decoded) = first else {
        return Err(stream.error_at(stream.pos, "unexpected end of JSON input"));
    };
    stream.skip_ws();
    if stream.pos < input.len() {
        dispose(decoded.value);
        return Err(stream.error_at(
            stream.pos,
            &format!(
                "invalid character {} after top-level value",
                describe(input, stream.pos)
            ),
        ));
    }
    Ok(Body {
        decoded,
        range_error: stream.range_error.take(),
        type_meta: std::mem::take(&mut stream.type_meta),
    })
}

/// A sequence of JSON values in one input, as `kubectl` reads a JSON stream.
pub struct Stream<'a> {
    input: &'a [u8],
    pos: usize,
    /// Lines counted so far: the line of byte `line_at`, so that asking for the lines of
    /// successive documents costs one pass over the input in all.
    line_at: std::cell::Cell<(usize, usize)>,
    /// The first number beyond `f64` in the value being read.
    range_error: Option<JsonError>,
    record_type_meta: bool,
    type_meta: Vec<(String, &'static str, Option<String>)>,
    /// While skipping: top-level keys that fold to `kind` or `apiVersion`, with where their
    /// values start.
    top_keys: Option<Vec<(String, usize)>>,
}

/// A container being built.
enum Frame {
    Array(Vec<Value>),
    /// An object, the key whose value is being read, and how many duplicates had been found
    /// when that key was read (where a repeat of the key belongs in document order: Go
    /// reports it when it reads the key, before any repeat inside the key's value).
    Object(Map<String, Value>, Option<String>, usize),
}

impl<'a> Stream<'a> {
    /// A stream over `input`.
    pub fn new(input: &'a [u8]) -> Stream<'a> {
        Stream {
            input,
            pos: 0,
            line_at: std::cell::Cell::new((0, 1)),
            range_error: None,
            record_type_meta: false,
            type_meta: Vec::new(),
            top_keys: None,
        }
    }

    /// Byte offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The 1-based line of byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.input.len());
        let (mut at, mut line) = self.line_at.get();
        if offset < at {
            (at, line) = (0, 1);
        }
        line += self.input[at..offset].iter().filter(|&&b| b == b'\n').count();
        self.line_at.set((offset, line));
        line
    }

    fn error_at(&self, offset: usize, message: &str) -> JsonError {
        let offset = offset.min(self.input.len());
        let line_start = self.input[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        JsonError {
            message: message.to_string(),
            line: self.line_of(offset),
            column: offset - line_start + 1,
            offset,
        }
    }

    fn skip_ws(&mut self) {
        while self.pos < self.input.len() && matches!(self.input[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    /// Skips whitespace and reports whether input remains.
    pub fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.input.len()
    }

    /// Reads the next value, or `None` at the end of the input.
    pub fn next_value(&mut self) -> Result<Option<DecodedJson>, JsonError> {
        let value = self.read()?;
        match self.range_error.take() {
            Some(e) => {
                if let Some(d) = value {
                    dispose(d.value);
                }
                Err(e)
            }
            None => Ok(value),
        }
    }

    /// Go's `invalid character 'c' <context>` for the byte at the current position.
    fn invalid_here(&self, context: &str) -> JsonError {
        self.error_at(
            self.pos,
            &format!("invalid character {} {context}", describe(self.input, self.pos)),
        )
    }

    /// Passes over the next value as [`next_value`](Self::next_value) reads it, without
    /// building it: the same syntax, depth and number checks, the same errors, the same end.
    /// `Ok(false)` at the end of the input.
    pub fn skip_value(&mut self) -> Result<bool, JsonError> {
        let read = self.skip();
        match (read, self.range_error.take()) {
            (Ok(_), Some(e)) => Err(e),
            (read, _) => read,
        }
    }

    /// A key, passed over; a top-level key (`top`) that folds to `kind` or `apiVersion` is
    /// noted with where its value starts, when [`top_keys`](Self::top_keys) is kept.
    fn skip_key_at(&mut self, top: bool) -> Result<(), JsonError> {
        if !(top && self.top_keys.is_some()) {
            return self.skip_key();
        }
        let key = self.key()?;
        if folds_to_type_meta(&key) {
            self.skip_ws();
            let at = self.pos;
            if let Some(keys) = &mut self.top_keys {
                keys.push((key, at));
            }
        }
        Ok(())
    }

    fn skip(&mut self) -> Result<bool, JsonError> {
        if self.at_end() {
            return Ok(false);
        }
        // The open containers: `true` for an object.
        let mut stack: Vec<bool> = Vec::new();
        loop {
            self.skip_ws();
            let Some(&c) = self.input.get(self.pos) else {
                return Err(self.error_at(self.pos, "unexpected end of JSON input"));
            };
            let mut done = match c {
                b'{' | b'[' => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.error_at(self.pos, "exceeded max depth"));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    let closing = if c == b'{' { b'}' } else { b']' };
                    if self.input.get(self.pos) == Some(&closing) {
                        self.pos += 1;
                        true
                    } else if c == b'[' {
                        stack.push(false);
                        continue;
                    } else {
                        self.skip_key_at(stack.is_empty())?;
                        stack.push(true);
                        continue;
                    }
                }
                b'"' => {
                    self.skip_string()?;
                    true
                }
                b't' => {
                    self.literal(b"true", Value::Null)?;
                    true
                }
                b'f' => {
                    self.literal(b"false", Value::Null)?;
                    true
                }
                b'n' => {
                    self.literal(b"null", Value::Null)?;
                    true
                }
                b'-' | b'0'..=b'9' => {
                    self.number()?;
                    true
                }
                _ => {
                    return Err(self.invalid_here("looking for beginning of value"));
                }
            };
            while done {
                let Some(&object) = stack.last() else {
                    return Ok(true);
                };
                done = false;
                self.skip_ws();
                match (object, self.input.get(self.pos)) {
                    (false, Some(b',')) => self.pos += 1,
                    (true, Some(b',')) => {
                        self.pos += 1;
                        self.skip_ws();
                        self.skip_key_at(stack.len() == 1)?;
                    }
                    (false, Some(b']')) | (true, Some(b'}')) => {
                        self.pos += 1;
                        stack.pop();
                        done = true;
                    }
                    (false, Some(_)) => {
                        return Err(self.invalid_here("after array element"));
                    }
                    (true, Some(_)) => {
                        return Err(self.invalid_here("after object key:value pair"));
                    }
                    (_, None) => return Err(self.error_at(self.pos, "unexpected end of JSON input")),
                }
            }
        }
    }

    fn read(&mut self) -> Result<Option<DecodedJson>, JsonError> {
        if self.at_end() {
            return Ok(None);
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut duplicates: Vec<String> = Vec::new();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        loop {
            // Read one value start: a scalar completes at once, a container opens a frame.
            self.skip_ws();
            let Some(&c) = self.input.get(self.pos) else {
                return Err(self.error_at(self.pos, "unexpected end of JSON input"));
            };
            let mut done: Option<Value> = match c {
                b'{' | b'[' => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.error_at(self.pos, "exceeded max depth"));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    let closing = if c == b'{' { b'}' } else { b']' };
                    if self.input.get(self.pos) == Some(&closing) {
                        self.pos += 1;
                        Some(if c == b'{' {
                            Value::Object(Map::new())
                        } else {
                            Value::Array(Vec::new())
                        })
                    } else if c == b'[' {
                        stack.push(Frame::Array(Vec::new()));
                        continue;
                    } else {
                        let key = self.key()?;
                        stack.push(Frame::Object(Map::new(), Some(key), duplicates.len()));
                        continue;
                    }
                }
                b'"' => Some(Value::String(self.string()?)),
                b't' => Some(self.literal(b"true", Value::Bool(true))?),
                b'f' => Some(self.literal(b"false", Value::Bool(false))?),
                b'n' => Some(self.literal(b"null", Value::Null)?),
                b'-' | b'0'..=b'9' => Some(self.number()?),
                _ => {
                    return Err(self.invalid_here("looking for beginning of value"));
                }
            };
            // Hand the finished value to its container, closing containers as they complete.
            while let Some(value) = done.take() {
                let Some((frame, parents)) = stack.split_last_mut() else {
                    return Ok(Some(DecodedJson { value, duplicates }));
                };
                self.skip_ws();
                match frame {
                    Frame::Array(items) => {
                        items.push(value);
                        match self.input.get(self.pos) {
                            Some(b',') => self.pos += 1,
                            Some(b']') => {
                                self.pos += 1;
                                let Some(Frame::Array(items)) = stack.pop() else {
                                    unreachable!()
                                };
                                done = Some(Value::Array(items));
                            }
                            Some(_) => {
                                return Err(self.invalid_here("after array element"));
                            }
                            None => return Err(self.error_at(self.pos, "unexpected end of JSON input")),
                        }
                    }
                    Frame::Object(map, key, mark) => {
                        let k = key.take().unwrap_or_default();
                        if self.record_type_meta && parents.is_empty() && folds_to_type_meta(&k) {
                            let text = value.as_str().map(str::to_string);
                            self.type_meta
                                .push((k.clone(), kstruct_schema::go::json_kind(&value), text));
                        }
                        match map.entry(k) {
                            Entry::Vacant(e) => {
                                e.insert(value);
                            }
                            Entry::Occupied(mut e) => {
                                // The last value wins; the path is built only for repeats.
                                let path = path_to(parents, e.key());
                                if seen.insert(path.clone()) {
                                    duplicates.insert(*mark, path);
                                }
                                // The replaced value may nest deeply.
                                dispose(e.insert(value));
                            }
                        }
                        match self.input.get(self.pos) {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                *key = Some(self.key()?);
                                *mark = duplicates.len();
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Frame::Object(map, ..)) = stack.pop() else {
                                    unreachable!()
                                };
                                done = Some(Value::Object(map));
                            }
                            Some(_) => {
                                return Err(self.invalid_here("after object key:value pair"));
                            }
                            None => return Err(self.error_at(self.pos, "unexpected end of JSON input")),
                        }
                    }
                }
            }
        }
    }

    /// Reads `"key"` and the `:` after it.
    fn key(&mut self) -> Result<String, JsonError> {
        self.key_with(Self::string)
    }

    /// [`key`](Self::key) without building the key (for [`skip`](Self::skip)).
    fn skip_key(&mut self) -> Result<(), JsonError> {
        self.key_with(Self::skip_string)
    }

    #[inline(always)]
    fn key_with<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T, JsonError>) -> Result<T, JsonError> {
        match self.input.get(self.pos) {
            Some(b'"') => {}
            Some(_) => {
                return Err(self.error_at(
                    self.pos,
                    &format!(
                        "invalid character {} looking for beginning of object key string",
                        describe(self.input, self.pos)
                    ),
                ));
            }
            None => return Err(self.error_at(self.pos, "unexpected end of JSON input")),
        }
        let key = read(self)?;
        self.skip_ws();
        match self.input.get(self.pos) {
            Some(b':') => {
                self.pos += 1;
                Ok(key)
            }
            Some(_) => Err(self.error_at(
                self.pos,
                &format!("invalid character {} after object key", describe(self.input, self.pos)),
            )),
            None => Err(self.error_at(self.pos, "unexpected end of JSON input")),
        }
    }

    fn literal(&mut self, word: &[u8], v: Value) -> Result<Value, JsonError> {
        for (i, &w) in word.iter().enumerate() {
            match self.input.get(self.pos + i) {
                Some(&b) if b == w => {}
                Some(_) => {
                    let message = format!(
                        "invalid character {} in literal {} (expecting {})",
                        describe(self.input, self.pos + i),
                        String::from_utf8_lossy(word),
                        describe(word, i)
                    );
                    return Err(self.error_at(self.pos + i, &message));
                }
                None => return Err(self.error_at(self.pos + i, "unexpected end of JSON input")),
            }
        }
        self.pos += word.len();
        Ok(v)
    }

    /// A number, in the API server's model: `i64` when the literal is an integer that fits,
    /// else `f64`.
    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        let b = self.input;
        let mut i = self.pos;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while matches!(b.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            Some(_) => {
                return Err(self.error_at(i, &format!("invalid character {} in numeric literal", describe(b, i))));
            }
            None => return Err(self.error_at(i, "unexpected end of JSON input")),
        }
        let mut integer = true;
        if b.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                return Err(self.digit_error(i, "in numeric literal"));
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            integer = false;
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                return Err(self.digit_error(i, "in numeric literal"));
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        self.pos = i;
        // The literal is ASCII by construction.
        let text = std::str::from_utf8(&b[start..i]).unwrap_or("0");
        if integer && let Ok(n) = text.parse::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Value::Number(Number::from_f64(f).unwrap_or_else(|| 0.into()))),
            _ => {
                // Go's syntax check accepts the literal; only its conversion fails, later.
                if self.range_error.is_none() {
                    self.range_error = Some(self.error_at(
                        start,
                        &format!("json: cannot unmarshal number {text} into Go value of type float64"),
                    ));
                }
                Ok(Value::Number(0.into()))
            }
        }
    }

    fn digit_error(&self, i: usize, context: &str) -> JsonError {
        match self.input.get(i) {
            Some(_) => self.error_at(i, &format!("invalid character {} {context}", describe(self.input, i))),
            None => self.error_at(i, "unexpected end of JSON input"),
        }
    }

    /// A string literal; invalid UTF-8 and unpaired surrogates become U+FFFD, as in Go.
    /// Steps over a string as [`string`](Self::string) reads it (the same errors), without
    /// building it unless it has escapes or control characters.
    fn skip_string(&mut self) -> Result<(), JsonError> {
        let b = self.input;
        let i = crate::text::stop(b, self.pos + 1);
        if i < b.len() && b[i] == b'"' {
            self.pos = i + 1;
            return Ok(());
        }
        self.string().map(drop)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        let b = self.input;
        let start = self.pos;
        self.pos += 1;
        // Fast path: no escapes and valid UTF-8 up to the closing quote.
        let i = crate::text::stop(b, self.pos);
        if i < b.len()
            && b[i] == b'"'
            && let Ok(s) = std::str::from_utf8(&b[self.pos..i])
        {
            self.pos = i + 1;
            return Ok(s.to_string());
        }
        let mut out = String::new();
        let mut i = self.pos;
        loop {
            let Some(&c) = b.get(i) else {
                return Err(self.error_at(start, "unexpected end of JSON input"));
            };
            match c {
                b'"' => {
                    self.pos = i + 1;
                    return Ok(out);
                }
                b'\\' => {
                    let Some(&e) = b.get(i + 1) else {
                        return Err(self.error_at(i + 1, "unexpected end of JSON input"));
                    };
                    i += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4(i)?;
                            i += 4;
                            if (0xD800..0xDC00).contains(&hi) {
                                // A high surrogate pairs only with an immediately following
                                // low-surrogate escape; otherwise it stands alone as U+FFFD.
                                let lo = if b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u') {
                                    self.hex4(i + 2).ok()
                                } else {
                                    None
                                };
                                match lo {
                                    Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                                        let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                        out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                                        i += 6;
                                    }
                                    _ => out.push('\u{fffd}'),
                                }
                            } else {
                                out.push(char::from_u32(hi).unwrap_or('\u{fffd}'));
                            }
                        }
                        _ => {
                            return Err(self.error_at(i - 2, &escape_error(b, i - 2, 2)));
                        }
                    }
                }
                c if c < 0x20 => {
                    return Err(self.error_at(i, &format!("invalid character {} in string", describe(b, i))));
                }
                c if c < 0x80 => {
                    out.push(c as char);
                    i += 1;
                }
                _ => {
                    // Decode one UTF-8 sequence; each byte of an invalid one becomes U+FFFD.
                    let end = (i + 4).min(b.len());
                    match std::str::from_utf8(&b[i..end]) {
                        Ok(s) => {
                            let ch = s.chars().next().unwrap_or('\u{fffd}');
                            out.push(ch);
                            i += ch.len_utf8();
                        }
                        Err(e) if e.valid_up_to() > 0 => {
                            let s = std::str::from_utf8(&b[i..i + e.valid_up_to()]).unwrap_or("");
                            let ch = s.chars().next().unwrap_or('\u{fffd}');
                            out.push(ch);
                            i += ch.len_utf8();
                        }
                        Err(_) => {
                            out.push('\u{fffd}');
                            i += 1;
                        }
                    }
                }
            }
        }
    }

    fn hex4(&self, i: usize) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for k in 0..4 {
            let Some(&c) = self.input.get(i + k) else {
                return Err(self.error_at(i + k, "unexpected end of JSON input"));
            };
            let Some(d) = hex_digit(c) else {
                return Err(self.error_at(i + k, &escape_error(self.input, i - 2, 6)));
            };
            v = v * 16 + d;
        }
        Ok(v)
    }
}

/// The value of a hexadecimal digit of a `\u` escape.
fn hex_digit(c: u8) -> Option<u32> {
    char::from(c).to_digit(16)
}

/// The value of the four hexadecimal digits of a `\u` escape (`None` when `d` is not four
/// of them).
pub(crate) fn hex4(d: &[u8]) -> Option<u32> {
    match d {
        &[a, b, c, e] => [a, b, c, e]
            .into_iter()
            .try_fold(0, |n, x| Some(n * 16 + hex_digit(x)?)),
        _ => None,
    }
}

/// The string literal whose opening quote is `input[at]`, decoded as every string is read here
/// (invalid UTF-8 and unpaired surrogates as U+FFFD), and the offset just after it.
pub(crate) fn string_at(input: &[u8], at: usize) -> Result<(String, usize), JsonError> {
    let mut stream = Stream::new(input);
    stream.pos = at;
    let s = stream.string()?;
    Ok((s, stream.pos))
}

/// Appends `n` in decimal without going through `fmt` (list indices are written once per
/// element while paths are tracked).
pub(crate) fn push_decimal<O: kstruct_schema::go::JsonOut + ?Sized>(out: &mut O, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push_ascii(d);
    }
}

/// The path of `key` in the innermost object, below the open containers `parents`, as
/// sigs.k8s.io/json builds it: the first key as is, later keys after a `.`, indices as `[i]`,
/// and `.key` after any parent (so a key below an empty key reads `.key`).
fn path_to(parents: &[Frame], key: &str) -> String {
    let mut path = String::new();
    for (depth, frame) in parents.iter().enumerate() {
        match frame {
            Frame::Array(items) => {
                path.push('[');
                path.push_str(&items.len().to_string());
                path.push(']');
            }
            Frame::Object(_, k, _) => {
                if depth > 0 {
                    path.push('.');
                }
                path.push_str(k.as_deref().unwrap_or_default());
            }
        }
    }
    if !parents.is_empty() {
        path.push('.');
    }
    path.push_str(key);
    path
}

/// Whether Go's `encoding/json` matches `key` to the field `kind` or `apiVersion`: case is
/// folded (ASCII, plus the Kelvin sign for `k` and the long s for `s`, which fold with them).
pub(crate) fn folds_to_type_meta(key: &str) -> bool {
    folds_to(key, "kind") || folds_to(key, "apiversion")
}

/// Whether `key` equals the lower-case ASCII `name` under Go's case folding.
pub(crate) fn folds_to(key: &str, name: &str) -> bool {
    let folded = key.chars().map(|c| match c {
        '\u{212a}' => 'k',
        '\u{17f}' => 's',
        c => c.to_ascii_lowercase(),
    });
    folded.eq(name.chars())
}

/// Go's (json/v2's) text for a bad escape: the escape as written, at most `len` characters
/// from its backslash: ``invalid escape sequence `\x` in string``.
fn escape_error(input: &[u8], backslash: usize, len: usize) -> String {
    let rest = String::from_utf8_lossy(&input[backslash.min(input.len())..]);
    let seq: String = rest.chars().take(len).collect();
    format!("invalid escape sequence `{seq}` in string")
}

/// How Go names the character at `input[at]` in its errors: `'x'`, `'\\''`, `'"'`, escapes as
/// `strconv.Quote` writes them (`'\\n'`, `'\\x00'`, `'\\ufeff'`), a byte that starts no UTF-8
/// character as `'\\xff'`.
fn describe(input: &[u8], at: usize) -> String {
    let rest = &input[at.min(input.len())..];
    let c = match rest.first() {
        None => return "EOF".to_string(),
        Some(b'\'') => return "'\\''".to_string(),
        Some(b'"') => return "'\"'".to_string(),
        Some(&b) if b.is_ascii() => b as char,
        Some(&b) => {
            let len = rest.len().min(4);
            let valid = match std::str::from_utf8(&rest[..len]) {
                Ok(s) => s,
                Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
            };
            match valid.chars().next() {
                Some(c) => c,
                None => return format!("'\\x{b:02x}'"),
            }
        }
    };
    let quoted = kstruct_schema::go::quote(&c.to_string());
    format!("'{}'", &quoted[1..quoted.len() - 1])
}

/// Clones a value without recursion (cloning a deep `serde_json::Value` recurses).
pub fn deep_clone(v: &Value) -> Value {
    /// A container being rebuilt: the source's children still to copy, and the copies so far.
    enum Open<'a> {
        Array(std::slice::Iter<'a, Value>, Vec<Value>),
        Object(serde_json::map::Iter<'a>, Map<String, Value>, Option<String>),
    }
    fn open(v: &Value) -> Result<Open<'_>, Value> {
        match v {
            Value::Array(a) => Ok(Open::Array(a.iter(), Vec::with_capacity(a.len()))),
            Value::Object(m) => Ok(Open::Object(m.iter(), Map::new(), None)),
            scalar => Err(scalar.clone()),
        }
    }
    let mut stack = match open(v) {
        Ok(o) => vec![o],
        Err(scalar) => return scalar,
    };
    loop {
        let Some(top) = stack.last_mut() else {
            return Value::Null;
        };
        let next = match top {
            Open::Array(it, _) => it.next(),
            Open::Object(it, _, key) => it.next().map(|(k, v)| {
                *key = Some(k.clone());
                v
            }),
        };
        let done = match next {
            Some(child) => match open(child) {
                Ok(o) => {
                    stack.push(o);
                    continue;
                }
                Err(scalar) => scalar,
            },
            None => match stack.pop() {
                Some(Open::Array(_, items)) => Value::Array(items),
                Some(Open::Object(_, map, _)) => Value::Object(map),
                None => return Value::Null,
            },
        };
        // Hand a finished value to its parent, or return it.
        match stack.last_mut() {
            None => return done,
            Some(Open::Array(_, items)) => items.push(done),
            Some(Open::Object(_, map, key)) => {
                map.insert(key.take().unwrap_or_default(), done);
            }
        }
    }
}

/// Drops a value without recursion (dropping a deep `serde_json::Value` recurses).
pub fn dispose(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn indices_print_as_decimal() {
        for n in [0, 7, 10, 99, 1_000, 123_456_789, usize::MAX] {
            let mut out = String::from("x[");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x[{n}"));
            let mut bytes = b"x[".to_vec();
            push_decimal(&mut bytes, n);
            assert_eq!(bytes, format!("x[{n}").into_bytes());
        }
    }

    #[test]
    fn numbers_follow_the_servers_model() {
        let d =
            decode(b"[0, -0, 1.0, 1e3, 9223372036854775807, 9223372036854775808, -9223372036854775809, 0.1]").unwrap();
        let a = d.value.as_array().unwrap();
        assert!(a[0].is_i64() && a[1].is_i64() && a[4].is_i64());
        assert!(a[2].is_f64() && a[3].is_f64() && a[5].is_f64() && a[6].is_f64());
        assert_eq!(a[6].as_f64(), Some(-9223372036854775809.0));
        assert!(
            decode(b"1e400")
                .unwrap_err()
                .message
                .contains("cannot unmarshal number 1e400")
        );
        assert!(decode(b"01").is_err());
        assert!(decode(b"1.").is_err());
    }

    #[test]
    fn strings_replace_bad_text() {
        let d = decode(b"[\"\\ud800\", \"\\ud800\\u0041\", \"\\ud83d\\ude00\", \"a\xffb\", \"\xe2\x82\", \"\\u00e9\"]")
            .unwrap();
        assert_eq!(
            d.value,
            json!([
                "\u{fffd}",
                "\u{fffd}A",
                "\u{1f600}",
                "a\u{fffd}b",
                "\u{fffd}\u{fffd}",
                "é"
            ])
        );
        assert!(decode(b"\"a\nb\"").is_err());
        assert!(decode(b"\"\\x\"").is_err());
    }

    #[test]
    fn duplicates_once_per_path_in_document_order() {
        let d = decode(br#"{"metadata": {"name": "a", "name": "b"}, "spec": {"l": [{"x": 1, "x": 2}, {"y": 1, "y": 1, "y": 3}]}, "metadata": {"name": 1, "name": 2}}"#).unwrap();
        assert_eq!(
            d.duplicates,
            ["metadata.name", "spec.l[0].x", "spec.l[1].y", "metadata"]
        );
        assert_eq!(d.value["metadata"], json!({"name": 2}));
    }

    #[test]
    fn repeated_keys_are_reported_before_what_their_values_repeat() {
        let d = decode(br#"{"a": {"c": 1}, "a": {"b": 1, "b": 2}, "a": {"b": {"b": 1, "b": 1}}}"#).unwrap();
        assert_eq!(d.duplicates, ["a", "a.b", "a.b.b"]);
        // Below an empty key, paths start with its separator, as sigs.k8s.io/json joins them.
        let d = decode(
            br#"{"": {"x": 1, "x": 2, "": {"": 1, "": 2}}, "a": {"": {"b": 1, "b": 2}}, "l": [[{"q": 1, "q": 2}]]}"#,
        )
        .unwrap();
        assert_eq!(d.duplicates, [".x", "..", "a..b", "l[0][0].q"]);
    }

    #[test]
    fn errors_name_characters_as_go_quotes_them() {
        let msg = |b: &[u8]| decode(b).unwrap_err().message;
        assert_eq!(msg(b"\x0b{}"), "invalid character '\\v' looking for beginning of value");
        assert_eq!(
            msg(b"\xef\xbb\xbf{}"),
            "invalid character '\\ufeff' looking for beginning of value"
        );
        assert_eq!(
            msg(b"{\"a\": \xc3\xa9}"),
            "invalid character '\u{e9}' looking for beginning of value"
        );
        assert_eq!(msg(b"\xff"), "invalid character '\\xff' looking for beginning of value");
        assert_eq!(msg(b"{\"a\":\"\n\"}"), "invalid character '\\n' in string");
        assert_eq!(msg(br#"{"a":"\x41"}"#), "invalid escape sequence `\\x` in string");
        assert_eq!(msg(br#"{"a":"\u12"}"#), "invalid escape sequence `\\u12\"}` in string");
        assert_eq!(
            msg(br#"{"a":"\ud800\uzzzz"}"#),
            "invalid escape sequence `\\uzzzz` in string"
        );
        assert_eq!(msg(b"1.}"), "invalid character '}' in numeric literal");
        assert_eq!(msg(b"1e}"), "invalid character '}' in numeric literal");
        assert_eq!(msg(b"'"), "invalid character '\\'' looking for beginning of value");
    }

    #[test]
    fn nesting_limit_is_the_servers() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        let v = decode(ok.as_bytes()).unwrap().value;
        dispose(v);
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(decode(deep.as_bytes()).unwrap_err().message, "exceeded max depth");
        let objects = format!("{}1{}", "{\"a\":".repeat(MAX_DEPTH), "}".repeat(MAX_DEPTH));
        dispose(decode(objects.as_bytes()).unwrap().value);
    }

    #[test]
    fn errors_have_positions() {
        let e = decode(b"{\n  \"a\": tru\n}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 11));
        let e = decode(b"{\"a\": 1} x").unwrap_err();
        assert_eq!(e.message, "invalid character 'x' after top-level value");
        assert_eq!(decode(b"").unwrap_err().message, "unexpected end of JSON input");
        assert_eq!(
            decode(b"{\"a\" 1}").unwrap_err().message,
            "invalid character '1' after object key"
        );
    }

    #[test]
    fn deep_clones_do_not_recurse() {
        let v = json!({"a": [1, {"b": null, "c": [[], {}]}], "d": "e"});
        assert_eq!(deep_clone(&v), v);
        assert_eq!(deep_clone(&json!(3)), json!(3));
        let deep = format!("{}{}", "{\"a\":[".repeat(MAX_DEPTH / 2), "]}".repeat(MAX_DEPTH / 2));
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || {
                let v = decode(deep.as_bytes()).unwrap().value;
                let c = deep_clone(&v);
                assert_eq!(kstruct_schema::go::marshal_json(&c).len(), deep.len());
                dispose(v);
                dispose(c);
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn streams_of_values() {
        let mut s = Stream::new(b"{\"a\":1}\n{\"b\":2} [3]");
        let mut n = 0;
        while let Some(v) = s.next_value().unwrap() {
            n += 1;
            assert!(!v.value.is_null());
        }
        assert_eq!(n, 3);
    }
}

#[cfg(test)]
mod skip_tests {
    use super::*;
    use proptest::prelude::*;

    /// Each value of `input` read and skipped side by side: the same outcome, the same error
    /// text, the same end.
    fn same_walk(input: &[u8]) -> Result<(), String> {
        let (mut read, mut skip) = (Stream::new(input), Stream::new(input));
        loop {
            let a = read.next_value();
            let b = skip.skip_value();
            let outcome = |r: Result<bool, JsonError>| r.map_err(|e| e.message);
            let a = outcome(a.map(|v| v.is_some()));
            let b = outcome(b);
            if a != b || read.offset() != skip.offset() {
                return Err(format!(
                    "{:?}: read {a:?} to {}, skip {b:?} to {}",
                    String::from_utf8_lossy(input),
                    read.offset(),
                    skip.offset()
                ));
            }
            if !matches!(a, Ok(true)) {
                return Ok(());
            }
        }
    }

    #[test]
    fn skipping_reads_as_reading_does() {
        for input in [
            &b"{} [] 1 \"a\" true"[..],
            b"{\"a\": [1, {\"b\": null}], \"a\": 2} {\"c\": 1e999} [1,]",
            b"{\"a\" 1}",
            b"[1 2]",
            b"\"\\x\"",
            b"\"\x01\"",
            b"tru",
            b"-",
            b"{\"a\":",
            b"\xff\"\xff\"",
        ] {
            same_walk(input).unwrap();
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        same_walk(deep.as_bytes()).unwrap();
    }

    proptest! {
        #[test]
        fn skipping_reads_as_reading_does_on_token_soup(tokens in proptest::collection::vec(
            proptest::sample::select(vec![
                "{", "}", "[", "]", ":", ",", " ", "\n", "\"a\"", "\"b\"", "\"\\u00e9\"", "\"\\ud800\"",
                "\"\\q\"", "\"\u{1}\"", "1", "-0.5e3", "1e999", "-", "01", "true", "nul", "null", "x",
            ]),
            0..40,
        )) {
            let input = tokens.concat();
            prop_assert!(same_walk(input.as_bytes()).is_ok(), "{:?}", same_walk(input.as_bytes()));
        }
    }
}
