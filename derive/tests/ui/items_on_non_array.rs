use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(items(min_length = 1))]
    name: String,
}

fn main() {}
