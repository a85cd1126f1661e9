use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(items(default = "x"))]
    names: Vec<String>,
}

#[derive(serde::Serialize, CustomResourceSchema)]
struct Pair(#[kstruct(default = 1)] i32, i32);

fn main() {}
