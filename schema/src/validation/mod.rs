//! Structural validation: the reference's `ValidateStructural`.
//!
//! A schema is structural when (1) every node has a type (or is int-or-string or preserves
//! unknown fields), (2) value validations (`allOf`, `anyOf`, `oneOf`, `not`) only restrict
//! values and never add structure the main schema lacks, (3) `metadata` is only restricted in
//! `name`/`generateName`, and (4) the `x-kubernetes-*` extensions are used consistently. The
//! API server refuses to create a CRD whose schemas are not structural.

mod complete;
pub mod field_path;
mod invariants;
mod nested;
pub mod openapi;

use crate::field::{FieldError, Path, sort_by_message};
use crate::structural::Structural;

/// Options of `ValidateStructuralWithOptions`. The API server uses [`Default`] (all off) for
/// CRDs; the options exist for libraries that validate native types.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ValidationOptions {
    /// Allows `additionalProperties` inside `allOf`/`anyOf`/`oneOf`/`not`.
    pub allow_nested_additional_properties: bool,
    /// Allows `x-kubernetes-validations` inside `allOf` (never inside `anyOf`/`oneOf`/`not`).
    pub allow_nested_x_validations: bool,
    /// Allows value validations on properties that the structure only defines through
    /// `additionalProperties`.
    pub allow_validation_properties_with_additional_properties: bool,
}

/// The schema level being validated: the rules for an empty `type` differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Root,
    Item,
    Field,
}

/// Checks that `s` is a structural schema, as the API server does for every CRD version.
///
/// `path` is where the schema sits: [`Path::nil`] for a bare schema (messages then start at
/// `properties[...]`, `type`...), or e.g. `spec.versions[0].schema.openAPIV3Schema` for a CRD.
/// The result is sorted by message text in byte order, as the reference sorts it.
///
/// ```
/// use kstruct_schema::{convert, field::Path, validation::validate_structural};
/// let s = convert::from_value(&serde_json::json!({"properties": {"a": {}}})).unwrap().unwrap();
/// let errors: Vec<String> = validate_structural(&Path::nil(), &s).iter().map(|e| e.to_string()).collect();
/// assert_eq!(errors, [
///     "properties[a].type: Required value: must not be empty for specified object fields",
///     "type: Required value: must not be empty at the root",
/// ]);
/// ```
pub fn validate_structural(path: &Path, s: &Structural) -> Vec<FieldError> {
    validate_structural_with_options(path, s, ValidationOptions::default())
}

/// [`validate_structural`] with explicit options.
pub fn validate_structural_with_options(path: &Path, s: &Structural, opts: ValidationOptions) -> Vec<FieldError> {
    let mut errors = Vec::new();
    invariants::validate(s, Level::Root, path, opts, &mut errors);
    complete::validate(s, path, opts, &mut errors);
    sort_by_message(&mut errors);
    errors
}

