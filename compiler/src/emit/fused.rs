//! The fused walk: pruning, dropping non-nullable nulls without defaults and defaulting in one
//! pass over an object, where the three separate walks pass over it three times.
//!
//! At a node the three walks touch disjoint things in a fixed order — pruning removes unknown
//! fields and walks known ones, dropping nulls removes known fields that are `null`, defaulting
//! fills absent (or non-nullable `null`) fields and walks every field — and each child's value
//! is only ever touched by the same three walks of the child's schema. So one closure per field
//! does the three in their order, and the absent defaults are filled last; a filled default is
//! walked by defaulting alone, as after the three walks.

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
            let c = self.node(*child);
            if let Some(d) = c.shape.default {
                let d = self.constant(d);
                let fill = match self.request(Walk::Default, *child) {
                    Some(f) => quote! {
                        if let Some(v) = rt::fill_absent(map, #k, &#d) {
                            #f(v);
                        }
                    },
                    None => quote! { rt::fill_absent(map, #k, &#d); },
                };
                fills.push(fill);
            }
            let walk = if embedded && is_meta_field(k) {
                // Not pruned; dropping nulls and defaulting go on inside.
                let nulls = self.request(Walk::Nulls, *child).map(|f| quote! { #f(v); });
                let default = self.request(Walk::Default, *child).map(|f| quote! { #f(v); });
                quote! { #nulls #default }
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
        // Unknown fields: the expression saying whether to keep one, and whether it reads `v`.
        let (fallback, fallback_reads_value) = match n.shape.additional {
            Additional::None if skip => (None, false),
            Additional::None => (Some(quote! {{ cx.unknown(k); false }}), false),
            Additional::Bool => (Some(quote! {{ cx.no_schema_field(k, v); true }}), true),
            Additional::Schema(ap) => {
                let walk = self.fused_field(ap);
                (Some(self.fused_arm(ap, walk)), true)
            }
        };
        let uses_value = fallback_reads_value || arms.grouped.iter().any(|(text, _, _)| text != "true");
        let value = if uses_value { quote!(v) } else { quote!(_) };
        let retain = match fallback {
            None if arms.is_empty() => None,
            fallback => {
                let fallback = fallback.unwrap_or(quote!(true));
                Some(if arms.is_empty() {
                    quote! { rt::retain(map, &mut |k, #value| #fallback); }
                } else {
                    let arms = arms.tokens();
                    quote! {
                        rt::retain(map, &mut |k, #value| match k {
                            #arms
                            _ => #fallback,
                        });
                    }
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
            Some(f) => quote! { cx.field(k, v, #f); },
            // Most leaves hold scalars: no call for them.
            None => quote! {
                if v.is_object() || v.is_array() {
                    cx.leaf_field(k, v);
                }
            },
        }
    }

    /// Whether field `v` with schema `child` stays: a `null` is dropped, kept, or replaced by
    /// the default (which defaulting then walks); any other value is walked by `walk`
    /// (statements, perhaps none).
    fn fused_arm(&mut self, child: NodeId, walk: TokenStream) -> TokenStream {
        let default = self.null_default(child);
        match (self.node(child).drops_null(), default, walk.is_empty()) {
            (true, _, true) => quote!(!v.is_null()),
            (true, _, false) => quote! {{
                if v.is_null() {
                    return false;
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
    /// has a default: the default, then walked by defaulting (statements); `None` otherwise.
    fn null_default(&mut self, child: NodeId) -> Option<TokenStream> {
        let c = self.node(child);
        let d = c.shape.default.filter(|_| !c.shape.nullable)?;
        let d = self.constant(d);
        let walk = self.request(Walk::Default, child).map(|f| quote! { #f(v); });
        Some(quote! {
            *v = #d.value();
            #walk
        })
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
                    Some(f) => Some(each_element(&f)),
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
