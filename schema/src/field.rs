//! Field paths and field errors, printed exactly as apimachinery's `field.Path` and
//! `field.Error` print them.

use std::fmt;

use serde_json::Value;

use crate::go;

/// A field path such as `spec.versions[0].schema.openAPIV3Schema.properties[a]`.
///
/// Built like apimachinery's `*field.Path`: [`child`](Path::child) adds `.name` (no dot at the
/// start), [`key`](Path::key) adds `[key]` with the key unescaped, [`index`](Path::index) adds
/// `[i]`. The nil path ([`Path::nil`]) prints as `<nil>` and gives children without a leading
/// dot, which is how the reference validates bare schemas.
///
/// ```
/// use kstruct_schema::field::Path;
/// let p = Path::nil().child("properties").key("a.b").child("items").index(3);
/// assert_eq!(p.to_string(), "properties[a.b].items[3]");
/// assert_eq!(Path::new("spec").child("x").to_string(), "spec.x");
/// assert_eq!(Path::nil().to_string(), "<nil>");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path {
    rendered: String,
    nil: bool,
}

impl Path {
    /// The nil path (Go's `(*field.Path)(nil)`).
    pub fn nil() -> Path {
        Path {
            rendered: String::new(),
            nil: true,
        }
    }

    /// A root path with one element (Go's `field.NewPath(name)`).
    pub fn new(name: &str) -> Path {
        Path::nil().child(name)
    }

    /// True for the nil path.
    pub fn is_nil(&self) -> bool {
        self.nil
    }

    /// Appends a field name. An empty name prints as `[]`, as the reference prints it.
    pub fn child(&self, name: &str) -> Path {
        let mut rendered = String::with_capacity(self.rendered.len() + name.len() + 2);
        rendered.push_str(&self.rendered);
        if name.is_empty() {
            rendered.push_str("[]");
        } else {
            if !self.nil {
                rendered.push('.');
            }
            rendered.push_str(name);
        }
        Path { rendered, nil: false }
    }

    /// Appends a map key, unescaped: `[key]`.
    pub fn key(&self, key: &str) -> Path {
        let mut rendered = String::with_capacity(self.rendered.len() + key.len() + 2);
        rendered.push_str(&self.rendered);
        rendered.push('[');
        rendered.push_str(key);
        rendered.push(']');
        Path { rendered, nil: false }
    }

    /// Appends a list index: `[i]`.
    pub fn index(&self, i: usize) -> Path {
        self.key(&i.to_string())
    }

    /// The rendered path, `<nil>` for the nil path.
    pub fn as_string(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nil {
            f.write_str("<nil>")
        } else {
            f.write_str(&self.rendered)
        }
    }
}

/// The kind of a [`FieldError`], with the reference's texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `Not found`.
    NotFound,
    /// `Required value`.
    Required,
    /// `Duplicate value`.
    Duplicate,
    /// `Invalid value`.
    Invalid,
    /// `Unsupported value`.
    NotSupported,
    /// `Forbidden`.
    Forbidden,
    /// `Too long`.
    TooLong,
    /// `Too many`.
    TooMany,
    /// `Internal error`.
    Internal,
    /// `Invalid value` (a type error).
    TypeInvalid,
}

impl ErrorKind {
    /// The reference's text for this kind (`field.ErrorType.String()`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::NotFound => "Not found",
            ErrorKind::Required => "Required value",
            ErrorKind::Duplicate => "Duplicate value",
            ErrorKind::Invalid => "Invalid value",
            ErrorKind::NotSupported => "Unsupported value",
            ErrorKind::Forbidden => "Forbidden",
            ErrorKind::TooLong => "Too long",
            ErrorKind::TooMany => "Too many",
            ErrorKind::Internal => "Internal error",
            ErrorKind::TypeInvalid => "Invalid value",
        }
    }

    /// The reference's Go constant name (`FieldValueRequired`, ...), as test tables name kinds.
    pub fn go_name(self) -> &'static str {
        match self {
            ErrorKind::NotFound => "FieldValueNotFound",
            ErrorKind::Required => "FieldValueRequired",
            ErrorKind::Duplicate => "FieldValueDuplicate",
            ErrorKind::Invalid => "FieldValueInvalid",
            ErrorKind::NotSupported => "FieldValueNotSupported",
            ErrorKind::Forbidden => "FieldValueForbidden",
            ErrorKind::TooLong => "FieldValueTooLong",
            ErrorKind::TooMany => "FieldValueTooMany",
            ErrorKind::Internal => "InternalError",
            ErrorKind::TypeInvalid => "FieldValueTypeInvalid",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The offending value of a [`FieldError`], printed as the reference prints Go values.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// No value is printed.
    Omit,
    /// Go `nil`: printed as `"null"` (quoted, as the reference does).
    Null,
    /// A string, printed Go-quoted.
    String(String),
    /// An integer, printed in decimal.
    Int(i64),
    /// A float, printed as Go's `%v`.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// Any other JSON value, printed as Go's `encoding/json` marshals it.
    Json(Value),
    /// A Go value printed as given: where the reference prints a Go struct with `%#v`, which
    /// holds memory addresses no reimplementation can reproduce.
    Raw(String),
}

