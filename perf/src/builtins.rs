//! The `builtins` workload: Deployments, Services and ConfigMaps as Helm charts write them,
//! and a CRD whose schema is the Deployment's Go types (as controller-gen would write it), so
//! that a built-in kind and a custom resource of the same shape and size are decoded side by
//! side.

use kstruct::builtin::{BuiltinKinds, Catalog, GoType, Release};
use serde_json::{Map, Value, json};

/// `n` documents, JSON, in turn a Deployment, a Service and a ConfigMap of a release of a
/// made-up chart (names, labels and values vary, the shape does not).
pub fn documents(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| {
            let v = match i % 3 {
                0 => deployment(i),
                1 => service(i),
                _ => config_map(i),
            };
            serde_json::to_vec(&v).unwrap()
        })
        .collect()
}

/// `n` Deployments alone.
pub fn deployments(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| serde_json::to_vec(&deployment(i * 3)).unwrap())
        .collect()
}

/// A document of [`deployments`] as an object of [`deployment_crd`]'s custom resource (the
/// same bytes under another group).
pub fn as_custom_resource(d: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(d.to_vec()).unwrap();
    text.replacen(
        "\"apiVersion\":\"apps/v1\"",
        "\"apiVersion\":\"perf.example.com/v1\"",
        1,
    )
    .into_bytes()
}

fn labels(i: usize) -> Value {
    json!({
        "app.kubernetes.io/name": format!("app{}", i % 17),
        "app.kubernetes.io/instance": format!("release-{i}"),
        "app.kubernetes.io/version": "1.16.0",
        "app.kubernetes.io/managed-by": "Helm",
        "helm.sh/chart": format!("app{}-0.1.{}", i % 17, i % 5),
    })
}

fn metadata(i: usize, kind: &str) -> Value {
    json!({
        "name": format!("release-{i}-{kind}"),
        "namespace": format!("team-{}", i % 7),
        "labels": labels(i),
        "annotations": {"meta.helm.sh/release-name": format!("release-{i}"), "meta.helm.sh/release-namespace": "default"},
    })
}

fn deployment(i: usize) -> Value {
    let selector = json!({"app.kubernetes.io/name": format!("app{}", i % 17), "app.kubernetes.io/instance": format!("release-{i}")});
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": metadata(i, "deployment"),
        "spec": {
            "replicas": 1 + i % 3,
            "revisionHistoryLimit": 10,
            "selector": {"matchLabels": selector},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
            "template": {
                "metadata": {
                    "labels": labels(i),
                    "annotations": {"checksum/config": format!("{:064x}", i * 7919)},
                },
                "spec": {
                    "serviceAccountName": format!("release-{i}"),
                    "securityContext": {"fsGroup": 2000, "runAsNonRoot": true},
                    "containers": [{
                        "name": format!("app{}", i % 17),
                        "image": format!("registry.example.com/app{}:1.16.{}", i % 17, i % 9),
                        "imagePullPolicy": "IfNotPresent",
                        "args": ["--port=8080", "--log-level=info"],
                        "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
                        "env": [
                            {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                            {"name": "LOG_FORMAT", "value": "json"},
                        ],
                        "livenessProbe": {"httpGet": {"path": "/healthz", "port": "http"}, "initialDelaySeconds": 10},
                        "readinessProbe": {"httpGet": {"path": "/ready", "port": "http"}, "periodSeconds": 5},
                        "resources": {
                            "limits": {"cpu": "500m", "memory": "256Mi"},
                            "requests": {"cpu": "100m", "memory": "128Mi"},
                        },
                        "securityContext": {"readOnlyRootFilesystem": true, "allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}},
                        "volumeMounts": [{"name": "config", "mountPath": "/etc/app", "readOnly": true}],
                    }],
                    "volumes": [{"name": "config", "configMap": {"name": format!("release-{i}-configmap")}}],
                    "nodeSelector": {"kubernetes.io/os": "linux"},
                    "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "apps", "effect": "NoSchedule"}],
                },
            },
        },
    })
}

fn service(i: usize) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": metadata(i, "service"),
        "spec": {
            "type": "ClusterIP",
            "ports": [{"port": 80, "targetPort": "http", "protocol": "TCP", "name": "http"}],
            "selector": {"app.kubernetes.io/name": format!("app{}", i % 17), "app.kubernetes.io/instance": format!("release-{i}")},
        },
    })
}

