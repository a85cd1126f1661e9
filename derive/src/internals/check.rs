//! Checks that need the whole input but not the fields' types: combinations of attributes,
//! shapes serde writes that no structural schema can type, direct recursion. (Checks that
//! depend on a field's type are compile-time assertions in the generated code.)

use quote::ToTokens;
use serde_derive_internals::Ctxt;
use serde_derive_internals::ast::{Data, Style};
use serde_derive_internals::attr::TagType;

use super::ast::{Container, Field};
use super::attr;

pub fn check(cx: &Ctxt, cont: &Container) {
    check_node(cx, &cont.attrs.node);
    match &cont.serde.data {
        Data::Struct(style, fields) => {
            if matches!(style, Style::Unit) && cont.serde.attrs.type_into().is_none() {
                cx.error_spanned_by(
                    &cont.serde.ident,
                    "serde writes a unit struct as `null`, which no structural schema can type: \
                     give it a field, or use a unit variant of an enum (written as its name)",
                );
            }
            if matches!(style, Style::Tuple) && fields.is_empty() {
                cx.error_spanned_by(
                    &cont.serde.ident,
                    "serde writes an empty tuple struct as `[]`, whose items no structural schema can type",
                );
            }
            for (f, x) in fields.iter().zip(&cont.fields) {
                check_field(cx, cont, f, x, matches!(style, Style::Struct));
            }
        }
        Data::Enum(variants) => {
            let tag = cont.serde.attrs.tag();
            let mut any_data = false;
            for (v, x) in variants.iter().zip(&cont.variants) {
                if v.attrs.skip_serializing() {
                    continue;
                }
                let untagged = matches!(tag, TagType::None) || v.attrs.untagged();
                if !matches!(v.style, Style::Unit) {
                    any_data = true;
                }
                if let Some(with) = v.attrs.serialize_with() {
                    cx.error_spanned_by(
                        with,
                        "kstruct cannot know what this function writes: put the variant's value in a \
                         newtype variant whose field has #[kstruct(schema_as = Type)] or #[kstruct(schema_with = path)]",
                    );
                }
                if !x.attrs.node.is_empty() {
                    let has_own_node = matches!(tag, TagType::External) && !untagged && !matches!(v.style, Style::Unit);
                    if !has_own_node {
                        let span = x.attrs.node.first_span().expect("an attribute");
                        cx.syn_error(syn::Error::new(
                            span,
                            "this variant has no schema node of its own (attributes apply to the value of a \
                             data variant of an externally tagged enum): put them on the fields or on the enum",
                        ));
                    }
                }
                for (f, fx) in v.fields.iter().zip(&x.fields) {
                    check_field(cx, cont, f, fx, matches!(v.style, Style::Struct));
                }
            }
            if matches!(tag, TagType::None) && !any_data && !variants.is_empty() {
                cx.error_spanned_by(
                    &cont.serde.ident,
                    "serde writes every variant of this untagged enum as `null`, which no structural schema can type",
                );
            }
        }
    }
}

fn check_field(cx: &Ctxt, cont: &Container, f: &serde_derive_internals::ast::Field, x: &Field, named: bool) {
    let a = &x.attrs;
    check_node(cx, &a.node);
    let skipped = f.attrs.skip_serializing() && f.attrs.skip_deserializing();
    if skipped {
        if let Some(span) = first_field_attr(a) {
            cx.syn_error(syn::Error::new(
                span,
                "serde skips this field: its kstruct attributes would have no effect",
            ));
        }
        return;
    }
    if let (Some(o), Some(_)) = (a.optional, a.required) {
        cx.syn_error(syn::Error::new(o, "a field cannot be both `optional` and `required`"));
    }
    if let (Some(w), Some(_)) = (&a.schema_with, &a.schema_as) {
        cx.syn_error(syn::Error::new(
            w.span,
            "use either `schema_with` or `schema_as`, not both",
        ));
    }
    if let Some(r) = a.required
        && (f.attrs.skip_serializing_if().is_some() || f.attrs.skip_serializing())
    {
        cx.syn_error(syn::Error::new(
            r,
            "`required`, but serde leaves this field out when it serializes (skip_serializing / skip_serializing_if)",
        ));
    }
    if !named && (a.optional.is_some() || a.required.is_some() || a.immutable.is_some()) {
        let span = a.optional.or(a.required).or(a.immutable).expect("set");
        cx.syn_error(syn::Error::new(
            span,
            "`optional`, `required` and `immutable` apply to named fields (object properties)",
        ));
    }
    if f.attrs.flatten() {
        if let Some(span) = first_field_attr(a) {
            cx.syn_error(syn::Error::new(
                span,
                "a flattened field has no schema node of its own (its fields become the parent's): \
                 put the attributes on the flattened type or its fields",
            ));
        }
        return;
    }
    let has_schema_attr = a.schema_with.is_some()
        || a.schema_as.is_some()
        || a.node.preserve_unknown_fields.is_some()
        || a.node.int_or_string.is_some()
        || a.node.type_.is_some();
    if let Some(with) = f.attrs.serialize_with()
        && !has_schema_attr
    {
        cx.error_spanned_by(
            with,
            format!(
                "serde writes this field with `{}`, and kstruct cannot know what that writes: say it with \
                 #[kstruct(schema_as = Type)] (a type serde writes the same way), #[kstruct(schema_with = path)] \
                 or #[kstruct(preserve_unknown_fields)]",
                with.to_token_stream().to_string().replace(' ', "")
            ),
        );
    }
    if a.schema_with.is_none() && a.schema_as.is_none() {
        if is_unit(f.ty) {
            cx.error_spanned_by(
                f.ty,
                "serde writes `()` as `null`, which no structural schema can type: skip the field \
                 (#[serde(skip)]) or give it a type",
            );
        }
        if a.node.preserve_unknown_fields.is_none() && mentions(f.ty, &cont.serde.ident) {
            cx.error_spanned_by(
                f.ty,
                format!(
                    "recursive type: `{}` contains itself here, and a structural schema cannot describe \
                     it (it would be infinite); keep this subtree as free-form JSON with \
                     #[kstruct(preserve_unknown_fields)] (the API server then keeps it as it is), or give it \
                     a schema with #[kstruct(schema_with = path)]",
                    cont.serde.ident
                ),
            );
        }
    }
}

