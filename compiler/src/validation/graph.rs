//! Schemas as a graph of distinct validation nodes: every sub-schema (structural or nested in
//! `allOf`/`anyOf`/`oneOf`/`not`) reduced to what validating an object looks at, as the API
//! server builds its validator for custom resources (int-or-string as the types
//! `integer,string`, formats it does not check dropped). Identical reductions are one node,
//! and each node becomes one function per walk.

use std::collections::HashMap;

use kstruct::schema::{AdditionalProperties, NestedValueValidation, Structural, ValueValidation};

/// A node's index in [`Graph::nodes`].
pub type NodeId = usize;

/// `additionalProperties`, as the validator reads it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Additional {
    None,
    Bool(bool),
    Schema(NodeId),
}

/// What validation sees of one schema node. Floats are kept as their bits (identity only).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The types checked (`[]`, one type, or `integer,string`).
    pub types: Vec<String>,
    pub nullable: bool,
    /// The format the type check sees (empty when the server ignores it).
    pub format: String,
    pub min_length: Option<i64>,
    pub max_length: Option<i64>,
    pub pattern: String,
    pub multiple_of: Option<u64>,
    pub minimum: Option<u64>,
    pub exclusive_minimum: bool,
    pub maximum: Option<u64>,
    pub exclusive_maximum: bool,
    pub items: Option<NodeId>,
    pub min_items: Option<i64>,
    pub max_items: Option<i64>,
    pub unique_items: bool,
    /// `enum` as JSON text of the list (`None` when empty).
    pub enum_: Option<String>,
    pub min_properties: Option<i64>,
    pub max_properties: Option<i64>,
    pub additional: Additional,
    /// Properties in byte order.
    pub properties: Vec<(String, NodeId)>,
    pub required: Vec<String>,
    pub all_of: Vec<NodeId>,
    pub any_of: Vec<NodeId>,
    pub one_of: Vec<NodeId>,
    pub not: Option<NodeId>,
    /// Structural nodes only: `x-kubernetes-embedded-resource`.
    pub embedded: bool,
    /// Structural nodes only: `x-kubernetes-list-type` (`set` or `map`, else `None`).
    pub list_type: Option<String>,
    pub list_map_keys: Vec<String>,
    /// A structural node (not a branch of `allOf`/`anyOf`/`oneOf`/`not`): only structural
    /// nodes and their structural children are walked for embedded resources and list types.
    pub structural: bool,
}

/// A distinct node and what its walks need.
#[derive(Debug, Clone)]
pub struct Node {
    pub shape: Shape,
    /// Where the node first occurs, for the generated code's comments.
    pub first_seen: String,
    /// How many schema nodes it stands for.
    pub uses: usize,
    /// Longest chain of nodes below it.
    pub height: usize,
    /// Some embedded resource is here or below (through structural children).
    pub needs_embedded: bool,
    /// Some set or map list is here or below (through structural children).
    pub needs_list_types: bool,
}

/// All distinct validation nodes of the schemas compiled together.
#[derive(Debug, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    index: HashMap<Shape, NodeId>,
    /// Enum lists as JSON text, by first use.
    pub constants: Vec<String>,
    constant_index: HashMap<String, usize>,
    /// Patterns, by first use.
    pub patterns: Vec<String>,
    pattern_index: HashMap<String, usize>,
}

