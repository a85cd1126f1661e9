//! Validating metadata as the API server does: `ValidateObjectMetaAccessor`
//! (`k8s.io/apimachinery/pkg/api/validation/objectmeta.go`), and the check of embedded
//! resources (`apiextensions-apiserver/pkg/apiserver/schema/objectmeta/validation.go`):
//! apiVersion and kind present and well-formed, metadata valid with path-segment names.

use serde_json::{Map, Value, json};

use kstruct_schema::Structural;
use kstruct_schema::field::{BadValue, ErrorKind, FieldError, Path};
use kstruct_schema::names::{is_dns1035_label, is_label_value, is_qualified_name};

use super::{GetOptions, ObjectMeta, get_object_meta};

/// How a kind names its objects: `(name, is_prefix) -> reasons` (apimachinery's
/// `ValidateNameFunc`; `is_prefix` for `generateName`).
pub type NameRules<'a> = &'a dyn Fn(&str, bool) -> Vec<String>;

/// The most bytes all annotations may take together.
const ANNOTATIONS_SIZE_LIMIT: usize = 256 * 1024;

/// `ValidateObjectMetaAccessor`: every problem of `meta`, at `path` (`metadata`).
pub fn validate_object_meta(
    meta: &ObjectMeta,
    requires_namespace: bool,
    names: NameRules<'_>,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let invalid = |p: Path, v: &str, m: String| FieldError::invalid(&p, BadValue::String(v.to_string()), m);
    if !meta.generate_name.is_empty() {
        for m in names(&meta.generate_name, true) {
            errs.push(invalid(path.child("generateName"), &meta.generate_name, m));
        }
    }
    if meta.name.is_empty() {
        errs.push(FieldError::required(
            &path.child("name"),
            "name or generateName is required",
        ));
    } else {
        for m in names(&meta.name, false) {
            errs.push(invalid(path.child("name"), &meta.name, m));
        }
    }
    if requires_namespace {
        if meta.namespace.is_empty() {
            errs.push(FieldError::required(&path.child("namespace"), ""));
        } else {
            for m in dns1123_label(&meta.namespace) {
                errs.push(invalid(path.child("namespace"), &meta.namespace, m));
            }
        }
    } else if !meta.namespace.is_empty() {
        errs.push(FieldError::forbidden(
            &path.child("namespace"),
            "not allowed on this type",
        ));
    }
    if meta.generation < 0 {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            BadValue::Int(meta.generation),
            "must be greater than or equal to 0",
        ));
    }
    for (k, v) in &meta.labels {
        for m in is_qualified_name(k) {
            errs.push(invalid(path.child("labels"), k, m));
        }
        for m in is_label_value(v) {
            errs.push(invalid(path.child("labels"), v, m));
        }
    }
    let mut size = 0;
    for (k, v) in &meta.annotations {
        for m in is_qualified_name(&k.to_lowercase()) {
            errs.push(invalid(path.child("annotations"), k, m));
        }
        size += k.len() + v.len();
    }
    if size > ANNOTATIONS_SIZE_LIMIT {
        errs.push(FieldError::new(
            ErrorKind::TooLong,
            &path.child("annotations"),
            BadValue::Omit,
            format!("may not be more than {ANNOTATIONS_SIZE_LIMIT} bytes"),
        ));
    }
    for (i, r) in meta.owner_references.iter().enumerate() {
        let refs = path.child("ownerReferences").index(i);
        // `schema.ParseGroupVersion`: `None` for text with more than one `/`.
        let group_version = match r.api_version.as_str() {
            "" | "/" => Some(("", "")),
            v => match v.matches('/').count() {
                0 => Some(("", v)),
                1 => v.split_once('/'),
                _ => None,
            },
        };
        if r.api_version.is_empty() {
            errs.push(FieldError::required(&refs.child("apiVersion"), "must not be empty"));
        } else if group_version.is_none_or(|(_, v)| v.is_empty()) {
            errs.push(invalid(
                refs.child("apiVersion"),
                &r.api_version,
                "must be <group>/<version> or <version>".into(),
            ));
        }
        for (field, value) in [("kind", &r.kind), ("name", &r.name), ("uid", &r.uid)] {
            if value.is_empty() {
                errs.push(FieldError::required(&refs.child(field), "must not be empty"));
            }
        }
        if group_version == Some(("", "v1")) && r.kind == "Event" {
            errs.push(FieldError::invalid(
                &refs,
                BadValue::Raw(r.go_json()),
                "/v1, Kind=Event is disallowed from being an owner",
            ));
        }
    }
    for f in &meta.finalizers {
        for m in is_qualified_name(f) {
            errs.push(invalid(path.child("finalizers"), f, m));
        }
    }
    if meta.finalizers.iter().any(|f| f == "orphan") && meta.finalizers.iter().any(|f| f == "foregroundDeletion") {
        errs.push(FieldError::invalid(
            &path.child("finalizers"),
            BadValue::Json(json!(meta.finalizers)),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    for (i, m) in meta.managed_fields.iter().enumerate() {
        let at = path.child("managedFields").index(i);
        if m.operation != "Apply" && m.operation != "Update" {
            errs.push(invalid(
                at.child("operation"),
                &m.operation,
                "must be `Apply` or `Update`".into(),
            ));
        }
        if !m.fields_type.is_empty() && m.fields_type != "FieldsV1" {
            errs.push(invalid(
                at.child("fieldsType"),
                &m.fields_type,
                "must be `FieldsV1`".into(),
            ));
        }
        for (field, value, max) in [("manager", &m.manager, 128), ("subresource", &m.subresource, 256)] {
            if value.len() > max {
                errs.push(FieldError::new(
                    ErrorKind::TooLong,
                    &at.child(field),
                    BadValue::Omit,
                    format!("may not be more than {max} bytes"),
                ));
            }
        }
    }
    errs
}

/// `IsDNS1123Label` (namespaces).
fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let b = s.as_bytes();
    let ok = !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-');
    if !ok {
        errs.push(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start \
             and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is \
             '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
                .to_string(),
        );
    }
    errs
}

/// Path-segment names (`ValidatePathSegmentName`), what embedded resources' names must be.
pub fn path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        if name == "." {
            return vec!["may not be '.'".into()];
        }
        if name == ".." {
            return vec!["may not be '..'".into()];
        }
    }
    let mut errs = Vec::new();
    if name.contains('/') {
        errs.push("may not contain '/'".into());
    }
    if name.contains('%') {
        errs.push("may not contain '%'".into());
    }
    errs
}

