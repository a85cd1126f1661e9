//! The operator's custom resources, as Rust types: the single source of its CRDs
//! (`crds/*.yaml` is written from them by `cargo run -p kstruct-example-operator -- write-crds`,
//! and a test fails when the checked-in files are stale).

use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};

/// A maintenance job the operations team runs each night on a set of machines (the job of
/// the structural-schema story: a field the schema does not declare, such as
/// `privileged: true`, is pruned instead of stored).
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kstruct(
    group = "operations.example.com",
    version = "v1",
    kind = "MaintenanceNightlyJob",
    namespaced,
    status = "MaintenanceNightlyJobStatus",
    shortname = "mnj",
    category = "maintenance",
    printcolumn(name = "Timeout", integer = ".spec.timeoutSeconds"),
    printcolumn(name = "Last run", date = ".status.lastRun"),
    printcolumn(name = "Result", string = ".status.result")
)]
#[serde(rename_all = "camelCase")]
pub struct MaintenanceNightlyJobSpec {
    /// The shell command to run.
    #[kstruct(min_length = 1)]
    pub shell: String,
    /// The machines to run it on (host names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[kstruct(items(pattern = "^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub machines: Vec<String>,
    /// How long the job may run, in seconds.
    #[serde(default = "one_hour")]
    #[kstruct(minimum = 1)]
    pub timeout_seconds: i64,
    /// Who the job runs as.
    #[serde(default)]
    pub run_as: RunAs,
}

fn one_hour() -> i64 {
    3600
}

/// A user and group on the machines.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RunAs {
    /// The user.
    pub user: String,
    /// The group.
    #[serde(default = "operations")]
    pub group: String,
}

fn operations() -> String {
    "operations".into()
}

impl Default for RunAs {
    fn default() -> Self {
        RunAs {
            user: "maintenance".into(),
            group: operations(),
        }
    }
}

/// What the last run did.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct MaintenanceNightlyJobStatus {
    /// When it last ran (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[kstruct(format = "date-time")]
    pub last_run: Option<String>,
    /// How it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<JobResult>,
}

/// How a run ended.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobResult {
    /// Every machine ran the command successfully.
    Succeeded,
    /// Some machine failed.
    Failed,
}
