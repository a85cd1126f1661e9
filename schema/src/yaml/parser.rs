//! libyaml's parser as go-yaml v2 runs it (`parserc.go`): tokens to events, with its error
//! texts and the marks its messages are numbered by.

use super::scanner::{Failure, Mark, ScalarStyle, Scan, Scanner, TokenKind};

/// What an [`Event`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// The start of the text.
    StreamStart,
    /// The end of the text.
    StreamEnd,
    /// A document starts (explicitly with `---`, or implicitly).
    DocumentStart,
    /// A document ends.
    DocumentEnd,
    /// `*name`.
    Alias {
        /// The anchor's name.
        anchor: String,
    },
    /// A scalar.
    Scalar {
        /// `&name`, if any.
        anchor: Option<String>,
        /// The resolved tag (`tag:yaml.org,2002:str` for `!!str`), empty if none.
        tag: String,
        /// The scalar's value, escapes decoded and lines folded.
        value: String,
        /// libyaml's `plain_implicit`: plain and untagged, or tagged `!`. Such scalars are
        /// resolved (`yes` is a boolean); others are strings unless tagged otherwise.
        plain_implicit: bool,
        /// How it was written.
        style: ScalarStyle,
    },
    /// A sequence starts.
    SequenceStart {
        /// `&name`, if any.
        anchor: Option<String>,
        /// The resolved tag, empty if none.
        tag: String,
        /// Written `[...]`.
        flow: bool,
    },
    /// A sequence ends.
    SequenceEnd,
    /// A mapping starts.
    MappingStart {
        /// `&name`, if any.
        anchor: Option<String>,
        /// The resolved tag, empty if none.
        tag: String,
        /// Written `{...}`.
        flow: bool,
    },
    /// A mapping ends.
    MappingEnd,
}

/// An event of libyaml's parser, with where it starts and ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// What it is.
    pub kind: EventKind,
    /// Where it starts (an anchor or tag before a node is part of the node).
    pub start: Mark,
    /// Where it ends.
    pub end: Mark,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

struct TagDirective {
    handle: Vec<u8>,
    prefix: Vec<u8>,
}

/// The event parser.
pub(super) struct Parser<'a> {
    scanner: Scanner<'a>,
    state: State,
    states: Vec<State>,
    marks: Vec<Mark>,
    tag_directives: Vec<TagDirective>,
    done: bool,
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn parser_error(problem: &str, problem_mark: Mark) -> Failure {
    Failure::Syntax {
        scanner: false,
        context: "",
        context_mark: Mark::default(),
        problem: problem.to_owned(),
        problem_mark,
    }
}

fn parser_error_context(context: &'static str, context_mark: Mark, problem: &str, problem_mark: Mark) -> Failure {
    Failure::Syntax {
        scanner: false,
        context,
        context_mark,
        problem: problem.to_owned(),
        problem_mark,
    }
}

/// A block mapping's key or value is empty when the next token starts another entry or ends
/// the mapping.
fn ends_block_entry(kind: &TokenKind) -> bool {
    matches!(kind, TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd)
}

fn empty_scalar(mark: Mark) -> Event {
    Event {
        kind: EventKind::Scalar {
            anchor: None,
            tag: String::new(),
            value: String::new(),
            plain_implicit: true,
            style: ScalarStyle::Plain,
        },
        start: mark,
        end: mark,
    }
}

impl<'a> Parser<'a> {
    pub(super) fn new(scanner: Scanner<'a>) -> Self {
        Parser {
            scanner,
            state: State::StreamStart,
            states: Vec::new(),
            marks: Vec::new(),
            tag_directives: Vec::new(),
            done: false,
        }
    }

    /// The next event; `None` after the stream's end or an error.
    pub(super) fn next_event(&mut self) -> Option<Scan<Event>> {
        if self.done || self.state == State::End {
            return None;
        }
        let event = self.state_machine();
        match &event {
            Err(_) => self.done = true,
            Ok(e) if e.kind == EventKind::StreamEnd => self.done = true,
            Ok(_) => {}
        }
        Some(event)
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop().unwrap_or(State::End);
    }

    fn pop_mark(&mut self) -> Mark {
        self.marks.pop().unwrap_or_default()
    }

    fn peek_kind(&mut self) -> Scan<(TokenKind, Mark, Mark)> {
        let t = self.scanner.peek()?;
        Ok((t.kind.clone(), t.start, t.end))
    }

