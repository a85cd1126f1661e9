//! The field manager's schema of a built-in kind: what structured-merge-diff types a
//! server-side apply body with, built from the Go types as the API server builds it from the
//! OpenAPI definitions openapi-gen writes for them (kube-openapi's `ToSchemaFromOpenAPI`).
//!
//! It is written as a [`Structural`] so that the one typed view of apply bodies (the patch
//! layer's) serves custom resources and built-in kinds alike:
//! - a struct is an object of its JSON fields (embedded and `,inline` structs flattened),
//!   `x-kubernetes-map-type: atomic` under `+structType=atomic` (or a field's `+mapType`);
//! - `+listType`, `+listMapKey` and `+mapType` go where openapi-gen writes them;
//! - a list-map key field defaults as openapi-gen enforces it: its `+default`, else the zero
//!   value of a scalar field without `omitempty` (a container without `name` is `[name=""]`);
//! - `resource.Quantity` is any scalar (hard-coded so in the conversion), `intstr.IntOrString`
//!   untyped, `Time` and `MicroTime` strings with a format (any scalar), `RawExtension` any
//!   value replaced as a whole, `FieldsV1` a free-form object, `[]byte` a string.
//!
//! Kinds whose Go types recurse (CustomResourceDefinition's `JSONSchemaProps`, the development
//! head's alpha `Workload`) have no finite tree: [`kind_schema`] gives `None` for them.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use kstruct_builtins::{Catalog, Field, GoType, Release, TypeDef, TypeShape};
use kstruct_schema::{AdditionalProperties, Structural};

use crate::interop::markers;

/// The field manager's schema of the Go type `type_name` (a kind's root type) in `catalog`'s
/// release, built once per release and type; `None` when the type recurses or names a type
/// the facts do not hold.
pub(crate) fn kind_schema(catalog: &Catalog, type_name: &'static str) -> Option<Arc<Structural>> {
    type Cache = Mutex<HashMap<(Release, &'static str), Option<Arc<Structural>>>>;
    static CACHE: LazyLock<Cache> = LazyLock::new(Cache::default);
    let key = (catalog.release(), type_name);
    if let Some(hit) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return hit.clone();
    }
    let built = build(catalog, type_name).ok().map(Arc::new);
    CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert(built)
        .clone()
}

fn build(catalog: &Catalog, type_name: &str) -> Result<Structural, Unbuilt> {
    Builder {
        catalog,
        stack: Vec::new(),
    }
    .named_type(type_name)
}

/// Why a type has no schema here.
#[derive(Debug, PartialEq)]
enum Unbuilt {
    /// The type contains itself.
    Recursive,
    /// The facts do not hold it.
    Unknown,
}

struct Builder<'c> {
    catalog: &'c Catalog,
    /// The named types being built, outermost first.
    stack: Vec<&'static str>,
}

