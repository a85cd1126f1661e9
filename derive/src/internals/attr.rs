//! `#[kstruct(...)]` attributes, parsed once into plain data.
//!
//! Like serde_derive's `attr.rs`, parsing never stops at the first problem: a malformed or
//! duplicate attribute is reported through [`Ctxt`] with its span and otherwise ignored, so
//! that the user sees every error at once.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use serde_derive_internals::Ctxt;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::spanned::Spanned as _;
use syn::{LitBool, LitFloat, LitInt, LitStr, Token};

/// A value with the span of the attribute that set it (for errors and `quote_spanned!`).
#[derive(Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// One `validation(...)` rule.
#[derive(Clone)]
pub struct Rule {
    pub span: Span,
    pub rule: LitStr,
    pub message: Option<LitStr>,
    pub message_expression: Option<LitStr>,
    pub reason: Option<LitStr>,
    pub field_path: Option<LitStr>,
    pub optional_old_self: Option<bool>,
}

/// The attributes that describe one schema node: a field's, a type's, or `items(...)`.
#[derive(Default, Clone)]
pub struct Node {
    pub description: Option<Spanned<LitStr>>,
    pub title: Option<Spanned<LitStr>>,
    pub default: Option<Spanned<TokenStream>>,
    pub example: Option<Spanned<TokenStream>>,
    pub nullable: Option<Span>,
    pub type_: Option<Spanned<String>>,
    pub format: Option<Spanned<String>>,
    pub minimum: Option<Spanned<f64>>,
    pub maximum: Option<Spanned<f64>>,
    pub exclusive_minimum: Option<Spanned<bool>>,
    pub exclusive_maximum: Option<Spanned<bool>>,
    pub multiple_of: Option<Spanned<f64>>,
    pub min_length: Option<Spanned<u64>>,
    pub max_length: Option<Spanned<u64>>,
    pub pattern: Option<Spanned<LitStr>>,
    pub enum_: Option<Spanned<Vec<TokenStream>>>,
    pub min_items: Option<Spanned<u64>>,
    pub max_items: Option<Spanned<u64>>,
    pub min_properties: Option<Spanned<u64>>,
    pub max_properties: Option<Spanned<u64>>,
    pub items: Option<Spanned<Box<Node>>>,
    pub preserve_unknown_fields: Option<Span>,
    pub embedded_resource: Option<Span>,
    pub int_or_string: Option<Span>,
    pub list_type: Option<Spanned<String>>,
    pub list_map_keys: Option<Spanned<Vec<String>>>,
    pub map_type: Option<Spanned<String>>,
    pub validations: Vec<Rule>,
    pub external_docs: Option<Spanned<(LitStr, Option<LitStr>)>>,
    /// `at_most_one_of`, `exactly_one_of`, `at_least_one_of`: (which, fields).
    pub one_of_fields: Vec<Spanned<(&'static str, Vec<String>)>>,
}

impl Node {
    /// True when no attribute is set.
    pub fn is_empty(&self) -> bool {
        self.first_span().is_none()
    }

    /// The span of some attribute that is set (for "has no effect" errors).
    pub fn first_span(&self) -> Option<Span> {
        let spans = [
            self.description.as_ref().map(|s| s.span),
            self.title.as_ref().map(|s| s.span),
            self.default.as_ref().map(|s| s.span),
            self.example.as_ref().map(|s| s.span),
            self.nullable,
            self.type_.as_ref().map(|s| s.span),
            self.format.as_ref().map(|s| s.span),
            self.minimum.as_ref().map(|s| s.span),
            self.maximum.as_ref().map(|s| s.span),
            self.exclusive_minimum.as_ref().map(|s| s.span),
            self.exclusive_maximum.as_ref().map(|s| s.span),
            self.multiple_of.as_ref().map(|s| s.span),
            self.min_length.as_ref().map(|s| s.span),
            self.max_length.as_ref().map(|s| s.span),
            self.pattern.as_ref().map(|s| s.span),
            self.enum_.as_ref().map(|s| s.span),
            self.min_items.as_ref().map(|s| s.span),
            self.max_items.as_ref().map(|s| s.span),
            self.min_properties.as_ref().map(|s| s.span),
            self.max_properties.as_ref().map(|s| s.span),
            self.items.as_ref().map(|s| s.span),
            self.preserve_unknown_fields,
            self.embedded_resource,
            self.int_or_string,
            self.list_type.as_ref().map(|s| s.span),
            self.list_map_keys.as_ref().map(|s| s.span),
            self.map_type.as_ref().map(|s| s.span),
            self.validations.first().map(|r| r.span),
            self.external_docs.as_ref().map(|s| s.span),
            self.one_of_fields.first().map(|s| s.span),
        ];
        spans.into_iter().flatten().next()
    }

