//! Code generation: the `CustomResourceSchema` impl, and the compile-time checks that depend
//! on the fields' types (as `const` assertions on their [`Shape`](kstruct::Shape)s).

mod enums;
mod fields;
mod node;
mod outline;
mod resource;
#[cfg(test)]
mod tests;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use serde_derive_internals::Ctxt;
use serde_derive_internals::ast::{Data, Style};

use crate::internals::{ast, attr, check, rules};

/// Expands the derive for `input`: the impl, or the errors and a stub impl (so that code
/// using the type does not drown the real errors in consequences).
pub fn derive(input: &syn::DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let Some(cont) = ast::Container::from_ast(&cx, input) else {
        let errors = cx.check().err().map(|e| e.to_compile_error()).unwrap_or_default();
        return errors;
    };
    check::check(&cx, &cont);
    rules::check(&cx, &cont);
    let k = match &cont.attrs.crate_path {
        Some(path) => quote!(#path),
        None => quote!(::kstruct),
    };
    let mut g = Gen::new(&cont, k.clone());
    let mut expanded = g.expand();
    for e in g.errors {
        cx.syn_error(e);
    }
    if !g.generic {
        // `schemars::JsonSchema` too, when kstruct's `schemars` feature is on (for kube-rs).
        let ident = &input.ident;
        let name = ident.to_string();
        expanded.extend(quote!(#k::__impl_json_schema!(#ident; #name);));
    }
    if let Some(r) = resource_of(&cx, &cont) {
        expanded.extend(resource::expand(&k, &r, &input.ident, &input.vis));
    }
    match cx.check() {
        Ok(()) => expanded,
        Err(e) => {
            let errors = e.to_compile_error();
            let fallback = fallback(input, &k);
            quote!(#errors #fallback)
        }
    }
}

/// The resource a spec type's attributes describe, if they do (errors in `cx`).
fn resource_of<'a>(cx: &Ctxt, cont: &'a ast::Container) -> Option<crate::internals::resource::Resource<'a>> {
    let attrs = &cont.attrs.resource;
    attrs.first?;
    if cont.serde.generics.params.iter().next().is_some() {
        cx.error_spanned_by(
            cont.serde.generics,
            "a spec type with resource attributes cannot have generic parameters: a CRD has one schema per version",
        );
        return None;
    }
    crate::internals::resource::resolve(cx, attrs, &cont.serde.ident)
}

/// True when serde may write a name twice into the container's object: where a field is
/// flattened (serde itself refuses two fields, or a field and the tag, of one name).
fn has_flatten(cont: &ast::Container) -> bool {
    match &cont.serde.data {
        Data::Struct(Style::Struct, fields) => fields.iter().any(|f| f.attrs.flatten()),
        _ => false,
    }
}

/// A stub impl, for when the derive reports errors.
fn fallback(input: &syn::DeriveInput, k: &TokenStream) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics #k::CustomResourceSchema for #ident #ty_generics #where_clause {
            fn schema(_: &mut #k::Generator) -> #k::schema::Structural {
                ::core::unreachable!()
            }
        }
    }
}

/// What the expansion of one container needs.
pub(crate) struct Gen<'a> {
    cont: &'a ast::Container<'a>,
    /// The path to the `kstruct` crate.
    k: TokenStream,
    /// The path to its `__private` module.
    p: TokenStream,
    /// The container has type parameters: checks go inside `schema()` (evaluated when it is
    /// instantiated) instead of in a `const` item (evaluated by `cargo check` too).
    generic: bool,
    /// `const` assertions on the fields' shapes.
    checks: Vec<TokenStream>,
    /// Some value is serialized (a default, an enum value, an example): type parameters need
    /// `Serialize`.
    serializes: bool,
    /// Errors found while generating.
    errors: Vec<syn::Error>,
    /// The types whose schemas make up this one's (for the recursion check).
    depth_terms: Vec<TokenStream>,
}

impl<'a> Gen<'a> {
    fn new(cont: &'a ast::Container<'a>, k: TokenStream) -> Gen<'a> {
        // Lifetimes too: a `const _` outside the impl could not name them.
        let generic = !cont.serde.generics.params.is_empty();
        Gen {
            cont,
            p: quote!(#k::__private),
            k,
            generic,
            checks: Vec::new(),
            serializes: false,
            errors: Vec::new(),
            depth_terms: Vec::new(),
        }
    }

    /// The container's type name, for messages.
    fn name(&self) -> String {
        self.cont.serde.ident.to_string()
    }

