//! Interop: k8s-openapi's types in derived specs (feature `k8s-openapi`), the schemars bridge
//! both ways (feature `schemars`), and a realistic operator's CRD with an embedded pod
//! template pinned as YAML (`tests/interop/<name>.yaml`; `UPDATE_SNAPSHOTS=1` rewrites it).

use std::collections::BTreeMap;
use std::path::PathBuf;

use k8s_openapi::api::core::v1::{EnvVar, PodTemplateSpec, ResourceRequirements, Toleration};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kstruct::DecodeExt;
use kstruct::{CustomResource, CustomResourceSchema};
use kstruct_tests::crd_rules::crd_document_problems;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A worker pool: a Deployment-like operator's spec, embedding a pod template (30+ fields
/// with the nested ones: enums, maps, sets, defaults, validations, k8s-openapi types).
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(
    group = "apps.example.com",
    version = "v1",
    kind = "WorkerPool",
    namespaced,
    status = "WorkerPoolStatus",
    shortname = "wp",
    derive(PartialEq),
    printcolumn(name = "Desired", integer = ".spec.replicas"),
    printcolumn(name = "Ready", integer = ".status.readyReplicas"),
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.selector"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct WorkerPoolSpec {
    /// Workers to run.
    #[serde(default = "one")]
    #[kstruct(minimum = 0)]
    pub replicas: i32,
    /// Which pods belong to the pool.
    pub selector: LabelSelector,
    /// The workers' pods.
    pub template: PodTemplateSpec,
    /// Surge during updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    /// Resources of the pool's sidecar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sidecar_resources: Option<ResourceRequirements>,
    /// Extra tolerations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
    /// Scratch space per worker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scratch: Option<Quantity>,
    /// Queue settings, from a type that only has a schemars schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[kstruct(schemars)]
    pub queue: Option<QueueSettings>,
    /// Stop reconciling.
    #[serde(default)]
    pub paused: bool,
    /// Seconds a new worker must be ready before it counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[kstruct(minimum = 0)]
    pub min_ready_seconds: Option<i32>,
    /// Old revisions kept.
    #[serde(default = "ten")]
    #[kstruct(minimum = 0, maximum = 100)]
    pub revision_history_limit: i32,
    /// How workers are replaced.
    #[serde(default)]
    pub strategy: UpdateStrategy,
    /// Scaling on load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autoscaling: Option<Autoscaling>,
    /// Node pools by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_pools: BTreeMap<String, NodePool>,
    /// Environment of every worker.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[kstruct(list_type = "map", list_map_keys = ["name"])]
    pub env: Vec<EnvVar>,
    /// The service account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[kstruct(pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", max_length = 63)]
    pub service_account: Option<String>,
    /// Scheduling priority.
    #[serde(default)]
    pub priority: Priority,
    /// Free-form worker configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<serde_json::Value>,
    /// Port of the metrics endpoint.
    #[serde(default = "metrics_port")]
    pub metrics_port: u16,
    /// How long a worker may take to stop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[kstruct(pattern = "^[0-9]+(s|m|h)$")]
    pub shutdown_grace: Option<String>,
}

fn one() -> i32 {
    1
}

fn ten() -> i32 {
    10
}

fn metrics_port() -> u16 {
    9090
}

/// How workers are replaced.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "type")]
pub enum UpdateStrategy {
    /// A few at a time.
    #[serde(rename_all = "camelCase")]
    RollingUpdate {
        /// Workers that may be down at once.
        max_unavailable: IntOrString,
    },
    /// All at once.
    Recreate,
}

impl Default for UpdateStrategy {
    fn default() -> Self {
        UpdateStrategy::RollingUpdate {
            max_unavailable: IntOrString::String("25%".into()),
        }
    }
}

/// Scaling on load.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
#[kstruct(validation(
    rule = "self.minReplicas <= self.maxReplicas",
    message = "minReplicas above maxReplicas"
))]
pub struct Autoscaling {
    /// The fewest workers.
    #[kstruct(minimum = 1)]
    pub min_replicas: i32,
    /// The most workers.
    pub max_replicas: i32,
    /// CPU use to aim for, in percent.
    #[serde(default = "seventy")]
    #[kstruct(minimum = 1, maximum = 100)]
    pub target_cpu_percent: u8,
    /// How fast to follow the load.
    #[serde(default)]
    pub behavior: Behavior,
}

