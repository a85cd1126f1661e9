use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
#[serde(untagged)]
enum Nothing {
    A,
    B,
}

fn main() {}