fn config_map(i: usize) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": metadata(i, "configmap"),
        "data": {
            "app.yaml": format!("server:\n  port: 8080\n  workers: {}\nlog:\n  level: info\n", 1 + i % 8),
            "FEATURE_FLAGS": "a,b,c",
            "TIMEOUT": "30s",
        },
    })
}

/// A CRD of group `perf.example.com` whose kind `Deployment` has the schema of the Go type
/// `apps/v1.Deployment` of `release`: objects, lists and maps as the Go types nest them,
/// quantities and int-or-strings as controller-gen writes them, timestamps as date-time
/// strings, raw values preserved.
pub fn deployment_crd(release: Release) -> kstruct::RegisteredCrd {
    let kinds = BuiltinKinds::new(release);
    let catalog = kinds.catalog();
    let root = catalog.type_def("apps/v1.Deployment").expect("apps/v1.Deployment");
    let mut schema = struct_schema(catalog, root, 0);
    // apiVersion, kind and metadata are the API server's own at a CRD's root.
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        props.remove("metadata");
        props.insert("metadata".into(), json!({"type": "object"}));
    }
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "deployments.perf.example.com"},
        "spec": {"group": "perf.example.com", "scope": "Namespaced",
                 "names": {"kind": "Deployment", "plural": "deployments"},
                 "versions": [{"name": "v1", "served": true, "storage": true,
                               "schema": {"openAPIV3Schema": schema}}]}
    });
    let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&crd).expect("the Deployment CRD");
    kstruct::RegisteredCrd::new(crd)
}

fn struct_schema(catalog: &Catalog, def: &'static kstruct::builtin::TypeDef, depth: usize) -> Value {
    let mut props = Map::new();
    collect_fields(catalog, def, &mut props, depth);
    json!({"type": "object", "properties": props})
}

fn collect_fields(
    catalog: &Catalog,
    def: &'static kstruct::builtin::TypeDef,
    props: &mut Map<String, Value>,
    depth: usize,
) {
    for f in def.fields() {
        match f.json_name() {
            Some(name) => {
                props.insert(name.to_owned(), type_schema(catalog, f.go_type(), depth + 1));
            }
            None => {
                if let GoType::Named(n) = f.go_type()
                    && let Some(inner) = catalog.type_def(n)
                {
                    collect_fields(catalog, inner, props, depth);
                }
            }
        }
    }
}

fn type_schema(catalog: &Catalog, t: &'static GoType, depth: usize) -> Value {
    match t {
        GoType::Pointer(inner) => type_schema(catalog, inner, depth),
        GoType::Builtin("string") => json!({"type": "string"}),
        GoType::Builtin("bool") => json!({"type": "boolean"}),
        GoType::Builtin("float32" | "float64") => json!({"type": "number"}),
        GoType::Builtin(_) => json!({"type": "integer"}),
        GoType::Slice(inner) if matches!(**inner, GoType::Builtin("byte")) => {
            json!({"type": "string", "format": "byte"})
        }
        GoType::Slice(inner) | GoType::Array(inner) => {
            json!({"type": "array", "items": type_schema(catalog, inner, depth)})
        }
        GoType::Map(_, v) => json!({"type": "object", "additionalProperties": type_schema(catalog, v, depth)}),
        GoType::Interface => json!({"x-kubernetes-preserve-unknown-fields": true}),
        GoType::Named(n) => match n.as_str() {
            "resource.Quantity" | "intstr.IntOrString" => json!({"x-kubernetes-int-or-string": true}),
            "meta/v1.Time" | "meta/v1.MicroTime" => json!({"type": "string", "format": "date-time"}),
            _ => match catalog.type_def(n) {
                Some(def) if def.decodes_itself() => {
                    json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
                }
                Some(def) => match def.shape() {
                    kstruct::builtin::TypeShape::Struct(_) if depth < 40 => struct_schema(catalog, def, depth),
                    kstruct::builtin::TypeShape::Struct(_) => json!({"type": "object"}),
                    kstruct::builtin::TypeShape::Named(inner) | kstruct::builtin::TypeShape::Alias(inner) => {
                        type_schema(catalog, inner, depth)
                    }
                },
                None => json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
            },
        },
    }
}