    /// The attributes that need number values, with their spans.
    pub fn number_attrs(&self) -> Vec<(&'static str, Span)> {
        let mut out = Vec::new();
        push(&mut out, "minimum", &self.minimum);
        push(&mut out, "maximum", &self.maximum);
        push(&mut out, "exclusive_minimum", &self.exclusive_minimum);
        push(&mut out, "exclusive_maximum", &self.exclusive_maximum);
        push(&mut out, "multiple_of", &self.multiple_of);
        out
    }

    /// The attributes that need string values.
    pub fn string_attrs(&self) -> Vec<(&'static str, Span)> {
        let mut out = Vec::new();
        push(&mut out, "min_length", &self.min_length);
        push(&mut out, "max_length", &self.max_length);
        push(&mut out, "pattern", &self.pattern);
        out
    }

    /// The attributes that need arrays.
    pub fn array_attrs(&self) -> Vec<(&'static str, Span)> {
        let mut out = Vec::new();
        push(&mut out, "min_items", &self.min_items);
        push(&mut out, "max_items", &self.max_items);
        push(&mut out, "items", &self.items);
        push(&mut out, "list_type", &self.list_type);
        push(&mut out, "list_map_keys", &self.list_map_keys);
        out
    }

    /// The attributes that need objects.
    pub fn object_attrs(&self) -> Vec<(&'static str, Span)> {
        let mut out = Vec::new();
        push(&mut out, "min_properties", &self.min_properties);
        push(&mut out, "max_properties", &self.max_properties);
        out
    }

    /// The attributes that need a typed object (`type: object` beside them).
    pub fn typed_object_attrs(&self) -> Vec<(&'static str, Span)> {
        let mut out = Vec::new();
        push(&mut out, "map_type", &self.map_type);
        for o in &self.one_of_fields {
            out.push((o.value.0, o.span));
        }
        out
    }

    /// The attributes that add CEL rules.
    pub fn rule_attrs(&self) -> Vec<(&'static str, Span)> {
        self.validations.iter().map(|r| ("validation", r.span)).collect()
    }
}

fn push<T>(out: &mut Vec<(&'static str, Span)>, name: &'static str, v: &Option<Spanned<T>>) {
    if let Some(v) = v {
        out.push((name, v.span));
    }
}

/// `#[kstruct(...)]` on a struct or enum.
#[derive(Default)]
pub struct Container {
    pub node: Node,
    /// `crate = "path"` / `crate = path`: where `kstruct` is.
    pub crate_path: Option<syn::Path>,
    /// The resource attributes (`group`, `version`, `kind`, ...), when the type is a spec.
    pub resource: super::resource::Attrs,
}

/// `#[kstruct(...)]` on a field.
#[derive(Default)]
pub struct Field {
    pub node: Node,
    pub optional: Option<Span>,
    pub required: Option<Span>,
    pub immutable: Option<Span>,
    pub schema_with: Option<Spanned<syn::Path>>,
    pub schema_as: Option<Spanned<syn::Type>>,
    /// `schemars`: the schema from the field type's `schemars::JsonSchema`.
    pub schemars: Option<Span>,
}

/// `#[kstruct(...)]` on a variant.
#[derive(Default)]
pub struct Variant {
    pub node: Node,
}

/// Where an attribute list sits: decides which keys are accepted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Container,
    Field,
    Variant,
    Items,
}

impl Place {
    fn what(self) -> &'static str {
        match self {
            Place::Container => "container",
            Place::Field => "field",
            Place::Variant => "variant",
            Place::Items => "items(...)",
        }
    }
}

/// Every `#[kstruct(...)]` of `attrs`, parsed with `f` per key; a key's error is reported and
/// the others are still read (see [`recover`]).
fn each_kstruct_meta(cx: &Ctxt, attrs: &[syn::Attribute], mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>) {
    for attr in attrs {
        if !attr.path().is_ident("kstruct") {
            continue;
        }
        if let syn::Meta::List(list) = &attr.meta
            && list.tokens.is_empty()
        {
            continue;
        }
        if let Err(e) = attr.parse_nested_meta(|meta| recover(cx, &meta, f(&meta))) {
            cx.syn_error(e);
        }
    }
}

