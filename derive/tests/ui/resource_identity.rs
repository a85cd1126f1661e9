use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", namespaced)]
pub struct MissingKindSpec {
    pub size: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "Example.com", version = "V1", kind = "widget", plural = "Widgets")]
pub struct BadNamesSpec {
    pub size: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example", version = "v1", kind = "Gadget", shortname = "g", shortname = "g", category = "All")]
pub struct NoDotSpec {
    pub size: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Thing")]
pub struct Thing {
    pub size: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Generic")]
pub struct GenericSpec<T> {
    pub value: T,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Labelled", label("bad key", "x"), annotation("a", "1"), annotation("a", "2"), group = "again.com")]
pub struct LabelledSpec {
    pub size: i32,
}

fn main() {}
