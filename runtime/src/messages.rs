//! Layer 2: the texts the API server answers with: wrapped decoding errors, strict decoding errors and
//! the warnings fieldValidation=Warn turns them into.

use std::fmt::Write;

use serde_json::Value;

use kstruct_schema::go::quote;

use crate::json::JsonError;

/// The serializer's text for a body that is not JSON, or nests too deeply (the position goes
/// to [`Rejection::position`](crate::error::Rejection::position): Go's texts name none).
pub(crate) fn parse_error(e: &JsonError) -> String {
    format!("couldn't get version/kind; json parse error: {}", e.message)
}

/// What [`unknown_field`] writes before the path (and a `"` after it).
pub(crate) const UNKNOWN_FIELD: &str = "unknown field \"";

/// The strict error for an unknown field at `path`: `unknown field "<path>"` (as `format!`,
/// without its machinery: bodies may have thousands of unknown fields).
pub(crate) fn unknown_field(path: &str) -> String {
    let mut e = String::with_capacity(path.len() + 16);
    e.push_str(UNKNOWN_FIELD);
    e.push_str(path);
    e.push('"');
    e
}

/// `runtime.NewStrictDecodingError(errs).Error()`.
pub(crate) fn strict_decoding_error(errors: &[String]) -> String {
    format!("strict decoding error: {}", errors.join(", "))
}

/// The handler's `transformDecodeError`: the message of the 400 answer to a body that did
/// not decode. `gvk` is what the decoder reported (kind, version), `into` the kind the
/// endpoint serves.
pub(crate) fn rejection(gvk: Option<(&str, &str)>, into: Option<&str>, cause: &str, body: &[u8]) -> String {
    match gvk {
        Some((kind, version)) if !kind.is_empty() => {
            let into = into.unwrap_or(kind);
            format!(
                "{kind} in version {} cannot be handled as a {into}: {cause}",
                quote(version)
            )
        }
        _ => {
            let summary = summarize(body, 30);
            match into {
                Some(into) => {
                    format!("the object provided is unrecognized (must be of type {into}): {cause} ({summary})")
                }
                None => format!("the object provided is unrecognized: {cause} ({summary})"),
            }
        }
    }
}

/// The handler's `summarizeData`: JSON bodies quoted (cut after `max` bytes), others in hex.
fn summarize(body: &[u8], max: usize) -> String {
    let cut = &body[..body.len().min(max)];
    let more = if body.len() > max { " ..." } else { "" };
    match body.first() {
        None => "<empty>".to_string(),
        Some(b'{') => format!("{}{more}", String::from_utf8_lossy(cut)),
        Some(_) => {
            let mut hex = String::with_capacity(cut.len() * 2);
            for b in cut {
                let _ = write!(hex, "{b:02x}");
            }
            format!("{hex}{more}")
        }
    }
}

/// The warnings fieldValidation=Warn returns for strict errors: one per error, YAML
/// duplicate-key errors split into one per line, empty and repeated texts dropped (the
/// API server's warning recorder keeps each text once). The errors' strings are moved into
/// the warnings, not copied: a body with thousands of unknown fields costs one pass.
pub(crate) fn warnings(errors: Vec<String>) -> Vec<String> {
    const SHORT: &str = "yaml: unmarshal errors:\n";
    const LONG: &str = "error converting YAML to JSON: yaml: unmarshal errors:\n";
    enum Take {
        Whole,
        Skip,
        Lines(Vec<std::ops::Range<usize>>),
    }
    // First decide, borrowing the texts; then move them.
    let plan: Vec<Take> = {
        // SipHash, not a cheaper hash: the texts hold the body's field names, which a client
        // could choose to collide.
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::with_capacity(errors.len());
        errors
            .iter()
            .map(|e| match e.strip_prefix(SHORT).or_else(|| e.strip_prefix(LONG)) {
                Some(rest) => Take::Lines(
                    rest.split('\n')
                        .map(str::trim)
                        .filter(|w| !w.is_empty() && seen.insert(w))
                        .map(|w| {
                            let start = w.as_ptr() as usize - e.as_ptr() as usize;
                            start..start + w.len()
                        })
                        .collect(),
                ),
                None if !e.is_empty() && seen.insert(e) => Take::Whole,
                None => Take::Skip,
            })
            .collect()
    };
    let mut out = Vec::with_capacity(errors.len());
    for (e, take) in errors.into_iter().zip(plan) {
        match take {
            Take::Whole => out.push(e),
            Take::Skip => {}
            Take::Lines(lines) => out.extend(lines.into_iter().map(|r| e[r].to_string())),
        }
    }
    out
}

/// `unstructured.NestedString`'s error for a value that is not a string.
pub(crate) fn accessor_error(field: &str, v: &Value) -> String {
    nested_accessor_error(field, v, "string")
}

/// The error of `unstructured`'s nested accessors (`NestedString`, `NestedInt64`, and
/// `NestedFieldNoCopy` on a step that is not a map) for `v` at the dotted `fields`.
pub(crate) fn nested_accessor_error(fields: &str, v: &Value, expected: &str) -> String {
    format!(
        ".{fields} accessor error: {} is of the type {}, expected {expected}",
        kstruct_schema::go::sprint_v(v),
        kstruct_schema::go::type_name(v)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_errors_become_one_warning_per_line() {
        let errors = [
            "yaml: unmarshal errors:\n  line 6: key \"name\" already set in map\n  line 9: key \"a\" already set in map"
                .to_string(),
            "duplicate field \"spec.a\"".to_string(),
            "error converting YAML to JSON: yaml: unmarshal errors:\n  line 6: key \"name\" already set in map"
                .to_string(),
            String::new(),
            "duplicate field \"spec.a\"".to_string(),
        ];
        assert_eq!(
            warnings(errors.to_vec()),
            [
                "line 6: key \"name\" already set in map",
                "line 9: key \"a\" already set in map",
                "duplicate field \"spec.a\""
            ]
        );
    }

    #[test]
    fn rejections_name_the_kinds() {
        assert_eq!(
            rejection(Some(("Foo", "v1")), Some("Bar"), "boom", b"{}"),
            "Foo in version \"v1\" cannot be handled as a Bar: boom"
        );
        assert_eq!(
            rejection(None, Some("Bar"), "boom", b"{\"apiVersion\": \"v1\", \"metadata\": {}}"),
            "the object provided is unrecognized (must be of type Bar): boom ({\"apiVersion\": \"v1\", \"metadata ...)"
        );
        assert_eq!(
            rejection(Some(("", "v1")), Some("Bar"), "boom", b"a: 1"),
            "the object provided is unrecognized (must be of type Bar): boom (613a2031)"
        );
        assert_eq!(
            rejection(None, None, "boom", b""),
            "the object provided is unrecognized: boom (<empty>)"
        );
    }

    #[test]
    fn accessor_errors_print_go_values() {
        assert_eq!(
            accessor_error("apiVersion", &Value::Null),
            ".apiVersion accessor error: <nil> is of the type <nil>, expected string"
        );
        assert_eq!(
            accessor_error("kind", &json!({"b": [1, 2.5], "a": true})),
            ".kind accessor error: map[a:true b:[1 2.5]] is of the type map[string]interface {}, expected string"
        );
    }
}
