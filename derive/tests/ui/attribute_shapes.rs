use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(minimum = 1)]
    name: String,
    #[kstruct(pattern = "^[0-9]+$")]
    count: i32,
    #[kstruct(min_items = 1)]
    labels: std::collections::BTreeMap<String, String>,
    #[kstruct(max_properties = 3)]
    list: Vec<String>,
    #[kstruct(int_or_string)]
    ratio: f64,
    #[kstruct(embedded_resource)]
    template: String,
    #[kstruct(items(minimum = 0))]
    names: Vec<String>,
}

fn main() {}
