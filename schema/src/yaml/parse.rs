//! Builds go-yaml's node tree for the first document of a text from
//! saphyr's events, and makes the parse fail where libyaml's would.
//!
//! saphyr implements YAML 1.2; libyaml (which go-yaml v2 ports) predates it.
//! The checks here re-create the libyaml failures that matter in practice
//! (tab indentation, `\/` escapes, anchor characters, directives, the nesting
//! limit) and translate saphyr's error texts into libyaml's. What remains
//! different is listed in the module documentation of `yaml`.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};

use super::error::{Error, ErrorKind};

/// Index of a node in [`Tree::nodes`].
pub(super) type NodeId = usize;

/// What a node holds.
pub(super) enum NodeKind {
    /// A scalar with its full tag (empty if none) and libyaml's
    /// `plain_implicit` flag.
    Scalar { value: String, tag: String, implicit: bool },
    /// A sequence's items.
    Seq(Vec<NodeId>),
    /// A mapping's keys and values, alternating.
    Map(Vec<NodeId>),
    /// A reference to an anchored node.
    Alias { target: NodeId, name: String },
}

/// A node of go-yaml's parse tree.
pub(super) struct Node {
    pub(super) kind: NodeKind,
    /// 0-based line of the node's start, as go-yaml records it.
    pub(super) line0: usize,
}

/// The first document of a text.
#[derive(Default)]
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    /// `None` for a stream without documents.
    pub(super) root: Option<NodeId>,
}

/// libyaml's `max_flow_level` and `max_indents`.
const MAX_DEPTH: usize = 10_000;
/// saphyr counts flow levels in a `u8`.
const SAPHYR_MAX_FLOW: usize = 255;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pos {
    line0: usize,
    col0: usize,
}

/// A libyaml error: `scanner` errors add one to their 0-based line, parser
/// errors do not (go-yaml v2's `parser.fail`), and errors on the first line
/// carry no line at all.
fn libyaml_error(scanner: bool, at: Pos, msg: &str) -> Error {
    let text = if at.line0 != 0 {
        format!("yaml: line {}: {msg}", at.line0 + usize::from(scanner))
    } else {
        format!("yaml: {msg}")
    };
    Error::new(ErrorKind::Syntax, text).at(at.line0 + 1, at.col0 + 1)
}

struct Src<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    cur_char: usize,
    cur_byte: usize,
}

impl<'a> Src<'a> {
    fn new(text: &'a str) -> Self {
        let b = text.as_bytes();
        let mut line_starts = vec![0];
        for (i, &c) in b.iter().enumerate() {
            if c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')) {
                line_starts.push(i + 1);
            }
        }
        Src {
            text,
            line_starts,
            cur_char: 0,
            cur_byte: 0,
        }
    }

    /// Byte offset of a character index (saphyr's markers count characters).
    fn byte_of(&mut self, char_index: usize) -> usize {
        if char_index < self.cur_char {
            self.cur_char = 0;
            self.cur_byte = 0;
        }
        for c in self.text[self.cur_byte..].chars() {
            if self.cur_char >= char_index {
                break;
            }
            self.cur_byte += c.len_utf8();
            self.cur_char += 1;
        }
        self.cur_byte
    }

    fn line_of_byte(&self, b: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= b).saturating_sub(1)
    }

    fn pos_of_byte(&self, b: usize) -> Pos {
        let line0 = self.line_of_byte(b);
        let start = self.line_starts[line0].min(b);
        Pos {
            line0,
            col0: self.text.get(start..b).map_or(0, |s| s.chars().count()),
        }
    }

    fn line_start(&self, line0: usize) -> usize {
        self.line_starts[line0]
    }

    fn byte(&self, i: usize) -> u8 {
        self.text.as_bytes().get(i).copied().unwrap_or(0)
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_flow_indicator(b: u8) -> bool {
    matches!(b, b',' | b'[' | b']' | b'{' | b'}')
}

/// Skips node properties (`&anchor`, `!tag`) and the white space and
/// comments after them, returning the offset of the node's content.
fn skip_properties(src: &Src<'_>, mut b: usize) -> usize {
    loop {
        match src.byte(b) {
            b'&' => {
                b += 1;
                while b < src.text.len() && !is_ws(src.byte(b)) && !is_flow_indicator(src.byte(b)) {
                    b += 1;
                }
            }
            b'!' => {
                while b < src.text.len() && !is_ws(src.byte(b)) {
                    b += 1;
                }
            }
            _ => return b,
        }
        loop {
            while b < src.text.len() && is_ws(src.byte(b)) {
                b += 1;
            }
            if src.byte(b) == b'#' {
                while b < src.text.len() && src.byte(b) != b'\n' {
                    b += 1;
                }
            } else {
                break;
            }
        }
    }
}

/// The byte range of the anchor name among the properties at `b`.
fn anchor_name(src: &Src<'_>, mut b: usize) -> Option<(usize, usize)> {
    loop {
        match src.byte(b) {
            b'&' => {
                let start = b + 1;
                let mut end = start;
                while end < src.text.len() && !is_ws(src.byte(end)) && !is_flow_indicator(src.byte(end)) {
                    end += 1;
                }
                return Some((start, end));
            }
            b'!' => {
                while b < src.text.len() && !is_ws(src.byte(b)) {
                    b += 1;
                }
                while b < src.text.len() && is_ws(src.byte(b)) {
                    b += 1;
                }
            }
            _ => return None,
        }
    }
}

/// libyaml's anchor names are `[0-9A-Za-z_-]+`; returns the offset of the
/// first character libyaml would choke on, unless it is one that would have
/// ended the name (then libyaml reads a different token stream that this
/// module does not model).
fn bad_anchor_char(name: &str) -> Option<usize> {
    for (i, c) in name.char_indices() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            continue;
        }
        return if "?:,]}%@`".contains(c) { None } else { Some(i) };
    }
    None
}

