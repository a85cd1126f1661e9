//! The schema of every test type: pinned as YAML (`snapshots/<Type>.yaml`;
//! `UPDATE_SNAPSHOTS=1` rewrites them), structural, accepted as a CRD by the same code as
//! `kstruct lint`, and within the API server's other CRD rules (list and map types, defaults
//! valid and pruned, CEL rules on typed nodes).

use std::path::PathBuf;

use kstruct::schema::Structural;
use kstruct::schema::crd::CustomResourceDefinition;
use kstruct::schema::field::Path;
use kstruct::schema::validation::validate_structural;
use kstruct::{CustomResourceSchema, Generator};
use kstruct_tests::crd_rules::violations;
use serde_json::json;

use super::types::*;

/// Everything wrong with `T`'s schema (empty when fine).
pub(crate) fn check<T: CustomResourceSchema + ?Sized>(name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if let Err(e) = kstruct::try_schema_for::<T>() {
        problems.push(e.to_string());
    }
    let schema = Generator::new().subschema_for::<T>();
    let yaml = kstruct::schema::serialize::to_yaml(&schema);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/derive/snapshots/{name}.yaml"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &yaml).expect("write the snapshot");
    } else if std::fs::read_to_string(&path).ok().as_deref() != Some(yaml.as_str()) {
        problems.push(format!(
            "the schema differs from {} (UPDATE_SNAPSHOTS=1 rewrites it):\n{yaml}",
            path.display()
        ));
    }
    problems.extend(violations(&schema, false));
    // What the derive's compile-time checks read of the type agrees with its schema.
    problems.extend(kstruct_tests::outline::violations::<T>());

    // As the spec of a CRD, through what `kstruct lint` runs.
    let mut root = Structural::default();
    root.generic.type_ = "object".into();
    root.properties.insert("spec".into(), schema.clone());
    problems.extend(lint_as_crd(&root));
    // A struct is also a version's whole root schema.
    if schema.generic.type_ == "object" && schema.additional_properties.is_none() && !schema.generic.nullable {
        problems.extend(lint_as_crd(&schema));
    }
    problems.into_iter().map(|p| format!("{name}: {p}")).collect()
}

fn lint_as_crd(root: &Structural) -> Vec<String> {
    let doc = kstruct_tests::derive_contract::crd_document(kstruct::schema::serialize::to_value(root));
    // The document as text and back, as a file would be read.
    let doc: serde_json::Value = serde_json::from_str(&doc.to_string()).expect("json");
    let crd = CustomResourceDefinition::from_value(&doc).expect("a CRD");
    let path = Path::new("spec")
        .child("versions")
        .index(0)
        .child("schema")
        .child("openAPIV3Schema");
    let schema = match crd.versions[0].structural() {
        Ok(Some(s)) => s,
        other => return vec![format!("the CRD's schema does not convert: {other:?}")],
    };
    let mut out: Vec<String> = validate_structural(&path, &schema)
        .iter()
        .map(ToString::to_string)
        .collect();
    out.extend(violations(&schema, true));
    out
}

macro_rules! all_schemas {
    ($($t:ty => $name:literal,)*) => {
        #[test]
        fn every_schema_is_pinned_structural_and_accepted() {
            let mut problems = Vec::new();
            $(problems.extend(check::<$t>($name));)*
            assert!(problems.is_empty(), "{}", problems.join("\n"));
        }
    };
}

all_schemas! {
    Scalars => "Scalars",
    Color => "Color",
    Options => "Options",
    Collections => "Collections",
    Point => "Point",
    Json => "Json",
    SerdeFields => "SerdeFields",
    ContainerDefault => "ContainerDefault",
    FlattenedMap => "FlattenedMap",
    Wrappers => "Wrappers",
    Source => "Source",
    Mode => "Mode",
    Probe => "Probe",
    Action => "Action",
    IntOrString => "IntOrString",
    Target => "Target",
    Reference => "Reference",
    Version => "Version",
    Anything => "Anything",
    Enums => "Enums",
    Tagged => "Tagged",
    Attributes => "Attributes",
    Tree => "Tree",
    Page<Point> => "Page",
    Version2 => "Version2",
}

/// Lifetimes and const generics.
#[derive(CustomResourceSchema)]
#[allow(dead_code)] // Only its schema is used.
pub struct Borrowed<'a, const N: usize> {
    pub name: std::borrow::Cow<'a, str>,
    pub fixed: [u8; N],
}

/// A type parameter used only in a skipped field: as in serde, it needs no bound.
#[derive(serde::Serialize, CustomResourceSchema)]
pub struct Phantom<T> {
    pub name: String,
    #[serde(skip)]
    pub marker: std::marker::PhantomData<T>,
}

/// Not a `CustomResourceSchema`.
pub struct Opaque;

#[test]
fn lifetimes_const_generics_and_unused_type_parameters() {
    assert_eq!(
        kstruct::schema_for::<Borrowed<'static, 3>>(),
        json!({"type": "object", "required": ["name", "fixed"], "description": "Lifetimes and const generics.",
            "properties": {"name": {"type": "string"}, "fixed": {"type": "array", "minItems": 3, "maxItems": 3,
                "items": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 255}}}})
    );
    assert_eq!(
        kstruct::schema_for::<Phantom<Opaque>>()["properties"],
        json!({"name": {"type": "string"}})
    );
}
