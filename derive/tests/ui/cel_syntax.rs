use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(validation(rule = "self.min <= self.max &&", message = "min must not exceed max"))]
struct Spec {
    min: i32,
    max: i32,
    #[kstruct(validation(rule = "self.all(1, true)"))]
    #[kstruct(validation(rule = "self.size() > 0", message_expression = "'has ' + string(self.size()"))]
    items: Vec<i32>,
    #[kstruct(validation(rule = "has(self)"))]
    name: String,
}

fn main() {}
