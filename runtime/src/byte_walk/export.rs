//! Plans as Rust source, for generated code: the inverse of [`Plan::from_static`],
//! [`Node::new`] and [`Prop::new`], kept beside them so that the two cannot drift apart.

use std::collections::HashMap;
use std::fmt::Write;

use super::plan::{Child, Node, Plan, Prop};

/// Writes the nodes of many plans as one static array (`SCAN_NODES`), identical nodes once,
/// each node's properties in a static array of their own (`SCAN_PROPS_<i>`: a static can
/// borrow another static, not a temporary).
#[doc(hidden)]
#[derive(Debug)]
pub struct PlanWriter {
    /// The path the generated code names the runtime's items by (`rt` for
    /// `kstruct::compiled::v1`).
    prefix: String,
    nodes: Vec<String>,
    index: HashMap<String, u32>,
    props: Vec<Vec<String>>,
    props_index: HashMap<Vec<String>, usize>,
}

impl PlanWriter {
    /// A writer for code that names `kstruct::compiled::v1` as `prefix`.
    pub fn new(prefix: &str) -> PlanWriter {
        PlanWriter {
            prefix: prefix.to_string(),
            nodes: Vec::new(),
            index: HashMap::new(),
            props: Vec::new(),
            props_index: HashMap::new(),
        }
    }

    /// Adds `plan`'s nodes, sharing those identical to nodes added before; the index of its
    /// root in the array.
    pub fn add(&mut self, plan: &Plan) -> u32 {
        self.intern(plan, plan.node(plan.root))
    }

    /// How many nodes the array holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no node was added.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The items, as a table one entry per line (indented for a module's body):
    /// `static SCAN_PROPS_<i>: [rt::ScanProp; n] = [...];` for each distinct property list,
    /// and `pub(super) static SCAN_NODES: [rt::ScanNode; n] = [...];`, each node marked with
    /// its index (what properties and children refer to it by).
    pub fn finish(self) -> String {
        let rt = &self.prefix;
        let mut out = String::new();
        for (i, p) in self.props.iter().enumerate() {
            let _ = writeln!(out, "    static SCAN_PROPS_{i}: [{rt}::ScanProp; {}] = [", p.len());
            for prop in p {
                let _ = writeln!(out, "        {prop},");
            }
            out.push_str("    ];\n");
        }
        let _ = writeln!(
            out,
            "    /// The byte walk's plans of every pipeline, identical nodes shared.\n    \
             pub(super) static SCAN_NODES: [{rt}::ScanNode; {}] = [",
            self.nodes.len()
        );
        for (i, node) in self.nodes.iter().enumerate() {
            let _ = writeln!(out, "        /* {i} */ {node},");
        }
        out.push_str("    ];\n");
        out
    }

    fn child(&mut self, plan: &Plan, c: Child) -> String {
        let rt = self.prefix.clone();
        match c {
            Child::Absent => format!("{rt}::ScanChild::Absent"),
            Child::NoSchema => format!("{rt}::ScanChild::NoSchema"),
            Child::Node(n) => format!("{rt}::ScanChild::Node({})", self.intern(plan, plan.node(n))),
        }
    }

    fn intern(&mut self, plan: &Plan, node: &Node) -> u32 {
        let rt = self.prefix.clone();
        let props: Vec<String> = node.props.iter().map(|p| self.prop(plan, p)).collect();
        let props = if props.is_empty() {
            "&[]".to_string()
        } else {
            let next = self.props.len();
            let i = *self.props_index.entry(props.clone()).or_insert(next);
            if i == next {
                self.props.push(props);
            }
            format!("&SCAN_PROPS_{i}")
        };
        let additional = self.child(plan, node.additional);
        let items = self.child(plan, node.items);
        let default = match &node.default {
            Some(d) => format!("Some({})", bytes(d)),
            None => "None".to_string(),
        };
        let defaulted: Vec<String> = node.defaulted.iter().map(u32::to_string).collect();
        let text = format!(
            "{rt}::ScanNode::new({props}, {additional}, {items}, {}, {rt}::ScanEmbedded::{:?}, {}, {default}, &[{}])",
            node.preserve,
            node.embedded,
            node.nullable,
            defaulted.join(", ")
        );
        if let Some(&id) = self.index.get(&text) {
            return id;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(text.clone());
        self.index.insert(text, id);
        id
    }

    fn prop(&mut self, plan: &Plan, p: &Prop) -> String {
        let node = self.intern(plan, plan.node(p.node));
        let member = match &p.member {
            Some(m) => format!("Some({})", bytes(m)),
            None => "None".to_string(),
        };
        format!(
            "{}::ScanProp::new({}, {}, {node}, {member})",
            self.prefix,
            bytes(&p.key),
            bytes(&p.label)
        )
    }
}

/// A byte string literal.
fn bytes(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() + 3);
    s.push_str("b\"");
    for &c in b {
        match c {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(char::from(c)),
            _ => {
                let _ = write!(s, "\\x{c:02x}");
            }
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_nodes_are_written_once() {
        let schema = kstruct_schema::convert::from_value(&serde_json::json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "properties": {"x": {"type": "string", "default": "q\"\\\u{e9}"}}},
                "b": {"type": "object", "properties": {"x": {"type": "string", "default": "q\"\\\u{e9}"}}},
            },
        }))
        .unwrap();
        let plan = Plan::new(schema.as_ref()).unwrap();
        let mut w = PlanWriter::new("rt");
        let root = w.add(&plan);
        // The string leaf, the object holding it (shared by `a` and `b`), the root.
        assert_eq!((w.len(), root), (3, 2));
        let text = w.finish();
        assert!(
            text.contains(r#"rt::ScanProp::new(b"x", b"\"x\":", 0, Some(b"\"x\":\"q\\\"\\\\\xc3\xa9\""))"#),
            "{text}"
        );
    }
}
