//! Reading a request body into an object: what the API server's JSON serializer does before
//! any schema is involved (YAML conversion, the TypeMeta pre-parse, strict JSON decoding and
//! the check that the object names its kind).

use serde_json::{Map, Value};

use kstruct_schema::go::{json_kind, marshal_json, quote};
use kstruct_schema::yaml;

use super::BodyFormat;
use crate::json::{self, dispose};
use crate::messages;

/// A body read into an object.
pub(super) struct Read {
    /// The decoded object (for repeated keys, the last value).
    pub object: Map<String, Value>,
    /// The strict decoder's errors, in its order: the YAML duplicate-key error, then
    /// `duplicate field "..."` for JSON. Empty unless decoding strictly.
    pub strict_errors: Vec<String>,
    /// Paths of the repeated JSON keys, in document order. Empty unless decoding strictly.
    pub duplicate_fields: Vec<String>,
    /// The object's kind, as the serializer reports it.
    pub kind: String,
    /// The version of the object's apiVersion, as the serializer reports it.
    pub version: String,
}

/// A group, version and kind, as the serializer reports it with an error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Gvk {
    pub group: String,
    pub version: String,
    pub kind: String,
}

/// A body the serializer rejects.
#[derive(Debug)]
pub(crate) struct Failure {
    /// The serializer's error text.
    pub cause: String,
    /// The group/version/kind the serializer reports with the error, when it has one (as the
    /// body's pre-parse read it, before the endpoint's defaults); the API server's message
    /// depends on it.
    pub gvk: Option<Gvk>,
    /// Where a JSON syntax error is in the body: (line, column).
    pub position: Option<(usize, usize)>,
}

impl Failure {
    fn new(cause: impl Into<String>) -> Failure {
        Failure {
            cause: cause.into(),
            gvk: None,
            position: None,
        }
    }
}

/// Reads `body` as the serializer does; `strict` is fieldValidation Strict or Warn.
pub(super) fn read(body: &[u8], format: BodyFormat, strict: bool) -> Result<Read, Failure> {
    match format.resolve(body) {
        BodyFormat::Yaml => read_yaml(body, strict),
        _ => read_json(body, strict),
    }
}

fn read_json(body: &[u8], strict: bool) -> Result<Read, Failure> {
    let decoded = json::decode_body(body).map_err(|e| Failure {
        position: (e.message != "exceeded max depth").then_some((e.line, e.column)),
        ..Failure::new(messages::parse_error(&e))
    })?;
    let value = decoded.decoded.value;
    // The pre-parse reads apiVersion/kind case-insensitively, every occurrence in document
    // order, and keeps the first type error.
    let mut pre = PreParse::default();
    let mut outcome = match &value {
        Value::Object(_) | Value::Null => Ok(()),
        other => Err(pre.root_error(other)),
    };
    if outcome.is_ok() {
        for (key, kind, text) in &decoded.type_meta {
            if let Err(e) = pre.field(key, kind, text.as_deref()) {
                outcome = Err(e);
                break;
            }
        }
    }
    let outcome = outcome.and_then(|()| pre.group_version());
    if let Err(cause) = outcome {
        dispose(value);
        return Err(Failure::new(cause));
    }
    if let Some(e) = decoded.range_error {
        dispose(value);
        return Err(Failure {
            cause: e.message,
            gvk: Some(pre.gvk()),
            position: None,
        });
    }
    let (strict_errors, duplicate_fields) = if strict {
        let mut dups = decoded.decoded.duplicates;
        dups.truncate(json::MAX_STRICT_ERRORS);
        let errors = dups.iter().map(|p| format!("duplicate field {}", quote(p))).collect();
        (errors, dups)
    } else {
        (Vec::new(), Vec::new())
    };
    // Strict decoding quotes the body as sent; the lenient decoder quotes the bytes Go hands
    // to Unstructured.UnmarshalJSON: the value without the white space around it.
    let lenient_gvk = (!strict).then(|| pre.gvk());
    finish(value, strict_errors, duplicate_fields, lenient_gvk, |_| {
        let data = if strict { body } else { trim_json_space(body) };
        String::from_utf8_lossy(data).into_owned()
    })
}

