use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    name: String,
    #[serde(flatten)]
    rest: Vec<String>,
}

fn main() {}
