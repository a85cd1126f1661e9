//! Fixtures the unit tests share.

use serde_json::{Value, json};

use crate::RegisteredCrd;

/// A namespaced `widgets.example.com` CRD with one version, `v1`, whose `spec` declares
/// `spec_properties`.
pub(crate) fn widget_crd(spec_properties: Value) -> RegisteredCrd {
    widget_crd_of(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": spec_properties}}}))
}

/// The same CRD with `schema` as its `openAPIV3Schema`.
pub(crate) fn widget_crd_of(schema: Value) -> RegisteredCrd {
    RegisteredCrd::new(widget_definition(schema))
}

/// The widget CRD itself, with `schema` as its `openAPIV3Schema` (for a `Registry`).
pub(crate) fn widget_definition(schema: Value) -> kstruct_schema::crd::CustomResourceDefinition {
    kstruct_schema::crd::CustomResourceDefinition::from_value(&json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"kind": "Widget", "plural": "widgets"},
                 "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]}
    }))
    .expect("the widget CRD")
}