fn read_yaml(body: &[u8], strict: bool) -> Result<Read, Failure> {
    let converted = yaml::to_json_bytes(body).map_err(|e| Failure {
        position: e.line().map(|line| (line, e.column().unwrap_or(1))),
        ..Failure::new(e.message())
    })?;
    // The serializer goes on with the JSON that YAMLToJSON wrote: keys sorted, no repeats.
    let mut pre = PreParse::default();
    let outcome = pre.read_value(&converted.value);
    let strict_errors: Vec<String> = if strict {
        converted.strict_error().into_iter().collect()
    } else {
        Vec::new()
    };
    let value = converted.value;
    let outcome = outcome.and_then(|()| pre.group_version());
    if let Err(cause) = outcome {
        dispose(value);
        return Err(Failure::new(cause));
    }
    // The missing-kind message quotes the original body when decoding strictly, and the JSON
    // YAMLToJSON wrote otherwise.
    let lenient_gvk = (!strict).then(|| pre.gvk());
    finish(value, strict_errors, Vec::new(), lenient_gvk, |value| {
        if strict {
            String::from_utf8_lossy(body).into_owned()
        } else {
            marshal_json(value)
        }
    })
}

/// A body as the serializer hands it to the decoder of a Go type.
pub(crate) struct Typed {
    /// What `YAMLToJSON` wrote, for a YAML body (empty for JSON: the decoder reads the body).
    pub json: Vec<u8>,
    /// The pre-parse's group, version and kind (before the endpoint's defaults).
    pub gvk: Gvk,
    /// `YAMLToJSONStrict`'s error (repeated keys), for a YAML body.
    pub yaml_error: Option<String>,
}

/// Reads `body` as the serializer does before decoding it into a Go type: syntax, the
/// TypeMeta pre-parse, YAML conversion. Numbers are left to the typed decoder (which reads
/// each into its field's type).
pub(crate) fn read_typed(body: &[u8], format: BodyFormat) -> Result<Typed, Failure> {
    let mut pre = PreParse::default();
    let (json, yaml_error) = match format.resolve(body) {
        BodyFormat::Yaml => {
            let converted = yaml::to_json_bytes(body).map_err(|e| Failure {
                position: e.line().map(|line| (line, e.column().unwrap_or(1))),
                ..Failure::new(e.message())
            })?;
            let outcome = pre.read_value(&converted.value).and_then(|()| pre.group_version());
            let yaml_error = converted.strict_error();
            let json = marshal_json(&converted.value).into_bytes();
            dispose(converted.value);
            outcome.map_err(Failure::new)?;
            (json, yaml_error)
        }
        _ => {
            let type_meta = json::check_syntax(body)
                .map_err(|e| Failure {
                    position: (e.message != "exceeded max depth").then_some((e.line, e.column)),
                    ..Failure::new(messages::parse_error(&e))
                })?
                .map_err(|kind| Failure::new(pre.root_error_of(kind)))?;
            let mut outcome = Ok(());
            for (key, kind, text) in &type_meta {
                if let Err(e) = pre.field(key, kind, text.as_deref()) {
                    outcome = Err(e);
                    break;
                }
            }
            outcome.and_then(|()| pre.group_version()).map_err(Failure::new)?;
            (Vec::new(), None)
        }
    };
    Ok(Typed {
        json,
        gvk: pre.gvk(),
        yaml_error,
    })
}

