use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(int_or_string, preserve_unknown_fields)]
    a: serde_json::Value,
    #[kstruct(int_or_string, embedded_resource)]
    b: serde_json::Value,
}

fn main() {}
