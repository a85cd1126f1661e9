use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(list_type = "unique")]
    a: Vec<String>,
    #[kstruct(map_type = "merge")]
    b: std::collections::BTreeMap<String, String>,
    #[kstruct(list_type = "map")]
    c: Vec<Item>,
    #[kstruct(list_type = "set", list_map_keys = ["name"])]
    d: Vec<Item>,
    #[kstruct(unique_items)]
    e: Vec<String>,
}

#[derive(serde::Serialize, CustomResourceSchema)]
struct Item {
    name: String,
}

fn main() {}