fn seventy() -> u8 {
    70
}

/// How fast scaling follows the load.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Default)]
pub enum Behavior {
    /// At once.
    Fast,
    /// Over minutes.
    #[default]
    Smooth,
}

/// A pool of nodes workers may run on.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodePool {
    /// The machine type.
    #[kstruct(pattern = "^[a-z0-9.-]+$")]
    pub instance_type: String,
    /// Zones (a set).
    #[serde(default)]
    pub zones: std::collections::BTreeSet<String>,
    /// Spot instances.
    #[serde(default)]
    pub spot: bool,
}

/// Scheduling priority.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Preemptible.
    Low,
    /// The default.
    #[default]
    Normal,
    /// Never preempted.
    High,
}

/// A type from a crate that only derives `schemars::JsonSchema`.
#[derive(schemars::JsonSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct QueueSettings {
    /// Queue name.
    pub name: String,
    /// Messages fetched at once.
    pub batch: Option<u16>,
    /// Acknowledgements.
    pub mode: QueueMode,
}

/// How messages are acknowledged.
#[derive(schemars::JsonSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum QueueMode {
    /// Redelivered until acknowledged.
    AtLeastOnce,
    /// Never redelivered.
    AtMostOnce,
}

/// What the operator observed.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct WorkerPoolStatus {
    /// Workers running.
    #[serde(default)]
    pub replicas: i32,
    /// Workers ready.
    #[serde(default)]
    pub ready_replicas: i32,
    /// The workers' label selector, for the HPA.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// When the pool last scaled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_scale_time: Option<Time>,
    /// Conditions, one per type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[kstruct(list_type = "map", list_map_keys = ["type"])]
    pub conditions: Vec<Condition>,
    /// The generation last acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Where the pool is in its life.
    #[serde(default)]
    pub phase: Phase,
}

/// Where a pool is in its life.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Default)]
pub enum Phase {
    /// Not yet reconciled.
    #[default]
    Pending,
    /// Workers running.
    Running,
    /// Something is wrong (see the conditions).
    Degraded,
}

