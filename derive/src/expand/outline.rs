//! The `OUTLINE` constant: what the compiler knows of the schema (its type, an object's
//! properties), from the fields' types' outlines and the attributes that change them. The
//! compile-time checks of names (list-map keys, `*_one_of` members, the resource's paths)
//! read it.

use proc_macro2::TokenStream;
use quote::quote;

use crate::internals::attr;

/// Where a node's attributes sit: `preserve_unknown_fields` on a field may stand for a
/// recursion point, whose type's outline must not be read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A type's own attributes.
    Container,
    /// A field's (or a variant's, or `items(...)`).
    Value,
}

/// The outline of a node whose type's outline is `base`, with `node`'s attributes applied
/// (those that change the type first, as the schema builder applies them).
pub fn node_outline(p: &TokenStream, base: TokenStream, node: &attr::Node, place: Place) -> TokenStream {
    node_outline_with(p, base, node, place, false)
}

/// [`node_outline`] of a field that may be `immutable` (a rule `self == oldSelf`).
pub fn node_outline_with(
    p: &TokenStream,
    base: TokenStream,
    node: &attr::Node,
    place: Place,
    immutable: bool,
) -> TokenStream {
    let mut o = if let Some(t) = &node.type_ {
        let shape = shape_of_type(p, &t.value);
        quote!(#p::Outline::of_type(#shape))
    } else if node.preserve_unknown_fields.is_some() && place == Place::Value {
        quote!(#p::Outline::UNKNOWN)
    } else {
        base
    };
    if node.default.is_some() && place == Place::Container {
        o = quote!(#o.with_default());
    }
    if node.int_or_string.is_some() {
        o = quote!(#o.int_or_string());
    }
    if node.preserve_unknown_fields.is_some() {
        o = quote!(#o.preserving_unknown_fields());
    }
    if node.embedded_resource.is_some() {
        o = quote!(#o.embedded_resource());
    }
    if let Some(items) = &node.items
        && changes_outline(&items.value)
    {
        let items = node_outline(p, quote!(#o.items_or_unknown()), &items.value, Place::Value);
        o = quote!(#o.with_items(&#items));
    }
    if node.nullable.is_some() {
        o = quote!(#o.nullable());
    }
    // What decides where the API server can pair a value with its old value.
    if node.list_map_keys.is_some() {
        o = quote!(#o.as_list_map());
    }
    if node.map_type.as_ref().is_some_and(|m| m.value == "atomic") {
        o = quote!(#o.as_atomic());
    }
    if immutable
        || node
            .validations
            .iter()
            .any(|r| kstruct_cel::uses_old_self(&r.rule.value()))
    {
        o = quote!(#o.with_old_self());
    }
    o
}

/// True when `node` has an attribute that changes the outline.
fn changes_outline(node: &attr::Node) -> bool {
    node.type_.is_some()
        || node.int_or_string.is_some()
        || node.preserve_unknown_fields.is_some()
        || node.embedded_resource.is_some()
        || node.nullable.is_some()
        || node.list_map_keys.is_some()
        || node.map_type.is_some()
        || node
            .validations
            .iter()
            .any(|r| kstruct_cel::uses_old_self(&r.rule.value()))
        || node.items.as_ref().is_some_and(|i| changes_outline(&i.value))
}

/// The `Shape` of `type = "..."` (`p`: a path where `Shape` is).
pub fn shape_of_type(p: &TokenStream, t: &str) -> TokenStream {
    let variant = match t {
        "object" => quote!(Object),
        "array" => quote!(Array),
        "string" => quote!(String),
        "integer" => quote!(Integer),
        "number" => quote!(Number),
        "boolean" => quote!(Boolean),
        _ => quote!(Unknown),
    };
    quote!(#p::Shape::#variant)
}

/// One entry of an object's outline, from a field.
pub enum Part {
    /// Nothing (a skipped field).
    None,
    /// A property: `#p::Property { ... }`.
    Property(TokenStream),
    /// A flattened field: `#p::Flattened { ... }`, given how many properties come before it.
    Flattened(Box<dyn FnOnce(usize) -> TokenStream>),
}

/// `Outline::object(&[properties], &[flattened])` of `parts`, in the fields' order.
pub fn object(p: &TokenStream, parts: Vec<Part>) -> TokenStream {
    let mut properties = Vec::new();
    let mut flattened = Vec::new();
    for part in parts {
        match part {
            Part::None => {}
            Part::Property(t) => properties.push(t),
            Part::Flattened(f) => flattened.push(f(properties.len())),
        }
    }
    quote!(#p::Outline::object(&[#(#properties),*], &[#(#flattened),*]))
}
