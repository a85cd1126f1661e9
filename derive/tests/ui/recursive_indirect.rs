use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Directory {
    entries: Vec<Entry>,
}

#[derive(serde::Serialize, CustomResourceSchema)]
enum Entry {
    File(String),
    Directory(Directory),
}

fn main() {}
