//! Converting a v1 `openAPIV3Schema` (JSON or YAML) into a [`Structural`] schema, as the
//! reference's `NewStructural` does, with its errors.
//!
//! Two steps, as in the reference: the value is first decoded into the v1 `JSONSchemaProps`
//! model with Go's JSON rules (`props`), then converted (`NewStructural`), which rejects the
//! fields a structural schema cannot have.

pub(crate) mod go_json;
pub(crate) mod props;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::Error;
use crate::structural::{
    AdditionalProperties, Extensions, Generic, NestedValueValidation, Structural, ValueValidation,
};
use props::{Props, PropsOrArray, PropsOrBool};

/// Converts a v1 `openAPIV3Schema` value into a structural schema.
///
/// `null` gives `Ok(None)` (no schema). Errors are the reference's: Go JSON decoding errors
/// for values of the wrong type ([`Error::Decode`]), and `NewStructural`'s refusals such as
/// `OpenAPIV3Schema '$ref' is not supported` ([`Error::Unsupported`]). The schema need not be
/// structural: use [`validate_structural`](crate::validation::validate_structural) for that.
///
/// ```
/// let v = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}});
/// let s = kstruct_schema::convert::from_value(&v).unwrap().unwrap();
/// assert_eq!(s.properties["a"].generic.type_, "string");
///
/// let v = serde_json::json!({"$ref": "#/definitions/x"});
/// let e = kstruct_schema::convert::from_value(&v).unwrap_err();
/// assert_eq!(e.to_string(), "OpenAPIV3Schema '$ref' is not supported");
/// ```
pub fn from_value(v: &Value) -> Result<Option<Structural>, Error> {
    let props = props::decode(v).map_err(Error::Decode)?;
    match props {
        None => Ok(None),
        Some(p) => new_structural(&p).map(Some).map_err(Error::Unsupported),
    }
}

/// A v1 schema (`openAPIV3Schema`) as the API server prints it where the whole schema is a
/// field error's bad value: Go's `encoding/json` of the internal `JSONSchemaProps` (every
/// field under its Go name, zero values included); `null` for a schema that does not decode.
///
/// ```
/// let text = kstruct_schema::convert::internal_json(&serde_json::json!({"type": "object"}));
/// assert!(text.starts_with(r#"{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","#));
/// ```
pub fn internal_json(v: &Value) -> String {
    match props::decode(v) {
        Ok(Some(p)) => go_json::schema(&p),
        _ => "null".to_owned(),
    }
}

/// Only the first step of [`from_value`]: whether `v` decodes as a `JSONSchemaProps` (Go's
/// JSON rules), without converting it. The API server refuses a CRD whose schema does not.
pub fn check_decodes(v: &Value) -> Result<(), Error> {
    props::decode(v).map(|_| ()).map_err(Error::Decode)
}

/// The keys of a v1 `JSONSchemaProps` (what a schema node may hold; other keys are ignored).
pub const SCHEMA_KEYS: &[&str] = &[
    "id",
    "$schema",
    "$ref",
    "description",
    "type",
    "format",
    "title",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "enum",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "properties",
    "additionalProperties",
    "patternProperties",
    "dependencies",
    "additionalItems",
    "definitions",
    "externalDocs",
    "example",
    "nullable",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
];

/// `NewStructural` on an already decoded schema.
pub(crate) fn from_props(p: &Props) -> Result<Structural, Error> {
    new_structural(p).map_err(Error::Unsupported)
}

/// Parses a schema from JSON or YAML text (one document) and converts it with [`from_value`].
pub fn from_text(text: &str) -> Result<Option<Structural>, Error> {
    let value = crate::yaml::to_json(text).map_err(Error::Yaml)?.value;
    from_value(&value)
}