/// Only the completeness half of [`validate_structural_with_options`] (the reference's
/// `validateStructuralCompleteness`, which its tests call on their own): every property, item
/// or additionalProperties named by the root's value validations must exist in the structure.
pub fn validate_structural_completeness(path: &Path, s: &Structural, opts: ValidationOptions) -> Vec<FieldError> {
    let mut errors = Vec::new();
    complete::validate(s, path, opts, &mut errors);
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::from_value;
    use serde_json::{Value, json};

    fn messages(schema: Value) -> Vec<String> {
        let s = from_value(&schema).unwrap().unwrap();
        validate_structural(&Path::nil(), &s)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn object(props: Value) -> Value {
        json!({"type": "object", "properties": props})
    }

    /// One schema per rule, with the message the reference prints for it.
    #[test]
    fn every_rule_has_the_reference_message() {
        let cases: Vec<(Value, &str)> = vec![
            (
                object(json!({"a": {}})),
                "properties[a].type: Required value: must not be empty for specified object fields",
            ),
            (
                object(json!({"b": {"type": "array"}})),
                "properties[b].items: Required value: must be specified",
            ),
            (
                object(json!({"c": {"type": "array", "items": {}}})),
                "properties[c].items.type: Required value: must not be empty for specified array items",
            ),
            (json!({}), "type: Required value: must not be empty at the root"),
            (
                json!({"type": "array", "items": {"type": "string"}}),
                "type: Invalid value: \"array\": must be object at the root",
            ),
            (
                json!({"type": "object", "additionalProperties": false}),
                "additionalProperties: Forbidden: must not be used at the root",
            ),
            (
                object(
                    json!({"e": {"x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}),
                ),
                "properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true",
            ),
            (
                object(
                    json!({"f": {"type": "string", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}),
                ),
                "properties[f].type: Invalid value: \"string\": must be object if x-kubernetes-embedded-resource is true",
            ),
            (
                object(json!({"g": {"type": "object", "x-kubernetes-embedded-resource": true}})),
                "properties[g].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
            ),
            (
                object(json!({"h": {"type": "object", "x-kubernetes-embedded-resource": true,
                    "x-kubernetes-preserve-unknown-fields": true, "additionalProperties": {"type": "string"}}})),
                "properties[h].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set",
            ),
            (
                object(
                    json!({"i": {"x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true}}),
                ),
                "properties[i].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
            ),
            (
                object(json!({"j": {"x-kubernetes-int-or-string": true, "x-kubernetes-embedded-resource": true}})),
                "properties[j].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
            ),
            (
                object(json!({"d": {"type": "string", "anyOf": [{"type": "string"}]}})),
                "properties[d].anyOf[0].type: Forbidden: must be empty to be structural",
            ),
            (
                object(json!({"kind": {"type": "integer"}})),
                "properties[kind].type: Invalid value: \"integer\": must be string",
            ),
            (
                object(json!({"apiVersion": {"type": "boolean"}})),
                "properties[apiVersion].type: Invalid value: \"boolean\": must be string",
            ),
            (
                object(json!({"metadata": {"type": "object", "properties": {"labels": {"type": "object"}}}})),
                "properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
            ),
            // `externalDocs` and `example` are fields of the reference's Generic: they count.
            (
                object(json!({"metadata": {"type": "object", "externalDocs": {"url": "https://example.com"}}})),
                "properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
            ),
            (
                object(json!({"metadata": {"type": "object", "example": {"name": "x"}}})),
                "properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
            ),
            (
                object(json!({"metadata": {"type": "string"}})),
                "properties[metadata].type: Invalid value: \"string\": must be object",
            ),
            (
                json!({"type": "object", "anyOf": [{"properties": {"metadata": {}}}], "properties": {"metadata": {"type": "object"}}}),
                "anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context",
            ),
            (
                json!({"type": "object", "not": {"x-kubernetes-validations": [{"rule": "true"}]}}),
                "not.x-kubernetes-validations: Forbidden: must be empty to be structural",
            ),
            (
                json!({"type": "object", "allOf": [{"properties": {"foo": {"minLength": 2}}}]}),
                "properties[foo]: Required value: because it is defined in allOf[0].properties[foo]",
            ),
            (
                json!({"type": "object", "oneOf": [{"items": {"minItems": 1}}]}),
                "items: Required value: because it is defined in oneOf[0].items",
            ),
        ];
        for (schema, want) in cases {
            let got = messages(schema.clone());
            assert!(got.iter().any(|m| m == want), "{schema}\n want {want}\n  got {got:?}");
        }
    }

    #[test]
    fn nested_generics_and_extensions_are_each_reported() {
        let got = messages(json!({
            "type": "object",
            "allOf": [{
                "default": 1, "title": "t", "description": "d", "nullable": true,
                "additionalProperties": {}, "x-kubernetes-preserve-unknown-fields": true,
                "x-kubernetes-embedded-resource": true, "x-kubernetes-int-or-string": true,
                "x-kubernetes-list-map-keys": ["k"], "x-kubernetes-list-type": "map", "x-kubernetes-map-type": "atomic",
            }],
        }));
        assert_eq!(
            got,
            [
                "allOf[0].additionalProperties: Forbidden: must be undefined to be structural",
                "allOf[0].default: Forbidden: must be undefined to be structural",
                "allOf[0].description: Forbidden: must be empty to be structural",
                "allOf[0].nullable: Forbidden: must be false to be structural",
                "allOf[0].title: Forbidden: must be empty to be structural",
                "allOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural",
                "allOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural",
                "allOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural",
                "allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural",
                "allOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural",
                "allOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural",
            ]
        );
    }

    #[test]
    fn int_or_string_shapes_are_recognised_by_shape_alone() {
        let shape = json!([{"type": "integer"}, {"type": "string"}]);
        assert!(
            messages(object(
                json!({"p": {"x-kubernetes-int-or-string": true, "anyOf": shape}})
            ))
            .is_empty()
        );
        assert!(messages(object(json!({"p": {"type": "string", "anyOf": shape}}))).is_empty());
        assert!(
            messages(object(
                json!({"p": {"x-kubernetes-int-or-string": true, "allOf": [{"anyOf": shape}, {"maxLength": 3}]}})
            ))
            .is_empty()
        );
        // The order matters, and so does anything else set in the two entries.
        let reversed = json!([{"type": "string"}, {"type": "integer"}]);
        assert_eq!(
            messages(object(
                json!({"p": {"x-kubernetes-int-or-string": true, "anyOf": reversed}})
            )),
            [
                "properties[p].anyOf[0].type: Forbidden: must be empty to be structural",
                "properties[p].anyOf[1].type: Forbidden: must be empty to be structural",
            ]
        );
        let extra = json!([{"type": "integer", "properties": {}}, {"type": "string"}]);
        assert_eq!(
            messages(object(
                json!({"p": {"x-kubernetes-int-or-string": true, "anyOf": extra}})
            ))
            .len(),
            2
        );
    }

    #[test]
    fn root_metadata_may_restrict_name_and_generate_name_only() {
        let ok = object(json!({"metadata": {"type": "object", "default": {"name": "x"},
            "properties": {"name": {"type": "string", "maxLength": 5}, "generateName": {"type": "string"}}}}));
        assert!(messages(ok).is_empty());
        for bad in [
            json!({"type": "object", "description": "d"}),
            json!({"type": "object", "required": []}),
            json!({"type": "object", "maxProperties": 3}),
            json!({"type": "object", "properties": {"name": {"type": "string"}, "x": {"type": "string"}}}),
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        ] {
            assert_eq!(messages(object(json!({"metadata": bad.clone()}))).len(), 1, "{bad}");
        }
        // Below the root, metadata is an ordinary property.
        let nested = object(
            json!({"spec": {"type": "object", "properties": {"metadata": {"type": "object",
            "properties": {"labels": {"type": "object"}}}}}}),
        );
        assert!(messages(nested).is_empty());
    }
}
