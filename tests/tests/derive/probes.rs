//! The 22 probes: the Rust shapes on which kube-rs 5.0 with schemars
//! panics, emits CRDs the API server rejects, or emits schemas that reject serde's own
//! output. Each supported probe passes the serde contract and the CRD checks of
//! `schemas.rs`, and its typed fields stay typed; the two refused shapes (direct recursion
//! without opt-in, `()`) are compile errors pinned in `derive/tests/ui`.

use std::collections::{BTreeMap, HashSet};

use kstruct::CustomResourceSchema;
use kstruct_tests::derive_contract::Contract;
use proptest::prelude::*;
use proptest_derive::Arbitrary;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::types::{few, few_map, json_object, json_value};

/// Runs the contract on `cases` values and the CRD checks, then returns the schema as JSON
/// for the probe's own assertions.
fn probe<T>(name: &str, cases: u32) -> Value
where
    T: CustomResourceSchema + Arbitrary + Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let problems = super::schemas::check::<T>(&format!("probe_{name}"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let contract = Contract::of::<T>();
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(value: T)| {
        if let Err(e) = contract.check(&value) {
            return Err(TestCaseError::fail(format!("{name}: {e}")));
        }
    });
    kstruct::schema_for::<T>()
}

/// `schema` at `pointer` (a JSON pointer into the schema).
fn at<'a>(schema: &'a Value, pointer: &str) -> &'a Value {
    schema
        .pointer(pointer)
        .unwrap_or_else(|| panic!("{pointer} not in {schema:#}"))
}

// 01: nested structs, Option, Vec, maps, Box, docs, rename_all, u64/f32, HashSet, tuples,
// arrays. kube-rs: the tuple becomes `items: [..]`, which the API server rejects.

/// A nested spec.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct Nested {
    /// The inner part.
    pub inner_part: Inner,
    pub maybe_inner: Option<Inner>,
    #[proptest(strategy = "few()")]
    pub inners: Vec<Inner>,
    #[proptest(strategy = "few_map()")]
    pub by_name: BTreeMap<String, Inner>,
    pub boxed: Box<Inner>,
    #[proptest(strategy = "0..=i64::MAX as u64")]
    pub big: u64,
    pub ratio: f32,
    #[proptest(strategy = "few::<String>().prop_map(|v| v.into_iter().collect())")]
    pub tags: HashSet<String>,
    pub pair: (String, i32),
    pub address: [u8; 4],
}

/// Inner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Inner {
    pub name: String,
}

#[test]
fn p01_nested() {
    let s = probe::<Nested>("p01", 64);
    assert_eq!(
        at(&s, "/properties/pair/items"),
        &json!({"x-kubernetes-int-or-string": true})
    );
    assert_eq!(at(&s, "/properties/tags/x-kubernetes-list-type"), "set");
    assert_eq!(at(&s, "/properties/address/maxItems"), 4);
    assert_eq!(at(&s, "/properties/boxed/properties/name/type"), "string");
    assert_eq!(at(&s, "/properties/innerPart/description"), "The inner part.");
}

// 02: unit enums, plain and documented; required, Option, Vec.

/// A plain colour.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub enum PlainColor {
    Red,
    Green,
    Blue,
}

/// A log level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Errors only.
    Error,
    /// Everything.
    Debug,
    /// The usual.
    Info,
}

/// Unit enums.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct UnitEnums {
    pub color: PlainColor,
    pub maybe: Option<PlainColor>,
    #[proptest(strategy = "few()")]
    pub levels: Vec<Level>,
    pub level: Level,
}

#[test]
fn p02_unit_enums() {
    let s = probe::<UnitEnums>("p02", 64);
    // Declaration order, no `null` in the enum, a non-nullable optional field.
    assert_eq!(at(&s, "/properties/level/enum"), &json!(["error", "debug", "info"]));
    assert_eq!(
        at(&s, "/properties/maybe"),
        &json!({"type": "string", "enum": ["Red", "Green", "Blue"], "description": "A plain colour."})
    );
}

// 03, 03b: externally tagged data enums, with struct, newtype and tuple variants.

/// Where from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub enum Origin {
    /// A git repository.
    Git { url: String, branch: Option<String> },
    /// A URL.
    Http(String),
    /// A point (kube-rs: `items: [..]`, rejected).
    Point(i32, i32),
}