/// Reads the list nested in `meta` (`items(...)`, `validation(...)`, `printcolumn(...)`),
/// `f` per key, reporting every key's error rather than the first only.
pub fn each_nested(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| recover(cx, &inner, f(&inner)))
}

/// After a key's error: the error is reported and the rest of the key (its value, up to the
/// next `,`) skipped, so that the next keys are read: every misspelt attribute of a list is
/// reported at once, as the compiler reports every error of a file.
fn recover(cx: &Ctxt, meta: &ParseNestedMeta, result: syn::Result<()>) -> syn::Result<()> {
    if let Err(e) = result {
        cx.syn_error(e);
        while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
            meta.input.parse::<TokenTree>()?;
        }
    }
    Ok(())
}

impl Container {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Container {
        let mut c = Container::default();
        each_kstruct_meta(cx, attrs, |meta| {
            if meta.path.is_ident("crate") {
                let path: syn::Path = if meta.input.peek(Token![=]) {
                    let value = meta.value()?;
                    if value.peek(LitStr) {
                        value.parse::<LitStr>()?.parse()?
                    } else {
                        value.parse()?
                    }
                } else {
                    return Err(meta.error("expected `crate = \"path\"`"));
                };
                if c.crate_path.is_some() {
                    return Err(meta.error("duplicate kstruct attribute `crate`"));
                }
                c.crate_path = Some(path);
                return Ok(());
            }
            let key = path_name(&meta.path);
            if super::resource::KEYS.contains(&key.as_str()) {
                return c.resource.parse(cx, meta, &key);
            }
            parse_node_key(cx, meta, &mut c.node, Place::Container)
        });
        c
    }
}

impl Field {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Field {
        let mut f = Field::default();
        each_kstruct_meta(cx, attrs, |meta| {
            let span = meta.path.span();
            let key = path_name(&meta.path);
            match key.as_str() {
                "optional" => set_flag(meta, &mut f.optional, "optional"),
                "required" => set_flag(meta, &mut f.required, "required"),
                "immutable" => set_flag(meta, &mut f.immutable, "immutable"),
                "schemars" => set_flag(meta, &mut f.schemars, "schemars"),
                "schema_with" => {
                    let value = meta.value()?;
                    let path: syn::Path = if value.peek(LitStr) {
                        value.parse::<LitStr>()?.parse()?
                    } else {
                        value.parse()?
                    };
                    set_once(meta, &mut f.schema_with, Spanned { value: path, span }, "schema_with")
                }
                "schema_as" => {
                    let value = meta.value()?;
                    let ty: syn::Type = if value.peek(LitStr) {
                        value.parse::<LitStr>()?.parse()?
                    } else {
                        value.parse()?
                    };
                    set_once(meta, &mut f.schema_as, Spanned { value: ty, span }, "schema_as")
                }
                _ => parse_node_key(cx, meta, &mut f.node, Place::Field),
            }
        });
        f
    }
}

impl Variant {
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Variant {
        let mut v = Variant::default();
        each_kstruct_meta(cx, attrs, |meta| parse_node_key(cx, meta, &mut v.node, Place::Variant));
        v
    }
}

fn path_name(path: &syn::Path) -> String {
    path.get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| path.to_token_stream().to_string().replace(' ', ""))
}

fn set_flag(meta: &ParseNestedMeta, slot: &mut Option<Span>, name: &str) -> syn::Result<()> {
    let span = meta.path.span();
    let on = if meta.input.peek(Token![=]) {
        meta.value()?.parse::<LitBool>()?.value
    } else {
        true
    };
    if slot.is_some() {
        return Err(meta.error(format!("duplicate kstruct attribute `{name}`")));
    }
    if on {
        *slot = Some(span);
    }
    Ok(())
}

fn set_once<T>(meta: &ParseNestedMeta, slot: &mut Option<T>, value: T, name: &str) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!("duplicate kstruct attribute `{name}`")));
    }
    *slot = Some(value);
    Ok(())
}

