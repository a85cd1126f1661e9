//! Decoding a JSON value into the v1 `JSONSchemaProps` model, with Go's decoding rules.
//!
//! The reference first unmarshals the schema into `apiextensions/v1.JSONSchemaProps` with Go's
//! JSON decoder, and only then converts it. That first step decides what a malformed schema
//! turns into: `null` means "unset" for every field; a value of the wrong JSON type is an
//! `UnmarshalTypeError` that Go remembers while it decodes on (the first one is reported);
//! `items`, `additionalProperties`, `additionalItems` and `dependencies` have their own
//! unmarshalers, whose errors stop decoding at once and win over remembered type errors.
//! Unknown keys are ignored, as Go ignores them.
//!
//! Divergence: we see object keys in byte order, not document order, so when a schema holds
//! several type errors we may report a different one than Go would.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::go::{FieldDecoder, UnmarshalError, json_kind};
use crate::structural::{ExternalDocumentation, ValidationRule};

/// `JSONSchemaProps`, as decoded by Go. Fields that the reference treats differently when
/// absent and when empty are `Option`s.
#[derive(Debug, Default, Clone)]
pub(crate) struct Props {
    pub id: String,
    pub schema: String,
    pub ref_: Option<String>,
    pub description: String,
    pub type_: String,
    pub format: String,
    pub title: String,
    pub default: Option<Value>,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub pattern: String,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub multiple_of: Option<f64>,
    pub enum_: Vec<Value>,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Option<Vec<String>>,
    pub items: Option<PropsOrArray>,
    pub all_of: Vec<Props>,
    pub one_of: Vec<Props>,
    pub any_of: Vec<Props>,
    pub not: Option<Box<Props>>,
    pub properties: Option<BTreeMap<String, Props>>,
    pub additional_properties: Option<PropsOrBool>,
    pub pattern_properties: BTreeMap<String, Props>,
    pub dependencies: BTreeMap<String, Value>,
    pub additional_items: Option<PropsOrBool>,
    pub definitions: BTreeMap<String, Props>,
    pub external_docs: Option<ExternalDocumentation>,
    pub example: Option<Value>,
    pub nullable: bool,
    pub x_preserve_unknown_fields: Option<bool>,
    pub x_embedded_resource: bool,
    pub x_int_or_string: bool,
    pub x_list_map_keys: Option<Vec<String>>,
    pub x_list_type: Option<String>,
    pub x_map_type: Option<String>,
    pub x_validations: Option<Vec<ValidationRule>>,
}

/// `items`: a schema or an array of schemas. Anything else decodes to neither (Go's
/// unmarshaler silently accepts it).
#[derive(Debug, Clone)]
pub(crate) enum PropsOrArray {
    Schema(Box<Props>),
    Array(Vec<Props>),
    Neither,
}

/// `additionalProperties` / `additionalItems`: a schema or a boolean.
#[derive(Debug, Clone)]
pub(crate) enum PropsOrBool {
    Schema(Box<Props>),
    Bool(bool),
}

/// Why decoding stopped: an error from a custom unmarshaler stops Go's decoder at once.
enum Failure {
    Abort(UnmarshalError),
}

/// Go's decoder state for `JSONSchemaProps` (see [`FieldDecoder`]).
struct Decoder {
    go: FieldDecoder,
}

const T_PROPS: &str = "v1.JSONSchemaProps";

impl Decoder {
    fn new() -> Decoder {
        Decoder {
            go: FieldDecoder::new("JSONSchemaProps"),
        }
    }

    fn string(&mut self, v: &Value) -> Option<String> {
        self.go.string(v, "string")
    }

    fn save(&mut self, value: &str, go_type: &'static str) {
        self.go.save(value, go_type);
    }

    /// A nested struct decoded in the same `json.Unmarshal` call.
    fn props(&mut self, v: &Value) -> Result<Option<Props>, Failure> {
        match v {
            Value::Null => Ok(None),
            Value::Object(map) => {
                let outer = self.go.enter_struct("JSONSchemaProps");
                let r = self.props_fields(map);
                self.go.leave_struct(outer);
                r.map(Some)
            }
            other => {
                self.save(json_kind(other), T_PROPS);
                Ok(None)
            }
        }
    }

