//! The attributes of one schema node as generated code: the values to compute first (defaults,
//! enum values, examples, which need the generator) and the chain of `Node` calls.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};

use crate::internals::ast::Docs;
use crate::internals::attr::{self, Rule};

/// The generated code for a node's attributes.
#[derive(Default)]
pub struct NodeCode {
    /// `let` statements computing values (they use `generator`).
    pub lets: TokenStream,
    /// `.minimum(1.0, false).pattern("...")...` calls on a `Node`.
    pub calls: TokenStream,
}

impl NodeCode {
    /// The code of `schema` (an expression using `generator`) with the attributes applied:
    /// the expression itself when there are none.
    pub fn apply(&self, p: &TokenStream, schema: TokenStream) -> TokenStream {
        if self.calls.is_empty() {
            return schema;
        }
        let (lets, calls) = (&self.lets, &self.calls);
        quote! {
            let mut schema = { #schema };
            #lets
            #p::Node::new(generator, &mut schema) #calls;
            schema
        }
    }
}

/// What else describes the node besides its attributes.
pub struct Extra<'a> {
    /// Doc comment lines (the description, unless `description = ...` is set).
    pub docs: &'a Docs,
    /// The Rust type values of `default` are of (`None`: no `default` is allowed here).
    pub value_type: Option<TokenStream>,
    /// A serialized default computed elsewhere (serde's `default`), as an expression of type
    /// `Option<Value>`, used when the attributes set none.
    pub serde_default: Option<TokenStream>,
    /// `immutable` (fields only).
    pub immutable: bool,
    /// How serde writes values of the node: `Some(path)` for `serialize_with`.
    pub serialize_with: Option<&'a syn::ExprPath>,
}

