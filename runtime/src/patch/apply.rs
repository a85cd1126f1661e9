//! Server-side apply bodies (`application/apply-patch+yaml`) of custom resources: what the
//! field manager refuses, with structured-merge-diff's words and paths; the YAML strict check
//! after it; and what is stored (the applied fields merged into the stored object, or a
//! create).
//!
//! Managed fields are not modelled: every apply is a forced apply whose manager owns nothing
//! yet, so fields the stored object has and the body leaves out are kept (the server removes
//! those a manager applied before and no longer applies).

use serde_json::{Map, Value};

use super::typed::TypedSchema;
use super::{bad_request, check_size};
use crate::Error;
use crate::builtin::{BuiltinKinds, field_manager};
use crate::decode::{self, DecodeOptions, Decoded, FieldValidation, Resolve, Selected};
use crate::pipeline::Pipeline;

/// apimachinery's `hasJSONPrefix`: the first byte after Unicode white space is `{`.
fn has_json_prefix(body: &[u8]) -> bool {
    String::from_utf8_lossy(body).trim_start().starts_with('{')
}

/// Applies a server-side apply body to the stored object `existing` (`None`: the apply
/// creates the object), as the API server does for a custom resource:
/// 1. the body (YAML or JSON) is read leniently (repeated keys: the last wins);
/// 2. the field manager converts it to a typed object by structured-merge-diff's schema of
///    the version (see below); what that refuses fails the request whatever the
///    fieldValidation, with its 500 answer ([`Error::Apply`]: `failed to create typed patch
///    object (/w; example.com/v1, Kind=Widget): .spec.x: field not declared in schema`,
///    `.spec.name: expected string, got &value.valueUnstructured{Value:5}`, `.spec.ports:
///    duplicate entries for key [name="a"]`); as the field manager, an object is left at its
///    first undeclared key (kstruct walks keys in byte order: the server in Go's map order);
/// 3. only then, under fieldValidation Strict and Warn, the body's repeated keys are
///    `error strict decoding patch: error converting YAML to JSON: yaml: unmarshal
///    errors:\n  line 10: key "x" already set in map` (400) or one warning per line;
/// 4. the applied fields are merged into the stored object by the same schema (objects
///    member by member, `map` lists item by item by their keys and `set` lists as unions,
///    in structured-merge-diff's order, anything else replaced) and the result is updated as a PUT is ([`decode::update`]), or created as a
///    create is ([`decode::request`], with [`DecodeOptions::validate`] validated).
///
/// The typed schema is the version's with the server's changes: `apiVersion` and `kind` are
/// strings and `metadata` is ObjectMeta (its unknown keys refused) at the root and in every
/// embedded resource; `x-kubernetes-preserve-unknown-fields` holds for every node written
/// inside the node that sets it (so `.spec.free.x.y.deep` under it is accepted, though
/// pruning removes it afterwards), and `spec.preserveUnknownFields: true` for every object;
/// a string with a format other than `byte`, and an int-or-string, take any scalar.
///
/// # Errors
/// As above, and [`Error::Rejected`] (400) for a body that is not a YAML or JSON object
/// (`error decoding patch: ...`), one of another group, version or kind than the stored
/// object's, or without an apiVersion or a kind (`invalid object type: example.com/v1,
/// Kind=`), or with `metadata.managedFields`.
pub fn apply<R: Resolve + ?Sized>(
    target: &R,
    existing: Option<&Value>,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    check_size(body, options)?;
    let early = convert_early(body)?;
    let old = existing.map(|e| decode::update_stored(target, e)).transpose()?;
    let request = Request::read(body, early, old.as_ref())?;
    let typed = match target.resolve(&request.group, &request.version, &request.kind)? {
        Selected::Crd {
            pipeline,
            preserve_unknown_fields,
        } => TypedSchema {
            root: pipeline.and_then(|p| p.skeleton()),
            preserve_all: preserve_unknown_fields,
        },
        Selected::Other => TypedSchema {
            root: None,
            preserve_all: false,
        },
    };
    let (mut applied, mut warnings) = request.typed(&typed, options)?;
    let Some(old) = old else {
        // A create: the applied object, defaulted, through the create's steps.
        let read = decode::update_stored(target, &applied)?;
        crate::json::dispose(applied);
        let (mut object, create_warnings) =
            decode::validated(target, read, None, options.validate).map_err(|e| e.with_warnings(&warnings))?;
        if options.validate {
            decode::set_resource_version(&mut object, options.resource_version);
        }
        warnings.extend(create_warnings);
        return Ok(Decoded {
            object,
            warnings: warnings.into(),
            ..Decoded::default()
        });
    };
    let mut merged = crate::json::deep_clone(&old);
    typed.merge(typed.root(), &mut merged, std::mem::take(&mut applied));
    let read = decode::update_stored(target, &merged)?;
    crate::json::dispose(merged);
    let decoded = Decoded {
        object: read,
        warnings: warnings.into(),
        ..Decoded::default()
    };
    decode::update_finish(target, decoded, &old, options.validate, decode::Via::Patch).map(|mut d| {
        decode::set_resource_version(&mut d.object, options.resource_version);
        d
    })
}

