//! What the byte walker needs to know of a schema, flattened: one [`Node`] per schema node,
//! with its properties sorted by key bytes and every default already defaulted and printed.

use std::borrow::Cow;

use kstruct_schema::Structural;
use kstruct_schema::go::{marshal_json, write_string};

use crate::structural::default;
use crate::text::head;

/// A schema prepared for decoding from bytes (see [`crate::scan`]): everything pruning,
/// dropping nulls and defaulting decide, in a form read without interpreting the schema
/// tree. Built once per schema version ([`Plan::new`]), shared by every decode; compiled
/// code holds it as static data ([`Plan::from_static`]).
#[derive(Debug, Clone)]
pub struct Plan {
    pub(super) nodes: Cow<'static, [Node]>,
    pub(super) root: u32,
    /// Whether every default, printed, reads back as the value it is (see
    /// [`Plan::value_exact`]).
    pub(super) value_exact: bool,
}

/// Where a value goes by its key or position.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Child {
    /// No schema says anything: an unknown field (or, for items, elements without a schema).
    Absent,
    /// `additionalProperties: true|false`: the value is pruned without a schema.
    NoSchema,
    /// A schema node.
    Node(u32),
}

/// Whether a node is an embedded resource (`x-kubernetes-embedded-resource`), and whether the
/// walk handles it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Embedded {
    /// Not an embedded resource.
    No,
    /// An embedded resource: `apiVersion` and `kind` must be strings, `metadata` goes
    /// through ObjectMeta.
    Yes,
    /// An embedded resource whose `apiVersion`, `kind` or `metadata` schema has defaults or
    /// embedded resources of its own: left to the `Value` path.
    Busy,
}

/// One schema node of a [`Plan`].
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct Node {
    /// Sorted by key bytes.
    pub(super) props: Cow<'static, [Prop]>,
    pub(super) additional: Child,
    pub(super) items: Child,
    pub(super) preserve: bool,
    pub(super) embedded: Embedded,
    pub(super) nullable: bool,
    /// The node's own default, defaulted and printed: what a `null` becomes where the node is
    /// not nullable.
    pub(super) default: Option<Cow<'static, [u8]>>,
    /// Indices into `props` of the properties with a default, for absent keys.
    pub(super) defaulted: Cow<'static, [u32]>,
    /// Where [`find`](Node::find) looks a key up: an open-addressing table of `props`
    /// indices by [`slot`] (`EMPTY` where none is); all `EMPTY` when `props` has more than
    /// [`MAX_SLOTTED`] properties, which are found by binary search.
    pub(super) slots: [u8; SLOTS],
}

/// The size of a node's table of properties ([`Node::slots`]).
const SLOTS: usize = 64;
/// The most properties a table holds: at most half full, a key is found in a probe or two.
const MAX_SLOTTED: usize = SLOTS / 2;
/// An empty slot.
const EMPTY: u8 = u8::MAX;