/// `objectmeta.Validate`: every embedded resource of `obj` (and `obj` itself when
/// `is_resource_root`) has a well-formed apiVersion and kind and valid metadata.
///
/// ```
/// use kstruct::objectmeta::validate;
/// use kstruct::schema::field::Path;
/// let errors = validate(&Path::nil(), &serde_json::json!({"kind": "foo.bar"}), None, true);
/// let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
/// assert_eq!(errors[0], "apiVersion: Required value");
/// assert!(errors[1].starts_with("kind: Invalid value: \"foo.bar\": may have mixed case, but should otherwise match: "));
/// ```
pub fn validate(path: &Path, obj: &Value, s: Option<&Structural>, is_resource_root: bool) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let s = s.or(is_resource_root.then(Structural::empty));
    walk(path, obj, s, is_resource_root, &mut errs);
    errs
}

fn walk(path: &Path, obj: &Value, s: Option<&Structural>, resource: bool, errs: &mut Vec<FieldError>) {
    let Some(s) = s else { return };
    kstruct_schema::grow(|| match obj {
        Value::Object(map) => {
            if resource || s.extensions.x_embedded_resource {
                embedded_resource(path, map, errs);
            }
            for (k, v) in map {
                if let Some(p) = s.properties.get(k) {
                    walk(&path.child(k), v, Some(p), false, errs);
                } else if let Some(ap) = s.additional_properties.as_ref().and_then(|a| a.schema()) {
                    walk(&path.key(k), v, Some(ap), false, errs);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(&path.index(i), v, s.items.as_deref(), false, errs);
            }
        }
        _ => {}
    })
}

pub(crate) fn embedded_resource(path: &Path, x: &Map<String, Value>, errs: &mut Vec<FieldError>) {
    if !x.contains_key("apiVersion") {
        errs.push(FieldError::required(&path.child("apiVersion"), ""));
    }
    if !x.contains_key("kind") {
        errs.push(FieldError::required(&path.child("kind"), ""));
    }
    for (k, v) in x {
        let at = path.child(k);
        match k.as_str() {
            "apiVersion" | "kind" => {
                let Some(text) = v.as_str() else {
                    errs.push(FieldError::invalid(&at, BadValue::from(v), "must be a string"));
                    continue;
                };
                let problem = if text.is_empty() {
                    Some("must not be empty".to_string())
                } else if k == "apiVersion" {
                    crate::parse_group_version(text).err()
                } else {
                    let reasons = is_dns1035_label(&text.to_lowercase());
                    (!reasons.is_empty())
                        .then(|| format!("may have mixed case, but should otherwise match: {}", reasons.join(",")))
                };
                if let Some(p) = problem {
                    errs.push(FieldError::invalid(&at, BadValue::String(text.to_string()), p));
                }
            }
            "metadata" => match get_object_meta(x, &GetOptions::default()) {
                Err(e) => errs.push(FieldError::invalid(&at, BadValue::from(v), e)),
                Ok(found) => {
                    let mut meta = found.meta.unwrap_or_default();
                    if meta.name.is_empty() {
                        // The reference fakes a name: embedded resources need not have one.
                        meta.name = "fakename".into();
                    }
                    let requires_namespace = !meta.namespace.is_empty();
                    errs.extend(validate_object_meta(&meta, requires_namespace, &path_segment_name, &at));
                }
            },
            _ => {}
        }
    }
}
