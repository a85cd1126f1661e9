use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(rename_all = "camelCase")]
struct Spec {
    #[kstruct(regex = "^a$")]
    name: String,
    #[kstruct(colour = "red")]
    other: String,
}

fn main() {}
