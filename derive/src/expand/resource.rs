//! The root type of a resource (`Widget` for a spec type `WidgetSpec` with resource
//! attributes) and its impls: `CustomResource`, `CustomResourceSchema`, `Serialize`,
//! `Deserialize`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::internals::resource::{Attrs, Resource};

/// The code of the root type of `r`, whose spec type is `spec` (visible as `vis`).
pub fn expand(k: &TokenStream, r: &Resource, spec: &syn::Ident, vis: &syn::Visibility) -> TokenStream {
    let p = quote!(#k::__private);
    let a = &r.attrs;
    let root = &r.root;
    let (group, version, kind, plural, singular) = (&r.group, &r.version, &r.kind, &r.plural, &r.singular);
    let api_version = format!("{group}/{version}");
    let list_kind = format!("{kind}List");
    let crd_name = format!("{plural}.{group}");
    let strings = |list: &[syn::LitStr]| quote!(&[#(#list),*]);
    let pairs = |list: &[(syn::LitStr, syn::LitStr)]| {
        let items = list.iter().map(|(k, v)| quote!((#k, #v)));
        quote!(&[#(#items),*])
    };
    let opt = |v: Option<TokenStream>| match v {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    };
    let short_names = strings(&a.short_names);
    let categories = strings(&a.categories);
    let selectable = strings(&a.selectable);
    let labels = pairs(&a.labels);
    let annotations = pairs(&a.annotations);
    let namespaced = a.namespaced.is_some();
    let served = a.served.as_ref().is_none_or(|s| s.value);
    let storage = a.storage.as_ref().is_none_or(|s| s.value);
    let deprecated = a.deprecated.is_some();
    let deprecation_warning = opt(a.deprecation_warning.as_ref().map(|w| quote!(#w)));
    let description = opt(a.doc.as_ref().map(|d| quote!(#d)));
    let columns = a.print_columns.iter().map(|c| {
        let (name, type_, json_path) = (&c.name, &c.type_, &c.json_path);
        let description = opt(c.description.as_ref().map(|d| quote!(#d)));
        let format = opt(c.format.as_ref().map(|f| quote!(#f)));
        let priority = opt(c.priority.map(|p| quote!(#p)));
        quote! {
            #k::PrinterColumn {
                name: #name,
                type_: #type_,
                json_path: #json_path,
                description: #description,
                format: #format,
                priority: #priority,
            }
        }
    });
    let scale = opt(a.scale.as_ref().map(|s| {
        let (spec_path, status_path) = (&s.spec_replicas_path, &s.status_replicas_path);
        let selector = opt(s.label_selector_path.as_ref().map(|l| quote!(#l)));
        quote! {
            #k::Scale {
                spec_replicas_path: #spec_path,
                status_replicas_path: #status_path,
                label_selector_path: #selector,
            }
        }
    }));
    let status_subresource = a.status.is_some();

    let derives = &a.derives;
    let doc = format!(" A `{kind}` (`{api_version}`): the custom resource whose spec is [`{spec}`].");
    let (status_field, status_init, status_ref, status_schema, status_de) = match &a.status {
        Some(status) => {
            let ty = &status.value;
            (
                quote! {
                    /// The observed state.
                    pub status: ::core::option::Option<#ty>,
                },
                quote!(status: ::core::option::Option::None,),
                quote!(self.status.as_ref()),
                quote!(::core::option::Option::Some(#p::resource::status_schema::<#ty>)),
                quote!(#ty),
            )
        }
        None => (
            TokenStream::new(),
            TokenStream::new(),
            quote!(::core::option::Option::None::<&()>),
            quote!(::core::option::Option::None),
            quote!(#p::resource::NoStatus),
        ),
    };
    let status_binding = if a.status.is_some() { quote!(status) } else { quote!(_) };
    let status_outline = match &a.status {
        Some(status) => {
            let ty = &status.value;
            quote! {
                #p::Property {
                    name: "status",
                    required: false,
                    outline: &<::core::option::Option<#ty> as #k::CustomResourceSchema>::OUTLINE.field(false),
                },
            }
        }
        None => TokenStream::new(),
    };
    let path_checks = path_checks(k, root, spec, a);
    let status_assign = if a.status.is_some() {
        quote!(status,)
    } else {
        TokenStream::new()
    };

    quote! {
        #[doc = #doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug #(, #derives)*)]
        #vis struct #root {
            /// Standard object metadata.
            pub metadata: #k::ObjectMeta,
            /// The desired state.
            pub spec: #spec,
            #status_field
        }

        impl #root {
            /// A new object named `name`.
            pub fn new(name: &str, spec: #spec) -> Self {
                Self {
                    metadata: #k::ObjectMeta {
                        name: ::core::option::Option::Some(::std::string::ToString::to_string(name)),
                        ..::core::default::Default::default()
                    },
                    spec,
                    #status_init
                }
            }
        }

        impl #k::CustomResource for #root {
            type Spec = #spec;

            const RESOURCE: #k::Resource = #k::Resource {
                group: #group,
                version: #version,
                api_version: #api_version,
                kind: #kind,
                list_kind: #list_kind,
                plural: #plural,
                singular: #singular,
                crd_name: #crd_name,
                namespaced: #namespaced,
                short_names: #short_names,
                categories: #categories,
                served: #served,
                storage: #storage,
                deprecated: #deprecated,
                deprecation_warning: #deprecation_warning,
                printer_columns: &[#(#columns),*],
                status_subresource: #status_subresource,
                scale: #scale,
                selectable_fields: #selectable,
                description: #description,
                labels: #labels,
                annotations: #annotations,
            };

            fn metadata(&self) -> &#k::ObjectMeta {
                &self.metadata
            }

            fn metadata_mut(&mut self) -> &mut #k::ObjectMeta {
                &mut self.metadata
            }

            fn spec(&self) -> &#spec {
                &self.spec
            }
        }

        impl #k::CustomResourceSchema for #root {
            const SHAPE: #k::Shape = #k::Shape::Object;
            #[doc(hidden)]
            const OUTLINE: #p::Outline = #p::Outline::object(
                &[
                    #p::Property {
                        name: "apiVersion",
                        required: false,
                        outline: &#p::Outline::leaf(#k::Shape::String),
                    },
                    #p::Property {
                        name: "kind",
                        required: false,
                        outline: &#p::Outline::leaf(#k::Shape::String),
                    },
                    #p::Property {
                        name: "metadata",
                        required: false,
                        outline: &#p::Outline::leaf(#k::Shape::Object),
                    },
                    #p::Property {
                        name: "spec",
                        required: true,
                        outline: &<#spec as #k::CustomResourceSchema>::OUTLINE.field(false),
                    },
                    #status_outline
                ],
                &[],
            );

            fn schema(generator: &mut #k::Generator) -> #k::schema::Structural {
                #p::resource::schema::<#spec>(
                    generator,
                    &<Self as #k::CustomResource>::RESOURCE,
                    #status_schema,
                )
            }
        }

        impl #p::serde::Serialize for #root {
            fn serialize<S: #p::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                #p::resource::serialize(
                    serializer,
                    &<Self as #k::CustomResource>::RESOURCE,
                    &self.metadata,
                    &self.spec,
                    #status_ref,
                )
            }
        }

        impl<'de> #p::serde::Deserialize<'de> for #root {
            fn deserialize<D: #p::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                static RESOURCE: #k::Resource = <#root as #k::CustomResource>::RESOURCE;
                let (metadata, spec, #status_binding) =
                    #p::resource::deserialize::<D, #spec, #status_de>(deserializer, &RESOURCE)?;
                ::core::result::Result::Ok(Self { metadata, spec, #status_assign })
            }
        }

        #path_checks
    }
}

/// A `const` item per path of the resource attributes (printer columns, scale, selectable
/// fields), resolving it in the root's outline: a path the types do not have fails the
/// build, with the attribute's span.
fn path_checks(k: &TokenStream, root: &syn::Ident, spec: &syn::Ident, a: &Attrs) -> TokenStream {
    let p = quote!(#k::__private);
    let mut paths: Vec<(&syn::LitStr, TokenStream)> = a
        .print_columns
        .iter()
        .map(|c| (&c.json_path, quote!(PrinterColumn)))
        .collect();
    if let Some(s) = &a.scale {
        paths.push((&s.spec_replicas_path, quote!(SpecReplicas)));
        paths.push((&s.status_replicas_path, quote!(StatusReplicas)));
        if let Some(l) = &s.label_selector_path {
            paths.push((l, quote!(LabelSelector)));
        }
    }
    paths.extend(a.selectable.iter().map(|l| (l, quote!(Selectable))));
    // Rules using oldSelf where the API server cannot pair values with their old values,
    // anywhere in the resource (the walk starts at the root, as the server's does).
    let transitions = quote_spanned! {spec.span()=>
        const _: () = {
            if let ::core::option::Option::Some(problem) =
                #p::transition_problem(&<#root as #k::CustomResourceSchema>::OUTLINE)
            {
                ::core::panic!("{}", problem.as_str());
            }
        };
    };
    let paths: TokenStream = paths
        .into_iter()
        .map(|(path, use_)| {
            quote_spanned! {path.span()=>
                const _: () = {
                    if let ::core::option::Option::Some(problem) = #p::path_problem(
                        &<#root as #k::CustomResourceSchema>::OUTLINE,
                        #path,
                        #p::PathUse::#use_,
                    ) {
                        ::core::panic!("{}", problem.as_str());
                    }
                };
            }
        })
        .collect();
    quote!(#transitions #paths)
}
