//! The list and map markers of Kubernetes' Go types (`+listType`, `+listMapKey`, `+mapType`,
//! `+structType`) as the `x-kubernetes-*` extensions openapi-gen and controller-gen write for
//! them: shared by the derive's k8s-openapi schemas and the field manager's schema of
//! built-in kinds.

use kstruct_builtins::Field;
use kstruct_schema::{Extensions, Structural};

/// A field's list and map markers (`+listType`, `+listMapKey`, `+mapType`, `+structType`), as
/// `x-kubernetes-*` extensions on its schema.
pub(crate) fn field_markers(ext: &mut Extensions, field: &Field) {
    if let Some(list_type) = field.marker("listType") {
        ext.x_list_type = Some(list_type.to_owned());
        if list_type == "map" {
            ext.x_list_map_keys = Some(field.list_map_keys().iter().map(|k| (*k).to_owned()).collect());
        }
    }
    if let Some(map_type) = field.marker("mapType").or_else(|| field.marker("structType")) {
        ext.x_map_type = Some(map_type.to_owned());
    }
}

/// A named type's own markers (`type ResourceList map[...]` with `+mapType=...`, a struct's
/// `+structType=atomic`), where its field's markers say nothing.
pub(crate) fn type_markers(schema: &mut Structural, markers: &[&str]) {
    for m in markers {
        let ext = &mut schema.extensions;
        if let Some(v) = m.strip_prefix("structType=").or_else(|| m.strip_prefix("mapType=")) {
            ext.x_map_type.get_or_insert_with(|| v.to_owned());
        } else if let Some(v) = m.strip_prefix("listType=") {
            ext.x_list_type.get_or_insert_with(|| v.to_owned());
        }
    }
}
