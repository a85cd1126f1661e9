use kstruct::CustomResourceSchema;

// Rules on a struct are type-checked against its properties (serde's names).
#[derive(serde::Serialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
#[kstruct(validation(rule = "self.replicsa > 0"))]
#[kstruct(validation(rule = "self.minReplicas <= self.max_replicas"))]
#[kstruct(validation(rule = "has(self.minReplicas) && self.mode != 'fast' && size(self.undeclared) > 0"))]
#[kstruct(validation(rule = "self.replicas > 0 && engine != 'Redis'"))]
#[kstruct(validation(rule = "self.replicas > 0 && self.reverse()"))]
struct Spec {
    replicas: i32,
    min_replicas: i32,
    max_replicas: i32,
    mode: String,
}

// These pass: every field exists (the checker does not know their types here).
#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(validation(rule = "self.a.all(x, x > 0) && self.b == 'x' && self.__namespace__ != ''"))]
struct Fine {
    a: Vec<i32>,
    b: String,
    namespace: String,
}

fn main() {}
