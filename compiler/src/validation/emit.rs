//! Rust functions validating values at the nodes of a validation [`Graph`]: one function per
//! node and walk that has something to do, emitted on demand from the roots.
//!
//! A `check_N` function does at one node exactly what the interpreter's value validation does
//! there, with the node's checks fixed at compile time: no schema lookups, patterns compiled
//! once, enum lists decoded once. It also counts kube-openapi's matches (which failing
//! `anyOf`/`oneOf` branch is reported depends on them), in one addition per value.
//! `embedded_N` and `lists_N` are the walks of embedded resources and list types.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::graph::{Additional, Graph, Node, NodeId};
use crate::worklist::{Worklist, by_shape, doc, emit_all, guard_stack};

/// A walk over a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Walk {
    /// OpenAPI value validation.
    Check,
    /// Embedded resources' apiVersion, kind and metadata.
    Embedded,
    /// Duplicates of `set` and `map` lists.
    Lists,
}

/// Emits the validation functions the roots need.
pub struct Emitter<'g> {
    graph: &'g Graph,
    work: Worklist<Walk>,
    constants: BTreeSet<usize>,
    patterns: BTreeSet<usize>,
    /// Functions emitted so far.
    pub functions: usize,
}

impl<'g> Emitter<'g> {
    pub fn new(graph: &'g Graph) -> Emitter<'g> {
        Emitter {
            graph,
            work: Worklist::new(),
            constants: BTreeSet::new(),
            patterns: BTreeSet::new(),
            functions: 0,
        }
    }

    /// The function for `walk` over `node` (queued for emission), or `None` when the walk has
    /// nothing to do there.
    pub fn request(&mut self, walk: Walk, node: NodeId) -> Option<Ident> {
        let n = &self.graph.nodes[node];
        let needed = match walk {
            Walk::Check => true,
            Walk::Embedded => n.needs_embedded,
            Walk::Lists => n.needs_list_types,
        };
        if !needed {
            return None;
        }
        self.work.request(walk, node);
        Some(fn_name(walk, node))
    }

    /// Emits every queued function (and those they queue), then the constants they use.
    pub fn finish(mut self) -> (TokenStream, usize) {
        let functions = emit_all(&mut self, |e| &mut e.work, |e, walk, node| e.function(walk, node));
        self.functions = functions.len();
        let constants = self.constants.iter().map(|&c| {
            let name = format_ident!("ENUM_{c}");
            let text = Literal::string(&self.graph.constants[c]);
            quote! { static #name: rt::Constant = rt::Constant::new(#text); }
        });
        let patterns = self.patterns.iter().map(|&p| {
            let name = format_ident!("PATTERN_{p}");
            let text = Literal::string(&self.graph.patterns[p]);
            quote! { static #name: rt::Pattern = rt::Pattern::new(#text); }
        });
        let count = self.functions;
        (quote! { #(#constants)* #(#patterns)* #(#functions)* }, count)
    }

    fn node(&self, id: NodeId) -> &'g Node {
        &self.graph.nodes[id]
    }

    fn function(&mut self, walk: Walk, id: NodeId) -> TokenStream {
        let n = self.node(id);
        let name = fn_name(walk, id);
        let body = match walk {
            Walk::Check => self.check(id),
            Walk::Embedded => self.embedded(id),
            Walk::Lists => self.lists(id),
        };
        let what = match walk {
            Walk::Check => "Validates the value of",
            Walk::Embedded => "Validates the embedded resources in",
            Walk::Lists => "Finds duplicates in the set and map lists of",
        };
        let doc = doc(what, &n.first_seen, n.uses);
        let body = guard_stack(n.height, body);
        let signature = match walk {
            Walk::Check => quote! { (at: &rt::At<'_>, x: &Value, r: &mut rt::Res) },
            Walk::Embedded | Walk::Lists => quote! { (at: &rt::At<'_>, x: &Value, errs: &mut Vec<rt::FieldError>) },
        };
        quote! {
            #[doc = #doc]
            pub(super) fn #name #signature { #body }
        }
    }

    fn check_of(&mut self, id: NodeId) -> Ident {
        self.request(Walk::Check, id)
            .unwrap_or_else(|| fn_name(Walk::Check, id))
    }

    /// kube-openapi's checks at one node, in its order (see the interpreter's `value_inner`).
    fn check(&mut self, id: NodeId) -> TokenStream {
        let s = &self.node(id).shape;
        let types: Vec<&str> = s.types.iter().map(String::as_str).collect();
        let format = s.format.as_str();
        let format_checked = !format.is_empty();
        let enum_ = s.enum_.as_ref().map(|text| {
            let c = self.graph.constant_id(text);
            self.constants.insert(c);
            let name = format_ident!("ENUM_{c}");
            quote! { rt::enum_of(at, x, &#name, r); }
        });

        let null_type = (!types.is_empty() && !s.nullable).then(|| quote! { rt::null_type(at, &[#(#types),*], r); });
        let type_check = (!types.is_empty() || !format.is_empty())
            .then(|| quote! { rt::check_type(at, &[#(#types),*], #format, x, r); });

        let mut composites = Vec::new();
        for (list, helper) in [
            (&s.any_of, quote!(any_of)),
            (&s.one_of, quote!(one_of)),
            (&s.all_of, quote!(all_of)),
        ] {
            if !list.is_empty() {
                let fns: Vec<Ident> = list.iter().map(|&b| self.check_of(b)).collect();
                composites.push(quote! { rt::#helper(at, x, &[#(#fns),*], r); });
            }
        }
        if let Some(not) = s.not {
            let f = self.check_of(not);
            composites.push(quote! { rt::not(at, x, #f, r); });
        }

        // Strings: lengths, then the pattern unless a length failed; the format.
        let pattern = (!s.pattern.is_empty()).then(|| {
            let p = self.graph.pattern_index(&s.pattern);
            self.patterns.insert(p);
            let name = format_ident!("PATTERN_{p}");
            quote! { rt::pattern(at, text, &#name, r); }
        });
        let lengths = s.min_length.is_some() || s.max_length.is_some();
        let (min_len, max_len) = (opt_i64(s.min_length), opt_i64(s.max_length));
        let string = match (lengths, pattern) {
            (true, Some(p)) => Some(quote! { if rt::string_lengths(at, text, #min_len, #max_len, r) { #p } }),
            (true, None) => Some(quote! { rt::string_lengths(at, text, #min_len, #max_len, r); }),
            (false, p) => p,
        };
        let string = match (string, format_checked) {
            (None, false) => None,
            (s, true) => Some(quote! { #s rt::format(at, #format, text, r); }),
            (s, false) => s,
        };
        let single_type = match types.as_slice() {
            [t] => *t,
            _ => "",
        };
        // The number validator's range check (see `kstruct::compiled::v1::NumberKind`).
        let kind = kstruct::compiled::v1::NumberKind::of(single_type, format);
        let numeric = s.multiple_of.is_some() || s.minimum.is_some() || s.maximum.is_some() || kind.checks_range();
        let number = numeric.then(|| {
            let f = |b: Option<u64>| match b {
                Some(bits) => {
                    let v = f64::from_bits(bits);
                    quote!(Some(#v))
                }
                None => quote!(None),
            };
            let (multiple_of, minimum, maximum) = (f(s.multiple_of), f(s.minimum), f(s.maximum));
            let (emin, emax) = (s.exclusive_minimum, s.exclusive_maximum);
            let kind = format_ident!("{kind:?}");
            quote! {
                rt::number(at, x, &rt::Numeric {
                    multiple_of: #multiple_of,
                    minimum: #minimum,
                    exclusive_minimum: #emin,
                    maximum: #maximum,
                    exclusive_maximum: #emax,
                    kind: rt::NumberKind::#kind,
                }, r);
            }
        });
        let mut array = Vec::new();
        if let Some(items) = s.items {
            let f = self.check_of(items);
            array.push(quote! {
                for (i, item) in items.iter().enumerate() {
                    #f(&at.index(i), item, r);
                }
            });
        }
        if s.min_items.is_some() || s.max_items.is_some() {
            let (min, max) = (opt_i64(s.min_items), opt_i64(s.max_items));
            array.push(quote! { rt::item_counts(at, items.len(), #min, #max, r); });
        }
        if s.unique_items {
            array.push(quote! { rt::unique_items(at, items, r); });
        }
        let mut arms = Vec::new();
        if let Some(string) = string {
            arms.push((quote!(Value::String(text)), string));
        }
        if let Some(number) = number {
            arms.push((quote!(Value::Number(_)), number));
        }
        if !array.is_empty() {
            arms.push((quote!(Value::Array(items)), quote! { #(#array)* }));
        }
        let by_kind = match arms.as_slice() {
            [] => None,
            [(pattern, body)] => Some(quote! { if let #pattern = x { #body } }),
            arms => {
                let arms = arms.iter().map(|(p, b)| quote! { #p => { #b } });
                Some(quote! { match x { #(#arms)* _ => {} } })
            }
        };

        let object = self.object(id);
        let object = object.map(|o| quote! { if let Value::Object(map) = x { #o } });

        // Matches: the type check counts its own; every non-null value then counts 1 for the
        // type step (when there is one), 1 for the composites, 1 for enum and 1 at the end,
        // plus its kind's: strings 1 (2 with a format), numbers 2 (1 when `number` counted
        // one), arrays 2, objects 1.
        let fixed = 3 + usize::from(type_check.is_some());
        let string_count = 1 + usize::from(format_checked);
        let number_count = if numeric { 1 } else { 2 };
        let (fixed, string_count, number_count) = (
            Literal::usize_unsuffixed(fixed),
            Literal::usize_unsuffixed(string_count),
            Literal::usize_unsuffixed(number_count),
        );
        // A node without checks only counts.
        let uses_at = null_type.is_some()
            || type_check.is_some()
            || !composites.is_empty()
            || by_kind.is_some()
            || enum_.is_some()
            || object.is_some();
        let unused = (!uses_at).then(|| quote! { let _ = at; });
        quote! {
            #unused
            if x.is_null() {
                #null_type
                #enum_
                return;
            }
            #type_check
            #(#composites)*
            #by_kind
            #enum_
            #object
            rt::count(r, x, #fixed, #string_count, #number_count);
        }
    }

    /// The object checks of a node (`None` when it has none).
    fn object(&mut self, id: NodeId) -> Option<TokenStream> {
        let s = &self.node(id).shape;
        let mut out = Vec::new();
        if s.min_properties.is_some() || s.max_properties.is_some() {
            let (min, max) = (opt_i64(s.min_properties), opt_i64(s.max_properties));
            out.push(quote! { rt::property_counts(at, map.len(), #min, #max, r); });
        }
        let declared: Vec<&str> = s.properties.iter().map(|(k, _)| k.as_str()).collect();
        let undeclared = |body: TokenStream, binding: TokenStream, iter: TokenStream| {
            if declared.is_empty() {
                quote! { for #binding in #iter { #body } }
            } else {
                quote! {
                    for #binding in #iter {
                        match k.as_str() {
                            #(#declared)|* => {}
                            _ => { #body }
                        }
                    }
                }
            }
        };
        match s.additional {
            Additional::Bool(false) => {
                out.push(undeclared(
                    quote! { rt::forbidden_property(at, k, r); },
                    quote!(k),
                    quote!(map.keys()),
                ));
            }
            Additional::Schema(ap) => {
                let f = self.check_of(ap);
                out.push(undeclared(
                    quote! { #f(&at.key(k), v, r); },
                    quote!((k, v)),
                    quote!(map),
                ));
            }
            Additional::Bool(true) | Additional::None => {}
        }
        if !s.properties.is_empty() {
            let properties: Vec<TokenStream> = s
                .properties
                .iter()
                .map(|(k, child)| {
                    let f = self.check_of(*child);
                    quote! { (#k, #f) }
                })
                .collect();
            out.push(quote! { rt::properties(at, map, &[#(#properties),*], r); });
        }
        if !s.required.is_empty() {
            let required = &s.required;
            out.push(quote! { rt::required_properties(at, map, &[#(#required),*], r); });
        }
        (!out.is_empty()).then(|| quote! { #(#out)* })
    }

    /// The dispatch of the embedded and list-type walks into the children that need them.
    fn descend(&mut self, walk: Walk, id: NodeId) -> (Option<TokenStream>, Option<TokenStream>) {
        let s = &self.node(id).shape;
        let mut arms = Vec::new();
        let mut idle = Vec::new();
        let mut single = Vec::new();
        for (k, child) in &s.properties {
            match self.request(walk, *child) {
                Some(f) => {
                    arms.push(quote! { #k => #f(&at.child(k), v, errs), });
                    single.push((k.clone(), f));
                }
                None => idle.push(k.as_str()),
            }
        }
        let fallback = match s.additional {
            Additional::Schema(ap) => self.request(walk, ap).map(|f| quote! { #f(&at.key(k), v, errs) }),
            _ => None,
        };
        let object = match fallback {
            None if arms.is_empty() => None,
            // One property to follow: a lookup (a `match` of one arm reads worse).
            None if arms.len() == 1 => {
                let (k, f) = &single[0];
                Some(quote! {
                    if let Some(v) = map.get(#k) {
                        #f(&at.child(#k), v, errs);
                    }
                })
            }
            None => Some(quote! {
                for (k, v) in map {
                    match k.as_str() {
                        #(#arms)*
                        _ => {}
                    }
                }
            }),
            Some(fallback) if arms.is_empty() && idle.is_empty() => Some(quote! {
                for (k, v) in map {
                    #fallback;
                }
            }),
            Some(fallback) => {
                let idle = (!idle.is_empty()).then(|| quote! { #(#idle)|* => {} });
                Some(quote! {
                    for (k, v) in map {
                        match k.as_str() {
                            #(#arms)*
                            #idle
                            _ => #fallback,
                        }
                    }
                })
            }
        };
        let array = s.items.and_then(|items| {
            let f = self.request(walk, items)?;
            Some(quote! {
                for (i, v) in items.iter().enumerate() {
                    #f(&at.index(i), v, errs);
                }
            })
        });
        (object, array)
    }

    fn embedded(&mut self, id: NodeId) -> TokenStream {
        let embedded = self.node(id).shape.embedded;
        let (descend, array) = self.descend(Walk::Embedded, id);
        let resource = embedded.then(|| quote! { rt::embedded_resource(at, map, errs); });
        let object = (embedded || descend.is_some()).then(|| quote! { #resource #descend });
        by_shape(object, array, quote!((at, x, errs)))
    }

    fn lists(&mut self, id: NodeId) -> TokenStream {
        let s = &self.node(id).shape;
        let (object, below) = self.descend(Walk::Lists, id);
        let array = match s.list_type.as_deref() {
            Some("set") => Some(quote! { rt::list_set(at, items, errs); #below }),
            Some("map") => {
                let keys = &s.list_map_keys;
                // A list of non-objects is reported once, and nothing below it.
                Some(match below {
                    Some(below) => quote! {
                        if rt::list_map(at, &[#(#keys),*], items, errs) {
                            #below
                        }
                    },
                    None => quote! { rt::list_map(at, &[#(#keys),*], items, errs); },
                })
            }
            _ => below,
        };
        by_shape(object, array, quote!((at, x, errs)))
    }
}

fn opt_i64(v: Option<i64>) -> TokenStream {
    match v {
        Some(n) => quote!(Some(#n)),
        None => quote!(None),
    }
}

fn fn_name(walk: Walk, node: NodeId) -> Ident {
    let prefix = match walk {
        Walk::Check => "check",
        Walk::Embedded => "embedded",
        Walk::Lists => "lists",
    };
    format_ident!("{prefix}_{node}")
}

#[cfg(test)]
mod tests {
    use crate::Config;

    fn generate(yaml: &str) -> String {
        let schema = kstruct::schema::convert::from_text(yaml).unwrap().unwrap();
        Config::new().schema("s", &schema).generate().unwrap()
    }

    #[test]
    fn patterns_and_enums_are_compiled_once_for_all_their_uses() {
        let code = generate(
            "type: object
properties:
  a: {type: string, pattern: '^[a-z]+$', enum: [x, y]}
  b: {type: string, pattern: '^[a-z]+$', enum: [x, y], maxLength: 3}
  c: {type: integer, enum: [1, 2.5]}
",
        );
        assert_eq!(code.matches("static PATTERN_").count(), 1, "{code}");
        assert_eq!(code.matches("static ENUM_").count(), 2, "{code}");
        assert!(code.contains(r#"rt::Pattern::new("^[a-z]+$")"#), "{code}");
        assert!(code.contains(r#"rt::Constant::new("[1,2.5]")"#), "{code}");
        // b checks its length first: the pattern only when the length passed.
        assert!(
            code.contains("if rt::string_lengths(at, text, None, Some(3i64), r) {"),
            "{code}"
        );
    }

    #[test]
    fn walks_of_embedded_resources_and_list_types_only_where_needed() {
        let code = generate(
            "type: object
properties:
  plain: {type: object, properties: {x: {type: string}}}
  lists:
    type: object
    properties:
      tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
      other: {type: string}
  template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
",
        );
        // Root, `lists` and `tags` for list types; root and `template` for embedded resources.
        assert_eq!(code.matches("fn lists_").count(), 3, "{code}");
        assert_eq!(code.matches("fn embedded_").count(), 2, "{code}");
        assert!(code.contains("rt::list_set(at, items, errs);"), "{code}");
        assert!(code.contains("rt::embedded_resource(at, map, errs);"), "{code}");
        let plain = generate("type: object\nproperties:\n  x: {type: string}\n");
        assert!(
            plain.contains("rt::validate(value, super::__nodes::check_1, None, None)"),
            "{plain}"
        );
    }

    #[test]
    fn composites_call_their_branches() {
        let code = generate(
            "type: object
properties:
  x: {type: integer}
anyOf: [{required: [x]}, {properties: {x: {minimum: 1}}}]
not: {required: [z]}
",
        );
        assert!(code.contains("rt::any_of(at, x, &[check_"), "{code}");
        assert!(code.contains("rt::not(at, x, check_"), "{code}");
        // Rules are reported for the whole pipeline: a schema without them keeps the trait's
        // `false`.
        assert!(!code.contains("fn has_validation_rules"), "{code}");
    }
}
