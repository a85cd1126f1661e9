//! What serde or the API server would refuse in a type's object, found when the crate
//! compiles: rules using oldSelf where the API server cannot pair a value with its old value
//! (the items of a list that is not a list-type map, anywhere in a resource), names serde
//! writes twice, a variant whose value has a field named as the tag, nullable set items.
use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug, CustomResourceSchema)]
pub struct Volume {
    #[kstruct(immutable)]
    pub name: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, CustomResourceSchema)]
pub struct Template {
    pub volumes: Vec<Volume>,
}

#[derive(Serialize, Deserialize, Clone, Debug, CustomResourceSchema)]
#[kstruct(group = "example.com", version = "v1", kind = "Pod")]
pub struct PodSpec {
    #[kstruct(list_type = "map", list_map_keys = ["name"])]
    pub keyed: Vec<Volume>,
    pub by_name: std::collections::BTreeMap<String, Volume>,
    pub template: Template,
}

#[derive(Serialize, Deserialize, Clone, Debug, CustomResourceSchema)]
#[kstruct(group = "example.com", version = "v1", kind = "Nested")]
pub struct NestedSpec {
    #[kstruct(items(validation(rule = "self.size() >= oldSelf.size()")))]
    pub growing: Vec<Vec<String>>,
}

#[derive(Serialize, CustomResourceSchema)]
pub struct Meta {
    pub name: String,
}

#[derive(Serialize, CustomResourceSchema)]
pub struct Twice {
    pub name: String,
    #[serde(flatten)]
    pub meta: Meta,
}

#[derive(Serialize, CustomResourceSchema)]
pub struct CircleValue {
    pub kind: String,
    pub radius: f64,
}

#[derive(Serialize, CustomResourceSchema)]
#[serde(tag = "kind")]
pub enum Shape {
    Circle(CircleValue),
}

#[derive(Serialize, CustomResourceSchema)]
pub struct Sets {
    #[kstruct(list_type = "set")]
    pub maybe: Vec<Option<String>>,
}

fn main() {}
