use serde_json::json;

use super::*;
use crate::BodyFormat;

fn kinds() -> BuiltinKinds {
    BuiltinKinds::new(Release::newest())
}

fn options(field_validation: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation,
        ..DecodeOptions::default()
    }
}

fn rejected(kinds: &BuiltinKinds, body: &str, mode: FieldValidation) -> Rejection {
    match kinds.decode(body.as_bytes(), &options(mode)) {
        Err(Error::Rejected(r)) => *r,
        other => panic!("not rejected: {other:?}"),
    }
}

fn error(body: &str) -> String {
    rejected(&kinds(), body, FieldValidation::Warn).message
}

/// A Deployment with the unknown and repeated fields the API server's own field validation
/// test sends (its expected texts below are the server's).
const INVALID_JSON: &str = r#"{
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {"name": "first", "name": "web", "labels": {"app": "web"}, "unknownMeta": "x"},
  "spec": {
    "unknown1": 1, "unknownDupe": "a", "unknownDupe": "b", "paused": true, "paused": false,
    "selector": {"matchLabels": {"app": "web"}},
    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [
      {"name": "web", "image": "nginx", "unknownNested": 1, "imagePullPolicy": "Always", "imagePullPolicy": "Never"}
    ]}}
  }
}"#;

/// The same in YAML, the repeated keys on the lines the server's test names.
const INVALID_YAML: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: first
  name: web
  unknownMeta: x
  labels:
    app: web
spec:
  unknown1: 1
  unknownDupe: a
  unknownDupe: b
  paused: true
  paused: false
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx
        unknownNested: 1
        imagePullPolicy: Always
        imagePullPolicy: Never
";

const JSON_ERRORS: [&str; 7] = [
    r#"duplicate field "metadata.name""#,
    r#"unknown field "metadata.unknownMeta""#,
    r#"unknown field "spec.unknown1""#,
    r#"unknown field "spec.unknownDupe""#,
    r#"duplicate field "spec.paused""#,
    r#"unknown field "spec.template.spec.containers[0].unknownNested""#,
    r#"duplicate field "spec.template.spec.containers[0].imagePullPolicy""#,
];

#[test]
fn json_strict_lists_fields_in_document_order() {
    let r = rejected(&kinds(), INVALID_JSON, FieldValidation::Strict);
    assert_eq!(
        r.message,
        format!(
            "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: {}",
            JSON_ERRORS.join(", ")
        )
    );
    assert_eq!(r.strict_errors, JSON_ERRORS);
}

#[test]
fn json_warn_and_ignore() {
    let warned = kinds()
        .decode(INVALID_JSON.as_bytes(), &options(FieldValidation::Warn))
        .unwrap();
    assert_eq!(warned.warnings, JSON_ERRORS);
    assert_eq!(
        warned.unknown_fields,
        [
            "metadata.unknownMeta",
            "spec.unknown1",
            "spec.unknownDupe",
            "spec.template.spec.containers[0].unknownNested"
        ]
    );
    assert_eq!(
        warned.duplicate_fields,
        [
            "metadata.name",
            "spec.paused",
            "spec.template.spec.containers[0].imagePullPolicy"
        ]
    );
    // The last of repeated scalars wins; unknown fields are gone.
    assert_eq!(warned.object["metadata"]["name"], "web");
    assert_eq!(warned.object["spec"].get("paused"), None);
    assert_eq!(
        warned.object["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"],
        "Never"
    );
    let ignored = kinds()
        .decode(INVALID_JSON.as_bytes(), &options(FieldValidation::Ignore))
        .unwrap();
    assert!(ignored.warnings.is_empty() && ignored.unknown_fields.is_empty());
    assert_eq!(ignored.object, warned.object);
}

