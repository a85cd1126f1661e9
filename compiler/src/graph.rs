//! Schemas as a graph of distinct nodes: every sub-schema is reduced to what pruning, null
//! dropping, defaulting and coercion look at, and identical reductions are one node. Real
//! CRDs repeat large sub-trees (PodSpec, LabelSelector, SecretKeySelector...), so the graph is
//! much smaller than the schemas, and each node becomes one set of functions.

use std::collections::HashMap;

use kstruct::schema::{AdditionalProperties, Structural};

/// A node's index in [`Graph::nodes`].
pub type NodeId = usize;
/// A default's index in [`Graph::constants`].
pub type ConstId = usize;

/// `additionalProperties`, reduced.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Additional {
    /// Not set: unknown keys are removed.
    None,
    /// `true` or `false`: values under unknown keys have no schema.
    Bool,
    /// A schema for values under unknown keys.
    Schema(NodeId),
}

/// What the algorithms see of a schema node. Types, descriptions and value validations do not
/// change any result, so they are not part of a node's identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Properties in byte order.
    pub properties: Vec<(String, NodeId)>,
    pub items: Option<NodeId>,
    pub additional: Additional,
    pub default: Option<ConstId>,
    pub nullable: bool,
    pub preserve: bool,
    pub embedded: bool,
}

/// A distinct node and what its walks need.
#[derive(Debug, Clone)]
pub struct Node {
    pub shape: Shape,
    /// Where the node first occurs, for the generated code's comments.
    pub first_seen: String,
    /// How many schema nodes it stands for.
    pub uses: usize,
    /// Longest chain of nodes below it (0 for a node without children).
    pub height: usize,
    /// Pruning does nothing with a schema here that it would not do without properties,
    /// items or additionalProperties: no function of its own.
    pub leaf: bool,
    /// Some field below may be a null to drop: a walk dropping nulls alone has work here.
    pub needs_nulls: bool,
    /// Some field below has a default: a walk defaulting alone has work here.
    pub needs_default: bool,
    /// Some node here or below is an embedded resource.
    pub needs_coerce: bool,
}

impl Node {
    /// A null under this schema (as an object field) is dropped.
    pub fn drops_null(&self) -> bool {
        !self.shape.nullable && self.shape.default.is_none()
    }
}

/// All distinct nodes of the schemas compiled together, and their defaults.
#[derive(Debug, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    index: HashMap<Shape, NodeId>,
    /// Defaults as JSON text (serde_json's, which round-trips every number exactly), each
    /// already defaulted by its own schema.
    pub constants: Vec<String>,
    constant_index: HashMap<String, ConstId>,
    /// Schema nodes added, in total.
    pub schema_nodes: usize,
}

impl Graph {
    /// Adds `s` (found at `at`, for comments) and returns its node.
    pub fn add(&mut self, s: &Structural, at: &str) -> NodeId {
        kstruct::schema::grow(|| {
            self.schema_nodes += 1;
            let items = s.items.as_deref().map(|i| self.add(i, &format!("{at}[*]")));
            let properties = s
                .properties
                .iter()
                .map(|(k, p)| {
                    let child = if at.is_empty() { k.clone() } else { format!("{at}.{k}") };
                    (k.clone(), self.add(p, &child))
                })
                .collect();
            let additional = match &s.additional_properties {
                None => Additional::None,
                Some(AdditionalProperties::Bool(_)) => Additional::Bool,
                Some(AdditionalProperties::Schema(ap)) => Additional::Schema(self.add(ap, &format!("{at}[*]"))),
            };
            // Once filled in, a default is walked by defaulting alone, always the same way:
            // the constant holds the result of that walk.
            let default = s.generic.default.as_ref().map(|d| {
                let mut d = d.clone();
                kstruct::interpreter::default(&mut d, Some(s));
                self.constant(&d)
            });
            let shape = Shape {
                properties,
                items,
                additional,
                default,
                nullable: s.generic.nullable,
                preserve: s.extensions.x_preserve_unknown_fields,
                embedded: s.extensions.x_embedded_resource,
            };
            self.intern(shape, at)
        })
    }

    fn constant(&mut self, v: &serde_json::Value) -> ConstId {
        let text = serde_json::to_string(v).unwrap_or_default();
        if let Some(&id) = self.constant_index.get(&text) {
            return id;
        }
        self.constants.push(text.clone());
        self.constant_index.insert(text, self.constants.len() - 1);
        self.constants.len() - 1
    }

    fn intern(&mut self, shape: Shape, at: &str) -> NodeId {
        if let Some(&id) = self.index.get(&shape) {
            self.nodes[id].uses += 1;
            return id;
        }
        let children = || {
            let props = shape.properties.iter().map(|(_, c)| *c);
            let ap = match shape.additional {
                Additional::Schema(c) => Some(c),
                _ => None,
            };
            props.chain(ap).chain(shape.items)
        };
        // Object fields: properties and additionalProperties values.
        let fields = || {
            let props = shape.properties.iter().map(|(_, c)| *c);
            let ap = match shape.additional {
                Additional::Schema(c) => Some(c),
                _ => None,
            };
            props.chain(ap)
        };
        let n = &self.nodes;
        let height = children().map(|c| n[c].height + 1).max().unwrap_or(0);
        let needs_nulls =
            fields().any(|c| n[c].drops_null() || n[c].needs_nulls) || shape.items.is_some_and(|i| n[i].needs_nulls);
        let needs_default = children().any(|c| n[c].shape.default.is_some() || n[c].needs_default);
        let needs_coerce = shape.embedded || children().any(|c| n[c].needs_coerce);
        let leaf = shape.properties.is_empty()
            && shape.items.is_none()
            && shape.additional == Additional::None
            && !shape.preserve
            && !shape.embedded;
        self.nodes.push(Node {
            shape: shape.clone(),
            first_seen: if at.is_empty() { "<root>".into() } else { at.to_string() },
            uses: 1,
            height,
            leaf,
            needs_nulls,
            needs_default,
            needs_coerce,
        });
        let id = self.nodes.len() - 1;
        self.index.insert(shape, id);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(v: serde_json::Value) -> Structural {
        kstruct::schema::convert::from_value(&v).unwrap().unwrap()
    }

    #[test]
    fn identical_sub_schemas_are_one_node_whatever_their_descriptions() {
        let s = schema(serde_json::json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "description": "one", "properties": {"x": {"type": "string"}}},
                "b": {"type": "object", "description": "two", "properties": {"x": {"type": "integer", "minimum": 1}}},
                "c": {"type": "object", "properties": {"x": {"type": "string", "default": "d"}}},
            },
        }));
        let mut g = Graph::default();
        let root = g.add(&s, "");
        let props = &g.nodes[root].shape.properties;
        assert_eq!(props[0].1, props[1].1, "a and b prune, default and coerce alike");
        assert_ne!(props[0].1, props[2].1, "c has a default below");
        assert_eq!(g.schema_nodes, 7);
        // root, {x}, x, {x with default}, x with default
        assert_eq!(g.nodes.len(), 5);
        assert!(g.nodes[root].needs_default && g.nodes[root].needs_nulls && !g.nodes[root].needs_coerce);
        assert_eq!(g.nodes[root].height, 2);
    }
}