    fn state_machine(&mut self) -> Scan<Event> {
        match self.state {
            State::StreamStart => self.parse_stream_start(),
            State::ImplicitDocumentStart => self.parse_document_start(true),
            State::DocumentStart => self.parse_document_start(false),
            State::DocumentContent => self.parse_document_content(),
            State::DocumentEnd => self.parse_document_end(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => self.parse_block_entry(true, false),
            State::BlockSequenceEntry => self.parse_block_entry(false, false),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => self.parse_block_entry(true, true),
            State::BlockMappingKey => self.parse_block_entry(false, true),
            State::BlockMappingValue => self.parse_block_mapping_value(),
            State::FlowSequenceFirstEntry => self.parse_flow_sequence_entry(true),
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.parse_flow_sequence_entry_mapping_key(),
            State::FlowSequenceEntryMappingValue => self.parse_flow_sequence_entry_mapping_value(),
            State::FlowSequenceEntryMappingEnd => self.parse_flow_sequence_entry_mapping_end(),
            State::FlowMappingFirstKey => self.parse_flow_mapping_key(true),
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => self.parse_flow_mapping_value(false),
            State::FlowMappingEmptyValue => self.parse_flow_mapping_value(true),
            State::End => Err(parser_error("no more events", Mark::default())),
        }
    }

    fn parse_stream_start(&mut self) -> Scan<Event> {
        let (kind, start, end) = self.peek_kind()?;
        if kind != TokenKind::StreamStart {
            return Err(parser_error("did not find expected <stream-start>", start));
        }
        self.state = State::ImplicitDocumentStart;
        self.scanner.skip_token();
        Ok(Event {
            kind: EventKind::StreamStart,
            start,
            end,
        })
    }

    fn parse_document_start(&mut self, implicit: bool) -> Scan<Event> {
        let (mut kind, mut start, mut end) = self.peek_kind()?;
        if !implicit {
            while kind == TokenKind::DocumentEnd {
                self.scanner.skip_token();
                (kind, start, end) = self.peek_kind()?;
            }
        }
        let directive_or_start = matches!(
            kind,
            TokenKind::VersionDirective { .. }
                | TokenKind::TagDirective { .. }
                | TokenKind::DocumentStart
                | TokenKind::StreamEnd
        );
        if implicit && !directive_or_start {
            self.process_directives()?;
            self.states.push(State::DocumentEnd);
            self.state = State::BlockNode;
            return Ok(Event {
                kind: EventKind::DocumentStart,
                start,
                end,
            });
        }
        if kind != TokenKind::StreamEnd {
            let doc_start = start;
            self.process_directives()?;
            let (kind, start, end) = self.peek_kind()?;
            if kind != TokenKind::DocumentStart {
                return Err(parser_error("did not find expected <document start>", start));
            }
            self.states.push(State::DocumentEnd);
            self.state = State::DocumentContent;
            self.scanner.skip_token();
            return Ok(Event {
                kind: EventKind::DocumentStart,
                start: doc_start,
                end,
            });
        }
        self.state = State::End;
        self.scanner.skip_token();
        Ok(Event {
            kind: EventKind::StreamEnd,
            start,
            end,
        })
    }

    fn parse_document_content(&mut self) -> Scan<Event> {
        let (kind, start, _) = self.peek_kind()?;
        if matches!(
            kind,
            TokenKind::VersionDirective { .. }
                | TokenKind::TagDirective { .. }
                | TokenKind::DocumentStart
                | TokenKind::DocumentEnd
                | TokenKind::StreamEnd
        ) {
            self.pop_state();
            return Ok(empty_scalar(start));
        }
        self.parse_node(true, false)
    }

    fn parse_document_end(&mut self) -> Scan<Event> {
        let (kind, start, end) = self.peek_kind()?;
        let mut end_mark = start;
        if kind == TokenKind::DocumentEnd {
            end_mark = end;
            self.scanner.skip_token();
        }
        self.tag_directives.clear();
        self.state = State::DocumentStart;
        Ok(Event {
            kind: EventKind::DocumentEnd,
            start,
            end: end_mark,
        })
    }

    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Scan<Event> {
        let (mut kind, mut token_start, mut token_end) = self.peek_kind()?;
        if let TokenKind::Alias(name) = kind {
            self.pop_state();
            self.scanner.skip_token();
            return Ok(Event {
                kind: EventKind::Alias { anchor: text(name) },
                start: token_start,
                end: token_end,
            });
        }
        let mut start = token_start;
        let mut end = token_start;
        let mut anchor: Option<Vec<u8>> = None;
        let mut tag_token: Option<(Vec<u8>, Vec<u8>)> = None;
        let mut tag_mark = Mark::default();
        match kind {
            TokenKind::Anchor(name) => {
                anchor = Some(name);
                start = token_start;
                end = token_end;
                self.scanner.skip_token();
                (kind, token_start, token_end) = self.peek_kind()?;
                if let TokenKind::Tag { handle, suffix } = kind {
                    tag_token = Some((handle, suffix));
                    tag_mark = token_start;
                    end = token_end;
                    self.scanner.skip_token();
                    (kind, token_start, token_end) = self.peek_kind()?;
                }
            }
            TokenKind::Tag { handle, suffix } => {
                tag_token = Some((handle, suffix));
                start = token_start;
                tag_mark = token_start;
                end = token_end;
                self.scanner.skip_token();
                (kind, token_start, token_end) = self.peek_kind()?;
                if let TokenKind::Anchor(name) = kind {
                    anchor = Some(name);
                    end = token_end;
                    self.scanner.skip_token();
                    (kind, token_start, token_end) = self.peek_kind()?;
                }
            }
            other => kind = other,
        }
        let mut tag: Vec<u8> = Vec::new();
        if let Some((handle, suffix)) = tag_token {
            if handle.is_empty() {
                tag = suffix;
            } else {
                match self.tag_directives.iter().find(|d| d.handle == handle) {
                    Some(d) => {
                        tag = d.prefix.clone();
                        tag.extend_from_slice(&suffix);
                    }
                    None => {
                        return Err(parser_error_context(
                            "while parsing a node",
                            start,
                            "found undefined tag handle",
                            tag_mark,
                        ));
                    }
                }
                if tag.is_empty() {
                    return Err(parser_error_context(
                        "while parsing a node",
                        start,
                        "found undefined tag handle",
                        tag_mark,
                    ));
                }
            }
        }
        let anchor = anchor.map(text);
        if indentless_sequence && kind == TokenKind::BlockEntry {
            self.state = State::IndentlessSequenceEntry;
            return Ok(Event {
                kind: EventKind::SequenceStart {
                    anchor,
                    tag: text(tag),
                    flow: false,
                },
                start,
                end: token_end,
            });
        }
        match kind {
            TokenKind::Scalar { value, style } => {
                let plain_implicit = (tag.is_empty() && style == ScalarStyle::Plain) || tag == b"!";
                self.pop_state();
                self.scanner.skip_token();
                Ok(Event {
                    kind: EventKind::Scalar {
                        anchor,
                        tag: text(tag),
                        value: text(value),
                        plain_implicit,
                        style,
                    },
                    start,
                    end: token_end,
                })
            }
            TokenKind::FlowSequenceStart
            | TokenKind::FlowMappingStart
            | TokenKind::BlockSequenceStart
            | TokenKind::BlockMappingStart
                if block || matches!(kind, TokenKind::FlowSequenceStart | TokenKind::FlowMappingStart) =>
            {
                let (state, mapping, flow) = match kind {
                    TokenKind::FlowSequenceStart => (State::FlowSequenceFirstEntry, false, true),
                    TokenKind::FlowMappingStart => (State::FlowMappingFirstKey, true, true),
                    TokenKind::BlockSequenceStart => (State::BlockSequenceFirstEntry, false, false),
                    _ => (State::BlockMappingFirstKey, true, false),
                };
                self.state = state;
                let tag = text(tag);
                let kind = if mapping {
                    EventKind::MappingStart { anchor, tag, flow }
                } else {
                    EventKind::SequenceStart { anchor, tag, flow }
                };
                Ok(Event {
                    kind,
                    start,
                    end: token_end,
                })
            }
            _ if anchor.is_some() || !tag.is_empty() => {
                // Properties with no content: an empty scalar.
                let plain_implicit = tag.is_empty();
                self.pop_state();
                Ok(Event {
                    kind: EventKind::Scalar {
                        anchor,
                        tag: text(tag),
                        value: String::new(),
                        plain_implicit,
                        style: ScalarStyle::Plain,
                    },
                    start,
                    end,
                })
            }
            _ => {
                let context = if block {
                    "while parsing a block node"
                } else {
                    "while parsing a flow node"
                };
                Err(parser_error_context(
                    context,
                    start,
                    "did not find expected node content",
                    token_start,
                ))
            }
        }
    }

    /// A collection's first token (`[`, `{`, or the block start): its mark is the context of
    /// the collection's errors.
    fn begin_collection(&mut self, first: bool) -> Scan<()> {
        if first {
            let (_, start, _) = self.peek_kind()?;
            self.marks.push(start);
            self.scanner.skip_token();
        }
        Ok(())
    }

    /// A collection's closing token: its end event, and the state before it.
    fn end_collection(&mut self, kind: EventKind, start: Mark, end: Mark) -> Event {
        self.pop_state();
        self.pop_mark();
        self.scanner.skip_token();
        Event { kind, start, end }
    }

    /// What follows an indicator (`-`, `?`, `:`) ending at `mark`, just skipped: the node,
    /// unless the next token is one that `ends` it, which leaves an empty scalar; `next` is the
    /// state after either.
    fn node_or_empty(
        &mut self,
        mark: Mark,
        ends: fn(&TokenKind) -> bool,
        next: State,
        indentless_sequence: bool,
    ) -> Scan<Event> {
        let (kind, _, _) = self.peek_kind()?;
        if ends(&kind) {
            self.state = next;
            return Ok(empty_scalar(mark));
        }
        self.states.push(next);
        self.parse_node(true, indentless_sequence)
    }

    /// The next entry of a block sequence (`-`) or mapping (`?` or a simple key's implied
    /// one), or the collection's end.
    fn parse_block_entry(&mut self, first: bool, mapping: bool) -> Scan<Event> {
        self.begin_collection(first)?;
        let (kind, start, end) = self.peek_kind()?;
        let indicator = if mapping { TokenKind::Key } else { TokenKind::BlockEntry };
        if kind == indicator {
            self.scanner.skip_token();
            return if mapping {
                self.node_or_empty(end, ends_block_entry, State::BlockMappingValue, true)
            } else {
                let ends = |k: &TokenKind| matches!(k, TokenKind::BlockEntry | TokenKind::BlockEnd);
                self.node_or_empty(end, ends, State::BlockSequenceEntry, false)
            };
        }
        if kind == TokenKind::BlockEnd {
            let kind = if mapping {
                EventKind::MappingEnd
            } else {
                EventKind::SequenceEnd
            };
            return Ok(self.end_collection(kind, start, end));
        }
        let context_mark = self.pop_mark();
        let (context, problem) = if mapping {
            ("while parsing a block mapping", "did not find expected key")
        } else {
            (
                "while parsing a block collection",
                "did not find expected '-' indicator",
            )
        };
        Err(parser_error_context(context, context_mark, problem, start))
    }

    fn parse_indentless_sequence_entry(&mut self) -> Scan<Event> {
        let (kind, start, end) = self.peek_kind()?;
        if kind == TokenKind::BlockEntry {
            self.scanner.skip_token();
            let ends = |k: &TokenKind| {
                matches!(
                    k,
                    TokenKind::BlockEntry | TokenKind::Key | TokenKind::Value | TokenKind::BlockEnd
                )
            };
            return self.node_or_empty(end, ends, State::IndentlessSequenceEntry, false);
        }
        self.pop_state();
        Ok(Event {
            kind: EventKind::SequenceEnd,
            start,
            end: start,
        })
    }

    fn parse_block_mapping_value(&mut self) -> Scan<Event> {
        let (kind, start, end) = self.peek_kind()?;
        if kind == TokenKind::Value {
            self.scanner.skip_token();
            return self.node_or_empty(end, ends_block_entry, State::BlockMappingKey, true);
        }
        self.state = State::BlockMappingKey;
        Ok(empty_scalar(start))
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> Scan<Event> {
        self.begin_collection(first)?;
        let (mut kind, mut start, mut end) = self.peek_kind()?;
        if kind != TokenKind::FlowSequenceEnd {
            if !first {
                if kind == TokenKind::FlowEntry {
                    self.scanner.skip_token();
                    (kind, start, end) = self.peek_kind()?;
                } else {
                    let context_mark = self.pop_mark();
                    return Err(parser_error_context(
                        "while parsing a flow sequence",
                        context_mark,
                        "did not find expected ',' or ']'",
                        start,
                    ));
                }
            }
            if kind == TokenKind::Key {
                self.state = State::FlowSequenceEntryMappingKey;
                self.scanner.skip_token();
                return Ok(Event {
                    kind: EventKind::MappingStart {
                        anchor: None,
                        tag: String::new(),
                        flow: true,
                    },
                    start,
                    end,
                });
            }
            if kind != TokenKind::FlowSequenceEnd {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        Ok(self.end_collection(EventKind::SequenceEnd, start, end))
    }

    fn parse_flow_sequence_entry_mapping_key(&mut self) -> Scan<Event> {
        let (kind, _, end) = self.peek_kind()?;
        if !matches!(
            kind,
            TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowSequenceEnd
        ) {
            self.states.push(State::FlowSequenceEntryMappingValue);
            return self.parse_node(false, false);
        }
        let mark = end;
        self.scanner.skip_token();
        self.state = State::FlowSequenceEntryMappingValue;
        Ok(empty_scalar(mark))
    }

    fn parse_flow_sequence_entry_mapping_value(&mut self) -> Scan<Event> {
        // The empty value is marked where the `:` (or the token in its place) starts: go-yaml
        // keeps the first token here, not the one after the `:`.
        let (kind, start, _) = self.peek_kind()?;
        if kind == TokenKind::Value {
            self.scanner.skip_token();
            let (kind, _, _) = self.peek_kind()?;
            if kind != TokenKind::FlowEntry && kind != TokenKind::FlowSequenceEnd {
                self.states.push(State::FlowSequenceEntryMappingEnd);
                return self.parse_node(false, false);
            }
        }
        self.state = State::FlowSequenceEntryMappingEnd;
        Ok(empty_scalar(start))
    }

    fn parse_flow_sequence_entry_mapping_end(&mut self) -> Scan<Event> {
        let (_, start, _) = self.peek_kind()?;
        self.state = State::FlowSequenceEntry;
        Ok(Event {
            kind: EventKind::MappingEnd,
            start,
            end: start,
        })
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> Scan<Event> {
        self.begin_collection(first)?;
        let (mut kind, mut start, mut end) = self.peek_kind()?;
        if kind != TokenKind::FlowMappingEnd {
            if !first {
                if kind == TokenKind::FlowEntry {
                    self.scanner.skip_token();
                    (kind, start, end) = self.peek_kind()?;
                } else {
                    let context_mark = self.pop_mark();
                    return Err(parser_error_context(
                        "while parsing a flow mapping",
                        context_mark,
                        "did not find expected ',' or '}'",
                        start,
                    ));
                }
            }
            if kind == TokenKind::Key {
                self.scanner.skip_token();
                let (kind, start, _) = self.peek_kind()?;
                if !matches!(
                    kind,
                    TokenKind::Value | TokenKind::FlowEntry | TokenKind::FlowMappingEnd
                ) {
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = State::FlowMappingValue;
                return Ok(empty_scalar(start));
            }
            if kind != TokenKind::FlowMappingEnd {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        Ok(self.end_collection(EventKind::MappingEnd, start, end))
    }

    fn parse_flow_mapping_value(&mut self, empty: bool) -> Scan<Event> {
        let (mut kind, mut start, _) = self.peek_kind()?;
        if empty {
            self.state = State::FlowMappingKey;
            return Ok(empty_scalar(start));
        }
        if kind == TokenKind::Value {
            self.scanner.skip_token();
            (kind, start, _) = self.peek_kind()?;
            if kind != TokenKind::FlowEntry && kind != TokenKind::FlowMappingEnd {
                self.states.push(State::FlowMappingKey);
                return self.parse_node(false, false);
            }
        }
        self.state = State::FlowMappingKey;
        Ok(empty_scalar(start))
    }

    /// Reads `%YAML` and `%TAG` directives, then adds the default handles `!` and `!!`.
    fn process_directives(&mut self) -> Scan<()> {
        let mut version_seen = false;
        let (mut kind, mut start, _) = self.peek_kind()?;
        loop {
            match kind {
                TokenKind::VersionDirective { major, minor } => {
                    if version_seen {
                        return Err(parser_error("found duplicate %YAML directive", start));
                    }
                    if major != 1 || minor != 1 {
                        return Err(parser_error("found incompatible YAML document", start));
                    }
                    version_seen = true;
                }
                TokenKind::TagDirective { handle, prefix } => {
                    if self.tag_directives.iter().any(|d| d.handle == handle) {
                        return Err(parser_error("found duplicate %TAG directive", start));
                    }
                    self.tag_directives.push(TagDirective { handle, prefix });
                }
                _ => break,
            }
            self.scanner.skip_token();
            (kind, start, _) = self.peek_kind()?;
        }
        for (handle, prefix) in [(&b"!"[..], &b"!"[..]), (b"!!", b"tag:yaml.org,2002:")] {
            if !self.tag_directives.iter().any(|d| d.handle == handle) {
                self.tag_directives.push(TagDirective {
                    handle: handle.to_vec(),
                    prefix: prefix.to_vec(),
                });
            }
        }
        Ok(())
    }
}
