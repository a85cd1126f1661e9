//! The structural schema as CEL's declared types see it: [`SchemaNode`] for [`Structural`], so
//! that a node's rules are type-checked and costed against the type the API server gives it.

use kstruct_cel::schema::{AdditionalProperties, Json, SchemaNode};
use serde_json::Value;

use crate::structural::{self, Structural};

impl SchemaNode for Structural {
    fn schema_type(&self) -> &str {
        &self.generic.type_
    }

    fn format(&self) -> &str {
        &self.value_validation.format
    }

    fn properties(&self) -> Vec<(&str, &Self)> {
        self.properties.iter().map(|(k, v)| (k.as_str(), v)).collect()
    }

    fn items(&self) -> Option<&Self> {
        self.items.as_deref()
    }

    fn additional_properties(&self) -> Option<AdditionalProperties<'_, Self>> {
        self.additional_properties.as_ref().map(|a| match a {
            structural::AdditionalProperties::Bool(b) => AdditionalProperties::Bool(*b),
            structural::AdditionalProperties::Schema(s) => AdditionalProperties::Schema(&**s),
        })
    }

    fn max_length(&self) -> Option<i64> {
        self.value_validation.max_length
    }

    fn max_items(&self) -> Option<i64> {
        self.value_validation.max_items
    }

    fn max_properties(&self) -> Option<i64> {
        self.value_validation.max_properties
    }

    fn enum_values(&self) -> Vec<Json> {
        self.value_validation.enum_.iter().map(json).collect()
    }

    fn default_value(&self) -> Option<Json> {
        self.generic.default.as_ref().filter(|d| !d.is_null()).map(json)
    }

    fn required(&self) -> Vec<&str> {
        self.value_validation
            .required
            .iter()
            .flatten()
            .map(String::as_str)
            .collect()
    }

    fn nullable(&self) -> bool {
        self.generic.nullable
    }

    fn int_or_string(&self) -> bool {
        self.extensions.x_int_or_string
    }

    fn preserve_unknown_fields(&self) -> bool {
        self.extensions.x_preserve_unknown_fields
    }

    fn embedded_resource(&self) -> bool {
        self.extensions.x_embedded_resource
    }

    fn list_type(&self) -> Option<&str> {
        self.extensions.x_list_type.as_deref()
    }

    fn list_map_keys(&self) -> Vec<&str> {
        self.extensions
            .x_list_map_keys
            .iter()
            .flatten()
            .map(String::as_str)
            .collect()
    }
}

fn json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Json::Int(i),
            None => Json::Double(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Json::String(s.clone()),
        Value::Array(a) => Json::Array(a.iter().map(json).collect()),
        Value::Object(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), json(v))).collect()),
    }
}