    /// `Self` inside impls; in a `const` item (non-generic containers), the type itself.
    fn self_ty(&self) -> TokenStream {
        if self.generic {
            quote!(Self)
        } else {
            let ident = &self.cont.serde.ident;
            quote!(#ident)
        }
    }

    fn shape_of(&self, ty: &TokenStream) -> TokenStream {
        let k = &self.k;
        quote!(<#ty as #k::CustomResourceSchema>::SHAPE)
    }

    /// The code of a node's attributes (noting whether it serializes values).
    fn node_code(&mut self, node: &attr::Node, extra: &node::Extra<'_>) -> node::NodeCode {
        let code = node::node_code(&self.p, &self.k, node, extra, "");
        if !code.lets.is_empty() {
            self.serializes = true;
        }
        code
    }

    /// Records that this type's schema contains `ty`'s (unless the field keeps its value as
    /// free-form JSON), for the compile-time recursion check.
    fn contains(&mut self, ty: &TokenStream, node: &attr::Node, span: Span) {
        if node.preserve_unknown_fields.is_some() {
            return;
        }
        let k = &self.k;
        self.depth_terms
            .push(quote_spanned!(span=> <#ty as #k::CustomResourceSchema>::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS));
    }

    /// Adds `assert!(<shape>.<method>(), message)` at `span`.
    fn assert_shape(&mut self, span: Span, shape: &TokenStream, method: &str, message: String) {
        let m = syn::Ident::new(method, span);
        self.checks
            .push(quote_spanned!(span=> ::core::assert!(#shape.#m(), #message);));
    }

    /// The shape checks of a node's attributes; `ty` is the Rust type whose schema the node
    /// describes (`None` when unknown: `schema_with`).
    fn check_node_shapes(&mut self, node: &attr::Node, ty: Option<TokenStream>, subject: &str) {
        let Some(ty) = ty else { return };
        let k = self.k.clone();
        let shape = if node.type_.is_some() {
            return;
        } else if node.int_or_string.is_some() {
            let s = self.shape_of(&ty);
            if let Some(span) = node.int_or_string {
                self.assert_shape(
                    span,
                    &s,
                    "admits_int_or_string",
                    format!(
                        "`int_or_string` needs a value serde writes as an integer or a string (or a `serde_json::Value`), and {subject} is not one"
                    ),
                );
            }
            quote!(#k::Shape::IntOrString)
        } else {
            self.shape_of(&ty)
        };
        type Group<'n> = (Vec<(&'n str, Span)>, &'n str, &'n str);
        let groups: [Group<'_>; 6] = [
            (node.number_attrs(), "admits_number_bounds", "numbers"),
            (node.string_attrs(), "admits_string_validations", "strings"),
            (node.array_attrs(), "admits_array_validations", "arrays"),
            (node.object_attrs(), "admits_object_validations", "objects"),
            (node.typed_object_attrs(), "admits_map_type", "structs and maps"),
            (
                node.rule_attrs(),
                "admits_rules",
                "values of one JSON type (the API server cannot compile rules on free-form values or unions of types)",
            ),
        ];
        for (attrs, method, what) in groups {
            for (name, span) in attrs {
                self.assert_shape(
                    span,
                    &shape,
                    method,
                    format!("`{name}` applies to {what}, and serde does not write {subject} as one of those"),
                );
            }
        }
        if let Some(span) = node.embedded_resource {
            self.assert_shape(
                span,
                &shape,
                "admits_embedded_resource",
                format!("`embedded_resource` needs an object (a struct, a map or a `serde_json::Value`), and {subject} is not one"),
            );
        }
        self.check_names(node, &ty);
        if let Some(items) = &node.items {
            let items_ty = quote_spanned!(items.span=> <#ty as #k::ArraySchema>::Items);
            let subject = format!("the items of {subject}");
            self.check_node_shapes(&items.value, Some(items_ty), &subject);
        }
    }

    /// The compile-time check that serde writes no name twice into the type's object (where
    /// fields are flattened).
    fn check_names_written_once(&mut self) {
        let k = self.k.clone();
        let p = self.p.clone();
        let self_ty = self.self_ty();
        let span = self.cont.serde.ident.span();
        self.checks.push(quote_spanned! {span=>
            if let ::core::option::Option::Some(problem) =
                #p::duplicate_problem(&<#self_ty as #k::CustomResourceSchema>::OUTLINE)
            {
                ::core::panic!("{}", problem.as_str());
            }
        });
    }

    /// The compile-time checks of the names a node's attributes give (list-map keys,
    /// `*_one_of` members) against the outline of `ty`, the type the node describes.
    fn check_names(&mut self, node: &attr::Node, ty: &TokenStream) {
        let k = self.k.clone();
        let p = self.p.clone();
        // The type's own attributes are in its `OUTLINE` already; a field's apply to its type's.
        let node_outline = if std::ptr::eq(node, &self.cont.attrs.node) {
            quote!(<#ty as #k::CustomResourceSchema>::OUTLINE)
        } else {
            outline::node_outline(
                &p,
                quote!(<#ty as #k::CustomResourceSchema>::OUTLINE),
                node,
                outline::Place::Value,
            )
        };
        if let Some(t) = &node.list_type
            && t.value == "set"
        {
            let span = t.span;
            self.checks.push(quote_spanned! {span=>
                if let ::core::option::Option::Some(problem) = #p::set_items_problem(&#node_outline) {
                    ::core::panic!("{}", problem.as_str());
                }
            });
        }
        if let Some(keys) = &node.list_map_keys {
            let span = keys.span;
            self.checks.push(quote_spanned! {span=>
                if let ::core::option::Option::Some(problem) = #p::list_map_items_problem(&#node_outline) {
                    ::core::panic!("{}", problem.as_str());
                }
            });
            for key in &keys.value {
                self.checks.push(quote_spanned! {span=>
                    if let ::core::option::Option::Some(problem) = #p::list_map_key_problem(&#node_outline, #key) {
                        ::core::panic!("{}", problem.as_str());
                    }
                });
            }
        }
        for o in &node.one_of_fields {
            let (which, fields) = &o.value;
            let span = o.span;
            for f in fields {
                self.checks.push(quote_spanned! {span=>
                    if let ::core::option::Option::Some(problem) = #p::one_of_problem(&#node_outline, #which, #f) {
                        ::core::panic!("{}", problem.as_str());
                    }
                });
            }
        }
    }

    fn expand(&mut self) -> TokenStream {
        let cont = self.cont;
        let k = self.k.clone();
        let ident = &cont.serde.ident;

        let fields::Expansion {
            shape,
            optional,
            body,
            present: present_body,
            outline,
        } = match &cont.serde.data {
            _ if cont.serde.attrs.type_into().is_some() => {
                let into = cont.serde.attrs.type_into().expect("into");
                let span = syn::spanned::Spanned::span(into);
                let into = quote!(#into);
                self.contains(&into, &attr::Node::default(), span);
                let shape = self.shape_of(&into);
                fields::Expansion {
                    shape,
                    optional: None,
                    body: quote!(generator.subschema_for::<#into>()),
                    present: None,
                    outline: quote!(<#into as #k::CustomResourceSchema>::OUTLINE),
                }
            }
            Data::Struct(style, fields) => self.expand_struct(*style, fields),
            Data::Enum(variants) => self.expand_enum(variants),
        };
        let p = self.p.clone();
        let outline = outline::node_outline(&p, outline, &cont.attrs.node, outline::Place::Container);
        if has_flatten(cont) {
            self.check_names_written_once();
        }

        // The container's own attributes, on its schema.
        let container_shape = match (&cont.attrs.node.type_, cont.attrs.node.int_or_string) {
            (Some(_), _) => quote!(#k::Shape::Unknown),
            (None, Some(_)) => quote!(#k::Shape::IntOrString),
            _ => shape.clone(),
        };
        let self_ty = self.self_ty();
        let subject = format!("`{}`", self.name());
        self.check_node_shapes(&cont.attrs.node, Some(self_ty), &subject);
        let extra = node::Extra {
            docs: &cont.docs,
            value_type: Some(quote!(Self)),
            serde_default: None,
            immutable: false,
            serialize_with: None,
        };
        let own = self.node_code(&cont.attrs.node, &extra);
        let body = own.apply(&p, body);
        let present = present_body.map(|b| own.apply(&p, b));

        // Evaluating the depth makes the compiler follow the chain of types: a cycle is an
        // error naming them.
        let terms = &self.depth_terms;
        let depth = quote!(1 + #p::deepest([#(#terms),*]));
        let self_ty = self.self_ty();
        let k = self.k.clone();
        self.checks
            .push(quote!(let _ = <#self_ty as #k::CustomResourceSchema>::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;));
        // One `const` per check, so that every failing check is reported. A generic type's
        // are associated consts of an inherent impl, evaluated when `schema()` is instantiated
        // (not `const { }` blocks in it: only item consts promote `&const_fn()` to `'static`).
        let generics = self.bounded_generics();
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        let checks = &self.checks;
        let (inline_checks, const_checks) = if self.generic {
            let names: Vec<syn::Ident> = (0..checks.len())
                .map(|i| quote::format_ident!("__KSTRUCT_CHECK_{}", i))
                .collect();
            (
                quote!(#(let () = Self::#names;)*),
                quote! {
                    #[automatically_derived]
                    impl #impl_generics #ident #ty_generics #where_clause {
                        #(#[doc(hidden)] const #names: () = { #checks };)*
                    }
                },
            )
        } else {
            (TokenStream::new(), quote!(#(const _: () = { #checks };)*))
        };
        let optional = optional.map(|o| quote!(const OPTIONAL: bool = #o;));
        let present = present.map(|b| {
            quote! {
                fn schema_when_present(generator: &mut #k::Generator) -> #k::schema::Structural {
                    #inline_checks
                    #b
                }
            }
        });
        let map_key = self.map_key_impl(&generics);
        quote! {
            #[automatically_derived]
            impl #impl_generics #k::CustomResourceSchema for #ident #ty_generics #where_clause {
                const SHAPE: #k::Shape = #container_shape;
                #optional
                #[doc(hidden)]
                const OUTLINE: #p::Outline = #outline;
                #[doc(hidden)]
                const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = #depth;
                fn schema(generator: &mut #k::Generator) -> #k::schema::Structural {
                    #inline_checks
                    #body
                }
                #present
            }
            #map_key
            #const_checks
        }
    }

    /// The container's generics, the type parameters its schema uses bounded by
    /// `CustomResourceSchema` (and `Serialize` when values are serialized): as serde bounds
    /// only the parameters of the fields it writes, a parameter used only in skipped fields
    /// (a `PhantomData<T>`) needs nothing.
    fn bounded_generics(&self) -> syn::Generics {
        let mut generics = self.cont.serde.generics.clone();
        let k = &self.k;
        let p = &self.p;
        let used = self.used_type_params();
        let params: Vec<syn::Ident> = generics
            .type_params()
            .map(|t| t.ident.clone())
            .filter(|t| used.contains(t))
            .collect();
        if params.is_empty() {
            return generics;
        }
        let where_clause = generics.make_where_clause();
        for t in params {
            where_clause
                .predicates
                .push(syn::parse_quote!(#t: #k::CustomResourceSchema));
            if self.serializes {
                where_clause
                    .predicates
                    .push(syn::parse_quote!(#t: #p::serde::Serialize));
            }
        }
        generics
    }

    /// The type parameters named in the types whose schemas this one is made of.
    fn used_type_params(&self) -> Vec<syn::Ident> {
        let params: Vec<syn::Ident> = self
            .cont
            .serde
            .generics
            .type_params()
            .map(|t| t.ident.clone())
            .collect();
        let mut types: Vec<TokenStream> = Vec::new();
        if let Some(into) = self.cont.serde.attrs.type_into() {
            types.push(quote!(#into));
        }
        let fields = self.cont.serde.data.all_fields();
        let extras = self
            .cont
            .fields
            .iter()
            .chain(self.cont.variants.iter().flat_map(|v| &v.fields));
        for (f, x) in fields.zip(extras) {
            if f.attrs.skip_serializing() && f.attrs.skip_deserializing() || x.attrs.schema_with.is_some() {
                continue;
            }
            match &x.attrs.schema_as {
                Some(t) => {
                    let t = &t.value;
                    types.push(quote!(#t));
                }
                None => {
                    let t = f.ty;
                    types.push(quote!(#t));
                }
            }
            if x.attrs.node.default.is_some() {
                // A default is a value of the field's own type, serialized.
                let t = f.ty;
                types.push(quote!(#t));
            }
        }
        fn names(tokens: TokenStream, out: &mut Vec<String>) {
            for t in tokens {
                match t {
                    proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
                    proc_macro2::TokenTree::Group(g) => names(g.stream(), out),
                    _ => {}
                }
            }
        }
        let mut seen = Vec::new();
        for t in types {
            names(t, &mut seen);
        }
        params.into_iter().filter(|p| seen.contains(&p.to_string())).collect()
    }

    /// `impl MapKey` for enums serde writes as strings (unit-only, externally tagged).
    fn map_key_impl(&self, generics: &syn::Generics) -> TokenStream {
        let Data::Enum(variants) = &self.cont.serde.data else {
            return TokenStream::new();
        };
        let external = matches!(
            self.cont.serde.attrs.tag(),
            serde_derive_internals::attr::TagType::External
        );
        let unit_only = variants
            .iter()
            .filter(|v| !v.attrs.skip_serializing())
            .all(|v| matches!(v.style, Style::Unit) && !v.attrs.untagged());
        if !external || !unit_only || self.cont.serde.attrs.type_into().is_some() {
            return TokenStream::new();
        }
        let k = &self.k;
        let ident = &self.cont.serde.ident;
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        quote! {
            #[automatically_derived]
            impl #impl_generics #k::MapKey for #ident #ty_generics #where_clause {}
        }
    }
}
