//! Layer 3: where fields are in a manifest's text: the line and column of every key, so that a field
//! path the API server reports (`spec.template.metadata.colour`, `spec.ports[0].x`) can be
//! shown where a person wrote it.
//!
//! A [`SourceMap`] is built from one JSON value or one YAML document (anchors, aliases and
//! merge keys followed as `sigs.k8s.io/yaml` follows them). It answers three questions:
//! where a path is ([`SourceMap::locate`]), every place a repeated key was written
//! ([`SourceMap::occurrences`]), and which keys are repeated at all
//! ([`SourceMap::duplicates`]), with paths spelled as the API server spells them.
//!
//! ```
//! use kstruct::source::{Position, SourceMap};
//!
//! let text = b"apiVersion: example.com/v1\nkind: Widget\nspec:\n  ports:\n  - port: 80\n    colour: red\n";
//! let map = SourceMap::yaml(text).unwrap();
//! assert_eq!(map.locate("spec.ports[0].colour"), Some(Position { line: 6, column: 5 }));
//! assert_eq!(map.locate("spec.ports[1]"), None);
//! ```

mod json;
mod yaml;

use crate::format::BodyFormat;

/// A place in a text: 1-based line, and 1-based column counted in characters (not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Position {
    /// This position in a larger text where the mapped text starts at `base` (its first line
    /// shifts columns too; later lines only shift lines).
    pub fn offset_by(self, base: Position) -> Position {
        Position {
            line: self.line + base.line - 1,
            column: if self.line == 1 {
                self.column + base.column - 1
            } else {
                self.column
            },
        }
    }
}

/// A repeated key of a mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The field path, as the API server spells it (`metadata.name`, `spec.ports[0].port`).
    pub path: String,
    /// Where the repeated key is written.
    pub at: Position,
    /// Where the key was first written in the same mapping.
    pub first: Position,
}

/// One step of a resolved path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// A key of a mapping.
    Key(String),
    /// An item of a sequence.
    Index(usize),
}

/// Index of a node in [`SourceMap::nodes`].
type NodeId = usize;

#[derive(Debug)]
enum Node {
    Map(Vec<Entry>),
    Seq(Vec<Item>),
    Scalar,
}

#[derive(Debug, Clone)]
struct Entry {
    key: String,
    at: Position,
    value: NodeId,
    /// Brought in by a YAML merge key (`<<`): found by lookups, never a duplicate.
    merged: bool,
}

#[derive(Debug, Clone, Copy)]
struct Item {
    at: Position,
    value: NodeId,
}

/// The positions of the keys and items of one JSON value or YAML document.
#[derive(Debug, Default)]
pub struct SourceMap {
    nodes: Vec<Node>,
    root: Option<NodeId>,
}

/// A path resolved in a [`SourceMap`]: the steps taken and where each was written.
struct Resolved {
    /// Each step: the node it was taken in, and which entry or item.
    steps: Vec<(NodeId, usize)>,
}

impl SourceMap {
    /// The map of one JSON value; `None` if `text` is not one (syntax errors are the
    /// decoder's to report).
    pub fn json(text: &[u8]) -> Option<SourceMap> {
        json::build(text)
    }

    /// The map of the first YAML document of `text`; `None` if it does not parse.
    pub fn yaml(text: &[u8]) -> Option<SourceMap> {
        yaml::build(text)
    }

    /// The map of a request body in `format` (`Auto`: JSON when the first non-space byte is
    /// `{`, as the API server's clients decide).
    pub fn new(text: &[u8], format: BodyFormat) -> Option<SourceMap> {
        let json = format.resolve(text) == BodyFormat::Json;
        if json {
            SourceMap::json(text)
        } else {
            SourceMap::yaml(text)
        }
    }

    /// Where the field at `path` is written: its key for a field, the item's start for a
    /// sequence item. A key written twice resolves to its last occurrence (the value the
    /// decoder keeps). `None` when the path is not in the text.
    pub fn locate(&self, path: &str) -> Option<Position> {
        let r = self.resolve(path)?;
        let &(node, i) = r.steps.last()?;
        Some(self.position(node, i))
    }

    /// Every place the last key of `path` is written in its mapping, in text order (one for a
    /// key written once; empty when the path is not in the text).
    pub fn occurrences(&self, path: &str) -> Vec<Position> {
        let Some(r) = self.resolve(path) else {
            return Vec::new();
        };
        match r.steps.last() {
            Some(&(node, i)) => match &self.nodes[node] {
                Node::Map(entries) => entries
                    .iter()
                    .filter(|e| !e.merged && e.key == entries[i].key)
                    .map(|e| e.at)
                    .collect(),
                _ => vec![self.position(node, i)],
            },
            None => Vec::new(),
        }
    }