/// What libyaml's scanner does with the white space after a token.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TokKind {
    /// A plain scalar in block context goes on consuming the following
    /// lines' indentation as possible continuation lines, refusing tabs left
    /// of this column.
    Plain(usize),
    /// A block scalar; its header is at `header` and the enclosing block
    /// indentation is `base` (-1 at the top level).
    Block { header: usize, base: isize },
    /// Anything else.
    Other,
}

/// A token as far as the tab checks need it: byte range and kind.
struct Tok {
    start: usize,
    end: usize,
    kind: TokKind,
}

/// An open collection while events arrive.
struct Open {
    node: NodeId,
    flow: bool,
    pushed_indent: bool,
    start_line0: usize,
}

struct Builder<'a> {
    src: Src<'a>,
    tree: Tree,
    open: Vec<Open>,
    block_indents: Vec<usize>,
    flow_depth: usize,
    anchors: HashMap<usize, NodeId>,
    /// Lines where libyaml is inside a scalar or a flow collection, so a
    /// leading tab is no error: (first, last) inclusive, 0-based.
    exempt: Vec<(usize, usize)>,
    toks: Vec<Tok>,
    last_end: usize,
    /// The text to parse instead, when saphyr balked at something libyaml
    /// takes.
    rewrite: Option<(String, Edit)>,
    /// Where the last key of a flow mapping starts and ends (bytes).
    flow_key: Option<(usize, usize)>,
}

