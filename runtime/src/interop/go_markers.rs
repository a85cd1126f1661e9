//! The markers of Kubernetes' Go types on the schemas of k8s-openapi's types: what
//! controller-gen writes from the same Go types and k8s-openapi's schemas leave out.
//!
//! k8s-openapi's schemars schemas come from the published OpenAPI v2 of a release, which has no
//! `x-kubernetes-list-type`, `x-kubernetes-list-map-keys` or `x-kubernetes-map-type`, nor the
//! `+default` markers that make list-map keys such as a port's `protocol` defaulted. The facts
//! of `kstruct-builtins` carry them per Go field: the schema is walked beside the Go type
//! (fields by JSON name, embedded structs flattened, pointers seen through, list items and map
//! values by their element types) and each marker written where controller-gen writes it.

use kstruct_builtins::{Catalog, GoType, Release, TypeDef, TypeShape};

use super::markers::{field_markers, type_markers};
use kstruct_schema::{AdditionalProperties, Structural};

/// The release of the Kubernetes types the binary's k8s-openapi was built for (its one
/// `v1_*` feature); a release newer than kstruct's data gets the data's development head.
pub(super) fn k8s_openapi_release() -> Release {
    // Assigned only under the version features the data holds by number.
    #[allow(unused_mut)]
    let mut name = "head";
    k8s_openapi::k8s_if_1_33! { name = "1.33"; }
    k8s_openapi::k8s_if_1_34! { name = "1.34"; }
    k8s_openapi::k8s_if_1_35! { name = "1.35"; }
    k8s_openapi::k8s_if_1_36! { name = "1.36"; }
    name.parse().unwrap_or_else(|_| Release::head())
}

/// Writes the markers of the Go type `go_type` (`core/v1.PodTemplateSpec`) of `release` into
/// `schema`, k8s-openapi's schema of the same type. Problems are the facts' (a type the data
/// does not hold), returned for the generator's report.
pub(super) fn apply(schema: &mut Structural, go_type: &str, release: Release) -> Result<(), String> {
    let catalog = Catalog::new(release).map_err(|e| e.to_string())?;
    let mut walk = Walk { catalog, depth: 0 };
    walk.type_name(schema, go_type)
}

struct Walk {
    catalog: Catalog,
    /// Nesting so far: Go types can recurse (JSONSchemaProps), schemas are finite.
    depth: usize,
}

impl Walk {
    fn def(&self, name: &str) -> Result<&'static TypeDef, String> {
        self.catalog
            .type_def(name)
            .ok_or_else(|| format!("Kubernetes {} has no Go type {name}", self.catalog.release()))
    }

    fn type_name(&mut self, schema: &mut Structural, name: &str) -> Result<(), String> {
        // An embedded ObjectMeta's schema is the reduced one controller-gen writes
        // (`generateEmbeddedObjectMeta`), without ObjectMeta's own markers.
        if name == "meta/v1.ObjectMeta" {
            return Ok(());
        }
        let def = self.def(name)?;
        if def.decodes_itself() || self.depth > 64 {
            return Ok(());
        }
        self.depth += 1;
        type_markers(schema, def.markers());
        let r = match def.shape() {
            TypeShape::Struct(_) => self.fields(schema, def),
            TypeShape::Named(t) | TypeShape::Alias(t) => self.go_type(schema, t),
        };
        self.depth -= 1;
        r
    }

    fn fields(&mut self, schema: &mut Structural, def: &TypeDef) -> Result<(), String> {
        for field in def.fields() {
            let Some(json) = field.json_name() else {
                // Embedded: its fields are this object's.
                if let Some(name) = named(field.go_type()) {
                    self.type_name(schema, name)?;
                }
                continue;
            };
            let Some(property) = schema.properties.get_mut(json) else {
                continue;
            };
            field_markers(&mut property.extensions, field);
            if let Some(default) = field.marker("default") {
                // `+default="TCP"`, `+default=0`: JSON. A `+default=ref(...)` constant is
                // the facts' `defaultRef`, left out as controller-gen leaves it out.
                if let Ok(value) = serde_json::from_str(default) {
                    property.generic.default.get_or_insert(value);
                }
            }
            self.go_type(property, field.go_type())?;
        }
        Ok(())
    }

    fn go_type(&mut self, schema: &mut Structural, t: &GoType) -> Result<(), String> {
        match t {
            GoType::Pointer(t) => self.go_type(schema, t),
            GoType::Slice(t) | GoType::Array(t) => match schema.items.as_deref_mut() {
                Some(items) => self.go_type(items, t),
                None => Ok(()),
            },
            GoType::Map(_, v) => match &mut schema.additional_properties {
                Some(AdditionalProperties::Schema(values)) => self.go_type(values, v),
                _ => Ok(()),
            },
            GoType::Named(name) => self.type_name(schema, name),
            GoType::Builtin(_) | GoType::Interface => Ok(()),
        }
    }
}

/// The named type a field embeds (`meta/v1.TypeMeta` of `*meta/v1.TypeMeta`).
fn named(t: &GoType) -> Option<&str> {
    match t {
        GoType::Named(n) => Some(n),
        GoType::Pointer(t) => named(t),
        _ => None,
    }
}
