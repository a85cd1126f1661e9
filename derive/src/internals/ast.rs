//! The input as the derive sees it: serde's reading of the type (names after renaming, tag
//! style, defaults, skips, flattening: from `serde_derive_internals`, serde's own parser) and,
//! beside each item, its `#[kstruct(...)]` attributes and doc comments.

use serde_derive_internals::Ctxt;
use serde_derive_internals::ast as serde_ast;

use super::attr;

/// The doc comment of an item: the value of each `#[doc = ...]`, in order (string literals,
/// or expressions such as `include_str!(...)`, evaluated in the generated code).
pub type Docs = Vec<syn::Expr>;

pub struct Container<'a> {
    pub serde: serde_ast::Container<'a>,
    pub attrs: attr::Container,
    pub docs: Docs,
    /// For a struct: its fields' attributes, in serde's field order.
    pub fields: Vec<Field>,
    /// For an enum: its variants' attributes, in serde's variant order.
    pub variants: Vec<Variant>,
}

pub struct Field {
    pub attrs: attr::Field,
    pub docs: Docs,
}

pub struct Variant {
    pub attrs: attr::Variant,
    pub docs: Docs,
    pub fields: Vec<Field>,
}

impl<'a> Container<'a> {
    /// Reads `input`; `None` when serde cannot (a union), the errors being in `cx`.
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Container<'a>> {
        let private = syn::Ident::new("__private", proc_macro2::Span::call_site());
        let serde = serde_ast::Container::from_ast(cx, input, serde_derive_internals::Derive::Serialize, &private)?;
        let attrs = attr::Container::from_ast(cx, &input.attrs);
        let container_docs = docs(&input.attrs);
        let mut fields = Vec::new();
        let mut variants = Vec::new();
        match &serde.data {
            serde_ast::Data::Struct(_, fs) => fields = fs.iter().map(|f| Field::from_ast(cx, f.original)).collect(),
            serde_ast::Data::Enum(vs) => {
                variants = vs
                    .iter()
                    .map(|v| Variant {
                        attrs: attr::Variant::from_ast(cx, &v.original.attrs),
                        docs: docs(&v.original.attrs),
                        fields: v.fields.iter().map(|f| Field::from_ast(cx, f.original)).collect(),
                    })
                    .collect()
            }
        }
        Some(Container {
            serde,
            attrs,
            docs: container_docs,
            fields,
            variants,
        })
    }
}

impl Field {
    fn from_ast(cx: &Ctxt, field: &syn::Field) -> Field {
        Field {
            attrs: attr::Field::from_ast(cx, &field.attrs),
            docs: docs(&field.attrs),
        }
    }
}

fn docs(attrs: &[syn::Attribute]) -> Docs {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => Some(nv.value.clone()),
            _ => None,
        })
        .collect()
}
