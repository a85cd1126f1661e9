use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(optional)]
    name: String,
    #[kstruct(optional)]
    #[serde(default)]
    fine: String,
}

fn main() {}
