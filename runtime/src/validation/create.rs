//! What the API server does to a decoded custom resource before it stores a create: the
//! registry's `BeforeCreate` (the request's namespace, the strategy's `PrepareForCreate`) and
//! the custom-resource strategy's `Validate`, with the second ObjectMeta pass after it.

use serde_json::{Map, Value};

use kstruct_schema::crd::ScaleSubresource;
use kstruct_schema::field::{BadValue, ErrorKind, FieldError, Path};
use kstruct_schema::names::is_dns1123_subdomain;

use crate::messages::nested_accessor_error;
use crate::objectmeta::{path_segment_name, validate_object_meta};
use crate::pipeline::Pipeline;

/// What a create is checked against: the version's pipeline (its schema, interpreted or
/// compiled) and what the CRD says of the kind.
#[derive(Clone, Copy)]
pub struct CreateContext<'a> {
    /// The version's pipeline (`None`: no schema).
    pub pipeline: Option<&'a dyn Pipeline>,
    /// The CRD's group.
    pub group: &'a str,
    /// The version the object is created in.
    pub version: &'a str,
    /// The CRD's kind.
    pub kind: &'a str,
    /// The CRD's name, `<plural>.<group>`: the resource conflicts name.
    pub resource: &'a str,
    /// `spec.scope: Namespaced`.
    pub namespaced: bool,
    /// The version has the status subresource: a create drops `status`.
    pub status_subresource: bool,
    /// The version's scale subresource.
    pub scale: Option<ScalePaths<'a>>,
}

impl std::fmt::Debug for CreateContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateContext")
            .field("has_schema", &self.pipeline.is_some())
            .field("group", &self.group)
            .field("version", &self.version)
            .field("kind", &self.kind)
            .field("resource", &self.resource)
            .field("namespaced", &self.namespaced)
            .field("status_subresource", &self.status_subresource)
            .field("scale", &self.scale)
            .finish()
    }
}

/// The paths of a scale subresource (`.spec.replicas`), borrowed from a CRD or compiled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScalePaths<'a> {
    /// `specReplicasPath`.
    pub spec_replicas: &'a str,
    /// `statusReplicasPath`.
    pub status_replicas: &'a str,
    /// `labelSelectorPath`, when set.
    pub label_selector: Option<&'a str>,
}

impl<'a> From<&'a ScaleSubresource> for ScalePaths<'a> {
    fn from(s: &'a ScaleSubresource) -> Self {
        ScalePaths {
            spec_replicas: &s.spec_replicas_path,
            status_replicas: &s.status_replicas_path,
            label_selector: s.label_selector_path.as_deref(),
        }
    }
}

