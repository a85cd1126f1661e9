use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Tree {
    value: i32,
    children: Vec<Tree>,
    parent: Option<Box<Self>>,
}

fn main() {}
