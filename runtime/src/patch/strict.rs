//! Reading patch bodies as the patch handler does before applying them: strictly (its
//! `kjson.UnmarshalStrict`, under fieldValidation Strict and Warn), and as the patch library
//! reads them.

use serde_json::Value;

use super::lazy::{Scan, kind_of};
use crate::json::{self, MAX_STRICT_ERRORS};
use kstruct_schema::go::json_kind;

/// What strict decoding found in a patch body.
#[derive(Debug, Default)]
pub(super) struct Report {
    /// The strict errors, in the handler's words and document order.
    pub errors: Vec<String>,
    /// Paths of repeated keys, in document order.
    pub duplicates: Vec<String>,
}

/// The members of a JSON patch operation the handler's `jsonPatchOp` declares.
const OP_MEMBERS: [&str; 4] = ["op", "path", "from", "value"];

/// A JSON patch body decoded strictly into the handler's operations (`[]jsonPatchOp`): each
/// error prefixed `json patch `.
///
/// # Errors
/// Go's text for a body that is not an array of operations (`json: cannot unmarshal object
/// into Go value of type []handlers.jsonPatchOp`), or whose `op`, `path` or `from` is not a
/// string.
pub(super) fn json_patch_ops(decoded: &json::DecodedJson, body: &[u8]) -> Result<Report, String> {
    let keys = op_keys(body);
    let shape = match &decoded.value {
        Value::Null => return Ok(Report::default()),
        Value::Array(items) => type_errors(items, &keys),
        other => Err(format!(
            "json: cannot unmarshal {} into Go value of type []handlers.jsonPatchOp",
            json_kind(other)
        )),
    };
    shape?;
    let mut dups = decoded.duplicates.iter().peekable();
    let mut errors = Vec::new();
    for (i, keys) in keys.iter().enumerate() {
        let prefix = format!("[{i}].");
        let mut seen = std::collections::HashSet::new();
        for (key, _) in keys {
            let known = OP_MEMBERS.contains(&key.as_str());
            let first = seen.insert(key.as_str());
            let own = format!("{prefix}{key}");
            if !first && dups.peek().is_some_and(|d| **d == own) {
                dups.next();
                if known {
                    errors.push(format!("duplicate field {}", kstruct_schema::go::quote(&own)));
                }
            }
            if !known {
                errors.push(format!("unknown field {}", kstruct_schema::go::quote(&own)));
            }
            // Repeats inside the member's value come before the next member.
            while let Some(d) = dups.peek().filter(|d| {
                d.strip_prefix(own.as_str())
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
            }) {
                if known {
                    errors.push(format!("duplicate field {}", kstruct_schema::go::quote(d)));
                }
                dups.next();
            }
        }
    }
    errors.truncate(MAX_STRICT_ERRORS);
    Ok(Report {
        errors: errors.into_iter().map(|e| format!("json patch {e}")).collect(),
        duplicates: decoded.duplicates.clone(),
    })
}

/// The first type error of the operations' string members in document order, as Go reports
/// it (it goes on after one and reports the first at the end, so a member written twice
/// fails on its first value even when the last one is a string); `keys` are each
/// operation's members in document order, with the JSON kind of each value.
fn type_errors(items: &[Value], keys: &[Vec<(String, &'static str)>]) -> Result<(), String> {
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::Object(_) => {
                let order = keys.get(i).map_or(&[][..], Vec::as_slice);
                let members = order
                    .iter()
                    .filter(|(k, _)| matches!(k.as_str(), "op" | "path" | "from"));
                for (name, kind) in members {
                    if !matches!(*kind, "string" | "null") {
                        return Err(format!(
                            "json: cannot unmarshal {kind} into Go struct field jsonPatchOp.{name} of type string"
                        ));
                    }
                }
            }
            Value::Null => {}
            other => {
                return Err(format!(
                    "json: cannot unmarshal {} into Go value of type handlers.jsonPatchOp",
                    json_kind(other)
                ));
            }
        }
    }
    Ok(())
}

/// A merge patch body decoded strictly (into `map[string]interface{}`): its repeated keys.
///
/// # Errors
/// Go's text for a body that is not an object or `null`.
pub(super) fn merge_patch(decoded: json::DecodedJson) -> Result<(Value, Report), String> {
    match &decoded.value {
        Value::Object(_) | Value::Null => {}
        other => {
            let e = format!(
                "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                json_kind(other)
            );
            json::dispose(decoded.value);
            return Err(e);
        }
    }
    let mut errors: Vec<String> = decoded
        .duplicates
        .iter()
        .map(|d| format!("duplicate field {}", kstruct_schema::go::quote(d)))
        .collect();
    errors.truncate(MAX_STRICT_ERRORS);
    Ok((
        decoded.value,
        Report {
            errors,
            duplicates: decoded.duplicates,
        },
    ))
}

