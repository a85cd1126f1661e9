use kstruct::CustomResourceSchema;

#[derive(CustomResourceSchema)]
union Bits {
    a: u32,
    b: f32,
}

fn main() {}
