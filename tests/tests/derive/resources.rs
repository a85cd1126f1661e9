//! Resource attributes: the root types and CRDs they generate. Every CRD is pinned as YAML
//! (`crds/<name>.yaml`; `UPDATE_SNAPSHOTS=1` rewrites them), passes what `kstruct lint` runs
//! and the API server's other schema rules, and objects round-trip through serde.

use std::collections::BTreeMap;
use std::path::PathBuf;

use kstruct::apiextensions::CustomResourceDefinition;
use kstruct::{CustomResource, CustomResourceSchema, ObjectMeta};
use kstruct_tests::crd_rules::crd_document_problems;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The smallest resource: cluster-scoped, no status, every default.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    pub size: i32,
}

/// A database cluster: the attributes an operator uses.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(
    group = "db.example.com",
    version = "v1beta2",
    kind = "DatabaseCluster",
    namespaced,
    status = "DatabaseClusterStatus",
    shortname = "dbc",
    shortname = "dbcs",
    category = "all",
    category = "databases",
    printcolumn(name = "Engine", type = "string", json_path = ".spec.engine"),
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas", format = "int32"),
    // The type and the path in one key: clippy's `duplicated_attributes` flags a second
    // `type = "integer"` in one item's attributes.
    printcolumn(name = "Ready", integer = ".status.readyReplicas", description = "Pods ready to serve"),
    printcolumn(name = "Version", string = ".spec.version", priority = 1),
    printcolumn(name = "Age", date = ".metadata.creationTimestamp"),
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.selector"
    ),
    selectable = ".spec.engine",
    selectable = ".spec.version",
    label("app.kubernetes.io/part-of", "db-operator"),
    annotation("example.com/owner", "platform-team"),
    deprecated = "db.example.com/v1beta2 DatabaseCluster is deprecated; use db.example.com/v1",
    derive(PartialEq),
    doc = "A replicated database cluster."
)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseClusterSpec {
    /// The database engine.
    pub engine: Engine,
    /// The engine's version.
    #[kstruct(pattern = "^[0-9]+\\.[0-9]+$")]
    pub version: String,
    /// Members of the cluster.
    #[serde(default = "three")]
    #[kstruct(minimum = 1, maximum = 9)]
    pub replicas: i32,
    /// Storage per member.
    #[serde(default)]
    pub storage: Storage,
    /// Engine parameters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
    /// Users to create.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[kstruct(list_type = "map", list_map_keys = ["name"])]
    pub users: Vec<User>,
    /// When backups run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<Backup>,
}

fn three() -> i32 {
    3
}

/// A database engine.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    Postgres,
    Mysql,
}

/// Storage of one member.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Storage {
    /// Size, as a quantity.
    #[kstruct(pattern = "^[0-9]+(Mi|Gi|Ti)$")]
    pub size: String,
    /// The storage class (the cluster's default when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_name: Option<String>,
}

impl Default for Storage {
    fn default() -> Self {
        Storage {
            size: "10Gi".into(),
            class_name: None,
        }
    }
}

/// A database user.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct User {
    pub name: String,
    /// Roles granted.
    #[serde(default)]
    #[kstruct(list_type = "set")]
    pub roles: Vec<String>,
}

/// Backup schedule.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
#[kstruct(validation(rule = "self.keep >= 1", message = "keep at least one backup"))]
pub struct Backup {
    /// Cron schedule.
    pub schedule: String,
    /// How many to keep.
    #[serde(default = "seven")]
    pub keep: i32,
}

fn seven() -> i32 {
    7
}

/// What the operator observed.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseClusterStatus {
    /// Members running.
    #[serde(default)]
    pub replicas: i32,
    /// Members ready.
    #[serde(default)]
    pub ready_replicas: i32,
    /// The members' label selector, for the HPA.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
}

/// Two versions of one kind, in two modules: merged into one CRD.
pub mod gadget_v1 {
    use super::*;

    /// A gadget.
    #[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kstruct(
        group = "example.com",
        version = "v1",
        kind = "Gadget",
        namespaced,
        plural = "gadgets",
        storage = false
    )]
    pub struct GadgetSpec {
        pub colour: String,
    }
}

/// The storage version.
pub mod gadget_v2 {
    use super::*;

    /// A gadget, with more colours.
    #[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kstruct(
        group = "example.com",
        version = "v2",
        kind = "Gadget",
        namespaced,
        status = "GadgetStatus"
    )]
    pub struct GadgetSpec {
        pub colours: Vec<String>,
    }

    /// What was seen.
    #[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct GadgetStatus {
        pub seen: bool,
    }
}

