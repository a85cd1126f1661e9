//! A kube-rs operator's custom resource with kstruct's schemas: kube's
//! `#[derive(CustomResource)]` stays, and `#[derive(CustomResourceSchema)]` (with kstruct's
//! `schemars` feature) replaces `#[derive(JsonSchema)]` on the spec and status, so the schema
//! kube puts in its CRD is kstruct's structural one: enums of every serde shape, free-form
//! JSON, sets, tuples, defaults and CEL rules all reach the API server intact.

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kstruct::CustomResourceSchema;
use kube::CustomResource;
use serde::{Deserialize, Serialize};

/// A batch of work items, run by pods made from a template.
#[derive(CustomResource, CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "batch.example.com",
    version = "v1",
    kind = "WorkBatch",
    namespaced,
    status = "WorkBatchStatus",
    shortname = "wb",
    printcolumn(name = "Parallelism", type_ = "integer", json_path = ".spec.parallelism")
)]
#[serde(rename_all = "camelCase")]
#[kstruct(validation(rule = "self.parallelism <= 100", message = "at most 100 pods at once"))]
pub struct WorkBatchSpec {
    /// Pods running at once.
    #[serde(default = "one")]
    #[kstruct(minimum = 1)]
    pub parallelism: i32,
    /// Where the items come from.
    pub source: Source,
    /// How items are retried.
    #[serde(default)]
    pub retry: Retry,
    /// Labels put on every result (a set).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub result_labels: BTreeSet<String>,
    /// Free-form settings for the worker.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, serde_json::Value>,
    /// The workers' pods.
    pub template: PodTemplateSpec,
}

fn one() -> i32 {
    1
}

/// Where items come from: a queue name, or a bucket and prefix (serde writes either a string
/// or an object; kube-rs alone types both as an object).
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum Source {
    /// A queue, by name.
    Queue(String),
    /// Objects in a bucket.
    Bucket {
        /// The bucket.
        bucket: String,
        /// A key prefix.
        prefix: Option<String>,
    },
}

/// Retries: none, or a number of attempts with a backoff (kube-rs alone panics on this
/// mix of unit and data variants).
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Retry {
    /// Never retry.
    #[default]
    Never,
    /// Retry with exponential backoff.
    Backoff {
        /// Attempts in all.
        attempts: u8,
        /// First delay, in seconds.
        initial_seconds: u32,
    },
}

/// What the operator observed.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct WorkBatchStatus {
    /// Items done.
    #[serde(default)]
    pub done: u64,
    /// Conditions, one per type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[kstruct(list_type = "map", list_map_keys = ["type"])]
    pub conditions: Vec<Condition>,
}
