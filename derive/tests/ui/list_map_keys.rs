//! List-map keys checked against the items' fields when the crate compiles: a misspelt key,
//! a key that is neither required nor defaulted, a key that is not a scalar, items that are
//! not objects, nullable items, and the same inside `items(...)`.
use kstruct::CustomResourceSchema;
use serde::Serialize;

#[derive(Serialize, CustomResourceSchema)]
pub struct User {
    pub name: String,
    pub nick: Option<String>,
    pub roles: Vec<String>,
    #[serde(default)]
    pub zone: String,
}

#[derive(Serialize, CustomResourceSchema)]
#[serde(untagged)]
pub enum Entry {
    Name(String),
    Full { name: String },
}

#[derive(Serialize, CustomResourceSchema)]
pub struct DatabaseSpec {
    #[kstruct(list_type = "map", list_map_keys = ["nme"])]
    pub typo: Vec<User>,
    #[kstruct(list_map_keys = ["nick"])]
    pub optional_key: Vec<User>,
    #[kstruct(list_map_keys = ["roles"])]
    pub list_key: Vec<User>,
    #[kstruct(list_map_keys = ["name", "zone"])]
    pub fine: Vec<User>,
    #[kstruct(list_map_keys = ["name"])]
    pub unions: Vec<Entry>,
    #[kstruct(list_map_keys = ["name"])]
    pub nullable_items: Vec<Option<User>>,
    #[kstruct(items(list_map_keys = ["nam"]))]
    pub nested: Vec<Vec<User>>,
}

fn main() {}
