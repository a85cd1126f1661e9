use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
struct Spec {
    #[kstruct(optional, required)]
    a: Option<i32>,
    #[kstruct(required)]
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<i32>,
    #[serde(skip)]
    #[kstruct(minimum = 1)]
    c: i32,
    #[serde(flatten)]
    #[kstruct(description = "flattened")]
    d: Inner,
    #[kstruct(schema_with = schema, schema_as = String)]
    e: String,
    #[kstruct(schemars, schema_as = String)]
    f: String,
}

#[derive(serde::Serialize, CustomResourceSchema)]
struct Inner {
    x: i32,
}

fn schema(g: &mut kstruct::Generator) -> kstruct::schema::Structural {
    g.subschema_for::<String>()
}

fn main() {}