/// The keys every schema node accepts.
fn parse_node_key(cx: &Ctxt, meta: &ParseNestedMeta, node: &mut Node, place: Place) -> syn::Result<()> {
    let span = meta.path.span();
    let key = path_name(&meta.path);
    macro_rules! once {
        ($slot:expr, $value:expr) => {{
            let value = $value;
            set_once(meta, &mut $slot, Spanned { value, span }, &key)
        }};
    }
    match key.as_str() {
        "description" => once!(node.description, meta.value()?.parse::<LitStr>()?),
        "title" => once!(node.title, meta.value()?.parse::<LitStr>()?),
        "default" => {
            if matches!(place, Place::Items | Place::Variant) {
                return Err(meta.error(format!(
                    "`default` on {}: a default applies to a field the object lacks (or to a type), and {} never is one",
                    place.what(),
                    if place == Place::Items { "an array item" } else { "a variant" }
                )));
            }
            let value = meta.value()?;
            once!(node.default, expression(value)?)
        }
        "example" => {
            let value = meta.value()?;
            once!(node.example, expression(value)?)
        }
        "nullable" => set_flag(meta, &mut node.nullable, "nullable"),
        "type" => {
            let lit = meta.value()?.parse::<LitStr>()?;
            let t = lit.value();
            if !["object", "array", "string", "integer", "number", "boolean"].contains(&t.as_str()) {
                return Err(syn::Error::new(
                    lit.span(),
                    format!(
                        "`type` must be one of \"object\", \"array\", \"string\", \"integer\", \"number\", \"boolean\" (the API server's types), not {t:?}"
                    ),
                ));
            }
            once!(node.type_, t)
        }
        "format" => once!(node.format, meta.value()?.parse::<LitStr>()?.value()),
        "minimum" => once!(node.minimum, number(meta.value()?, &key)?),
        "maximum" => once!(node.maximum, number(meta.value()?, &key)?),
        "exclusive_minimum" => {
            let on = flag_value(meta)?;
            once!(node.exclusive_minimum, on)
        }
        "exclusive_maximum" => {
            let on = flag_value(meta)?;
            once!(node.exclusive_maximum, on)
        }
        "multiple_of" => {
            let v = number(meta.value()?, &key)?;
            if v <= 0.0 {
                return Err(meta.error("`multiple_of` must be greater than 0"));
            }
            once!(node.multiple_of, v)
        }
        "min_length" => once!(node.min_length, count(meta.value()?, &key)?),
        "max_length" => once!(node.max_length, count(meta.value()?, &key)?),
        "min_items" => once!(node.min_items, count(meta.value()?, &key)?),
        "max_items" => once!(node.max_items, count(meta.value()?, &key)?),
        "min_properties" => once!(node.min_properties, count(meta.value()?, &key)?),
        "max_properties" => once!(node.max_properties, count(meta.value()?, &key)?),
        "pattern" => {
            let lit = meta.value()?.parse::<LitStr>()?;
            if let Err(e) = kstruct_schema::regexp::check(&lit.value()) {
                // The API server's words: `must be a valid regular expression, but isn't: ...`.
                cx.error_spanned_by(
                    &lit,
                    format!("`pattern` must be a valid regular expression (Go's syntax, as the API server compiles it), but isn't: {e}"),
                );
            }
            once!(node.pattern, lit)
        }
        "enum" => {
            let value = meta.value()?;
            let content;
            syn::bracketed!(content in value);
            let mut items = Vec::new();
            while !content.is_empty() {
                items.push(expression(&content)?);
                if content.is_empty() {
                    break;
                }
                content.parse::<Token![,]>()?;
            }
            if items.is_empty() {
                return Err(meta.error("`enum` needs at least one value (the API server drops an empty enum)"));
            }
            once!(node.enum_, items)
        }
        "unique_items" => Err(meta.error(
            "the API server refuses `uniqueItems: true` (its cost is quadratic): use `list_type = \"set\"`, which it checks instead",
        )),
        "items" => {
            if node.items.is_some() {
                return Err(meta.error("duplicate kstruct attribute `items`"));
            }
            let mut items = Node::default();
            each_nested(cx, meta, |inner| parse_node_key(cx, inner, &mut items, Place::Items))?;
            node.items = Some(Spanned {
                value: Box::new(items),
                span,
            });
            Ok(())
        }
        "preserve_unknown_fields" => set_flag(meta, &mut node.preserve_unknown_fields, &key),
        "embedded_resource" => set_flag(meta, &mut node.embedded_resource, &key),
        "int_or_string" => set_flag(meta, &mut node.int_or_string, &key),
        "list_type" => {
            let lit = meta.value()?.parse::<LitStr>()?;
            let v = lit.value();
            if !["atomic", "set", "map"].contains(&v.as_str()) {
                return Err(syn::Error::new(
                    lit.span(),
                    format!("`list_type` must be \"atomic\", \"set\" or \"map\", not {v:?}"),
                ));
            }
            once!(node.list_type, v)
        }
        "list_map_keys" => {
            let keys = string_list(meta.value()?)?;
            if keys.is_empty() {
                return Err(meta.error("`list_map_keys` needs at least one key"));
            }
            once!(node.list_map_keys, keys)
        }
        "list_map_key" => {
            // controller-gen's repeatable `+listMapKey=name`.
            let key = meta.value()?.parse::<LitStr>()?.value();
            let keys = node.list_map_keys.get_or_insert_with(|| Spanned { value: Vec::new(), span });
            keys.value.push(key);
            Ok(())
        }
        "map_type" | "struct_type" => {
            let lit = meta.value()?.parse::<LitStr>()?;
            let v = lit.value();
            if !["atomic", "granular"].contains(&v.as_str()) {
                return Err(syn::Error::new(
                    lit.span(),
                    format!("`map_type` must be \"atomic\" or \"granular\", not {v:?}"),
                ));
            }
            set_once(meta, &mut node.map_type, Spanned { value: v, span }, "map_type")
        }
        "validation" => {
            let rule = parse_rule(cx, meta)?;
            node.validations.push(rule);
            Ok(())
        }
        "external_docs" => {
            let mut url = None;
            let mut description = None;
            each_nested(cx, meta, |inner| {
                if inner.path.is_ident("url") {
                    url = Some(inner.value()?.parse::<LitStr>()?);
                } else if inner.path.is_ident("description") {
                    description = Some(inner.value()?.parse::<LitStr>()?);
                } else {
                    return Err(inner.error("expected `url = \"...\"` or `description = \"...\"`"));
                }
                Ok(())
            })?;
            let Some(url) = url else {
                return Err(meta.error("`external_docs` needs `url = \"...\"`"));
            };
            once!(node.external_docs, (url, description))
        }
        "at_most_one_of" | "exactly_one_of" | "at_least_one_of" => {
            if place != Place::Container {
                return Err(meta.error(format!(
                    "`{key}` is a container attribute: it names fields of the struct it is on"
                )));
            }
            let fields = string_list(meta.value()?)?;
            if fields.len() < 2 {
                return Err(meta.error(format!("`{key}` needs at least two field names")));
            }
            if let Some(f) = fields
                .iter()
                .find(|f| kstruct_cel::escape_property(f).is_none())
            {
                return Err(meta.error(format!("`{f}` in `{key}` cannot be named in a CEL rule")));
            }
            let which = match key.as_str() {
                "at_most_one_of" => "at_most",
                "exactly_one_of" => "exactly",
                _ => "at_least",
            };
            node.one_of_fields.push(Spanned {
                value: (which, fields),
                span,
            });
            Ok(())
        }
        _ => Err(meta.error(format!(
            "unknown kstruct {} attribute `{key}`{}",
            place.what(),
            hint(&key, place)
        ))),
    }
}

