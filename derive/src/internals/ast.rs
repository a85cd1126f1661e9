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
        let k: syn::Path = attrs.crate_path.clone().unwrap_or_else(|| syn::parse_quote!(::kstruct));
        let container_docs = docs(&input.attrs);
        let mut fields = Vec::new();
        let mut variants = Vec::new();
        match &serde.data {
            serde_ast::Data::Struct(_, fs) => fields = fs.iter().map(|f| Field::from_ast(cx, f.original, &k)).collect(),
            serde_ast::Data::Enum(vs) => {
                variants = vs
                    .iter()
                    .map(|v| Variant {
                        attrs: attr::Variant::from_ast(cx, &v.original.attrs),
                        docs: docs(&v.original.attrs),
                        fields: v.fields.iter().map(|f| Field::from_ast(cx, f.original, &k)).collect(),
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
    fn from_ast(cx: &Ctxt, field: &syn::Field, k: &syn::Path) -> Field {
        let mut attrs = attr::Field::from_ast(cx, &field.attrs);
        if let Some(span) = attrs.schemars {
            if attrs.schema_as.is_some() || attrs.schema_with.is_some() {
                cx.syn_error(syn::Error::new(
                    span,
                    "use one of `schemars`, `schema_as` and `schema_with`",
                ));
            } else {
                // The field's schemars schema, through kstruct's bridge; an `Option` stays an
                // `Option` (not required, as serde reads it missing).
                let ty = &field.ty;
                let bridged: syn::Type = match option_inner(ty) {
                    Some(inner) => {
                        syn::parse_quote_spanned!(span=> ::core::option::Option<#k::__private::Schemars<#inner>>)
                    }
                    None => syn::parse_quote_spanned!(span=> #k::__private::Schemars<#ty>),
                };
                attrs.schema_as = Some(attr::Spanned { value: bridged, span });
            }
        }
        Field {
            attrs,
            docs: docs(&field.attrs),
        }
    }
}

/// `T` of a field type written `Option<T>`.
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => match a.args.first()? {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
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