/// Builds the lets and calls for `node`; `prefix` keeps `let` names apart for `items(...)`.
pub fn node_code(p: &TokenStream, k: &TokenStream, node: &attr::Node, extra: &Extra<'_>, prefix: &str) -> NodeCode {
    let mut lets = TokenStream::new();
    let mut calls = TokenStream::new();

    // Type-changing attributes first.
    if let Some(t) = &node.type_ {
        let v = &t.value;
        calls.extend(quote_spanned!(t.span=> .type_(#v)));
    }
    if let Some(span) = node.int_or_string {
        calls.extend(quote_spanned!(span=> .int_or_string()));
    }
    if let Some(span) = node.preserve_unknown_fields {
        calls.extend(quote_spanned!(span=> .preserve_unknown_fields()));
    }
    if let Some(span) = node.embedded_resource {
        calls.extend(quote_spanned!(span=> .embedded_resource()));
    }

    if let Some(d) = &node.description {
        let lit = &d.value;
        calls.extend(quote!(.description(&[#lit])));
    } else if !extra.docs.is_empty() {
        let docs = extra.docs;
        calls.extend(quote!(.description(&[#(#docs),*])));
    }
    if let Some(t) = &node.title {
        let lit = &t.value;
        calls.extend(quote!(.title(#lit)));
    }
    if let Some(f) = &node.format {
        let v = &f.value;
        calls.extend(quote!(.format(#v)));
    }
    let exclusive_min = node.exclusive_minimum.as_ref().is_some_and(|e| e.value);
    let exclusive_max = node.exclusive_maximum.as_ref().is_some_and(|e| e.value);
    match &node.minimum {
        Some(m) => {
            let v = m.value;
            calls.extend(quote!(.minimum(#v, #exclusive_min)));
        }
        None if exclusive_min => calls.extend(quote!(.exclusive_minimum())),
        None => {}
    }
    match &node.maximum {
        Some(m) => {
            let v = m.value;
            calls.extend(quote!(.maximum(#v, #exclusive_max)));
        }
        None if exclusive_max => calls.extend(quote!(.exclusive_maximum())),
        None => {}
    }
    if let Some(m) = &node.multiple_of {
        let v = m.value;
        calls.extend(quote!(.multiple_of(#v)));
    }
    for (slot, method) in [
        (&node.min_length, "min_length"),
        (&node.max_length, "max_length"),
        (&node.min_items, "min_items"),
        (&node.max_items, "max_items"),
        (&node.min_properties, "min_properties"),
        (&node.max_properties, "max_properties"),
    ] {
        if let Some(v) = slot {
            let n = v.value as i64;
            let m = format_ident!("{}", method);
            calls.extend(quote!(.#m(#n)));
        }
    }
    if let Some(pattern) = &node.pattern {
        let lit = &pattern.value;
        calls.extend(quote!(.pattern(#lit)));
    }
    if let Some(values) = &node.enum_ {
        let name = format_ident!("{}enum_values", prefix);
        let exprs = values
            .value
            .iter()
            .map(|e| quote!(#p::to_json(generator, "enum value", &(#e))));
        lets.extend(quote_spanned!(values.span=> let #name = [#(#exprs),*];));
        calls.extend(quote!(.enum_values(#name)));
    }
    if let Some(items) = &node.items {
        let inner_prefix = format!("{prefix}items_");
        let no_extra = Extra {
            docs: &Vec::new(),
            value_type: None,
            serde_default: None,
            immutable: false,
            serialize_with: None,
        };
        let inner = node_code(p, k, &items.value, &no_extra, &inner_prefix);
        lets.extend(inner.lets);
        let inner_calls = inner.calls;
        calls.extend(quote_spanned!(items.span=> .items(|node| { node #inner_calls; })));
    }
    if let Some(t) = &node.list_type
        && t.value != "map"
    {
        let v = &t.value;
        calls.extend(quote!(.list_type(#v)));
    }
    if let Some(keys) = &node.list_map_keys {
        let v = &keys.value;
        calls.extend(quote_spanned!(keys.span=> .list_map_keys(&[#(#v),*])));
    }
    if let Some(m) = &node.map_type {
        let v = &m.value;
        calls.extend(quote!(.map_type(#v)));
    }
    for rule in &node.validations {
        let r = rule_expr(k, rule);
        calls.extend(quote_spanned!(rule.span=> .validation(#r)));
    }
    if extra.immutable {
        calls.extend(quote!(.immutable()));
    }
    for o in &node.one_of_fields {
        let (which, fields) = &o.value;
        calls.extend(quote_spanned!(o.span=> .one_of_fields(#which, &[#(#fields),*])));
    }
    if let Some(e) = &node.example {
        let name = format_ident!("{}example", prefix);
        let expr = &e.value;
        lets.extend(quote_spanned!(e.span=> let #name = #p::to_json(generator, "example", &(#expr));));
        calls.extend(quote!(.example(#name)));
    }
    if let Some(docs) = &node.external_docs {
        let (url, description) = &docs.value;
        let description = description
            .clone()
            .unwrap_or_else(|| syn::LitStr::new("", Span::call_site()));
        calls.extend(quote!(.external_docs(#url, #description)));
    }

    // The default: the attribute's expression, else serde's.
    let default = match (&node.default, &extra.value_type) {
        (Some(d), Some(ty)) => {
            let expr = &d.value;
            // `default = "10Gi"` on a `String` (or `Cow<str>`, `PathBuf`...) field: the
            // literal converts, as a `&str` field keeps it as it is.
            let value = if is_string_literal(expr) {
                quote_spanned!(d.span=> { let value: #ty = ::core::convert::From::from(#expr); value })
            } else {
                quote_spanned!(d.span=> { let value: #ty = #expr; value })
            };
            Some(match extra.serialize_with {
                Some(with) => quote!(#p::to_json_with(generator, "default", &#value, #with)),
                None => quote!(#p::to_json(generator, "default", &#value)),
            })
        }
        _ => extra.serde_default.clone(),
    };
    if let Some(default) = default {
        let name = format_ident!("{}default", prefix);
        lets.extend(quote!(let #name = #default;));
        calls.extend(quote!(.default(#name)));
    }
    if let Some(span) = node.nullable {
        calls.extend(quote_spanned!(span=> .nullable()));
    }
    NodeCode { lets, calls }
}

/// True when `expr` is one string literal (`"10Gi"`).
fn is_string_literal(expr: &TokenStream) -> bool {
    let mut tokens = expr.clone().into_iter();
    match (tokens.next(), tokens.next()) {
        (Some(proc_macro2::TokenTree::Literal(l)), None) => syn::parse2::<syn::LitStr>(l.into_token_stream()).is_ok(),
        _ => false,
    }
}

/// True when the node's attributes (or serde) give it a default.
pub fn has_default(node: &attr::Node, extra: &Extra<'_>) -> bool {
    (node.default.is_some() && extra.value_type.is_some()) || extra.serde_default.is_some()
}

fn rule_expr(k: &TokenStream, rule: &Rule) -> TokenStream {
    let r = &rule.rule;
    let text = |l: &Option<syn::LitStr>| match l {
        Some(l) => quote!(::std::string::String::from(#l)),
        None => quote!(::std::string::String::new()),
    };
    let message = text(&rule.message);
    let message_expression = text(&rule.message_expression);
    let field_path = text(&rule.field_path);
    let reason = match &rule.reason {
        Some(l) => quote!(::core::option::Option::Some(::std::string::String::from(#l))),
        None => quote!(::core::option::Option::None),
    };
    let optional_old_self = match rule.optional_old_self {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #k::schema::ValidationRule {
            rule: ::std::string::String::from(#r),
            message: #message,
            message_expression: #message_expression,
            reason: #reason,
            field_path: #field_path,
            optional_old_self: #optional_old_self,
        }
    }
}
