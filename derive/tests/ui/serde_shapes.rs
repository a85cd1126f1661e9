use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Empty();

#[derive(serde::Serialize, CustomResourceSchema)]
enum Mode {
    #[serde(serialize_with = "as_text")]
    Level(u8),
}

fn as_text<S: serde::Serializer>(v: &u8, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.to_string())
}

fn main() {}