#[test]
fn yaml_strict_puts_the_converters_error_first_then_sorted_fields() {
    let yaml = DecodeOptions {
        field_validation: FieldValidation::Strict,
        format: BodyFormat::Yaml,
        ..DecodeOptions::default()
    };
    let Err(Error::Rejected(r)) = kinds().decode(INVALID_YAML.as_bytes(), &yaml) else {
        panic!("not rejected")
    };
    assert!(r.message.ends_with(
        "strict decoding error: yaml: unmarshal errors:\n  line 5: key \"name\" already set in map\n  line 12: key \"unknownDupe\" already set in map\n  line 14: key \"paused\" already set in map\n  line 28: key \"imagePullPolicy\" already set in map, unknown field \"metadata.unknownMeta\", unknown field \"spec.template.spec.containers[0].unknownNested\", unknown field \"spec.unknown1\", unknown field \"spec.unknownDupe\""
    ), "{}", r.message);
    let warn = DecodeOptions {
        field_validation: FieldValidation::Warn,
        ..yaml
    };
    let warned = kinds().decode(INVALID_YAML.as_bytes(), &warn).unwrap();
    assert_eq!(
        warned.warnings,
        [
            r#"line 5: key "name" already set in map"#,
            r#"line 12: key "unknownDupe" already set in map"#,
            r#"line 14: key "paused" already set in map"#,
            r#"line 28: key "imagePullPolicy" already set in map"#,
            r#"unknown field "metadata.unknownMeta""#,
            r#"unknown field "spec.template.spec.containers[0].unknownNested""#,
            r#"unknown field "spec.unknown1""#,
            r#"unknown field "spec.unknownDupe""#,
        ]
    );
    // Ignore: accepted, nothing said; no fieldValidation is Warn.
    let ignore = DecodeOptions {
        field_validation: FieldValidation::Ignore,
        ..yaml
    };
    assert!(
        kinds()
            .decode(INVALID_YAML.as_bytes(), &ignore)
            .unwrap()
            .warnings
            .is_empty()
    );
    assert_eq!(DecodeOptions::default().field_validation, FieldValidation::Warn);
}

