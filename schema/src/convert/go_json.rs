//! The internal `apiextensions.JSONSchemaProps` as Go's `encoding/json` writes it: the
//! struct has no JSON tags, so every field appears under its Go name, in declaration order,
//! with its zero value (`""`, `false`, `null`). The reference prints schemas this way where a
//! whole schema is the bad value of a field error.

use serde_json::Value;

use super::props::{Props, PropsOrArray, PropsOrBool};
use crate::go::marshal_json;
use crate::structural::{ExternalDocumentation, ValidationRule};

/// `json.Marshal` of the internal `JSONSchemaProps` `s` decodes to.
pub(crate) fn schema(s: &Props) -> String {
    let mut out = String::with_capacity(1024);
    write_props(&mut out, s);
    out
}

/// `json.Marshal` of an `items` (`*JSONSchemaPropsOrArray`).
pub(crate) fn items(v: &PropsOrArray) -> String {
    or_array(Some(v))
}

/// Writes `{"Name":value,...}` from fields already encoded.
fn object(out: &mut String, fields: &[(&str, String)]) {
    out.push('{');
    for (i, (name, value)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(name);
        out.push_str("\":");
        out.push_str(value);
    }
    out.push('}');
}

fn text(s: &str) -> String {
    marshal_json(&Value::String(s.to_owned()))
}

fn opt_text(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_owned(), text)
}

fn opt_value(v: Option<&Value>) -> String {
    v.map_or_else(|| "null".to_owned(), marshal_json)
}

fn opt_int(v: Option<i64>) -> String {
    v.map_or_else(|| "null".to_owned(), |i| i.to_string())
}

fn opt_float(v: Option<f64>) -> String {
    v.map_or_else(|| "null".to_owned(), |f| marshal_json(&Value::from(f)))
}

fn opt_bool(v: Option<bool>) -> String {
    v.map_or_else(|| "null".to_owned(), |b| b.to_string())
}

fn strings(v: Option<&[String]>) -> String {
    v.map_or_else(
        || "null".to_owned(),
        |l| marshal_json(&Value::Array(l.iter().cloned().map(Value::String).collect())),
    )
}

/// A slice: `null` when empty (a nil slice in Go).
fn list(items: &[Props]) -> String {
    if items.is_empty() {
        return "null".to_owned();
    }
    let mut out = String::from("[");
    for (i, p) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_props(&mut out, p);
    }
    out.push(']');
    out
}

/// A map of schemas, keys sorted as Go sorts them (byte order).
fn map<'a>(entries: Option<impl Iterator<Item = (&'a String, &'a Props)>>) -> String {
    let Some(entries) = entries else {
        return "null".to_owned();
    };
    let mut out = String::from("{");
    for (i, (k, p)) in entries.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&text(k));
        out.push(':');
        write_props(&mut out, p);
    }
    out.push('}');
    out
}

fn boxed(p: Option<&Props>) -> String {
    p.map_or_else(|| "null".to_owned(), schema)
}

fn or_bool(v: Option<&PropsOrBool>) -> String {
    match v {
        None => "null".to_owned(),
        Some(PropsOrBool::Bool(b)) => format!("{{\"Allows\":{b},\"Schema\":null}}"),
        Some(PropsOrBool::Schema(p)) => format!("{{\"Allows\":true,\"Schema\":{}}}", schema(p)),
    }
}

fn or_array(v: Option<&PropsOrArray>) -> String {
    match v {
        None => "null".to_owned(),
        Some(PropsOrArray::Schema(p)) => format!("{{\"Schema\":{},\"JSONSchemas\":null}}", schema(p)),
        Some(PropsOrArray::Array(l)) => format!("{{\"Schema\":null,\"JSONSchemas\":{}}}", list(l)),
        Some(PropsOrArray::Neither) => "{\"Schema\":null,\"JSONSchemas\":null}".to_owned(),
    }
}

fn external_docs(d: Option<&ExternalDocumentation>) -> String {
    d.map_or_else(
        || "null".to_owned(),
        |d| format!("{{\"Description\":{},\"URL\":{}}}", text(&d.description), text(&d.url)),
    )
}

fn rules(v: Option<&[ValidationRule]>) -> String {
    let Some(rules) = v else {
        return "null".to_owned();
    };
    let mut out = String::from("[");
    for (i, r) in rules.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        object(
            &mut out,
            &[
                ("Rule", text(&r.rule)),
                ("Message", text(&r.message)),
                ("MessageExpression", text(&r.message_expression)),
                ("Reason", opt_text(r.reason.as_deref())),
                ("FieldPath", text(&r.field_path)),
                ("OptionalOldSelf", opt_bool(r.optional_old_self)),
            ],
        );
    }
    out.push(']');
    out
}

/// `dependencies`: each value is a schema or a list of property names.
fn dependencies(d: &std::collections::BTreeMap<String, Value>) -> String {
    if d.is_empty() {
        return "null".to_owned();
    }
    let mut out = String::from("{");
    for (i, (k, v)) in d.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&text(k));
        out.push(':');
        let value = match v {
            Value::Array(_) => format!("{{\"Schema\":null,\"Property\":{}}}", marshal_json(v)),
            other => match super::props::decode(other) {
                Ok(Some(p)) => format!("{{\"Schema\":{},\"Property\":null}}", schema(&p)),
                _ => "{\"Schema\":null,\"Property\":null}".to_owned(),
            },
        };
        out.push_str(&value);
    }
    out.push('}');
    out
}

