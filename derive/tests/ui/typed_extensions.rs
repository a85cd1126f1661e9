use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(validation(rule = "has(self.a)"))]
    free: serde_json::Value,
    #[kstruct(map_type = "atomic")]
    config: serde_json::Value,
    #[kstruct(validation(rule = "size(self) > 0"))]
    either: Either,
}

#[derive(serde::Serialize, CustomResourceSchema)]
#[serde(untagged)]
enum Either {
    Name(String),
    Ref { name: String },
}

fn main() {}
