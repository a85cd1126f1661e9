//! The structural schema model, field for field the reference's `Structural`.
//!
//! A [`Structural`] is what the API server works with after it has converted a CRD version's
//! `openAPIV3Schema`: the *structure* (type, properties, items, additionalProperties) with the
//! generic fields and `x-kubernetes-*` extensions attached to each node, and the *value
//! validations* (bounds, patterns, `allOf`/`anyOf`/`oneOf`/`not`) kept apart. Pruning, defaulting
//! and ObjectMeta coercion only ever look at the structure; the value validations matter for
//! structural validation and (later) for validating objects.
//!
//! Two fields exist only to round-trip schemas faithfully: `example` and `externalDocs`. The
//! reference drops them during conversion, so no algorithm here looks at them.

use std::collections::BTreeMap;

use serde_json::Value;

/// A structural schema node.
///
/// Mirrors `k8s.io/apiextensions-apiserver/pkg/apiserver/schema.Structural`. Properties are kept
/// in a `BTreeMap` so that every walk over them is deterministic (the reference iterates a Go
/// map, in random order, and sorts wherever the order is observable).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Structural {
    /// The schema of array elements (`items`).
    pub items: Option<Box<Structural>>,
    /// The schemas of known object fields (`properties`). Empty means "none": the reference
    /// drops an empty `properties` map during conversion.
    pub properties: BTreeMap<String, Structural>,
    /// `additionalProperties`, as a schema or a boolean.
    pub additional_properties: Option<AdditionalProperties>,
    /// `type`, `description`, `title`, `default`, `nullable` (and the round-trip-only fields).
    pub generic: Generic,
    /// The structural `x-kubernetes-*` extensions.
    pub extensions: Extensions,
    /// `x-kubernetes-validations` (CEL rules), kept and placed but not evaluated.
    pub x_validations: Option<Vec<ValidationRule>>,
    /// Value validations: everything that does not contribute to the structure.
    pub value_validation: ValueValidation,
}

/// `additionalProperties`: either a schema or a boolean.
///
/// The reference models this as `StructuralOrBool{Structural, Bool}`; a schema always comes with
/// `Bool: true`, so an enum loses nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum AdditionalProperties {
    /// `additionalProperties: true` or `false`. Either way, values under unknown keys are
    /// pruned with no schema (objects inside them are emptied).
    Bool(bool),
    /// `additionalProperties: {...}`: every key not in `properties` uses this schema.
    Schema(Box<Structural>),
}

impl AdditionalProperties {
    /// The schema, if this is a schema (the reference's `StructuralOrBool.Structural`).
    pub fn schema(&self) -> Option<&Structural> {
        match self {
            AdditionalProperties::Schema(s) => Some(s),
            AdditionalProperties::Bool(_) => None,
        }
    }

    /// Mutable access to the schema, if this is a schema.
    pub fn schema_mut(&mut self) -> Option<&mut Structural> {
        match self {
            AdditionalProperties::Schema(s) => Some(s),
            AdditionalProperties::Bool(_) => None,
        }
    }
}

/// The generic schema fields that are not allowed inside value validations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Generic {
    /// `description`.
    pub description: String,
    /// `type`: `object`, `array`, `string`, `integer`, `number` or `boolean` in a valid CRD;
    /// empty when unset. Kept as written, so invalid types can be reported.
    pub type_: String,
    /// `title`.
    pub title: String,
    /// `default`. `None` when unset or `null` (the reference cannot tell them apart either).
    pub default: Option<Value>,
    /// `nullable`.
    pub nullable: bool,
    /// `example`: round-tripped only; the reference drops it during conversion.
    pub example: Option<Value>,
    /// `externalDocs`: round-tripped only; the reference drops it during conversion.
    pub external_docs: Option<ExternalDocumentation>,
}

/// `externalDocs` of a schema node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExternalDocumentation {
    /// `description`.
    pub description: String,
    /// `url`.
    pub url: String,
}

