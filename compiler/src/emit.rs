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
    /// Coercing embedded resources.
    Coerce,
    /// Pruning, dropping nulls and defaulting, whichever of them the walk's
    /// `rt::Steps` ask for: at each node what the three walks of the reference do there, one
    /// after the other (see [`fused`](Emitter::fused)). Under
    /// `x-kubernetes-preserve-unknown-fields`, pruning is the reference's skipping walk.
    All,
    /// [`Walk::All`] at the root of a resource: `apiVersion`, `kind` and `metadata` are not
    /// pruned.
    AllResource,
    /// [`Walk::All`] reached through the `items` of a node that preserves unknown fields:
    /// unknown fields stay here too.
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
            Walk::AllSkip if n.shape.preserve => Walk::All,
            Walk::AllResource if n.shape.embedded => Walk::All,
            w => w,
        };
        let needed = match walk {
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

    /// The steps with work below `id` (pruning always has: unknown fields may be anywhere),
    /// as the `rt::Steps` constant the generated walk passes along, and whether that is every
    /// step (a walk then never skips `id`).
    fn below(&self, id: NodeId) -> (TokenStream, bool) {
        let n = self.node(id);
        let steps = match (n.needs_nulls, n.needs_default) {
            (true, true) => quote!(rt::Steps::ALL),
            (true, false) => quote!(rt::Steps::PRUNE_NULLS),
            (false, true) => quote!(rt::Steps::PRUNE_DEFAULTS),
            (false, false) => quote!(rt::Steps::PRUNE),
        };
        (steps, n.needs_nulls && n.needs_default)
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
            Walk::Coerce => self.coerce(id),
            Walk::All => self.fused(id, n.shape.preserve, false),
            Walk::AllResource => self.fused(id, n.shape.preserve, true),
            Walk::AllSkip => self.fused(id, true, false),
        };
        let what = match walk {
            Walk::Coerce => "Coerces embedded resources in",
            Walk::All | Walk::AllSkip => {
                "Prunes, drops non-nullable nulls without defaults in and defaults (as `cx` asks)"
            }
            Walk::AllResource => {
                "Prunes as a resource root, drops non-nullable nulls without defaults in and defaults (as `cx` asks)"
            }
        };
        let doc = doc(what, &n.first_seen, n.uses);
        // Every few levels a walk makes sure it has stack room for the levels below.
        let body = guard_stack(n.height, body);
        let signature = match walk {
            Walk::All | Walk::AllResource | Walk::AllSkip => quote! { (x: &mut Value, cx: &mut rt::Pruner) },
            Walk::Coerce => {
                quote! { (at: &rt::At<'_>, x: &mut Value, cx: &mut rt::Coercer) -> Result<(), rt::FieldError> }
            }
        };
        quote! {
            #[doc = #doc]
            pub(super) fn #name #signature { #body }
        }
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

    fn is_empty(&self) -> bool {
        self.grouped.is_empty()
    }

    fn tokens(&self) -> TokenStream {
        let grouped = self
            .grouped
            .iter()
            .map(|(_, keys, body)| quote! { #(#keys)|* => #body, });
        quote! { #(#grouped)* }
    }
}

/// Walks every element of `items` with the generated function `f`, each at its index, when
/// the walk takes any of the steps `below` has work for: a loop of direct calls (a shared
/// helper taking `f` as a function pointer is not inlined where walks recurse).
pub(crate) fn each_element(f: &Ident, (below, every_step): (TokenStream, bool)) -> TokenStream {
    let each = quote! {
        for (i, v) in items.iter_mut().enumerate() {
            let m = cx.index(i);
            #f(v, cx);
            cx.back(m);
        }
    };
    if every_step {
        each
    } else {
        quote! {
            if cx.takes(#below) {
                #each
            }
        }
    }
}

fn is_meta_field(k: &str) -> bool {
    matches!(k, "apiVersion" | "kind" | "metadata")
}

fn fn_name(walk: Walk, node: NodeId) -> Ident {
    let prefix = match walk {
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
        // Heights 16 and 32 of two walks (the one walk over values, value validation).
        assert_eq!(code.matches("rt::grow(||").count(), 4, "{code}");
        let shallow = Config::new().schema("shallow", &chain(15)).generate().unwrap();
        assert!(!shallow.contains("rt::grow"));
    }

    #[test]
    fn walks_skip_what_a_step_has_no_work_in_and_defaults_come_walked() {
        let schema = kstruct::schema::convert::from_text(
            "type: object
properties:
  plain: {type: object, properties: {x: {type: string, nullable: true}}}
  nulls: {type: object, properties: {x: {type: string}}}
  defaults: {type: object, properties: {x: {type: string, nullable: true, default: d}}}
  outer: {type: object, default: {}, properties: {z: {type: integer, default: 1}}}
",
        )
        .unwrap()
        .unwrap();
        let code = Config::new().schema("s", &schema).generate().unwrap();
        for (key, below) in [
            ("plain", "PRUNE"),
            ("nulls", "PRUNE_NULLS"),
            ("defaults", "PRUNE_DEFAULTS"),
            ("outer", "PRUNE_DEFAULTS"),
        ] {
            let call = format!("rt::Steps::{below});");
            let arm = code.split(&format!("\"{key}\" => {{")).nth(1).unwrap_or_default();
            let first_call = arm.split("cx.field(").nth(1).unwrap_or_default();
            assert!(
                first_call.split('\n').next().unwrap_or_default().ends_with(&call),
                "{key}: {code}"
            );
        }
        // `outer`'s default is filled already defaulted inside: no walk after the fill.
        assert!(code.contains(r#"rt::Constant::new("{\"z\":1}")"#), "{code}");
    }

    #[test]
    fn leaves_get_no_functions_and_shared_shapes_one() {
        let schema = kstruct::schema::convert::from_text(
            "type: object\nproperties:\n  a: {type: object, properties: {x: {type: string}}}\n  b: {type: object, properties: {x: {type: integer}}}\n",
        )
        .unwrap()
        .unwrap();
        let (code, stats) = Config::new().schema("s", &schema).generate_with_stats().unwrap();
        // Root and {x}; x is a leaf. Walks: root and root as a resource; {x}. Validation
        // tells a and b apart (string and integer x): five checks.
        assert_eq!(
            (
                stats.schema_nodes,
                stats.distinct_nodes,
                stats.validation_nodes,
                stats.functions
            ),
            (5, 3, 5, 8),
            "{code}"
        );
        assert!(
            code.contains(r#""a" | "b" => {"#) && code.contains("cx.field(k, v, all_1, rt::Steps::PRUNE_NULLS);"),
            "{code}"
        );
    }
}