    /// `[]JSONSchemaProps`.
    fn props_list(&mut self, v: &Value) -> Result<Vec<Props>, Failure> {
        match v {
            Value::Null => Ok(Vec::new()),
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.props(item)?.unwrap_or_default());
                }
                Ok(out)
            }
            other => {
                self.save(json_kind(other), "[]v1.JSONSchemaProps");
                Ok(Vec::new())
            }
        }
    }

    /// `map[string]JSONSchemaProps`: `null` is nil, `{}` is an empty non-nil map.
    fn props_map(&mut self, v: &Value, go_type: &'static str) -> Result<Option<BTreeMap<String, Props>>, Failure> {
        match v {
            Value::Null => Ok(None),
            Value::Object(map) => {
                let mut out = BTreeMap::new();
                for (k, item) in map {
                    out.insert(k.clone(), self.props(item)?.unwrap_or_default());
                }
                Ok(Some(out))
            }
            other => {
                self.save(json_kind(other), go_type);
                Ok(None)
            }
        }
    }

    /// Runs a custom unmarshaler's nested `json.Unmarshal` call: its first error (of any kind)
    /// aborts the outer decoding.
    fn nested_call(&mut self, f: impl FnOnce(&mut Decoder) -> Result<Props, Failure>) -> Result<Props, Failure> {
        let mut inner = Decoder::new();
        match f(&mut inner) {
            Err(Failure::Abort(e)) => Err(Failure::Abort(self.relabel(e))),
            Ok(p) => match inner.go.take_saved() {
                Some(e) => Err(Failure::Abort(self.relabel(e))),
                None => Ok(p),
            },
        }
    }

    /// Go's `addErrorContext`: a type error coming out of a nested call takes the outer struct
    /// and field path; other errors keep their text.
    fn relabel(&self, e: UnmarshalError) -> UnmarshalError {
        match e {
            UnmarshalError::Type { value, go_type, .. } if !self.go.at_top() => self.go.type_error(&value, go_type),
            other => other,
        }
    }

    fn props_or_array(&mut self, v: &Value) -> Result<Option<PropsOrArray>, Failure> {
        match v {
            Value::Null => Ok(None),
            Value::Object(map) => {
                let p = self.nested_call(|d| d.props_fields(map))?;
                Ok(Some(PropsOrArray::Schema(Box::new(p))))
            }
            Value::Array(items) => {
                let mut inner = Decoder::new();
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    match inner.props(item) {
                        Ok(p) => out.push(p.unwrap_or_default()),
                        Err(Failure::Abort(e)) => return Err(Failure::Abort(self.relabel(e))),
                    }
                }
                if let Some(e) = inner.go.take_saved() {
                    return Err(Failure::Abort(self.relabel(e)));
                }
                Ok(Some(PropsOrArray::Array(out)))
            }
            _ => Ok(Some(PropsOrArray::Neither)),
        }
    }

    fn props_or_bool(&mut self, v: &Value) -> Result<Option<PropsOrBool>, Failure> {
        match v {
            Value::Null => Ok(None),
            Value::Object(map) => {
                let p = self.nested_call(|d| d.props_fields(map))?;
                Ok(Some(PropsOrBool::Schema(Box::new(p))))
            }
            Value::Bool(b) => Ok(Some(PropsOrBool::Bool(*b))),
            _ => Err(Failure::Abort(UnmarshalError::Other(
                "boolean or JSON schema expected".to_string(),
            ))),
        }
    }

    /// `dependencies`: values are schemas or string arrays, decoded by a custom unmarshaler.
    fn dependencies(&mut self, v: &Value) -> Result<BTreeMap<String, Value>, Failure> {
        match v {
            Value::Null => Ok(BTreeMap::new()),
            Value::Object(map) => {
                let mut out = BTreeMap::new();
                for (k, item) in map {
                    match item {
                        Value::Object(fields) => {
                            self.nested_call(|d| d.props_fields(fields))?;
                        }
                        Value::Array(list) => {
                            let mut inner = Decoder::new();
                            for s in list {
                                inner.string(s);
                            }
                            if let Some(e) = inner.go.take_saved() {
                                return Err(Failure::Abort(self.relabel(e)));
                            }
                        }
                        _ => {}
                    }
                    out.insert(k.clone(), item.clone());
                }
                Ok(out)
            }
            other => {
                self.save(json_kind(other), "v1.JSONSchemaDependencies");
                Ok(BTreeMap::new())
            }
        }
    }

    fn validation_rules(&mut self, v: &Value) -> Option<Vec<ValidationRule>> {
        match v {
            Value::Null => None,
            Value::Array(items) => {
                let outer = self.go.enter_struct("ValidationRule");
                let mut rules = Vec::with_capacity(items.len());
                for item in items {
                    let mut rule = ValidationRule::default();
                    match item {
                        Value::Null => {}
                        Value::Object(map) => {
                            for (k, fv) in map {
                                self.go.push_field(k);
                                match k.as_str() {
                                    "rule" => rule.rule = self.string(fv).unwrap_or_default(),
                                    "message" => rule.message = self.string(fv).unwrap_or_default(),
                                    "messageExpression" => {
                                        rule.message_expression = self.string(fv).unwrap_or_default()
                                    }
                                    "reason" => rule.reason = self.string(fv),
                                    "fieldPath" => rule.field_path = self.string(fv).unwrap_or_default(),
                                    "optionalOldSelf" => rule.optional_old_self = self.go.boolean(fv),
                                    _ => {}
                                }
                                self.go.pop_field();
                            }
                        }
                        other => self.save(json_kind(other), "v1.ValidationRule"),
                    }
                    rules.push(rule);
                }
                self.go.leave_struct(outer);
                Some(rules)
            }
            other => {
                self.save(json_kind(other), "v1.ValidationRules");
                None
            }
        }
    }

    fn external_docs(&mut self, v: &Value) -> Option<ExternalDocumentation> {
        match v {
            Value::Null => None,
            Value::Object(map) => {
                let outer = self.go.enter_struct("ExternalDocumentation");
                let mut docs = ExternalDocumentation::default();
                for (k, fv) in map {
                    self.go.push_field(k);
                    match k.as_str() {
                        "description" => docs.description = self.string(fv).unwrap_or_default(),
                        "url" => docs.url = self.string(fv).unwrap_or_default(),
                        _ => {}
                    }
                    self.go.pop_field();
                }
                self.go.leave_struct(outer);
                Some(docs)
            }
            other => {
                self.save(json_kind(other), "v1.ExternalDocumentation");
                None
            }
        }
    }

    fn props_fields(&mut self, map: &Map<String, Value>) -> Result<Props, Failure> {
        stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
            let mut p = Props::default();
            for (k, v) in map {
                self.go.push_field(k);
                let r = self.field(&mut p, k, v);
                match r {
                    Ok(()) => {
                        self.go.pop_field();
                    }
                    // On abort, Go leaves the field stack as it is: the outer relabelling
                    // needs it, and nothing is decoded after an abort anyway.
                    Err(e) => return Err(e),
                }
            }
            Ok(p)
        })
    }

    fn field(&mut self, p: &mut Props, k: &str, v: &Value) -> Result<(), Failure> {
        match k {
            "id" => p.id = self.string(v).unwrap_or_default(),
            "$schema" => p.schema = self.string(v).unwrap_or_default(),
            "$ref" => p.ref_ = self.string(v),
            "description" => p.description = self.string(v).unwrap_or_default(),
            "type" => p.type_ = self.string(v).unwrap_or_default(),
            "format" => p.format = self.string(v).unwrap_or_default(),
            "title" => p.title = self.string(v).unwrap_or_default(),
            "default" => p.default = (!v.is_null()).then(|| v.clone()),
            "maximum" => p.maximum = self.go.float64(v),
            "exclusiveMaximum" => p.exclusive_maximum = self.go.boolean(v).unwrap_or_default(),
            "minimum" => p.minimum = self.go.float64(v),
            "exclusiveMinimum" => p.exclusive_minimum = self.go.boolean(v).unwrap_or_default(),
            "maxLength" => p.max_length = self.go.int64(v),
            "minLength" => p.min_length = self.go.int64(v),
            "pattern" => p.pattern = self.string(v).unwrap_or_default(),
            "maxItems" => p.max_items = self.go.int64(v),
            "minItems" => p.min_items = self.go.int64(v),
            "uniqueItems" => p.unique_items = self.go.boolean(v).unwrap_or_default(),
            "multipleOf" => p.multiple_of = self.go.float64(v),
            "enum" => match v {
                Value::Null => {}
                Value::Array(items) => p.enum_ = items.clone(),
                other => self.save(json_kind(other), "[]v1.JSON"),
            },
            "maxProperties" => p.max_properties = self.go.int64(v),
            "minProperties" => p.min_properties = self.go.int64(v),
            "required" => p.required = self.go.strings(v),
            "items" => p.items = self.props_or_array(v)?,
            "allOf" => p.all_of = self.props_list(v)?,
            "oneOf" => p.one_of = self.props_list(v)?,
            "anyOf" => p.any_of = self.props_list(v)?,
            "not" => p.not = self.props(v)?.map(Box::new),
            "properties" => p.properties = self.props_map(v, "map[string]v1.JSONSchemaProps")?,
            "additionalProperties" => p.additional_properties = self.props_or_bool(v)?,
            "patternProperties" => {
                p.pattern_properties = self.props_map(v, "map[string]v1.JSONSchemaProps")?.unwrap_or_default()
            }
            "dependencies" => p.dependencies = self.dependencies(v)?,
            "additionalItems" => p.additional_items = self.props_or_bool(v)?,
            "definitions" => p.definitions = self.props_map(v, "v1.JSONSchemaDefinitions")?.unwrap_or_default(),
            "externalDocs" => p.external_docs = self.external_docs(v),
            "example" => p.example = (!v.is_null()).then(|| v.clone()),
            "nullable" => p.nullable = self.go.boolean(v).unwrap_or_default(),
            "x-kubernetes-preserve-unknown-fields" => p.x_preserve_unknown_fields = self.go.boolean(v),
            "x-kubernetes-embedded-resource" => p.x_embedded_resource = self.go.boolean(v).unwrap_or_default(),
            "x-kubernetes-int-or-string" => p.x_int_or_string = self.go.boolean(v).unwrap_or_default(),
            "x-kubernetes-list-map-keys" => p.x_list_map_keys = self.go.strings(v),
            "x-kubernetes-list-type" => p.x_list_type = self.string(v),
            "x-kubernetes-map-type" => p.x_map_type = self.string(v),
            "x-kubernetes-validations" => p.x_validations = self.validation_rules(v),
            _ => {}
        }
        Ok(())
    }
}

