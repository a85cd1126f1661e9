use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(immutable)]
struct Spec {
    #[kstruct(at_most_one_of = ["a", "b"])]
    a: Option<i32>,
    #[kstruct(type = "float")]
    b: Option<i32>,
    #[kstruct(crate = kstruct)]
    c: i32,
}

#[derive(serde::Serialize, CustomResourceSchema)]
struct Pair(#[kstruct(required)] i32, i32);

fn main() {}
