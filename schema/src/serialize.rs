//! [`Structural`] back to a v1 `openAPIV3Schema`: JSON value, JSON text or YAML text.
//!
//! The output is what the reference's `ToKubeOpenAPI` produces, plus the round-trip-only
//! fields (`example`, `externalDocs`) and the "set but empty" lists our model keeps
//! (`required: []`, `x-kubernetes-list-map-keys: []`, nested `properties: {}`), so that
//! converting the output again gives an equal [`Structural`]. Keys are in byte order, like
//! controller-gen's output, so the text is byte-stable across runs.

use serde_json::{Map, Number, Value, json};

use crate::structural::{
    AdditionalProperties, Extensions, Generic, NestedValueValidation, Structural, ValidationRule, ValueValidation,
};

/// The schema as a JSON value.
///
/// ```
/// let v = serde_json::json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}});
/// let s = kstruct_schema::convert::from_value(&v).unwrap().unwrap();
/// assert_eq!(kstruct_schema::serialize::to_value(&s), v);
/// ```
pub fn to_value(s: &Structural) -> Value {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
        let mut m = Map::new();
        put_generic(&mut m, &s.generic);
        put_extensions(&mut m, &s.extensions);
        put_rules(&mut m, &s.x_validations);
        put_value_validation(&mut m, &s.value_validation);
        if let Some(items) = &s.items {
            m.insert("items".into(), to_value(items));
        }
        if !s.properties.is_empty() {
            let props = s.properties.iter().map(|(k, p)| (k.clone(), to_value(p))).collect();
            m.insert("properties".into(), Value::Object(props));
        }
        match &s.additional_properties {
            None => {}
            Some(AdditionalProperties::Bool(b)) => {
                m.insert("additionalProperties".into(), Value::Bool(*b));
            }
            Some(AdditionalProperties::Schema(ap)) => {
                m.insert("additionalProperties".into(), to_value(ap));
            }
        }
        Value::Object(m)
    })
}

/// The schema as compact JSON text (Go's `encoding/json` formatting).
pub fn to_json(s: &Structural) -> String {
    crate::go::marshal_json(&to_value(s))
}

/// The schema as YAML text.
///
/// ```
/// let s = kstruct_schema::convert::from_text("type: object\nproperties: {a: {type: string}}").unwrap().unwrap();
/// assert_eq!(kstruct_schema::serialize::to_yaml(&s), "properties:\n  a:\n    type: string\ntype: object\n");
/// ```
pub fn to_yaml(s: &Structural) -> String {
    crate::yaml::emit(&to_value(s))
}

fn nested_to_value(n: &NestedValueValidation) -> Value {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
        let mut m = Map::new();
        put_generic(&mut m, &n.forbidden_generics);
        put_extensions(&mut m, &n.forbidden_extensions);
        put_rules(&mut m, &n.x_validations);
        put_value_validation(&mut m, &n.value_validation);
        if let Some(items) = &n.items {
            m.insert("items".into(), nested_to_value(items));
        }
        if let Some(props) = &n.properties {
            let props = props.iter().map(|(k, p)| (k.clone(), nested_to_value(p))).collect();
            m.insert("properties".into(), Value::Object(props));
        }
        if let Some(ap) = &n.additional_properties {
            m.insert("additionalProperties".into(), nested_to_value(ap));
        }
        Value::Object(m)
    })
}

fn put_generic(m: &mut Map<String, Value>, g: &Generic) {
    put_str(m, "description", &g.description);
    put_str(m, "type", &g.type_);
    put_str(m, "title", &g.title);
    if let Some(d) = &g.default {
        m.insert("default".into(), d.clone());
    }
    if g.nullable {
        m.insert("nullable".into(), Value::Bool(true));
    }
    if let Some(e) = &g.example {
        m.insert("example".into(), e.clone());
    }
    if let Some(docs) = &g.external_docs {
        let mut d = Map::new();
        put_str(&mut d, "description", &docs.description);
        put_str(&mut d, "url", &docs.url);
        m.insert("externalDocs".into(), Value::Object(d));
    }
}

fn put_extensions(m: &mut Map<String, Value>, x: &Extensions) {
    let flags = [
        ("x-kubernetes-preserve-unknown-fields", x.x_preserve_unknown_fields),
        ("x-kubernetes-embedded-resource", x.x_embedded_resource),
        ("x-kubernetes-int-or-string", x.x_int_or_string),
    ];
    for (k, set) in flags {
        if set {
            m.insert(k.into(), Value::Bool(true));
        }
    }
    if let Some(keys) = &x.x_list_map_keys {
        m.insert("x-kubernetes-list-map-keys".into(), json!(keys));
    }
    if let Some(t) = &x.x_list_type {
        m.insert("x-kubernetes-list-type".into(), Value::String(t.clone()));
    }
    if let Some(t) = &x.x_map_type {
        m.insert("x-kubernetes-map-type".into(), Value::String(t.clone()));
    }
}