/// The Kubernetes vendor extensions that shape the structure.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extensions {
    /// `x-kubernetes-preserve-unknown-fields: true`: unknown fields are kept at this node (and,
    /// through `items`, in list elements); specified fields are still pruned normally.
    pub x_preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource: true`: the value is a Kubernetes object with its own
    /// `apiVersion`, `kind` and `metadata`.
    pub x_embedded_resource: bool,
    /// `x-kubernetes-int-or-string: true`: the value is an integer or a string.
    pub x_int_or_string: bool,
    /// `x-kubernetes-list-map-keys`. `Some(vec![])` (written as `[]`) differs from `None`: the
    /// reference keeps the empty list, and it makes root `metadata` schemas non-structural.
    pub x_list_map_keys: Option<Vec<String>>,
    /// `x-kubernetes-list-type`: `atomic`, `set` or `map`.
    pub x_list_type: Option<String>,
    /// `x-kubernetes-map-type`: `atomic` or `granular`.
    pub x_map_type: Option<String>,
}

impl Extensions {
    /// True when no extension is set (the zero value of the reference's `Extensions`).
    pub fn is_empty(&self) -> bool {
        *self == Extensions::default()
    }
}

/// One `x-kubernetes-validations` rule (a CEL expression), kept verbatim.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ValidationRule {
    /// `rule`: the CEL expression.
    pub rule: String,
    /// `message`.
    pub message: String,
    /// `messageExpression`.
    pub message_expression: String,
    /// `reason`.
    pub reason: Option<String>,
    /// `fieldPath`.
    pub field_path: String,
    /// `optionalOldSelf`.
    pub optional_old_self: Option<bool>,
}

/// Value validations: the schema fields that do not contribute to the structure.
///
/// The reference allocates one for every converted node, so a default (all-empty) value here
/// is the reference's `&ValueValidation{}`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValueValidation {
    /// `format`.
    pub format: String,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: bool,
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: bool,
    /// `maxLength`.
    pub max_length: Option<i64>,
    /// `minLength`.
    pub min_length: Option<i64>,
    /// `pattern`: a Go (RE2) regular expression.
    pub pattern: String,
    /// `maxItems`.
    pub max_items: Option<i64>,
    /// `minItems`.
    pub min_items: Option<i64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `enum`. Empty means none (the reference drops an empty list).
    pub enum_: Vec<Value>,
    /// `maxProperties`.
    pub max_properties: Option<i64>,
    /// `minProperties`.
    pub min_properties: Option<i64>,
    /// `required`. `Some(vec![])` (written as `[]`) differs from `None`, as in the reference.
    pub required: Option<Vec<String>>,
    /// `allOf`.
    pub all_of: Vec<NestedValueValidation>,
    /// `oneOf`.
    pub one_of: Vec<NestedValueValidation>,
    /// `anyOf`.
    pub any_of: Vec<NestedValueValidation>,
    /// `not`.
    pub not: Option<Box<NestedValueValidation>>,
}

impl ValueValidation {
    /// True when nothing is set (the reference's `ValueValidation{}`).
    pub fn is_empty(&self) -> bool {
        *self == ValueValidation::default()
    }
}

/// A schema nested under `allOf`, `anyOf`, `oneOf` or `not`.
///
/// Only value validations (and the items/properties/additionalProperties they apply to) belong
/// here in a structural schema. Everything else a user may write is kept in the `forbidden_*`
/// fields so that structural validation can report it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NestedValueValidation {
    /// The value validations of this nested schema.
    pub value_validation: ValueValidation,
    /// `x-kubernetes-validations` written inside the nested schema (forbidden there).
    pub x_validations: Option<Vec<ValidationRule>>,
    /// `items`.
    pub items: Option<Box<NestedValueValidation>>,
    /// `properties`. Unlike [`Structural::properties`], an empty map written as `{}` is kept
    /// (`Some(empty)`), as the reference keeps it; it matters for the int-or-string shapes.
    pub properties: Option<BTreeMap<String, NestedValueValidation>>,
    /// `additionalProperties`: a schema, `true` as an empty schema, `false` as `None`.
    pub additional_properties: Option<Box<NestedValueValidation>>,
    /// Generic fields written inside the nested schema (all forbidden there).
    pub forbidden_generics: Generic,
    /// Extensions written inside the nested schema (all forbidden there).
    pub forbidden_extensions: Extensions,
}

impl Structural {
    /// A shared empty schema (`&Structural{}`), which the reference substitutes for a missing
    /// schema at a resource root.
    pub fn empty() -> &'static Structural {
        static EMPTY: std::sync::LazyLock<Structural> = std::sync::LazyLock::new(Structural::default);
        &EMPTY
    }

    /// The schema of values under key `key` of an object: the property schema, else the
    /// `additionalProperties` schema. `None` means "no schema" (unknown, or
    /// `additionalProperties: true/false`).
    pub fn field_schema(&self, key: &str) -> Option<&Structural> {
        match self.properties.get(key) {
            Some(p) => Some(p),
            None => self
                .additional_properties
                .as_ref()
                .and_then(AdditionalProperties::schema),
        }
    }

    /// The structure alone: types, `nullable`, `format`, the `x-kubernetes-*` extensions,
    /// `items`, `properties` and `additionalProperties`, and the defaults of `map` lists' key
    /// fields, without descriptions, other defaults, rules or value validations. It is what
    /// correlates an update's values with the stored ones and types and merges an apply
    /// body, and what compiled pipelines embed for that (a fraction of the schema's size).
    ///
    /// ```
    /// let s = kstruct_schema::convert::from_text(
    ///     "type: object\ndescription: d\nproperties: {a: {type: string, maxLength: 3, default: x}}",
    /// )
    /// .unwrap()
    /// .unwrap();
    /// assert_eq!(
    ///     kstruct_schema::serialize::to_json(&s.skeleton()),
    ///     r#"{"properties":{"a":{"type":"string"}},"type":"object"}"#
    /// );
    /// ```
    pub fn skeleton(&self) -> Structural {
        self.skeleton_keeping(&[])
    }

    /// [`skeleton`](Structural::skeleton), keeping the defaults of the properties named in
    /// `keys`.
    fn skeleton_keeping(&self, keys: &[String]) -> Structural {
        let item_keys = match self.extensions.x_list_type.as_deref() {
            Some("map") => self.extensions.x_list_map_keys.as_deref().unwrap_or(&[]),
            _ => &[],
        };
        crate::grow(|| Structural {
            items: self.items.as_ref().map(|i| Box::new(i.skeleton_keeping(item_keys))),
            properties: self
                .properties
                .iter()
                .map(|(k, p)| {
                    let mut skeleton = p.skeleton();
                    if keys.contains(k) {
                        skeleton.generic.default.clone_from(&p.generic.default);
                    }
                    (k.clone(), skeleton)
                })
                .collect(),
            additional_properties: self.additional_properties.as_ref().map(|a| match a {
                AdditionalProperties::Bool(b) => AdditionalProperties::Bool(*b),
                AdditionalProperties::Schema(s) => AdditionalProperties::Schema(Box::new(s.skeleton())),
            }),
            generic: Generic {
                type_: self.generic.type_.clone(),
                nullable: self.generic.nullable,
                ..Generic::default()
            },
            extensions: self.extensions.clone(),
            x_validations: None,
            value_validation: ValueValidation {
                format: self.value_validation.format.clone(),
                ..ValueValidation::default()
            },
        })
    }

    /// Visits every structural node (not the value validations), parent before children:
    /// items, then properties in key order, then the additionalProperties schema.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Structural)) {
        stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
            f(self);
            if let Some(items) = &self.items {
                items.walk(f);
            }
            for p in self.properties.values() {
                p.walk(f);
            }
            if let Some(ap) = self.additional_properties.as_ref().and_then(|a| a.schema()) {
                ap.walk(f);
            }
        })
    }

    /// Number of structural nodes in this schema (itself included).
    pub fn node_count(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |_| n += 1);
        n
    }
}
