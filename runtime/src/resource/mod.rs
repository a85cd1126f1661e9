//! Layer 8: custom resources as Rust types: [`CustomResource`], the root type the derive generates
//! from a spec type's resource attributes, and the CRD it describes.
//!
//! ```
//! use kstruct::{CustomResource, CustomResourceSchema};
//! use serde::{Deserialize, Serialize};
//!
//! /// A widget, made to order.
//! #[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
//! #[kstruct(group = "example.com", version = "v1", kind = "Widget", namespaced)]
//! pub struct WidgetSpec {
//!     /// How many to make.
//!     #[kstruct(minimum = 1)]
//!     pub size: i32,
//! }
//!
//! let crd = Widget::crd();
//! assert_eq!(crd.metadata.name.as_deref(), Some("widgets.example.com"));
//! assert_eq!(crd.spec.scope, "Namespaced");
//! let w = Widget::new("w1", WidgetSpec { size: 3 });
//! assert_eq!(
//!     serde_json::to_string(&w).unwrap(),
//!     r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":3}}"#
//! );
//! ```

mod crd;
mod merge;
mod object_meta;
#[doc(hidden)]
pub mod root;

pub use crd::{crd_for, try_crd_for};
pub use merge::merge_crds;
#[allow(unused_imports)] // Used by the interop features.
pub(crate) use object_meta::embedded_object_meta;

use crate::apiextensions::{CustomResourceDefinition, ObjectMeta};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::rust_schema::CustomResourceSchema;

/// A custom resource type: the root object (`apiVersion`, `kind`, `metadata`, `spec` and
/// perhaps `status`) of one version of a kind, and the CRD that declares it.
///
/// `#[derive(CustomResourceSchema)]` implements it for the root type it generates when a spec
/// type carries resource attributes (`#[kstruct(group = "...", version = "...", kind =
/// "...")]`; see the derive's documentation for all of them). Serializing a value writes
/// `apiVersion` and `kind` first; deserializing accepts them absent and refuses them when
/// they name another version or kind.
pub trait CustomResource: CustomResourceSchema + Serialize + DeserializeOwned {
    /// The spec type (the one carrying the resource attributes).
    type Spec;

    /// The resource's identity and the CRD's options.
    const RESOURCE: Resource;

    /// `metadata`.
    fn metadata(&self) -> &ObjectMeta;

    /// `metadata`, to change.
    fn metadata_mut(&mut self) -> &mut ObjectMeta;

    /// `spec`.
    fn spec(&self) -> &Self::Spec;

    /// The CRD of this version: `apiextensions.k8s.io/v1`, with this version only (merge
    /// several versions with [`merge_crds`]).
    ///
    /// The CRD holds exactly what the attributes ask for, never less. Where the derive can see
    /// the types (structs, maps, lists, unit-only and externally tagged enums), what the
    /// attributes name is checked when the crate compiles: list-map keys, printer-column, scale
    /// and selectable-field paths, `*_one_of` members (a misspelt name is a compile error with
    /// a did-you-mean). Where only run time can tell (below a hand-written
    /// [`CustomResourceSchema`] impl, `schema_with` or `#[kstruct(schemars)]`, inside unions
    /// of variants, a field that keeps unknown fields, a default that does not serialize, a
    /// schemars schema with no structural equivalent), `crd()` panics with the problems
    /// [`try_crd`](Self::try_crd) reports, rather than emit a CRD that lacks an attribute.
    ///
    /// Whether the API server accepts the CRD is another question, answered by
    /// [`lint`](crate::lint) (a default outside its own bounds, say): one line in an
    /// operator's tests keeps every generated CRD honest.
    ///
    /// ```
    /// # use kstruct::{CustomResource, CustomResourceSchema};
    /// # #[derive(CustomResourceSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
    /// # #[kstruct(group = "example.com", version = "v1", kind = "Widget")]
    /// # pub struct WidgetSpec { size: i32 }
    /// let refused = kstruct::lint::lint_typed(&Widget::crd()).unwrap();
    /// assert!(refused.is_empty(), "the API server would refuse the CRD: {refused:?}");
    /// ```
    ///
    /// # Panics
    ///
    /// When the types cannot express what the attributes ask for, in the places the compiler
    /// cannot see (above); [`try_crd`](Self::try_crd) returns the same as an error.
    fn crd() -> CustomResourceDefinition {
        crd_for::<Self>()
    }

    /// The CRD, or every problem found with it: the schema's (as
    /// [`try_schema_for`](crate::try_schema_for) finds them), the paths of printer
    /// columns, scale and selectable fields that the schema does not have, and then anything
    /// else the API server would refuse when the CRD is created ([`lint`](crate::lint)).
    fn try_crd() -> Result<CustomResourceDefinition, crate::Error> {
        try_crd_for::<Self>()
    }
}

/// The identity of a custom resource's kind and version, and the options of its CRD: what
/// the resource attributes say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource {
    /// API group: `example.com`.
    pub group: &'static str,
    /// Version: `v1`.
    pub version: &'static str,
    /// `group/version`: `example.com/v1`.
    pub api_version: &'static str,
    /// Kind: `Widget`.
    pub kind: &'static str,
    /// Kind of lists: `WidgetList`.
    pub list_kind: &'static str,
    /// Plural, the resource name in URLs: `widgets`.
    pub plural: &'static str,
    /// Singular: `widget`.
    pub singular: &'static str,
    /// The CRD's name: `widgets.example.com`.
    pub crd_name: &'static str,
    /// Namespaced (true) or cluster-scoped.
    pub namespaced: bool,
    /// `shortNames`.
    pub short_names: &'static [&'static str],
    /// `categories`.
    pub categories: &'static [&'static str],
    /// The version is served.
    pub served: bool,
    /// The version is the storage version.
    pub storage: bool,
    /// The version is deprecated.
    pub deprecated: bool,
    /// The warning clients get for a deprecated version (the server's default when `None`).
    pub deprecation_warning: Option<&'static str>,
    /// `additionalPrinterColumns`.
    pub printer_columns: &'static [PrinterColumn],
    /// The status subresource is enabled (a status type is named).
    pub status_subresource: bool,
    /// The scale subresource.
    pub scale: Option<Scale>,
    /// `selectableFields`, as JSON paths.
    pub selectable_fields: &'static [&'static str],
    /// The root schema's description.
    pub description: Option<&'static str>,
    /// Labels of the CRD object.
    pub labels: &'static [(&'static str, &'static str)],
    /// Annotations of the CRD object.
    pub annotations: &'static [(&'static str, &'static str)],
}

/// A column of `kubectl get` (`additionalPrinterColumns`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrinterColumn {
    /// Header.
    pub name: &'static str,
    /// `integer`, `number`, `string`, `boolean` or `date`.
    pub type_: &'static str,
    /// Where the value is (`.spec.replicas`).
    pub json_path: &'static str,
    /// Description.
    pub description: Option<&'static str>,
    /// OpenAPI format.
    pub format: Option<&'static str>,
    /// 0 (default view) or more (`-o wide`).
    pub priority: Option<i32>,
}

/// The scale subresource's paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    /// The desired replicas, under `.spec`.
    pub spec_replicas_path: &'static str,
    /// The observed replicas, under `.status`.
    pub status_replicas_path: &'static str,
    /// The label selector, as a string.
    pub label_selector_path: Option<&'static str>,
}