/// `EnsureObjectNamespaceMatchesRequestNamespace`: a namespaced object without a namespace
/// gets the request's, a cluster-scoped one loses its own; a different namespace is refused
/// with the server's 400 text. `request_namespace` is `None` for "the object's own, or
/// `default`" (what kubectl sends).
pub fn apply_request_namespace(
    obj: &mut Value,
    namespaced: bool,
    request_namespace: Option<&str>,
) -> Result<(), String> {
    let Value::Object(map) = obj else { return Ok(()) };
    let own = map
        .get("metadata")
        .and_then(|m| m.get("namespace"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let expected = if namespaced {
        request_namespace.map_or_else(
            || {
                if own.is_empty() {
                    "default".to_string()
                } else {
                    own.clone()
                }
            },
            str::to_string,
        )
    } else {
        String::new()
    };
    if own == expected {
        return Ok(());
    }
    if own.is_empty() || expected.is_empty() {
        set_meta(
            map,
            "namespace",
            (!expected.is_empty()).then_some(Value::String(expected)),
        );
        return Ok(());
    }
    Err("the namespace of the provided object does not match the namespace sent on the request".into())
}

fn set_meta(map: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    let meta = map.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = meta {
        match value {
            Some(v) => {
                m.insert(key.to_string(), v);
            }
            None => {
                m.remove(key);
            }
        }
    }
}

/// The create handler's `WipeObjectMetaSystemFields`: `creationTimestamp`, `uid`,
/// `deletionTimestamp`, `deletionGracePeriodSeconds` and `selfLink` a client sent are dropped
/// (the server then sets a new `uid` and `creationTimestamp`, which cannot be predicted).
pub fn wipe_system_fields(obj: &mut Value) {
    if let Some(Value::Object(meta)) = obj.get_mut("metadata") {
        for key in [
            "creationTimestamp",
            "uid",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "selfLink",
        ] {
            meta.remove(key);
        }
    }
}

/// The strategy's `PrepareForCreate`: `status` dropped when the status subresource is on,
/// `metadata.generation` set to 1.
pub fn prepare_for_create(obj: &mut Value, status_subresource: bool) {
    let Value::Object(map) = obj else { return };
    if status_subresource {
        map.remove("status");
    }
    set_meta(map, "generation", Some(Value::from(1)));
}

/// Everything the API server checks on a create after decoding, in its order: apiVersion and
/// kind (alone, when wrong), ObjectMeta (`NameIsDNSSubdomain`), OpenAPI value validation of the
/// whole object, the scale subresource's paths, embedded resources, list types, the CEL
/// "not checked" error when blocking errors stop CEL rules (else the rules, where the pipeline
/// has the schema), then, only when all that passed, ObjectMeta again with path-segment names.
pub fn validate_create(ctx: &CreateContext<'_>, obj: &Value) -> Vec<FieldError> {
    let type_errors = type_meta(ctx, obj);
    if !type_errors.is_empty() {
        return type_errors;
    }
    let meta = super::accessor_meta(obj);
    let metadata = Path::new("metadata");
    // `NameIsDNSSubdomain`: a generateName prefix may end in `-` (`maskTrailingDash`).
    let subdomain = |name: &str, prefix: bool| {
        if prefix && name.len() > 1 && name.ends_with('-') {
            is_dns1123_subdomain(&format!("{}a", &name[..name.len() - 1]))
        } else {
            is_dns1123_subdomain(name)
        }
    };
    let mut errs = validate_object_meta(&meta, ctx.namespaced, &subdomain, &metadata);
    let schema_errors = ctx.pipeline.map(|p| p.validate(obj)).unwrap_or_default();
    errs.extend(schema_errors.values);
    if let Some(scale) = &ctx.scale {
        errs.extend(scale_errors(scale, obj));
    }
    errs.extend(schema_errors.embedded_resources);
    errs.extend(schema_errors.list_types);
    if let Some(p) = ctx.pipeline.filter(|p| p.has_validation_rules()) {
        if errs.iter().any(is_blocking) {
            errs.push(rules_not_checked());
        } else if let Some(schema) = p.rules_schema() {
            errs.extend(crate::rules::validate_rules(
                schema,
                obj,
                None,
                crate::rules::RUNTIME_COST_BUDGET,
            ));
        }
    }
    if !errs.is_empty() {
        return errs;
    }
    validate_object_meta(&meta, ctx.namespaced, &path_segment_name, &metadata)
}

/// The warnings of a create that passed (the strategy's `WarningsOnCreate`): finalizer names
/// that are not qualified names, and unqualified ones other than Kubernetes' own, each
/// finalizer once, in sorted order.
pub fn create_warnings(obj: &Value) -> Vec<String> {
    const STANDARD: &[&str] = &["foregroundDeletion", "kubernetes", "orphan"];
    let mut finalizers: Vec<&str> = obj
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map(|f| f.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    finalizers.sort_unstable();
    finalizers.dedup();
    let mut out = Vec::new();
    for f in finalizers {
        for m in kstruct_schema::names::is_qualified_name(f) {
            out.push(format!("metadata.finalizers: {}: {m}", kstruct_schema::go::quote(f)));
        }
        if !f.contains('/') && !STANDARD.contains(&f) {
            let including = if f.contains('.') { " including a path (/)" } else { "" };
            out.push(format!(
                "metadata.finalizers: {}: prefer a domain-qualified finalizer name{including} to avoid accidental conflicts with other finalizer writers",
                kstruct_schema::go::quote(f)
            ));
        }
    }
    out
}

/// The API server's message for a create that fails validation (`errors.NewInvalid`):
/// `Widget.example.com "w1" is invalid: <error>`, or `[<e1>, <e2>, ...]` for several
/// (repeated messages once).
pub fn invalid_message(group: &str, kind: &str, name: &str, errors: &[FieldError]) -> String {
    let qualified = if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    };
    let mut seen = std::collections::HashSet::new();
    let messages: Vec<String> = errors
        .iter()
        .map(ToString::to_string)
        .filter(|m| seen.insert(m.clone()))
        .collect();
    let name = kstruct_schema::go::quote(name);
    match messages.as_slice() {
        [] => format!("{qualified} {name} is invalid"),
        [one] => format!("{qualified} {name} is invalid: {one}"),
        many => format!("{qualified} {name} is invalid: [{}]", many.join(", ")),
    }
}

pub(crate) fn type_meta(ctx: &CreateContext<'_>, obj: &Value) -> Vec<FieldError> {
    let get = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let (kind, api_version) = (get("kind"), get("apiVersion"));
    let mut errs = Vec::new();
    if kind != ctx.kind {
        errs.push(FieldError::invalid(
            &Path::new("kind"),
            BadValue::String(kind),
            format!("must be {}", ctx.kind),
        ));
    }
    let expected = if ctx.group.is_empty() {
        ctx.version.to_string()
    } else {
        format!("{}/{}", ctx.group, ctx.version)
    };
    if api_version != expected {
        errs.push(FieldError::invalid(
            &Path::new("apiVersion"),
            BadValue::String(api_version),
            format!("must be {}/{}", ctx.group, ctx.version),
        ));
    }
    errs
}

/// `ValidateScaleSpec` and `ValidateScaleStatus`.
pub(crate) fn scale_errors(scale: &ScalePaths<'_>, obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for path in [scale.spec_replicas, scale.status_replicas] {
        let at = Path::new(path);
        match nested(obj, path).and_then(|v| match v {
            None => Ok(0),
            Some(Value::Number(n)) if n.is_i64() => Ok(n.as_i64().unwrap_or(0)),
            Some(other) => Err(type_error(path, other, "int64")),
        }) {
            Err(e) => errs.push(FieldError::invalid(&at, BadValue::Int(0), e)),
            Ok(n) if n < 0 => errs.push(FieldError::invalid(
                &at,
                BadValue::Int(n),
                "should be a non-negative integer",
            )),
            Ok(n) if n > i64::from(i32::MAX) => errs.push(FieldError::invalid(
                &at,
                BadValue::Int(n),
                format!("should be less than or equal to {}", i32::MAX),
            )),
            Ok(_) => {}
        }
    }
    if let Some(path) = scale.label_selector {
        let found = nested(obj, path).and_then(|v| match v {
            None | Some(Value::String(_)) => Ok(()),
            Some(other) => Err(type_error(path, other, "string")),
        });
        if let Err(e) = found {
            errs.push(FieldError::invalid(
                &Path::new(path),
                BadValue::String(String::new()),
                e,
            ));
        }
    }
    errs
}

/// `unstructured.NestedFieldNoCopy` with a `.a.b` path: `Ok(None)` when absent (or under a
/// null), an error naming the first step that is not a map.
fn nested<'a>(obj: &'a Value, path: &str) -> Result<Option<&'a Value>, String> {
    let fields: Vec<&str> = path.strip_prefix('.').unwrap_or(path).split('.').collect();
    let mut v = obj;
    for (i, f) in fields.iter().enumerate() {
        match v {
            Value::Null => return Ok(None),
            Value::Object(m) => match m.get(*f) {
                None => return Ok(None),
                Some(next) => v = next,
            },
            other => {
                return Err(nested_accessor_error(
                    &fields[..=i].join("."),
                    other,
                    "map[string]interface{}",
                ));
            }
        }
    }
    Ok(Some(v))
}