/// External enums.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct ExternalEnums {
    pub from: Origin,
    pub maybe_from: Option<Origin>,
}

#[test]
fn p03_external_data_enums_and_p03b_tuple_variants() {
    let s = probe::<ExternalEnums>("p03", 64);
    assert_eq!(
        at(&s, "/properties/from/oneOf"),
        &json!([{"required": ["git"]}, {"required": ["http"]}, {"required": ["point"]}])
    );
    assert_eq!(
        at(&s, "/properties/from/properties/point"),
        &json!({"type": "array", "items": {"type": "integer", "format": "int32"}, "minItems": 2, "maxItems": 2,
                "description": "A point (kube-rs: `items: [..]`, rejected)."})
    );
}

// 04: unit and data variants mixed (kube-rs panics).

/// A mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub enum Power {
    Off,
    Auto,
    Manual { level: u8 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Mixed {
    pub power: Power,
}

#[test]
fn p04_mixed_unit_and_data_variants() {
    let s = probe::<Mixed>("p04", 64);
    let power = at(&s, "/properties/power");
    assert_eq!(power["pattern"], "^(?:Off|Auto)$");
    assert_eq!(power["maxProperties"], 1);
    assert_eq!(at(power, "/properties/Manual/properties/level/type"), "integer");
}

// 05, 05b: internally and adjacently tagged (kube-rs panics on both).

/// A check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(tag = "type")]
pub enum Check {
    Tcp { port: u16 },
    Http { path: String },
}

/// A value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(tag = "kind", content = "data")]
pub enum Datum {
    Text(String),
    Number(i64),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Tagged {
    pub check: Check,
    pub datum: Datum,
}

#[test]
fn p05_internally_and_p05b_adjacently_tagged() {
    let s = probe::<Tagged>("p05", 64);
    assert_eq!(
        at(&s, "/properties/check/properties/type/enum"),
        &json!(["Tcp", "Http"])
    );
    assert_eq!(at(&s, "/properties/check/properties/port/type"), "integer");
    assert_eq!(
        at(&s, "/properties/datum/properties/data"),
        &json!({"x-kubernetes-int-or-string": true})
    );
    assert_eq!(at(&s, "/properties/datum/required"), &json!(["kind", "data"]));
}

// 06, 06b: untagged enums; kube-rs erases the string variant's type (06b), so its schema
// rejects serde's own `"just-a-string"`.

/// A reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(untagged)]
pub enum Ref {
    ByReference { reference: String },
    ByValue { value: i64 },
}

/// A target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(untagged)]
pub enum ShortOrLong {
    Short(String),
    Long { name: String, namespace: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Untagged {
    pub reference: Ref,
    pub target: ShortOrLong,
}

#[test]
fn p06_untagged_objects_and_p06b_string_or_struct() {
    let s = probe::<Untagged>("p06", 64);
    assert_eq!(
        at(&s, "/properties/reference/anyOf"),
        &json!([{"required": ["reference"]}, {"required": ["value"]}])
    );
    let target = at(&s, "/properties/target");
    assert!(target.get("type").is_none(), "strings and objects: no single type");
    assert_eq!(at(target, "/properties/name/type"), "string");
    let contract = Contract::of::<Untagged>();
    contract
        .check(&Untagged {
            reference: Ref::ByValue { value: 1 },
            target: ShortOrLong::Short("just-a-string".into()),
        })
        .unwrap();
}

// 07, 07b: flattened struct, map and externally tagged enum.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Common {
    pub owner: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct FlattenStructAndMap {
    pub name: String,
    #[serde(flatten)]
    pub common: Common,
    #[serde(flatten)]
    #[proptest(strategy = "prop::collection::btree_map(\"[A-Z][a-z]{0,3}\", json_value(), 0..3)")]
    pub extra: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct FlattenEnum {
    pub name: String,
    #[serde(flatten)]
    pub from: Origin,
}

#[test]
fn p07_flattened_struct_and_map_and_p07b_enum() {
    let s = probe::<FlattenStructAndMap>("p07", 64);
    assert_eq!(at(&s, "/x-kubernetes-preserve-unknown-fields"), true);
    assert_eq!(at(&s, "/properties/owner/type"), "string", "known fields stay typed");
    assert_eq!(at(&s, "/required"), &json!(["name", "owner"]));
    let s = probe::<FlattenEnum>("p07b", 64);
    assert_eq!(
        at(&s, "/allOf"),
        &json!([{"oneOf": [{"required": ["git"]}, {"required": ["http"]}, {"required": ["point"]}]}])
    );
    assert!(s.get("x-kubernetes-preserve-unknown-fields").is_none());
}

// 08: free-form JSON, a label selector, a pod template (kube-rs: `{}`, rejected). Here, the
// same shapes as Rust types of the test (k8s-openapi's own types: `tests/interop.rs`).

/// A label selector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[proptest(strategy = "few_map()")]
    pub match_labels: BTreeMap<String, String>,
}

/// A pod template: an embedded resource whose spec is kept as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[kstruct(embedded_resource)]
pub struct PodTemplate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[proptest(
        strategy = "proptest::option::of(Just(serde_json::json!({\"labels\": {\"app\": \"x\"}}).as_object().cloned().unwrap_or_default()))"
    )]
    pub metadata: Option<serde_json::Map<String, Value>>,
    #[kstruct(preserve_unknown_fields)]
    #[proptest(strategy = "json_object().prop_map(Value::Object)")]
    pub spec: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct FreeForm {
    #[proptest(strategy = "json_value()")]
    pub config: Value,
    #[proptest(strategy = "proptest::option::of(json_value().prop_filter(\"not null\", |v| !v.is_null()))")]
    pub maybe_config: Option<Value>,
    #[proptest(strategy = "prop::collection::vec(json_value(), 0..3)")]
    pub value_list: Vec<Value>,
    #[proptest(strategy = "prop::collection::btree_map(\"[a-z]{1,3}\", json_value(), 0..3)")]
    pub value_map: BTreeMap<String, Value>,
    pub selector: LabelSelector,
    pub template: PodTemplate,
}

#[test]
fn p08_free_form_json_selector_template() {
    let s = probe::<FreeForm>("p08", 64);
    let free = json!({"x-kubernetes-preserve-unknown-fields": true, "nullable": true});
    assert_eq!(at(&s, "/properties/config"), &free);
    assert_eq!(at(&s, "/properties/maybeConfig"), &free);
    assert_eq!(at(&s, "/properties/valueList/items"), &free);
    assert_eq!(at(&s, "/properties/template/x-kubernetes-embedded-resource"), true);
    assert_eq!(at(&s, "/properties/template/type"), "object");
}

// 09: int-or-string and quantities.

/// An integer or a string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(untagged)]
pub enum IntOrString {
    Int(i32),
    String(#[proptest(strategy = "\"[a-z%]{0,4}\"")] String),
}

/// A quantity (`1Gi`, `500m`), as a string with Kubernetes' pattern.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[kstruct(
    pattern = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$"
)]
pub struct Quantity(#[proptest(strategy = "\"[0-9]{1,3}(Gi|Mi|m|k)?\"")] pub String);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Quantities {
    pub port: IntOrString,
    pub maybe_port: Option<IntOrString>,
    #[proptest(strategy = "few()")]
    pub ports: Vec<IntOrString>,
    #[proptest(strategy = "few_map()")]
    pub named_ports: BTreeMap<String, IntOrString>,
    pub memory: Quantity,
    pub maybe_memory: Option<Quantity>,
}

#[test]
fn p09_int_or_string_and_quantities() {
    let s = probe::<Quantities>("p09", 64);
    assert_eq!(
        at(&s, "/properties/port"),
        &json!({"x-kubernetes-int-or-string": true, "description": "An integer or a string."})
    );
    assert_eq!(at(&s, "/properties/memory/type"), "string");
}

// 10, 10b: serde defaults (functions, Default, with skip_serializing_if) and a container
// default.

/// A size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub enum Size {
    Small,
    Large,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Threads {
    pub threads: u8,
    pub verbose: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Defaults {
    #[serde(default = "three")]
    pub count: i32,
    #[serde(default = "image")]
    pub image: String,
    #[serde(default = "large")]
    pub size: Size,
    #[serde(default = "threads")]
    pub threads: Threads,
    #[serde(default)]
    pub flag: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[kstruct(default = 7)]
    pub seven: u16,
}

fn three() -> i32 {
    3
}
fn image() -> String {
    "nginx:latest".into()
}
fn large() -> Size {
    Size::Large
}
fn threads() -> Threads {
    Threads {
        threads: 4,
        verbose: false,
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(default)]
pub struct ContainerDefault {
    pub threads: u8,
    pub verbose: bool,
}

#[test]
fn p10_defaults_and_p10b_container_default() {
    let s = probe::<Defaults>("p10", 64);
    assert_eq!(at(&s, "/properties/count/default"), 3);
    assert_eq!(at(&s, "/properties/image/default"), "nginx:latest");
    assert_eq!(at(&s, "/properties/size/default"), "Large");
    assert_eq!(
        at(&s, "/properties/threads/default"),
        &json!({"threads": 4, "verbose": false})
    );
    assert_eq!(at(&s, "/properties/flag/default"), false);
    assert!(s.pointer("/properties/note/default").is_none());
    assert_eq!(at(&s, "/properties/seven/default"), 7);
    assert!(s.get("required").is_none(), "every field has a default");
    let s = probe::<ContainerDefault>("p10b", 32);
    assert_eq!(at(&s, "/properties/threads/default"), 0);
    assert!(s.get("required").is_none());
}

// 11: CEL rules, list and map types, map type on a struct, lengths, patterns, ranges.

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Item {
    pub name: String,
    pub weight: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[kstruct(validation(rule = "self.items.all(i, i.weight <= self.maxWeight)", message = "too heavy"))]
#[serde(rename_all = "camelCase")]
pub struct Extensions {
    #[kstruct(list_type = "map", list_map_key = "name", max_items = 16)]
    #[proptest(
        strategy = "prop::collection::btree_map(\"[a-z]{1,4}\", any::<u8>(), 0..4).prop_map(|m| m.into_iter().map(|(name, weight)| Item { name, weight }).collect())"
    )]
    pub items: Vec<Item>,
    #[kstruct(list_type = "set")]
    #[proptest(
        strategy = "few::<String>().prop_map(|v| v.into_iter().collect::<std::collections::BTreeSet<_>>().into_iter().collect())"
    )]
    pub tags: Vec<String>,
    #[kstruct(map_type = "atomic")]
    #[proptest(strategy = "few_map()")]
    pub labels: BTreeMap<String, String>,
    #[kstruct(struct_type = "atomic")]
    pub point: Item,
    /// A set of objects: the items become atomic, as the API server requires.
    #[kstruct(list_type = "set")]
    #[proptest(
        strategy = "few::<Item>().prop_map(|v| { let mut v = v; v.sort_by(|a, b| a.name.cmp(&b.name)); v.dedup(); v })"
    )]
    pub unique_items: Vec<Item>,
    #[kstruct(min_length = 1, max_length = 8, pattern = "^[a-z]+$")]
    #[proptest(strategy = "\"[a-z]{1,8}\"")]
    pub name: String,
    #[kstruct(minimum = 1, maximum = 255)]
    #[proptest(strategy = "1..=255u16")]
    pub max_weight: u16,
}

