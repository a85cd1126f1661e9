//! Cases a review found the derive getting wrong, each now checked: the serde contract on
//! hand-picked values, or what `try_schema_for` must report.

// Some types here exist for their schema only.
#![allow(dead_code)]

use std::collections::BTreeMap;

use kstruct::CustomResourceSchema;
use kstruct_tests::derive_contract::Contract;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A type with a default of its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[kstruct(default = Level::Info)]
enum Level {
    Info,
    Debug,
}

/// An `Option` of it keeps its `null` (else the API server fills in `Info`); a variant holding
/// it has no default (else `{"B": 1}` would gain an `A`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct TypeDefaults {
    level: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skipped: Option<Level>,
    either: Either,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
enum Either {
    A(Level),
    B(u32),
}

#[test]
fn a_types_own_default_does_not_fill_in_none_or_other_variants() {
    let c = Contract::of::<TypeDefaults>();
    for v in [
        TypeDefaults {
            level: None,
            skipped: None,
            either: Either::B(1),
        },
        TypeDefaults {
            level: Some(Level::Debug),
            skipped: Some(Level::Debug),
            either: Either::A(Level::Debug),
        },
    ] {
        c.check(&v).unwrap();
    }
}

fn seven() -> u32 {
    7
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(deny_unknown_fields)]
struct SA {
    a: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct SB {
    a: u32,
    #[serde(default = "seven")]
    d: u32,
}

/// A default of one variant's field must not reach the other variants' objects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(untagged)]
enum Untagged {
    A(SA),
    B(SB),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "type", deny_unknown_fields)]
enum Internal {
    A {
        y: u32,
    },
    B {
        #[serde(default = "seven")]
        x: u32,
    },
    C,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct VariantDefaults {
    untagged: Untagged,
    internal: Internal,
}

#[test]
fn defaults_stay_with_their_variant() {
    let c = Contract::of::<VariantDefaults>();
    for v in [
        VariantDefaults {
            untagged: Untagged::A(SA { a: 1 }),
            internal: Internal::A { y: 1 },
        },
        VariantDefaults {
            untagged: Untagged::B(SB { a: 1, d: 2 }),
            internal: Internal::C,
        },
        VariantDefaults {
            untagged: Untagged::B(SB { a: 1, d: 7 }),
            internal: Internal::B { x: 3 },
        },
    ] {
        c.check(&v).unwrap();
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct Q {
    #[kstruct(default = 1)]
    c: u32,
}

/// A flattened `None` writes nothing, and the API server must not add its fields' defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct FlattenOptionDefaults {
    n: u32,
    #[serde(flatten)]
    o: Option<Q>,
}

#[test]
fn a_flattened_none_gets_no_defaults() {
    let c = Contract::of::<FlattenOptionDefaults>();
    c.check(&FlattenOptionDefaults { n: 1, o: None }).unwrap();
    c.check(&FlattenOptionDefaults {
        n: 1,
        o: Some(Q { c: 5 }),
    })
    .unwrap();
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, CustomResourceSchema)]
struct Inner {
    y: Option<u32>,
    z: u32,
}

/// A serde default holding `None`s: the default is written without the `null`s the schema
/// does not allow (the API server refuses a default that does not validate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct NullsInDefaults {
    #[serde(default)]
    inner: Inner,
    #[kstruct(default = Inner { y: None, z: 2 })]
    other: Inner,
}

#[test]
fn defaults_hold_no_nulls_the_schema_forbids() {
    let s = kstruct::schema_for::<NullsInDefaults>();
    assert_eq!(s["properties"]["inner"]["default"], json!({"z": 0}));
    assert_eq!(s["properties"]["other"]["default"], json!({"z": 2}));
    let schema = kstruct::Generator::new().subschema_for::<NullsInDefaults>();
    assert_eq!(
        kstruct_tests::crd_rules::violations(&schema, false),
        Vec::<String>::new()
    );
}

/// The helper the derive's tests check CRD rules with reads a field as a field: `additionalProperties`
/// is refused at a root only, and a default is validated against its own schema.
#[test]
fn crd_rules_check_fields_as_fields() {
    let check = |v: serde_json::Value| {
        kstruct_tests::crd_rules::violations(&kstruct::schema::convert::from_value(&v).unwrap().unwrap(), false)
    };
    assert!(check(json!({"type": "object", "additionalProperties": {"type": "string"}})).is_empty());
    assert_eq!(
        check(json!({"type": "integer", "minimum": 1, "default": 0})),
        [
            "spec.validation.openAPIV3Schema.properties[x].default: Invalid value: 0:  in body should be greater than or equal to 1"
        ]
    );
}

fn de_opt<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    Option::<u32>::deserialize(d)
}

/// `deserialize_with` makes an `Option` field required for serde: its `null` must stay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct DeserializeWith {
    #[serde(deserialize_with = "de_opt")]
    x: Option<u32>,
}

#[test]
fn deserialize_with_keeps_an_options_null() {
    let c = Contract::of::<DeserializeWith>();
    c.check(&DeserializeWith { x: None }).unwrap();
    c.check(&DeserializeWith { x: Some(1) }).unwrap();
}