fn unsupported_fields(s: &Props) -> Result<(), String> {
    let unsupported = if !s.id.is_empty() {
        "id"
    } else if !s.schema.is_empty() {
        "schema"
    } else if s.ref_.as_deref().is_some_and(|r| !r.is_empty()) {
        "$ref"
    } else if !s.pattern_properties.is_empty() {
        "patternProperties"
    } else if !s.dependencies.is_empty() {
        "dependencies"
    } else if s.additional_items.is_some() {
        "additionalItems"
    } else if !s.definitions.is_empty() {
        "definitions"
    } else {
        return Ok(());
    };
    Err(format!("OpenAPIV3Schema '{unsupported}' is not supported"))
}

const ITEMS_ARRAY: &str = "OpenAPIV3Schema 'items' must be a schema, but is an array";

/// `NewStructural`.
fn new_structural(s: &Props) -> Result<Structural, String> {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
        unsupported_fields(s)?;
        let value_validation = new_value_validation(s)?;
        let generic = new_generic(s);
        let extensions = new_extensions(s)?;
        let mut out = Structural {
            generic,
            extensions,
            value_validation,
            x_validations: s.x_validations.clone(),
            ..Structural::default()
        };
        match &s.items {
            Some(PropsOrArray::Array(list)) if !list.is_empty() => return Err(ITEMS_ARRAY.into()),
            Some(PropsOrArray::Schema(item)) => out.items = Some(Box::new(new_structural(item)?)),
            _ => {}
        }
        if let Some(props) = &s.properties {
            for (k, p) in props {
                out.properties.insert(k.clone(), new_structural(p)?);
            }
        }
        out.additional_properties = match &s.additional_properties {
            None => None,
            Some(PropsOrBool::Bool(b)) => Some(AdditionalProperties::Bool(*b)),
            Some(PropsOrBool::Schema(p)) => Some(AdditionalProperties::Schema(Box::new(new_structural(p)?))),
        };
        Ok(out)
    })
}

fn new_generic(s: &Props) -> Generic {
    Generic {
        description: s.description.clone(),
        type_: s.type_.clone(),
        title: s.title.clone(),
        default: s.default.clone(),
        nullable: s.nullable,
        example: s.example.clone(),
        external_docs: s.external_docs.clone(),
    }
}

fn new_extensions(s: &Props) -> Result<Extensions, String> {
    let x_preserve_unknown_fields = match s.x_preserve_unknown_fields {
        Some(false) => {
            return Err("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined".into());
        }
        Some(true) => true,
        None => false,
    };
    Ok(Extensions {
        x_preserve_unknown_fields,
        x_embedded_resource: s.x_embedded_resource,
        x_int_or_string: s.x_int_or_string,
        x_list_map_keys: s.x_list_map_keys.clone(),
        x_list_type: s.x_list_type.clone(),
        x_map_type: s.x_map_type.clone(),
    })
}

fn new_value_validation(s: &Props) -> Result<ValueValidation, String> {
    let not = match &s.not {
        Some(n) => Some(Box::new(new_nested(n)?)),
        None => None,
    };
    let mut v = ValueValidation {
        format: s.format.clone(),
        maximum: s.maximum,
        exclusive_maximum: s.exclusive_maximum,
        minimum: s.minimum,
        exclusive_minimum: s.exclusive_minimum,
        max_length: s.max_length,
        min_length: s.min_length,
        pattern: s.pattern.clone(),
        max_items: s.max_items,
        min_items: s.min_items,
        unique_items: s.unique_items,
        multiple_of: s.multiple_of,
        enum_: s.enum_.clone(),
        max_properties: s.max_properties,
        min_properties: s.min_properties,
        required: s.required.clone(),
        not,
        ..ValueValidation::default()
    };
    for x in &s.all_of {
        v.all_of.push(new_nested(x)?);
    }
    for x in &s.any_of {
        v.any_of.push(new_nested(x)?);
    }
    for x in &s.one_of {
        v.one_of.push(new_nested(x)?);
    }
    Ok(v)
}

