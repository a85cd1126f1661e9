//! From sources to the generated file: the node graph, the pipeline types per group, version
//! and kind, the registry.

use std::collections::BTreeMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use kstruct::schema::Structural;

use crate::Error;
use crate::emit::{Emitter, Walk};
use crate::graph::{Graph, NodeId};
use crate::names::{self, Scope};
use crate::source::Sources;
use crate::validation;

/// What generating took.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// CRDs compiled.
    pub crds: usize,
    /// Pipelines (CRD versions and bare schemas) compiled.
    pub pipelines: usize,
    /// Structural schema nodes in all compiled schemas.
    pub schema_nodes: usize,
    /// Distinct nodes once identical sub-schemas are shared.
    pub distinct_nodes: usize,
    /// Distinct validation nodes (value validations make more nodes differ).
    pub validation_nodes: usize,
    /// Functions emitted.
    pub functions: usize,
    /// Distinct default values.
    pub constants: usize,
    /// Lines of generated code.
    pub lines: usize,
    /// CRD versions whose schema does not convert (compiled as the API server treats them).
    pub warnings: Vec<String>,
}

/// The schema a generated pipeline embeds and reads once per process.
enum Embedded {
    /// The whole schema, when it has CEL rules: they are evaluated from it, and its structure
    /// serves ratcheting and server-side apply.
    Rules(String),
    /// Only its skeleton ([`Structural::skeleton`]): what ratcheting and apply read.
    Skeleton(String),
}

/// A pipeline to emit: its schema's root node, or no schema, or why its schema failed.
enum Root {
    Node {
        id: NodeId,
        default_pruning_error: Option<String>,
        /// The root of its validation.
        check: validation::graph::NodeId,
        /// The schema the generated pipeline reads once, as JSON.
        embedded: Embedded,
        /// Its byte walk's plan: the root's index in the static node array.
        /// The root's index in the plans' nodes, and whether the plan's defaults read back as
        /// they are (see `Plan::value_exact`).
        scan: Option<(u32, bool)>,
    },
    NoSchema,
    Broken(String),
}

fn add_root(graphs: &mut Graphs, schema: Option<Structural>, prune_defaults: bool) -> Root {
    let Some(mut s) = schema else { return Root::NoSchema };
    let check = graphs.validation.add(&s, "");
    let embedded = if kstruct::rules::has_rules(&s) {
        Embedded::Rules(kstruct::schema::serialize::to_json(&s))
    } else {
        Embedded::Skeleton(kstruct::schema::serialize::to_json(&s.skeleton()))
    };
    let default_pruning_error = if prune_defaults {
        kstruct::interpreter::prune_defaults(&mut s).err()
    } else {
        None
    };
    let scan = kstruct::scan::Plan::new(Some(&s)).map(|plan| (graphs.scan.add(&plan), plan.value_exact()));
    Root::Node {
        id: graphs.walks.add(&s, ""),
        default_pruning_error,
        check,
        embedded,
        scan,
    }
}

/// What is built of the compiled schemas: the graph of pruning, defaulting and coercion;
/// the graph of validation; the byte walk's plans.
struct Graphs {
    walks: Graph,
    validation: validation::graph::Graph,
    scan: kstruct::scan::PlanWriter,
}

impl Default for Graphs {
    fn default() -> Graphs {
        Graphs {
            walks: Graph::default(),
            validation: validation::graph::Graph::default(),
            scan: kstruct::scan::PlanWriter::new("rt"),
        }
    }
}

struct Version {
    name: String,
    status_subresource: bool,
    scale: Option<kstruct::schema::crd::ScaleSubresource>,
    type_name: Ident,
    module: Ident,
    root: Root,
}

struct Crd {
    name: String,
    group: String,
    kind: String,
    preserve_unknown_fields: bool,
    namespaced: bool,
    module: Ident,
    versions: Vec<Version>,
}

fn ident(s: &str) -> Ident {
    Ident::new(s, Span::call_site())
}

