//! go-yaml v2's `decoder` for an `interface{}` target (`decode.go`), run on
//! an explicit stack so that nesting depth never reaches the call stack.
//!
//! The traversal visits nodes in exactly the order Go's recursion does,
//! because the alias limit is a function of how many nodes have been visited
//! and how many of those visits came through aliases.

use super::error::{Error, ErrorKind};
use super::gofmt::sharp_v;
use super::parse::{NodeId, NodeKind, Tree};
use super::resolve::{MERGE_TAG, scalar_value};
use super::value::{GoVal, MapBuilder};

/// A duplicate mapping key, as `UnmarshalStrict` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    /// 1-based line of the duplicate's *value* in the converted document,
    /// which is the line go-yaml names.
    pub line: usize,
    /// The key as go-yaml prints it (`%#v`): `"name"` with quotes for
    /// strings, bare for numbers and booleans.
    pub key: String,
}

/// What a visit produces.
#[derive(Clone, Copy)]
enum Dest {
    /// A new value, pushed on the value stack.
    Fresh,
    /// Entries merged into an open map (`<<`).
    Into(usize),
}

enum Task {
    Visit(NodeId, Dest),
    SeqNext {
        node: NodeId,
        idx: usize,
    },
    SeqAppend,
    MapNext {
        node: NodeId,
        idx: usize,
        map: usize,
        fresh: bool,
    },
    MapAfterKey {
        node: NodeId,
        idx: usize,
        map: usize,
    },
    MapSet {
        value_node: NodeId,
        map: usize,
    },
    MergeItem {
        node: NodeId,
        map: usize,
    },
    AliasExit(NodeId),
}

// decode.go: 400,000 decodes is ~500kb of dense object declarations, and
// 4,000,000 is ~5MB; the allowed alias share shrinks from 99% to 10% in
// between.
const ALIAS_RATIO_RANGE_LOW: f64 = 400_000.0;
const ALIAS_RATIO_RANGE_HIGH: f64 = 4_000_000.0;

fn allowed_alias_ratio(decode_count: u64) -> f64 {
    let n = decode_count as f64;
    if n <= ALIAS_RATIO_RANGE_LOW {
        0.99
    } else if n >= ALIAS_RATIO_RANGE_HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((n - ALIAS_RATIO_RANGE_LOW) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW))
    }
}

fn decode_error(msg: impl Into<String>, line0: Option<usize>) -> Error {
    let e = Error::new(ErrorKind::Decode, msg);
    match line0 {
        Some(l) => e.at_line(l + 1),
        None => e,
    }
}

struct Decoder<'t> {
    tree: &'t Tree,
    tasks: Vec<Task>,
    values: Vec<GoVal>,
    seqs: Vec<Vec<GoVal>>,
    maps: Vec<MapBuilder>,
    active_aliases: Vec<bool>,
    decode_count: u64,
    alias_count: u64,
    alias_depth: u64,
    duplicates: Vec<DuplicateKey>,
}

fn is_merge(tree: &Tree, n: NodeId) -> bool {
    match &tree.nodes[n].kind {
        NodeKind::Scalar { value, tag, implicit } => value == "<<" && (*implicit || tag == MERGE_TAG),
        _ => false,
    }
}