fn first_field_attr(a: &attr::Field) -> Option<proc_macro2::Span> {
    a.node
        .first_span()
        .or(a.optional)
        .or(a.required)
        .or(a.immutable)
        .or(a.schema_with.as_ref().map(|s| s.span))
        .or(a.schema_as.as_ref().map(|s| s.span))
}

fn check_node(cx: &Ctxt, node: &attr::Node) {
    if let (Some(i), Some(_)) = (node.int_or_string, node.preserve_unknown_fields) {
        cx.syn_error(syn::Error::new(
            i,
            "`int_or_string` and `preserve_unknown_fields` exclude each other (the API server: \
             x-kubernetes-preserve-unknown-fields must be false if x-kubernetes-int-or-string is true)",
        ));
    }
    if let (Some(i), Some(_)) = (node.int_or_string, node.embedded_resource) {
        cx.syn_error(syn::Error::new(
            i,
            "`int_or_string` and `embedded_resource` exclude each other (the API server: \
             x-kubernetes-embedded-resource must be false if x-kubernetes-int-or-string is true)",
        ));
    }
    if let Some(t) = &node.list_type {
        if t.value == "map" && node.list_map_keys.is_none() {
            cx.syn_error(syn::Error::new(
                t.span,
                "`list_type = \"map\"` needs `list_map_keys = [...]` (the API server requires the keys)",
            ));
        }
        if t.value != "map"
            && let Some(k) = &node.list_map_keys
        {
            cx.syn_error(syn::Error::new(
                k.span,
                format!(
                    "`list_map_keys` needs `list_type = \"map\"` (or no list_type), not {:?}",
                    t.value
                ),
            ));
        }
    }
    if let (Some(min), Some(max)) = (&node.minimum, &node.maximum)
        && min.value > max.value
    {
        cx.syn_error(syn::Error::new(
            min.span,
            "`minimum` is greater than `maximum`: no value fits",
        ));
    }
    for (lo, hi, name) in [
        (&node.min_length, &node.max_length, "min_length"),
        (&node.min_items, &node.max_items, "min_items"),
        (&node.min_properties, &node.max_properties, "min_properties"),
    ] {
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo.value > hi.value
        {
            cx.syn_error(syn::Error::new(
                lo.span,
                format!("`{name}` is greater than its maximum: no value fits"),
            ));
        }
    }
    if let Some(items) = &node.items {
        check_node(cx, &items.value);
    }
}

fn is_unit(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Tuple(t) => t.elems.is_empty(),
        syn::Type::Paren(p) => is_unit(&p.elem),
        syn::Type::Group(g) => is_unit(&g.elem),
        _ => false,
    }
}

/// True when `ty` names the container (or `Self`) anywhere, as in `Vec<Box<Tree>>`: by its
/// bare name only (`v1::Spec` inside `Spec` is another type; real recursion through a path
/// is still caught, by the compiler's cycle check).
fn mentions(ty: &syn::Type, ident: &syn::Ident) -> bool {
    stream_mentions(ty.to_token_stream(), ident)
}

fn stream_mentions(tokens: proc_macro2::TokenStream, ident: &syn::Ident) -> bool {
    let tokens: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
    tokens.iter().enumerate().any(|(i, t)| match t {
        proc_macro2::TokenTree::Ident(name) => {
            let qualified = i > 0 && matches!(&tokens[i - 1], proc_macro2::TokenTree::Punct(p) if p.as_char() == ':');
            !qualified && (name == ident || name == "Self")
        }
        proc_macro2::TokenTree::Group(g) => stream_mentions(g.stream(), ident),
        _ => false,
    })
}

/// True for `Option<...>` written as such (for fields whose type has no schema to ask).
pub fn is_option(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) => p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "Option"),
        syn::Type::Group(g) => is_option(&g.elem),
        syn::Type::Paren(p) => is_option(&p.elem),
        _ => false,
    }
}