/// A tuple element serde may leave out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct ShortTuple(
    u32,
    #[serde(default, skip_serializing_if = "Option::is_none")] Option<u32>,
);

#[test]
fn tuples_may_be_shorter_by_their_skipped_elements() {
    let c = Contract::of::<ShortTuple>();
    c.check(&ShortTuple(1, None)).unwrap();
    c.check(&ShortTuple(1, Some(2))).unwrap();
    assert_eq!(kstruct::schema_for::<ShortTuple>()["minItems"], 1);
}

/// Field names CEL cannot spell as they are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[kstruct(at_least_one_of = ["namespace", "x-y"], exactly_one_of = ["namespace", "x-y"])]
struct Escaped {
    namespace: Option<String>,
    #[serde(rename = "x-y")]
    x_y: Option<String>,
}

#[test]
fn generated_rules_escape_field_names() {
    let s = kstruct::schema_for::<Escaped>();
    assert_eq!(
        s["x-kubernetes-validations"][0]["rule"],
        "has(self.__namespace__)||has(self.x__dash__y)"
    );
    for r in s["x-kubernetes-validations"].as_array().unwrap() {
        kstruct::cel::check(r["rule"].as_str().unwrap()).unwrap();
    }
}

fn as_csv<S: serde::Serializer>(v: &std::collections::BTreeSet<String>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.iter().cloned().collect::<Vec<_>>().join(","))
}

/// `type` replaces the type's schema: nothing of the set's may stay beside `type: string`.
#[derive(Serialize, CustomResourceSchema)]
struct TypeOverride {
    /// Comma-separated tags.
    #[serde(serialize_with = "as_csv")]
    #[kstruct(type = "string", pattern = "^[a-z,]*$")]
    tags: std::collections::BTreeSet<String>,
}

#[test]
fn type_replaces_the_whole_schema() {
    assert_eq!(
        kstruct::try_schema_for::<TypeOverride>().unwrap()["properties"]["tags"],
        json!({"type": "string", "pattern": "^[a-z,]*$", "description": "Comma-separated tags."})
    );
}

/// A string or an object, by a hand-written impl: the derive cannot see its shape, so the
/// list-map keys below are checked when the schema is generated (a derived union is a compile
/// error, `derive/tests/ui/list_map_keys.rs`).
#[derive(Serialize)]
struct Entry;

impl CustomResourceSchema for Entry {
    fn schema(_: &mut kstruct::Generator) -> kstruct::schema::Structural {
        let mut s = kstruct::schema::Structural::default();
        s.extensions.x_preserve_unknown_fields = true;
        s
    }
}

#[derive(Serialize, CustomResourceSchema)]
struct ListMapOfUnions {
    #[kstruct(list_map_keys = ["name"])]
    entries: Vec<Entry>,
}

/// An item whose name is immutable, by a hand-written schema: the derive cannot see the rule,
/// so where it is used is checked when the schema is generated (a derived one is a compile
/// error, `derive/tests/ui/transition_rules.rs`).
#[derive(Serialize)]
struct Item {
    name: String,
}

impl CustomResourceSchema for Item {
    fn schema(generator: &mut kstruct::Generator) -> kstruct::schema::Structural {
        let mut name = generator.subschema_for::<String>();
        name.x_validations = Some(vec![kstruct::schema::ValidationRule {
            rule: "self == oldSelf".into(),
            message: "field is immutable".into(),
            ..Default::default()
        }]);
        let mut s = kstruct::schema::Structural::default();
        s.generic.type_ = "object".into();
        s.properties.insert("name".into(), name);
        s.value_validation.required = Some(vec!["name".into()]);
        s
    }
}

#[derive(Serialize, CustomResourceSchema)]
struct OldSelfInLists {
    atomic: Vec<Item>,
    by_name: BTreeMap<String, Item>,
    #[kstruct(list_type = "map", list_map_keys = ["name"])]
    keyed: Vec<Item>,
}

#[test]
fn what_only_generation_can_find_is_reported() {
    let e = kstruct::try_schema_for::<ListMapOfUnions>().unwrap_err().to_string();
    assert!(e.contains("`list_map_keys` needs items that are objects"), "{e}");
    let e = kstruct::try_schema_for::<OldSelfInLists>().unwrap_err().to_string();
    assert!(
        e.contains("at `atomic[].name`: the rule `self == oldSelf` uses oldSelf"),
        "{e}"
    );
    assert!(!e.contains("by_name"), "map values pair by key: {e}");
    assert!(!e.contains("keyed"), "list-type map items pair by key: {e}");
    // schema_for leaves the rule out, so that the API server accepts the rest.
    let s = kstruct::schema_for::<OldSelfInLists>();
    assert!(
        s["properties"]["atomic"]["items"]["properties"]["name"]
            .get("x-kubernetes-validations")
            .is_none()
    );
    assert_eq!(
        s["properties"]["keyed"]["items"]["properties"]["name"]["x-kubernetes-validations"][0]["rule"],
        "self == oldSelf"
    );
}

