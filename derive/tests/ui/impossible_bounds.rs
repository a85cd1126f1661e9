use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(minimum = 10, maximum = 1)]
    a: i32,
    #[kstruct(min_length = 5, max_length = 2)]
    b: String,
    #[kstruct(multiple_of = 0)]
    c: i32,
    #[kstruct(enum = [])]
    d: String,
}

fn main() {}
