use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    name: String,
    nothing: (),
}

fn main() {}
