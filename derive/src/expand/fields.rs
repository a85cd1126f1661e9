//! Structs and the fields of struct-like things (structs, struct variants, tuple elements).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use serde_derive_internals::ast::{Field as SerdeField, Style};
use serde_derive_internals::attr::{Default as SerdeDefault, TagType};

use super::node::{self, Extra};
use super::{Gen, outline};
use crate::internals::{ast, check};

/// Where a field sits, for messages and defaults.
pub(crate) struct FieldPlace<'b> {
    /// `field `x`` / `field `x` of variant `V`` for messages.
    pub subject: String,
    /// The container's serde default is available as `container_default` (structs only).
    pub container_default: bool,
    /// Set when a field reads `container_default`.
    pub uses_container_default: &'b mut bool,
}

/// What a container's impl is made of.
pub(crate) struct Expansion {
    /// `SHAPE`.
    pub shape: TokenStream,
    /// `OPTIONAL`, when not the default.
    pub optional: Option<TokenStream>,
    /// The body of `schema()`.
    pub body: TokenStream,
    /// The body of `schema_when_present()`, when not the default.
    pub present: Option<TokenStream>,
    /// `OUTLINE`, before the container's own attributes.
    pub outline: TokenStream,
}

impl Gen<'_> {
    pub(crate) fn expand_struct(&mut self, style: Style, fields: &[SerdeField<'_>]) -> Expansion {
        let cont = self.cont;
        let k = self.k.clone();
        let p = self.p.clone();
        let xs = &cont.fields;
        let transparent = cont.serde.attrs.transparent();
        match style {
            Style::Struct if !transparent => {
                let container_default = !matches!(cont.serde.attrs.default(), SerdeDefault::None);
                let mut uses = false;
                let mut statements = TokenStream::new();
                let mut parts = Vec::new();
                if let TagType::Internal { tag } = cont.serde.attrs.tag() {
                    let name = cont.serde.attrs.name().serialize_name().value.clone();
                    statements.extend(quote!(object.tag(generator, #tag, #name);));
                    parts.push(outline::Part::Property(quote! {
                        #p::Property {
                            name: #tag,
                            required: true,
                            outline: &#p::Outline::leaf(#p::Shape::String),
                        }
                    }));
                }
                for (f, x) in fields.iter().zip(xs) {
                    let mut place = FieldPlace {
                        subject: format!("field `{}`", member_name(f)),
                        container_default,
                        uses_container_default: &mut uses,
                    };
                    let (statement, part) = self.property(f, x, &mut place);
                    statements.extend(statement);
                    parts.push(part);
                }
                let default_let = if uses {
                    match cont.serde.attrs.default() {
                        SerdeDefault::Path(path) => quote!(let container_default: Self = #path();),
                        _ => quote!(let container_default: Self = <Self as ::core::default::Default>::default();),
                    }
                } else {
                    TokenStream::new()
                };
                let body = quote! {
                    #default_let
                    let mut object = #p::Object::new();
                    #statements
                    object.finish()
                };
                Expansion {
                    shape: quote!(#k::Shape::Object),
                    optional: None,
                    body,
                    present: None,
                    outline: outline::object(&p, parts),
                }
            }
            _ if transparent || matches!(style, Style::Newtype) => {
                // serde writes the inner value: a newtype struct, or `#[serde(transparent)]`.
                let (i, f) = fields
                    .iter()
                    .enumerate()
                    .find(|(_, f)| f.attrs.transparent() || matches!(style, Style::Newtype))
                    .expect("the transparent field");
                let x = &xs[i];
                let subject = format!("field `{}` of `{}`", member_name(f), self.name());
                let (ty, full) = self.value_schema(f, x, &subject, true);
                let (_, present) = self.value_schema(f, x, &subject, false);
                let shape = match &ty {
                    Some(ty) => self.shape_of(ty),
                    None => quote!(#k::Shape::Unknown),
                };
                let base = match &ty {
                    Some(ty) => quote!(<#ty as #k::CustomResourceSchema>::OUTLINE),
                    None => quote!(#p::Outline::UNKNOWN),
                };
                let outline = outline::node_outline(&p, base, &x.attrs.node, outline::Place::Value);
                if cont.serde.attrs.transparent() {
                    // A missing transparent field reads as the inner type's missing value.
                    let optional = match &ty {
                        Some(ty) => quote!(<#ty as #k::CustomResourceSchema>::OPTIONAL),
                        None => {
                            let o = check::is_option(f.ty);
                            quote!(#o)
                        }
                    };
                    Expansion {
                        shape,
                        optional: Some(optional),
                        body: full,
                        present: Some(present),
                        outline,
                    }
                } else {
                    Expansion {
                        shape,
                        optional: None,
                        body: full,
                        present: None,
                        outline,
                    }
                }
            }
            Style::Struct | Style::Tuple | Style::Newtype => {
                let body = self.tuple_body(fields, xs, &format!("`{}`", self.name()));
                Expansion {
                    shape: quote!(#k::Shape::Array),
                    optional: None,
                    body,
                    present: None,
                    outline: quote!(#p::Outline::shape_only(#k::Shape::Array)),
                }
            }
            Style::Unit => Expansion {
                shape: quote!(#k::Shape::Unknown),
                optional: None,
                body: quote!(::core::unreachable!()),
                present: None,
                outline: quote!(#p::Outline::UNKNOWN),
            },
        }
    }

    /// `tuple(generator, vec![...])` over the non-skipped elements.
    pub(crate) fn tuple_body(&mut self, fields: &[SerdeField<'_>], xs: &[ast::Field], owner: &str) -> TokenStream {
        let p = self.p.clone();
        let mut items = Vec::new();
        let mut always = 0usize;
        for (i, (f, x)) in fields.iter().zip(xs).enumerate() {
            if f.attrs.skip_serializing() {
                continue;
            }
            if f.attrs.skip_serializing_if().is_none() {
                always += 1;
            }
            let subject = format!("element {i} of {owner}");
            let (_, schema) = self.value_schema(f, x, &subject, true);
            let seg = format!("[{i}]");
            items.push(quote!(generator.at(#seg, |generator| { #schema })));
        }
        quote! {
            let items = [#(#items),*];
            #p::tuple(generator, items, #always)
        }
    }

    /// The schema of a field's value where it stands alone (a newtype's value, a tuple
    /// element): the field type's full schema (or its present-value schema when `full` is
    /// false), with the field's attributes. Returns the type the schema is of (for shape
    /// checks) and the code.
    pub(crate) fn value_schema(
        &mut self,
        f: &SerdeField<'_>,
        x: &ast::Field,
        subject: &str,
        full: bool,
    ) -> (Option<TokenStream>, TokenStream) {
        let p = self.p.clone();
        let a = &x.attrs;
        let field_ty = f.ty;
        let (schema_ty, schema) = if let Some(with) = &a.schema_with {
            let path = &with.value;
            (None, quote_spanned!(with.span=> #path(generator)))
        } else {
            let ty = match &a.schema_as {
                Some(t) => {
                    let t = &t.value;
                    quote!(#t)
                }
                None => quote!(#field_ty),
            };
            let call = if full {
                quote!(generator.subschema_for::<#ty>())
            } else {
                quote!(generator.present_subschema_for::<#ty>())
            };
            (Some(ty), call)
        };
        if full {
            self.check_node_shapes(&a.node, schema_ty.clone(), subject);
            if let Some(ty) = &schema_ty {
                self.contains(ty, &a.node, syn::spanned::Spanned::span(field_ty));
            }
        }
        let extra = Extra {
            docs: &x.docs,
            value_type: None,
            serde_default: None,
            immutable: false,
            serialize_with: f.attrs.serialize_with(),
        };
        if full && let Some(default) = &a.node.default {
            self.errors.push(syn::Error::new(
                default.span,
                "`default` applies to named fields (object properties) and types",
            ));
        }
        let body = self.node_code(&a.node, &extra).apply(&p, schema);
        (schema_ty, body)
    }

    /// The statement adding one named field to `object`, and the field's part of the object's
    /// outline.
    pub(crate) fn property(
        &mut self,
        f: &SerdeField<'_>,
        x: &ast::Field,
        place: &mut FieldPlace<'_>,
    ) -> (TokenStream, outline::Part) {
        let k = self.k.clone();
        let p = self.p.clone();
        let a = &x.attrs;
        if skipped(f) {
            return (TokenStream::new(), outline::Part::None);
        }
        let name = f.attrs.name().serialize_name().value.clone();
        let field_ty = f.ty;
        let schema_ty = match (&a.schema_with, &a.schema_as) {
            (Some(_), _) => None,
            (None, Some(t)) => {
                let t = &t.value;
                Some(quote!(#t))
            }
            (None, None) => Some(quote!(#field_ty)),
        };
        let field_name = member_name(f);

        if f.attrs.flatten() {
            let ty = quote!(#field_ty);
            self.contains(&ty, &a.node, syn::spanned::Spanned::span(field_ty));
            let shape = self.shape_of(&ty);
            self.assert_shape(
                f.original
                    .ident
                    .as_ref()
                    .map_or_else(proc_macro2::Span::call_site, |i| i.span()),
                &shape,
                "admits_flatten",
                format!(
                    "serde can only flatten structs and maps, and {} is neither",
                    place.subject
                ),
            );
            let statement = quote! {
                object.flatten(generator, #field_name, <#ty as #k::CustomResourceSchema>::OPTIONAL, |generator| {
                    generator.subschema_for::<#ty>()
                });
            };
            let part = outline::Part::Flattened(Box::new(move |after: usize| {
                quote! {
                    #p::Flattened {
                        field: #field_name,
                        after: #after,
                        outline: &<#ty as #k::CustomResourceSchema>::OUTLINE,
                        optional: <#ty as #k::CustomResourceSchema>::OPTIONAL,
                    }
                }
            }));
            return (statement, part);
        }

        self.check_node_shapes(&a.node, schema_ty.clone(), &place.subject);
        if let Some(ty) = &schema_ty {
            self.contains(ty, &a.node, syn::spanned::Spanned::span(field_ty));
        }

        // serde's default, serialized as serde would write it.
        let serde_default = if f.attrs.skip_serializing_if().is_some() || f.attrs.skip_deserializing() {
            None
        } else {
            let value = match f.attrs.default() {
                SerdeDefault::Default => Some(quote!(&<#field_ty as ::core::default::Default>::default())),
                SerdeDefault::Path(path) => Some(quote!(&#path())),
                SerdeDefault::None if place.container_default => {
                    *place.uses_container_default = true;
                    let member = &f.member;
                    Some(quote!(&container_default.#member))
                }
                SerdeDefault::None => None,
            };
            value.map(|value| match f.attrs.serialize_with() {
                Some(with) => quote!(#p::to_json_with(generator, "default", #value, #with)),
                None => quote!(#p::to_json(generator, "default", #value)),
            })
        };
        let serde_reads_missing = !matches!(f.attrs.default(), SerdeDefault::None) || place.container_default;
        let extra = Extra {
            docs: &x.docs,
            value_type: Some(quote!(#field_ty)),
            serde_default,
            immutable: a.immutable.is_some(),
            serialize_with: f.attrs.serialize_with(),
        };
        let has_default = node::has_default(&a.node, &extra);
        let code = self.node_code(&a.node, &extra);

        // Required: what serde needs to read the field back, unless the attributes say.
        let user_deserialize_with = f.attrs.deserialize_with().is_some() && !is_cow(field_ty);
        let required = if a.required.is_some() {
            quote!(true)
        } else if a.optional.is_some() {
            if !serde_reads_missing && !has_default && f.attrs.skip_serializing_if().is_none() {
                // `optional` on a field serde requires: only an Option can be missing.
                if let Some(ty) = &schema_ty.as_ref().filter(|_| a.schema_as.is_none()) {
                    let optional = quote!(<#ty as #k::CustomResourceSchema>::OPTIONAL);
                    let span = a.optional.expect("optional");
                    self.checks.push(quote_spanned!(span=> ::core::assert!(#optional, "`optional`, but serde fails to read an object without this field (it has no default and is not an `Option`): add #[serde(default)]");));
                } else if !check::is_option(field_ty) {
                    self.errors.push(syn::Error::new(
                        a.optional.expect("optional"),
                        "`optional`, but serde fails to read an object without this field (it has no default and is not an `Option`): add #[serde(default)]",
                    ));
                }
            }
            quote!(false)
        } else if f.attrs.skip_serializing()
            || f.attrs.skip_serializing_if().is_some()
            || f.attrs.skip_deserializing()
            || serde_reads_missing
            || has_default
        {
            quote!(false)
        } else if user_deserialize_with {
            quote!(true)
        } else if let Some(ty) = schema_ty.as_ref().filter(|_| a.schema_as.is_none()) {
            quote!(!<#ty as #k::CustomResourceSchema>::OPTIONAL)
        } else {
            let optional = check::is_option(field_ty);
            quote!(!#optional)
        };

        let keep_null = if a.required.is_some() {
            quote!(true)
        } else if has_default {
            quote!(default.is_some())
        } else if user_deserialize_with && let Some(ty) = &schema_ty {
            // Required (serde cannot read it missing): an `Option`'s `null` must stay.
            quote!(<#ty as #k::CustomResourceSchema>::OPTIONAL)
        } else {
            quote!(false)
        };
        let schema = if let Some(with) = &a.schema_with {
            let path = &with.value;
            quote_spanned!(with.span=> #path(generator))
        } else {
            let ty = schema_ty.as_ref().expect("a type");
            quote!(#p::field_schema::<#ty>(generator, #keep_null))
        };
        let (lets, calls) = (code.lets, code.calls);
        let node_statement = if calls.is_empty() {
            TokenStream::new()
        } else {
            quote!(#p::Node::new(generator, &mut schema) #calls;)
        };
        let mutability = if calls.is_empty() { quote!() } else { quote!(mut) };
        if let Some(span) = a.immutable
            && kstruct_cel::escape_property(&name).is_none()
        {
            // The "stays set once set" rule of an optional field names it in CEL.
            let message = format!("`{name}` cannot be named in a CEL rule: `immutable` cannot say it stays set");
            self.checks
                .push(quote_spanned!(span=> if !(#required) { ::core::panic!(#message); }));
        }
        let once_set = if a.immutable.is_some() {
            quote! {
                if !(#required) {
                    object.immutable_once_set(generator, #name);
                }
            }
        } else {
            TokenStream::new()
        };
        let closure = if lets.is_empty() && node_statement.is_empty() {
            quote!(|generator| #schema)
        } else {
            quote! {
                |generator| {
                    #lets
                    let #mutability schema = #schema;
                    #node_statement
                    schema
                }
            }
        };
        // The outline of the field's schema: `field_schema` keeps the `Option`'s `null` only
        // when the field must keep it, which the outline knows for `required` alone (else it
        // says not nullable, which may be less than the schema says, never more).
        let base = match &schema_ty {
            Some(ty) if a.schema_with.is_none() => {
                let keeps_null = if a.required.is_some() {
                    quote!(<#ty as #k::CustomResourceSchema>::OPTIONAL)
                } else {
                    quote!(false)
                };
                quote!(#p::Outline::field(<#ty as #k::CustomResourceSchema>::OUTLINE, #keeps_null))
            }
            _ => quote!(#p::Outline::UNKNOWN),
        };
        let mut field_outline =
            outline::node_outline_with(&p, base, &a.node, outline::Place::Value, a.immutable.is_some());
        if has_default {
            // A default that serializes to `null` is none, which the outline cannot see: it
            // may say defaulted when the schema has no default, never the other way.
            field_outline = quote!(#field_outline.with_default());
        }
        let part = outline::Part::Property(quote! {
            #p::Property {
                name: #name,
                required: #required,
                outline: &#field_outline,
            }
        });
        let statement = quote! {
            object.property(generator, #name, #required, #closure);
            #once_set
        };
        (statement, part)
    }
}

/// Fields serde neither writes nor reads.
pub(crate) fn skipped(f: &SerdeField<'_>) -> bool {
    f.attrs.skip_serializing() && f.attrs.skip_deserializing()
}

/// The Rust name of a field (`x`, or the index of a tuple field).
pub(crate) fn member_name(f: &SerdeField<'_>) -> String {
    match &f.member {
        syn::Member::Named(i) => i.to_string(),
        syn::Member::Unnamed(i) => i.index.to_string(),
    }
}

/// `Cow<...>` (serde gives borrowed `Cow` fields a `deserialize_with` of its own).
fn is_cow(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Cow"),
        _ => false,
    }
}
