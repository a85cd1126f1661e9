//! Positions of a YAML document's keys and items, from the parser's events.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, Span};

use super::{Builder, Node, Position};
use crate::source::SourceMap;

pub(super) fn build(text: &[u8]) -> Option<SourceMap> {
    let text = String::from_utf8_lossy(text);
    // A byte-order mark is not part of the first line's columns.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    let mut b = Builder::default();
    let mut anchors: HashMap<usize, usize> = HashMap::new();
    let at = |span: &Span| Position {
        line: span.start.line(),
        column: span.start.col() + 1,
    };
    for event in Parser::new_from_str(text) {
        let (event, span) = event.ok()?;
        match event {
            Event::DocumentEnd => break,
            Event::Scalar(value, _, anchor, _) => {
                let pos = at(&span);
                if b.wants_key() {
                    b.key(&value, pos);
                } else {
                    let id = b.add(Node::Scalar, pos);
                    if anchor != 0 {
                        anchors.insert(anchor, id);
                    }
                }
            }
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                let map = matches!(event, Event::MappingStart(..));
                let id = b.open(map, at(&span));
                if anchor != 0 {
                    anchors.insert(anchor, id);
                }
            }
            Event::MappingEnd => b.close(true),
            Event::SequenceEnd => b.close(false),
            Event::Alias(anchor) => {
                let pos = at(&span);
                match anchors.get(&anchor) {
                    Some(&id) if !b.wants_key() => b.place(id, pos),
                    _ => {
                        b.add(Node::Scalar, pos);
                    }
                }
            }
            _ => {}
        }
    }
    Some(b.finish())
}
