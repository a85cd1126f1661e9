use kstruct::CustomResourceSchema;

struct Opaque;

#[derive(CustomResourceSchema)]
struct Spec {
    value: Opaque,
    marker: std::marker::PhantomData<i32>,
}

fn main() {}
