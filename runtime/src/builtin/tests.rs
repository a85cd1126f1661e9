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
