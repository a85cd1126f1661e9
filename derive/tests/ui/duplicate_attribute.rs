use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(minimum = 1, minimum = 2)]
    #[kstruct(nullable)]
    #[kstruct(nullable)]
    count: i32,
}

fn main() {}