/// A spec that is an enum (kube#856), with an irregular plural.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(
    group = "example.com",
    version = "v1alpha1",
    kind = "Mouse",
    plural = "mice",
    namespaced,
    root = "MouseResource"
)]
#[serde(rename_all = "camelCase")]
pub enum MouseSpec {
    Wired { cable_metres: f64 },
    Wireless { battery: String },
}

/// Everything wrong with a CRD (empty when fine), and its pinned YAML.
fn check(name: &str, crd: &CustomResourceDefinition) -> Vec<String> {
    let mut problems = Vec::new();
    let yaml = crd.to_yaml();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/derive/crds/{name}.yaml"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &yaml).expect("write the snapshot");
    } else if std::fs::read_to_string(&path).ok().as_deref() != Some(yaml.as_str()) {
        problems.push(format!(
            "the CRD differs from {} (UPDATE_SNAPSHOTS=1 rewrites it):\n{yaml}",
            path.display()
        ));
    }
    // Read back as `kstruct lint` reads a file.
    let doc = kstruct::schema::yaml::to_json_strict(&yaml).expect("YAML");
    let storage = crd.spec.versions.iter().filter(|v| v.storage).count();
    if storage != 1 {
        problems.push(format!("{storage} storage versions"));
    }
    problems.extend(crd_document_problems(&doc));
    problems.into_iter().map(|p| format!("{name}: {p}")).collect()
}