impl Builder<'_> {
    fn add(&mut self, kind: NodeKind, line0: usize) -> NodeId {
        let id = self.tree.nodes.len();
        self.tree.nodes.push(Node { kind, line0 });
        match self.open.last() {
            Some(top) => match &mut self.tree.nodes[top.node].kind {
                NodeKind::Seq(items) | NodeKind::Map(items) => items.push(id),
                _ => {}
            },
            None => {
                if self.tree.root.is_none() {
                    self.tree.root = Some(id);
                }
            }
        }
        id
    }

    /// libyaml refuses a tab between a block indicator (`-`, `?`, or a `:`
    /// that starts a line) and the next token: it only skips tabs where no
    /// simple key may start.
    fn tab_before(&self, b: usize) -> Option<Error> {
        if self.flow_depth > 0 {
            return None;
        }
        let line_start = self.src.line_start(self.src.line_of_byte(b));
        let mut j = b;
        while j > line_start && matches!(self.src.byte(j - 1), b' ' | b'\t') {
            j -= 1;
        }
        // A run reaching the line start is the line check's business.
        if j == line_start || !self.src.text[j..b].contains('\t') {
            return None;
        }
        // The byte before the blanks may be the last byte of a multi-byte character (a BOM
        // inside the text): compare bytes, never slice the text there.
        let indicator_at = j - 1;
        let lead = self.src.text.as_bytes()[line_start..indicator_at]
            .iter()
            .all(|&c| c == b' ' || c == b'\t');
        let indicator = match self.src.byte(indicator_at) {
            b':' => lead,
            b'-' | b'?' => lead || matches!(self.src.byte(indicator_at - 1), b' ' | b'\t'),
            _ => false,
        };
        if !indicator {
            return None;
        }
        let tab = j + self.src.text[j..b].find('\t').unwrap_or(0);
        Some(libyaml_error(
            true,
            self.src.pos_of_byte(tab),
            "found character that cannot start any token",
        ))
    }

    /// saphyr reads a block-context line that starts with `:` as a mapping entry with an empty
    /// key; libyaml finds a value where it expects a key, unless a `?` introduced one.
    fn value_without_key(&self, b: usize) -> Option<Error> {
        let top = self.open.last()?;
        let NodeKind::Map(items) = &self.tree.nodes[top.node].kind else {
            return None;
        };
        if top.flow || items.len() % 2 != 0 || self.src.byte(b) != b':' {
            return None;
        }
        let bytes = self.src.text.as_bytes();
        let line_start = self.src.line_start(self.src.line_of_byte(b));
        // Only indentation and block sequence indicators (`- - `) may precede it on its line.
        let prefix = &bytes[line_start..b];
        let indicators_only = prefix.iter().enumerate().all(|(i, &c)| match c {
            b' ' | b'\t' => true,
            b'-' => matches!(prefix.get(i + 1), Some(b' ' | b'\t')),
            _ => false,
        });
        if !indicators_only {
            return None;
        }
        // The last significant character before the `:`, comments left out: a `?` there is an
        // explicit (empty) key.
        let before = &self.src.text[..line_start];
        for line in before.lines().rev() {
            let code = match line.find(" #").or_else(|| line.find("\t#")) {
                Some(i) => &line[..i],
                None if line.trim_start().starts_with('#') => "",
                None => line,
            };
            let code = code.trim_end();
            if code.is_empty() {
                continue;
            }
            let explicit = code.ends_with('?') && (code.len() == 1 || code[..code.len() - 1].ends_with([' ', '\t']));
            return (!explicit).then(|| libyaml_error(false, self.src.pos_of_byte(b), "did not find expected key"));
        }
        Some(libyaml_error(
            false,
            self.src.pos_of_byte(b),
            "did not find expected key",
        ))
    }

    /// Whether the node starting at `b` is a key or a value of a flow mapping: `Some(true)`
    /// for a key.
    fn flow_map_position(&self) -> Option<bool> {
        let top = self.open.last()?;
        match &self.tree.nodes[top.node].kind {
            NodeKind::Map(items) if top.flow || self.flow_depth > 0 => Some(items.len() % 2 == 0),
            _ => None,
        }
    }

    /// libyaml takes a flow mapping's implicit key only if it ends on the line where it starts
    /// and its `:` follows on that line; otherwise the key stands alone and the `:` is
    /// unexpected. Line breaks are libyaml's: also NEL, U+2028 and U+2029.
    fn flow_value_after_broken_key(&mut self, value_start: usize) -> Option<Error> {
        let (key_start, key_end) = self.flow_key.take()?;
        let text = self.src.text;
        // A key introduced by `?` may span lines.
        if text[..key_start].trim_end().ends_with('?') {
            return None;
        }
        let colon = key_end + text.get(key_end..value_start)?.find(':')?;
        let is_break = |c: char| matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}');
        if !text[key_start..colon].contains(is_break) {
            return None;
        }
        let line0 = text[..colon]
            .replace("\r\n", "\n")
            .chars()
            .filter(|&c| is_break(c))
            .count();
        let msg = match innermost_flow(text.as_bytes(), colon) {
            Some(b'[') => "did not find expected ',' or ']'",
            _ => "did not find expected ',' or '}'",
        };
        let at = Pos {
            line0,
            col0: self.src.pos_of_byte(colon).col0,
        };
        Some(libyaml_error(false, at, msg))
    }

    fn push_tok(&mut self, start: usize, end: usize, kind: TokKind) {
        self.toks.push(Tok { start, end, kind });
        self.last_end = end;
    }

    fn check_anchor(&self, b: usize, alias: bool) -> Option<Error> {
        if alias && self.src.byte(b) != b'*' {
            return None;
        }
        let (start, end) = if alias {
            let start = b + 1;
            let mut end = start;
            while end < self.src.text.len() && !is_ws(self.src.byte(end)) && !is_flow_indicator(self.src.byte(end)) {
                end += 1;
            }
            (start, end)
        } else {
            anchor_name(&self.src, b)?
        };
        let bad = bad_anchor_char(self.src.text.get(start..end)?)?;
        Some(libyaml_error(
            true,
            self.src.pos_of_byte(start + bad),
            "did not find expected alphabetic or numeric character",
        ))
    }

    /// libyaml does not know YAML 1.2's `\/` escape.
    fn check_escapes(&self, b: usize, end: usize) -> Option<Error> {
        let quote = b + self.src.text[b..end].find('"')?;
        let bytes = self.src.text.as_bytes();
        let mut i = quote + 1;
        while i < end {
            match bytes[i] {
                b'\\' if bytes.get(i + 1) == Some(&b'/') => {
                    return Some(libyaml_error(
                        true,
                        self.src.pos_of_byte(i),
                        "found unknown escape character",
                    ));
                }
                b'\\' => i += 2,
                b'"' => return None,
                _ => i += 1,
            }
        }
        None
    }

    fn on_event(&mut self, ev: Event<'_>, span: Span) -> Result<bool, Error> {
        let line0 = span.start.line().saturating_sub(1);
        let b = self.src.byte_of(span.start.index());
        match ev {
            Event::Nothing | Event::StreamStart | Event::DocumentStart(_) => {}
            Event::StreamEnd | Event::DocumentEnd => return Ok(true),
            Event::Alias(id) => {
                if let Some(e) = self.tab_before(b).or_else(|| self.check_anchor(b, true)) {
                    return Err(e);
                }
                let end = self.src.byte_of(span.end.index());
                let name = self.src.text[b..end].trim_start_matches('*').to_string();
                let Some(&target) = self.anchors.get(&id) else {
                    return Err(
                        Error::new(ErrorKind::Decode, format!("yaml: unknown anchor '{name}' referenced"))
                            .at(line0 + 1, span.start.col() + 1),
                    );
                };
                self.add(NodeKind::Alias { target, name }, line0);
                let end = self.src.byte_of(span.end.index());
                self.push_tok(b, end, TokKind::Other);
            }
            Event::Scalar(value, style, anchor_id, tag) => {
                let end = self.src.byte_of(span.end.index());
                if !span.is_empty()
                    && let Some(e) = self.tab_before(b)
                {
                    return Err(e);
                }
                if anchor_id > 0
                    && let Some(e) = self.check_anchor(b, false)
                {
                    return Err(e);
                }
                if style == ScalarStyle::DoubleQuoted
                    && let Some(e) = self.check_escapes(b, end)
                {
                    return Err(e);
                }
                if span.is_empty()
                    && let Some(e) = self.value_without_key(b)
                {
                    return Err(e);
                }
                match self.flow_map_position() {
                    Some(true) if !span.is_empty() => self.flow_key = Some((b, end)),
                    Some(false) => {
                        if let Some(e) = self.flow_value_after_broken_key(b) {
                            return Err(e);
                        }
                    }
                    _ => {}
                }
                let tag = tag.map_or_else(String::new, |t| format!("{}{}", t.handle, t.suffix));
                // libyaml's plain_implicit: untagged plain scalars and `!`.
                let implicit = (tag.is_empty() && style == ScalarStyle::Plain) || tag == "!";
                let end_line0 = span.end.line().saturating_sub(1);
                let base = self.block_indents.last().map_or(-1, |&c| c as isize);
                if !span.is_empty() {
                    let kind = match style {
                        ScalarStyle::Plain if self.flow_depth == 0 => TokKind::Plain((base + 1) as usize),
                        ScalarStyle::Literal | ScalarStyle::Folded => {
                            let from = self.last_end.min(b);
                            let header = self.src.text[from..b].find(['|', '>']).map_or(b, |i| from + i);
                            TokKind::Block { header, base }
                        }
                        _ => TokKind::Other,
                    };
                    self.push_tok(b, end, kind);
                }
                match style {
                    ScalarStyle::Literal | ScalarStyle::Folded => {
                        let last = if span.end.col() == 0 && end_line0 > line0 {
                            end_line0 - 1
                        } else {
                            end_line0
                        };
                        self.exempt.push((line0, last.max(line0)));
                    }
                    _ if end_line0 > line0 => self.exempt.push((line0 + 1, end_line0)),
                    _ => {}
                }
                let id = self.add(
                    NodeKind::Scalar {
                        value: value.into_owned(),
                        tag,
                        implicit,
                    },
                    line0,
                );
                if anchor_id > 0 {
                    self.anchors.insert(anchor_id, id);
                }
            }
            Event::SequenceStart(anchor_id, _) | Event::MappingStart(anchor_id, _) => {
                let is_map = matches!(ev, Event::MappingStart(..));
                if self.flow_map_position() == Some(false)
                    && let Some(e) = self.flow_value_after_broken_key(b)
                {
                    return Err(e);
                }
                if !span.is_empty()
                    && let Some(e) = self.tab_before(b)
                {
                    return Err(e);
                }
                if anchor_id > 0
                    && let Some(e) = self.check_anchor(b, false)
                {
                    return Err(e);
                }
                let content = skip_properties(&self.src, b);
                let flow = matches!(self.src.byte(content), b'[' | b'{');
                let mut pushed_indent = false;
                if !flow {
                    let cpos = self.src.pos_of_byte(content);
                    let top = self.block_indents.last().map_or(-1, |&c| c as isize);
                    if cpos.col0 as isize > top {
                        self.block_indents.push(cpos.col0);
                        pushed_indent = true;
                        if self.block_indents.len() > MAX_DEPTH {
                            return Err(libyaml_error(true, cpos, &format!("exceeded max depth of {MAX_DEPTH}")));
                        }
                    }
                }
                let kind = if is_map {
                    NodeKind::Map(Vec::new())
                } else {
                    NodeKind::Seq(Vec::new())
                };
                let id = self.add(kind, line0);
                if anchor_id > 0 {
                    self.anchors.insert(anchor_id, id);
                }
                if flow {
                    self.flow_depth += 1;
                    self.push_tok(content, content + 1, TokKind::Other);
                }
                self.open.push(Open {
                    node: id,
                    flow,
                    pushed_indent,
                    start_line0: line0,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = self.open.pop() {
                    if open.flow {
                        let end = self.src.byte_of(span.end.index());
                        self.push_tok(b, end, TokKind::Other);
                        self.flow_depth -= 1;
                        if line0 > open.start_line0 {
                            self.exempt.push((open.start_line0 + 1, line0));
                        }
                    }
                    if open.pushed_indent {
                        self.block_indents.pop();
                    }
                }
            }
        }
        Ok(false)
    }

    /// The first tab libyaml rejects at the start of a line, following what
    /// its scanner does with the white space there: a plain scalar before it
    /// consumes the indentation as a possible continuation and refuses tabs
    /// left of its own indentation; a block scalar refuses tabs left of its
    /// content indentation (any tab while that is not known yet); otherwise
    /// the line starts where a simple key may, and a tab cannot start a token.
    /// Lines inside flow collections and quoted scalars take tabs freely.
    fn first_tab_line(&self, last_line0: usize) -> Option<Error> {
        let n = self.src.line_starts.len();
        let last = last_line0.min(n - 1);
        let mut delta = vec![0i64; n + 1];
        for &(a, z) in &self.exempt {
            if a <= z && a < n {
                delta[a] += 1;
                delta[(z + 1).min(n)] -= 1;
            }
        }
        let bytes = self.src.text.as_bytes();
        // Block scalars check the lines from their header to the next token.
        let mut block_error: Option<Error> = None;
        for (i, t) in self.toks.iter().enumerate() {
            if let TokKind::Block { header, base } = t.kind {
                let next = self.toks.get(i + 1).map_or(self.src.text.len(), |t| t.start);
                let first = self.src.line_of_byte(header) + 1;
                let last_block = self.src.line_of_byte(next);
                if first < n {
                    delta[first] += 1;
                    delta[(last_block + 1).min(n).max(first)] -= 1;
                }
                if block_error.is_none() {
                    block_error = self.block_scalar_tab(header, base, next);
                }
            }
        }
        let mut depth = 0i64;
        let mut tok = 0;
        let mut line_error = None;
        for (line0, d) in delta.iter().enumerate().take(last + 1) {
            depth += d;
            let start = self.src.line_starts[line0];
            while tok < self.toks.len() && self.toks[tok].end <= start {
                tok += 1;
            }
            if depth > 0 {
                continue;
            }
            let rest = &bytes[start..];
            let ws = rest.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
            let Some(t) = rest[..ws].iter().position(|&c| c == b'\t') else {
                continue;
            };
            let prev = tok.checked_sub(1).map(|i| &self.toks[i]);
            let continues_plain = prev.and_then(|p| match p.kind {
                TokKind::Plain(indent) => self.src.text[p.end..start].bytes().all(is_ws).then_some(indent),
                _ => None,
            });
            let at = Pos { line0, col0: t };
            line_error = match continues_plain {
                Some(indent) if t >= indent => continue,
                Some(_) => Some(libyaml_error(
                    true,
                    at,
                    "found a tab character that violates indentation",
                )),
                None => Some(libyaml_error(true, at, "found character that cannot start any token")),
            };
            break;
        }
        match (block_error, line_error) {
            (Some(b), Some(l)) if (l.line(), l.column()) < (b.line(), b.column()) => Some(l),
            (Some(b), _) => b.line().is_some_and(|l| l <= last + 1).then_some(b),
            (None, l) => l,
        }
    }

    /// libyaml's `yaml_parser_scan_block_scalar_breaks` tab rule for the
    /// lines from the header to the line of the next token (`next`).
    fn block_scalar_tab(&self, header: usize, base: isize, next: usize) -> Option<Error> {
        let bytes = self.src.text.as_bytes();
        let mut i = header + 1;
        let mut increment = 0;
        while i < bytes.len() && matches!(bytes[i], b'+' | b'-' | b'1'..=b'9') {
            if bytes[i].is_ascii_digit() {
                increment = usize::from(bytes[i] - b'0');
            }
            i += 1;
        }
        let mut indent = match increment {
            0 => 0,
            n if base >= 0 => base as usize + n,
            n => n,
        };
        let mut max_indent = 0;
        let first = self.src.line_of_byte(header) + 1;
        let last = self.src.line_of_byte(next);
        for line0 in first..=last.min(self.src.line_starts.len() - 1) {
            let start = self.src.line_starts[line0];
            let rest = &bytes[start..];
            let mut col = 0;
            while col < rest.len() && rest[col] == b' ' && (indent == 0 || col < indent) {
                col += 1;
            }
            max_indent = max_indent.max(col);
            let c = rest.get(col).copied().unwrap_or(b'\n');
            if c == b'\t' && (indent == 0 || col < indent) {
                return Some(libyaml_error(
                    true,
                    Pos { line0, col0: col },
                    "found a tab character where an indentation space is expected",
                ));
            }
            if matches!(c, b'\n' | b'\r') || start + col >= bytes.len() {
                continue;
            }
            if indent == 0 {
                indent = max_indent.max((base + 1).max(1) as usize);
            }
            if col < indent {
                break;
            }
        }
        None
    }
}

/// How often [`parse`] may rewrite the text and start over; each rewrite
/// costs a full parse.
const MAX_REWRITES: usize = 64;

/// Parses the first document of `text` into go-yaml's node tree.
pub(super) fn parse(text: &str) -> Result<Tree, Error> {
    check_directives(text)?;
    rewritten(text).0
}

/// [`parse`]'s result, with the text saphyr read and the edits that made it from `text`.
fn rewritten(text: &str) -> (Result<Tree, Error>, Option<String>, Vec<Edit>) {
    let mut owned: Option<String> = None;
    let mut edits = Vec::new();
    for _ in 0..MAX_REWRITES {
        let current = owned.as_deref().unwrap_or(text);
        match parse_once(current) {
            Attempt::Done(result) => return (result, owned, edits),
            Attempt::Rewrite(next, edit) => {
                owned = Some(next);
                edits.push(edit);
            }
        }
    }
    match parse_once(owned.as_deref().unwrap_or(text)) {
        Attempt::Done(result) => (result, owned, edits),
        Attempt::Rewrite(..) => (
            Err(Error::new(
                ErrorKind::Limit,
                format!("yaml: more than {MAX_REWRITES} constructs that saphyr rejects but libyaml accepts"),
            )),
            owned,
            edits,
        ),
    }
}

/// One rewrite of a line: `removed` characters at `col0` replaced by `inserted` ones
/// (lines never change).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Edit {
    line0: usize,
    col0: usize,
    removed: usize,
    inserted: usize,
}