/// Applies a server-side apply body to the stored object `existing` (`None`: the apply
/// creates it) of one of Kubernetes' own kinds, as [`apply`] does for a custom resource, with
/// the field manager's schema of the kind's Go types: `containers` merge by `name`, `ports`
/// by `containerPort` and `protocol` (a port without `protocol` is `TCP`'s), `env` by `name`,
/// a label selector as a whole; a field the Go types do not declare is refused with the
/// server's 500 (`failed to create typed patch object (default/web; apps/v1,
/// Kind=Deployment): .spec.replicaz: field not declared in schema`).
///
/// The stored object is read into the kind's Go types first (fields they do not declare
/// dropped, as the server never stores them), and the result is what the merge gives, read
/// back into the Go types. **Not modelled**: the kind's defaulting, its registry strategy
/// (generation, status) and its validation, which the server runs next; managed fields.
///
/// ```
/// use kstruct::builtin::{BuiltinKinds, Release};
/// use kstruct::DecodeOptions;
/// use serde_json::json;
///
/// let kinds = BuiltinKinds::new(Release::newest());
/// let stored = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
///     "spec": {"template": {"spec": {"containers": [
///         {"name": "web", "image": "nginx:1", "ports": [{"containerPort": 80}]},
///         {"name": "sidecar", "image": "envoy"}]}}}});
/// let body = b"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx:2\n        ports: [{containerPort: 80, protocol: TCP, name: http}]\n";
/// let applied = kstruct::patch::apply_builtin(&kinds, Some(&stored), body, &DecodeOptions::default()).unwrap();
/// let containers = &applied.object["spec"]["template"]["spec"]["containers"];
/// // Merged by name: the sidecar stays, the port is the same port (TCP by default).
/// assert_eq!(containers[0]["image"], "nginx:2");
/// assert_eq!(containers[0]["ports"], json!([{"containerPort": 80, "name": "http", "protocol": "TCP"}]));
/// assert_eq!(containers[1]["name"], "sidecar");
/// ```
///
/// # Errors
/// As [`apply`]; [`Error::NotBuiltin`] for a kind the release does not serve;
/// [`Error::NotModelled`] for CustomResourceDefinitions (their schemas nest without end, which
/// the typed view cannot hold) and for a merged object the Go types cannot read.
pub fn apply_builtin(
    kinds: &BuiltinKinds,
    existing: Option<&Value>,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    check_size(body, options)?;
    let early = convert_early(body)?;
    let old = existing.map(|e| super::read_stored_builtin(kinds, e)).transpose()?;
    let request = Request::read(body, early, old.as_ref())?;
    let gv = crate::gvk::join_group_version(&request.group, &request.version);
    let Some(facts) = kinds.kind(&request.group, &request.version, &request.kind) else {
        return Err(Error::NotBuiltin {
            group_version: gv,
            kind: request.kind,
            release: kinds.release().to_string(),
        });
    };
    let Some(schema) = field_manager::kind_schema(kinds.catalog(), facts.type_name()) else {
        return Err(Error::NotModelled(format!(
            "server-side apply of a {} (its Go types nest without end)",
            request.kind
        )));
    };
    let typed = TypedSchema {
        root: Some(&schema),
        preserve_all: false,
    };
    let (applied, warnings) = request.typed(&typed, options)?;
    let merged = match old {
        Some(mut merged) => {
            typed.merge(typed.root(), &mut merged, applied);
            merged
        }
        None => applied,
    };
    let object = kinds.read_object(&merged).map_err(|e| {
        Error::NotModelled(format!(
            "the applied object does not read into the kind's Go types ({e}); the API server's answer to that is not modelled"
        ))
    })?;
    crate::json::dispose(merged);
    Ok(Decoded {
        object,
        warnings: warnings.into(),
        ..Decoded::default()
    })
}