fn deployment(spec: &str) -> String {
    format!(r#"{{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {{"name": "web"}}, "spec": {spec}}}"#)
}

fn pod_spec(spec: &str) -> String {
    deployment(&format!(r#"{{"template": {{"spec": {spec}}}}}"#))
}

const P: &str = "Deployment in version \"v1\" cannot be handled as a Deployment: ";

#[test]
fn type_errors_name_the_innermost_struct_and_the_json_path() {
    let cases = [
        (
            deployment(r#"{"replicas": "3"}"#),
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32",
        ),
        (
            deployment(r#"{"replicas": 3000000000}"#),
            "json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32",
        ),
        (
            deployment(r#"{"replicas": 1.5}"#),
            "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32",
        ),
        (
            deployment(r#"{"replicas": 1e3}"#),
            "json: cannot unmarshal number 1e3 into Go struct field DeploymentSpec.spec.replicas of type int32",
        ),
        (
            deployment("[]"),
            "json: cannot unmarshal array into Go struct field Deployment.spec of type v1.DeploymentSpec",
        ),
        (
            deployment(r#"{"selector": "app=x"}"#),
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.selector of type v1.LabelSelector",
        ),
        (
            pod_spec(r#"{"containers": {}}"#),
            "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container",
        ),
        (
            pod_spec(r#"{"containers": ["nginx"]}"#),
            "json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container",
        ),
        (
            pod_spec(r#"{"containers": [{"name": "a", "ports": [{"containerPort": "80"}]}]}"#),
            "json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32",
        ),
        (
            pod_spec(r#"{"containers": [{"name": "a", "ports": [{"protocol": 6}]}]}"#),
            "json: cannot unmarshal number into Go struct field ContainerPort.spec.template.spec.containers.ports.protocol of type v1.Protocol",
        ),
        (
            pod_spec(r#"{"containers": [{"imagePullPolicy": true}]}"#),
            "json: cannot unmarshal bool into Go struct field Container.spec.template.spec.containers.imagePullPolicy of type v1.PullPolicy",
        ),
        (
            pod_spec(r#"{"containers": [{"resources": {"limits": []}}]}"#),
            "json: cannot unmarshal array into Go struct field ResourceRequirements.spec.template.spec.containers.resources.limits of type v1.ResourceList",
        ),
        (
            deployment(r#"{"strategy": {"rollingUpdate": {"maxSurge": true}}}"#),
            "json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32",
        ),
        (
            r#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"labels": {"app": 1}}}"#.to_owned(),
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string",
        ),
        (
            r#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"creationTimestamp": 5}}"#.to_owned(),
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string",
        ),
    ];
    for (body, want) in cases {
        assert_eq!(error(&body), format!("{P}{want}"), "{body}");
    }
}

#[test]
fn the_first_type_error_hides_the_strict_errors_and_gives_its_place() {
    let body = deployment(
        r#"{"foo": 1, "template": {"spec": {"containers": [{"name": "a"}, {"name": 5}]}}, "replicas": "x"}"#,
    );
    let r = rejected(&kinds(), &body, FieldValidation::Strict);
    assert_eq!(
        r.message,
        format!(
            "{P}json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.name of type string"
        )
    );
    assert!(r.strict_errors.is_empty());
    assert_eq!(r.field.as_deref(), Some("spec.template.spec.containers[1].name"));
}

#[test]
fn types_that_decode_themselves() {
    let quantity = pod_spec(r#"{"containers": [{"name": "a", "resources": {"limits": {"cpu": "1x"}}}]}"#);
    assert_eq!(
        error(&quantity),
        format!("{P}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
    );
    let suffix = pod_spec(r#"{"containers": [{"name": "a", "resources": {"requests": {"memory": "5mm"}}}]}"#);
    assert_eq!(error(&suffix), format!("{P}unable to parse quantity's suffix"));
    let time = r#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"creationTimestamp": "yesterday"}}"#;
    assert_eq!(
        error(time),
        format!(
            "{P}parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\""
        )
    );
    let secret = r#"{"apiVersion": "v1", "kind": "Secret", "data": {"a": "!!!!"}}"#;
    assert_eq!(
        error(secret),
        "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 0"
    );
    let secret = r#"{"apiVersion": "v1", "kind": "Secret", "data": {"a": 5}}"#;
    assert_eq!(
        error(secret),
        "Secret in version \"v1\" cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.data of type []uint8"
    );
}

#[test]
fn embedded_structs_in_type_error_paths_from_1_35() {
    let body = pod_spec(r#"{"volumes": [{"name": "v", "configMap": {"name": 5}}]}"#);
    let old = BuiltinKinds::new("1.34".parse().unwrap());
    assert_eq!(
        rejected(&old, &body, FieldValidation::Warn).message,
        format!(
            "{P}json: cannot unmarshal number into Go struct field ConfigMapVolumeSource.spec.template.spec.volumes.configMap.name of type string"
        )
    );
    let new = BuiltinKinds::new("1.35".parse().unwrap());
    assert_eq!(
        rejected(&new, &body, FieldValidation::Warn).message,
        format!(
            "{P}json: cannot unmarshal number into Go struct field ConfigMapVolumeSource.spec.template.spec.volumes.VolumeSource.configMap.LocalObjectReference.name of type string"
        )
    );
}

#[test]
fn keys_are_case_sensitive_and_unknown_repeats_count_once() {
    let body = deployment(r#"{"Replicas": 2, "foo": 1, "foo": 2}"#);
    let r = rejected(&kinds(), &body, FieldValidation::Strict);
    assert_eq!(
        r.strict_errors,
        [r#"unknown field "spec.Replicas""#, r#"unknown field "spec.foo""#]
    );
    let labels = r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"labels": {"a": "1", "a": "2"}}}"#;
    let r = rejected(&kinds(), labels, FieldValidation::Strict);
    assert_eq!(r.strict_errors, [r#"duplicate field "metadata.labels.a""#]);
}

#[test]
fn the_object_is_the_go_value_written_back() {
    let body = r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
        "spec": {"ports": [{"port": 80, "targetPort": "http"}, {"port": 81, "targetPort": 8081}],
                 "selector": {"app": "x"}, "bogus": 1}}"#;
    let d = kinds().decode(body.as_bytes(), &DecodeOptions::default()).unwrap();
    assert_eq!(
        d.object,
        json!({
            "apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "s"},
            "spec": {"ports": [{"port": 80, "targetPort": "http"}, {"port": 81, "targetPort": 8081}],
                     "selector": {"app": "x"}},
            "status": {"loadBalancer": {}}
        })
    );
    // Before 1.34 the zero creation time is written (`omitzero` came then).
    let old = BuiltinKinds::new("1.33".parse().unwrap());
    let d = old.decode(body.as_bytes(), &DecodeOptions::default()).unwrap();
    assert_eq!(d.object["metadata"], json!({"name": "s", "creationTimestamp": null}));
    let pod = r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "a", "resources": {"limits": {"memory": "1.5Gi"}}}]}}"#;
    let d = kinds().decode(pod.as_bytes(), &DecodeOptions::default()).unwrap();
    assert_eq!(
        d.object["spec"]["containers"][0]["resources"]["limits"]["memory"],
        "1536Mi"
    );
    assert_eq!(d.object["status"], json!({}));
}

#[test]
fn repeated_keys_merge_as_go_decodes_them() {
    let body = deployment(
        r#"{"template": {"metadata": {"labels": {"a": "1"}}}, "template": {"metadata": {"labels": {"b": "2"}}}}"#,
    );
    let d = kinds().decode(body.as_bytes(), &DecodeOptions::default()).unwrap();
    assert_eq!(
        d.object["spec"]["template"]["metadata"]["labels"],
        json!({"a": "1", "b": "2"})
    );
    assert_eq!(d.duplicate_fields, ["spec.template"]);
}

#[test]
fn bodies_of_other_kinds_and_endpoints() {
    let kinds = kinds();
    let unknown = r#"{"apiVersion": "apps/v1", "kind": "Deploymnet"}"#;
    assert!(matches!(
        kinds.decode(unknown.as_bytes(), &DecodeOptions::default()),
        Err(Error::NotBuiltin { .. })
    ));
    // A body naming no apiVersion or kind takes the endpoint's.
    let endpoint = GroupVersionKind {
        group: "apps".into(),
        version: "v1".into(),
        kind: "Deployment".into(),
    };
    let bare = br#"{"metadata": {"name": "x"}, "spec": {"replicas": "1"}}"#;
    let Err(Error::Rejected(r)) = kinds.decode_at(Some(&endpoint), bare, &DecodeOptions::default()) else {
        panic!("not rejected")
    };
    assert_eq!(
        r.message,
        format!("{P}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32")
    );
    let pod = br#"{"apiVersion": "v1", "kind": "Pod"}"#;
    assert!(matches!(
        kinds.decode_at(Some(&endpoint), pod, &DecodeOptions::default()),
        Err(Error::NotModelled(_))
    ));
    // Syntax errors are the serializer's, before any type.
    let Err(Error::Rejected(r)) = kinds.decode(b"{\"kind\": ", &DecodeOptions::default()) else {
        panic!("not rejected")
    };
    assert!(
        r.message.starts_with("the object provided is unrecognized"),
        "{}",
        r.message
    );
}

/// Decodes `body` both ways: the byte walk's bytes must be the value path's object as the
/// encoder writes it, byte for byte, and the answers the same.
fn both_ways(kinds: &BuiltinKinds, body: &[u8], options: &DecodeOptions) -> Result<Decoded, Error> {
    let by_value = kinds.decode(body, options);
    let mut out = b"prefix".to_vec();
    let by_bytes = kinds.decode_bytes(body, options, &mut out);
    match (&by_value, &by_bytes) {
        (Ok(v), Ok(r)) => {
            assert_eq!(r.warnings, v.warnings);
            assert_eq!(r.unknown_fields, v.unknown_fields);
            assert_eq!(r.duplicate_fields, v.duplicate_fields);
            let plan = plan::of(*kinds.catalog());
            let kind = v.object["kind"].as_str().unwrap();
            let (group, version) = crate::parse_group_version(v.object["apiVersion"].as_str().unwrap()).unwrap();
            let facts = kinds.kind(group, version, kind).unwrap();
            let root = plan.root(kinds.catalog().type_def(facts.type_name()).unwrap());
            let mut spec = b"prefix".to_vec();
            plan.write(root, &v.object, &mut spec);
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&spec),
                "{}",
                String::from_utf8_lossy(body)
            );
            let parsed: Value = serde_json::from_slice(&out[6..]).unwrap();
            assert_eq!(parsed, v.object);
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string());
            assert_eq!(out, b"prefix");
        }
        _ => panic!("{by_value:?} against {by_bytes:?}"),
    }
    by_value
}

#[test]
fn bytes_are_the_value_as_the_encoder_writes_it() {
    let kinds = kinds();
    let bodies = [
        INVALID_JSON.to_owned(),
        deployment(r#"{"replicas": 2, "strategy": {"rollingUpdate": {"maxSurge": "25%"}}}"#),
        deployment(r#"{"replicas": "2"}"#),
        pod_spec(r#"{"containers": [{"name": "a", "image": "x<y>&z", "resources": {"limits": {"cpu": "0.5"}}}]}"#),
        r#"{"apiVersion": "v1", "kind": "Secret", "data": {"b": "aGk=", "a": "aGVsbG8="}, "stringData": {"x": "é"}}"#.to_owned(),
        r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"labels": {"z": "1", "a": "2"}}, "binaryData": {"k": "AAEC"}}"#.to_owned(),
        r#"{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "spec": {"renewTime": "2020-01-01T10:00:00.123456Z", "leaseDurationSeconds": 15}}"#.to_owned(),
        r#"{"apiVersion": "apps/v1", "kind": "ControllerRevision", "data": {"z": [1, {"b": 2, "a": 1}]}, "revision": 3}"#.to_owned(),
        r#"{"apiVersion": "v1", "kind": "Service", "spec": {"ports": [{"port": 80, "port": 81}]}}"#.to_owned(),
        r#"{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1", "a": "2"}}"#.to_owned(),
        r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"creationTimestamp": "2020-01-01T00:00:00Z"}, "spec": null}"#.to_owned(),
    ];
    for body in &bodies {
        for mode in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
            let _ = both_ways(&kinds, body.as_bytes(), &options(mode));
        }
    }
    // Go's order: TypeMeta, metadata, spec, status; within each, the Go fields' order.
    let mut out = Vec::new();
    kinds
        .decode_bytes(
            br#"{"spec": {"ports": [{"targetPort": 8080, "port": 80}]}, "kind": "Service", "apiVersion": "v1", "metadata": {"name": "s"}}"#,
            &DecodeOptions::default(),
            &mut out,
        )
        .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        r#"{"kind":"Service","apiVersion":"v1","metadata":{"name":"s"},"spec":{"ports":[{"port":80,"targetPort":8080}]},"status":{"loadBalancer":{}}}"#
    );
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    /// A Deployment-like JSON body with some keys misspelt, repeated or of the wrong type.
    fn bodies() -> impl Strategy<Value = String> {
        let key = prop::sample::select(vec![
            "replicas",
            "replicaz",
            "paused",
            "Replicas",
            "selector",
            "minReadySeconds",
            "x",
        ]);
        let scalar = prop::sample::select(vec!["1", "\"1\"", "true", "null", "1.5", "{}", "[]", "3000000000"]);
        let spec = prop::collection::vec((key, scalar), 0..6).prop_map(|fields| {
            let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
            body.join(", ")
        });
        let container_key = prop::sample::select(vec!["name", "image", "imagePullPolice", "imagePullPolicy", "ports"]);
        let container_value = prop::sample::select(vec!["\"a\"", "1", "[{\"containerPort\": 80}]", "null"]);
        let container = prop::collection::vec((container_key, container_value), 0..5).prop_map(|fields| {
            let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
            format!("{{{}}}", body.join(", "))
        });
        (spec, prop::collection::vec(container, 0..3)).prop_map(|(spec, containers)| {
            let comma = if spec.is_empty() { "" } else { ", " };
            format!(
                r#"{{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {{{spec}{comma}"template": {{"spec": {{"containers": [{}]}}}}}}}}"#,
                containers.join(", ")
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        /// Strict, Warn and Ignore agree: Strict refuses exactly what Warn warns about, with the
        /// same texts, Ignore accepts it silently; a type error is the same in all three; the
        /// byte walk answers as the value path.
        #[test]
        fn modes_agree(body in bodies()) {
            let kinds = kinds();
            let strict = both_ways(&kinds, body.as_bytes(), &options(FieldValidation::Strict));
            let warn = both_ways(&kinds, body.as_bytes(), &options(FieldValidation::Warn));
            let ignore = both_ways(&kinds, body.as_bytes(), &options(FieldValidation::Ignore));
            match (&strict, &warn, &ignore) {
                (Ok(s), Ok(w), Ok(i)) => {
                    prop_assert!(s.warnings.is_empty() && w.warnings.is_empty() && i.warnings.is_empty());
                }
                (Err(Error::Rejected(s)), Ok(w), Ok(i)) => {
                    prop_assert_eq!(&s.strict_errors, &w.warnings.to_vec());
                    prop_assert!(i.warnings.is_empty());
                    prop_assert_eq!(&w.object, &i.object);
                }
                (Err(s), Err(w), Err(i)) => {
                    prop_assert_eq!(s.to_string(), w.to_string());
                    prop_assert_eq!(w.to_string(), i.to_string());
                }
                other => prop_assert!(false, "{:?}", other),
            }
        }
    }
}

/// Every kind of every release decodes: an unknown field is the server's strict error, a
/// `metadata` of the wrong type its type error, in both walkers.
#[test]
fn every_kind_of_every_release() {
    let mut kinds_seen = 0;
    for release in Release::ALL {
        let kinds = BuiltinKinds::new(release);
        let catalog = *kinds.catalog();
        for gv in catalog.group_versions() {
            for facts in catalog.kinds(gv) {
                if facts.lifecycle().is_removed_in(release) {
                    continue;
                }
                kinds_seen += 1;
                let kind = facts.kind();
                let version = gv.rsplit('/').next().unwrap();
                let prefix = format!("{kind} in version \"{version}\" cannot be handled as a {kind}: ");
                let root = catalog.type_def(facts.type_name()).unwrap();
                let meta = root.field("metadata");
                let name = if meta.is_some() { r#""metadata": {}, "# } else { "" };
                let unknown = format!(r#"{{"apiVersion": "{gv}", "kind": "{kind}", {name}"bogus": 1}}"#);
                let strict = options(FieldValidation::Strict);
                match both_ways(&kinds, unknown.as_bytes(), &strict) {
                    Err(Error::Rejected(r)) => assert_eq!(
                        r.message,
                        format!("{prefix}strict decoding error: unknown field \"bogus\""),
                        "{release} {gv} {kind}"
                    ),
                    other => panic!("{release} {gv} {kind}: {other:?}"),
                }
                let Some(meta) = meta else { continue };
                let wrong = format!(r#"{{"apiVersion": "{gv}", "kind": "{kind}", "metadata": 5}}"#);
                let meta_type = meta.go_type().go_name();
                match both_ways(&kinds, wrong.as_bytes(), &strict) {
                    Err(Error::Rejected(r)) => assert_eq!(
                        r.message,
                        format!(
                            "{prefix}json: cannot unmarshal number into Go struct field {}.metadata of type {}",
                            root.name().rsplit('.').next().unwrap(),
                            meta_type.trim_start_matches('*')
                        ),
                        "{release} {gv} {kind}"
                    ),
                    other => panic!("{release} {gv} {kind}: {other:?}"),
                }
            }
        }
    }
    // About 200 served kinds a release (lists included), eight releases.
    assert!(kinds_seen > 1500, "{kinds_seen}");
}

/// Strings and keys the byte walk copies as they are, and those it writes as Go's encoder
/// escapes them, give the value path's bytes.
#[test]
fn strings_copied_or_escaped_as_the_encoder_writes_them() {
    let kinds = kinds();
    let texts = [
        "plain",
        "a<b>&c",
        "tab\\there",
        "del\u{7f}",
        "caf\u{e9}",
        "line\u{2028}sep",
        "quote\\\"d",
        "\\u00e9\\u2029",
        "a-very-long-value-that-runs-past-sixteen-bytes-<-and-more",
    ];
    for text in texts {
        let body = format!(
            r#"{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {{"name": "{text}", "labels": {{"{text}": "{text}"}}}}, "data": {{"{text}": "{text}"}}}}"#
        );
        let decoded = both_ways(&kinds, body.as_bytes(), &options(FieldValidation::Strict)).unwrap();
        assert!(decoded.warnings.is_empty(), "{text}");
    }
}
