//! One schema node as kube-openapi sees it (`Structural.ToKubeOpenAPI()`): the main structure
//! and the value validations nested in `allOf`/`anyOf`/`oneOf`/`not` look alike there.

use kstruct_schema::{AdditionalProperties, NestedValueValidation, Structural, ValueValidation};

/// A structural node or a nested value validation.
#[derive(Clone, Copy)]
pub(crate) enum Node<'a> {
    Structural(&'a Structural),
    Nested(&'a NestedValueValidation),
}

/// `additionalProperties` as kube-openapi reads it.
pub(crate) enum Additional<'a> {
    None,
    Bool(bool),
    Schema(Node<'a>),
}

impl<'a> Node<'a> {
    pub fn type_(self) -> &'a str {
        match self {
            Node::Structural(s) => &s.generic.type_,
            Node::Nested(n) => &n.forbidden_generics.type_,
        }
    }

    pub fn nullable(self) -> bool {
        match self {
            Node::Structural(s) => s.generic.nullable,
            Node::Nested(n) => n.forbidden_generics.nullable,
        }
    }

    pub fn int_or_string(self) -> bool {
        match self {
            Node::Structural(s) => s.extensions.x_int_or_string,
            Node::Nested(n) => n.forbidden_extensions.x_int_or_string,
        }
    }

    pub fn values(self) -> &'a ValueValidation {
        match self {
            Node::Structural(s) => &s.value_validation,
            Node::Nested(n) => &n.value_validation,
        }
    }

    pub fn items(self) -> Option<Node<'a>> {
        match self {
            Node::Structural(s) => s.items.as_deref().map(Node::Structural),
            Node::Nested(n) => n.items.as_deref().map(Node::Nested),
        }
    }

    /// The declared properties, in key order.
    pub fn properties(self) -> impl Iterator<Item = (&'a str, Node<'a>)> {
        let (structural, nested) = match self {
            Node::Structural(s) => (Some(&s.properties), None),
            Node::Nested(n) => (None, n.properties.as_ref()),
        };
        let structural = structural
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.as_str(), Node::Structural(v)));
        let nested = nested.into_iter().flatten().map(|(k, v)| (k.as_str(), Node::Nested(v)));
        structural.chain(nested)
    }

    pub fn has_property(self, key: &str) -> bool {
        match self {
            Node::Structural(s) => s.properties.contains_key(key),
            Node::Nested(n) => n.properties.as_ref().is_some_and(|p| p.contains_key(key)),
        }
    }

    pub fn additional(self) -> Additional<'a> {
        match self {
            Node::Structural(s) => match &s.additional_properties {
                None => Additional::None,
                Some(AdditionalProperties::Bool(b)) => Additional::Bool(*b),
                Some(AdditionalProperties::Schema(s)) => Additional::Schema(Node::Structural(s)),
            },
            Node::Nested(n) => match &n.additional_properties {
                None => Additional::None,
                Some(s) => Additional::Schema(Node::Nested(s)),
            },
        }
    }
}
