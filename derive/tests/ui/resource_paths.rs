use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    printcolumn(name = "Size", type = "int", json_path = ".spec.size"),
    printcolumn(name = "Size", type = "integer", json_path = ".spec.size", format = "uint8"),
    printcolumn(name = "Ready", type = "integer", json_path = ".status.ready"),
    printcolumn(name = "Bad", type = "string", json_path = "spec.size"),
    printcolumn(name = "Where", type = "string", json_path = ".data.x"),
    selectable = ".spec.size[0]",
    selectable = ".metadata.name",
)]
pub struct WidgetSpec {
    pub size: i32,
    pub replicas: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Scaled", scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"))]
pub struct ScaledSpec {
    pub replicas: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(
    group = "example.com",
    version = "v1",
    kind = "Scaled2",
    status = "Scaled2Status",
    scale(spec_replicas_path = ".status.replicas", status_replicas_path = ".spec.replicas"),
    selectable = ".spec.a", selectable = ".spec.a", selectable = ".spec.b", selectable = ".spec.c",
    selectable = ".spec.d", selectable = ".spec.e", selectable = ".spec.f", selectable = ".spec.g",
    selectable = ".spec.h",
)]
pub struct Scaled2Spec {
    pub replicas: i32,
    pub a: String,
    pub b: String,
    pub c: String,
    pub d: String,
    pub e: String,
    pub f: String,
    pub g: String,
    pub h: String,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Scaled2Status {
    pub replicas: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Partial", scale(spec_replicas_path = ".spec.replicas"))]
pub struct PartialSpec {
    pub replicas: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(
    group = "example.com",
    version = "v1",
    kind = "Whole",
    status = "Scaled2Status",
    scale(spec_replicas_path = ".spec", status_replicas_path = ".status.replicas", label_selector_path = ".status")
)]
pub struct WholeSpec {
    pub replicas: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Columns1", printcolumn(name = "NoPath", type = "string"))]
pub struct Columns1Spec {
    pub replicas: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Columns2", printcolumn(name = "P", type = "string", json_path = ".spec.replicas", priority = -1))]
pub struct Columns2Spec {
    pub replicas: i32,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Columns3", printcolumn(name = "Q", type = "string", json_path = ".spec.replicas", colour = "red"))]
pub struct Columns3Spec {
    pub replicas: i32,
}

fn main() {}