impl Builder<'_> {
    fn def(&self, name: &str) -> Result<&'static TypeDef, Unbuilt> {
        self.catalog.type_def(name).ok_or(Unbuilt::Unknown)
    }

    fn named_type(&mut self, name: &str) -> Result<Structural, Unbuilt> {
        if let Some(special) = special(name) {
            return Ok(special);
        }
        let def = self.def(name)?;
        if def.decodes_itself() {
            // The apiextensions types that decode themselves are parts of `JSONSchemaProps`,
            // which recurses.
            return Err(Unbuilt::Recursive);
        }
        if self.stack.contains(&def.name()) {
            return Err(Unbuilt::Recursive);
        }
        self.stack.push(def.name());
        let built = match def.shape() {
            TypeShape::Struct(_) => {
                let mut s = of_type("object");
                self.fields(&mut s, def)?;
                Ok(s)
            }
            TypeShape::Named(t) | TypeShape::Alias(t) => self.go_type(t),
        };
        self.stack.pop();
        let mut s = built?;
        markers::type_markers(&mut s, def.markers());
        Ok(s)
    }

    fn fields(&mut self, s: &mut Structural, def: &TypeDef) -> Result<(), Unbuilt> {
        for field in def.fields() {
            let Some(json) = field.json_name() else {
                // Embedded: its fields are this object's.
                if let Some(name) = named(field.go_type()) {
                    let inner = self.def(name)?;
                    self.stack.push(inner.name());
                    let r = self.fields(s, inner);
                    self.stack.pop();
                    r?;
                }
                continue;
            };
            let mut property = self.go_type(field.go_type())?;
            // A field's markers win over its type's (openapi-gen's override on the reference).
            markers::field_markers(&mut property.extensions, field);
            property.generic.default = self.key_default(field);
            s.properties.insert(json.to_owned(), property);
        }
        Ok(())
    }

    /// The default openapi-gen writes for a scalar field: its `+default`, else (no
    /// `omitempty`, not a pointer, no decoder of its own) the type's zero value. Only
    /// list-map keys read it.
    fn key_default(&self, field: &Field) -> Option<serde_json::Value> {
        // `+default="TCP"`, `+default=0`: JSON; `+default=ref(...)`: the constant's value.
        if let Some(text) = field.marker("default").or_else(|| field.marker("defaultRef")) {
            return serde_json::from_str(text).ok();
        }
        if field.omitempty() {
            return None;
        }
        let mut t = field.go_type();
        loop {
            match t {
                GoType::Builtin(b) => return zero_value(b),
                GoType::Named(n) if special(n).is_none() => {
                    let def = self.catalog.type_def(n)?;
                    match def.shape() {
                        TypeShape::Named(inner) | TypeShape::Alias(inner) if !def.decodes_itself() => t = inner,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
    }

    fn go_type(&mut self, t: &GoType) -> Result<Structural, Unbuilt> {
        Ok(match t {
            GoType::Pointer(t) => return self.go_type(t),
            GoType::Slice(t) if matches!(**t, GoType::Builtin("byte" | "uint8")) => {
                let mut s = of_type("string");
                s.value_validation.format = "byte".into();
                s
            }
            GoType::Slice(t) | GoType::Array(t) => {
                let mut s = of_type("array");
                s.items = Some(Box::new(self.go_type(t)?));
                s
            }
            GoType::Map(_, v) => {
                let mut s = of_type("object");
                s.additional_properties = Some(AdditionalProperties::Schema(Box::new(self.go_type(v)?)));
                s
            }
            GoType::Named(name) => return self.named_type(name),
            GoType::Builtin(b) => of_type(openapi_type(b)),
            // Any value, objects merged key by key.
            GoType::Interface => Structural::default(),
        })
    }
}

/// The schemas of the types that decode themselves, as the conversion reads them.
fn special(name: &str) -> Option<Structural> {
    Some(match name {
        // Hard-coded as an untyped scalar: any scalar, nothing else. A string with a format
        // is what the typed view reads as any scalar.
        "resource.Quantity" => with_format("string", "quantity"),
        "meta/v1.Time" | "meta/v1.MicroTime" => with_format("string", "date-time"),
        // No type: any scalar, a list, or an object merged key by key.
        "intstr.IntOrString" => {
            let mut s = Structural::default();
            s.extensions.x_int_or_string = true;
            s
        }
        // `__untyped_atomic_`: any value, replaced as a whole.
        "runtime.RawExtension" => {
            let mut s = Structural::default();
            s.extensions.x_map_type = Some("atomic".into());
            s
        }
        // `type: object` without properties: any keys.
        "meta/v1.FieldsV1" => of_type("object"),
        _ => return None,
    })
}

fn of_type(t: &str) -> Structural {
    let mut s = Structural::default();
    s.generic.type_ = t.into();
    s
}

fn with_format(t: &str, format: &str) -> Structural {
    let mut s = of_type(t);
    s.value_validation.format = format.into();
    s
}

/// openapi-gen's type of a Go basic type.
fn openapi_type(builtin: &str) -> &'static str {
    match builtin {
        "bool" => "boolean",
        "string" => "string",
        "float32" | "float64" => "number",
        _ => "integer",
    }
}

/// `OpenAPIZeroValue` of a Go basic type.
fn zero_value(builtin: &str) -> Option<serde_json::Value> {
    Some(match openapi_type(builtin) {
        "boolean" => serde_json::Value::Bool(false),
        "string" => serde_json::Value::String(String::new()),
        _ => serde_json::Value::from(0),
    })
}

/// The named type a field embeds (`meta/v1.TypeMeta` of `*meta/v1.TypeMeta`).
fn named(t: &GoType) -> Option<&str> {
    match t {
        GoType::Named(n) => Some(n),
        GoType::Pointer(t) => named(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deployment(release: Release) -> Arc<Structural> {
        let catalog = Catalog::new(release).unwrap();
        let facts = catalog.kind("apps/v1", "Deployment").unwrap();
        kind_schema(&catalog, facts.type_name()).unwrap()
    }

    #[test]
    fn a_deployment_has_the_markers_of_its_go_types() {
        let s = deployment(Release::newest());
        let pod = &s.properties["spec"].properties["template"].properties["spec"];
        let containers = &pod.properties["containers"];
        assert_eq!(containers.extensions.x_list_type.as_deref(), Some("map"));
        assert_eq!(containers.extensions.x_list_map_keys, Some(vec!["name".to_owned()]));
        let container = containers.items.as_deref().unwrap();
        assert_eq!(
            container.properties["name"].generic.default,
            Some(serde_json::json!(""))
        );
        let ports = &container.properties["ports"];
        assert_eq!(
            ports.extensions.x_list_map_keys,
            Some(vec!["containerPort".to_owned(), "protocol".to_owned()])
        );
        let port = ports.items.as_deref().unwrap();
        assert_eq!(
            port.properties["protocol"].generic.default,
            Some(serde_json::json!("TCP"))
        );
        assert_eq!(
            port.properties["containerPort"].generic.default,
            Some(serde_json::json!(0))
        );
        // Optional fields have no enforced default.
        assert_eq!(port.properties["hostIP"].generic.default, None);
        // Quantities are any scalar; a selector is atomic; TypeMeta is flattened.
        let limits = &container.properties["resources"].properties["limits"];
        let Some(AdditionalProperties::Schema(q)) = &limits.additional_properties else {
            panic!("limits: {limits:?}")
        };
        assert_eq!(q.value_validation.format, "quantity");
        assert_eq!(
            s.properties["spec"].properties["selector"]
                .extensions
                .x_map_type
                .as_deref(),
            Some("atomic")
        );
        assert_eq!(s.properties["kind"].generic.type_, "string");
        assert_eq!(
            pod.properties["nodeSelector"].extensions.x_map_type.as_deref(),
            Some("atomic")
        );
    }

    #[test]
    fn recursive_kinds_have_no_tree() {
        let catalog = Catalog::new(Release::newest()).unwrap();
        let crd = catalog
            .kind("apiextensions.k8s.io/v1", "CustomResourceDefinition")
            .unwrap();
        assert!(kind_schema(&catalog, crd.type_name()).is_none());
    }

    #[test]
    fn every_kind_has_one_unless_its_types_recurse() {
        let mut recursive = Vec::new();
        for release in Release::ALL {
            let catalog = Catalog::new(release).unwrap();
            for gv in catalog.group_versions().collect::<Vec<_>>() {
                for kind in catalog.kinds(gv) {
                    match build(&catalog, kind.type_name()) {
                        Ok(_) => {}
                        Err(Unbuilt::Recursive) => recursive.push(format!("{gv} {}", kind.kind())),
                        Err(e) => panic!("{release} {gv} {}: {e:?}", kind.kind()),
                    }
                }
            }
        }
        recursive.sort();
        recursive.dedup();
        assert_eq!(
            recursive,
            [
                "apiextensions.k8s.io/v1 CustomResourceDefinition",
                "apiextensions.k8s.io/v1 CustomResourceDefinitionList",
                "apiextensions.k8s.io/v1beta1 CustomResourceDefinition",
                "apiextensions.k8s.io/v1beta1 CustomResourceDefinitionList",
                "scheduling.k8s.io/v1alpha3 Workload",
                "scheduling.k8s.io/v1alpha3 WorkloadList",
                "scheduling.k8s.io/v1beta1 Workload",
                "scheduling.k8s.io/v1beta1 WorkloadList",
            ]
        );
    }
}