mod v1 {
    /// An older version of the spec.
    #[derive(serde::Serialize, kstruct::CustomResourceSchema)]
    pub struct Spec {
        pub size: u32,
    }
}

/// A field of another type with the same name is not recursion.
#[derive(Serialize, CustomResourceSchema)]
struct Spec {
    legacy: Option<v1::Spec>,
}

#[test]
fn a_same_named_type_of_another_module_is_not_recursion() {
    assert_eq!(
        kstruct::schema_for::<Spec>()["properties"]["legacy"]["properties"]["size"]["type"],
        "integer"
    );
}

/// `default = "..."` on a `String` field: the literal converts.
#[derive(Serialize, CustomResourceSchema)]
struct StringDefaults {
    #[kstruct(default = "10Gi")]
    size: String,
    #[kstruct(default = "fast")]
    class: std::borrow::Cow<'static, str>,
    #[kstruct(default = "/data")]
    path: std::path::PathBuf,
}

#[test]
fn string_literal_defaults_on_owned_strings() {
    let s = kstruct::try_schema_for::<StringDefaults>().unwrap();
    assert_eq!(s["properties"]["size"]["default"], "10Gi");
    assert_eq!(s["properties"]["class"]["default"], "fast");
    assert_eq!(s["properties"]["path"]["default"], "/data");
}

/// Outlines where the schema builder drops or keeps what the attributes say in ways the
/// outline must follow: each compiles (no false compile-time error) and its outline agrees
/// with its schema.
mod outline_edges {
    use std::collections::BTreeMap;

    use kstruct::CustomResourceSchema;
    use serde::Serialize;

    /// An atomic struct whose field is immutable: as the items of a list-type map it is not
    /// atomic any more (the builder drops it), so the rule pairs by key.
    #[derive(Serialize, CustomResourceSchema)]
    #[kstruct(map_type = "atomic")]
    pub struct Port {
        pub name: String,
        #[kstruct(immutable)]
        pub protocol: String,
    }

    /// A rule on a type flattened as an `Option`, which the builder leaves out.
    #[derive(Serialize, CustomResourceSchema)]
    #[kstruct(validation(rule = "self.mode == oldSelf.mode"))]
    pub struct Tuning {
        pub mode: String,
    }

    #[derive(Serialize, CustomResourceSchema)]
    pub struct Volume {
        #[kstruct(immutable)]
        pub name: String,
    }

    #[derive(Serialize, CustomResourceSchema)]
    pub struct Worker {
        pub name: String,
        #[serde(flatten)]
        pub tuning: Option<Tuning>,
    }

    /// A flattened map's values are not merged (the parent keeps unknown fields instead).
    #[derive(Serialize, CustomResourceSchema)]
    pub struct Item {
        pub name: String,
        #[serde(flatten)]
        pub extra: BTreeMap<String, Volume>,
    }

    #[derive(Serialize, CustomResourceSchema)]
    pub struct Empty {}

    /// An embedded resource whose only flattened field has no fields keeps unknown fields.
    #[derive(Serialize, CustomResourceSchema)]
    pub struct Holder {
        #[kstruct(embedded_resource)]
        pub object: Flat,
    }

    #[derive(Serialize, CustomResourceSchema)]
    pub struct Flat {
        #[serde(flatten)]
        pub nothing: Empty,
    }

    /// Checks in generic types are consts of an inherent impl, where `&const_fn()` promotes:
    /// an internally tagged struct variant (the tag check) and list checks with `items(...)`.
    #[derive(Serialize, CustomResourceSchema)]
    #[serde(tag = "kind")]
    pub enum Source<T> {
        Inline { value: T },
        Ref { name: String },
    }

    #[derive(Serialize, CustomResourceSchema)]
    pub struct Keyed<T: Serialize> {
        #[kstruct(list_map_keys = ["name"], items(validation(rule = "self.name == oldSelf.name")))]
        pub ports: Vec<Port>,
        #[kstruct(list_type = "set", items(max_length = 9))]
        pub tags: Vec<String>,
        pub value: T,
    }

    /// A type generic over a lifetime only, with checks naming its field types.
    #[derive(Serialize, CustomResourceSchema)]
    #[serde(tag = "kind")]
    pub enum Borrowed<'a> {
        Text { text: std::borrow::Cow<'a, str> },
    }

    #[test]
    fn outlines_agree_with_their_schemas() {
        use kstruct_tests::outline::violations;
        let mut problems = violations::<Vec<Worker>>();
        problems.extend(violations::<Vec<Item>>());
        problems.extend(violations::<Holder>());
        problems.extend(violations::<Source<u32>>());
        problems.extend(violations::<Keyed<i64>>());
        problems.extend(violations::<Borrowed<'static>>());
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        for e in [
            kstruct::try_schema_for::<Vec<Worker>>(),
            kstruct::try_schema_for::<Vec<Item>>(),
            kstruct::try_schema_for::<Holder>(),
            kstruct::try_schema_for::<Keyed<i64>>(),
        ] {
            assert!(e.is_ok(), "{e:?}");
        }
    }
}