/// The members of each object in a top-level JSON array, in document order, repeats
/// included, with the JSON kind of each value (empty for items that are not objects). `body`
/// is valid JSON.
fn op_keys(body: &[u8]) -> Vec<Vec<(String, &'static str)>> {
    let mut s = Scan { b: body, i: 0 };
    let mut out = Vec::new();
    s.ws();
    if !s.eat(b'[') {
        return out;
    }
    loop {
        s.ws();
        if s.eat(b']') || s.i >= s.b.len() {
            return out;
        }
        let mut keys = Vec::new();
        if s.eat(b'{') {
            loop {
                s.ws();
                if s.eat(b'}') || s.i >= s.b.len() {
                    break;
                }
                let start = s.i;
                s.string();
                let key = json::decode(&s.b[start..s.i])
                    .ok()
                    .and_then(|d| d.value.as_str().map(str::to_string))
                    .unwrap_or_default();
                s.ws();
                s.eat(b':');
                s.ws();
                let value = s.value();
                keys.push((key, kind_of(&s.b[value])));
                s.ws();
                s.eat(b',');
            }
        } else {
            let _ = s.value();
        }
        out.push(keys);
        s.ws();
        s.eat(b',');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(body: &[u8]) -> json::DecodedJson {
        json::decode(body).unwrap()
    }

    #[test]
    fn operations_strictly_in_document_order() {
        let body = br#"[{"op": "add", "path": "/a", "value": {"k": 1, "k": 2}, "foo": 1, "path": "/b"},
                        {"op": "add", "path": "/c", "path": "/d", "Op": "x"}, null]"#;
        let report = json_patch_ops(&decoded(body), body).unwrap();
        assert_eq!(
            report.errors,
            [
                r#"json patch duplicate field "[0].value.k""#,
                r#"json patch unknown field "[0].foo""#,
                r#"json patch duplicate field "[0].path""#,
                r#"json patch duplicate field "[1].path""#,
                r#"json patch unknown field "[1].Op""#,
            ]
        );
        assert_eq!(
            json_patch_ops(&decoded(br#"{"op": "add"}"#), br#"{"op": "add"}"#).unwrap_err(),
            "json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
        );
        assert_eq!(
            json_patch_ops(
                &decoded(br#"[{"op": "add", "path": 5}]"#),
                br#"[{"op": "add", "path": 5}]"#
            )
            .unwrap_err(),
            "json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string"
        );
        assert_eq!(
            json_patch_ops(&decoded(br#"[{"path": [], "op": 2}]"#), br#"[{"path": [], "op": 2}]"#).unwrap_err(),
            "json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string"
        );
        assert_eq!(
            op_keys(br#" [ 1, "x", {"a" : [ {"b": 1} ], "c\"d": "}"} , {}]"#),
            [
                vec![],
                vec![],
                vec![("a".to_string(), "array"), ("c\"d".to_string(), "string")],
                vec![]
            ]
        );
        // A member written twice fails on its first value, as Go's decoder does.
        let twice = br#"[{"op": "add", "path": [1], "path": "/a"}]"#;
        assert_eq!(
            json_patch_ops(&decoded(twice), twice).unwrap_err(),
            "json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string"
        );
    }

    #[test]
    fn the_librarys_reading() {
        use super::super::json_patch::decode;
        assert_eq!(decode(b"null").unwrap().len(), 0);
        assert_eq!(
            decode(b"[1]").unwrap_err(),
            "json: cannot unmarshal number into Go value of type jsonpatch.Operation"
        );
        assert_eq!(
            decode(br#"{"a": 1}"#).unwrap_err(),
            "json: cannot unmarshal object into Go value of type jsonpatch.Patch"
        );
        let (_, report) = merge_patch(decoded(br#"{"a": {"b": 1, "b": 2}, "a": {}}"#)).unwrap();
        assert_eq!(report.errors, [r#"duplicate field "a.b""#, r#"duplicate field "a""#]);
        assert_eq!(
            merge_patch(decoded(b"[1]")).unwrap_err(),
            "json: cannot unmarshal array into Go value of type map[string]interface {}"
        );
    }
}
