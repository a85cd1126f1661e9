//! The resource attributes' paths resolved through the spec's and status' types when the
//! crate compiles: printer columns, selectable fields and scale, at any depth (through
//! structs and map values; below a field that keeps unknown fields, at run time).
use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(
    group = "db.example.com",
    version = "v1",
    kind = "Database",
    status = "DatabaseStatus",
    printcolumn(name = "Engine", string = ".spec.engin"),
    printcolumn(name = "Phase", string = ".status.phse"),
    printcolumn(name = "Zone", string = ".spec.backup.zon"),
    printcolumn(name = "Fine", string = ".spec.backup.zone"),
    printcolumn(name = "Label", string = ".spec.labels.app"),
    selectable = ".spec.backup",
    selectable = ".spec.labels",
    selectable = ".spec.labels.app",
    scale(spec_replicas_path = ".spec.engine", status_replicas_path = ".status.replicas")
)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseSpec {
    pub engine: String,
    pub backup: Backup,
    pub labels: std::collections::BTreeMap<String, String>,
    #[kstruct(preserve_unknown_fields)]
    pub extra: std::collections::BTreeMap<String, serde_json::Value>,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Backup {
    pub zone: String,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
pub struct DatabaseStatus {
    pub phase: Option<String>,
    pub replicas: i32,
}

fn main() {}
