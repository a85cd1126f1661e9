//! Positions of a YAML document's keys and items, from the parser's events.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use super::{Builder, Node, Position};
use crate::source::SourceMap;

pub(super) fn build(text: &[u8]) -> Option<SourceMap> {
    let text = String::from_utf8_lossy(text);
    // A byte-order mark is not part of the first line's columns.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    build_from(text, &|_, col0| col0).or_else(|| {
        // saphyr refuses some YAML that libyaml reads (a flow sequence's closing bracket at
        // the indentation of the mapping around it, as in `args: [\n  "x",\n]`): read the
        // decoder's rewrite of it, whose columns map back to the original's.
        let rewritten = kstruct_schema::yaml::saphyr_text(text);
        if matches!(rewritten.text, std::borrow::Cow::Borrowed(_)) {
            return None;
        }
        build_from(&rewritten.text, &|line0, col0| rewritten.original_column(line0, col0))
    })
}

/// The source map of `text`, whose columns (0-based, in characters) `column` maps to the
/// original's.
fn build_from(text: &str, column: &dyn Fn(usize, usize) -> usize) -> Option<SourceMap> {
    let mut b = Builder::default();
    let mut anchors: HashMap<usize, usize> = HashMap::new();
    let at = |span: &Span| Position {
        line: span.start.line(),
        column: column(span.start.line().saturating_sub(1), span.start.col()) + 1,
    };
    for event in Parser::new_from_str(text) {
        let (event, span) = event.ok()?;
        match event {
            Event::DocumentEnd => break,
            Event::Scalar(value, style, anchor, tag) => {
                let pos = at(&span);
                if b.wants_key() {
                    // The key as the decoder names it: `y:` is the key "true".
                    let plain = style == ScalarStyle::Plain && tag.is_none();
                    let key = kstruct_schema::yaml::json_key(&value, plain);
                    b.key(key.as_deref().unwrap_or(&value), pos);
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