fn write_props(out: &mut String, s: &Props) {
    let enum_ = if s.enum_.is_empty() {
        "null".to_owned()
    } else {
        marshal_json(&Value::Array(s.enum_.clone()))
    };
    object(
        out,
        &[
            ("ID", text(&s.id)),
            ("Schema", text(&s.schema)),
            ("Ref", opt_text(s.ref_.as_deref())),
            ("Description", text(&s.description)),
            ("Type", text(&s.type_)),
            ("Nullable", s.nullable.to_string()),
            ("Format", text(&s.format)),
            ("Title", text(&s.title)),
            ("Default", opt_value(s.default.as_ref())),
            ("Maximum", opt_float(s.maximum)),
            ("ExclusiveMaximum", s.exclusive_maximum.to_string()),
            ("Minimum", opt_float(s.minimum)),
            ("ExclusiveMinimum", s.exclusive_minimum.to_string()),
            ("MaxLength", opt_int(s.max_length)),
            ("MinLength", opt_int(s.min_length)),
            ("Pattern", text(&s.pattern)),
            ("MaxItems", opt_int(s.max_items)),
            ("MinItems", opt_int(s.min_items)),
            ("UniqueItems", s.unique_items.to_string()),
            ("MultipleOf", opt_float(s.multiple_of)),
            ("Enum", enum_),
            ("MaxProperties", opt_int(s.max_properties)),
            ("MinProperties", opt_int(s.min_properties)),
            ("Required", strings(s.required.as_deref())),
            ("Items", or_array(s.items.as_ref())),
            ("AllOf", list(&s.all_of)),
            ("OneOf", list(&s.one_of)),
            ("AnyOf", list(&s.any_of)),
            ("Not", boxed(s.not.as_deref())),
            ("Properties", map(s.properties.as_ref().map(|m| m.iter()))),
            ("AdditionalProperties", or_bool(s.additional_properties.as_ref())),
            ("PatternProperties", map(nonempty(&s.pattern_properties))),
            ("Dependencies", dependencies(&s.dependencies)),
            ("AdditionalItems", or_bool(s.additional_items.as_ref())),
            ("Definitions", map(nonempty(&s.definitions))),
            ("ExternalDocs", external_docs(s.external_docs.as_ref())),
            ("Example", opt_value(s.example.as_ref())),
            ("XPreserveUnknownFields", opt_bool(s.x_preserve_unknown_fields)),
            ("XEmbeddedResource", s.x_embedded_resource.to_string()),
            ("XIntOrString", s.x_int_or_string.to_string()),
            ("XListMapKeys", strings(s.x_list_map_keys.as_deref())),
            ("XListType", opt_text(s.x_list_type.as_deref())),
            ("XMapType", opt_text(s.x_map_type.as_deref())),
            ("XValidations", rules(s.x_validations.as_deref())),
        ],
    );
}

/// A Go map that is nil when empty (the conversion leaves absent maps nil).
fn nonempty(
    m: &std::collections::BTreeMap<String, Props>,
) -> Option<std::collections::btree_map::Iter<'_, String, Props>> {
    (!m.is_empty()).then(|| m.iter())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(v: Value) -> Props {
        super::super::props::decode(&v).unwrap().unwrap()
    }

    #[test]
    fn every_field_under_its_go_name_with_zero_values() {
        let s = props(serde_json::json!({
            "type": "object", "description": "<a> & b", "maximum": 1.5, "required": ["x"],
            "additionalProperties": false,
            "x-kubernetes-validations": [{"rule": "true", "reason": "FieldValueForbidden"}],
        }));
        assert_eq!(
            schema(&s),
            concat!(
                r#"{"ID":"","Schema":"","Ref":null,"Description":"\u003ca\u003e \u0026 b","Type":"object","#,
                r#""Nullable":false,"Format":"","Title":"","Default":null,"Maximum":1.5,"ExclusiveMaximum":false,"#,
                r#""Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","#,
                r#""MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"#,
                r#""MaxProperties":null,"MinProperties":null,"Required":["x"],"Items":null,"AllOf":null,"#,
                r#""OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"#,
                r#""AdditionalProperties":{"Allows":false,"Schema":null},"PatternProperties":null,"#,
                r#""Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"#,
                r#""Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"#,
                r#""XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"#,
                r#""XValidations":[{"Rule":"true","Message":"","MessageExpression":"","#,
                r#""Reason":"FieldValueForbidden","FieldPath":"","OptionalOldSelf":null}]}"#,
            )
        );
        let items = props(serde_json::json!({"items": [{"type": "string"}]}));
        let Some(list) = &items.items else { panic!("items") };
        assert!(super::items(list).starts_with(
            r#"{"Schema":null,"JSONSchemas":[{"ID":"","Schema":"","Ref":null,"Description":"","Type":"string","#
        ));
    }
}