/// `newNestedValueValidation`.
fn new_nested(s: &Props) -> Result<NestedValueValidation, String> {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
        unsupported_fields(s)?;
        let value_validation = new_value_validation(s)?;
        let forbidden_generics = new_generic(s);
        let forbidden_extensions = new_extensions(s)?;
        let mut out = NestedValueValidation {
            value_validation,
            x_validations: s.x_validations.clone(),
            forbidden_generics,
            forbidden_extensions,
            ..NestedValueValidation::default()
        };
        match &s.items {
            Some(PropsOrArray::Array(list)) if !list.is_empty() => return Err(ITEMS_ARRAY.into()),
            Some(PropsOrArray::Schema(item)) => out.items = Some(Box::new(new_nested(item)?)),
            _ => {}
        }
        if let Some(props) = &s.properties {
            let mut map = BTreeMap::new();
            for (k, p) in props {
                map.insert(k.clone(), new_nested(p)?);
            }
            out.properties = Some(map);
        }
        out.additional_properties = match &s.additional_properties {
            None | Some(PropsOrBool::Bool(false)) => None,
            Some(PropsOrBool::Bool(true)) => Some(Box::default()),
            Some(PropsOrBool::Schema(p)) => Some(Box::new(new_nested(p)?)),
        };
        Ok(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn convert(v: Value) -> Result<Option<Structural>, String> {
        from_value(&v).map_err(|e| e.to_string())
    }

    #[test]
    fn rejects_what_new_structural_rejects() {
        let cases = [
            (json!({"id": "x"}), "OpenAPIV3Schema 'id' is not supported"),
            (json!({"$schema": "x"}), "OpenAPIV3Schema 'schema' is not supported"),
            (json!({"$ref": "x"}), "OpenAPIV3Schema '$ref' is not supported"),
            (
                json!({"patternProperties": {"a": {}}}),
                "OpenAPIV3Schema 'patternProperties' is not supported",
            ),
            (
                json!({"dependencies": {"a": ["b"]}}),
                "OpenAPIV3Schema 'dependencies' is not supported",
            ),
            (
                json!({"additionalItems": false}),
                "OpenAPIV3Schema 'additionalItems' is not supported",
            ),
            (
                json!({"definitions": {"a": {}}}),
                "OpenAPIV3Schema 'definitions' is not supported",
            ),
            (json!({"items": [{"type": "string"}]}), ITEMS_ARRAY),
            (
                json!({"properties": {"a": {"x-kubernetes-preserve-unknown-fields": false}}}),
                "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
            ),
            (
                json!({"anyOf": [{"$ref": "x"}]}),
                "OpenAPIV3Schema '$ref' is not supported",
            ),
            (json!({"id": "x", "$ref": "y"}), "OpenAPIV3Schema 'id' is not supported"),
        ];
        for (v, want) in cases {
            assert_eq!(convert(v.clone()).unwrap_err(), want, "{v}");
        }
    }

    #[test]
    fn accepts_empty_unsupported_fields() {
        assert!(convert(json!({"$ref": "", "patternProperties": {}, "definitions": {}, "items": []})).is_ok());
    }

    #[test]
    fn converts_structure() {
        let s = convert(json!({
            "type": "object",
            "properties": {"a": {"type": "array", "items": {"type": "integer", "default": 3}}},
            "additionalProperties": false,
            "x-kubernetes-preserve-unknown-fields": true,
            "required": [],
            "anyOf": [{"properties": {}}, {"additionalProperties": true}],
        }))
        .unwrap()
        .unwrap();
        assert!(s.extensions.x_preserve_unknown_fields);
        assert_eq!(s.additional_properties, Some(AdditionalProperties::Bool(false)));
        assert_eq!(
            s.properties["a"].items.as_ref().unwrap().generic.default,
            Some(json!(3))
        );
        assert_eq!(s.value_validation.required, Some(vec![]));
        assert_eq!(s.value_validation.any_of[0].properties, Some(BTreeMap::new()));
        assert!(s.value_validation.any_of[1].additional_properties.is_some());
        assert!(
            convert(json!({"properties": {}}))
                .unwrap()
                .unwrap()
                .properties
                .is_empty()
        );
        assert_eq!(convert(json!(null)).unwrap(), None);
    }
}