/// The keys every schema node takes.
const NODE_KEYS: &[&str] = &[
    "description",
    "title",
    "default",
    "example",
    "nullable",
    "type",
    "format",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "multiple_of",
    "min_length",
    "max_length",
    "min_items",
    "max_items",
    "min_properties",
    "max_properties",
    "pattern",
    "enum",
    "items",
    "preserve_unknown_fields",
    "embedded_resource",
    "int_or_string",
    "list_type",
    "list_map_keys",
    "list_map_key",
    "map_type",
    "struct_type",
    "validation",
    "external_docs",
];

/// The keys of fields only.
const FIELD_KEYS: &[&str] = &[
    "optional",
    "required",
    "immutable",
    "schemars",
    "schema_with",
    "schema_as",
];

/// The keys of types only (besides the resource keys).
const CONTAINER_KEYS: &[&str] = &["at_most_one_of", "exactly_one_of", "at_least_one_of", "crate"];

/// A hint for keys people reach for from other tools, or a misspelt key's right spelling.
fn hint(key: &str, place: Place) -> String {
    let h = match key {
        "rename" | "rename_all" | "skip" | "flatten" | "alias" | "tag" | "untagged" => {
            "; serde's attributes are read from #[serde(...)]"
        }
        "optional" | "required" | "immutable" | "schema_with" | "schema_as" | "schemars" if place != Place::Field => {
            "; it is a field attribute"
        }
        "crate" => "; it is a container attribute",
        "regex" => "; use `pattern = \"...\"`",
        "length" => "; use `min_length`/`max_length`",
        "range" => "; use `minimum`/`maximum`",
        "x_kubernetes_preserve_unknown_fields" => "; use `preserve_unknown_fields`",
        "merge_strategy" => "; use `list_type`, `list_map_keys` or `map_type`",
        // kube-rs' `#[kube(...)]` keys that kstruct spells otherwise.
        "struct" => "; kube-rs' `struct` is `root = \"Name\"` here",
        "crates" => "; kube-rs' `crates(...)` is `crate = \"path::to::kstruct\"` here",
        "apiextensions" => "; kstruct writes `apiextensions.k8s.io/v1` CRDs only",
        "schema" => {
            "; the schema always comes from the types: for a free-form subtree, use `preserve_unknown_fields` on the field"
        }
        "rule" | "rules" => "; a rule is `validation(rule = \"...\", message = \"...\")`",
        _ => "",
    };
    if !h.is_empty() {
        return h.to_owned();
    }
    // A misspelling: the closest key of any place (the message says where it belongs).
    let mut keys: Vec<&str> = NODE_KEYS.to_vec();
    keys.extend(FIELD_KEYS);
    keys.extend(CONTAINER_KEYS);
    if place == Place::Container {
        keys.extend(super::resource::KEYS);
    }
    let Some(m) = kstruct_schema::suggest::did_you_mean(key, &keys) else {
        return String::new();
    };
    let elsewhere = if FIELD_KEYS.contains(&m) && place != Place::Field {
        ", a field attribute"
    } else if CONTAINER_KEYS.contains(&m) && place != Place::Container {
        ", a container attribute"
    } else {
        ""
    };
    format!(" (did you mean `{m}`{elsewhere}?)")
}