#[test]
fn p11_rules_list_and_map_types() {
    let s = probe::<Extensions>("p11", 64);
    assert_eq!(
        at(&s, "/x-kubernetes-validations/0/rule"),
        "self.items.all(i, i.weight <= self.maxWeight)"
    );
    assert_eq!(at(&s, "/properties/items/x-kubernetes-list-map-keys"), &json!(["name"]));
    assert_eq!(at(&s, "/properties/tags/x-kubernetes-list-type"), "set");
    assert_eq!(at(&s, "/properties/point/x-kubernetes-map-type"), "atomic");
    assert_eq!(at(&s, "/properties/uniqueItems/x-kubernetes-list-type"), "set");
    assert_eq!(at(&s, "/properties/uniqueItems/items/x-kubernetes-map-type"), "atomic");
}

// 12: recursion. Without opt-in: a compile error (derive/tests/ui/recursive_direct.rs,
// recursive_indirect.rs). With `preserve_unknown_fields`: the subtree is kept as it is.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct TreeNode {
    pub name: String,
    #[kstruct(preserve_unknown_fields)]
    #[proptest(strategy = "Just(Vec::new())")]
    pub children: Vec<TreeNode>,
}

#[test]
fn p12_recursion_with_opt_in() {
    let s = probe::<TreeNode>("p12", 16);
    assert_eq!(
        at(&s, "/properties/children/items"),
        &json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    );
}

