//! Layer 10: what the API server does to a decoded custom resource before it stores it: the
//! registry's and the strategy's steps of a create ([`validate_create`]) and of an update
//! ([`validate_update`]), with the value validation of the layer below
//! ([`validate_value`], [`validate_list_types`], [`validate_schema`]) re-exported here.

mod create;
mod update;

pub use crate::value_validation::{
    NumberKind, Numeric, Pattern, Res, SchemaErrors, validate_list_types, validate_schema, validate_value,
};
pub use create::{
    CreateContext, ScalePaths, apply_request_namespace, create_warnings, invalid_message, prepare_for_create,
    validate_create, wipe_system_fields,
};
pub use update::{before_update, prepare_for_update, update_warnings, validate_update, validate_update_warned};

use serde_json::Value;

use crate::objectmeta::{self, GetOptions, ObjectMeta};

/// The metadata of `obj` as the registry reads it: through the unstructured accessor, whose
/// getters each read one field and take a malformed one as unset. A client's body never gets
/// here with malformed metadata (decoding refuses it); what a mutating webhook wrote can, and
/// `labels: {a: 1}` then leaves the name and namespace readable. Empty when absent.
pub(crate) fn accessor_meta(obj: &Value) -> ObjectMeta {
    let options = GetOptions {
        drop_malformed_fields: true,
        ..GetOptions::default()
    };
    match obj {
        Value::Object(map) => objectmeta::get_object_meta(map, &options)
            .ok()
            .and_then(|f| f.meta)
            .unwrap_or_default(),
        _ => ObjectMeta::default(),
    }
}
