//! Rust functions for the nodes of a [`Graph`]: one function per node and walk that has
//! something to do, emitted on demand from the roots.
//!
//! Each function does at one schema node exactly what the interpreter does there, with the
//! node's keys in a `match`. Children that need no work get no call; leaf schemas (scalars)
//! prune through one shared helper.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use crate::graph::{Additional, Graph, Node, NodeId};
use crate::worklist::{Worklist, by_shape, doc, emit_all, guard_stack};

mod fused;

/// A walk over a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Walk {
    /// Pruning (under `x-kubernetes-preserve-unknown-fields`, the skipping walk).
    Prune,
    /// Pruning the root of a resource: `apiVersion`, `kind` and `metadata` stay.
    PruneResource,
    /// Pruning reached through the `items` of a node that preserves unknown fields: unknown
    /// fields stay here too.
    Skip,
    /// Dropping non-nullable nulls without defaults.
    Nulls,
    /// Defaulting.
    Default,
    /// Coercing embedded resources.
    Coerce,
    /// Pruning, dropping nulls and defaulting in one walk: at each node what the three walks
    /// do there, one after the other (see [`fused`](Emitter::fused)).
    All,
    /// [`Walk::All`] at the root of a resource: `apiVersion`, `kind` and `metadata` are not
    /// pruned.
    AllResource,
    /// [`Walk::All`] reached through the `items` of a node that preserves unknown fields.
    AllSkip,
}

/// Emits the node functions the roots need.
pub struct Emitter<'g> {
    graph: &'g Graph,
    work: Worklist<Walk>,
    constants: BTreeSet<usize>,
    /// Functions emitted so far.
    pub functions: usize,
}

