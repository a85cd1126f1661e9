//! The errors of Go's `encoding/json` decoder, as the reference's messages show them.

use serde_json::Value;

/// An error of Go's JSON decoder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnmarshalError {
    /// `UnmarshalTypeError`: a JSON value of the wrong kind for a Go type, e.g. `json: cannot
    /// unmarshal number into Go struct field ObjectMeta.labels of type string`.
    Type {
        /// What was found: `number`, `string`, `object`, ..., or `number 1.5` for a number that
        /// does not fit the Go type.
        value: String,
        /// The Go type, as `reflect.Type.String()` prints it.
        go_type: &'static str,
        /// The innermost Go struct being decoded.
        struct_name: &'static str,
        /// The JSON field names leading to the value, joined by `.` (empty at the top).
        field: String,
    },
    /// Any other error, by its text.
    Other(String),
}

impl std::fmt::Display for UnmarshalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnmarshalError::Type {
                value,
                go_type,
                struct_name,
                field,
            } if !field.is_empty() => {
                write!(
                    f,
                    "json: cannot unmarshal {value} into Go struct field {struct_name}.{field} of type {go_type}"
                )
            }
            UnmarshalError::Type { value, go_type, .. } => {
                write!(f, "json: cannot unmarshal {value} into Go value of type {go_type}")
            }
            UnmarshalError::Other(text) => f.write_str(text),
        }
    }
}

/// How Go's decoder names the kind of a JSON value in type errors.
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