#[test]
fn every_crd_is_pinned_and_accepted() {
    let merged =
        kstruct::merge_crds([gadget_v1::Gadget::crd(), gadget_v2::Gadget::crd()]).expect("one storage version");
    let crds = [
        ("widgets.example.com", Widget::try_crd().expect("Widget")),
        (
            "databaseclusters.db.example.com",
            DatabaseCluster::try_crd().expect("DatabaseCluster"),
        ),
        ("gadgets.example.com", merged),
        ("mice.example.com", MouseResource::try_crd().expect("Mouse")),
    ];
    let mut problems = Vec::new();
    for (name, crd) in &crds {
        assert_eq!(crd.metadata.name.as_deref(), Some(*name));
        problems.extend(check(name, crd));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The root types' outlines (what the derive checks resource paths against) agree with
/// their schemas.
#[test]
fn root_outlines_agree_with_the_schemas() {
    use kstruct_tests::outline::violations;
    let mut problems = violations::<Widget>();
    problems.extend(violations::<DatabaseCluster>());
    problems.extend(violations::<gadget_v1::Gadget>());
    problems.extend(violations::<gadget_v2::Gadget>());
    problems.extend(violations::<MouseResource>());
    problems.extend(violations::<Tagged>());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn identity_and_defaults() {
    let r = Widget::RESOURCE;
    assert_eq!(
        (
            r.api_version,
            r.plural,
            r.singular,
            r.list_kind,
            r.crd_name,
            r.namespaced
        ),
        (
            "example.com/v1",
            "widgets",
            "widget",
            "WidgetList",
            "widgets.example.com",
            false
        )
    );
    assert!(r.served && r.storage && !r.deprecated && !r.status_subresource);
    let crd = Widget::crd();
    assert_eq!(crd.spec.scope, "Cluster");
    // No empty lists: GitOps tools would see drift (kube#1680).
    let v = crd.to_value();
    assert_eq!(
        v["spec"]["names"],
        json!({"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"})
    );
    assert_eq!(
        v["spec"]["versions"][0].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["name", "schema", "served", "storage"]
    );
    assert_eq!(MouseResource::RESOURCE.plural, "mice");
}

#[test]
fn root_schema_is_what_the_api_server_expects() {
    let s = kstruct::schema_for::<DatabaseCluster>();
    assert_eq!(s["properties"]["metadata"], json!({"type": "object"}));
    assert_eq!(s["properties"]["apiVersion"]["type"], "string");
    assert_eq!(s["properties"]["kind"]["type"], "string");
    assert_eq!(s["required"], json!(["spec"]));
    assert_eq!(s["description"], "A replicated database cluster.");
    assert_eq!(
        s["properties"]["spec"]["description"],
        "A database cluster: the attributes an operator uses."
    );
    assert_eq!(s["properties"]["status"]["type"], "object");
    assert!(s["properties"]["status"].get("nullable").is_none());
    assert!(kstruct::schema_for::<Widget>()["properties"].get("status").is_none());
}

#[test]
fn objects_round_trip_with_api_version_and_kind_first() {
    let mut db = DatabaseCluster::new(
        "orders",
        DatabaseClusterSpec {
            engine: Engine::Postgres,
            version: "16.2".into(),
            replicas: 3,
            storage: Storage::default(),
            parameters: BTreeMap::from([("max_connections".into(), "200".into())]),
            users: vec![],
            backup: None,
        },
    );
    db.metadata.namespace = Some("shop".into());
    db.status = Some(DatabaseClusterStatus {
        replicas: 3,
        ready_replicas: 2,
        selector: None,
    });
    let text = serde_json::to_string(&db).unwrap();
    assert!(
        text.starts_with(r#"{"apiVersion":"db.example.com/v1beta2","kind":"DatabaseCluster","metadata":{"name":"orders","namespace":"shop"},"spec":{"#),
        "{text}"
    );
    let back: DatabaseCluster = serde_json::from_str(&text).unwrap();
    assert_eq!(back, db);
    // The API server, given this object and the CRD, stores it as it is, under Strict.
    let mut registry = kstruct::Registry::new();
    registry.add_yaml(&DatabaseCluster::crd().to_yaml(), "crd").unwrap();
    let strict = kstruct::DecodeOptions {
        field_validation: kstruct::FieldValidation::Strict,
        format: kstruct::BodyFormat::Json,
        validate: false,
        max_body_size: None,
        resource_version: None,
    };
    let decoded = registry.decode(text.as_bytes(), &strict).unwrap();
    assert!(decoded.warnings.is_empty(), "{:?}", decoded.warnings);
    assert_eq!(decoded.object, serde_json::to_value(&db).unwrap());
}

#[test]
fn reading_refuses_another_kind_or_version() {
    let ok: Widget = serde_json::from_value(json!({"spec": {"size": 1}})).unwrap();
    assert_eq!(ok.metadata, ObjectMeta::default());
    let with_null_meta: Widget =
        serde_json::from_value(json!({"metadata": null, "spec": {"size": 1}, "other": 1})).unwrap();
    assert_eq!(with_null_meta.spec.size, 1);
    let err = |v| serde_json::from_value::<Widget>(v).unwrap_err().to_string();
    assert_eq!(
        err(json!({"apiVersion": "example.com/v2", "kind": "Widget", "spec": {"size": 1}})),
        r#"apiVersion is "example.com/v2", expected "example.com/v1" (this type is Widget example.com/v1)"#
    );
    assert_eq!(
        err(json!({"apiVersion": "example.com/v1", "kind": "Gadget", "spec": {"size": 1}})),
        r#"kind is "Gadget", expected "Widget""#
    );
    assert_eq!(err(json!({"kind": "Widget"})), "missing field `spec`");
    assert_eq!(
        err(json!([])),
        "invalid type: sequence, expected a Widget object (example.com/v1)"
    );
}

#[test]
fn merging_needs_exactly_one_storage_version() {
    let err = |crds: Vec<CustomResourceDefinition>| kstruct::merge_crds(crds).unwrap_err().to_string();
    let mut v1 = gadget_v1::Gadget::crd();
    let v2 = gadget_v2::Gadget::crd();
    assert_eq!(
        err(vec![v1.clone()]),
        "cannot merge the CRDs of gadgets.example.com: no version is the storage version (exactly one must be: leave `storage` at its default on one of them)"
    );
    v1.spec.versions[0].storage = true;
    assert_eq!(
        err(vec![v1.clone(), v2.clone()]),
        "cannot merge the CRDs of gadgets.example.com: versions v1, v2 are all storage versions (exactly one must be: write `storage = false` on the others)"
    );
    assert_eq!(err(vec![]), "cannot merge CRDs: none were given");
    assert_eq!(
        err(vec![v2.clone(), Widget::crd()]),
        "cannot merge the CRDs of gadgets.example.com: widgets.example.com is another CRD"
    );
    let mut cluster = v2.clone();
    cluster.spec.scope = "Cluster".into();
    cluster.spec.versions[0].name = "v3".into();
    cluster.spec.versions[0].storage = false;
    assert_eq!(
        err(vec![v2, cluster]),
        "cannot merge the CRDs of gadgets.example.com: version v2 is Namespaced and version v3 is Cluster"
    );
}

/// A spec serde writes with its tag as a field; an annotation key with an upper-case prefix
/// (the API server lower-cases annotation keys before checking them).
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "type")]
#[kstruct(
    group = "example.com",
    version = "v1",
    kind = "Tagged",
    printcolumn(name = "Type", string = ".spec.type"),
    annotation("Example.com/Owner", "team")
)]
pub struct TaggedSpec {
    pub size: i32,
}