pub fn generate(sources: &Sources, prune_defaults: bool) -> Result<(String, Stats), Error> {
    let mut graphs = Graphs::default();
    let mut stats = Stats::default();
    let mut top = Scope::default();
    top.unique("__nodes".into());
    if !sources.schemas.is_empty() {
        top.unique("schemas".into());
    }

    // CRDs, by group then kind; a group's module is shared by its CRDs.
    let mut seen: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut group_modules: BTreeMap<String, Ident> = BTreeMap::new();
    let mut crds = Vec::new();
    for c in &sources.crds {
        let crd = &c.crd;
        if let Some(first) = seen.insert((crd.group.clone(), crd.kind.clone()), c.origin.clone()) {
            return Err(Error::Duplicate(format!(
                "{}: CRD {} defines group {:?} and kind {:?} again (first at {first})",
                c.origin, crd.name, crd.group, crd.kind
            )));
        }
        let module = group_modules
            .entry(crd.group.clone())
            .or_insert_with(|| ident(&top.unique(names::module(&crd.group))))
            .clone();
        let mut versions = Vec::new();
        for v in &crd.versions {
            let root = match v.structural() {
                Ok(s) => add_root(&mut graphs, s, !crd.preserve_unknown_fields),
                Err(e) => {
                    stats
                        .warnings
                        .push(format!("{}: CRD {} version {}: {e}", c.origin, crd.name, v.name));
                    Root::Broken(e.to_string())
                }
            };
            versions.push(Version {
                name: v.name.clone(),
                status_subresource: v.status_subresource,
                scale: v.scale.clone(),
                type_name: ident("_"),
                module: ident("_"),
                root,
            });
        }
        crds.push(Crd {
            name: crd.name.clone(),
            group: crd.group.clone(),
            kind: crd.kind.clone(),
            preserve_unknown_fields: crd.preserve_unknown_fields,
            namespaced: crd.scope == "Namespaced",
            module,
            versions,
        });
    }
    crds.sort_by(|a, b| (&a.group, &a.kind).cmp(&(&b.group, &b.kind)));

    // Names inside each group: a version module per version name, a type per kind.
    let mut version_modules: BTreeMap<(String, String), Ident> = BTreeMap::new();
    let mut group_scopes: BTreeMap<String, Scope> = BTreeMap::new();
    let mut type_scopes: BTreeMap<(String, String), Scope> = BTreeMap::new();
    for crd in &mut crds {
        for v in &mut crd.versions {
            v.module = version_modules
                .entry((crd.group.clone(), v.name.clone()))
                .or_insert_with(|| {
                    let scope = group_scopes.entry(crd.group.clone()).or_default();
                    ident(&scope.unique(names::module(&v.name)))
                })
                .clone();
            let scope = type_scopes.entry((crd.group.clone(), v.name.clone())).or_default();
            v.type_name = ident(&scope.unique(names::type_name(&crd.kind)));
        }
    }

    // Bare schemas, by name.
    let mut schemas = Vec::new();
    let mut schema_scope = Scope::default();
    let mut schema_names = BTreeMap::new();
    for s in &sources.schemas {
        if schema_names.insert(s.name.clone(), ()).is_some() {
            return Err(Error::Duplicate(format!("schema name {:?} is given twice", s.name)));
        }
        let root = match &s.schema {
            Ok(schema) => add_root(&mut graphs, schema.clone(), prune_defaults),
            Err(why) => Root::Broken(why.clone()),
        };
        schemas.push((
            s.name.clone(),
            ident(&schema_scope.unique(names::type_name(&s.name))),
            root,
        ));
    }
    schemas.sort_by(|a, b| a.0.cmp(&b.0));

    check_constants(graphs.walks.constants.iter().chain(&graphs.validation.constants))?;
    let graph = &graphs.walks;
    let mut emitter = Emitters {
        walks: Emitter::new(graph),
        validation: validation::emit::Emitter::new(&graphs.validation),
        plans: Vec::new(),
    };

    // Group modules.
    let mut groups: BTreeMap<Ident, BTreeMap<Ident, Vec<TokenStream>>> = BTreeMap::new();
    let mut group_names: BTreeMap<Ident, String> = BTreeMap::new();
    let mut version_names: BTreeMap<(Ident, Ident), String> = BTreeMap::new();
    for crd in &crds {
        group_names.insert(crd.module.clone(), crd.group.clone());
        // A version whose schema does not convert has no type: the registry says why.
        for v in crd.versions.iter().filter(|v| !matches!(v.root, Root::Broken(_))) {
            version_names.insert((crd.module.clone(), v.module.clone()), v.name.clone());
            let gvk = Some((crd.group.as_str(), v.name.as_str(), crd.kind.as_str()));
            let doc = format!(
                " `{}` of `{}/{}`, compiled from CRD `{}`.",
                crd.kind, crd.group, v.name, crd.name
            );
            let item = pipeline_type(
                &mut emitter,
                &v.type_name,
                &doc,
                &v.root,
                gvk,
                crd.preserve_unknown_fields,
                quote!(super::super),
            );
            groups
                .entry(crd.module.clone())
                .or_default()
                .entry(v.module.clone())
                .or_default()
                .push(item);
        }
    }
    let group_items = groups.iter().map(|(module, versions)| {
        let group = &group_names[module];
        let doc = format!(" API group `{group}`.");
        let versions = versions.iter().map(|(vmod, items)| {
            let vdoc = format!(" `{group}/{}`.", version_names[&(module.clone(), vmod.clone())]);
            quote! {
                #[doc = #vdoc]
                #[allow(unused_imports)]
                pub mod #vmod {
                    use ::kstruct::compiled::v1 as rt;
                    use rt::Value;
                    #(#items)*
                }
            }
        });
        quote! {
            #[doc = #doc]
            pub mod #module {
                #(#versions)*
            }
        }
    });
    let group_items: Vec<TokenStream> = group_items.collect();

    let schema_items: Vec<TokenStream> = schemas
        .iter()
        .filter(|(_, _, root)| !matches!(root, Root::Broken(_)))
        .map(|(name, type_name, root)| {
            let doc = format!(" The bare schema `{name}`.");
            pipeline_type(&mut emitter, type_name, &doc, root, None, false, quote!(super))
        })
        .collect();
    let schema_module = (!schema_items.is_empty()).then(|| {
        quote! {
            /// Bare schemas, each serving any object.
            #[allow(unused_imports)]
            pub mod schemas {
                use ::kstruct::compiled::v1 as rt;
                use rt::Value;
                #(#schema_items)*
            }
        }
    });

    // The registry.
    let crd_entries = crds.iter().map(|crd| {
        let (name, group, kind, preserve) = (&crd.name, &crd.group, &crd.kind, crd.preserve_unknown_fields);
        let namespaced = crd.namespaced;
        let module = &crd.module;
        let versions = crd.versions.iter().map(|v| {
            let vname = &v.name;
            let (vmod, ty) = (&v.module, &v.type_name);
            let pipeline = match &v.root {
                Root::Broken(e) => quote! { Err(#e) },
                _ => quote! { Ok(&#module::#vmod::#ty) },
            };
            let status = v.status_subresource;
            let scale = match &v.scale {
                Some(s) => {
                    let (spec, status) = (&s.spec_replicas_path, &s.status_replicas_path);
                    let selector = match &s.label_selector_path {
                        Some(p) => quote!(Some(#p)),
                        None => quote!(None),
                    };
                    quote! {
                        Some(rt::ScalePaths { spec_replicas: #spec, status_replicas: #status, label_selector: #selector })
                    }
                }
                None => quote!(None),
            };
            quote! {
                rt::CompiledVersion { name: #vname, pipeline: #pipeline, status_subresource: #status, scale: #scale }
            }
        });
        quote! {
            rt::CompiledCrd {
                name: #name,
                group: #group,
                kind: #kind,
                preserve_unknown_fields: #preserve,
                namespaced: #namespaced,
                versions: &[#(#versions),*],
            }
        }
    });
    let schema_entries = schemas.iter().map(|(name, ty, root)| {
        let pipeline = match root {
            Root::Broken(why) => quote! { Err(#why) },
            _ => quote! { Ok(&schemas::#ty) },
        };
        quote! { rt::CompiledSchema { name: #name, pipeline: #pipeline } }
    });

    let (nodes, functions) = emitter.walks.finish();
    let (checks, check_functions) = emitter.validation.finish();
    // The plans are a table: written one entry per line, outside the pretty-printer (which
    // would spread each entry over ten lines). The text is checked to parse.
    let scan_module = if graphs.scan.is_empty() {
        None
    } else {
        let scan = std::mem::replace(&mut graphs.scan, kstruct::scan::PlanWriter::new("rt"));
        let mut items = scan.finish();
        // Each pipeline's plan: its root in SCAN_NODES.
        items.push_str(&format!(
            "    /// Each pipeline's plan (a root in `SCAN_NODES`).\n    pub(super) static PLANS: [rt::ScanPlan; {}] = [\n",
            emitter.plans.len()
        ));
        for (i, (root, exact)) in emitter.plans.iter().enumerate() {
            let from = if *exact {
                "from_static"
            } else {
                "from_static_bytes_only"
            };
            items.push_str(&format!(
                "        /* {i} */ rt::ScanPlan::{from}(&SCAN_NODES, {root}),\n"
            ));
        }
        items.push_str("    ];\n");
        syn::parse_str::<syn::File>(&items).map_err(|e| Error::Input(format!("internal error: plan items: {e}")))?;
        Some(format!(
            "/// The byte walk's plans of every pipeline above, as static data.\n\
             #[rustfmt::skip]\n\
             mod __scan {{\n    use ::kstruct::compiled::v1 as rt;\n\n{items}}}\n"
        ))
    };
    let (major, minor) = version();
    let (major, minor) = (
        proc_macro2::Literal::u64_unsuffixed(major),
        proc_macro2::Literal::u64_unsuffixed(minor),
    );
    let file = quote! {
        const _: () = ::kstruct::compiled::v1::compatible(#major, #minor);

        /// Everything this file compiled: its CRDs by group and kind, its bare schemas by name.
        pub static REGISTRY: ::kstruct::compiled::v1::Registry = {
            use ::kstruct::compiled::v1 as rt;
            rt::Registry::new(&[#(#crd_entries),*], &[#(#schema_entries),*])
        };

        #(#group_items)*

        #schema_module

        /// The walks of every distinct schema node, shared by all pipelines above.
        // Nested `if let`s stay nested: let chains would need the 2024 edition, and this file
        // builds in any edition. A list's walk stays a guarded loop inside its arm.
        #[allow(clippy::collapsible_if, clippy::collapsible_match, unused_imports)]
        mod __nodes {
            use ::kstruct::compiled::v1 as rt;
            use rt::Value;

            #nodes
            #checks
        }
    };
    let syntax: syn::File = syn::parse2(file).map_err(|e| Error::Input(format!("internal error: {e}")))?;
    let body = prettyplease::unparse(&syntax);
    let mut code = header(sources);
    code.push_str(&body);
    if let Some(scan) = scan_module {
        code.push_str(&scan);
    }

    stats.crds = crds.len();
    stats.pipelines = crds.iter().map(|c| c.versions.len()).sum::<usize>() + schemas.len();
    stats.schema_nodes = graph.schema_nodes;
    stats.distinct_nodes = graph.nodes.len();
    stats.functions = functions + check_functions;
    stats.validation_nodes = graphs.validation.nodes.len();
    stats.constants = graph.constants.len();
    stats.lines = code.lines().count();
    Ok((code, stats))
}

fn version() -> (u64, u64) {
    let major = env!("CARGO_PKG_VERSION_MAJOR").parse().unwrap_or(0);
    let minor = env!("CARGO_PKG_VERSION_MINOR").parse().unwrap_or(0);
    (major, minor)
}

fn header(sources: &Sources) -> String {
    let mut h = format!(
        "// @generated by kstruct-compiler {}. Do not edit: regenerate instead.\n",
        env!("CARGO_PKG_VERSION")
    );
    if !sources.crds.is_empty() {
        h.push_str("//\n// CRDs:\n");
        for c in &sources.crds {
            h.push_str(&format!("// - {} ({})\n", c.crd.name, c.origin));
        }
    }
    if !sources.schemas.is_empty() {
        h.push_str(&format!("//\n// Bare schemas: {}\n", sources.schemas.len()));
    }
    h.push('\n');
    h
}

/// Both emitters, filling one module of node functions.
struct Emitters<'g> {
    walks: Emitter<'g>,
    validation: validation::emit::Emitter<'g>,
    /// The pipelines' plans (`PLANS` in `mod __scan`): each root node and whether its
    /// defaults read back exactly, once.
    plans: Vec<(u32, bool)>,
}

/// Every default and enum list must come back exactly as it was from the text the generated
/// code holds.
fn check_constants<'a>(constants: impl Iterator<Item = &'a String>) -> Result<(), Error> {
    for text in constants {
        let back = kstruct::json::decode(text.as_bytes()).map(|d| d.value);
        let original: Result<serde_json::Value, _> = serde_json::from_str(text);
        let same = match (&back, &original) {
            (Ok(a), Ok(b)) => a == b,
            // Deeper than serde_json reads: kstruct's decoder is the one used at run time.
            (Ok(_), Err(_)) => true,
            _ => false,
        };
        if !same {
            return Err(Error::Input(format!(
                "a default value does not survive the round trip through JSON: {text}"
            )));
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn pipeline_type(
    emitter: &mut Emitters<'_>,
    type_name: &Ident,
    doc: &str,
    root: &Root,
    gvk: Option<(&str, &str, &str)>,
    preserve_unknown_fields: bool,
    up: TokenStream,
) -> TokenStream {
    // The modules of node functions and of plans, from the pipeline's module.
    let (nodes, plans) = (quote!(#up::__nodes), quote!(#up::__scan));
    let resource = gvk.map(|(g, v, k)| {
        quote! {
            fn resource(&self) -> Option<&rt::GroupVersionKind> {
                static RESOURCE: ::std::sync::LazyLock<rt::GroupVersionKind> =
                    ::std::sync::LazyLock::new(|| rt::GroupVersionKind::new(#g, #v, #k));
                Some(&RESOURCE)
            }
        }
    });
    let preserve = preserve_unknown_fields.then(|| {
        quote! {
            fn preserves_unknown_fields(&self) -> bool {
                true
            }
        }
    });
    let body = match root {
        Root::Node {
            id,
            default_pruning_error,
            check,
            embedded: schema,
            scan,
        } => {
            let scan = scan.map(|plan| {
                let index = match emitter.plans.iter().position(|p| *p == plan) {
                    Some(index) => index,
                    None => {
                        emitter.plans.push(plan);
                        emitter.plans.len() - 1
                    }
                };
                let index = proc_macro2::Literal::usize_unsuffixed(index);
                quote! {
                    fn scan_plan(&self) -> Option<&rt::ScanPlan> {
                        Some(&#plans::PLANS[#index])
                    }
                }
            });
            let validate = {
                use validation::emit::Walk as V;
                let values = emitter.validation.request(V::Check, *check).map(|f| quote!(#nodes::#f));
                let mut walk = |w| match emitter.validation.request(w, *check) {
                    Some(f) => quote!(Some(#nodes::#f)),
                    None => quote!(None),
                };
                let (embedded, lists) = (walk(V::Embedded), walk(V::Lists));
                let read_once = |json: &String| {
                    quote! {
                        static SCHEMA: ::std::sync::LazyLock<Option<rt::Structural>> =
                            ::std::sync::LazyLock::new(|| rt::embedded_schema(#json));
                        SCHEMA.as_ref()
                    }
                };
                let rules = match schema {
                    Embedded::Rules(json) => {
                        let schema = read_once(json);
                        quote! {
                            fn has_validation_rules(&self) -> bool {
                                true
                            }
                            fn rules_schema(&self) -> Option<&rt::Structural> {
                                #schema
                            }
                            fn skeleton(&self) -> Option<&rt::Structural> {
                                self.rules_schema()
                            }
                        }
                    }
                    Embedded::Skeleton(json) => {
                        let skeleton = read_once(json);
                        quote! {
                            fn skeleton(&self) -> Option<&rt::Structural> {
                                #skeleton
                            }
                        }
                    }
                };
                quote! {
                    fn validate(&self, value: &Value) -> rt::SchemaErrors {
                        rt::validate(value, #values, #embedded, #lists)
                    }
                    #rules
                }
            };
            let emitter = &mut emitter.walks;
            let all = match emitter.request(Walk::All, *id) {
                Some(f) => quote!(#nodes::#f),
                None => quote!(|v, cx| cx.leaf(v)),
            };
            // A resource root always has a walk of its own (its metadata is kept).
            let all_resource = match emitter.request(Walk::AllResource, *id) {
                Some(f) => quote!(#nodes::#f),
                None => all.clone(),
            };
            let coerce = match emitter.request(Walk::Coerce, *id) {
                Some(f) => quote! {
                    fn coerce_embedded(&self, value: &mut Value, options: rt::CoerceOptions) -> rt::Coerced {
                        rt::coerce(value, options, #nodes::#f)
                    }
                },
                None => quote! {
                    fn coerce_embedded(&self, _: &mut Value, _: rt::CoerceOptions) -> rt::Coerced {
                        Ok(Vec::new())
                    }
                },
            };
            let pruning_error = default_pruning_error.as_ref().map(|e| {
                quote! {
                    fn default_pruning_error(&self) -> Option<&str> {
                        Some(#e)
                    }
                }
            });
            quote! {
                fn walk(&self, v: &mut Value, o: rt::PruneOptions, s: rt::Steps) -> rt::PruneReport {
                    rt::walk(v, o, s, #all, #all_resource)
                }
                #validate
                #coerce
                #pruning_error
                #scan
            }
        }
        // No schema (or one the API server serves as none): as an interpreter without one.
        Root::NoSchema | Root::Broken(_) => quote! {
            fn walk(&self, v: &mut Value, o: rt::PruneOptions, s: rt::Steps) -> rt::PruneReport {
                rt::NoSchema.walk(v, o, s)
            }
            fn coerce_embedded(&self, _: &mut Value, _: rt::CoerceOptions) -> rt::Coerced {
                Ok(Vec::new())
            }
            fn validate(&self, value: &Value) -> rt::SchemaErrors {
                rt::NoSchema.validate(value)
            }
        },
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct #type_name;

        impl rt::Pipeline for #type_name {
            #body
            #resource
            #preserve
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Config;

    /// A default holding a float Go prints as an integer keeps the plan from the walk to a
    /// `Value` (its printed form would read back as an integer); other plans are walked.
    #[test]
    fn plans_say_whether_their_defaults_read_back() {
        let generate = |default: serde_json::Value| {
            let schema = kstruct::schema::convert::from_value(&serde_json::json!({
                "type": "object",
                "properties": {"ratio": {"type": "number", "default": default}}}))
            .unwrap()
            .unwrap();
            Config::new().schema("s", &schema).generate().unwrap()
        };
        let code = generate(serde_json::json!(1.0));
        assert!(code.contains("rt::ScanPlan::from_static_bytes_only("), "{code}");
        for exact in [serde_json::json!(0.5), serde_json::json!(1)] {
            let code = generate(exact);
            assert!(code.contains("rt::ScanPlan::from_static("), "{code}");
        }
    }
}