impl From<&Value> for BadValue {
    fn from(v: &Value) -> BadValue {
        match v {
            Value::Null => BadValue::Null,
            Value::Bool(b) => BadValue::Bool(*b),
            Value::String(s) => BadValue::String(s.clone()),
            Value::Number(n) => match n.as_i64() {
                Some(i) => BadValue::Int(i),
                None => BadValue::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            other => BadValue::Json(other.clone()),
        }
    }
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::Omit => Ok(()),
            BadValue::Null => f.write_str("\"null\""),
            BadValue::String(s) => f.write_str(&go::quote(s)),
            BadValue::Int(i) => write!(f, "{i}"),
            BadValue::Float(x) => f.write_str(&go::format_float_g(*x)),
            BadValue::Bool(b) => write!(f, "{b}"),
            BadValue::Json(v) => f.write_str(&go::marshal_json(v)),
            BadValue::Raw(s) => f.write_str(s),
        }
    }
}

/// One validation error, as apimachinery's `field.Error`: its `Display` is the reference's
/// `Error()` text, e.g. `properties[a].type: Required value: must not be empty for specified
/// object fields`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The rendered field path.
    pub field: String,
    /// The offending value, where the kind prints one.
    pub value: BadValue,
    /// The explanation, possibly empty.
    pub detail: String,
}

impl FieldError {
    /// A `Required value` error.
    pub fn required(path: &Path, detail: impl Into<String>) -> FieldError {
        FieldError::new(ErrorKind::Required, path, BadValue::Omit, detail)
    }

    /// A `Forbidden` error.
    pub fn forbidden(path: &Path, detail: impl Into<String>) -> FieldError {
        FieldError::new(ErrorKind::Forbidden, path, BadValue::Omit, detail)
    }

    /// An `Invalid value` error.
    pub fn invalid(path: &Path, value: BadValue, detail: impl Into<String>) -> FieldError {
        FieldError::new(ErrorKind::Invalid, path, value, detail)
    }

    /// A `Duplicate value` error.
    pub fn duplicate(path: &Path, value: BadValue) -> FieldError {
        FieldError::new(ErrorKind::Duplicate, path, value, "")
    }

    /// A `NotSupported` error: `Unsupported value: "x": supported values: "a", "b"` (the list
    /// as given, each Go-quoted).
    pub fn not_supported(path: &Path, value: &str, supported: &[&str]) -> FieldError {
        let list = supported.iter().map(|s| go::quote(s)).collect::<Vec<_>>().join(", ");
        FieldError::new(
            ErrorKind::NotSupported,
            path,
            BadValue::String(value.to_string()),
            format!("supported values: {list}"),
        )
    }

    /// An error of any kind.
    pub fn new(kind: ErrorKind, path: &Path, value: BadValue, detail: impl Into<String>) -> FieldError {
        FieldError {
            kind,
            field: path.to_string(),
            value,
            detail: detail.into(),
        }
    }

    /// The message without the field path (the reference's `ErrorBody()`).
    pub fn body(&self) -> String {
        let mut s = String::from(self.kind.as_str());
        let prints_value = !matches!(
            self.kind,
            ErrorKind::Required | ErrorKind::Forbidden | ErrorKind::TooLong | ErrorKind::Internal
        ) && self.value != BadValue::Omit;
        if prints_value {
            s.push_str(": ");
            s.push_str(&self.value.to_string());
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl std::error::Error for FieldError {}

/// Sorts errors by their full text in byte order, as `ValidateStructural` sorts them.
pub fn sort_by_message(errors: &mut [FieldError]) {
    errors.sort_by_cached_key(|e| e.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_like_apimachinery() {
        assert_eq!(Path::nil().child("a").to_string(), "a");
        assert_eq!(Path::nil().key("k").to_string(), "[k]");
        assert_eq!(Path::nil().index(0).child("b").to_string(), "[0].b");
        assert_eq!(Path::new("spec").child("").to_string(), "spec[]");
        assert_eq!(Path::nil().child("properties").key("").to_string(), "properties[]");
        assert_eq!(
            Path::new("openAPIV3Schema").child("type").to_string(),
            "openAPIV3Schema.type"
        );
    }

    #[test]
    fn errors_print_like_apimachinery() {
        let p = Path::nil().child("properties").key("a").child("type");
        assert_eq!(
            FieldError::required(&p, "must not be empty for specified object fields").to_string(),
            "properties[a].type: Required value: must not be empty for specified object fields"
        );
        let p = Path::nil().child("type");
        assert_eq!(
            FieldError::invalid(&p, BadValue::String("array".into()), "must be object at the root").to_string(),
            "type: Invalid value: \"array\": must be object at the root"
        );
        let p = Path::nil().child("x-kubernetes-embedded-resource");
        assert_eq!(
            FieldError::invalid(&p, BadValue::Bool(true), "must be false").to_string(),
            "x-kubernetes-embedded-resource: Invalid value: true: must be false"
        );
        assert_eq!(
            FieldError::invalid(&Path::new("a"), BadValue::Null, "must be a string").to_string(),
            "a: Invalid value: \"null\": must be a string"
        );
        assert_eq!(
            FieldError::duplicate(&Path::new("l").index(1), BadValue::Int(3)).to_string(),
            "l[1]: Duplicate value: 3"
        );
        assert_eq!(FieldError::forbidden(&Path::new("x"), "").to_string(), "x: Forbidden",);
        let obj: Value = serde_json::json!({"b": [1, 1.5], "a": "<x>"});
        assert_eq!(
            FieldError::duplicate(&Path::new("m"), BadValue::Json(obj)).to_string(),
            r#"m: Duplicate value: {"a":"\u003cx\u003e","b":[1,1.5]}"#
        );
    }
}