fn type_error(path: &str, v: &Value, expected: &str) -> String {
    nested_accessor_error(path.strip_prefix('.').unwrap_or(path), v, expected)
}

/// The error that says blocking errors stopped CEL rules (`hasBlockingErr`'s), with the
/// reference's unquoted `null`.
pub(crate) fn rules_not_checked() -> FieldError {
    FieldError::invalid(
        &Path::nil(),
        BadValue::Raw("null".to_owned()),
        "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
    )
}

/// The errors that stop CEL rules from running (`hasBlockingErr`).
pub(crate) fn is_blocking(e: &FieldError) -> bool {
    matches!(
        e.kind,
        ErrorKind::NotSupported
            | ErrorKind::Required
            | ErrorKind::TooLong
            | ErrorKind::TooMany
            | ErrorKind::TypeInvalid
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Interpreter;
    use serde_json::json;

    fn schema() -> Interpreter {
        Interpreter::new(
            kstruct_schema::convert::from_text(
                "type: object
properties:
  spec:
    type: object
    required: [size]
    properties:
      size: {type: integer, minimum: 1}
      mode: {type: string, enum: [fast, safe]}
      replicas: {type: integer}
      tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
    x-kubernetes-validations: [{rule: 'self.size < 10'}]
  status:
    type: object
    properties:
      replicas: {type: integer}
",
            )
            .unwrap(),
        )
    }

    fn ctx<'a>(schema: &'a Interpreter, scale: Option<&'a ScaleSubresource>) -> CreateContext<'a> {
        CreateContext {
            pipeline: Some(schema),
            group: "example.com",
            version: "v1",
            kind: "Widget",
            resource: "widgets.example.com",
            namespaced: true,
            status_subresource: true,
            scale: scale.map(ScalePaths::from),
        }
    }

    fn messages(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn value_errors_then_the_cel_notice_in_the_servers_order() {
        let s = schema();
        let obj = json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "default"},
            "spec": {"mode": "quick", "tags": ["a", "a"]}});
        let errs = validate_create(&ctx(&s, None), &obj);
        assert_eq!(
            messages(&errs),
            [
                r#"spec.mode: Unsupported value: "quick": supported values: "fast", "safe""#,
                "spec.size: Required value",
                r#"spec.tags[1]: Duplicate value: "a""#,
                r#"<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"#,
            ]
        );
        assert_eq!(
            invalid_message("example.com", "Widget", "w", &errs[1..2]),
            r#"Widget.example.com "w" is invalid: spec.size: Required value"#
        );
        assert!(invalid_message("example.com", "Widget", "w", &errs).starts_with(
            r#"Widget.example.com "w" is invalid: [spec.mode: Unsupported value: "quick": supported values: "fast", "safe", spec.size: Required value, "#
        ));
    }

    #[test]
    fn names_and_namespaces() {
        let s = schema();
        let mut obj = json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "Not_Valid"}, "spec": {"size": 2}});
        apply_request_namespace(&mut obj, true, None).unwrap();
        assert_eq!(obj["metadata"]["namespace"], "default");
        let errs = validate_create(&ctx(&s, None), &obj);
        assert_eq!(
            messages(&errs),
            [
                r#"metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#
            ]
        );
        let mut other = json!({"metadata": {"namespace": "a"}});
        assert_eq!(
            apply_request_namespace(&mut other, true, Some("b")).unwrap_err(),
            "the namespace of the provided object does not match the namespace sent on the request"
        );
        apply_request_namespace(&mut other, false, Some("b")).unwrap();
        assert_eq!(other, json!({"metadata": {}}));
        // Kind and apiVersion alone, when wrong.
        let wrong = json!({"apiVersion": "example.com/v2", "kind": "Gadget", "metadata": {"name": "Bad_"}});
        assert_eq!(
            messages(&validate_create(&ctx(&s, None), &wrong)),
            [
                r#"kind: Invalid value: "Gadget": must be Widget"#,
                r#"apiVersion: Invalid value: "example.com/v2": must be example.com/v1"#
            ]
        );
    }

    #[test]
    fn finalizer_warnings() {
        let obj = json!({"metadata": {"finalizers": ["example.com/cleanup", "cleanup", "kubernetes", "cleanup", "a b/c", "example.com"]}});
        assert_eq!(
            create_warnings(&obj),
            [
                r#"metadata.finalizers: "a b/c": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric bytes, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#,
                r#"metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"#,
                r#"metadata.finalizers: "example.com": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"#,
            ]
        );
    }

    #[test]
    fn system_fields_are_wiped() {
        let mut obj = json!({"metadata": {"name": "w", "uid": "u", "creationTimestamp": "2020-01-01T00:00:00Z",
            "deletionTimestamp": "2020-01-01T00:00:00Z", "deletionGracePeriodSeconds": 3, "selfLink": "/x", "generation": 4}});
        wipe_system_fields(&mut obj);
        assert_eq!(obj, json!({"metadata": {"name": "w", "generation": 4}}));
    }

    #[test]
    fn prepare_drops_status_and_sets_generation() {
        let mut obj = json!({"kind": "Widget", "status": {"replicas": 3}});
        prepare_for_create(&mut obj, true);
        assert_eq!(obj, json!({"kind": "Widget", "metadata": {"generation": 1}}));
        let mut kept = json!({"metadata": {"generation": 7}, "status": {}});
        prepare_for_create(&mut kept, false);
        assert_eq!(kept, json!({"metadata": {"generation": 1}, "status": {}}));
    }

    #[test]
    fn scale_paths_as_unstructured_reads_them() {
        let s = schema();
        let scale = ScaleSubresource {
            spec_replicas_path: ".spec.replicas".into(),
            status_replicas_path: ".status.replicas".into(),
            label_selector_path: Some(".status.selector".into()),
        };
        let obj = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "n"},
            "spec": {"size": 2, "replicas": -1}, "status": {"replicas": 3_000_000_000_i64, "selector": 5}});
        let no_schema = CreateContext {
            pipeline: None,
            ..ctx(&s, Some(&scale))
        };
        assert_eq!(
            messages(&validate_create(&no_schema, &obj)),
            [
                ".spec.replicas: Invalid value: -1: should be a non-negative integer",
                ".status.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647",
                r#".status.selector: Invalid value: "": .status.selector accessor error: 5 is of the type int64, expected string"#,
            ]
        );
        let odd = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "n"},
            "spec": "x", "status": {"replicas": 1.5}});
        assert_eq!(
            messages(&validate_create(&no_schema, &odd)),
            [
                ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected map[string]interface{}",
                ".status.replicas: Invalid value: 0: .status.replicas accessor error: 1.5 is of the type float64, expected int64",
            ]
        );
    }
}
