use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(crate)]
#[kstruct(at_most_one_of = ["a"])]
struct Spec {
    #[kstruct(items(min_length = 1), items(max_length = 2))]
    a: Vec<String>,
    #[kstruct(list_map_keys = [])]
    b: Vec<String>,
    #[kstruct(external_docs(description = "no url"))]
    c: String,
    #[kstruct(minimum = "one")]
    d: i32,
    #[kstruct(min_length = -1)]
    e: String,
    #[kstruct(default = )]
    f: String,
    #[kstruct(validation(rule = "self > 0", message = "two\nlines"))]
    g: i32,
}

fn main() {}