/// Where a key whose [`head`] is `head` is first looked for in a node's table.
#[inline(always)]
const fn slot(head: u64) -> usize {
    (head.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize
}

/// The table of `props` (see [`Node::slots`]).
const fn slots(props: &[Prop]) -> [u8; SLOTS] {
    let mut slots = [EMPTY; SLOTS];
    if props.len() > MAX_SLOTTED {
        return slots;
    }
    let mut i = 0;
    while i < props.len() {
        let mut s = slot(props[i].head);
        while slots[s] != EMPTY {
            s = (s + 1) % SLOTS;
        }
        slots[s] = i as u8;
        i += 1;
    }
    slots
}

/// A property of a [`Node`].
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct Prop {
    pub(super) key: Cow<'static, [u8]>,
    /// [`head`] of the key.
    pub(super) head: u64,
    /// `"key":`, escaped as Go escapes it.
    pub(super) label: Cow<'static, [u8]>,
    pub(super) node: u32,
    /// `"key":default`, as written when the key is absent.
    pub(super) member: Option<Cow<'static, [u8]>>,
}

impl Node {
    /// A node held as static data by generated code.
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        props: &'static [Prop],
        additional: Child,
        items: Child,
        preserve: bool,
        embedded: Embedded,
        nullable: bool,
        default: Option<&'static [u8]>,
        defaulted: &'static [u32],
    ) -> Node {
        Node {
            slots: slots(props),
            props: Cow::Borrowed(props),
            additional,
            items,
            preserve,
            embedded,
            nullable,
            default: match default {
                Some(d) => Some(Cow::Borrowed(d)),
                None => None,
            },
            defaulted: Cow::Borrowed(defaulted),
        }
    }

    /// The index of property `key`, whose [`head`] is `h`.
    #[inline]
    pub fn find(&self, key: &[u8], h: u64) -> Option<usize> {
        if self.props.len() <= MAX_SLOTTED {
            let mut s = slot(h);
            loop {
                let i = *self.slots.get(s)? as usize;
                let p = self.props.get(i)?;
                // Keys of up to eight bytes are told apart by their heads and lengths alone.
                if p.head == h && p.key.len() == key.len() && (key.len() <= 8 || p.key[8..] == key[8..]) {
                    return Some(i);
                }
                s = (s + 1) % SLOTS;
            }
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
        if meta_busy(schema) {
            return None;
        }
        let mut nodes = Vec::new();
        let mut value_exact = true;
        add(&mut nodes, schema, &mut value_exact);
        Some(Plan {
            nodes: Cow::Owned(nodes),
            root: 0,
            value_exact,
        })
    }

    /// A plan held as static data by generated code: `nodes`, and the index of the root.
    #[doc(hidden)]
    pub const fn from_static(nodes: &'static [Node], root: u32) -> Plan {
        Plan {
            nodes: Cow::Borrowed(nodes),
            root,
            value_exact: true,
        }
    }

    /// [`Plan::from_static`] for a plan that is not [`value_exact`](Plan::value_exact).
    #[doc(hidden)]
    pub const fn from_static_bytes_only(nodes: &'static [Node], root: u32) -> Plan {
        Plan {
            nodes: Cow::Borrowed(nodes),
            root,
            value_exact: false,
        }
    }

    /// Whether the walk to a `Value` may use this plan: false when a default holds a `float64`
    /// that Go prints as an integer (`1.0` prints `1`), which the walk's output would read back
    /// as an `int64` where the `Value` path inserts the float. Such schemas decode to a `Value`
    /// by the `Value` path; their bytes are walked all the same.
    pub fn value_exact(&self) -> bool {
        self.value_exact
    }

    #[inline]
    pub(super) fn node(&self, n: u32) -> &Node {
        &self.nodes[n as usize]
    }
}

/// Adds the nodes of `s` (children after their parent) to `nodes`; the index of its own.
/// `exact` is cleared by a default that does not read back as itself.
fn add(nodes: &mut Vec<Node>, s: &Structural, exact: &mut bool) -> u32 {
    let id = nodes.len() as u32;
    nodes.push(Node {
        props: Cow::Borrowed(&[]),
        additional: Child::Absent,
        items: Child::Absent,
        preserve: s.extensions.x_preserve_unknown_fields,
        embedded: match s.extensions.x_embedded_resource {
            false => Embedded::No,
            true if meta_busy(s) => Embedded::Busy,
            true => Embedded::Yes,
        },
        nullable: s.generic.nullable,
        default: s
            .generic
            .default
            .as_ref()
            .map(|d| Cow::Owned(defaulted(d, s, exact).into_bytes())),
        defaulted: Cow::Borrowed(&[]),
        slots: [EMPTY; SLOTS],
    });
    // BTreeMap order is byte order: `props` comes out sorted.
    let mut props = Vec::with_capacity(s.properties.len());
    let mut defaulted_props = Vec::new();
    for (i, (k, p)) in s.properties.iter().enumerate() {
        let mut label = Vec::new();
        write_string(&mut label, k);
        label.push(b':');
        let member = p.generic.default.as_ref().map(|d| {
            defaulted_props.push(i as u32);
            let mut m = label.clone();
            m.extend_from_slice(defaulted(d, p, exact).as_bytes());
            Cow::Owned(m)
        });
        props.push(Prop {
            key: Cow::Owned(k.as_bytes().to_vec()),
            head: head(k.as_bytes()),
            label: Cow::Owned(label),
            node: add(nodes, p, exact),
            member,
        });
    }
    let additional = match &s.additional_properties {
        None => Child::Absent,
        Some(ap) => match ap.schema() {
            Some(a) => Child::Node(add(nodes, a, exact)),
            None => Child::NoSchema,
        },
    };
    let items = match &s.items {
        Some(i) => Child::Node(add(nodes, i, exact)),
        None => Child::Absent,
    };
    let node = &mut nodes[id as usize];
    node.slots = slots(&props);
    node.props = Cow::Owned(props);
    node.defaulted = Cow::Owned(defaulted_props);
    node.additional = additional;
    node.items = items;
    id
}

impl Prop {
    /// A property held as static data by generated code: its key, its label (`"key":` as Go
    /// escapes it), its node, and its default member (`"key":default`) if it has one.
    pub const fn new(key: &'static [u8], label: &'static [u8], node: u32, member: Option<&'static [u8]>) -> Prop {
        Prop {
            key: Cow::Borrowed(key),
            head: head(key),
            label: Cow::Borrowed(label),
            node,
            member: match member {
                Some(m) => Some(Cow::Borrowed(m)),
                None => None,
            },
        }
    }
}

/// Whether the schemas of `s`'s `apiVersion`, `kind` or `metadata` have defaults or embedded
/// resources: the walk writes these three from the body (and ObjectMeta), while the `Value`
/// path also defaults and coerces them by their schema.
fn meta_busy(s: &Structural) -> bool {
    let mut busy = false;
    for field in ["apiVersion", "kind", "metadata"] {
        if let Some(p) = s.properties.get(field) {
            p.walk(&mut |n| busy |= n.generic.default.is_some() || n.extensions.x_embedded_resource);
        }
    }
    busy
}

/// A default as it lands in an object (defaulting continues into it), printed; `exact` is
/// cleared if it does not read back as itself.
fn defaulted(d: &serde_json::Value, s: &Structural, exact: &mut bool) -> String {
    let mut v = d.clone();
    default(&mut v, Some(s));
    *exact &= super::value::reads_back(&v);
    marshal_json(&v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan of an object with `keys` as properties.
    fn node_of(keys: &[String]) -> Node {
        let properties: serde_json::Map<String, serde_json::Value> = keys
            .iter()
            .map(|k| (k.clone(), serde_json::json!({"type": "string"})))
            .collect();
        let schema = kstruct_schema::convert::from_value(&serde_json::json!({
            "type": "object",
            "properties": {"spec": {"type": "object", "properties": properties}},
        }))
        .unwrap()
        .unwrap();
        let plan = Plan::new(Some(&schema)).unwrap();
        let root = plan.node(plan.root);
        plan.node(root.props[root.find(b"spec", head(b"spec")).unwrap()].node)
            .clone()
    }

    /// Every property is found at its index, by the table and by binary search alike; keys
    /// that are not properties (prefixes, extensions, keys alike in their first eight bytes)
    /// are not.
    #[test]
    fn finds_properties_by_table_and_by_search() {
        for n in [1, 7, MAX_SLOTTED, MAX_SLOTTED + 1, 200] {
            let mut keys: Vec<String> = (0..n)
                .map(|i| match i % 3 {
                    0 => format!("k{i}"),
                    1 => format!("containerSetting{i}"),
                    _ => format!("containe{i}"),
                })
                .collect();
            keys.sort();
            let node = node_of(&keys);
            assert_eq!(node.props.len(), n);
            for (i, k) in keys.iter().enumerate() {
                assert_eq!(node.find(k.as_bytes(), head(k.as_bytes())), Some(i), "{k} of {n}");
            }
            for k in [
                "",
                "k",
                "containe",
                "containerSetting",
                "k0x",
                "containerSetting1x",
                "zzzz",
            ] {
                if !keys.iter().any(|x| x == k) {
                    assert_eq!(node.find(k.as_bytes(), head(k.as_bytes())), None, "{k} of {n}");
                }
            }
            let slotted = node.slots.iter().filter(|&&s| s != EMPTY).count();
            assert_eq!(slotted, if n <= MAX_SLOTTED { n } else { 0 });
        }
    }
}
