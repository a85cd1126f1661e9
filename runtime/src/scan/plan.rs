//! What the byte walker needs to know of a schema, flattened: one [`Node`] per schema node,
//! with its properties sorted by key bytes and every default already defaulted and printed.

use kstruct_schema::Structural;
use kstruct_schema::go::{marshal_json, write_string};

use super::text::head;
use crate::interpreter::default;

/// A schema prepared for decoding from bytes (see [`crate::scan`]): everything pruning,
/// dropping nulls and defaulting decide, in a form read without interpreting the schema
/// tree. Built once per schema version ([`Plan::new`]), shared by every decode.
#[derive(Debug, Clone)]
pub struct Plan {
    pub(super) nodes: Vec<Node>,
}

/// Where a value goes by its key or position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Child {
    /// No schema says anything: an unknown field (or, for items, elements without a schema).
    Absent,
    /// `additionalProperties: true|false`: the value is pruned without a schema.
    NoSchema,
    /// A schema node.
    Node(u32),
}

/// One schema node.
#[derive(Debug, Clone)]
pub(super) struct Node {
    /// Sorted by key bytes.
    pub props: Vec<Prop>,
    pub additional: Child,
    pub items: Child,
    pub preserve: bool,
    pub embedded: bool,
    pub nullable: bool,
    /// The node's own default, defaulted and printed: what a `null` becomes where the node is
    /// not nullable.
    pub default: Option<Box<[u8]>>,
    /// Indices into `props` of the properties with a default, for absent keys.
    pub defaulted: Vec<u32>,
}

/// A property of a node.
#[derive(Debug, Clone)]
pub(super) struct Prop {
    pub key: Box<[u8]>,
    /// [`head`] of the key.
    pub head: u64,
    /// `"key":`, escaped as Go escapes it.
    pub label: Box<[u8]>,
    pub node: u32,
    /// `"key":default`, as written when the key is absent.
    pub member: Option<Box<[u8]>>,
}

impl Node {
    /// The index of property `key`.
    #[inline]
    pub fn find(&self, key: &[u8]) -> Option<usize> {
        let h = head(key);
        if self.props.len() <= 16 {
            // Keys of up to eight bytes are told apart by their heads and lengths alone.
            return self
                .props
                .iter()
                .position(|p| p.head == h && p.key.len() == key.len() && (key.len() <= 8 || p.key[8..] == key[8..]));
        }
        self.props
            .binary_search_by(|p| p.head.cmp(&h).then_with(|| (*p.key).cmp(key)))
            .ok()
    }
}

impl Plan {
    /// The plan of `schema`, a version's schema as served (defaults pruned); `None` for a
    /// version without a schema. `None` when the root is one the walker leaves to the `Value`
    /// path: defaults or additional properties for the root's `apiVersion`, `kind` or
    /// `metadata`, or a root marked as an embedded resource.
    pub fn new(schema: Option<&Structural>) -> Option<Plan> {
        let empty = Structural::default();
        let schema = schema.unwrap_or(&empty);
        if schema.additional_properties.is_some() || schema.extensions.x_embedded_resource {
            return None;
        }
        for field in ["apiVersion", "kind", "metadata"] {
            if let Some(p) = schema.properties.get(field) {
                // The walk writes these from the body (and ObjectMeta); the `Value` path
                // defaults and coerces them by their schema too.
                let mut busy = false;
                p.walk(&mut |n| busy |= n.generic.default.is_some() || n.extensions.x_embedded_resource);
                if busy {
                    return None;
                }
            }
        }
        let mut plan = Plan { nodes: Vec::new() };
        plan.add(schema);
        Some(plan)
    }

    pub(super) fn node(&self, n: u32) -> &Node {
        &self.nodes[n as usize]
    }

    fn add(&mut self, s: &Structural) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            props: Vec::new(),
            additional: Child::Absent,
            items: Child::Absent,
            preserve: s.extensions.x_preserve_unknown_fields,
            embedded: s.extensions.x_embedded_resource,
            nullable: s.generic.nullable,
            default: s.generic.default.as_ref().map(|d| defaulted(d, s).into_bytes().into()),
            defaulted: Vec::new(),
        });
        // BTreeMap order is byte order: `props` comes out sorted.
        let mut props = Vec::with_capacity(s.properties.len());
        let mut defaulted_props = Vec::new();
        for (i, (k, p)) in s.properties.iter().enumerate() {
            let member = p.generic.default.as_ref().map(|d| {
                let mut m = Vec::new();
                write_string(&mut m, k);
                m.push(b':');
                m.extend_from_slice(defaulted(d, p).as_bytes());
                defaulted_props.push(i as u32);
                m.into_boxed_slice()
            });
            props.push(Prop {
                key: k.as_bytes().into(),
                head: head(k.as_bytes()),
                label: {
                    let mut l = Vec::new();
                    write_string(&mut l, k);
                    l.push(b':');
                    l.into()
                },
                node: self.add(p),
                member,
            });
        }
        let additional = match &s.additional_properties {
            None => Child::Absent,
            Some(ap) => match ap.schema() {
                Some(a) => Child::Node(self.add(a)),
                None => Child::NoSchema,
            },
        };
        let items = match &s.items {
            Some(i) => Child::Node(self.add(i)),
            None => Child::Absent,
        };
        let node = &mut self.nodes[id as usize];
        node.props = props;
        node.defaulted = defaulted_props;
        node.additional = additional;
        node.items = items;
        id
    }
}

/// A default as it lands in an object: defaulting continues into it.
fn defaulted(d: &serde_json::Value, s: &Structural) -> String {
    let mut v = d.clone();
    default(&mut v, Some(s));
    marshal_json(&v)
}