/// The handler converts a YAML body to JSON before anything else (a JSON one, starting with
/// `{`, is passed on unread): YAML that does not parse fails here, before the stored object
/// is even looked up.
fn convert_early(body: &[u8]) -> Result<Option<kstruct_schema::yaml::Converted>, Error> {
    if has_json_prefix(body) {
        return Ok(None);
    }
    kstruct_schema::yaml::to_json_bytes(body)
        .map(Some)
        .map_err(|e| bad_request(format!("error encoding patch: {}", e.message())))
}

/// An apply body read as the field manager reads it, before typing.
struct Request {
    applied: Map<String, Value>,
    /// The body's repeated keys, as the strict YAML check words them.
    duplicates: Option<String>,
    group: String,
    version: String,
    kind: String,
}

impl Request {
    /// Reads the body (already converted when it is YAML) and checks it against the stored
    /// object `old` as the field manager's first steps do.
    fn read(
        body: &[u8],
        early: Option<kstruct_schema::yaml::Converted>,
        old: Option<&Value>,
    ) -> Result<Request, Error> {
        let converted = match early {
            Some(converted) => converted,
            None => kstruct_schema::yaml::to_json_bytes(body).map_err(|e| {
                bad_request(format!(
                    "error decoding patch: error converting YAML to JSON: {}",
                    e.message()
                ))
            })?,
        };
        let duplicates = converted.strict_error();
        let applied = match converted.value {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                return Err(bad_request(format!(
                    "error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                    kstruct_schema::go::json_kind(&other)
                )));
            }
        };
        // The field manager's first step (`versionCheckManager`): the applied object must be
        // of the endpoint's group, version and kind. The endpoint is the stored object's
        // resource; an apply that creates goes to the resource its body names (as kubectl
        // builds the URL), which a body without a version or a kind cannot name.
        let applied_gvk = unstructured_gvk(&applied);
        let refused = match old {
            Some(Value::Object(old)) => applied_gvk != unstructured_gvk(old),
            _ => applied_gvk.1.is_empty() || applied_gvk.2.is_empty(),
        };
        if refused {
            let (group, version, kind) = applied_gvk;
            return Err(bad_request(format!(
                "invalid object type: {group}/{version}, Kind={kind}"
            )));
        }
        if has_managed_fields(&applied) {
            return Err(bad_request("metadata.managedFields must be nil".into()));
        }
        let text = |k: &str| applied.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let kind = text("kind");
        let api_version = text("apiVersion");
        let (group, version) = crate::parse_group_version(&api_version).unwrap_or(("", ""));
        Ok(Request {
            group: group.to_string(),
            version: version.to_string(),
            kind,
            duplicates,
            applied,
        })
    }

    /// The body as a typed value: what the conversion refuses (the server's 500), then, under
    /// fieldValidation Strict and Warn, the body's repeated keys. The applied object and the
    /// warnings.
    fn typed(self, typed: &TypedSchema<'_>, options: &DecodeOptions) -> Result<(Value, Vec<String>), Error> {
        let Request {
            applied,
            duplicates,
            group,
            version,
            kind,
        } = self;
        let applied = Value::Object(applied);
        let errors = typed.validate(&applied);
        if !errors.is_empty() {
            let meta = applied.get("metadata");
            let field = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str).unwrap_or("");
            let detail = match errors.as_slice() {
                [one] => one.clone(),
                many => {
                    let mut s = String::from("errors:");
                    for e in many {
                        s.push_str("\n  ");
                        s.push_str(e);
                    }
                    s
                }
            };
            return Err(Error::Apply(format!(
                "failed to create typed patch object ({}/{}; {group}/{version}, Kind={kind}): {detail}",
                field("namespace"),
                field("name"),
            )));
        }
        let mut warnings = Vec::new();
        if options.field_validation != FieldValidation::Ignore
            && let Some(dups) = duplicates
        {
            let err = format!("error converting YAML to JSON: {dups}");
            if options.field_validation == FieldValidation::Strict {
                return Err(bad_request(format!("error strict decoding patch: {err}")));
            }
            warnings = crate::messages::warnings(vec![err]);
        }
        Ok((applied, warnings))
    }
}

