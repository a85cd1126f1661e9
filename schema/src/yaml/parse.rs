//! go-yaml v2's node tree for the first document of a text (`decode.go`'s `parser`), built
//! from the events of [`super::parser`], and go-yaml's error texts (`parser.fail`).
//!
//! go-yaml builds the tree recursively; this builds it with an explicit stack, so that the
//! 10,000 levels the scanner allows never reach the call stack. It asks the parser for
//! events in the same order, so the parse stops at the same place.

use std::collections::HashMap;

use super::error::{Error, ErrorKind};
use super::parser::{Event, EventKind, Parser};
use super::reader::Input;
use super::scanner::{Failure, Mark, Scanner};

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

/// go-yaml's `parser.fail`: the line is the problem's (one more for scanner errors, whose
/// marks go-yaml has not moved to the next line yet), else the context's, and none on the
/// first line. The error's own position is the problem's, for people.
pub(super) fn failure_error(failure: Failure) -> Error {
    match failure {
        Failure::Reader(e) => e,
        Failure::Syntax {
            scanner,
            context,
            context_mark,
            problem,
            problem_mark,
        } => {
            let line = if problem_mark.line != 0 {
                problem_mark.line + usize::from(scanner)
            } else {
                context_mark.line
            };
            let text = if line != 0 {
                format!("yaml: line {line}: {problem}")
            } else {
                format!("yaml: {problem}")
            };
            let e = Error::new(ErrorKind::Syntax, text).at(problem_mark.line + 1, problem_mark.column + 1);
            if context.is_empty() || context_mark == problem_mark {
                return e;
            }
            e.with_context(super::error::Context {
                text: context,
                line: context_mark.line + 1,
                column: context_mark.column + 1,
            })
        }
    }
}

/// The events of the first document of a text, as go-yaml's parser delivers them.
pub(super) struct Events<'a> {
    parser: Parser<'a>,
}

impl<'a> Events<'a> {
    pub(super) fn new(input: &'a Input<'_>) -> Self {
        Events {
            parser: Parser::new(Scanner::new(input)),
        }
    }

    pub(super) fn next(&mut self) -> Result<Event, Error> {
        match self.parser.next_event() {
            Some(Ok(e)) => Ok(e),
            Some(Err(f)) => Err(failure_error(f)),
            None => Err(Error::new(
                ErrorKind::Syntax,
                "yaml: attempted to go past the end of stream; corrupted value?",
            )),
        }
    }
}

struct Composer {
    tree: Tree,
    open: Vec<NodeId>,
    anchors: HashMap<String, NodeId>,
}

impl Composer {
    fn add(&mut self, kind: NodeKind, at: Mark, anchor: Option<String>) -> NodeId {
        let id = self.tree.nodes.len();
        self.tree.nodes.push(Node { kind, line0: at.line });
        if let Some(name) = anchor {
            self.anchors.insert(name, id);
        }
        match self.open.last() {
            Some(&top) => match &mut self.tree.nodes[top].kind {
                NodeKind::Seq(items) | NodeKind::Map(items) => items.push(id),
                _ => {}
            },
            None => self.tree.root = Some(id),
        }
        id
    }
}

/// Parses the first document of `input` into go-yaml's node tree.
pub(super) fn parse(input: &Input<'_>) -> Result<Tree, Error> {
    let mut events = Events::new(input);
    events.next()?; // STREAM-START
    let first = events.next()?;
    if first.kind != EventKind::DocumentStart {
        // STREAM-END: a text of comments and blank lines only.
        return Ok(Tree::default());
    }
    let mut c = Composer {
        tree: Tree::default(),
        open: Vec::new(),
        anchors: HashMap::new(),
    };
    loop {
        let ev = events.next()?;
        match ev.kind {
            EventKind::Scalar {
                anchor,
                tag,
                value,
                plain_implicit,
                ..
            } => {
                c.add(
                    NodeKind::Scalar {
                        value,
                        tag,
                        implicit: plain_implicit,
                    },
                    ev.start,
                    anchor,
                );
            }
            EventKind::Alias { anchor } => {
                let Some(&target) = c.anchors.get(&anchor) else {
                    return Err(
                        Error::new(ErrorKind::Decode, format!("yaml: unknown anchor '{anchor}' referenced"))
                            .at(ev.start.line + 1, ev.start.column + 1),
                    );
                };
                c.add(NodeKind::Alias { target, name: anchor }, ev.start, None);
            }
            EventKind::SequenceStart { anchor, .. } => {
                let id = c.add(NodeKind::Seq(Vec::new()), ev.start, anchor);
                c.open.push(id);
                continue;
            }
            EventKind::MappingStart { anchor, .. } => {
                let id = c.add(NodeKind::Map(Vec::new()), ev.start, anchor);
                c.open.push(id);
                continue;
            }
            EventKind::SequenceEnd | EventKind::MappingEnd => {
                c.open.pop();
            }
            // The state machine allows nothing else inside a document.
            _ => {}
        }
        if c.open.is_empty() {
            break;
        }
    }
    events.next()?; // DOCUMENT-END
    Ok(c.tree)
}