/// A text that saphyr reads as libyaml reads the original, for tools that walk saphyr's
/// events and need the original's positions (a source map of keys).
#[derive(Debug, Clone)]
pub struct SaphyrText<'a> {
    /// The text to give saphyr: the original, or a rewrite with the same lines.
    pub text: std::borrow::Cow<'a, str>,
    edits: Vec<Edit>,
}

impl SaphyrText<'_> {
    /// The original's 0-based column of a 0-based (line, column) of [`SaphyrText::text`],
    /// both counted in characters.
    pub fn original_column(&self, line0: usize, col0: usize) -> usize {
        let mut col0 = col0;
        for e in self.edits.iter().rev().filter(|e| e.line0 == line0) {
            if col0 >= e.col0 + e.inserted {
                col0 = col0 + e.removed - e.inserted;
            } else if col0 > e.col0 {
                col0 = e.col0;
            }
        }
        col0
    }
}

/// The text saphyr should read for `text`: `text` itself when saphyr reads it as libyaml
/// does, else the rewrite the YAML decoder uses (lines stay where they are; columns on the
/// rewritten lines map back with [`SaphyrText::original_column`]).
pub fn saphyr_text(text: &str) -> SaphyrText<'_> {
    match rewritten(text) {
        (_, Some(owned), edits) => SaphyrText {
            text: std::borrow::Cow::Owned(owned),
            edits,
        },
        (_, None, _) => SaphyrText {
            text: std::borrow::Cow::Borrowed(text),
            edits: Vec::new(),
        },
    }
}