/// `Unstructured.GroupVersionKind()`: group, version and kind, all empty when the apiVersion
/// does not parse; a value that is not a string reads as empty.
fn unstructured_gvk(obj: &Map<String, Value>) -> (String, String, String) {
    let text = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("");
    match crate::parse_group_version(text("apiVersion")) {
        Ok((group, version)) => (group.to_string(), version.to_string(), text("kind").to_string()),
        Err(_) => Default::default(),
    }
}

/// Whether the body sets managed fields as the field manager reads them (`GetManagedFields()
/// != nil`): a list, empty or of entries that all convert (string members, a time that
/// parses). Anything else reads as none, and goes on to be typed.
fn has_managed_fields(obj: &Map<String, Value>) -> bool {
    let Some(Value::Array(items)) = obj.get("metadata").and_then(|m| m.get("managedFields")) else {
        return false;
    };
    items.iter().all(|item| {
        let Value::Object(entry) = item else { return false };
        entry.iter().all(|(k, v)| match (k.as_str(), v) {
            (_, Value::Null) => true,
            ("time", Value::String(t)) => crate::objectmeta::Time::parse_rfc3339(t).is_ok(),
            ("manager" | "operation" | "apiVersion" | "fieldsType" | "subresource", v) => v.is_string(),
            // `fieldsV1` takes any JSON; other keys are not the entry's.
            _ => true,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn managed_fields_as_the_field_manager_reads_them() {
        let with = |m: Value| has_managed_fields(json!({"metadata": {"managedFields": m}}).as_object().unwrap());
        assert!(with(json!([])));
        assert!(with(
            json!([{"manager": "m", "time": "2024-01-01T00:00:00Z", "fieldsV1": {"f:a": {}}, "x": 1}])
        ));
        assert!(!with(json!(null)));
        assert!(!with(json!("x")));
        assert!(!with(json!([1])));
        assert!(!with(json!([{"manager": 1}])));
        assert!(!with(json!([{"time": "yesterday"}])));
    }

    mod builtin {
        use super::super::apply_builtin;
        use crate::builtin::{BuiltinKinds, Release};
        use crate::{DecodeOptions, Error, FieldValidation};
        use serde_json::{Value, json};

        fn kinds() -> BuiltinKinds {
            BuiltinKinds::new(Release::newest())
        }

        fn stored() -> Value {
            json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
                "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web", "tier": "front"}},
                    "template": {"spec": {"containers": [
                        {"name": "web", "image": "nginx:1", "args": ["-a", "-b"],
                         "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
                         "ports": [{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 53, "protocol": "UDP"}]},
                        {"name": "proxy", "image": "envoy:1"}]}}}})
        }

        fn apply(existing: Option<&Value>, body: &str, mode: FieldValidation) -> Result<Value, Error> {
            let options = DecodeOptions {
                field_validation: mode,
                ..DecodeOptions::default()
            };
            apply_builtin(&kinds(), existing, body.as_bytes(), &options).map(|d| d.object)
        }

        const HEAD: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n";

        #[test]
        fn merges_by_the_go_types_markers() {
            let body = format!(
                "{HEAD}spec:
  selector:
    matchLabels: {{app: web}}
  template:
    spec:
      containers:
      - name: web
        image: nginx:2
        args: [-c]
        env: [{{name: B, value: '3'}}]
        ports: [{{containerPort: 80, name: http}}]
"
            );
            let merged = apply(Some(&stored()), &body, FieldValidation::Strict).unwrap();
            let containers = &merged["spec"]["template"]["spec"]["containers"];
            // Containers by name: the proxy stays; the web container is merged.
            assert_eq!(containers.as_array().unwrap().len(), 2);
            assert_eq!(containers[1]["image"], "envoy:1");
            let web = &containers[0];
            assert_eq!(web["image"], "nginx:2");
            // An atomic list is replaced; env merges by name.
            assert_eq!(web["args"], json!(["-c"]));
            assert_eq!(
                web["env"],
                json!([{"name": "A", "value": "1"}, {"name": "B", "value": "3"}])
            );
            // The port without a protocol is the stored TCP port: merged, not added.
            assert_eq!(
                web["ports"],
                json!([{"containerPort": 80, "name": "http", "protocol": "TCP"}, {"containerPort": 53, "protocol": "UDP"}])
            );
            // A label selector is atomic: replaced as a whole.
            assert_eq!(merged["spec"]["selector"], json!({"matchLabels": {"app": "web"}}));
            // Fields the body leaves out are kept (the apply's manager owned nothing before).
            assert_eq!(merged["spec"]["replicas"], 2);
            // Read back into the Go types: zero values as the encoder writes them.
            assert_eq!(web["resources"], json!({}));
            assert_eq!(merged["status"], json!({}));
        }

        #[test]
        fn an_apply_without_a_stored_object_creates_it() {
            let body = format!("{HEAD}spec:\n  replicas: 3\n");
            let created = apply(None, &body, FieldValidation::Strict).unwrap();
            assert_eq!(created["spec"]["replicas"], 3);
            assert_eq!(created["metadata"], json!({"name": "web", "namespace": "shop"}));
        }

        #[test]
        fn refuses_what_the_field_manager_refuses() {
            let refused = |body: String| apply(Some(&stored()), &body, FieldValidation::Ignore).unwrap_err();
            let err = refused(format!("{HEAD}spec:\n  replicaz: 3\n"));
            assert!(matches!(err, Error::Apply(_)));
            assert_eq!(
                err.to_string(),
                "failed to create typed patch object (shop/web; apps/v1, Kind=Deployment): .spec.replicaz: field not declared in schema"
            );
            assert_eq!(
                refused(format!(
                    "{HEAD}spec:\n  replicas: '3'\n  template:\n    spec:\n      containers: [{{name: a}}, {{name: a}}]\n      nodeSelector: {{a: [1]}}\n"
                ))
                .to_string(),
                "failed to create typed patch object (shop/web; apps/v1, Kind=Deployment): errors:\n  \
                 .spec.replicas: expected numeric (int or float), got string\n  \
                 .spec.template.spec.containers: duplicate entries for key [name=\"a\"]\n  \
                 .spec.template.spec.nodeSelector.a: expected string, got &value.valueUnstructured{Value:[]interface {}{1}}"
            );
            // A quantity is any scalar, not an object.
            let err = refused(format!(
                "{HEAD}spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources: {{limits: {{cpu: {{a: 1}}}}}}\n"
            ));
            assert_eq!(
                err.to_string(),
                "failed to create typed patch object (shop/web; apps/v1, Kind=Deployment): \
                 .spec.template.spec.containers[name=\"web\"].resources.limits.cpu: expected any scalar, got &{map[a:1]}"
            );
            // The core group prints as an empty group.
            let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {x: 1}\n";
            assert_eq!(
                apply(None, pod, FieldValidation::Warn).unwrap_err().to_string(),
                "failed to create typed patch object (/p; /v1, Kind=Pod): .spec.x: field not declared in schema"
            );
        }

        #[test]
        fn repeated_keys_and_kinds_as_for_custom_resources() {
            let body = format!("{HEAD}spec:\n  replicas: 1\n  replicas: 2\n");
            let err = apply(Some(&stored()), &body, FieldValidation::Strict).unwrap_err();
            assert_eq!(
                err.to_string(),
                "error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key \"replicas\" already set in map"
            );
            let options = DecodeOptions::default();
            let warned = apply_builtin(&kinds(), Some(&stored()), body.as_bytes(), &options).unwrap();
            assert_eq!(warned.object["spec"]["replicas"], 2);
            assert_eq!(warned.warnings.len(), 1);
            let other = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\n";
            assert_eq!(
                apply(Some(&stored()), other, FieldValidation::Warn)
                    .unwrap_err()
                    .to_string(),
                "invalid object type: apps/v1, Kind=StatefulSet"
            );
        }

        mod properties {
            use super::*;
            use proptest::prelude::*;

            /// Deployments with containers and ports that may repeat, misspell or mistype.
            fn bodies() -> impl Strategy<Value = String> {
                let port = (
                    prop::sample::select(vec!["80", "53", "\"80\"", "3000000000"]),
                    prop::sample::select(vec![
                        "",
                        ", \"protocol\": \"UDP\"",
                        ", \"protocol\": \"TCP\"",
                        ", \"x\": 1",
                    ]),
                )
                    .prop_map(|(p, rest)| format!("{{\"containerPort\": {p}{rest}}}"));
                let container = (
                    prop::sample::select(vec!["a", "b"]),
                    prop::sample::select(vec!["\"nginx\"", "1", "null"]),
                    prop::collection::vec(port, 0..3),
                    prop::sample::select(vec![
                        "",
                        ", \"resources\": {\"limits\": {\"cpu\": \"1\"}}",
                        ", \"cpu\": 1",
                    ]),
                )
                    .prop_map(|(name, image, ports, rest)| {
                        format!(
                            "{{\"name\": \"{name}\", \"image\": {image}, \"ports\": [{}]{rest}}}",
                            ports.join(", ")
                        )
                    });
                (
                    prop::sample::select(vec!["1", "\"1\"", "null"]),
                    prop::collection::vec(container, 0..3),
                )
                    .prop_map(|(replicas, containers)| {
                        format!(
                            r#"{{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {{"name": "w"}}, "spec": {{"replicas": {replicas}, "template": {{"spec": {{"containers": [{}]}}}}}}}}"#,
                            containers.join(", ")
                        )
                    })
            }

            proptest! {
                #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

                /// An apply that creates stores what decoding the body stores (the field
                /// manager refuses what decoding would drop), and applying it again changes
                /// nothing.
                #[test]
                fn creating_and_reapplying(body in bodies()) {
                    let kinds = kinds();
                    let ignore = DecodeOptions { field_validation: FieldValidation::Ignore, ..DecodeOptions::default() };
                    match apply_builtin(&kinds, None, body.as_bytes(), &ignore) {
                        Ok(created) => {
                            let decoded = kinds.decode(body.as_bytes(), &ignore).unwrap();
                            prop_assert_eq!(&created.object, &decoded.object);
                            let again = apply_builtin(&kinds, Some(&created.object), body.as_bytes(), &ignore).unwrap();
                            prop_assert_eq!(&again.object, &created.object);
                        }
                        Err(Error::Apply(message)) => {
                            prop_assert!(message.starts_with("failed to create typed patch object (/w; apps/v1, Kind=Deployment): "));
                        }
                        Err(Error::NotModelled(_)) => {
                            // Typed, but not readable by the Go types (an int32 out of range).
                            prop_assert!(kinds.decode(body.as_bytes(), &ignore).is_err());
                        }
                        Err(other) => prop_assert!(false, "{other}"),
                    }
                }
            }
        }

        /// Answers of real API servers to server-side applies of built-in kinds, as users
        /// reported them (Helm 4 and Flux dry runs).
        #[test]
        fn answers_real_servers_gave() {
            let deployment =
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: RELEASE-identity, namespace: default}\nspec:
  template:
    spec:
      containers:
      - name: identity
        env:
        - {name: CAMUNDA_LICENSE_KEY, value: '--- CAMUNDA_DEFAULT_VALUE ---'}
        - {name: CAMUNDA_LICENSE_KEY, value: '--- YOUR LICENSE KEY HERE ---'}
";
            assert_eq!(
                apply(None, deployment, FieldValidation::Strict)
                    .unwrap_err()
                    .to_string(),
                "failed to create typed patch object (default/RELEASE-identity; apps/v1, Kind=Deployment): \
                 .spec.template.spec.containers[name=\"identity\"].env: duplicate entries for key [name=\"CAMUNDA_LICENSE_KEY\"]"
            );
            let ingress = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: mywebapp-ingress, namespace: mywebapp}