/// Decodes `v` as Go decodes a `*JSONSchemaProps`: `Ok(None)` for `null`.
pub(crate) fn decode(v: &Value) -> Result<Option<Props>, String> {
    let mut d = Decoder::new();
    match v {
        Value::Null => Ok(None),
        Value::Object(map) => match d.props_fields(map) {
            Err(Failure::Abort(e)) => Err(e.to_string()),
            Ok(p) => match d.go.take_saved() {
                Some(e) => Err(e.to_string()),
                None => Ok(Some(p)),
            },
        },
        other => Err(d.go.type_error(json_kind(other), T_PROPS).to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: Value) -> String {
        decode(&v).unwrap_err()
    }

    #[test]
    fn type_errors_read_like_go() {
        assert_eq!(
            err(json!({"type": 5})),
            "json: cannot unmarshal number into Go struct field JSONSchemaProps.type of type string"
        );
        assert_eq!(
            err(json!({"properties": {"a": {"maxLength": 1.5}}})),
            "json: cannot unmarshal number 1.5 into Go struct field JSONSchemaProps.properties.maxLength of type int64"
        );
        assert_eq!(
            err(json!({"properties": {"a": {"items": {"type": true}}}})),
            "json: cannot unmarshal bool into Go struct field JSONSchemaProps.properties.items of type string"
        );
        assert_eq!(
            err(json!({"additionalProperties": 5})),
            "boolean or JSON schema expected"
        );
        assert_eq!(
            err(json!("x")),
            "json: cannot unmarshal string into Go value of type v1.JSONSchemaProps"
        );
        assert_eq!(
            err(json!({"x-kubernetes-validations": [{"rule": 1}]})),
            "json: cannot unmarshal number into Go struct field ValidationRule.x-kubernetes-validations.rule of type string"
        );
    }

    #[test]
    fn abort_errors_win_over_saved_type_errors() {
        assert_eq!(
            err(json!({"additionalProperties": "x", "type": 1})),
            "boolean or JSON schema expected"
        );
    }

    #[test]
    fn nulls_mean_unset() {
        let p = decode(&json!({"type": null, "items": null, "properties": {"a": null}, "default": null}))
            .unwrap()
            .unwrap();
        assert_eq!(p.type_, "");
        assert!(p.items.is_none());
        assert!(p.default.is_none());
        assert_eq!(p.properties.unwrap().len(), 1);
    }

    #[test]
    fn items_of_other_shapes_are_ignored() {
        let p = decode(&json!({"items": 5})).unwrap().unwrap();
        assert!(matches!(p.items, Some(PropsOrArray::Neither)));
    }
}