enum Attempt {
    Done(Result<Tree, Error>),
    /// saphyr rejected something libyaml accepts, in a way that a rewrite
    /// with the same meaning for libyaml avoids.
    Rewrite(String, Edit),
}

fn parse_once(text: &str) -> Attempt {
    let mut bld = Builder {
        src: Src::new(text),
        tree: Tree::default(),
        open: Vec::new(),
        block_indents: Vec::new(),
        flow_depth: 0,
        anchors: HashMap::new(),
        exempt: Vec::new(),
        toks: Vec::new(),
        last_end: 0,
        rewrite: None,
        flow_key: None,
    };
    let mut failure: Option<Error> = None;
    // The last line libyaml scans: up to the end of the first document.
    let mut last_line0 = usize::MAX;
    // saphyr is not known to panic, but a panic must not escape a converter
    // fed untrusted input.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_events(text, &mut bld, &mut failure, &mut last_line0);
    }));
    if outcome.is_err() {
        return Attempt::Done(Err(Error::new(
            ErrorKind::Syntax,
            "yaml: internal error in the YAML parser",
        )));
    }
    if let Some((next, edit)) = bld.rewrite.take() {
        return Attempt::Rewrite(next, edit);
    }
    Attempt::Done(finish(bld, failure, last_line0))
}

fn run_events(text: &str, bld: &mut Builder<'_>, failure: &mut Option<Error>, last_line0: &mut usize) {
    let mut parser = Parser::new_from_str(text);
    loop {
        match parser.next_event() {
            None => break,
            Some(Ok((ev, span))) => match bld.on_event(ev, span) {
                Ok(true) => {
                    *last_line0 = span.start.line().saturating_sub(1);
                    break;
                }
                Ok(false) => {}
                Err(e) => {
                    *failure = Some(e);
                    break;
                }
            },
            Some(Err(e)) => {
                // go-yaml stops at `...`, which closes any block collections,
                // and never sees what follows it.
                let complete = bld.tree.root.is_some() && bld.open.iter().all(|o| !o.flow);
                if complete && e.info() == "invalid content after document end marker" {
                    *last_line0 = e.marker().line().saturating_sub(1);
                    break;
                }
                *failure = Some(translate(bld, &e));
                break;
            }
        }
    }
}