// 13: nested options, option of collections and enums, char. `()` is a compile error
// (derive/tests/ui/unit_field.rs).

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct Options {
    /// `Some(None)` is written as `null`, which serde itself reads as `None`: not generated.
    #[proptest(strategy = "proptest::option::of(any::<String>().prop_map(Some))")]
    pub double_opt: Option<Option<String>>,
    #[proptest(strategy = "proptest::option::of(few())")]
    pub opt_vec: Option<Vec<PlainColor>>,
    #[proptest(strategy = "few()")]
    pub vec_opt: Vec<Option<i32>>,
    #[proptest(strategy = "few_map()")]
    pub map_opt: BTreeMap<String, Option<PlainColor>>,
    pub opt_box: Option<Box<PlainColor>>,
    pub letter: char,
}

#[test]
fn p13_options_and_char() {
    let s = probe::<Options>("p13", 64);
    assert_eq!(
        at(&s, "/properties/mapOpt/additionalProperties/allOf"),
        &json!([{"enum": ["Red", "Green", "Blue"]}]),
        "a kept null cannot meet an enum: the enum moves into allOf"
    );
    assert_eq!(at(&s, "/properties/letter/maxLength"), 1);
}

// 14: kube-rs regressions: a field's doc on `Option<DocEnum>` (overwritten by the enum's in
// kube-rs), `Option<Quantity>` with a doc, a flattened untagged enum with a nested enum
// and an empty variant.

