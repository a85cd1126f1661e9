//! The one walk over values: pruning, dropping non-nullable nulls without defaults and
//! defaulting in one pass over an object, where the reference's three walks pass over it three
//! times. The walk's `rt::Pruner` says which of the three it takes part in (`rt::Steps`), so
//! the same functions serve `Pipeline::prune` alone, `prune_nulls` alone, `default` alone and
//! any combination: the code is generated once.
//!
//! At a node the three walks touch disjoint things in a fixed order — pruning removes unknown
//! fields and walks known ones, dropping nulls removes known fields that are `null`, defaulting
//! fills absent (or non-nullable `null`) fields and walks every field — and each child's value
//! is only ever touched by the same three walks of the child's schema. So one closure per field
//! does the three in their order, and the absent defaults are filled last. A filled default
//! would then be walked by defaulting alone: the compiler does that walk once, on the constant
//! (see `Graph`), so a filled default needs no walk.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Arms, Emitter, Walk, each_element, is_meta_field};
use crate::graph::{Additional, NodeId};
use crate::worklist::by_shape;

impl Emitter<'_> {
    /// The fused walk at node `id`: pruning as [`skip`](Emitter::skip) does (unknown fields
    /// stay) when `skip`, else as [`prune`](Emitter::prune) does; `resource` at a resource's
    /// root.
    pub(super) fn fused(&mut self, id: NodeId, skip: bool, resource: bool) -> TokenStream {
        let n = self.node(id);
        let embedded = resource || n.shape.embedded;
        let mut arms = Arms::default();
        let mut fills = Vec::new();
        for (k, child) in &n.shape.properties {
            if let Some(d) = self.node(*child).shape.default {
                let d = self.constant(d);
                fills.push(quote! { cx.fill(map, #k, &#d); });
            }
            let walk = if embedded && is_meta_field(k) {
                // Not pruned; dropping nulls and defaulting go on inside.
                match self.request(Walk::All, *child) {
                    Some(f) => {
                        let (below, _) = self.below(*child);
                        quote! { cx.unpruned(k, v, #f, #below); }
                    }
                    None => quote! {},
                }
            } else {
                self.fused_field(*child)
            };
            arms.add(k, self.fused_arm(*child, walk));
        }
        if embedded {
            for k in ["apiVersion", "kind", "metadata"] {
                if !n.shape.properties.iter().any(|(p, _)| p == k) {
                    arms.add(k, quote!(true));
                }
            }
        }
        if n.shape.additional == Additional::None && skip {
            // Unknown fields stay: so do fields that would only be kept.
            arms.grouped.retain(|(text, _, _)| text != "true");
        }
        // Unknown fields: the expression saying whether to keep one.
        let fallback = match n.shape.additional {
            Additional::None if skip => None,
            Additional::None => Some(quote! { cx.unknown(k) }),
            Additional::Bool => Some(quote! {{ cx.no_schema_field(k, v); true }}),
            Additional::Schema(ap) => {
                let walk = self.fused_field(ap);
                Some(self.fused_arm(ap, walk))
            }
        };
        let retain = match fallback {
            None if arms.is_empty() => None,
            fallback => {
                let fallback = fallback.unwrap_or(quote!(true));
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
                // The closure captures nothing (it is a function pointer): what it does not
                // read is `_`.
                let param = |name: &str| {
                    let ident = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
                    if mentions(&keep, name) {
                        quote!(#ident)
                    } else {
                        quote!(_)
                    }
                };
                let (k, v, cx) = (param("k"), param("v"), param("cx"));
                Some(quote! {
                    let keep: rt::Keep = |#k, #v, #cx| #keep;
                    rt::retain(map, cx, keep);
                })
            }
        };
        let object = (retain.is_some() || !fills.is_empty()).then(|| quote! { #retain #(#fills)* });
        let array = self.fused_elements(n.shape.items, skip);
        let body = by_shape(object, array, quote!((x, cx)));
        if mentions(&body, "cx") {
            body
        } else {
            // Defaults filled, nothing pruned.
            quote! { let _ = cx; #body }
        }
    }

    /// The fused walk of field `k`'s value `v` (not `null`) with schema `child`, as statements.
    fn fused_field(&mut self, child: NodeId) -> TokenStream {
        match self.request(Walk::All, child) {
            Some(f) => {
                let (below, _) = self.below(child);
                quote! { cx.field(k, v, #f, #below); }
            }
            // Most leaves hold scalars: no call for them.
            None => quote! {
                if v.is_object() || v.is_array() {
                    cx.leaf_field(k, v);
                }
            },
        }
    }

    /// Whether field `v` with schema `child` stays: a `null` is dropped (when the walk drops
    /// nulls), kept, or replaced by the default (when the walk defaults); any other value is
    /// walked by `walk` (statements, perhaps none).
    fn fused_arm(&mut self, child: NodeId, walk: TokenStream) -> TokenStream {
        let default = self.null_default(child);
        match (self.node(child).drops_null(), default, walk.is_empty()) {
            (true, _, true) => quote!(!v.is_null() || cx.keep_null()),
            (true, _, false) => quote! {{
                if v.is_null() {
                    return cx.keep_null();
                }
                #walk
                true
            }},
            (false, None, true) => quote!(true),
            (false, None, false) => quote! {{
                if !v.is_null() {
                    #walk
                }
                true
            }},
            (false, Some(fill), true) => quote! {{
                if v.is_null() {
                    #fill
                }
                true
            }},
            (false, Some(fill), false) => quote! {{
                if v.is_null() {
                    #fill
                } else {
                    #walk
                }
                true
            }},
        }
    }

    /// What a `null` value `v` with schema `child` becomes when the schema is not nullable and
    /// has a default: the default (already defaulted inside) when the walk defaults; `None`
    /// when the schema has no such default.
    fn null_default(&mut self, child: NodeId) -> Option<TokenStream> {
        let c = self.node(child);
        let d = c.shape.default.filter(|_| !c.shape.nullable)?;
        let d = self.constant(d);
        Some(quote! { cx.fill_null(v, &#d); })
    }

    /// The fused walk of array `items` whose element schema is `child`: elements pruned (as the
    /// skipping walk does when `skip`), then non-nullable `null` elements defaulted.
    fn fused_elements(&mut self, child: Option<NodeId>, skip: bool) -> Option<TokenStream> {
        let walk = match child {
            None if skip => None,
            None => Some(quote! { cx.no_schema_elements(items); }),
            Some(c) => {
                let walk = if skip { Walk::AllSkip } else { Walk::All };
                match self.request(walk, c) {
                    Some(f) => Some(each_element(&f, self.below(c))),
                    None if skip => None,
                    None => Some(quote! { cx.leaf_elements(items); }),
                }
            }
        };
        let fill = child.and_then(|c| self.null_default(c)).map(|fill| {
            quote! {
                for v in items.iter_mut() {
                    if v.is_null() {
                        #fill
                    }
                }
            }
        });
        (walk.is_some() || fill.is_some()).then(|| quote! { #walk #fill })
    }
}

/// Whether `tokens` use the identifier `name`.
fn mentions(tokens: &TokenStream, name: &str) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), name),
        _ => false,
    })
}
