//! Enums, in each of serde's representations.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use serde_derive_internals::ast::{Style, Variant as SerdeVariant};
use serde_derive_internals::attr::TagType;

use super::fields::{Expansion, FieldPlace};
use super::node::Extra;
use super::{Gen, outline};
use crate::internals::ast;

impl Gen<'_> {
    pub(crate) fn expand_enum(&mut self, variants: &[SerdeVariant<'_>]) -> Expansion {
        let k = self.k.clone();
        let p = self.p.clone();
        let tag = self.cont.serde.attrs.tag();
        let live: Vec<(&SerdeVariant<'_>, &ast::Variant)> = variants
            .iter()
            .zip(&self.cont.variants)
            .filter(|(v, _)| !v.attrs.skip_serializing())
            .collect();
        let is_untagged = |v: &SerdeVariant<'_>| matches!(tag, TagType::None) || v.attrs.untagged();
        let tagged: Vec<_> = live.iter().filter(|(v, _)| !is_untagged(v)).copied().collect();
        let untagged: Vec<_> = live.iter().filter(|(v, _)| is_untagged(v)).copied().collect();

        let mut statements = TokenStream::new();
        let mut shape: Option<TokenStream> = None;
        if !tagged.is_empty() {
            let (s, schema, outline) = match tag {
                TagType::Internal { tag } => {
                    let (s, schema) = self.internal(tag, &tagged);
                    let outline = quote!(#p::Outline::shape_only(#s));
                    (s, schema, outline)
                }
                TagType::Adjacent { tag, content } => {
                    let (s, schema) = self.adjacent(tag, content, &tagged);
                    let outline = quote!(#p::Outline::shape_only(#s));
                    (s, schema, outline)
                }
                _ => self.external(&tagged),
            };
            if untagged.is_empty() {
                return Expansion {
                    shape: s,
                    optional: None,
                    body: schema,
                    present: None,
                    outline,
                };
            }
            shape = Some(s);
            statements.extend(quote!(let tagged = { #schema };));
        }

        let mut branches = Vec::new();
        if !tagged.is_empty() {
            branches.push(quote!(::core::option::Option::Some(tagged)));
        }
        for (v, x) in &untagged {
            let name = v.attrs.name().serialize_name().value.clone();
            if matches!(v.style, Style::Unit) {
                branches.push(quote!(::core::option::Option::None));
                continue;
            }
            let (variant_shape, content, _) = self.value_of(v, x);
            shape = Some(match shape {
                None => variant_shape,
                Some(s) => quote!(#s.union(#variant_shape)),
            });
            branches.push(quote!(::core::option::Option::Some(generator.at(#name, |generator| { #content }))));
        }
        let body = quote! {
            #statements
            let branches = [#(#branches),*];
            #p::untagged(generator, branches)
        };
        let shape = shape.unwrap_or_else(|| quote!(#k::Shape::Unknown));
        // Unions merge their variants' schemas: only the shape is known.
        Expansion {
            outline: quote!(#p::Outline::shape_only(#shape)),
            shape,
            optional: None,
            body,
            present: None,
        }
    }

    /// The builder calls for the variants: `e.unit(name)` for unit variants, and
    /// `e.variant(generator, name, |generator| ...)` with the code `content` gives for data
    /// variants.
    fn variant_calls(
        &mut self,
        variants: &[(&SerdeVariant<'_>, &ast::Variant)],
        mut content: impl FnMut(&mut Self, &SerdeVariant<'_>, &ast::Variant) -> TokenStream,
    ) -> TokenStream {
        let mut statements = TokenStream::new();
        for (v, x) in variants {
            let name = v.attrs.name().serialize_name().value.clone();
            if matches!(v.style, Style::Unit) {
                statements.extend(quote!(e.unit(#name);));
            } else {
                let content = content(self, v, x);
                statements.extend(quote!(e.variant(generator, #name, |generator| { #content });));
            }
        }
        statements
    }

    /// Externally tagged (serde's default): the shape, the schema's code and the outline (an
    /// object with a property per data variant).
    fn external(&mut self, variants: &[(&SerdeVariant<'_>, &ast::Variant)]) -> (TokenStream, TokenStream, TokenStream) {
        let k = self.k.clone();
        let p = self.p.clone();
        let units: Vec<String> = variants
            .iter()
            .filter(|(v, _)| matches!(v.style, Style::Unit))
            .map(|(v, _)| v.attrs.name().serialize_name().value.clone())
            .collect();
        if units.len() == variants.len() {
            return (
                quote!(#k::Shape::String),
                quote!(#p::unit_enum(&[#(#units),*])),
                quote!(#p::Outline::leaf(#k::Shape::String)),
            );
        }
        let data = variants.len() - units.len();
        let mut parts = Vec::new();
        let statements = self.variant_calls(variants, |g, v, x| {
            let (_, content, value_outline) = g.value_of(v, x);
            // A variant's key is required when it is the only one; no default adds it.
            let name = v.attrs.name().serialize_name().value.clone();
            let required = data == 1 && units.is_empty();
            let value_outline = outline::node_outline(&p, value_outline, &x.attrs.node, outline::Place::Value);
            parts.push(outline::Part::Property(quote! {
                #p::Property { name: #name, required: #required, outline: &#value_outline.without_default() }
            }));
            // The variant's own attributes and doc describe its value.
            let extra = Extra {
                docs: &x.docs,
                value_type: None,
                serde_default: None,
                immutable: false,
                serialize_with: None,
            };
            g.node_code(&x.attrs.node, &extra).apply(&p, content)
        });
        let object = outline::object(&p, parts);
        let (shape, outline) = if units.is_empty() {
            (quote!(#k::Shape::Object), object)
        } else {
            // Strings or objects: no type, unknown fields kept, the variants' keys typed.
            (
                quote!(#k::Shape::Mixed),
                quote!(#p::Outline { shape: #k::Shape::Mixed, preserves_unknown_fields: true, ..#object }),
            )
        };
        let body = quote! {
            let mut e = #p::ExternalEnum::new();
            #statements
            e.finish()
        };
        (shape, body, outline)
    }

    /// Internally tagged: `#[serde(tag = "...")]`.
    fn internal(&mut self, tag: &str, variants: &[(&SerdeVariant<'_>, &ast::Variant)]) -> (TokenStream, TokenStream) {
        let k = self.k.clone();
        let p = self.p.clone();
        let statements = self.variant_calls(variants, |g, v, x| {
            if matches!(v.style, Style::Newtype) {
                let ty = v.fields[0].ty;
                let shape = g.shape_of(&quote!(#ty));
                let message = format!(
                    "variant `{}` of the internally tagged `{}`: serde writes the tag beside the fields of the value, so the value must be a struct or a map",
                    v.ident,
                    g.name()
                );
                g.assert_shape(v.original.ident.span(), &shape, "admits_flatten", message);
            }
            let (_, content, value_outline) = g.value_of(v, x);
            // serde writes the tag beside the value's fields: none may have its name.
            let name = v.attrs.name().serialize_name().value.clone();
            let p = g.p.clone();
            g.checks.push(quote_spanned! {v.original.ident.span()=>
                if let ::core::option::Option::Some(problem) = #p::tag_problem(&#value_outline, #tag, #name) {
                    ::core::panic!("{}", problem.as_str());
                }
            });
            content
        });
        let body = quote! {
            let mut e = #p::InternalEnum::new(#tag);
            #statements
            e.finish(generator)
        };
        (quote!(#k::Shape::Object), body)
    }

    /// Adjacently tagged: `#[serde(tag = "...", content = "...")]`.
    fn adjacent(
        &mut self,
        tag: &str,
        content_key: &str,
        variants: &[(&SerdeVariant<'_>, &ast::Variant)],
    ) -> (TokenStream, TokenStream) {
        let k = self.k.clone();
        let p = self.p.clone();
        let statements = self.variant_calls(variants, |g, v, x| g.value_of(v, x).1);
        let body = quote! {
            let mut e = #p::AdjacentEnum::new(#tag, #content_key);
            #statements
            e.finish(generator)
        };
        (quote!(#k::Shape::Object), body)
    }

    /// The value serde writes for a data variant (after the tag, if any): the shape, the
    /// code of its schema and its outline (before the variant's own attributes).
    fn value_of(&mut self, v: &SerdeVariant<'_>, x: &ast::Variant) -> (TokenStream, TokenStream, TokenStream) {
        let k = self.k.clone();
        let p = self.p.clone();
        let owner = format!("variant `{}` of `{}`", v.ident, self.name());
        match v.style {
            Style::Newtype => {
                let subject = format!("the value of {owner}");
                let (ty, code) = self.value_schema(&v.fields[0], &x.fields[0], &subject, true);
                let node = &x.fields[0].attrs.node;
                let (shape, base) = match ty {
                    Some(ty) => (self.shape_of(&ty), quote!(<#ty as #k::CustomResourceSchema>::OUTLINE)),
                    None => (quote!(#k::Shape::Unknown), quote!(#p::Outline::UNKNOWN)),
                };
                // The field's own attributes decide the value's JSON type where they set one.
                let shape = match (&node.type_, node.int_or_string) {
                    (Some(t), _) => outline::shape_of_type(&k, &t.value),
                    (None, Some(_)) => quote!(#k::Shape::IntOrString),
                    (None, None) => shape,
                };
                let outline = outline::node_outline(&p, base, node, outline::Place::Value);
                (shape, code, outline)
            }
            Style::Tuple => (
                quote!(#k::Shape::Array),
                self.tuple_body(&v.fields, &x.fields, &owner),
                quote!(#p::Outline::shape_only(#k::Shape::Array)),
            ),
            Style::Struct => {
                let mut uses = false;
                let mut statements = TokenStream::new();
                let mut parts = Vec::new();
                for (f, fx) in v.fields.iter().zip(&x.fields) {
                    let mut place = FieldPlace {
                        subject: format!("field `{}` of {owner}", super::fields::member_name(f)),
                        container_default: false,
                        uses_container_default: &mut uses,
                    };
                    let (statement, part) = self.property(f, fx, &mut place);
                    statements.extend(statement);
                    parts.push(part);
                }
                let body = quote! {
                    let mut object = #p::Object::new();
                    #statements
                    object.finish()
                };
                (quote!(#k::Shape::Object), body, outline::object(&p, parts))
            }
            Style::Unit => (
                quote!(#k::Shape::Unknown),
                quote!(::core::unreachable!()),
                quote!(#p::Outline::UNKNOWN),
            ),
        }
    }
}