/// Doc comment on the enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub enum DocEnum {
    A,
    B,
}

/// A selector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(untagged)]
pub enum Selection {
    ByLevel { level: Level },
    ByName { name: String },
    Everything {},
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
pub struct Regressions {
    /// With a doc-comment here (issue #1906).
    pub documented: Option<DocEnum>,
    /// The memory limit.
    pub memory: Option<Quantity>,
    #[serde(flatten)]
    pub selection: Selection,
}

#[test]
fn p14_regressions() {
    let s = probe::<Regressions>("p14", 64);
    assert_eq!(
        at(&s, "/properties/documented/description"),
        "With a doc-comment here (issue #1906)."
    );
    assert_eq!(at(&s, "/properties/memory/description"), "The memory limit.");
    assert_eq!(at(&s, "/properties/level/enum"), &json!(["error", "debug", "info"]));
    assert_eq!(at(&s, "/properties/name/type"), "string");
}

// 15, 15b: fields at the root (kube-rs `no_spec`; the CRD option is the next issue's) and a
// spec that is an enum.

#[test]
fn p15_fields_at_the_root_and_p15b_enum_spec() {
    // `schemas::check` also lints every struct as a version's whole root schema.
    probe::<Inner>("p15", 16);
    let s = probe::<Origin>("p15b", 64);
    assert_eq!(at(&s, "/type"), "object");
}

// 16: wrappers of the above.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct Wrappers {
    pub opt_untagged: Option<Ref>,
    pub opt_string_or_struct: Option<ShortOrLong>,
    #[proptest(strategy = "few()")]
    pub vec_tagged: Vec<Check>,
    #[proptest(strategy = "proptest::option::of(few())")]
    pub opt_vec_tagged: Option<Vec<Check>>,
    #[proptest(strategy = "few_map()")]
    pub map_tagged: BTreeMap<String, Check>,
    #[proptest(strategy = "few()")]
    pub vec_opt_doc_enum: Vec<Option<DocEnum>>,
    #[proptest(strategy = "proptest::option::of(prop::collection::btree_map(\"[a-z]{1,3}\", json_value(), 0..3))")]
    pub opt_map_value: Option<BTreeMap<String, Value>>,
    #[serde(flatten)]
    pub opt_flattened: Option<Common>,
}

#[test]
fn p16_wrappers() {
    let s = probe::<Wrappers>("p16", 64);
    let contract = Contract::of::<Wrappers>();
    let mut value = Wrappers {
        opt_untagged: None,
        opt_string_or_struct: Some(ShortOrLong::Short("s".into())),
        vec_tagged: vec![],
        opt_vec_tagged: None,
        map_tagged: BTreeMap::new(),
        vec_opt_doc_enum: vec![None, Some(DocEnum::A)],
        opt_map_value: None,
        opt_flattened: None,
    };
    contract.check(&value).unwrap();
    value.opt_flattened = Some(Common { owner: "o".into() });
    contract.check(&value).unwrap();
    assert_eq!(at(&s, "/properties/owner/type"), "string");
    assert_eq!(
        at(&s, "/required"),
        &json!(["vecTagged", "mapTagged", "vecOptDocEnum"]),
        "an Option flattened adds no requirement"
    );
}