fn finish(mut bld: Builder<'_>, failure: Option<Error>, last_line0: usize) -> Result<Tree, Error> {
    // Lines inside flow collections left open by an error are flow context.
    let fail_line0 = failure.as_ref().and_then(Error::line).map_or(usize::MAX, |l| l - 1);
    for open in &bld.open {
        if open.flow && fail_line0 != usize::MAX {
            bld.exempt.push((open.start_line0 + 1, fail_line0));
        }
    }
    let tab = bld.first_tab_line(last_line0.min(fail_line0));
    // Both are scanner-order errors: the one earlier in the text wins.
    match (tab, failure) {
        (Some(t), Some(f)) if (t.line(), t.column()) >= (f.line(), f.column()) => Err(f),
        (Some(t), _) => Err(t),
        (None, Some(f)) => Err(f),
        (None, None) => Ok(bld.tree),
    }
}

/// Turns a saphyr error into the error libyaml reports for the same input,
/// where the correspondence is known.
fn translate(bld: &mut Builder<'_>, e: &ScanError) -> Error {
    let b = bld.src.byte_of(e.marker().index());
    let mut at = bld.src.pos_of_byte(b);
    let info = e.info();
    if let Some(next) = rewrite_for(bld, b, info) {
        bld.rewrite = Some(next);
        return Error::new(ErrorKind::Syntax, "yaml: rewritten");
    }
    // What libyaml expects next where saphyr found an unexpected token.
    let expected = match bld.open.last() {
        Some(o) if o.flow => None,
        Some(o) => match bld.tree.nodes[o.node].kind {
            NodeKind::Map(_) => Some("did not find expected key"),
            _ => Some("did not find expected '-' indicator"),
        },
        None => None,
    };
    let in_flow_map = bld
        .open
        .last()
        .is_some_and(|o| o.flow && matches!(bld.tree.nodes[o.node].kind, NodeKind::Map(_)));
    // libyaml moves to a new line before it reports the end of the stream.
    if b >= bld.src.text.len() && at.col0 != 0 {
        at = Pos {
            line0: at.line0 + 1,
            col0: 0,
        };
    }
    // saphyr reports some tab errors where the offending token starts.
    let tab_at = |bld: &Builder<'_>| {
        let tab = bld.src.text[b..].find('\t').map_or(b, |i| b + i);
        bld.src.pos_of_byte(tab)
    };
    let (scanner, msg): (bool, &str) = match info {
        "mapping values are not allowed in this context"
        | "block sequence entries are not allowed in this context"
        | "mapping keys are not allowed in this context" => (true, info),
        "while parsing a block mapping, did not find expected key" => (false, "did not find expected key"),
        "while parsing a block collection, did not find expected '-' indicator" => {
            (false, "did not find expected '-' indicator")
        }
        "while parsing a flow sequence, expected ',' or ']'" => (false, "did not find expected ',' or ']'"),
        "while parsing a flow mapping, did not find expected ',' or '}'" => (false, "did not find expected ',' or '}'"),
        "while parsing a node, did not find expected node content" => (false, "did not find expected node content"),
        "did not find expected <document-start>" | "did not find expected <document start>" => {
            (false, "did not find expected <document start>")
        }
        "simple key expect ':'" | "simple key expected" => (true, "could not find expected ':'"),
        "while scanning a quoted scalar, found unexpected end of stream" => (true, "found unexpected end of stream"),
        "while scanning a quoted scalar, found unexpected document indicator" => {
            (true, "found unexpected document indicator")
        }
        "while parsing a quoted scalar, found unknown escape character"
        | "while parsing a quoted scalar, did not find expected hexadecimal number"
        | "while parsing a quoted scalar, found invalid Unicode character escape code" => {
            return escape_error(bld, b, info);
        }
        "while scanning an anchor or alias, did not find expected alphabetic or numeric character" => {
            (true, "did not find expected alphabetic or numeric character")
        }
        "while scanning a block scalar, found an indentation indicator equal to 0" => {
            (true, "found an indentation indicator equal to 0")
        }
        "while scanning a block scalar, did not find expected comment or line break" => {
            (true, "did not find expected comment or line break")
        }
        "a block scalar content cannot start with a tab" => {
            return libyaml_error(
                true,
                tab_at(bld),
                "found a tab character where an indentation space is expected",
            );
        }
        "while scanning a plain scalar, found a tab" => {
            return libyaml_error(true, tab_at(bld), "found a tab character that violates indentation");
        }
        "misplaced bracket" | "invalid trailing content after double-quoted scalar" if expected.is_some() => {
            (false, expected.unwrap_or_default())
        }
        // A closing bracket with nothing open, and a quoted scalar followed by more than an
        // indicator inside a flow collection: libyaml's parser wants a node, or a separator.
        "misplaced bracket" if bld.open.is_empty() => (false, "did not find expected node content"),
        "invalid trailing content after double-quoted scalar" => match innermost_flow(bld.src.text.as_bytes(), b) {
            Some(b'{') => (false, "did not find expected ',' or '}'"),
            Some(_) => (false, "did not find expected ',' or ']'"),
            None => (true, info),
        },
        "illegal placement of ':' indicator"
            if bld.flow_depth > 0 || innermost_flow(bld.src.text.as_bytes(), b).is_some() =>
        {
            if in_flow_map || innermost_flow(bld.src.text.as_bytes(), b) == Some(b'{') {
                (false, "did not find expected ',' or '}'")
            } else {
                (false, "did not find expected ',' or ']'")
            }
        }
        "tabs disallowed within this context (block indentation)"
        | "tabs disallowed in this context"
        | "tab cannot be used as indentation" => (true, "found character that cannot start any token"),
        "':' must be followed by a valid YAML whitespace" if bld.flow_depth == 0 => {
            (true, "found character that cannot start any token")
        }
        "the handle wasn't declared" => (false, "found undefined tag handle"),
        "while parsing node, found unknown anchor" => {
            if let Some(e) = bld.check_anchor(b, true) {
                return e;
            }
            let mut end = b + 1;
            while end < bld.src.text.len() && !is_ws(bld.src.byte(end)) && !is_flow_indicator(bld.src.byte(end)) {
                end += 1;
            }
            let name = bld.src.text.get(b + 1..end).unwrap_or_default();
            return Error::new(ErrorKind::Decode, format!("yaml: unknown anchor '{name}' referenced"))
                .at(at.line0 + 1, at.col0 + 1);
        }
        "recursion limit exceeded" => return flow_depth_error(bld, b),
        _ if info.starts_with("unexpected character") => (true, "found character that cannot start any token"),
        _ => (true, info),
    };
    libyaml_error(scanner, at, msg)
}