impl<'g> Emitter<'g> {
    pub fn new(graph: &'g Graph) -> Emitter<'g> {
        Emitter {
            graph,
            work: Worklist::new(),
            constants: BTreeSet::new(),
            functions: 0,
        }
    }

    /// The function for `walk` over `node` (queued for emission), or `None` when the walk has
    /// nothing to do there.
    pub fn request(&mut self, walk: Walk, node: NodeId) -> Option<Ident> {
        let n = &self.graph.nodes[node];
        let walk = match walk {
            // Under preserve-unknown-fields the plain walk is the skipping walk.
            Walk::Skip if n.shape.preserve => Walk::Prune,
            Walk::PruneResource if n.shape.embedded => Walk::Prune,
            Walk::AllSkip if n.shape.preserve => Walk::All,
            Walk::AllResource if n.shape.embedded => Walk::All,
            w => w,
        };
        let needed = match walk {
            Walk::Prune => !n.leaf,
            Walk::PruneResource => true,
            // A leaf under a skipping walk keeps everything.
            Walk::Skip => !n.leaf,
            Walk::Nulls => n.needs_nulls,
            Walk::Default => n.needs_default,
            Walk::Coerce => n.needs_coerce,
            Walk::All | Walk::AllSkip => !n.leaf,
            Walk::AllResource => true,
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
            let name = const_name(c);
            let text = Literal::string(&self.graph.constants[c]);
            quote! { static #name: rt::Constant = rt::Constant::new(#text); }
        });
        let count = self.functions;
        (quote! { #(#constants)* #(#functions)* }, count)
    }

    fn node(&self, id: NodeId) -> &'g Node {
        &self.graph.nodes[id]
    }

    fn constant(&mut self, id: usize) -> Ident {
        self.constants.insert(id);
        const_name(id)
    }

    fn function(&mut self, walk: Walk, id: NodeId) -> TokenStream {
        let n = self.node(id);
        let name = fn_name(walk, id);
        let body = match walk {
            Walk::Prune if n.shape.preserve => self.skip(id, false),
            Walk::Prune => self.prune(id, false),
            Walk::PruneResource if n.shape.preserve => self.skip(id, true),
            Walk::PruneResource => self.prune(id, true),
            Walk::Skip => self.skip(id, false),
            Walk::Nulls => self.nulls(id),
            Walk::Default => self.default(id),
            Walk::Coerce => self.coerce(id),
            Walk::All => self.fused(id, n.shape.preserve, false),
            Walk::AllResource => self.fused(id, n.shape.preserve, true),
            Walk::AllSkip => self.fused(id, true, false),
        };
        let what = match walk {
            Walk::Prune | Walk::Skip if n.shape.preserve => "Prunes (keeping unknown fields)",
            Walk::Prune => "Prunes",
            Walk::PruneResource => "Prunes, as a resource root,",
            Walk::Skip => "Prunes (keeping unknown fields, below x-kubernetes-preserve-unknown-fields)",
            Walk::Nulls => "Drops non-nullable nulls without defaults in",
            Walk::Default => "Defaults",
            Walk::Coerce => "Coerces embedded resources in",
            Walk::All | Walk::AllSkip => "Prunes, drops non-nullable nulls without defaults in and defaults",
            Walk::AllResource => "Prunes as a resource root, drops non-nullable nulls without defaults in and defaults",
        };
        let doc = doc(what, &n.first_seen, n.uses);
        // Every few levels a walk makes sure it has stack room for the levels below.
        let body = guard_stack(n.height, body);
        let signature = match walk {
            Walk::Prune | Walk::PruneResource | Walk::Skip | Walk::All | Walk::AllResource | Walk::AllSkip => {
                quote! { (x: &mut Value, cx: &mut rt::Pruner) }
            }
            Walk::Nulls | Walk::Default => quote! { (x: &mut Value) },
            Walk::Coerce => {
                quote! { (at: &rt::At<'_>, x: &mut Value, cx: &mut rt::Coercer) -> Result<(), rt::FieldError> }
            }
        };
        quote! {
            #[doc = #doc]
            pub(super) fn #name #signature { #body }
        }
    }

    /// The pruning walk (the reference's `prune`) at a node that does not preserve unknown
    /// fields.
    fn prune(&mut self, id: NodeId, resource: bool) -> TokenStream {
        let n = self.node(id);
        let embedded = resource || n.shape.embedded;
        // The closure says whether to keep each field.
        let mut arms = Arms::default();
        if embedded {
            arms.add_raw(quote! { "apiVersion" | "kind" | "metadata" => true, });
        }
        let mut uses_value = false;
        for (k, child) in &n.shape.properties {
            if embedded && is_meta_field(k) {
                continue;
            }
            let call = self.field_call(*child);
            arms.add(k, quote! {{ #call; true }});
            uses_value = true;
        }
        let fallback = match n.shape.additional {
            Additional::None => quote! {{ cx.unknown(k); false }},
            Additional::Bool => {
                uses_value = true;
                quote! {{ cx.no_schema_field(k, v); true }}
            }
            Additional::Schema(ap) => {
                uses_value = true;
                let call = self.field_call(ap);
                quote! {{ #call; true }}
            }
        };
        let keep = if arms.is_empty() {
            fallback
        } else {
            let arms = arms.tokens();
            quote! {
                match k {
                    #arms
                    _ => #fallback,
                }
            }
        };
        let value = if uses_value { quote!(v) } else { quote!(_) };
        let object = quote! { rt::retain(map, &mut |k, #value| #keep); };
        let array = self.elements_call(n.shape.items);
        by_shape(Some(object), Some(array), quote!(x))
    }

    /// Pruning of field `k`'s value `v` with schema `child`.
    fn field_call(&mut self, child: NodeId) -> TokenStream {
        match self.request(Walk::Prune, child) {
            Some(f) => quote! { cx.field(k, v, #f) },
            None => quote! { cx.leaf_field(k, v) },
        }
    }

    /// Pruning of the elements of array `items` with schema `child`.
    fn elements_call(&mut self, child: Option<NodeId>) -> TokenStream {
        match child {
            None => quote! { cx.no_schema_elements(items); },
            Some(c) => match self.request(Walk::Prune, c) {
                Some(f) => each_element(&f),
                None => quote! { cx.leaf_elements(items); },
            },
        }
    }

    /// The reference's `skipPrune`: unknown fields stay, specified ones are pruned, list
    /// elements are walked the same way.
    fn skip(&mut self, id: NodeId, resource: bool) -> TokenStream {
        let n = self.node(id);
        let embedded = resource || n.shape.embedded;
        let mut arms = Arms::default();
        for (k, child) in &n.shape.properties {
            if embedded && is_meta_field(k) {
                continue;
            }
            let call = self.field_call(*child);
            arms.add(k, call);
        }
        let fallback = match n.shape.additional {
            Additional::None => None,
            Additional::Bool => Some(quote! { cx.no_schema_field(k, v) }),
            Additional::Schema(ap) => Some(self.field_call(ap)),
        };
        let object = match fallback {
            None if arms.is_empty() => None,
            // Unknown keys stay: only the properties are walked.
            None => {
                let body = if arms.grouped.len() == 1 {
                    let (_, keys, body) = &arms.grouped[0];
                    quote! {
                        if matches!(k.as_str(), #(#keys)|*) {
                            #body;
                        }
                    }
                } else {
                    let arms = arms.tokens();
                    quote! {
                        match k.as_str() {
                            #arms
                            _ => {}
                        }
                    }
                };
                Some(body)
            }
            Some(fallback) if arms.is_empty() && !embedded => Some(quote! { #fallback; }),
            Some(fallback) => {
                if embedded {
                    arms.add_raw(quote! { "apiVersion" | "kind" | "metadata" => {} });
                }
                let arms = arms.tokens();
                Some(quote! {
                    match k.as_str() {
                        #arms
                        _ => #fallback,
                    }
                })
            }
        }
        .map(|body| {
            quote! {
                for (k, v) in map.iter_mut() {
                    #body
                }
            }
        });
        let array = n.shape.items.and_then(|items| {
            let f = self.request(Walk::Skip, items)?;
            Some(each_element(&f))
        });
        by_shape(object, array, quote!((x, cx)))
    }

    /// The reference's `PruneNonNullableNullsWithoutDefaults`.
    fn nulls(&mut self, id: NodeId) -> TokenStream {
        let n = self.node(id);
        let mut arms = Arms::default();
        let mut idle = Vec::new();
        for (k, child) in &n.shape.properties {
            match self.null_arm(*child) {
                Some(arm) => arms.add(k, arm),
                None => idle.push(k),
            }
        }
        let fallback = match n.shape.additional {
            Additional::Schema(ap) => self.null_arm(ap),
            _ => None,
        };
        let object = match fallback {
            None if arms.is_empty() => None,
            None => {
                let arms = arms.tokens();
                Some(quote! {
                    rt::retain(map, &mut |k, v| match k {
                        #arms
                        _ => true,
                    });
                })
            }
            Some(fallback) => {
                for k in idle {
                    arms.add(k, quote!(true));
                }
                Some(if arms.is_empty() {
                    quote! { rt::retain(map, &mut |_, v| #fallback); }
                } else {
                    let arms = arms.tokens();
                    quote! {
                        rt::retain(map, &mut |k, v| match k {
                            #arms
                            _ => #fallback,
                        });
                    }
                })
            }
        };
        let array = n.shape.items.and_then(|items| {
            let f = self.request(Walk::Nulls, items)?;
            Some(quote! {
                for v in items.iter_mut() {
                    #f(v);
                }
            })
        });
        by_shape(object, array, quote!(x))
    }

    /// What [`nulls`](Self::nulls) does with the value of a field whose schema is `child`:
    /// an expression saying whether to keep it, or `None` when it is kept untouched.
    fn null_arm(&mut self, child: NodeId) -> Option<TokenStream> {
        let drops = self.node(child).drops_null();
        let walk = self.request(Walk::Nulls, child);
        match (drops, walk) {
            (false, None) => None,
            (true, None) => Some(quote! { !v.is_null() }),
            (false, Some(f)) => Some(quote! {{ #f(v); true }}),
            (true, Some(f)) => Some(quote! {{
                if v.is_null() {
                    return false;
                }
                #f(v);
                true
            }}),
        }
    }

    /// The reference's `Default`.
    fn default(&mut self, id: NodeId) -> TokenStream {
        let n = self.node(id);
        let mut fills = Vec::new();
        for (k, child) in &n.shape.properties {
            let c = self.node(*child);
            if let Some(d) = c.shape.default {
                let d = self.constant(d);
                let nullable = c.shape.nullable;
                fills.push(quote! { rt::default_field(map, #k, &#d, #nullable); });
            }
        }
        let ap_step = match n.shape.additional {
            Additional::Schema(ap) => self.element_default(ap),
            _ => None,
        };
        let mut walks = Vec::new();
        for (k, child) in &n.shape.properties {
            if let Some(f) = self.request(Walk::Default, *child) {
                walks.push((k, f));
            }
        }
        let ap_step_absent = ap_step.is_none();
        let descend = match ap_step {
            // Every key: properties by name, the rest with the additionalProperties schema.
            Some(step) => {
                let mut arms = Arms::default();
                for (k, _) in &n.shape.properties {
                    match walks.iter().find(|(w, _)| *w == k) {
                        Some((_, f)) => arms.add(k, quote! { #f(v) }),
                        None => arms.add(k, quote! { {} }),
                    }
                }
                if arms.is_empty() {
                    quote! {
                        for v in map.values_mut() {
                            #step
                        }
                    }
                } else {
                    let arms = arms.tokens();
                    quote! {
                        for (k, v) in map.iter_mut() {
                            match k.as_str() {
                                #arms
                                _ => { #step }
                            }
                        }
                    }
                }
            }
            None => {
                let steps = walks.iter().map(|(k, f)| {
                    quote! {
                        if let Some(v) = map.get_mut(#k) {
                            #f(v);
                        }
                    }
                });
                quote! { #(#steps)* }
            }
        };
        let array_step = n.shape.items.and_then(|items| self.element_default(items));
        // One property to descend into, nothing else: no need to look at the shape first.
        if fills.is_empty() && array_step.is_none() && ap_step_absent && walks.len() == 1 {
            let (k, f) = &walks[0];
            return quote! {
                if let Some(v) = x.get_mut(#k) {
                    #f(v);
                }
            };
        }
        let object = (!fills.is_empty() || !descend.is_empty()).then(|| quote! { #(#fills)* #descend });
        let array = array_step.map(|step| {
            quote! {
                for v in items.iter_mut() {
                    #step
                }
            }
        });
        by_shape(object, array, quote!(x))
    }

    /// Defaulting of an array element or additionalProperties value `v` whose schema is
    /// `child`: a non-nullable null takes the default, then defaulting goes on inside.
    fn element_default(&mut self, child: NodeId) -> Option<TokenStream> {
        let c = self.node(child);
        let fill = match c.shape.default {
            Some(d) if !c.shape.nullable => {
                let d = self.constant(d);
                Some(quote! {
                    if v.is_null() {
                        *v = #d.value();
                    }
                })
            }
            _ => None,
        };
        let walk = self.request(Walk::Default, child).map(|f| quote! { #f(v); });
        if fill.is_none() && walk.is_none() {
            return None;
        }
        Some(quote! { #fill #walk })
    }

    /// The reference's `Coerce` below the root: embedded resources' TypeMeta and ObjectMeta.
    fn coerce(&mut self, id: NodeId) -> TokenStream {
        let n = self.node(id);
        let mut arms = Arms::default();
        let mut idle = Vec::new();
        for (k, child) in &n.shape.properties {
            match self.request(Walk::Coerce, *child) {
                Some(f) => arms.add(k, quote! { #f(&at.child(k), v, cx) }),
                None => idle.push(k),
            }
        }
        let fallback = match n.shape.additional {
            Additional::Schema(ap) => self.request(Walk::Coerce, ap).map(|f| quote! { #f(&at.key(k), v, cx) }),
            _ => None,
        };
        let descend = match fallback {
            None if arms.is_empty() => None,
            None => {
                let arms = arms.tokens();
                Some(quote! {
                    match k {
                        #arms
                        _ => Ok(()),
                    }
                })
            }
            Some(fallback) => {
                for k in idle {
                    arms.add(k, quote!(Ok(())));
                }
                Some(if arms.is_empty() {
                    fallback
                } else {
                    let arms = arms.tokens();
                    quote! {
                        match k {
                            #arms
                            _ => #fallback,
                        }
                    }
                })
            }
        };
        let object = if n.shape.embedded {
            Some(match descend {
                Some(d) => quote! { return rt::coerce_resource(at, map, cx, &mut |at, k, v, cx| #d); },
                None => quote! { return rt::coerce_resource(at, map, cx, &mut |_, _, _, _| Ok(())); },
            })
        } else {
            descend.map(|d| {
                quote! {
                    for (k, v) in map.iter_mut() {
                        let k = k.as_str();
                        #d?;
                    }
                }
            })
        };
        let array = n.shape.items.and_then(|items| {
            let f = self.request(Walk::Coerce, items)?;
            Some(quote! {
                for (i, v) in items.iter_mut().enumerate() {
                    #f(&at.index(i), v, cx)?;
                }
            })
        });
        let walk = by_shape(object, array, quote!((at, x, cx)));
        quote! { #walk Ok(()) }
    }
}

/// The arms of a `match` on keys, keys with the same body sharing one arm (in order of
/// their first key).
#[derive(Default)]
struct Arms {
    raw: Vec<TokenStream>,
    grouped: Vec<(String, Vec<String>, TokenStream)>,
}

impl Arms {
    fn add(&mut self, key: &str, body: TokenStream) {
        let text = body.to_string();
        match self.grouped.iter_mut().find(|(t, _, _)| *t == text) {
            Some((_, keys, _)) => keys.push(key.to_string()),
            None => self.grouped.push((text, vec![key.to_string()], body)),
        }
    }

    fn add_raw(&mut self, arm: TokenStream) {
        self.raw.push(arm);
    }

    fn is_empty(&self) -> bool {
        self.raw.is_empty() && self.grouped.is_empty()
    }

    fn tokens(&self) -> TokenStream {
        let raw = &self.raw;
        let grouped = self
            .grouped
            .iter()
            .map(|(_, keys, body)| quote! { #(#keys)|* => #body, });
        quote! { #(#raw)* #(#grouped)* }
    }
}

/// Walks every element of `items` with the generated function `f`, each at its index: a loop
/// of direct calls (`Pruner::elements` would call through a function pointer, not inlined
/// where walks recurse).
pub(crate) fn each_element(f: &Ident) -> TokenStream {
    quote! {
        for (i, v) in items.iter_mut().enumerate() {
            let m = cx.index(i);
            #f(v, cx);
            cx.back(m);
        }
    }
}

fn is_meta_field(k: &str) -> bool {
    matches!(k, "apiVersion" | "kind" | "metadata")
}

fn fn_name(walk: Walk, node: NodeId) -> Ident {
    let prefix = match walk {
        Walk::Prune => "prune",
        Walk::PruneResource => "prune_resource",
        Walk::Skip => "skip",
        Walk::Nulls => "nulls",
        Walk::Default => "default",
        Walk::Coerce => "coerce",
        Walk::All => "all",
        Walk::AllResource => "all_resource",
        Walk::AllSkip => "all_skip",
    };
    format_ident!("{prefix}_{node}")
}

fn const_name(id: usize) -> Ident {
    Ident::new(&format!("DEFAULT_{id}"), Span::call_site())
}

#[cfg(test)]
mod tests {
    use crate::Config;

    /// A chain of `levels` objects, each with one property `a`, and a default at the bottom.
    fn chain(levels: usize) -> kstruct::schema::Structural {
        let mut v = serde_json::json!({"type": "string", "default": "x"});
        for _ in 0..levels {
            v = serde_json::json!({"type": "object", "properties": {"a": v}});
        }
        kstruct::schema::convert::from_value(&v).unwrap().unwrap()
    }

    #[test]
    fn deep_schemas_check_for_stack_room_every_few_levels() {
        let code = Config::new().schema("deep", &chain(40)).generate().unwrap();
        // Heights 16 and 32 of five walks (prune, nulls, default, the fused walk, value
        // validation).
        assert_eq!(code.matches("rt::grow(||").count(), 10, "{code}");
        let shallow = Config::new().schema("shallow", &chain(15)).generate().unwrap();
        assert!(!shallow.contains("rt::grow"));
    }

    #[test]
    fn leaves_get_no_functions_and_shared_shapes_one() {
        let schema = kstruct::schema::convert::from_text(
            "type: object\nproperties:\n  a: {type: object, properties: {x: {type: string}}}\n  b: {type: object, properties: {x: {type: integer}}}\n",
        )
        .unwrap()
        .unwrap();
        let (code, stats) = Config::new().schema("s", &schema).generate_with_stats().unwrap();
        // Root and {x}; x is a leaf. Walks: root prune, resource prune, nulls, fused, fused
        // resource; {x} prune, nulls, fused. Validation tells a and b apart (string and
        // integer x): five checks.
        assert_eq!(
            (
                stats.schema_nodes,
                stats.distinct_nodes,
                stats.validation_nodes,
                stats.functions
            ),
            (5, 3, 5, 13),
            "{code}"
        );
        assert!(
            code.contains(r#""a" | "b" => {"#) && code.contains("cx.field(k, v, prune_1);"),
            "{code}"
        );
    }
}
