use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
#[serde(tag = "type")]
enum Source {
    Url(String),
    Inline { data: String },
}

fn main() {}
