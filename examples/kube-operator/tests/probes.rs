//! The 22 probes (the Rust shapes on which kube-rs 5.0 alone panics or
//! emits CRDs the API server rejects), each the spec of a kube `#[derive(CustomResource)]`
//! whose spec derives `CustomResourceSchema` instead of `JsonSchema`: kube's `crd()` does not
//! panic, its CRD passes the checks behind `kstruct lint` and the API server's other schema
//! rules, and the spec's schema in it is exactly kstruct's (kube's rewrite changes nothing).

#![allow(missing_docs, dead_code)]

use std::collections::{BTreeMap, HashSet};

use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kstruct::CustomResourceSchema;
use kstruct_tests::crd_rules::crd_document_problems;
use kube::{CustomResource, CustomResourceExt};
use serde::{Deserialize, Serialize};
use serde_json::Value;

macro_rules! derives {
    ($($item:item)*) => {$(
        #[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
        $item
    )*};
}

derives! {
    pub struct Inner { pub name: String }
    /// Documented colours.
    pub enum DocColor { Red, Green }
    pub enum PlainColor { Red, Green, Blue }
    pub enum Origin { Git { url: String }, S3(String), Point(i32, i32) }
    pub enum Power { Off, Auto, Manual { level: u8 } }
    #[serde(tag = "type")]
    pub enum Check { Tcp { port: u16 }, Http { path: String } }
    #[serde(tag = "kind", content = "data")]
    pub enum Datum { Text(String), Number(i64) }
    #[serde(untagged)]
    pub enum Ref { ByName { name: String }, ByValue { value: String } }
    #[serde(untagged)]
    pub enum ShortOrLong { Short(String), Long { name: String, namespace: String } }
    pub struct Common { pub owner: String }
    pub enum Mode { Fast { threads: u8 }, Slow { delay: u32 } }
    pub struct Threads { pub count: u8 }
    pub struct Item { pub name: String, pub value: i32 }
    pub struct TreeNode { pub name: String, #[kstruct(preserve_unknown_fields)] pub children: Vec<TreeNode> }
    #[serde(untagged)]
    pub enum Selection { ByColor { color: PlainColor }, ByName { name: String }, Everything {} }
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct Tuning {
    pub threads: u8,
    pub verbose: bool,
}

fn three() -> i32 {
    3
}
fn image() -> String {
    "nginx:latest".into()
}
fn fast() -> Mode {
    Mode::Fast { threads: 2 }
}
fn threads() -> Threads {
    Threads { count: 7 }
}

macro_rules! probe {
    ($kind:literal, $spec:ident { $($body:tt)* }) => {
        #[derive(CustomResource, CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "probes.example.com", version = "v1", kind = $kind, namespaced)]
        #[serde(rename_all = "camelCase")]
        pub struct $spec { $($body)* }
    };
}

probe!("P01", P01Spec {
    /// The inner part.
    pub inner_part: Inner, pub maybe_inner: Option<Inner>, pub inners: Vec<Inner>,
    pub by_name: BTreeMap<String, Inner>, pub boxed: Box<Inner>, pub big: u64, pub ratio: f32,
    pub tags: HashSet<String>, pub pair: (String, i32), pub ip: [u8; 4],
});
probe!("P02", P02Spec {
    pub plain: PlainColor, pub documented: DocColor, pub maybe: Option<PlainColor>, pub many: Vec<PlainColor>,
});
probe!("P03", P03Spec { pub origin: Origin, pub maybe_origin: Option<Origin> });
probe!("P03b", P03bSpec { pub point: Origin });
probe!("P04", P04Spec { pub power: Power });
probe!("P05", P05Spec { pub check: Check });
probe!("P05b", P05bSpec { pub datum: Datum });
probe!("P06", P06Spec { pub reference: Ref });
probe!("P06b", P06bSpec { pub target: ShortOrLong });
probe!("P07", P07Spec { #[serde(flatten)] pub common: Common, #[serde(flatten)] pub extra: BTreeMap<String, Value> });
probe!("P07b", P07bSpec { pub name: String, #[serde(flatten)] pub mode: Mode });
probe!("P08", P08Spec {
    pub config: Value, pub maybe_config: Option<Value>, pub value_list: Vec<Value>,
    pub value_map: BTreeMap<String, Value>, pub selector: LabelSelector, pub template: PodTemplateSpec,
});
probe!("P09", P09Spec {
    pub port: IntOrString, pub maybe_port: Option<IntOrString>, pub ports: Vec<IntOrString>,
    pub port_map: BTreeMap<String, IntOrString>, pub memory: Quantity, pub maybe_memory: Option<Quantity>,
});
probe!("P10", P10Spec {
    #[serde(default = "three")] pub replicas: i32, #[serde(default = "image")] pub image: String,
    #[serde(default = "fast")] pub mode: Mode, #[serde(default = "threads")] pub threads: Threads,
    #[serde(default)] pub verbose: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")] pub note: Option<String>,
});
probe!("P10b", P10bSpec { #[serde(default)] pub tuning: Tuning });
probe!("P11", P11Spec {
    #[kstruct(validation(rule = "self.minReplicas <= self.maxReplicas", message = "min above max"))]
    pub limits: Limits,
    #[kstruct(list_type = "map", list_map_keys = ["name"])] pub items: Vec<Item>,
    #[kstruct(list_type = "set")] pub names: Vec<String>,
    #[kstruct(map_type = "atomic")] pub labels: BTreeMap<String, String>,
    #[kstruct(min_length = 1, max_length = 63, pattern = "^[a-z]+$")] pub slug: String,
    #[kstruct(minimum = 1, maximum = 10)] pub weight: i32,
    #[kstruct(embedded_resource)] pub resource: Value,
});
derives! {
    #[serde(rename_all = "camelCase")]
    pub struct Limits { pub min_replicas: i32, pub max_replicas: i32 }
}
probe!("P12", P12Spec { pub tree: TreeNode });
probe!("P13", P13Spec {
    pub double_opt: Option<Option<String>>, pub opt_vec: Option<Vec<PlainColor>>, pub vec_opt: Vec<Option<i32>>,
    pub map_opt: BTreeMap<String, Option<PlainColor>>, pub opt_box: Option<Box<Power>>, pub letter: char,
});
probe!("P14", P14Spec {
    /// With a doc-comment here (issue #1906).
    pub documented: Option<DocColor>,
    /// A documented quantity.
    pub quantity: Option<Quantity>,
    #[serde(flatten)] pub selection: Selection,
});
#[derive(CustomResource, CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "probes.example.com", version = "v1", kind = "P15", namespaced, no_spec)]
pub struct P15Spec {
    pub size: u8,
    pub name: Option<String>,
}
#[derive(CustomResource, CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "probes.example.com", version = "v1", kind = "P15b", namespaced)]
pub enum P15bSpec {
    Small { size: u8 },
    Large { size: u32, shards: u8 },
}
probe!("P16", P16Spec {
    pub opt_untagged: Option<Ref>, pub opt_string_or_struct: Option<ShortOrLong>, pub checks: Vec<Check>,
    pub opt_checks: Option<Vec<Check>>, pub check_map: BTreeMap<String, Check>, pub colors: Vec<Option<DocColor>>,
    pub opt_map: Option<BTreeMap<String, Value>>, #[serde(flatten)] pub common: Option<Common>,
});

/// Everything `kstruct lint` and the API server's other schema rules find in a CRD, and
/// whether the spec's schema is kstruct's.
fn check<K: CustomResourceExt, S: CustomResourceSchema>(kind: &str) -> Vec<String> {
    let crd = match std::panic::catch_unwind(K::crd) {
        Ok(crd) => serde_json::to_value(crd).expect("a CRD serializes"),
        Err(_) => return vec![format!("{kind}: kube's crd() panicked")],
    };
    let mut problems = crd_document_problems(&crd);
    let spec = normalize(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].clone());
    let ours = normalize(kstruct::schema_for::<S>());
    if spec != ours {
        problems.push(format!("kube changed the spec's schema:\n kube: {spec}\n ours: {ours}"));
    }
    problems.into_iter().map(|p| format!("{kind}: {p}")).collect()
}

/// Probe 15 (`no_spec`): the spec's fields are the root's, next to `metadata`.
fn check15() -> Vec<String> {
    let crd = serde_json::to_value(P15::crd()).unwrap();
    let mut problems = crd_document_problems(&crd);
    let root = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    if root["size"]["type"] != "integer" || root["name"]["type"] != "string" {
        problems.push(format!("the spec's fields are not at the root: {root}"));
    }
    problems.into_iter().map(|p| format!("15: {p}")).collect()
}

/// The schema up to what kube's round trip changes without changing its meaning: numbers
/// become floats (`minimum: 0.0`), `required` is sorted, an optional int-or-string gets
/// `nullable` (kube's `OptionalIntOrString`), and kstruct's `{allOf: [alternative]}` (see
/// `kstruct::interop::schemars`) is the alternative.
fn normalize(v: Value) -> Value {
    match v {
        Value::Number(n) => serde_json::json!(n.as_f64()),
        Value::Array(a) => Value::Array(a.into_iter().map(normalize).collect()),
        Value::Object(m) => {
            if m.len() == 1
                && let Some(Value::Array(all)) = m.get("allOf")
                && all.len() == 1
                && all[0].get("properties").is_some()
            {
                return normalize(all[0].clone());
            }
            let int_or_string = m.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true));
            let mut out = serde_json::Map::new();
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("required", Value::Array(mut r)) => {
                        r.sort_by_key(|x| x.to_string());
                        out.insert(k, Value::Array(r));
                    }
                    ("nullable", _) if int_or_string => {}
                    (_, v) => {
                        out.insert(k, normalize(v));
                    }
                }
            }
            Value::Object(out)
        }
        other => other,
    }
}

#[test]
fn kube_with_kstruct_schemas_passes_lint_on_every_probe() {
    let results = [
        check::<P01, P01Spec>("01"),
        check::<P02, P02Spec>("02"),
        check::<P03, P03Spec>("03"),
        check::<P03b, P03bSpec>("03b"),
        check::<P04, P04Spec>("04"),
        check::<P05, P05Spec>("05"),
        check::<P05b, P05bSpec>("05b"),
        check::<P06, P06Spec>("06"),
        check::<P06b, P06bSpec>("06b"),
        check::<P07, P07Spec>("07"),
        check::<P07b, P07bSpec>("07b"),
        check::<P08, P08Spec>("08"),
        check::<P09, P09Spec>("09"),
        check::<P10, P10Spec>("10"),
        check::<P10b, P10bSpec>("10b"),
        check::<P11, P11Spec>("11"),
        check::<P12, P12Spec>("12"),
        check::<P13, P13Spec>("13"),
        check::<P14, P14Spec>("14"),
        check15(),
        check::<P15b, P15bSpec>("15b"),
        check::<P16, P16Spec>("16"),
    ];
    // The example's own resource too.
    let example =
        check::<kstruct_example_kube_operator::WorkBatch, kstruct_example_kube_operator::WorkBatchSpec>("WorkBatch");
    assert!(example.is_empty(), "{}", example.join("\n"));
    let failed: Vec<&String> = results.iter().flatten().collect();
    println!(
        "kube-rs 5 + kstruct: {} of {} probe CRDs pass",
        results.iter().filter(|r| r.is_empty()).count(),
        results.len()
    );
    assert!(
        failed.is_empty(),
        "{}",
        failed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}