fn flag_value(meta: &ParseNestedMeta) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) {
        Ok(meta.value()?.parse::<LitBool>()?.value)
    } else {
        Ok(true)
    }
}

/// A number literal, possibly negative.
fn number(input: ParseStream, key: &str) -> syn::Result<f64> {
    let wrong = |e: syn::Error| {
        syn::Error::new(
            e.span(),
            format!("`{key}` needs a number literal (`{key} = 1`, `{key} = -0.5`)"),
        )
    };
    let negative = input.parse::<Option<Token![-]>>()?.is_some();
    let v = if input.peek(LitFloat) {
        input.parse::<LitFloat>()?.base10_parse::<f64>().map_err(wrong)?
    } else {
        let lit = input.parse::<LitInt>().map_err(wrong)?;
        lit.base10_parse::<i128>().map_err(wrong)? as f64
    };
    Ok(if negative { -v } else { v })
}

/// A non-negative integer literal.
fn count(input: ParseStream, key: &str) -> syn::Result<u64> {
    let wrong = |e: syn::Error| syn::Error::new(e.span(), format!("`{key}` needs a non-negative integer literal"));
    if input.peek(Token![-]) {
        return Err(wrong(input.error("negative")));
    }
    let lit = input.parse::<LitInt>().map_err(wrong)?;
    lit.base10_parse::<u64>().map_err(wrong)
}

/// `["a", "b"]`.
fn string_list(input: ParseStream) -> syn::Result<Vec<String>> {
    let content;
    syn::bracketed!(content in input);
    let lits = content.parse_terminated(|p| p.parse::<LitStr>(), Token![,])?;
    Ok(lits.into_iter().map(|l| l.value()).collect())
}

/// The tokens of one expression, up to the next `,` outside brackets and turbofish generics.
/// Expressions are not parsed here: they are put back into the generated code, where the
/// compiler reads them (and reports their errors at their own spans).
fn expression(input: ParseStream) -> syn::Result<TokenStream> {
    let mut tokens = TokenStream::new();
    let mut angle_depth = 0usize;
    let mut after_path_sep = false;
    input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tt, next)) = rest.token_tree() {
            if let TokenTree::Punct(p) = &tt {
                match p.as_char() {
                    ',' if angle_depth == 0 => break,
                    '<' if after_path_sep || angle_depth > 0 => angle_depth += 1,
                    '>' if angle_depth > 0 => angle_depth -= 1,
                    _ => {}
                }
                // The second ':' of `::` (a turbofish's `<` follows it).
                after_path_sep = p.as_char() == ':' && p.spacing() == proc_macro2::Spacing::Alone;
            } else {
                after_path_sep = false;
            }
            tokens.extend([tt]);
            rest = next;
        }
        Ok(((), rest))
    })?;
    if tokens.is_empty() {
        return Err(input.error("expected an expression"));
    }
    Ok(tokens)
}