#[test]
fn a_pod_template_operator_crd_is_pinned_and_accepted() {
    let crd = WorkerPool::try_crd().expect("the CRD");
    let yaml = crd.to_yaml();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop/workerpools.apps.example.com.yaml");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &yaml).unwrap();
    } else {
        let pinned = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            pinned == yaml,
            "the CRD differs from {} (UPDATE_SNAPSHOTS=1 rewrites it)",
            path.display()
        );
    }
    let doc = kstruct::schema::yaml::to_json_strict(&yaml).unwrap();
    assert_eq!(crd_document_problems(&doc), Vec::<String>::new());

    let v = crd.to_value();
    let spec = &v["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    // The template's metadata keeps what a pod template may set, as controller-gen writes it.
    assert_eq!(
        spec["template"]["properties"]["metadata"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["annotations", "finalizers", "labels", "name", "namespace"]
    );
    // The Go types' markers, as controller-gen writes them: containers merge by name under
    // server-side apply, ports by port and protocol (defaulted, as a list-map key must be).
    let pod = &spec["template"]["properties"]["spec"]["properties"];
    assert_eq!(pod["containers"]["x-kubernetes-list-type"], "map");
    assert_eq!(pod["containers"]["x-kubernetes-list-map-keys"], json!(["name"]));
    let ports = &pod["containers"]["items"]["properties"]["ports"];
    assert_eq!(
        ports["x-kubernetes-list-map-keys"],
        json!(["containerPort", "protocol"])
    );
    assert_eq!(ports["items"]["properties"]["protocol"]["default"], "TCP");
    assert_eq!(pod["nodeSelector"]["x-kubernetes-map-type"], "atomic");
    assert_eq!(spec["scratch"]["x-kubernetes-int-or-string"], true);
    assert!(spec["scratch"]["pattern"].is_string());
    assert_eq!(
        spec["maxSurge"],
        json!({"description": "Surge during updates.", "x-kubernetes-int-or-string": true})
    );
    assert_eq!(
        spec["queue"]["properties"]["mode"],
        json!({"description": "Acknowledgements.", "type": "string", "enum": ["AtLeastOnce", "AtMostOnce"]})
    );
    let status = &v["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["status"]["properties"];
    assert_eq!(status["lastScaleTime"]["format"], "date-time");
    println!(
        "CRD with a pod template: {} bytes of JSON, {} of YAML",
        crd.to_json().len(),
        yaml.len()
    );
}

#[test]
fn objects_with_k8s_types_decode_strictly_and_come_back() {
    let spec: WorkerPoolSpec = serde_json::from_value(json!({
        "replicas": 2,
        "selector": {"matchLabels": {"app": "w"}},
        "template": {"metadata": {"labels": {"app": "w"}},
                     "spec": {"containers": [{"name": "w", "image": "worker:1",
                                              "resources": {"limits": {"cpu": "500m", "memory": "1Gi"}},
                                              "ports": [{"containerPort": 8080}]}]}},
        "maxSurge": "25%",
        "scratch": "10Gi",
        "queue": {"name": "jobs", "batch": 10, "mode": "AtLeastOnce"},
        "strategy": {"type": "Recreate"},
        "autoscaling": {"minReplicas": 1, "maxReplicas": 5, "behavior": "Fast"},
        "nodePools": {"general": {"instanceType": "m7.large", "zones": ["a", "b"]}},
        "env": [{"name": "MODE", "value": "batch"}],
        "config": {"anything": [1, "two", {"three": null}]},
        "shutdownGrace": "30s",
    }))
    .unwrap();
    let pool = WorkerPool::new("pool", spec);
    let body = serde_json::to_vec(&pool).unwrap();
    let strict = kstruct::DecodeOptions {
        field_validation: kstruct::FieldValidation::Strict,
        format: kstruct::BodyFormat::Json,
        validate: false,
        max_body_size: None,
        resource_version: None,
    };
    let decoded = kstruct::Interpreter::for_kind::<WorkerPool>()
        .decode(&body, &strict)
        .unwrap();
    assert!(decoded.warnings.is_empty(), "{:?}", decoded.warnings);
    let back: WorkerPool = serde_json::from_value(decoded.object).unwrap();
    // The one change is the Go type's `+default="TCP"` on a port's protocol, as the server
    // defaults it under controller-gen's CRD of the same types.
    let mut want = pool;
    let ports = want.spec.template.spec.as_mut().unwrap().containers[0]
        .ports
        .as_mut()
        .unwrap();
    ports[0].protocol = Some("TCP".to_owned());
    assert_eq!(back, want);
}

#[test]
fn the_api_servers_defaults_are_serdes_defaults() {
    // A minimal object: the API server fills in the schema's defaults; serde fills in its own.
    let minimal = json!({"apiVersion": "apps.example.com/v1", "kind": "WorkerPool", "metadata": {"name": "p"},
        "spec": {"selector": {}, "template": {}, "autoscaling": {"minReplicas": 1, "maxReplicas": 2}},
        "status": {}});
    let by_serde: WorkerPool = serde_json::from_value(minimal.clone()).unwrap();
    let decoded = {
        kstruct::Interpreter::for_kind::<WorkerPool>()
            .decode(minimal.to_string().as_bytes(), &kstruct::DecodeOptions::default())
            .unwrap()
    };
    let by_server: WorkerPool = serde_json::from_value(decoded.object.clone()).unwrap();
    assert_eq!(by_server, by_serde);
    assert_eq!(
        decoded.object["spec"]["strategy"],
        json!({"type": "RollingUpdate", "maxUnavailable": "25%"})
    );
    assert_eq!(decoded.object["spec"]["autoscaling"]["targetCpuPercent"], 70);
}

#[test]
fn derived_types_are_schemars_types_with_the_same_schema() {
    let ours = kstruct::schema_for::<WorkerPoolStatus>();
    let theirs = schemars::SchemaGenerator::default().subschema_for::<WorkerPoolStatus>();
    assert_eq!(theirs.to_value(), ours);
    assert!(<WorkerPoolStatus as schemars::JsonSchema>::inline_schema());
}

#[test]
fn what_schemars_cannot_make_structural_is_reported() {
    #[derive(schemars::JsonSchema, Serialize)]
    #[serde(untagged)]
    #[allow(dead_code)]
    enum StringOrList {
        One(String),
        Many(Vec<String>),
    }
    #[derive(CustomResourceSchema, Serialize)]
    struct Spec {
        #[kstruct(schemars)]
        value: StringOrList,
    }
    let err = kstruct::try_schema_for::<Spec>().unwrap_err().to_string();
    assert!(
        err.contains("`anyOf` of values of different types (string, array)"),
        "{err}"
    );
    // The schema itself leaves the field free-form rather than wrong.
    assert_eq!(
        kstruct::schema_for::<Spec>()["properties"]["value"],
        json!({"x-kubernetes-preserve-unknown-fields": true})
    );
}

/// The `x-kubernetes-*` markers and `+default`s of a k8s-openapi type's schema against a
/// subtree controller-gen wrote from the same Go type: at every path both have, the same list
/// type, list-map keys, map type and default. Returns the nodes compared and the differences.
fn compare_markers(ours: &serde_json::Value, theirs: &serde_json::Value, path: &str, out: &mut (usize, Vec<String>)) {
    out.0 += 1;
    for key in [
        "x-kubernetes-list-type",
        "x-kubernetes-list-map-keys",
        "x-kubernetes-map-type",
        "default",
    ] {
        if ours.get(key) != theirs.get(key) {
            out.1.push(format!(
                "{path}: {key} {:?}, controller-gen {:?}",
                ours.get(key),
                theirs.get(key)
            ));
        }
    }
    if let (Some(a), Some(b)) = (ours.get("properties"), theirs.get("properties")) {
        for (name, a) in a.as_object().into_iter().flatten() {
            // Embedded metadata is the reduced schema both write by hand.
            if let Some(b) = b.get(name).filter(|_| name != "metadata") {
                compare_markers(a, b, &format!("{path}.{name}"), out);
            }
        }
    }
    for child in ["items", "additionalProperties"] {
        if let (Some(a), Some(b)) = (ours.get(child), theirs.get(child)) {
            compare_markers(a, b, &format!("{path}[{child}]"), out);
        }
    }
}

#[test]
fn k8s_types_carry_the_markers_controller_gen_writes() {
    let Some(shared) = kstruct_tests::require_shared("k8s-openapi markers against controller-gen's CRDs") else {
        return;
    };
    let crd = |file: &str| {
        let text = std::fs::read_to_string(shared.join("corpus/crds").join(file)).unwrap();
        let doc = kstruct::schema::yaml::to_json_strict(&text).unwrap();
        doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
    };
    let ours = |s: kstruct::schema::Structural| kstruct::schema::serialize::to_value(&s);
    let mut g = kstruct::Generator::new();
    let container = ours(g.subschema_for::<k8s_openapi::api::core::v1::Container>());
    let template = ours(g.subschema_for::<PodTemplateSpec>());
    // prometheus-operator: `containers []v1.Container`; KEDA: a Job's pod template.
    let alertmanager = crd("prometheus-operator/alertmanagers.monitoring.coreos.com.yaml");
    let scaled_job = crd("keda/scaledjobs.keda.sh.yaml");
    let mut out = (0, Vec::new());
    compare_markers(
        &container,
        &alertmanager["properties"]["spec"]["properties"]["containers"]["items"],
        "Container",
        &mut out,
    );
    compare_markers(
        &template,
        &scaled_job["properties"]["spec"]["properties"]["jobTargetRef"]["properties"]["template"],
        "PodTemplateSpec",
        &mut out,
    );
    kstruct_tests::announce(&format!(
        "k8s-openapi markers against controller-gen: {} schema nodes compared, {} differences",
        out.0,
        out.1.len()
    ));
    assert!(out.0 > 1_000, "{} nodes compared", out.0);
    assert_eq!(out.1, Vec::<String>::new());
}
