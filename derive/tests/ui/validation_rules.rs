use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(validation(message = "no rule"))]
struct Spec {
    #[kstruct(validation(rule = "self > 0", reason = "FieldValueWrong"))]
    a: i32,
    #[kstruct(validation(rule = "self > 0", severity = "high"))]
    b: i32,
    #[kstruct(validation(rule = "  "))]
    c: i32,
    #[kstruct(validation(rule = "self > 0", optional_old_self = true))]
    d: i32,
}

fn main() {}
