//! The serde contract, as property tests over every test type: see
//! `kstruct_tests::derive_contract`.

use kstruct_tests::derive_contract::Contract;
use proptest::prelude::*;

use super::types::*;

macro_rules! contract {
    ($($name:ident: $t:ty, $cases:expr;)*) => {$(
        #[test]
        fn $name() {
            let contract = Contract::of::<$t>();
            let config = ProptestConfig { cases: $cases, failure_persistence: None, ..ProptestConfig::default() };
            proptest!(config, |(value: $t)| {
                if let Err(e) = contract.check(&value) {
                    return Err(TestCaseError::fail(e));
                }
            });
        }
    )*};
}

contract! {
    scalars: Scalars, 256;
    colors: Color, 32;
    options: Options, 256;
    collections: Collections, 128;
    json: Json, 128;
    serde_fields: SerdeFields, 256;
    container_default: ContainerDefault, 64;
    flattened_map: FlattenedMap, 128;
    wrappers: Wrappers, 128;
    source: Source, 128;
    mode: Mode, 128;
    probe: Probe, 128;
    action: Action, 128;
    int_or_string: IntOrString, 64;
    target: Target, 64;
    reference: Reference, 64;
    version: Version, 64;
    anything: Anything, 128;
    enums: Enums, 128;
    tagged: Tagged, 32;
    attributes: Attributes, 256;
    tree: Tree, 64;
    page: Page<Point>, 64;
    into_string: Version2, 64;
    everything: Everything, 64;
}

/// A schema that does not describe what serde writes.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, kstruct::CustomResourceSchema)]
struct Lying {
    #[kstruct(schema_as = i64)]
    name: String,
    #[kstruct(schema_as = Point)]
    point: Option<Point>,
}

/// The contract fails where it must: these tests can fail.
#[test]
fn the_contract_catches_schemas_that_do_not_fit() {
    let contract = Contract::of::<Lying>();
    let e = contract
        .check(&Lying {
            name: "x".into(),
            point: None,
        })
        .unwrap_err();
    assert!(
        e.contains("value validation fails") && e.contains("name in body must be of type integer: \\\"string\\\""),
        "{e}"
    );

    // A property the schema lacks: pruned, so the value changes.
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Wider {
        name: String,
        extra: Option<i32>,
    }
    let contract = Contract::of::<Point>();
    let e = contract
        .check(&Wider {
            name: "a".into(),
            extra: Some(1),
        })
        .unwrap_err();
    assert!(
        e.contains("API server rejects") || e.contains("warnings") || e.contains("changed"),
        "{e}"
    );
}