fn trim_json_space(b: &[u8]) -> &[u8] {
    let is_space = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let start = b.iter().position(|c| !is_space(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !is_space(c)).map_or(start, |i| i + 1);
    &b[start..end]
}

/// The decoded object, unless it fails to name its kind: `kind` must be a non-empty string (an
/// unparsable `apiVersion` was refused earlier, by the pre-parse).
/// `data` renders what the missing-kind message quotes. The lenient decoder reports the
/// missing kind with the pre-parse's `lenient_gvk` (so the handler names it `<Kind> in
/// version "v" cannot be handled as ...`); the strict one with none (`the object provided is
/// unrecognized ...`).
fn finish(
    value: Value,
    strict_errors: Vec<String>,
    duplicate_fields: Vec<String>,
    lenient_gvk: Option<Gvk>,
    data: impl FnOnce(&Value) -> String,
) -> Result<Read, Failure> {
    let field = |name: &str| value.get(name).and_then(Value::as_str).unwrap_or("");
    let kind = field("kind").to_string();
    let version = match crate::parse_group_version(field("apiVersion")) {
        Ok((_, version)) if !kind.is_empty() => version.to_string(),
        _ => {
            let cause = format!("Object 'Kind' is missing in '{}'", data(&value));
            dispose(value);
            return Err(Failure {
                gvk: lenient_gvk,
                ..Failure::new(cause)
            });
        }
    };
    let object = match value {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    Ok(Read {
        object,
        strict_errors,
        duplicate_fields,
        kind,
        version,
    })
}

/// Go's `encoding/json` decoding the body into `struct { APIVersion, Kind string }`.
#[derive(Default)]
struct PreParse {
    api_version: String,
    kind: String,
}

/// The serializer's pre-parse of a document it reads as Go writes JSON (keys sorted, each
/// once): the TypeMeta's type errors and an apiVersion that does not parse, with its texts
/// (`couldn't get version/kind; json parse error: json: cannot unmarshal bool into Go struct
/// field .apiVersion of type string`, `unexpected GroupVersion string: a/b/c`).
pub(crate) fn pre_parse(value: &Value) -> Result<(), String> {
    let mut pre = PreParse::default();
    pre.read_value(value)?;
    pre.group_version()
}

impl PreParse {
    /// Reads the root's keys that fold to `kind` or `apiVersion`, in the map's order.
    fn read_value(&mut self, value: &Value) -> Result<(), String> {
        match value {
            Value::Object(m) => m
                .iter()
                .filter(|(k, _)| json::folds_to_type_meta(k))
                .try_for_each(|(k, v)| self.field(k, json_kind(v), v.as_str())),
            Value::Null => Ok(()),
            other => Err(self.root_error(other)),
        }
    }

    fn root_error(&self, v: &Value) -> String {
        self.root_error_of(json_kind(v))
    }

    fn root_error_of(&self, kind: &str) -> String {
        format!(
            "couldn't get version/kind; json parse error: json: cannot unmarshal {} into Go value of type \
             struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}",
            kind
        )
    }

    /// One top-level key that folds to `kind` or `apiVersion`.
    fn field(&mut self, key: &str, kind: &str, text: Option<&str>) -> Result<(), String> {
        match (kind, text) {
            ("null", _) => Ok(()),
            ("string", Some(t)) => {
                if json::folds_to(key, "kind") {
                    self.kind = t.to_string();
                } else {
                    self.api_version = t.to_string();
                }
                Ok(())
            }
            _ => Err(format!(
                "couldn't get version/kind; json parse error: json: cannot unmarshal {kind} into Go struct field .{key} of type string"
            )),
        }
    }

    /// The meta factory's `Interpret` parses the group version right after reading it:
    /// `apiVersion: a/b/c` fails there, before anything else is decoded.
    fn group_version(&self) -> Result<(), String> {
        crate::parse_group_version(&self.api_version).map(|_| ())
    }

    /// The group, version and kind the serializer reports with a later decoding error.
    fn gvk(&self) -> Gvk {
        let (group, version) = crate::parse_group_version(&self.api_version).unwrap_or(("", ""));
        Gvk {
            group: group.to_string(),
            version: version.to_string(),
            kind: self.kind.clone(),
        }
    }
}
