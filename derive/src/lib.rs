//! `#[derive(CustomResourceSchema)]`: Kubernetes structural schemas from Rust types, exactly
//! as serde writes them. Use it through the `kstruct` crate (feature `derive`, on by default),
//! which documents the attributes and the schema of every serde shape.
//!
//! The derive reads `#[serde(...)]` with serde's own parser (`serde_derive_internals`), so
//! that names, tags, defaults, skips and flattening are serde's, and `#[kstruct(...)]` for
//! what serde does not say. Everything it can check without the fields' types is checked at
//! expansion, every problem reported with its span; what depends on the fields' types
//! (`minimum` on a string, `flatten` of a number) is checked by `const` assertions in the
//! generated code, also at compile time.

mod expand;
mod internals;

use proc_macro::TokenStream;

/// Derives `kstruct::CustomResourceSchema`. See the `kstruct` crate.
#[proc_macro_derive(CustomResourceSchema, attributes(kstruct))]
pub fn derive_custom_resource_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).into()
}
