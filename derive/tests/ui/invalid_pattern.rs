use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(pattern = "a{3,2}")]
    name: String,
    #[kstruct(pattern = "x**")]
    other: String,
}

fn main() {}