    /// The keys and indices `path` goes through, as written (a key may hold dots, so the path
    /// text alone does not say).
    pub fn segments(&self, path: &str) -> Option<Vec<Segment>> {
        let r = self.resolve(path)?;
        Some(
            r.steps
                .iter()
                .map(|&(node, i)| match &self.nodes[node] {
                    Node::Map(entries) => Segment::Key(entries[i].key.clone()),
                    _ => Segment::Index(i),
                })
                .collect(),
        )
    }

    /// Every repeated key, in text order of the repetition, with the API server's path.
    pub fn duplicates(&self) -> Vec<Duplicate> {
        let mut out = Vec::new();
        let Some(root) = self.root else {
            return out;
        };
        // Depth-first in text order, on an explicit stack (documents nest 10,000 deep).
        let mut stack = vec![(root, String::new())];
        let mut seen = std::collections::HashSet::new();
        while let Some((node, path)) = stack.pop() {
            if !seen.insert(node) {
                // An alias: its node was walked where the anchor is.
                continue;
            }
            let mut children = Vec::new();
            match &self.nodes[node] {
                Node::Map(entries) => {
                    let mut first: std::collections::HashMap<&str, Position> = std::collections::HashMap::new();
                    for e in entries.iter().filter(|e| !e.merged) {
                        let child = if path.is_empty() {
                            e.key.clone()
                        } else {
                            format!("{path}.{}", e.key)
                        };
                        if let Some(&f) = first.get(e.key.as_str()) {
                            out.push(Duplicate {
                                path: child.clone(),
                                at: e.at,
                                first: f,
                            });
                        } else {
                            first.insert(&e.key, e.at);
                        }
                        children.push((e.value, child));
                    }
                }
                Node::Seq(items) => {
                    for (i, item) in items.iter().enumerate() {
                        children.push((item.value, format!("{path}[{i}]")));
                    }
                }
                Node::Scalar => {}
            }
            stack.extend(children.into_iter().rev());
        }
        // The walk reports a mapping's duplicates before its children's; text order is what a
        // reader (and the decoder) goes by.
        out.sort_by_key(|d| d.at);
        out
    }

    fn position(&self, node: NodeId, i: usize) -> Position {
        match &self.nodes[node] {
            Node::Map(entries) => entries[i].at,
            Node::Seq(items) => items[i].at,
            Node::Scalar => Position { line: 1, column: 1 },
        }
    }

    /// Follows `path` from the root. Keys may contain dots and brackets, so each step tries
    /// every key the rest of the path starts with (the last written first), backtracking on
    /// dead ends, on an explicit stack.
    fn resolve(&self, path: &str) -> Option<Resolved> {
        let root = self.root?;
        let b = path.as_bytes();
        if b.is_empty() {
            return None;
        }
        struct Frame {
            node: NodeId,
            /// Candidates not yet tried, as (entry or item index, end of its path text).
            candidates: Vec<(usize, usize)>,
            /// The candidate this frame's child was reached through.
            via: Option<usize>,
        }
        let candidates = |node: NodeId, pos: usize| -> Vec<(usize, usize)> {
            match &self.nodes[node] {
                Node::Map(entries) => {
                    let start = if pos == 0 {
                        0
                    } else if b.get(pos) == Some(&b'.') {
                        pos + 1
                    } else {
                        return Vec::new();
                    };
                    let rest = &b[start..];
                    // Pushed first-written first so that popping tries the last written first;
                    // merged entries (listed first) lose to written ones.
                    entries
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| {
                            let k = e.key.as_bytes();
                            rest.starts_with(k) && (rest.len() == k.len() || matches!(rest[k.len()], b'.' | b'['))
                        })
                        .map(|(i, e)| (i, start + e.key.len()))
                        .collect()
                }
                Node::Seq(items) => {
                    let rest = &b[pos..];
                    if rest.first() != Some(&b'[') {
                        return Vec::new();
                    }
                    let digits = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    if digits == 0 || rest.get(1 + digits) != Some(&b']') {
                        return Vec::new();
                    }
                    let Ok(i) = path[pos + 1..pos + 1 + digits].parse::<usize>() else {
                        return Vec::new();
                    };
                    if i < items.len() {
                        vec![(i, pos + digits + 2)]
                    } else {
                        Vec::new()
                    }
                }
                Node::Scalar => Vec::new(),
            }
        };
        let mut stack = vec![Frame {
            node: root,
            candidates: candidates(root, 0),
            via: None,
        }];
        loop {
            let top = stack.last_mut()?;
            match top.candidates.pop() {
                Some((i, end)) => {
                    let child = match &self.nodes[top.node] {
                        Node::Map(entries) => entries[i].value,
                        Node::Seq(items) => items[i].value,
                        Node::Scalar => unreachable!("scalars have no candidates"),
                    };
                    if end == b.len() {
                        let node = top.node;
                        let mut steps: Vec<(NodeId, usize)> =
                            stack.windows(2).map(|w| (w[0].node, w[1].via.unwrap_or(0))).collect();
                        steps.push((node, i));
                        return Some(Resolved { steps });
                    }
                    let candidates = candidates(child, end);
                    stack.push(Frame {
                        node: child,
                        candidates,
                        via: Some(i),
                    });
                }
                None => {
                    stack.pop();
                }
            }
        }
    }
}