/// A text with the same meaning for libyaml that saphyr accepts, for the
/// saphyr errors that have one. Tabs become spaces where libyaml treats both
/// as separation (same length, so no position moves); `\'` becomes `\x27`,
/// which moves later columns on that line only.
fn rewrite_for(bld: &Builder<'_>, b: usize, info: &str) -> Option<(String, Edit)> {
    let text = bld.src.text;
    let bytes = text.as_bytes();
    let mut out = text.to_string();
    // Every rewrite replaces ASCII with ASCII within a line: bytes there are characters.
    let edit = |at: usize, removed: usize, inserted: usize| {
        let line = bld.src.line_of_byte(at);
        let line_start = bld.src.line_start(line);
        Edit {
            line0: line,
            col0: text[line_start..at].chars().count(),
            removed,
            inserted,
        }
    };
    let done = match info {
        // libyaml skips tabs after a simple key's `:` and anywhere in flow
        // context; only a line-leading (complex) `:` in block context
        // refuses them.
        "':' must be followed by a valid YAML whitespace" => {
            let mut j = b.min(bytes.len());
            while j > 0 && matches!(bytes[j - 1], b' ' | b'\t') {
                j -= 1;
            }
            let colon = j.checked_sub(1).filter(|&c| bytes[c] == b':')?;
            if bytes.get(colon + 1) != Some(&b'\t') {
                return None;
            }
            let line_start = bld.src.line_start(bld.src.line_of_byte(colon));
            let leading = text[line_start..colon].bytes().all(|c| c == b' ' || c == b'\t');
            if leading && bld.flow_depth == 0 {
                return None;
            }
            out.replace_range(colon + 1..colon + 2, " ");
            edit(colon + 1, 1, 1)
        }
        // Continuation lines of quoted scalars drop their leading white
        // space, tabs included.
        "tab cannot be used as indentation" => {
            let line_start = bld.src.line_start(bld.src.line_of_byte(b));
            let ws = bytes[line_start..]
                .iter()
                .take_while(|&&c| c == b' ' || c == b'\t')
                .count();
            if !bytes[line_start..line_start + ws].contains(&b'\t') {
                return None;
            }
            out.replace_range(line_start..line_start + ws, &" ".repeat(ws));
            edit(line_start, ws, ws)
        }
        // libyaml knows `\'`; YAML 1.2 does not.
        "while parsing a quoted scalar, found unknown escape character" => {
            let quote = b + text.get(b..)?.find('"')?;
            let mut i = quote + 1;
            let mut found = Vec::new();
            while i < bytes.len() && bytes[i] != b'"' {
                if bytes[i] == b'\\' {
                    match bytes.get(i + 1) {
                        Some(b'\'') => found.push(i),
                        Some(c) if !b"0abt\tnvfre \"/\\N_LPxuU\r\n".contains(c) => break,
                        _ => {}
                    }
                    i += 2;
                } else {
                    i += 1;
                }
            }
            if found.is_empty() {
                return None;
            }
            for &at in found.iter().rev() {
                out.replace_range(at..at + 2, "\\x27");
            }
            // Continuation lines of the scalar do not matter (no key starts there); on the
            // first, what follows shifts by two columns per escape.
            let first = found[0];
            let on_line = found
                .iter()
                .filter(|&&at| bld.src.line_of_byte(at) == bld.src.line_of_byte(first))
                .count();
            edit(first, 2 * on_line, 4 * on_line)
        }
        // libyaml starts a plain scalar at any `-` not followed by a blank, and
        // in flow context ends it at the next indicator: `[-]` holds "-".
        "plain scalar cannot start with '-' followed by ,[]{}" => {
            let dash = (0..=b.min(bytes.len().saturating_sub(1)))
                .rev()
                .take(4)
                .find(|&i| bytes[i] == b'-' && bytes.get(i + 1).is_some_and(|c| b",[]{}".contains(c)))?;
            out.replace_range(dash..dash + 1, "\"-\"");
            edit(dash, 1, 3)
        }
        // libyaml does not hold the lines of a flow collection to the block indentation
        // around it: indent the line past the collection's bracket (white space inside a flow
        // collection means nothing, and lines keep their numbers).
        "invalid indentation in flow construct" | "invalid indentation" => {
            let open = innermost_flow_start(bytes, b)?;
            let line = bld.src.line_of_byte(b);
            if bld.src.line_of_byte(open) >= line {
                return None;
            }
            let line_start = bld.src.line_start(line);
            let need = bld.src.pos_of_byte(open).col0 + 1;
            out.insert_str(line_start, &" ".repeat(need));
            edit(line_start, 0, need)
        }
        // libyaml ends the document with the token after a root flow
        // collection, whatever it is; saphyr objects to a stray bracket.
        "misplaced bracket" if root_flow_closes_before(bytes, b) => {
            out.truncate(b);
            edit(b, 0, 0)
        }
        _ => return None,
    };
    Some((out, done))
}

/// The innermost flow collection (`[` or `{`) still open at byte `b`, brackets counted
/// outside quoted scalars. (saphyr can fail inside a collection before reporting its start.)
fn innermost_flow(bytes: &[u8], b: usize) -> Option<u8> {
    innermost_flow_start(bytes, b).map(|i| bytes[i])
}

