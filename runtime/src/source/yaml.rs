//! Positions of a YAML document's keys and items, from the events of the decoder's own
//! parser (so every document the decoder reads has a map, with go-yaml's lines and columns).

use std::collections::HashMap;

use kstruct_schema::yaml::{EventKind, ScalarStyle, events};

use super::{Builder, Node, Position};
use crate::source::SourceMap;

pub(super) fn build(text: &[u8]) -> Option<SourceMap> {
    let events = events(text).ok()?;
    let mut b = Builder::default();
    let mut anchors: HashMap<String, usize> = HashMap::new();
    for event in events {
        let pos = Position {
            line: event.start.line + 1,
            column: event.start.column + 1,
        };
        match event.kind {
            EventKind::DocumentEnd => break,
            EventKind::Scalar {
                value,
                anchor,
                tag,
                style,
                ..
            } => {
                if b.wants_key() {
                    // The key as the decoder names it: `y:` is the key "true".
                    let plain = style == ScalarStyle::Plain && tag.is_empty();
                    let key = kstruct_schema::yaml::json_key(&value, plain);
                    b.key(key.as_deref().unwrap_or(&value), pos);
                } else {
                    let id = b.add(Node::Scalar, pos);
                    if let Some(a) = anchor {
                        anchors.insert(a, id);
                    }
                }
            }
            EventKind::MappingStart { anchor, .. } => {
                let id = b.open(true, pos);
                if let Some(a) = anchor {
                    anchors.insert(a, id);
                }
            }
            EventKind::SequenceStart { anchor, .. } => {
                let id = b.open(false, pos);
                if let Some(a) = anchor {
                    anchors.insert(a, id);
                }
            }
            EventKind::MappingEnd => b.close(true),
            EventKind::SequenceEnd => b.close(false),
            EventKind::Alias { anchor } => match anchors.get(&anchor) {
                Some(&id) if !b.wants_key() => b.place(id, pos),
                _ => {
                    b.add(Node::Scalar, pos);
                }
            },
            _ => {}
        }
    }
    Some(b.finish())
}