/// Builds a [`SourceMap`] bottom-up: containers are opened, filled and closed in text order.
#[derive(Default)]
struct Builder {
    nodes: Vec<Node>,
    open: Vec<Open>,
    root: Option<NodeId>,
}

enum Open {
    Map {
        node: NodeId,
        entries: Vec<Entry>,
        key: Option<(String, Position)>,
    },
    Seq {
        node: NodeId,
        items: Vec<Item>,
    },
}

impl Builder {
    /// A new node at `at`, placed in the open container. Returns its id.
    fn add(&mut self, node: Node, at: Position) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(node);
        self.place(id, at);
        id
    }

    /// Whether the innermost open container is a mapping waiting for its next key.
    fn wants_key(&self) -> bool {
        matches!(self.open.last(), Some(Open::Map { key: None, .. }))
    }

    /// The next key of the open mapping (a scalar key; see [`wants_key`](Builder::wants_key)).
    fn key(&mut self, text: &str, at: Position) {
        if let Some(Open::Map { key, .. }) = self.open.last_mut() {
            *key = Some((text.to_string(), at));
        }
    }

    /// Places an existing node (an alias's target, or a new one) in the open container. A
    /// node where a mapping waits for a key (a YAML complex key or alias key) is the key `""`:
    /// scalar keys come through [`key`](Builder::key).
    fn place(&mut self, id: NodeId, at: Position) {
        match self.open.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(id);
                }
            }
            Some(Open::Seq { items, .. }) => items.push(Item { at, value: id }),
            Some(Open::Map { entries, key, .. }) => match key.take() {
                None => *key = Some((String::new(), at)),
                Some((k, key_at)) => entries.push(Entry {
                    key: k,
                    at: key_at,
                    value: id,
                    merged: false,
                }),
            },
        }
    }

    /// Opens a mapping or sequence at `at`; returns its id.
    fn open(&mut self, map: bool, at: Position) -> NodeId {
        let id = self.add(Node::Scalar, at);
        self.open.push(if map {
            Open::Map {
                node: id,
                entries: Vec::new(),
                key: None,
            }
        } else {
            Open::Seq {
                node: id,
                items: Vec::new(),
            }
        });
        id
    }

    /// Closes the innermost container; `merge` resolves YAML merge keys (`<<`).
    fn close(&mut self, merge: bool) {
        match self.open.pop() {
            Some(Open::Map { node, entries, .. }) => {
                let entries = if merge { self.merged(entries) } else { entries };
                self.nodes[node] = Node::Map(entries);
            }
            Some(Open::Seq { node, items }) => self.nodes[node] = Node::Seq(items),
            None => {}
        }
    }

    /// A mapping's entries with its `<<` entries replaced by the entries of the mappings they
    /// name (earlier merged mappings win, written keys win over all), listed first.
    fn merged(&self, entries: Vec<Entry>) -> Vec<Entry> {
        if !entries.iter().any(|e| e.key == "<<") {
            return entries;
        }
        let mut merged: Vec<Entry> = Vec::new();
        let mut own = Vec::new();
        for e in entries {
            if e.key != "<<" {
                own.push(e);
                continue;
            }
            let sources: Vec<NodeId> = match &self.nodes[e.value] {
                Node::Map(_) => vec![e.value],
                Node::Seq(items) => items.iter().map(|i| i.value).collect(),
                Node::Scalar => Vec::new(),
            };
            for s in sources {
                if let Node::Map(src) = &self.nodes[s] {
                    for se in src {
                        if !merged.iter().any(|m| m.key == se.key) {
                            merged.push(Entry {
                                merged: true,
                                ..se.clone()
                            });
                        }
                    }
                }
            }
        }
        merged.retain(|m| !own.iter().any(|o| o.key == m.key));
        merged.extend(own);
        merged
    }

    fn finish(mut self) -> SourceMap {
        while !self.open.is_empty() {
            self.close(false);
        }
        SourceMap {
            nodes: self.nodes,
            root: self.root,
        }
    }
}

#[cfg(test)]
mod tests;
