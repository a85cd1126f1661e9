//! Typed decoding of JSON values with the errors Go's `encoding/json` reports.
//!
//! The reference decodes JSON into Go structs (`JSONSchemaProps`, `ObjectMeta`); what it
//! reports for a value of the wrong type depends on the decoder's state: the innermost struct
//! and the chain of JSON field names leading to the value. Type errors do not stop Go's
//! decoder: it remembers the first and decodes on. [`FieldDecoder`] keeps that state for the
//! hand-written decoders of this workspace.

use serde_json::Value;

use super::{UnmarshalError, format_float_json, json_kind};

/// The part of Go's decoder state that its messages depend on.
#[derive(Debug, Clone)]
pub struct FieldDecoder {
    struct_name: &'static str,
    fields: Vec<String>,
    saved: Option<UnmarshalError>,
}

impl FieldDecoder {
    /// A decoder at the top of a value of Go type `struct_name` (e.g. `JSONSchemaProps`).
    pub fn new(struct_name: &'static str) -> FieldDecoder {
        FieldDecoder {
            struct_name,
            fields: Vec::new(),
            saved: None,
        }
    }

    /// Enters a nested struct; returns the outer struct's name for [`leave_struct`](Self::leave_struct).
    pub fn enter_struct(&mut self, name: &'static str) -> &'static str {
        std::mem::replace(&mut self.struct_name, name)
    }

    /// Leaves a nested struct.
    pub fn leave_struct(&mut self, outer: &'static str) {
        self.struct_name = outer;
    }

    /// Enters the struct field with JSON name `name`.
    pub fn push_field(&mut self, name: &str) {
        self.fields.push(name.to_string());
    }

    /// Leaves the innermost field.
    pub fn pop_field(&mut self) {
        self.fields.pop();
    }

    /// True at the top level (no field entered).
    pub fn at_top(&self) -> bool {
        self.fields.is_empty()
    }

    /// An `UnmarshalTypeError` for the current position.
    pub fn type_error(&self, value: &str, go_type: &'static str) -> UnmarshalError {
        UnmarshalError::Type {
            value: value.to_string(),
            go_type,
            struct_name: self.struct_name,
            field: self.fields.join("."),
        }
    }

    /// Remembers a type error at the current position, unless one is remembered already.
    pub fn save(&mut self, value: &str, go_type: &'static str) {
        if self.saved.is_none() {
            self.saved = Some(self.type_error(value, go_type));
        }
    }

    /// The first type error seen, if any.
    pub fn take_saved(&mut self) -> Option<UnmarshalError> {
        self.saved.take()
    }

    /// A Go `string` (or a string-based type named `go_type`): `null` and wrong types give
    /// `None` (Go leaves the field untouched).
    pub fn string(&mut self, v: &Value, go_type: &'static str) -> Option<String> {
        match v {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            other => {
                self.save(json_kind(other), go_type);
                None
            }
        }
    }

    /// A Go `bool`.
    pub fn boolean(&mut self, v: &Value) -> Option<bool> {
        match v {
            Value::Null => None,
            Value::Bool(b) => Some(*b),
            other => {
                self.save(json_kind(other), "bool");
                None
            }
        }
    }

    /// A Go `int64`: the number as Go's marshaller prints it must be an integer literal that
    /// fits (`1.0` and `1e3` do, printed as `1` and `1000`; `1.5` does not).
    pub fn int64(&mut self, v: &Value) -> Option<i64> {
        match v {
            Value::Null => None,
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    return Some(i);
                }
                let text = match n.as_u64() {
                    Some(u) => u.to_string(),
                    None => format_float_json(n.as_f64().unwrap_or(f64::NAN)),
                };
                match text.parse::<i64>() {
                    Ok(i) => Some(i),
                    Err(_) => {
                        self.save(&format!("number {text}"), "int64");
                        None
                    }
                }
            }
            other => {
                self.save(json_kind(other), "int64");
                None
            }
        }
    }

    /// A Go `float64`.
    pub fn float64(&mut self, v: &Value) -> Option<f64> {
        match v {
            Value::Null => None,
            Value::Number(n) => n.as_f64(),
            other => {
                self.save(json_kind(other), "float64");
                None
            }
        }
    }

    /// A Go `[]string`: `None` for `null` (nil) and for a non-array (a type error); `null`
    /// elements read as `""`.
    pub fn strings(&mut self, v: &Value) -> Option<Vec<String>> {
        match v {
            Value::Null => None,
            Value::Array(items) => Some(
                items
                    .iter()
                    .map(|i| self.string(i, "string").unwrap_or_default())
                    .collect(),
            ),
            other => {
                self.save(json_kind(other), "[]string");
                None
            }
        }
    }
}
