//! libyaml's scanner as go-yaml v2.4 runs it (`scannerc.go`): text to tokens.
//!
//! This is the algorithm the API server's YAML reader runs, rule for rule, so that kstruct
//! accepts exactly the documents the server accepts, reads the same values from them, and
//! fails where it fails with the same problem at the same mark. Where go-yaml departs from
//! libyaml (potential simple keys are looked up by token number, so a flow collection's end
//! forgets the key its start may have begun; `is_bom` looks at the start of the read buffer
//! rather than at the current character), this follows go-yaml.
//!
//! The reader's lazy decoding is replayed too: [`Scanner::cache`] is called wherever
//! libyaml makes sure its buffer holds enough characters, and it decodes the next raw window
//! (or raises the reader's error) exactly when libyaml's would.

use std::collections::{HashMap, VecDeque};

use super::reader::Input;

/// A position in the text, as libyaml counts it: characters from the start of the text
/// (after a leading byte-order mark), 0-based line and 0-based column in characters. A CR LF
/// pair is two characters and one line break; NEL, U+2028 and U+2029 are line breaks too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mark {
    /// Characters before this position.
    pub index: usize,
    /// 0-based line.
    pub line: usize,
    /// 0-based column, in characters.
    pub column: usize,
}

/// How a scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    /// Unquoted.
    Plain,
    /// `'...'`.
    SingleQuoted,
    /// `"..."`.
    DoubleQuoted,
    /// `|`.
    Literal,
    /// `>`.
    Folded,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum TokenKind {
    StreamStart,
    StreamEnd,
    VersionDirective { major: u8, minor: u8 },
    TagDirective { handle: Vec<u8>, prefix: Vec<u8> },
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(Vec<u8>),
    Anchor(Vec<u8>),
    Tag { handle: Vec<u8>, suffix: Vec<u8> },
    Scalar { value: Vec<u8>, style: ScalarStyle },
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) kind: TokenKind,
    pub(super) start: Mark,
    pub(super) end: Mark,
}

/// Where a parse failed, as libyaml records it.
#[derive(Debug, Clone)]
pub(super) enum Failure {
    /// The reader's error, already located.
    Reader(super::Error),
    /// A scanner (`scanner: true`) or parser error.
    Syntax {
        scanner: bool,
        /// What libyaml was reading (`while scanning a quoted scalar`), which go-yaml leaves
        /// out of its message.
        context: &'static str,
        context_mark: Mark,
        problem: String,
        problem_mark: Mark,
    },
}

pub(super) type Scan<T> = Result<T, Failure>;

#[derive(Clone, Copy, Default)]
struct SimpleKey {
    possible: bool,
    required: bool,
    token_number: usize,
    mark: Mark,
}

/// libyaml's `max_flow_level` and `max_indents`.
const MAX_DEPTH: usize = 10_000;

/// The reader's side of the buffer: which characters are decoded, and where libyaml's buffer
/// starts (its `is_bom` looks there).
struct Feed {
    windows: Vec<usize>,
    next_window: usize,
    /// Characters decoded so far, with the NUL characters the reader appends at the end of
    /// the input (one per refill).
    decoded: usize,
    fault: Option<super::Error>,
    /// Byte offset of the character at the start of libyaml's buffer.
    buffer_start: usize,
}

pub(super) struct Scanner<'a> {
    buf: &'a [u8],
    pos: usize,
    mark: Mark,
    feed: Feed,

    stream_start_produced: bool,
    stream_end_produced: bool,
    tokens: VecDeque<Token>,
    tokens_parsed: usize,
    token_available: bool,

    indent: isize,
    indents: Vec<isize>,
    simple_key_allowed: bool,
    simple_keys: Vec<SimpleKey>,
    simple_keys_by_tok: HashMap<usize, usize>,
    flow_level: usize,
}

fn width(b: u8) -> usize {
    match b {
        b if b & 0x80 == 0 => 1,
        b if b & 0xE0 == 0xC0 => 2,
        b if b & 0xF0 == 0xE0 => 3,
        b if b & 0xF8 == 0xF0 => 4,
        _ => 0,
    }
}