impl Decoder<'_> {
    fn line0(&self, n: NodeId) -> usize {
        self.tree.nodes[n].line0
    }

    fn visit(&mut self, n: NodeId, dest: Dest) -> Result<(), Error> {
        self.decode_count += 1;
        if self.alias_depth > 0 {
            self.alias_count += 1;
        }
        if self.alias_count > 100
            && self.decode_count > 1000
            && self.alias_count as f64 / self.decode_count as f64 > allowed_alias_ratio(self.decode_count)
        {
            return Err(decode_error("yaml: document contains excessive aliasing", None));
        }
        let tree = self.tree;
        match &tree.nodes[n].kind {
            NodeKind::Alias { target, name } => {
                if self.active_aliases[n] {
                    return Err(decode_error(
                        format!("yaml: anchor '{name}' value contains itself"),
                        Some(self.line0(n)),
                    ));
                }
                self.active_aliases[n] = true;
                self.alias_depth += 1;
                self.tasks.push(Task::AliasExit(n));
                self.tasks.push(Task::Visit(*target, dest));
            }
            NodeKind::Scalar { value, tag, implicit } => {
                let v = scalar_value(tag, *implicit, value)
                    .map_err(|m| decode_error(format!("yaml: {m}"), Some(self.line0(n))))?;
                self.values.push(v);
            }
            NodeKind::Seq(_) => {
                self.seqs.push(Vec::new());
                self.tasks.push(Task::SeqNext { node: n, idx: 0 });
            }
            NodeKind::Map(_) => match dest {
                Dest::Fresh => {
                    self.maps.push(MapBuilder::default());
                    let map = self.maps.len() - 1;
                    self.tasks.push(Task::MapNext {
                        node: n,
                        idx: 0,
                        map,
                        fresh: true,
                    });
                }
                Dest::Into(map) => {
                    self.tasks.push(Task::MapNext {
                        node: n,
                        idx: 0,
                        map,
                        fresh: false,
                    });
                }
            },
        }
        Ok(())
    }

    fn children(&self, n: NodeId) -> &[NodeId] {
        match &self.tree.nodes[n].kind {
            NodeKind::Seq(c) | NodeKind::Map(c) => c,
            _ => &[],
        }
    }

    fn merge(&mut self, value: NodeId, map: usize) -> Result<(), Error> {
        let want_map = || decode_error("yaml: map merge requires map or sequence of maps as the value", None);
        let tree = self.tree;
        match &tree.nodes[value].kind {
            NodeKind::Map(_) => self.tasks.push(Task::Visit(value, Dest::Into(map))),
            NodeKind::Alias { target, .. } => {
                if !matches!(tree.nodes[*target].kind, NodeKind::Map(_)) {
                    return Err(want_map());
                }
                self.tasks.push(Task::Visit(value, Dest::Into(map)));
            }
            NodeKind::Seq(items) => {
                // Later maps are merged first so that earlier ones win.
                for &item in items {
                    self.tasks.push(Task::MergeItem { node: item, map });
                }
            }
            NodeKind::Scalar { .. } => return Err(want_map()),
        }
        Ok(())
    }

    fn step(&mut self, task: Task) -> Result<(), Error> {
        match task {
            Task::Visit(n, dest) => self.visit(n, dest)?,
            Task::SeqNext { node, idx } => {
                if let Some(&child) = self.children(node).get(idx) {
                    self.tasks.push(Task::SeqNext { node, idx: idx + 1 });
                    self.tasks.push(Task::SeqAppend);
                    self.tasks.push(Task::Visit(child, Dest::Fresh));
                } else {
                    let items = self.seqs.pop().unwrap_or_default();
                    self.values.push(GoVal::Seq(items));
                }
            }
            Task::SeqAppend => {
                let v = self.values.pop().unwrap_or_default();
                if let Some(seq) = self.seqs.last_mut() {
                    seq.push(v);
                }
            }
            Task::MapNext { node, idx, map, fresh } => {
                let children = self.children(node);
                if let (Some(&key), Some(&value)) = (children.get(2 * idx), children.get(2 * idx + 1)) {
                    self.tasks.push(Task::MapNext {
                        node,
                        idx: idx + 1,
                        map,
                        fresh,
                    });
                    if is_merge(self.tree, key) {
                        self.merge(value, map)?;
                    } else {
                        self.tasks.push(Task::MapAfterKey { node, idx, map });
                        self.tasks.push(Task::Visit(key, Dest::Fresh));
                    }
                } else if fresh {
                    let done = std::mem::take(&mut self.maps[map]).finish();
                    self.maps.pop();
                    self.values.push(done);
                }
            }
            Task::MapAfterKey { node, idx, map } => {
                if let Some(key @ (GoVal::Seq(_) | GoVal::Map(_))) = self.values.last() {
                    return Err(decode_error(format!("yaml: invalid map key: {}", sharp_v(key)), None));
                }
                let value_node = self.children(node)[2 * idx + 1];
                self.tasks.push(Task::MapSet { value_node, map });
                self.tasks.push(Task::Visit(value_node, Dest::Fresh));
            }
            Task::MapSet { value_node, map } => {
                let value = self.values.pop().unwrap_or_default();
                let key = self.values.pop().unwrap_or_default();
                if self.maps[map].contains(&key) {
                    self.duplicates.push(DuplicateKey {
                        line: self.line0(value_node) + 1,
                        key: sharp_v(&key),
                    });
                }
                self.maps[map].set(key, value);
            }
            Task::MergeItem { node, map } => {
                let tree = self.tree;
                let ok = match &tree.nodes[node].kind {
                    NodeKind::Map(_) => true,
                    NodeKind::Alias { target, .. } => {
                        matches!(tree.nodes[*target].kind, NodeKind::Map(_))
                    }
                    _ => false,
                };
                if !ok {
                    return Err(decode_error(
                        "yaml: map merge requires map or sequence of maps as the value",
                        None,
                    ));
                }
                self.tasks.push(Task::Visit(node, Dest::Into(map)));
            }
            Task::AliasExit(n) => {
                self.alias_depth -= 1;
                self.active_aliases[n] = false;
            }
        }
        Ok(())
    }
}

/// Decodes the document into a Go-shaped value, collecting the duplicate
/// keys `UnmarshalStrict` would report, in its order.
pub(super) fn decode(tree: &Tree) -> Result<(GoVal, Vec<DuplicateKey>), Error> {
    let Some(root) = tree.root else {
        return Ok((GoVal::Null, Vec::new()));
    };
    let mut d = Decoder {
        tree,
        tasks: vec![Task::Visit(root, Dest::Fresh)],
        values: Vec::new(),
        seqs: Vec::new(),
        maps: Vec::new(),
        active_aliases: vec![false; tree.nodes.len()],
        // The document node itself is the first decode.
        decode_count: 1,
        alias_count: 0,
        alias_depth: 0,
        duplicates: Vec::new(),
    };
    while let Some(task) = d.tasks.pop() {
        d.step(task)?;
    }
    let value = d.values.pop().unwrap_or_default();
    Ok((value, d.duplicates))
}