fn parse_rule(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Rule> {
    let span = meta.path.span();
    let mut rule: Option<LitStr> = None;
    let mut message: Option<LitStr> = None;
    let mut message_expression: Option<LitStr> = None;
    let mut reason = None;
    let mut field_path = None;
    let mut optional_old_self = None;
    if meta.input.peek(Token![=]) {
        // `validation = "rule"`, or kube-rs' `validation = Rule::new("...").message(...)`.
        let value = meta.value()?;
        if value.peek(LitStr) {
            rule = Some(value.parse()?);
        } else {
            let expr = expression(value)?;
            return Err(syn::Error::new(
                expr.span(),
                format!(
                    "kube-rs' `Rule` is not read here: write {}",
                    super::kube::rule_attribute(&expr)
                ),
            ));
        }
    } else {
        each_nested(cx, meta, |inner| {
            let key = path_name(&inner.path);
            match key.as_str() {
                "rule" => rule = Some(inner.value()?.parse()?),
                "message" => message = Some(inner.value()?.parse()?),
                "message_expression" => message_expression = Some(inner.value()?.parse()?),
                "reason" => {
                    let lit: LitStr = inner.value()?.parse()?;
                    const REASONS: [&str; 4] = [
                        "FieldValueRequired",
                        "FieldValueInvalid",
                        "FieldValueForbidden",
                        "FieldValueDuplicate",
                    ];
                    if !REASONS.contains(&lit.value().as_str()) {
                        cx.error_spanned_by(
                            &lit,
                            format!(
                                "`reason` must be one of FieldValueRequired, FieldValueInvalid, FieldValueForbidden, FieldValueDuplicate (the API server's reasons), not {:?}",
                                lit.value()
                            ),
                        );
                    }
                    reason = Some(lit);
                }
                "field_path" => field_path = Some(inner.value()?.parse()?),
                "optional_old_self" => optional_old_self = Some(flag_value(inner)?),
                _ => {
                    const KEYS: &[&str] = &[
                        "rule",
                        "message",
                        "message_expression",
                        "reason",
                        "field_path",
                        "optional_old_self",
                    ];
                    let hint = kstruct_schema::suggest::did_you_mean(&key, KEYS)
                        .map(|m| format!(" (did you mean `{m}`?)"))
                        .unwrap_or_default();
                    return Err(inner.error(format!(
                        "unknown key `{key}` in `validation(...)`{hint}: expected rule, message, message_expression, reason, field_path or optional_old_self"
                    )));
                }
            }
            Ok(())
        })?;
    }
    let Some(rule) = rule else {
        return Err(meta.error("`validation(...)` needs `rule = \"...\"` (a CEL expression)"));
    };
    if rule.value().trim().is_empty() {
        cx.error_spanned_by(&rule, "the rule is empty (the API server requires a CEL expression)");
    } else if let Err(e) = kstruct_cel::check(&rule.value()) {
        cx.error_spanned_by(
            &rule,
            format!("the rule is not valid CEL (the API server refuses it):\n{e}"),
        );
    }
    if let Some(m) = &message_expression
        && let Err(e) = kstruct_cel::check(&m.value())
    {
        cx.error_spanned_by(
            m,
            format!("`message_expression` is not valid CEL (the API server refuses it):\n{e}"),
        );
    }
    if optional_old_self.is_some() && !rule.value().contains("oldSelf") {
        cx.syn_error(syn::Error::new(
            span,
            "`optional_old_self` is set but the rule does not use oldSelf (the API server refuses that)",
        ));
    }
    if let Some(m) = &message
        && m.value().contains('\n')
    {
        cx.error_spanned_by(m, "the API server refuses a message with a line break");
    }
    Ok(Rule {
        span,
        rule,
        message,
        message_expression,
        reason,
        field_path,
        optional_old_self,
    })
}
