//! Layer 7: the `apiextensions.k8s.io/v1` CustomResourceDefinition as kstruct writes it, and
//! the typed `metadata` ([`ObjectMeta`]) it and custom resources carry.
//!
//! Fields are declared in the order `kubectl get -o yaml` prints them (alphabetical by JSON
//! name at every level), and absent or empty fields are left out, so that the JSON and YAML
//! of a CRD are deterministic and free of the empty lists that make GitOps tools see drift.

use serde::{Deserialize, Serialize};
use serde_json::Value;

mod object_meta;

pub use object_meta::{ManagedFieldsEntry, ObjectMeta, OwnerReference};

/// A CustomResourceDefinition (`apiextensions.k8s.io/v1`).
///
/// What [`CustomResource::crd`](crate::CustomResource::crd) returns; [`to_yaml`](Self::to_yaml)
/// writes it as `kubectl apply` reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinition {
    /// Always `apiextensions.k8s.io/v1`.
    pub api_version: String,
    /// Always `CustomResourceDefinition`.
    pub kind: String,
    /// `metadata`: the name is `<plural>.<group>`.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: CustomResourceDefinitionSpec,
}

/// `spec` of a CRD.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionSpec {
    /// `conversion`, as written (kstruct writes none: the API server's default is `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversion: Option<Value>,
    /// `group`: the API group (`example.com`).
    pub group: String,
    /// `names`.
    pub names: CustomResourceDefinitionNames,
    /// `preserveUnknownFields`: must be false (or absent) in v1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preserve_unknown_fields: Option<bool>,
    /// `scope`: `Namespaced` or `Cluster`.
    pub scope: String,
    /// `versions`.
    pub versions: Vec<CustomResourceDefinitionVersion>,
}

/// `spec.names` of a CRD.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionNames {
    /// `categories` (`kubectl get all` uses `all`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// `kind`.
    pub kind: String,
    /// `listKind`: `<kind>List`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_kind: Option<String>,
    /// `plural`: the resource name in URLs.
    pub plural: String,
    /// `shortNames`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// `singular`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub singular: Option<String>,
}

/// One entry of `spec.versions`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionVersion {
    /// `additionalPrinterColumns`: the columns of `kubectl get`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_printer_columns: Vec<CustomResourceColumnDefinition>,
    /// `deprecated`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
    /// `deprecationWarning`: what clients are told instead of the default warning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_warning: Option<String>,
    /// `name`: `v1`, `v1beta1`, ...
    pub name: String,
    /// `schema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<CustomResourceValidation>,
    /// `selectableFields`: fields usable in field selectors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selectable_fields: Vec<SelectableField>,
    /// `served`.
    pub served: bool,
    /// `storage`: exactly one version of a CRD is stored.
    pub storage: bool,
    /// `subresources`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subresources: Option<CustomResourceSubresources>,
}

/// `schema` of a version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CustomResourceValidation {
    /// `openAPIV3Schema`: the version's structural schema.
    #[serde(rename = "openAPIV3Schema")]
    pub open_api_v3_schema: Value,
}

/// One entry of `additionalPrinterColumns`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceColumnDefinition {
    /// `description`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `format`: an OpenAPI format of the type (`int32`, `date-time`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// `jsonPath`: where the value is, as a simple JSONPath (`.spec.replicas`).
    pub json_path: String,
    /// `name`: the column header.
    pub name: String,
    /// `priority`: columns above 0 are shown with `-o wide` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
    /// `type`: `integer`, `number`, `string`, `boolean` or `date`.
    #[serde(rename = "type")]
    pub type_: String,
}

/// One entry of `selectableFields`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectableField {
    /// `jsonPath` of the field (`.spec.color`).
    pub json_path: String,
}

/// `subresources` of a version.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomResourceSubresources {
    /// `scale`: the `/scale` subresource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<CustomResourceSubresourceScale>,
    /// `status`: the `/status` subresource (an empty object when enabled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CustomResourceSubresourceStatus>,
}

/// `subresources.scale`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresourceScale {
    /// `labelSelectorPath`: where the label selector (as a string) is, for the HPA.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector_path: Option<String>,
    /// `specReplicasPath`: the desired replicas, under `.spec`.
    pub spec_replicas_path: String,
    /// `statusReplicasPath`: the observed replicas, under `.status`.
    pub status_replicas_path: String,
}

/// `subresources.status`: enabling it is all there is (`status: {}`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomResourceSubresourceStatus {}

impl CustomResourceDefinition {
    /// The CRD as a JSON value (keys in `kubectl get -o yaml`'s order).
    pub fn to_value(&self) -> Value {
        // Cannot fail: every map key is a string and every value a plain serde type.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The CRD as YAML, as `kubectl get -o yaml` and controller-gen write it (block style,
    /// sequences not indented under their key, keys sorted). Deterministic: the same types
    /// give the same bytes.
    pub fn to_yaml(&self) -> String {
        kstruct_schema::yaml::emit(&self.to_value())
    }

    /// The CRD as JSON, with Go's `encoding/json` spelling (what the API server would store).
    pub fn to_json(&self) -> String {
        kstruct_schema::go::marshal_json(&self.to_value())
    }

    /// The version named `name`.
    pub fn version(&self, name: &str) -> Option<&CustomResourceDefinitionVersion> {
        self.spec.versions.iter().find(|v| v.name == name)
    }
}