spec:
  rules:
  - host: example.com
    paths: [{path: /}]
";
            assert_eq!(
                apply(None, ingress, FieldValidation::Strict).unwrap_err().to_string(),
                "failed to create typed patch object (mywebapp/mywebapp-ingress; networking.k8s.io/v1, Kind=Ingress): \
                 .spec.rules[0].paths: field not declared in schema"
            );
            let lots = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x, namespace: default}\nspec: {replicas: lots}\n";
            assert_eq!(
                apply(None, lots, FieldValidation::Strict).unwrap_err().to_string(),
                "failed to create typed patch object (default/x; apps/v1, Kind=Deployment): \
                 .spec.replicas: expected numeric (int or float), got string"
            );
        }

        #[test]
        fn what_is_not_modelled_says_so() {
            let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b}\n";
            assert!(matches!(
                apply(None, crd, FieldValidation::Warn),
                Err(Error::NotModelled(_))
            ));
            let gone = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: a}\n";
            assert!(matches!(
                apply(None, gone, FieldValidation::Warn),
                Err(Error::NotBuiltin { .. })
            ));
            // A value the merge accepts and the Go types do not read.
            let body = format!(
                "{HEAD}spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources: {{limits: {{cpu: lots}}}}\n"
            );
            assert!(matches!(
                apply(None, &body, FieldValidation::Warn),
                Err(Error::NotModelled(_))
            ));
        }
    }
}