/// Where [`innermost_flow`]'s bracket is.
fn innermost_flow_start(bytes: &[u8], b: usize) -> Option<usize> {
    let mut open = Vec::new();
    let mut prev = b'\n';
    let mut i = 0;
    while i < b.min(bytes.len()) {
        let c = bytes[i];
        match c {
            b'[' | b'{' => open.push(i),
            b']' | b'}' => {
                open.pop();
            }
            b'"' | b'\'' if matches!(prev, b'[' | b'{' | b',' | b':' | b'?' | b'\n') || is_ws(prev) => {
                i += 1;
                while i < bytes.len() && i < b && bytes[i] != c {
                    i += if c == b'"' && bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        prev = c;
        i += 1;
    }
    open.last().copied()
}

/// Whether the document is a flow collection that is closed before byte
/// `b` (brackets counted outside quoted scalars).
fn root_flow_closes_before(bytes: &[u8], b: usize) -> bool {
    let mut i = 0;
    // Skip white space, comments and a `---` marker before the root.
    loop {
        while i < bytes.len() && is_ws(bytes[i]) {
            i += 1;
        }
        if bytes.get(i) == Some(&b'#') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"---") && (i == 0 || bytes[i - 1] == b'\n') {
            i += 3;
        } else {
            break;
        }
    }
    if !matches!(bytes.get(i), Some(b'[' | b'{')) {
        return false;
    }
    let mut depth = 0usize;
    let mut prev = b'[';
    while i < b.min(bytes.len()) {
        let c = bytes[i];
        match c {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return true;
                }
            }
            b'"' | b'\'' if matches!(prev, b'[' | b'{' | b',' | b':' | b'?') => {
                i += 1;
                while i < bytes.len() && bytes[i] != c {
                    i += if c == b'"' && bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        if !is_ws(c) {
            prev = c;
        }
        i += 1;
    }
    false
}

/// saphyr reports escape errors at the start of the scalar; libyaml at the
/// backslash.
fn escape_error(bld: &Builder<'_>, b: usize, info: &str) -> Error {
    let msg = info.trim_start_matches("while parsing a quoted scalar, ");
    let msg = if msg == "did not find expected hexadecimal number" {
        "did not find expected hexdecimal number"
    } else {
        msg
    };
    let text = bld.src.text.as_bytes();
    let mut i = b + 1;
    let mut at = b;
    while i < text.len() && text[i] != b'"' {
        if text[i] == b'\\' {
            let next = text.get(i + 1).copied().unwrap_or(0);
            let known = b"0abt\tnvfre \"/\\N_LPxuU\r\n".contains(&next);
            if !known || matches!(next, b'x' | b'u' | b'U') {
                at = i;
                if !known {
                    break;
                }
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    libyaml_error(true, bld.src.pos_of_byte(at), msg)
}

/// saphyr gives up at 256 nested flow collections; go-yaml accepts up to
/// 10000. Find out which side of go-yaml's limit the input is on.
fn flow_depth_error(bld: &Builder<'_>, b: usize) -> Error {
    let text = bld.src.text.as_bytes();
    let mut depth = SAPHYR_MAX_FLOW;
    let mut i = b;
    let mut prev = b'[';
    while i < text.len() {
        let c = text[i];
        match c {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return libyaml_error(
                        true,
                        bld.src.pos_of_byte(i),
                        &format!("exceeded max depth of {MAX_DEPTH}"),
                    );
                }
            }
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b'"' | b'\'' if matches!(prev, b'[' | b'{' | b',' | b':' | b'?') => {
                i += 1;
                while i < text.len() {
                    if c == b'"' && text[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if text[i] == c {
                        if c == b'\'' && text.get(i + 1) == Some(&b'\'') {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
            }
            b'#' if i == 0 || is_ws(text[i - 1]) => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
            }
            _ => {}
        }
        if !is_ws(c) {
            prev = c;
        }
        i += 1;
    }
    let at = bld.src.pos_of_byte(b);
    Error::new(
        ErrorKind::Limit,
        format!(
            "yaml: flow collections nested deeper than {SAPHYR_MAX_FLOW} levels are not supported (go-yaml accepts up to {MAX_DEPTH})"
        ),
    )
    .at(at.line0 + 1, at.col0 + 1)
}

/// libyaml's directive rules: only `%YAML 1.1` (at most once) and `%TAG`
/// are accepted. saphyr accepts any version and ignores unknown directives.
fn check_directives(text: &str) -> Result<(), Error> {
    let mut seen_version = false;
    for (line0, line) in text.lines().enumerate() {
        let trimmed = line.trim_start_matches([' ', '\t']);
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some(rest) = line.strip_prefix('%') else {
            return Ok(());
        };
        let name_len = rest
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
            .count();
        let at = |col0: usize| Pos { line0, col0 };
        if name_len == 0 {
            return Err(libyaml_error(true, at(1), "could not find expected directive name"));
        }
        let after = &rest[name_len..];
        if !after.is_empty() && !after.starts_with([' ', '\t']) {
            return Err(libyaml_error(
                true,
                at(1 + name_len),
                "found unexpected non-alphabetical character",
            ));
        }
        match &rest[..name_len] {
            "YAML" => {
                let value = after.trim_start_matches([' ', '\t']);
                let col0 = line.len() - value.len();
                let (major, tail) = version_number(value);
                let Some(tail) = tail.strip_prefix('.').filter(|_| major.is_some()) else {
                    return Err(libyaml_error(
                        true,
                        at(col0),
                        "did not find expected digit or '.' character",
                    ));
                };
                let (minor, tail) = version_number(tail);
                let tail = tail.trim_start_matches([' ', '\t']);
                if minor.is_none() || !(tail.is_empty() || tail.starts_with('#')) {
                    return Err(libyaml_error(
                        true,
                        at(col0),
                        "did not find expected comment or line break",
                    ));
                }
                if seen_version {
                    return Err(libyaml_error(false, at(0), "found duplicate %YAML directive"));
                }
                if (major, minor) != (Some(1), Some(1)) {
                    return Err(libyaml_error(false, at(0), "found incompatible YAML document"));
                }
                seen_version = true;
            }
            "TAG" => {}
            _ => {
                return Err(libyaml_error(true, at(1 + name_len), "found unknown directive name"));
            }
        }
    }
    Ok(())
}

fn version_number(s: &str) -> (Option<u32>, &str) {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 || n > 2 {
        return (None, s);
    }
    (s[..n].parse().ok(), &s[n..])
}