/// One schema node, either kind.
#[derive(Clone, Copy)]
enum Src<'a> {
    Structural(&'a Structural),
    Nested(&'a NestedValueValidation),
}

impl Graph {
    /// Adds a structural schema (found at `at`) and returns its node.
    pub fn add(&mut self, s: &Structural, at: &str) -> NodeId {
        self.add_src(Src::Structural(s), at)
    }

    fn add_src(&mut self, s: Src<'_>, at: &str) -> NodeId {
        kstruct::schema::grow(|| {
            let (type_, nullable, int_or_string, v) = match s {
                Src::Structural(s) => (
                    s.generic.type_.as_str(),
                    s.generic.nullable,
                    s.extensions.x_int_or_string,
                    &s.value_validation,
                ),
                Src::Nested(n) => (
                    n.forbidden_generics.type_.as_str(),
                    n.forbidden_generics.nullable,
                    n.forbidden_extensions.x_int_or_string,
                    &n.value_validation,
                ),
            };
            let types = if int_or_string {
                vec!["integer".to_string(), "string".to_string()]
            } else if type_.is_empty() {
                vec![]
            } else {
                vec![type_.to_string()]
            };
            let items = match s {
                Src::Structural(s) => s
                    .items
                    .as_deref()
                    .map(|i| self.add_src(Src::Structural(i), &format!("{at}[*]"))),
                Src::Nested(n) => n
                    .items
                    .as_deref()
                    .map(|i| self.add_src(Src::Nested(i), &format!("{at}[*]"))),
            };
            let child = |k: &str| {
                if at.is_empty() {
                    k.to_string()
                } else {
                    format!("{at}.{k}")
                }
            };
            let properties: Vec<(String, NodeId)> = match s {
                Src::Structural(s) => s
                    .properties
                    .iter()
                    .map(|(k, p)| (k.clone(), self.add_src(Src::Structural(p), &child(k))))
                    .collect(),
                Src::Nested(n) => n
                    .properties
                    .iter()
                    .flatten()
                    .map(|(k, p)| (k.clone(), self.add_src(Src::Nested(p), &child(k))))
                    .collect(),
            };
            let additional = match s {
                Src::Structural(s) => match &s.additional_properties {
                    None => Additional::None,
                    Some(AdditionalProperties::Bool(b)) => Additional::Bool(*b),
                    Some(AdditionalProperties::Schema(ap)) => {
                        Additional::Schema(self.add_src(Src::Structural(ap), &format!("{at}[*]")))
                    }
                },
                Src::Nested(n) => match &n.additional_properties {
                    None => Additional::None,
                    Some(ap) => Additional::Schema(self.add_src(Src::Nested(ap), &format!("{at}[*]"))),
                },
            };
            let (all_of, any_of, one_of, not) = self.composites(v, at);
            let format = kstruct::compiled::v1::resource_format(type_, &v.format).to_string();
            let (embedded, list_type, list_map_keys, structural) = match s {
                Src::Structural(s) => (
                    s.extensions.x_embedded_resource,
                    s.extensions.x_list_type.clone().filter(|t| t == "set" || t == "map"),
                    s.extensions.x_list_map_keys.clone().unwrap_or_default(),
                    true,
                ),
                Src::Nested(_) => (false, None, Vec::new(), false),
            };
            if !v.pattern.is_empty() {
                self.pattern(&v.pattern);
            }
            let enum_ = (!v.enum_.is_empty()).then(|| self.constant(&serde_json::Value::Array(v.enum_.clone())));
            let shape = Shape {
                types,
                nullable,
                format,
                min_length: v.min_length,
                max_length: v.max_length,
                pattern: v.pattern.clone(),
                multiple_of: v.multiple_of.map(f64::to_bits),
                minimum: v.minimum.map(f64::to_bits),
                exclusive_minimum: v.exclusive_minimum,
                maximum: v.maximum.map(f64::to_bits),
                exclusive_maximum: v.exclusive_maximum,
                items,
                min_items: v.min_items,
                max_items: v.max_items,
                unique_items: v.unique_items,
                enum_,
                min_properties: v.min_properties,
                max_properties: v.max_properties,
                additional,
                properties,
                required: v.required.clone().unwrap_or_default(),
                all_of,
                any_of,
                one_of,
                not,
                embedded,
                list_type,
                list_map_keys,
                structural,
            };
            self.intern(shape, at)
        })
    }

    fn composites(&mut self, v: &ValueValidation, at: &str) -> (Vec<NodeId>, Vec<NodeId>, Vec<NodeId>, Option<NodeId>) {
        let mut branches = |list: &[NestedValueValidation], what: &str| -> Vec<NodeId> {
            list.iter()
                .enumerate()
                .map(|(i, b)| self.add_src(Src::Nested(b), &format!("{at}({what}[{i}])")))
                .collect()
        };
        let all_of = branches(&v.all_of, "allOf");
        let any_of = branches(&v.any_of, "anyOf");
        let one_of = branches(&v.one_of, "oneOf");
        let not = v
            .not
            .as_deref()
            .map(|n| self.add_src(Src::Nested(n), &format!("{at}(not)")));
        (all_of, any_of, one_of, not)
    }

    /// The index of a pattern (each distinct pattern is compiled once).
    pub fn pattern(&mut self, p: &str) -> usize {
        if let Some(&id) = self.pattern_index.get(p) {
            return id;
        }
        self.patterns.push(p.to_string());
        self.pattern_index.insert(p.to_string(), self.patterns.len() - 1);
        self.patterns.len() - 1
    }

    /// The index of a pattern added before.
    pub fn pattern_index(&self, p: &str) -> usize {
        self.pattern_index[p]
    }

    /// The index of an enum list's JSON text.
    pub fn constant_id(&self, text: &str) -> usize {
        self.constant_index[text]
    }

    fn constant(&mut self, v: &serde_json::Value) -> String {
        let text = serde_json::to_string(v).unwrap_or_default();
        if !self.constant_index.contains_key(&text) {
            self.constants.push(text.clone());
            self.constant_index.insert(text.clone(), self.constants.len() - 1);
        }
        text
    }

    fn intern(&mut self, shape: Shape, at: &str) -> NodeId {
        if let Some(&id) = self.index.get(&shape) {
            self.nodes[id].uses += 1;
            return id;
        }
        let n = &self.nodes;
        let ap = match shape.additional {
            Additional::Schema(c) => Some(c),
            _ => None,
        };
        let children = shape
            .properties
            .iter()
            .map(|(_, c)| *c)
            .chain(ap)
            .chain(shape.items)
            .chain(shape.all_of.iter().copied())
            .chain(shape.any_of.iter().copied())
            .chain(shape.one_of.iter().copied())
            .chain(shape.not);
        let height = children.map(|c| n[c].height + 1).max().unwrap_or(0);
        // The embedded and list-type walks follow structural children only.
        let structural_children = || shape.properties.iter().map(|(_, c)| *c).chain(ap).chain(shape.items);
        let needs_embedded = shape.structural && (shape.embedded || structural_children().any(|c| n[c].needs_embedded));
        let needs_list_types =
            shape.structural && (shape.list_type.is_some() || structural_children().any(|c| n[c].needs_list_types));
        self.nodes.push(Node {
            shape: shape.clone(),
            first_seen: if at.is_empty() { "<root>".into() } else { at.to_string() },
            uses: 1,
            height,
            needs_embedded,
            needs_list_types,
        });
        let id = self.nodes.len() - 1;
        self.index.insert(shape, id);
        id
    }
}