#[test]
fn the_tag_of_a_tagged_spec_is_a_field_for_paths() {
    let crd = Tagged::try_crd().expect("the CRD");
    assert_eq!(
        crd.spec.versions[0].additional_printer_columns[0].json_path,
        ".spec.type"
    );
    assert_eq!(crd.metadata.annotations["Example.com/Owner"], "team");
}

/// A default below the field's own minimum: nothing the derive can see at compile time, but
/// the API server refuses the CRD, and so does `try_crd()`.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(group = "example.com", version = "v1", kind = "Dial")]
pub struct DialSpec {
    #[kstruct(minimum = 1, default = 0)]
    pub level: i64,
}

#[test]
fn try_crd_reports_what_the_api_server_would_refuse() {
    let err = Dial::try_crd().expect_err("a default below the minimum");
    let text = err.to_string();
    assert!(
        text.contains(
            "the API server would refuse the CRD: spec.validation.openAPIV3Schema.properties[spec].properties[level].default: \
             Invalid value: 0:  in body should be greater than or equal to 1"
        ),
        "{text}"
    );
}

/// A status whose schema is written by hand: the derive cannot see its fields, so the
/// printer column below it is checked when the CRD is generated.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct HandStatus {
    pub phase: String,
}

impl CustomResourceSchema for HandStatus {
    fn schema(generator: &mut kstruct::Generator) -> kstruct::schema::Structural {
        let mut s = kstruct::schema::Structural::default();
        s.generic.type_ = "object".into();
        s.properties.insert("phase".into(), generator.subschema_for::<String>());
        s
    }
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(
    group = "example.com",
    version = "v1",
    kind = "Hand",
    status = "HandStatus",
    printcolumn(name = "Phase", string = ".status.phse")
)]
pub struct HandSpec {
    pub size: i32,
}

/// `crd()` never emits a CRD without what the attributes ask for: where only run time can
/// tell (a hand-written schema), it panics with what `try_crd()` reports.
#[test]
fn crd_panics_rather_than_drop_what_was_asked() {
    let expected = "a printcolumn's json_path \".status.phse\": the status has no field `phse` (did you mean `phase`?); \
                    its fields are `phase`";
    let err = Hand::try_crd().expect_err("a path the status lacks").to_string();
    assert!(err.contains(expected), "{err}");
    let panic = std::panic::catch_unwind(Hand::crd).expect_err("crd() panics");
    let message = panic.downcast_ref::<String>().expect("a message");
    assert!(message.contains(expected), "{message}");
    assert!(message.contains("`try_crd()` returns this as an error"), "{message}");
}

/// Items of a list-type map pair with their old values by key, even when their type is an
/// atomic struct (the builder drops `map_type` there): an immutable field in them compiles and
/// the API server accepts the CRD (within the cost budget thanks to the bounds).
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(map_type = "atomic")]
pub struct PortSpec {
    pub name: String,
    #[kstruct(immutable, max_length = 16)]
    pub protocol: String,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(group = "example.com", version = "v1", kind = "Service")]
pub struct ServiceSpec {
    #[kstruct(list_map_keys = ["name"], max_items = 64)]
    pub ports: Vec<PortSpec>,
}

/// Without bounds, the same immutable field costs more than the API server allows: a string of
/// unknown length compared in every item of a list of unknown length.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct UnboundedPort {
    pub name: String,
    #[kstruct(immutable)]
    pub protocol: String,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(group = "example.com", version = "v1", kind = "UnboundedService")]
pub struct UnboundedServiceSpec {
    #[kstruct(list_map_keys = ["name"])]
    pub ports: Vec<UnboundedPort>,
}

#[test]
fn rules_over_budget_are_refused_when_the_crd_is_built() {
    let err = UnboundedService::try_crd()
        .expect_err("over the cost budget")
        .to_string();
    assert!(
        err.contains("properties[protocol].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x"),
        "{err}"
    );
}

#[test]
fn transition_rules_in_keyed_items_of_atomic_types() {
    assert!(kstruct_tests::outline::violations::<Service>().is_empty());
    let crd = Service::try_crd().expect("the API server accepts it");
    assert_eq!(crd.spec.versions.len(), 1);
}
