use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};

/// The root type derives `Clone` and `Debug` (as kube-rs' does), so the spec needs them.
#[derive(CustomResourceSchema, Serialize, Deserialize)]
#[kstruct(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    pub size: i32,
}

pub struct NotASchema;

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "example.com", version = "v1", kind = "Gadget", status = "NotASchema")]
pub struct GadgetSpec {
    pub size: i32,
}

fn main() {}