fn put_rules(m: &mut Map<String, Value>, rules: &Option<Vec<ValidationRule>>) {
    let Some(rules) = rules else { return };
    let list = rules
        .iter()
        .map(|r| {
            let mut o = Map::new();
            o.insert("rule".into(), Value::String(r.rule.clone()));
            put_str(&mut o, "message", &r.message);
            put_str(&mut o, "messageExpression", &r.message_expression);
            if let Some(reason) = &r.reason {
                o.insert("reason".into(), Value::String(reason.clone()));
            }
            put_str(&mut o, "fieldPath", &r.field_path);
            if let Some(b) = r.optional_old_self {
                o.insert("optionalOldSelf".into(), Value::Bool(b));
            }
            Value::Object(o)
        })
        .collect();
    m.insert("x-kubernetes-validations".into(), Value::Array(list));
}

fn put_value_validation(m: &mut Map<String, Value>, v: &ValueValidation) {
    put_str(m, "format", &v.format);
    put_f64(m, "maximum", v.maximum);
    put_flag(m, "exclusiveMaximum", v.exclusive_maximum);
    put_f64(m, "minimum", v.minimum);
    put_flag(m, "exclusiveMinimum", v.exclusive_minimum);
    put_i64(m, "maxLength", v.max_length);
    put_i64(m, "minLength", v.min_length);
    put_str(m, "pattern", &v.pattern);
    put_i64(m, "maxItems", v.max_items);
    put_i64(m, "minItems", v.min_items);
    put_flag(m, "uniqueItems", v.unique_items);
    put_f64(m, "multipleOf", v.multiple_of);
    if !v.enum_.is_empty() {
        m.insert("enum".into(), Value::Array(v.enum_.clone()));
    }
    put_i64(m, "maxProperties", v.max_properties);
    put_i64(m, "minProperties", v.min_properties);
    if let Some(r) = &v.required {
        m.insert("required".into(), json!(r));
    }
    for (k, list) in [("allOf", &v.all_of), ("oneOf", &v.one_of), ("anyOf", &v.any_of)] {
        if !list.is_empty() {
            m.insert(k.into(), Value::Array(list.iter().map(nested_to_value).collect()));
        }
    }
    if let Some(not) = &v.not {
        m.insert("not".into(), nested_to_value(not));
    }
}

fn put_str(m: &mut Map<String, Value>, k: &str, v: &str) {
    if !v.is_empty() {
        m.insert(k.into(), Value::String(v.to_string()));
    }
}

fn put_flag(m: &mut Map<String, Value>, k: &str, v: bool) {
    if v {
        m.insert(k.into(), Value::Bool(true));
    }
}

fn put_i64(m: &mut Map<String, Value>, k: &str, v: Option<i64>) {
    if let Some(i) = v {
        m.insert(k.into(), Value::Number(i.into()));
    }
}

/// Integral bounds are written as integers (`minimum: 0`, not `0.0`): Go prints a float64 1
/// as `1`, and so the value reads as the reference's JSON does.
fn put_f64(m: &mut Map<String, Value>, k: &str, v: Option<f64>) {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    let Some(f) = v else { return };
    let n = if f.fract() == 0.0 && f.abs() < EXACT && !(f == 0.0 && f.is_sign_negative()) {
        Some(Number::from(f as i64))
    } else {
        Number::from_f64(f)
    };
    if let Some(n) = n {
        m.insert(k.into(), Value::Number(n));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::from_value;

    #[test]
    fn round_trips_every_field() {
        let v = json!({
            "type": "object",
            "description": "d",
            "title": "t",
            "nullable": true,
            "default": {"a": 1},
            "example": {"a": 2},
            "externalDocs": {"url": "https://example.com"},
            "x-kubernetes-preserve-unknown-fields": true,
            "x-kubernetes-map-type": "atomic",
            "x-kubernetes-validations": [{"rule": "self.a > 0", "message": "m", "reason": "FieldValueInvalid"}],
            "required": [],
            "maxProperties": 3,
            "properties": {
                "l": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["k"],
                    "items": {"type": "object", "properties": {"k": {"type": "string", "pattern": "^a"}}},
                },
                "n": {"type": "number", "maximum": 1.5, "exclusiveMaximum": true, "multipleOf": 0.5},
                "e": {"type": "string", "enum": ["a", null]},
            },
            "additionalProperties": false,
            "allOf": [{"properties": {"l": {"minItems": 1}}, "additionalProperties": {}}],
            "anyOf": [{"required": ["l"]}, {"not": {"required": ["n"]}}],
        });
        let s = from_value(&v).unwrap().unwrap();
        assert_eq!(to_value(&s), v);
        assert_eq!(from_value(&to_value(&s)).unwrap().unwrap(), s);
    }

    #[test]
    fn integral_bounds_are_integers() {
        let v = json!({"type": "integer", "minimum": 0.0, "maximum": 255.0, "multipleOf": 2.5});
        let s = from_value(&v).unwrap().unwrap();
        assert_eq!(
            to_value(&s),
            json!({"type": "integer", "minimum": 0, "maximum": 255, "multipleOf": 2.5})
        );
    }
}
