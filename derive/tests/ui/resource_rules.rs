use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "widgets.k8s.io", version = "v1", kind = "Widget")]
pub struct UnapprovedSpec {
    pub size: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(
    group = "example.com",
    version = "v1",
    kind = "AVeryLongKindNameThatIsAlmostSixtyThreeCharactersLongAlready",
    plural = "longs"
)]
pub struct LongSpec {
    pub size: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Old", deprecation_warning = "", label("tier", "-front"))]
pub struct OldSpec {
    pub size: i32,
}

fn main() {}