fn is_alpha(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn hex_value(b: u8) -> u32 {
    match b {
        b'A'..=b'F' => u32::from(b - b'A' + 10),
        b'a'..=b'f' => u32::from(b - b'a' + 10),
        _ => u32::from(b.wrapping_sub(b'0')),
    }
}

fn is_uri_char(b: u8) -> bool {
    is_alpha(b) || b";/?:@&=+$,.!~*'()[]%".contains(&b)
}

impl<'a> Scanner<'a> {
    pub(super) fn new(input: &'a Input<'_>) -> Scanner<'a> {
        Scanner {
            buf: input.text.as_bytes(),
            pos: 0,
            mark: Mark::default(),
            feed: Feed {
                windows: input.windows.clone(),
                next_window: 0,
                decoded: 0,
                fault: input.fault.clone(),
                buffer_start: 0,
            },
            stream_start_produced: false,
            stream_end_produced: false,
            tokens: VecDeque::new(),
            tokens_parsed: 0,
            token_available: false,
            indent: -1,
            indents: Vec::new(),
            simple_key_allowed: false,
            simple_keys: Vec::new(),
            simple_keys_by_tok: HashMap::new(),
            flow_level: 0,
        }
    }

    // ---- The buffer -------------------------------------------------------------------

    /// libyaml's `cache`: makes sure `n` characters past the current one are decoded,
    /// decoding further windows as the reader would (and failing where it would).
    fn cache(&mut self, n: usize) -> Scan<()> {
        let feed = &mut self.feed;
        if feed.decoded.saturating_sub(self.mark.index) >= n {
            return Ok(());
        }
        // The reader moves what is left to the start of its buffer.
        feed.buffer_start = self.pos;
        loop {
            if feed.next_window < feed.windows.len() {
                feed.decoded = feed.decoded.max(feed.windows[feed.next_window]);
                feed.next_window += 1;
            } else if let Some(fault) = feed.fault.take() {
                return Err(Failure::Reader(fault));
            } else {
                // End of input: one NUL per refill.
                feed.decoded += 1;
                return Ok(());
            }
            if feed.decoded - self.mark.index >= n {
                return Ok(());
            }
        }
    }

    fn at(&self, k: usize) -> u8 {
        self.buf.get(self.pos + k).copied().unwrap_or(0)
    }

    fn ch(&self) -> u8 {
        self.at(0)
    }

    fn is_z(&self, k: usize) -> bool {
        self.at(k) == 0
    }

    fn is_blank(&self, k: usize) -> bool {
        matches!(self.at(k), b' ' | b'\t')
    }

    fn is_break(&self, k: usize) -> bool {
        match self.at(k) {
            b'\r' | b'\n' => true,
            0xC2 => self.at(k + 1) == 0x85,
            0xE2 => self.at(k + 1) == 0x80 && matches!(self.at(k + 2), 0xA8 | 0xA9),
            _ => false,
        }
    }

    fn is_breakz(&self, k: usize) -> bool {
        self.is_break(k) || self.is_z(k)
    }

    fn is_blankz(&self, k: usize) -> bool {
        self.is_blank(k) || self.is_breakz(k)
    }

    /// go-yaml's `is_bom` looks at the start of the reader's buffer, not at the current
    /// character.
    fn is_bom(&self) -> bool {
        self.buf.get(self.feed.buffer_start..self.feed.buffer_start + 3) == Some(b"\xEF\xBB\xBF")
    }

    fn skip(&mut self) {
        self.mark.index += 1;
        self.mark.column += 1;
        self.pos += width(self.ch()).max(1);
    }

    fn skip_line(&mut self) {
        if self.ch() == b'\r' && self.at(1) == b'\n' {
            self.mark.index += 2;
            self.mark.column = 0;
            self.mark.line += 1;
            self.pos += 2;
        } else if self.is_break(0) {
            self.mark.index += 1;
            self.mark.column = 0;
            self.mark.line += 1;
            self.pos += width(self.ch()).max(1);
        }
    }

    /// Copies the current character to `s` and moves past it.
    fn read(&mut self, s: &mut Vec<u8>) {
        let w = width(self.ch()).max(1);
        s.extend_from_slice(&self.buf[self.pos.min(self.buf.len())..(self.pos + w).min(self.buf.len())]);
        if self.pos >= self.buf.len() {
            s.push(0);
        }
        self.pos += w;
        self.mark.index += 1;
        self.mark.column += 1;
    }

    /// Copies a line break to `s` (CR, LF, CR LF and NEL as `\n`; LS and PS as they are).
    fn read_line(&mut self, s: &mut Vec<u8>) {
        match (self.at(0), self.at(1), self.at(2)) {
            (b'\r', b'\n', _) => {
                s.push(b'\n');
                self.pos += 2;
                self.mark.index += 1;
            }
            (b'\r' | b'\n', _, _) => {
                s.push(b'\n');
                self.pos += 1;
            }
            (0xC2, 0x85, _) => {
                s.push(b'\n');
                self.pos += 2;
            }
            (0xE2, 0x80, c @ (0xA8 | 0xA9)) => {
                s.extend_from_slice(&[0xE2, 0x80, c]);
                self.pos += 3;
            }
            _ => return,
        }
        self.mark.index += 1;
        self.mark.column = 0;
        self.mark.line += 1;
    }

    fn error(&self, context: &'static str, context_mark: Mark, problem: impl Into<String>) -> Failure {
        Failure::Syntax {
            scanner: true,
            context,
            context_mark,
            problem: problem.into(),
            problem_mark: self.mark,
        }
    }

    // ---- The token queue --------------------------------------------------------------

    fn insert_token(&mut self, pos: Option<usize>, token: Token) {
        match pos {
            Some(p) if p <= self.tokens.len() => self.tokens.insert(p, token),
            _ => self.tokens.push_back(token),
        }
    }

    /// Position in the queue of the token numbered `number`, if it is still queued (go-yaml
    /// appends the token when it is not).
    fn queue_position(&self, number: usize) -> Option<usize> {
        number.checked_sub(self.tokens_parsed)
    }

    /// The next token, scanning as far as libyaml must to know it.
    pub(super) fn peek(&mut self) -> Scan<&Token> {
        if !self.token_available {
            self.fetch_more_tokens()?;
        }
        // `fetch_more_tokens` leaves at least one token queued (STREAM-END is the last).
        self.tokens
            .front()
            .ok_or_else(|| self.error("", self.mark, "no more tokens"))
    }

    /// Consumes the token [`Scanner::peek`] returned.
    pub(super) fn skip_token(&mut self) {
        self.token_available = false;
        self.tokens_parsed += 1;
        if let Some(t) = self.tokens.pop_front() {
            self.stream_end_produced = t.kind == TokenKind::StreamEnd;
        }
    }

    fn fetch_more_tokens(&mut self) -> Scan<()> {
        loop {
            if !self.tokens.is_empty() {
                let Some(&idx) = self.simple_keys_by_tok.get(&self.tokens_parsed) else {
                    break;
                };
                if !self.simple_key_is_valid(idx)? {
                    break;
                }
            }
            self.fetch_next_token()?;
        }
        self.token_available = true;
        Ok(())
    }

    fn fetch_next_token(&mut self) -> Scan<()> {
        self.cache(1)?;
        if !self.stream_start_produced {
            self.fetch_stream_start();
            return Ok(());
        }
        self.scan_to_next_token()?;
        self.unroll_indent(self.mark.column as isize);
        self.cache(4)?;
        if self.is_z(0) {
            return self.fetch_stream_end();
        }
        let c = self.ch();
        let col0 = self.mark.column == 0;
        if col0 && c == b'%' {
            return self.fetch_directive();
        }
        if col0 && c == b'-' && self.at(1) == b'-' && self.at(2) == b'-' && self.is_blankz(3) {
            return self.fetch_document_indicator(TokenKind::DocumentStart);
        }
        if col0 && c == b'.' && self.at(1) == b'.' && self.at(2) == b'.' && self.is_blankz(3) {
            return self.fetch_document_indicator(TokenKind::DocumentEnd);
        }
        match c {
            b'[' => return self.fetch_flow_collection_start(TokenKind::FlowSequenceStart),
            b'{' => return self.fetch_flow_collection_start(TokenKind::FlowMappingStart),
            b']' => return self.fetch_flow_collection_end(TokenKind::FlowSequenceEnd),
            b'}' => return self.fetch_flow_collection_end(TokenKind::FlowMappingEnd),
            b',' => return self.fetch_flow_entry(),
            _ => {}
        }
        if c == b'-' && self.is_blankz(1) {
            return self.fetch_block_entry();
        }
        if c == b'?' && (self.flow_level > 0 || self.is_blankz(1)) {
            return self.fetch_key();
        }
        if c == b':' && (self.flow_level > 0 || self.is_blankz(1)) {
            return self.fetch_value();
        }
        match c {
            b'*' => return self.fetch_anchor(true),
            b'&' => return self.fetch_anchor(false),
            b'!' => return self.fetch_tag(),
            b'|' if self.flow_level == 0 => return self.fetch_block_scalar(true),
            b'>' if self.flow_level == 0 => return self.fetch_block_scalar(false),
            b'\'' => return self.fetch_flow_scalar(true),
            b'"' => return self.fetch_flow_scalar(false),
            _ => {}
        }
        // A plain scalar starts with anything but a blank or an indicator; `-` followed by a
        // non-blank starts one anywhere, `?` and `:` followed by a non-blank in block context.
        let indicator = self.is_blankz(0) || b"-?:,[]{}#&*!|>'\"%@`".contains(&c);
        if !indicator
            || (c == b'-' && !self.is_blank(1))
            || (self.flow_level == 0 && (c == b'?' || c == b':') && !self.is_blankz(1))
        {
            return self.fetch_plain_scalar();
        }
        Err(self.error(
            "while scanning for the next token",
            self.mark,
            "found character that cannot start any token",
        ))
    }

    // ---- Simple keys and indentation --------------------------------------------------

    /// Whether the potential simple key `idx` may still be one: on the line where it starts
    /// and at most 1024 characters back. A required key that can no longer be is an error.
    fn simple_key_is_valid(&mut self, idx: usize) -> Scan<bool> {
        // go-yaml can keep a key's number after the key's flow level is gone (it indexes out
        // of its slice then); such a key cannot be one.
        let Some(&key) = self.simple_keys.get(idx) else {
            return Ok(false);
        };
        if !key.possible {
            return Ok(false);
        }
        if key.mark.line < self.mark.line || key.mark.index + 1024 < self.mark.index {
            if key.required {
                return Err(self.error("while scanning a simple key", key.mark, "could not find expected ':'"));
            }
            self.simple_keys[idx].possible = false;
            return Ok(false);
        }
        Ok(true)
    }

    fn save_simple_key(&mut self) -> Scan<()> {
        let required = self.flow_level == 0 && self.indent == self.mark.column as isize;
        if self.simple_key_allowed {
            let key = SimpleKey {
                possible: true,
                required,
                token_number: self.tokens_parsed + self.tokens.len(),
                mark: self.mark,
            };
            self.remove_simple_key()?;
            let last = self.simple_keys.len() - 1;
            self.simple_keys[last] = key;
            self.simple_keys_by_tok.insert(key.token_number, last);
        }
        Ok(())
    }

    fn remove_simple_key(&mut self) -> Scan<()> {
        let i = self.simple_keys.len() - 1;
        let key = self.simple_keys[i];
        if key.possible {
            if key.required {
                return Err(self.error("while scanning a simple key", key.mark, "could not find expected ':'"));
            }
            self.simple_keys[i].possible = false;
            self.simple_keys_by_tok.remove(&key.token_number);
        }
        Ok(())
    }

    fn increase_flow_level(&mut self) -> Scan<()> {
        self.simple_keys.push(SimpleKey {
            possible: false,
            required: false,
            token_number: self.tokens_parsed + self.tokens.len(),
            mark: self.mark,
        });
        self.flow_level += 1;
        if self.flow_level > MAX_DEPTH {
            let mark = self.simple_keys[self.simple_keys.len() - 1].mark;
            return Err(self.error(
                "while increasing flow level",
                mark,
                format!("exceeded max depth of {MAX_DEPTH}"),
            ));
        }
        Ok(())
    }

    fn decrease_flow_level(&mut self) {
        if self.flow_level > 0 {
            self.flow_level -= 1;
            if let Some(key) = self.simple_keys.pop() {
                // go-yaml forgets the entry for this token number, which the key that the
                // collection's opening bracket began (one level up) shares.
                self.simple_keys_by_tok.remove(&key.token_number);
            }
        }
    }

    /// Pushes an indentation level when `column` is deeper, queueing `kind` at token number
    /// `number` (at the end of the queue when `None`).
    fn roll_indent(&mut self, column: isize, number: Option<usize>, kind: TokenKind, mark: Mark) -> Scan<()> {
        if self.flow_level > 0 {
            return Ok(());
        }
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            if self.indents.len() > MAX_DEPTH {
                let mark = self.simple_keys[self.simple_keys.len() - 1].mark;
                return Err(self.error(
                    "while increasing indent level",
                    mark,
                    format!("exceeded max depth of {MAX_DEPTH}"),
                ));
            }
            let token = Token {
                kind,
                start: mark,
                end: mark,
            };
            let pos = number.and_then(|n| self.queue_position(n));
            self.insert_token(pos, token);
        }
        Ok(())
    }

    fn unroll_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            let token = Token {
                kind: TokenKind::BlockEnd,
                start: self.mark,
                end: self.mark,
            };
            self.tokens.push_back(token);
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    // ---- Token fetchers ---------------------------------------------------------------

    fn push_simple(&mut self, kind: TokenKind) {
        let start = self.mark;
        self.skip();
        let token = Token {
            kind,
            start,
            end: self.mark,
        };
        self.tokens.push_back(token);
    }

    fn fetch_stream_start(&mut self) {
        self.indent = -1;
        self.simple_keys.push(SimpleKey::default());
        self.simple_key_allowed = true;
        self.stream_start_produced = true;
        self.tokens.push_back(Token {
            kind: TokenKind::StreamStart,
            start: self.mark,
            end: self.mark,
        });
    }

    fn fetch_stream_end(&mut self) -> Scan<()> {
        if self.mark.column != 0 {
            self.mark.column = 0;
            self.mark.line += 1;
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        self.tokens.push_back(Token {
            kind: TokenKind::StreamEnd,
            start: self.mark,
            end: self.mark,
        });
        Ok(())
    }

    fn fetch_directive(&mut self) -> Scan<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, kind: TokenKind) -> Scan<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip();
        self.skip();
        self.skip();
        self.tokens.push_back(Token {
            kind,
            start,
            end: self.mark,
        });
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, kind: TokenKind) -> Scan<()> {
        self.save_simple_key()?;
        self.increase_flow_level()?;
        self.simple_key_allowed = true;
        self.push_simple(kind);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: TokenKind) -> Scan<()> {
        self.remove_simple_key()?;
        self.decrease_flow_level();
        self.simple_key_allowed = false;
        self.push_simple(kind);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Scan<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.push_simple(TokenKind::FlowEntry);
        Ok(())
    }

    /// `-` (a block entry) or `?` (a complex key): in block context only where a simple key
    /// could start, opening the collection it begins (`refused` otherwise). In flow context a
    /// `-` is the parser's to report, where it can name the collection.
    fn fetch_indicator(&mut self, kind: TokenKind, opens: TokenKind, refused: &'static str) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                return Err(self.error("", self.mark, refused));
            }
            self.roll_indent(self.mark.column as isize, None, opens, self.mark)?;
        }
        self.remove_simple_key()?;
        // A simple key may follow `-`, and `?` in block context.
        self.simple_key_allowed = kind == TokenKind::BlockEntry || self.flow_level == 0;
        self.push_simple(kind);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Scan<()> {
        self.fetch_indicator(
            TokenKind::BlockEntry,
            TokenKind::BlockSequenceStart,
            "block sequence entries are not allowed in this context",
        )
    }

    fn fetch_key(&mut self) -> Scan<()> {
        self.fetch_indicator(
            TokenKind::Key,
            TokenKind::BlockMappingStart,
            "mapping keys are not allowed in this context",
        )
    }

    fn fetch_value(&mut self) -> Scan<()> {
        let last = self.simple_keys.len() - 1;
        if self.simple_key_is_valid(last)? {
            let key = self.simple_keys[last];
            let token = Token {
                kind: TokenKind::Key,
                start: key.mark,
                end: key.mark,
            };
            let pos = self.queue_position(key.token_number);
            self.insert_token(pos, token);
            self.roll_indent(
                key.mark.column as isize,
                Some(key.token_number),
                TokenKind::BlockMappingStart,
                key.mark,
            )?;
            self.simple_keys[last].possible = false;
            self.simple_keys_by_tok.remove(&key.token_number);
            self.simple_key_allowed = false;
        } else {
            // The `:` follows a complex key (`?`), or stands alone.
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    return Err(self.error("", self.mark, "mapping values are not allowed in this context"));
                }
                self.roll_indent(self.mark.column as isize, None, TokenKind::BlockMappingStart, self.mark)?;
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        self.push_simple(TokenKind::Value);
        Ok(())
    }

    /// A token scanned by `scan`: one that may be a simple key (anchor, alias, tag, flow and
    /// plain scalars), after which no simple key may follow on the line; or a block scalar,
    /// which is none and after which one may.
    fn fetch_scanned(&mut self, may_be_key: bool, scan: impl FnOnce(&mut Self) -> Scan<Token>) -> Scan<()> {
        if may_be_key {
            self.save_simple_key()?;
        } else {
            self.remove_simple_key()?;
        }
        self.simple_key_allowed = !may_be_key;
        let token = scan(self)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Scan<()> {
        self.fetch_scanned(true, |s| s.scan_anchor(alias))
    }

    fn fetch_tag(&mut self) -> Scan<()> {
        self.fetch_scanned(true, Self::scan_tag)
    }

    fn fetch_block_scalar(&mut self, literal: bool) -> Scan<()> {
        self.fetch_scanned(false, |s| s.scan_block_scalar(literal))
    }

    fn fetch_flow_scalar(&mut self, single: bool) -> Scan<()> {
        self.fetch_scanned(true, |s| s.scan_flow_scalar(single))
    }

    fn fetch_plain_scalar(&mut self) -> Scan<()> {
        self.fetch_scanned(true, Self::scan_plain_scalar)
    }

    // ---- Scanners -----------------------------------------------------------------------

    /// Skips white space, comments and line breaks up to the next token. Tabs count as
    /// white space in flow context and where no simple key may start (after a key's `:`,
    /// say), but not at the start of a block-context line.
    fn scan_to_next_token(&mut self) -> Scan<()> {
        loop {
            self.cache(1)?;
            if self.mark.column == 0 && self.is_bom() {
                self.skip();
            }
            self.cache(1)?;
            while self.ch() == b' ' || ((self.flow_level > 0 || !self.simple_key_allowed) && self.ch() == b'\t') {
                self.skip();
                self.cache(1)?;
            }
            if self.ch() == b'#' {
                while !self.is_breakz(0) {
                    self.skip();
                    self.cache(1)?;
                }
            }
            if !self.is_break(0) {
                return Ok(());
            }
            self.cache(2)?;
            self.skip_line();
            if self.flow_level == 0 {
                self.simple_key_allowed = true;
            }
        }
    }

    fn skip_blanks(&mut self) -> Scan<()> {
        self.cache(1)?;
        while self.is_blank(0) {
            self.skip();
            self.cache(1)?;
        }
        Ok(())
    }

    /// Skips a comment up to (not including) the line break.
    fn skip_comment(&mut self) -> Scan<()> {
        if self.ch() == b'#' {
            while !self.is_breakz(0) {
                self.skip();
                self.cache(1)?;
            }
        }
        Ok(())
    }

    /// The rest of a directive's or a block scalar header's line: blanks, a comment, the
    /// line break (or the end of the text).
    fn end_of_line(&mut self, context: &'static str, start: Mark) -> Scan<()> {
        self.skip_blanks()?;
        self.skip_comment()?;
        if !self.is_breakz(0) {
            return Err(self.error(context, start, "did not find expected comment or line break"));
        }
        if self.is_break(0) {
            self.cache(2)?;
            self.skip_line();
        }
        Ok(())
    }

    fn scan_directive(&mut self) -> Scan<Token> {
        let start = self.mark;
        self.skip();
        let name = self.scan_directive_name(start)?;
        let kind = match name.as_slice() {
            b"YAML" => {
                let (major, minor) = self.scan_version_directive_value(start)?;
                TokenKind::VersionDirective { major, minor }
            }
            b"TAG" => {
                let (handle, prefix) = self.scan_tag_directive_value(start)?;
                TokenKind::TagDirective { handle, prefix }
            }
            _ => return Err(self.error("while scanning a directive", start, "found unknown directive name")),
        };
        let end = self.mark;
        self.end_of_line("while scanning a directive", start)?;
        Ok(Token { kind, start, end })
    }

    fn scan_directive_name(&mut self, start: Mark) -> Scan<Vec<u8>> {
        self.cache(1)?;
        let mut s = Vec::new();
        while is_alpha(self.ch()) {
            self.read(&mut s);
            self.cache(1)?;
        }
        if s.is_empty() {
            return Err(self.error(
                "while scanning a directive",
                start,
                "could not find expected directive name",
            ));
        }
        if !self.is_blankz(0) {
            return Err(self.error(
                "while scanning a directive",
                start,
                "found unexpected non-alphabetical character",
            ));
        }
        Ok(s)
    }

    fn scan_version_directive_value(&mut self, start: Mark) -> Scan<(u8, u8)> {
        self.skip_blanks()?;
        let major = self.scan_version_directive_number(start)?;
        if self.ch() != b'.' {
            return Err(self.error(
                "while scanning a %YAML directive",
                start,
                "did not find expected digit or '.' character",
            ));
        }
        self.skip();
        let minor = self.scan_version_directive_number(start)?;
        Ok((major, minor))
    }

    fn scan_version_directive_number(&mut self, start: Mark) -> Scan<u8> {
        self.cache(1)?;
        let mut value: u8 = 0;
        let mut length = 0;
        while self.ch().is_ascii_digit() {
            length += 1;
            if length > 2 {
                return Err(self.error(
                    "while scanning a %YAML directive",
                    start,
                    "found extremely long version number",
                ));
            }
            value = value * 10 + (self.ch() - b'0');
            self.skip();
            self.cache(1)?;
        }
        if length == 0 {
            return Err(self.error(
                "while scanning a %YAML directive",
                start,
                "did not find expected version number",
            ));
        }
        Ok(value)
    }

    fn scan_tag_directive_value(&mut self, start: Mark) -> Scan<(Vec<u8>, Vec<u8>)> {
        self.skip_blanks()?;
        let handle = self.scan_tag_handle(true, start)?;
        self.cache(1)?;
        if !self.is_blank(0) {
            return Err(self.error(
                "while scanning a %TAG directive",
                start,
                "did not find expected whitespace",
            ));
        }
        self.skip_blanks()?;
        let prefix = self.scan_tag_uri(None, start)?;
        self.cache(1)?;
        if !self.is_blankz(0) {
            return Err(self.error(
                "while scanning a %TAG directive",
                start,
                "did not find expected whitespace or line break",
            ));
        }
        Ok((handle, prefix))
    }

    fn scan_anchor(&mut self, alias: bool) -> Scan<Token> {
        let start = self.mark;
        self.skip();
        self.cache(1)?;
        let mut s = Vec::new();
        while is_alpha(self.ch()) {
            self.read(&mut s);
            self.cache(1)?;
        }
        let end = self.mark;
        let ends_well = self.is_blankz(0) || b"?:,]}%@`".contains(&self.ch());
        if s.is_empty() || !ends_well {
            return Err(self.error(
                if alias {
                    "while scanning an alias"
                } else {
                    "while scanning an anchor"
                },
                start,
                "did not find expected alphabetic or numeric character",
            ));
        }
        let kind = if alias {
            TokenKind::Alias(s)
        } else {
            TokenKind::Anchor(s)
        };
        Ok(Token { kind, start, end })
    }

    fn scan_tag(&mut self) -> Scan<Token> {
        let start = self.mark;
        self.cache(2)?;
        let (handle, suffix);
        if self.at(1) == b'<' {
            // Verbatim: `!<tag:yaml.org,2002:str>`.
            self.skip();
            self.skip();
            suffix = self.scan_tag_uri(None, start)?;
            if self.ch() != b'>' {
                return Err(self.error("while scanning a tag", start, "did not find the expected '>'"));
            }
            self.skip();
            handle = Vec::new();
        } else {
            let h = self.scan_tag_handle(false, start)?;
            if h.len() > 1 && h[0] == b'!' && h[h.len() - 1] == b'!' {
                handle = h;
                suffix = self.scan_tag_uri(None, start)?;
            } else {
                // Not a handle after all: `!local`, or the `!` tag alone.
                let s = self.scan_tag_uri(Some(&h), start)?;
                if s.is_empty() {
                    handle = Vec::new();
                    suffix = b"!".to_vec();
                } else {
                    handle = b"!".to_vec();
                    suffix = s;
                }
            }
        }
        self.cache(1)?;
        if !self.is_blankz(0) {
            return Err(self.error(
                "while scanning a tag",
                start,
                "did not find expected whitespace or line break",
            ));
        }
        Ok(Token {
            kind: TokenKind::Tag { handle, suffix },
            start,
            end: self.mark,
        })
    }

    fn scan_tag_handle(&mut self, directive: bool, start: Mark) -> Scan<Vec<u8>> {
        self.cache(1)?;
        if self.ch() != b'!' {
            return Err(self.error("while parsing a tag", start, "did not find expected '!'"));
        }
        let mut s = Vec::new();
        self.read(&mut s);
        self.cache(1)?;
        while is_alpha(self.ch()) {
            self.read(&mut s);
            self.cache(1)?;
        }
        if self.ch() == b'!' {
            self.read(&mut s);
        } else if directive && s != b"!" {
            return Err(self.error("while parsing a tag", start, "did not find expected '!'"));
        }
        Ok(s)
    }

    fn scan_tag_uri(&mut self, head: Option<&[u8]>, start: Mark) -> Scan<Vec<u8>> {
        let mut s = Vec::new();
        let mut has_tag = head.is_some_and(|h| !h.is_empty());
        // The head's leading `!` is not part of the URI.
        if let Some(h) = head.filter(|h| h.len() > 1) {
            s.extend_from_slice(&h[1..]);
        }
        self.cache(1)?;
        while is_uri_char(self.ch()) {
            if self.ch() == b'%' {
                self.scan_uri_escapes(start, &mut s)?;
            } else {
                self.read(&mut s);
            }
            self.cache(1)?;
            has_tag = true;
        }
        if !has_tag {
            return Err(self.error("while parsing a tag", start, "did not find expected tag URI"));
        }
        Ok(s)
    }

    fn scan_uri_escapes(&mut self, start: Mark, s: &mut Vec<u8>) -> Scan<()> {
        let mut w = 1024;
        while w > 0 {
            self.cache(3)?;
            if !(self.ch() == b'%' && self.at(1).is_ascii_hexdigit() && self.at(2).is_ascii_hexdigit()) {
                return Err(self.error("while parsing a tag", start, "did not find URI escaped octet"));
            }
            let octet = ((hex_value(self.at(1)) << 4) + hex_value(self.at(2))) as u8;
            if w == 1024 {
                w = width(octet);
                if w == 0 {
                    return Err(self.error("while parsing a tag", start, "found an incorrect leading UTF-8 octet"));
                }
            } else if octet & 0xC0 != 0x80 {
                return Err(self.error("while parsing a tag", start, "found an incorrect trailing UTF-8 octet"));
            }
            s.push(octet);
            self.skip();
            self.skip();
            self.skip();
            w -= 1;
        }
        Ok(())
    }

    fn scan_block_scalar(&mut self, literal: bool) -> Scan<Token> {
        let start = self.mark;
        self.skip();
        self.cache(1)?;
        let mut chomping = 0i8;
        let mut increment = 0usize;
        if matches!(self.ch(), b'+' | b'-') {
            chomping = if self.ch() == b'+' { 1 } else { -1 };
            self.skip();
            self.cache(1)?;
            if self.ch().is_ascii_digit() {
                if self.ch() == b'0' {
                    return Err(self.error(
                        "while scanning a block scalar",
                        start,
                        "found an indentation indicator equal to 0",
                    ));
                }
                increment = usize::from(self.ch() - b'0');
                self.skip();
            }
        } else if self.ch().is_ascii_digit() {
            if self.ch() == b'0' {
                return Err(self.error(
                    "while scanning a block scalar",
                    start,
                    "found an indentation indicator equal to 0",
                ));
            }
            increment = usize::from(self.ch() - b'0');
            self.skip();
            self.cache(1)?;
            if matches!(self.ch(), b'+' | b'-') {
                chomping = if self.ch() == b'+' { 1 } else { -1 };
                self.skip();
            }
        }
        self.end_of_line("while scanning a block scalar", start)?;
        let mut end = self.mark;
        let mut indent: usize = 0;
        if increment > 0 {
            indent = if self.indent >= 0 {
                self.indent as usize + increment
            } else {
                increment
            };
        }
        let mut s = Vec::new();
        let mut leading_break = Vec::new();
        let mut trailing_breaks = Vec::new();
        self.scan_block_scalar_breaks(&mut indent, &mut trailing_breaks, start, &mut end)?;
        self.cache(1)?;
        let mut leading_blank = false;
        while self.mark.column == indent && !self.is_z(0) {
            let trailing_blank = self.is_blank(0);
            if !literal && !leading_blank && !trailing_blank && leading_break.first() == Some(&b'\n') {
                if trailing_breaks.is_empty() {
                    s.push(b' ');
                }
            } else {
                s.extend_from_slice(&leading_break);
            }
            leading_break.clear();
            s.append(&mut trailing_breaks);
            leading_blank = self.is_blank(0);
            while !self.is_breakz(0) {
                self.read(&mut s);
                self.cache(1)?;
            }
            self.cache(2)?;
            self.read_line(&mut leading_break);
            self.scan_block_scalar_breaks(&mut indent, &mut trailing_breaks, start, &mut end)?;
        }
        if chomping != -1 {
            s.extend_from_slice(&leading_break);
        }
        if chomping == 1 {
            s.extend_from_slice(&trailing_breaks);
        }
        let style = if literal {
            ScalarStyle::Literal
        } else {
            ScalarStyle::Folded
        };
        Ok(Token {
            kind: TokenKind::Scalar { value: s, style },
            start,
            end,
        })
    }

    /// Skips the indentation and empty lines before a block scalar's next line, fixing the
    /// scalar's indentation from the first non-empty line when no indicator gave it.
    fn scan_block_scalar_breaks(
        &mut self,
        indent: &mut usize,
        breaks: &mut Vec<u8>,
        start: Mark,
        end: &mut Mark,
    ) -> Scan<()> {
        *end = self.mark;
        let mut max_indent = 0;
        loop {
            self.cache(1)?;
            while (*indent == 0 || self.mark.column < *indent) && self.ch() == b' ' {
                self.skip();
                self.cache(1)?;
            }
            max_indent = max_indent.max(self.mark.column);
            if (*indent == 0 || self.mark.column < *indent) && self.ch() == b'\t' {
                return Err(self.error(
                    "while scanning a block scalar",
                    start,
                    "found a tab character where an indentation space is expected",
                ));
            }
            if !self.is_break(0) {
                break;
            }
            self.cache(2)?;
            self.read_line(breaks);
            *end = self.mark;
        }
        if *indent == 0 {
            *indent = max_indent.max((self.indent + 1).max(1) as usize);
        }
        Ok(())
    }

    fn scan_flow_scalar(&mut self, single: bool) -> Scan<Token> {
        let start = self.mark;
        self.skip();
        let mut s = Vec::new();
        let mut leading_break = Vec::new();
        let mut trailing_breaks = Vec::new();
        let mut whitespaces = Vec::new();
        loop {
            self.cache(4)?;
            if self.mark.column == 0
                && ((self.at(0) == b'-' && self.at(1) == b'-' && self.at(2) == b'-')
                    || (self.at(0) == b'.' && self.at(1) == b'.' && self.at(2) == b'.'))
                && self.is_blankz(3)
            {
                return Err(self.error(
                    "while scanning a quoted scalar",
                    start,
                    "found unexpected document indicator",
                ));
            }
            if self.is_z(0) {
                return Err(self.error(
                    "while scanning a quoted scalar",
                    start,
                    "found unexpected end of stream",
                ));
            }
            let mut leading_blanks = false;
            while !self.is_blankz(0) {
                let c = self.ch();
                if single && c == b'\'' && self.at(1) == b'\'' {
                    s.push(b'\'');
                    self.skip();
                    self.skip();
                } else if (single && c == b'\'') || (!single && c == b'"') {
                    // The closing quote.
                    break;
                } else if !single && c == b'\\' && self.is_break(1) {
                    // An escaped line break.
                    self.cache(3)?;
                    self.skip();
                    self.skip_line();
                    leading_blanks = true;
                    break;
                } else if !single && c == b'\\' {
                    let mut code_length = 0;
                    match self.at(1) {
                        b'0' => s.push(0),
                        b'a' => s.push(0x07),
                        b'b' => s.push(0x08),
                        b't' | b'\t' => s.push(0x09),
                        b'n' => s.push(0x0A),
                        b'v' => s.push(0x0B),
                        b'f' => s.push(0x0C),
                        b'r' => s.push(0x0D),
                        b'e' => s.push(0x1B),
                        b' ' => s.push(b' '),
                        b'"' => s.push(b'"'),
                        b'\'' => s.push(b'\''),
                        b'\\' => s.push(b'\\'),
                        b'N' => s.extend_from_slice(&[0xC2, 0x85]),
                        b'_' => s.extend_from_slice(&[0xC2, 0xA0]),
                        b'L' => s.extend_from_slice(&[0xE2, 0x80, 0xA8]),
                        b'P' => s.extend_from_slice(&[0xE2, 0x80, 0xA9]),
                        b'x' => code_length = 2,
                        b'u' => code_length = 4,
                        b'U' => code_length = 8,
                        _ => {
                            return Err(self.error(
                                "while parsing a quoted scalar",
                                start,
                                "found unknown escape character",
                            ));
                        }
                    }
                    self.skip();
                    self.skip();
                    if code_length > 0 {
                        self.cache(code_length)?;
                        let mut value: u32 = 0;
                        for k in 0..code_length {
                            if !self.at(k).is_ascii_hexdigit() {
                                // go-yaml's spelling.
                                return Err(self.error(
                                    "while parsing a quoted scalar",
                                    start,
                                    "did not find expected hexdecimal number",
                                ));
                            }
                            value = (value << 4) + hex_value(self.at(k));
                        }
                        match char::from_u32(value) {
                            Some(ch) => {
                                let mut b = [0; 4];
                                s.extend_from_slice(ch.encode_utf8(&mut b).as_bytes());
                            }
                            None => {
                                return Err(self.error(
                                    "while parsing a quoted scalar",
                                    start,
                                    "found invalid Unicode character escape code",
                                ));
                            }
                        }
                        for _ in 0..code_length {
                            self.skip();
                        }
                    }
                } else {
                    self.read(&mut s);
                }
                self.cache(2)?;
            }
            self.cache(1)?;
            let c = self.ch();
            if (single && c == b'\'') || (!single && c == b'"') {
                break;
            }
            let mut gap = Gap {
                leading_blanks: &mut leading_blanks,
                whitespaces: &mut whitespaces,
                leading_break: &mut leading_break,
                trailing_breaks: &mut trailing_breaks,
            };
            self.scan_gap(&mut gap, None)?;
            if leading_blanks {
                fold_breaks(&mut s, &mut leading_break, &mut trailing_breaks);
            } else {
                s.append(&mut whitespaces);
            }
        }
        self.skip();
        let style = if single {
            ScalarStyle::SingleQuoted
        } else {
            ScalarStyle::DoubleQuoted
        };
        Ok(Token {
            kind: TokenKind::Scalar { value: s, style },
            start,
            end: self.mark,
        })
    }

    /// The blanks and line breaks between two runs of a flow or plain scalar's text: blanks
    /// before the first break are kept (`whitespaces`), blanks after it dropped, breaks
    /// collected. A plain scalar in block context (`plain`: its indentation and start) refuses
    /// a tab left of its indentation on a continuation line.
    fn scan_gap(&mut self, gap: &mut Gap<'_>, plain: Option<(isize, Mark)>) -> Scan<()> {
        while self.is_blank(0) || self.is_break(0) {
            if self.is_blank(0) {
                if let Some((indent, start)) = plain
                    && *gap.leading_blanks
                    && (self.mark.column as isize) < indent
                    && self.ch() == b'\t'
                {
                    return Err(self.error(
                        "while scanning a plain scalar",
                        start,
                        "found a tab character that violates indentation",
                    ));
                }
                if *gap.leading_blanks {
                    self.skip();
                } else {
                    self.read(gap.whitespaces);
                }
            } else {
                self.cache(2)?;
                if *gap.leading_blanks {
                    self.read_line(gap.trailing_breaks);
                } else {
                    gap.whitespaces.clear();
                    self.read_line(gap.leading_break);
                    *gap.leading_blanks = true;
                }
            }
            self.cache(1)?;
        }
        Ok(())
    }

    fn scan_plain_scalar(&mut self) -> Scan<Token> {
        let mut s = Vec::new();
        let mut leading_break = Vec::new();
        let mut trailing_breaks = Vec::new();
        let mut whitespaces = Vec::new();
        let mut leading_blanks = false;
        let indent = self.indent + 1;
        let start = self.mark;
        let mut end = self.mark;
        loop {
            self.cache(4)?;
            if self.mark.column == 0
                && ((self.at(0) == b'-' && self.at(1) == b'-' && self.at(2) == b'-')
                    || (self.at(0) == b'.' && self.at(1) == b'.' && self.at(2) == b'.'))
                && self.is_blankz(3)
            {
                break;
            }
            if self.ch() == b'#' {
                break;
            }
            while !self.is_blankz(0) {
                let c = self.ch();
                if (c == b':' && self.is_blankz(1)) || (self.flow_level > 0 && b",?[]{}".contains(&c)) {
                    break;
                }
                if leading_blanks {
                    fold_breaks(&mut s, &mut leading_break, &mut trailing_breaks);
                    leading_blanks = false;
                } else {
                    s.append(&mut whitespaces);
                }
                self.read(&mut s);
                end = self.mark;
                self.cache(2)?;
            }
            if !(self.is_blank(0) || self.is_break(0)) {
                break;
            }
            self.cache(1)?;
            let mut gap = Gap {
                leading_blanks: &mut leading_blanks,
                whitespaces: &mut whitespaces,
                leading_break: &mut leading_break,
                trailing_breaks: &mut trailing_breaks,
            };
            self.scan_gap(&mut gap, Some((indent, start)))?;
            if self.flow_level == 0 && (self.mark.column as isize) < indent {
                break;
            }
        }
        if leading_blanks {
            self.simple_key_allowed = true;
        }
        Ok(Token {
            kind: TokenKind::Scalar {
                value: s,
                style: ScalarStyle::Plain,
            },
            start,
            end,
        })
    }
}

/// What [`Scanner::scan_gap`] collects between two runs of a scalar's text.
struct Gap<'g> {
    /// A line break was crossed.
    leading_blanks: &'g mut bool,
    whitespaces: &'g mut Vec<u8>,
    leading_break: &'g mut Vec<u8>,
    trailing_breaks: &'g mut Vec<u8>,
}

/// Joins the text around line breaks in a flow or plain scalar: a single LF-like break folds to
/// a space, further breaks are kept; LS and PS are kept as they are.
fn fold_breaks(s: &mut Vec<u8>, leading_break: &mut Vec<u8>, trailing_breaks: &mut Vec<u8>) {
    if leading_break.first() == Some(&b'\n') {
        if trailing_breaks.is_empty() {
            s.push(b' ');
        } else {
            s.append(trailing_breaks);
        }
    } else {
        s.append(leading_break);
        s.append(trailing_breaks);
    }
    trailing_breaks.clear();
    leading_break.clear();
}
