//! Layer 0: the API server's answers on the wire: `metav1.Status` bodies for failed requests and
//! `Warning` header values, for fake API servers and test harnesses that answer as the
//! server does.
//!
//! ```
//! use kstruct::status::{Status, warning_headers};
//!
//! let status = Status::bad_request(r#"Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.x""#);
//! assert_eq!(
//!     status.to_json(),
//!     r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: unknown field \"spec.x\"","reason":"BadRequest","code":400}"#
//! );
//! assert_eq!(
//!     warning_headers(&[r#"unknown field "spec.x""#.to_string()]),
//!     [r#"299 - "unknown field \"spec.x\"""#]
//! );
//! ```

use serde_json::Value;

/// A `metav1.Status` of a failed request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The HTTP status code (`code`).
    pub code: u16,
    /// `reason`: `BadRequest`, `NotFound`, `Invalid`, `InternalError`, ...
    pub reason: String,
    /// `message`: the text clients print.
    pub message: String,
    /// `details`, when the server sends them.
    pub details: Option<StatusDetails>,
}

/// `metav1.StatusDetails`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusDetails {
    /// `name`: the object's name.
    pub name: String,
    /// `group`: the resource's API group.
    pub group: String,
    /// `kind`: the resource's kind.
    pub kind: String,
    /// `causes`: one per field error.
    pub causes: Vec<StatusCause>,
}

/// `metav1.StatusCause`: one field error of an `Invalid` answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusCause {
    /// `reason`: the field error's type, e.g. `FieldValueRequired`.
    pub reason: String,
    /// `message`: the error without its field path.
    pub message: String,
    /// `field`: the field path.
    pub field: String,
}

impl Status {
    /// 400 `BadRequest` with `message`: the answer to a body that cannot be decoded.
    pub fn bad_request(message: &str) -> Status {
        Status {
            code: 400,
            reason: "BadRequest".into(),
            message: message.into(),
            details: None,
        }
    }

    /// 404 `NotFound` with empty details: what a request to a resource nothing serves gets.
    pub fn not_found() -> Status {
        Status {
            code: 404,
            reason: "NotFound".into(),
            message: "the server could not find the requested resource".into(),
            details: Some(StatusDetails::default()),
        }
    }

    /// 500 `InternalError`.
    pub fn internal(message: &str) -> Status {
        Status {
            code: 500,
            reason: "InternalError".into(),
            message: format!("Internal error occurred: {message}"),
            details: Some(StatusDetails {
                causes: vec![StatusCause {
                    reason: String::new(),
                    message: message.into(),
                    field: String::new(),
                }],
                ..StatusDetails::default()
            }),
        }
    }

    /// The Status as JSON, as the API server writes it: Go's field order (`kind`,
    /// `apiVersion`, `metadata`, `status`, `message`, `reason`, `details`, `code`), empty
    /// fields omitted, strings escaped as Go's encoder escapes them.
    pub fn to_json(&self) -> String {
        let mut fields = vec![
            field("kind", quote("Status")),
            field("apiVersion", quote("v1")),
            field("metadata", "{}".into()),
            field("status", quote("Failure")),
        ];
        if !self.message.is_empty() {
            fields.push(field("message", quote(&self.message)));
        }
        if !self.reason.is_empty() {
            fields.push(field("reason", quote(&self.reason)));
        }
        if let Some(d) = &self.details {
            let mut df: Vec<String> = [("name", &d.name), ("group", &d.group), ("kind", &d.kind)]
                .into_iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| field(k, quote(v)))
                .collect();
            if !d.causes.is_empty() {
                let causes: Vec<String> = d
                    .causes
                    .iter()
                    .map(|c| {
                        let cf: Vec<String> = [("reason", &c.reason), ("message", &c.message), ("field", &c.field)]
                            .into_iter()
                            .filter(|(_, v)| !v.is_empty())
                            .map(|(k, v)| field(k, quote(v)))
                            .collect();
                        format!("{{{}}}", cf.join(","))
                    })
                    .collect();
                df.push(field("causes", format!("[{}]", causes.join(","))));
            }
            fields.push(field("details", format!("{{{}}}", df.join(","))));
        }
        fields.push(field("code", self.code.to_string()));
        format!("{{{}}}", fields.join(","))
    }

    /// [`to_json`](Status::to_json) as a value (keys in serde_json's order).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.to_json()).unwrap_or(Value::Null)
    }
}

fn field(key: &str, json: String) -> String {
    format!("\"{key}\":{json}")
}

fn quote(s: &str) -> String {
    kstruct_schema::go::marshal_json(&Value::String(s.to_string()))
}

/// The `Warning` header value the API server sends for one warning (`299 - "text"`, with `"`
/// and `\` escaped), or `None` for a warning it drops: empty, or holding control characters.
pub fn warning_header(text: &str) -> Option<String> {
    if text.is_empty() || text.chars().any(char::is_control) {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str("299 - \"");
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    Some(out)
}

/// The `Warning` header values for a request's warnings, in order, each warning once (the
/// API server's recorder drops repeats), dropped ones left out (see [`warning_header`]).
/// The server's limits on the total size of warnings are not applied.
pub fn warning_headers(warnings: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    warnings
        .iter()
        .filter(|w| seen.insert(w.as_str()))
        .filter_map(|w| warning_header(w))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_in_go_field_order() {
        assert_eq!(
            Status::not_found().to_json(),
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}"#
        );
        let invalid = Status {
            code: 422,
            reason: "Invalid".into(),
            message: "m <&>".into(),
            details: Some(StatusDetails {
                name: "w".into(),
                group: "example.com".into(),
                kind: "Widget".into(),
                causes: vec![StatusCause {
                    reason: "FieldValueRequired".into(),
                    message: "Required value".into(),
                    field: "spec.size".into(),
                }],
            }),
        };
        assert_eq!(
            invalid.to_json(),
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"m \u003c\u0026\u003e","reason":"Invalid","details":{"name":"w","group":"example.com","kind":"Widget","causes":[{"reason":"FieldValueRequired","message":"Required value","field":"spec.size"}]},"code":422}"#
        );
    }

    #[test]
    fn warning_headers_escape_dedupe_and_drop() {
        let w = |s: &str| s.to_string();
        assert_eq!(
            warning_headers(&[w(r#"a "b" \c"#), w("x\ny"), w(""), w(r#"a "b" \c"#), w("é")]),
            [r#"299 - "a \"b\" \\c""#, "299 - \"é\""]
        );
    }
}
