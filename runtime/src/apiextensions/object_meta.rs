//! `metadata` as a typed value: [`ObjectMeta`] and what it holds.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A Kubernetes object's `metadata` (`metav1.ObjectMeta`), as it travels in JSON.
///
/// Every field the API server writes is here, so reading an object and writing it back
/// keeps its metadata (timestamps are kept as the RFC 3339 text the server wrote, so they
/// round-trip byte for byte). Absent and empty fields are left out when writing, as the
/// API server's `omitempty` does.
///
/// As a field of a spec (a template's metadata), its schema is the one controller-gen
/// writes for embedded metadata (`crd:generateEmbeddedObjectMeta=true`): `annotations`,
/// `finalizers`, `labels`, `name` and `namespace`, so that the API server keeps those and
/// prunes the fields only it may set. A custom resource's own `metadata` is `{type: object}`
/// instead, the only schema the API server allows there.
///
/// ```
/// let meta: kstruct::ObjectMeta = serde_json::from_value(serde_json::json!({
///     "name": "w1", "namespace": "default", "labels": {"app": "web"},
///     "creationTimestamp": "2026-11-23T19:00:00Z", "resourceVersion": "42",
/// })).unwrap();
/// assert_eq!(meta.labels["app"], "web");
/// assert_eq!(
///     serde_json::to_string(&meta).unwrap(),
///     r#"{"name":"w1","namespace":"default","resourceVersion":"42","creationTimestamp":"2026-11-23T19:00:00Z","labels":{"app":"web"}}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// `name`: unique within a namespace (or the cluster, for cluster-scoped kinds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `generateName`: a prefix the API server completes into a unique `name` on create.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate_name: Option<String>,
    /// `namespace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `selfLink`: deprecated, no longer set by the API server; kept to round-trip old objects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub self_link: Option<String>,
    /// `uid`, set by the API server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// `resourceVersion`: opaque, for optimistic concurrency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    /// `generation`: incremented by the API server on changes to the spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// `creationTimestamp`, RFC 3339 text (`2026-11-23T19:00:00Z`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
    /// `deletionTimestamp`, RFC 3339 text: set when deletion was requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<String>,
    /// `deletionGracePeriodSeconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    /// `labels`.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "null_as_default"
    )]
    pub labels: BTreeMap<String, String>,
    /// `annotations`.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "null_as_default"
    )]
    pub annotations: BTreeMap<String, String>,
    /// `ownerReferences`.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "null_as_default")]
    pub owner_references: Vec<OwnerReference>,
    /// `finalizers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "null_as_default")]
    pub finalizers: Vec<String>,
    /// `managedFields`: server-side apply's record of who set which field.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "null_as_default")]
    pub managed_fields: Vec<ManagedFieldsEntry>,
}

/// One entry of `metadata.ownerReferences`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    /// `apiVersion` of the owner.
    pub api_version: String,
    /// `kind` of the owner.
    pub kind: String,
    /// `name` of the owner.
    pub name: String,
    /// `uid` of the owner.
    pub uid: String,
    /// `controller`: the owner is the managing controller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    /// `blockOwnerDeletion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

/// One entry of `metadata.managedFields`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManagedFieldsEntry {
    /// `manager`: who manages these fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manager: Option<String>,
    /// `operation`: `Apply` or `Update`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// `apiVersion` of the fields' schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// `time`, RFC 3339 text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// `fieldsType`: `FieldsV1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields_type: Option<String>,
    /// `fieldsV1`: the managed fields, as the API server encodes them.
    #[serde(default, rename = "fieldsV1", skip_serializing_if = "Option::is_none")]
    pub fields_v1: Option<Value>,
    /// `subresource`: the subresource used (`status`, `scale`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subresource: Option<String>,
}

/// `null` reads as an empty collection, as Go's `encoding/json` reads it into a map or
/// slice.
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}
