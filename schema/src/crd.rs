//! CustomResourceDefinition documents (`apiextensions.k8s.io/v1`): the parts kstruct needs.

use serde_json::Value;

use crate::Error;
use crate::field::Path;
use crate::structural::Structural;

/// The API version of the CRDs kstruct reads.
pub const API_VERSION: &str = "apiextensions.k8s.io/v1";
/// The kind of a CRD.
pub const KIND: &str = "CustomResourceDefinition";

/// A CustomResourceDefinition: its identity and its versions, each with its raw schema.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomResourceDefinition {
    /// `metadata.name` (`<plural>.<group>`).
    pub name: String,
    /// `spec.group`.
    pub group: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.names.plural`.
    pub plural: String,
    /// `spec.names.listKind`.
    pub list_kind: String,
    /// `spec.scope`: `Namespaced` or `Cluster`.
    pub scope: String,
    /// `spec.preserveUnknownFields`: when true the API server neither prunes nor defaults.
    pub preserve_unknown_fields: bool,
    /// `spec.versions`, in document order.
    pub versions: Vec<CrdVersion>,
}

/// One entry of `spec.versions`.
#[derive(Debug, Clone, PartialEq)]
pub struct CrdVersion {
    /// `name`, e.g. `v1alpha1`.
    pub name: String,
    /// `served`.
    pub served: bool,
    /// `storage`.
    pub storage: bool,
    /// `schema.openAPIV3Schema`, as written (`None` when absent or null).
    pub schema: Option<Value>,
    /// Whether `subresources.status` is set: creates and updates through the main endpoint
    /// then drop `status`.
    pub status_subresource: bool,
    /// `subresources.scale`.
    pub scale: Option<ScaleSubresource>,
}

/// `subresources.scale` of a CRD version: where the replica counts and the selector are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScaleSubresource {
    /// `specReplicasPath`, e.g. `.spec.replicas`.
    pub spec_replicas_path: String,
    /// `statusReplicasPath`, e.g. `.status.replicas`.
    pub status_replicas_path: String,
    /// `labelSelectorPath`, when set.
    pub label_selector_path: Option<String>,
}

impl CrdVersion {
    /// Converts this version's schema (see [`convert::from_value`](crate::convert::from_value)).
    pub fn structural(&self) -> Result<Option<Structural>, Error> {
        match &self.schema {
            None => Ok(None),
            Some(v) => crate::convert::from_value(v),
        }
    }
}

/// True when `doc` declares itself a CustomResourceDefinition (any `apiextensions.k8s.io`
/// version).
pub fn is_crd(doc: &Value) -> bool {
    doc.get("kind").and_then(Value::as_str) == Some(KIND)
        && doc
            .get("apiVersion")
            .and_then(Value::as_str)
            .is_some_and(|v| v.starts_with("apiextensions.k8s.io/"))
}

impl CustomResourceDefinition {
    /// Reads a CRD document. Only `apiextensions.k8s.io/v1` is accepted; errors name the field.
    ///
    /// ```
    /// let doc = serde_json::json!({
    ///     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    ///     "metadata": {"name": "widgets.example.com"},
    ///     "spec": {"group": "example.com", "scope": "Namespaced",
    ///              "names": {"kind": "Widget", "plural": "widgets"},
    ///              "versions": [{"name": "v1", "served": true, "storage": true,
    ///                            "schema": {"openAPIV3Schema": {"type": "object"}}}]},
    /// });
    /// let crd = kstruct_schema::crd::CustomResourceDefinition::from_value(&doc).unwrap();
    /// assert_eq!((crd.group.as_str(), crd.kind.as_str()), ("example.com", "Widget"));
    /// assert!(crd.version("v1").unwrap().structural().unwrap().is_some());
    /// ```
    pub fn from_value(doc: &Value) -> Result<CustomResourceDefinition, Error> {
        let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        if doc.get("kind").and_then(Value::as_str) != Some(KIND) || !api_version.starts_with("apiextensions.k8s.io/") {
            return Err(Error::Crd(format!("not a {KIND}: apiVersion {api_version:?}")));
        }
        if api_version != API_VERSION {
            return Err(Error::Crd(format!(
                "{api_version} {KIND}s are not supported (the API server dropped them in Kubernetes 1.22); \
                 convert the document to {API_VERSION}"
            )));
        }
        let spec = Path::new("spec");
        let name = opt_str(doc, &["metadata", "name"], &Path::new("metadata").child("name"))?;
        let group = opt_str(doc, &["spec", "group"], &spec.child("group"))?;
        let names = spec.child("names");
        let kind = opt_str(doc, &["spec", "names", "kind"], &names.child("kind"))?;
        let plural = opt_str(doc, &["spec", "names", "plural"], &names.child("plural"))?;
        let list_kind = opt_str(doc, &["spec", "names", "listKind"], &names.child("listKind"))?;
        let scope = opt_str(doc, &["spec", "scope"], &spec.child("scope"))?;
        let preserve_unknown_fields = opt_bool(
            doc,
            &["spec", "preserveUnknownFields"],
            &spec.child("preserveUnknownFields"),
        )?;
        let mut versions = Vec::new();
        match lookup(doc, &["spec", "versions"]) {
            None | Some(Value::Null) => {}
            Some(Value::Array(list)) => {
                for (i, v) in list.iter().enumerate() {
                    let p = spec.child("versions").index(i);
                    if !v.is_object() {
                        return Err(Error::Crd(format!("{p}: must be an object")));
                    }
                    versions.push(CrdVersion {
                        name: req_str(v, &["name"], &p.child("name"))?,
                        served: opt_bool(v, &["served"], &p.child("served"))?,
                        storage: opt_bool(v, &["storage"], &p.child("storage"))?,
                        schema: lookup(v, &["schema", "openAPIV3Schema"])
                            .filter(|s| !s.is_null())
                            .cloned(),
                        status_subresource: lookup(v, &["subresources", "status"]).is_some_and(|s| !s.is_null()),
                        scale: match lookup(v, &["subresources", "scale"]) {
                            None | Some(Value::Null) => None,
                            Some(_) => {
                                let sp = p.child("subresources").child("scale");
                                let path = |k: &str| opt_str(v, &["subresources", "scale", k], &sp.child(k));
                                let selector = path("labelSelectorPath")?;
                                Some(ScaleSubresource {
                                    spec_replicas_path: path("specReplicasPath")?,
                                    status_replicas_path: path("statusReplicasPath")?,
                                    label_selector_path: lookup(v, &["subresources", "scale", "labelSelectorPath"])
                                        .filter(|s| !s.is_null())
                                        .map(|_| selector),
                                })
                            }
                        },
                    });
                }
            }
            Some(_) => {
                return Err(Error::Crd(format!("{}: must be a list", spec.child("versions"))));
            }
        }
        Ok(CustomResourceDefinition {
            name,
            group,
            kind,
            plural,
            list_kind,
            scope,
            preserve_unknown_fields,
            versions,
        })
    }

    /// The version named `name`.
    pub fn version(&self, name: &str) -> Option<&CrdVersion> {
        self.versions.iter().find(|v| v.name == name)
    }
}

fn lookup<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

fn opt_str(doc: &Value, path: &[&str], p: &Path) -> Result<String, Error> {
    match lookup(doc, path) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(Error::Crd(format!("{p}: must be a string"))),
    }
}

fn req_str(doc: &Value, path: &[&str], p: &Path) -> Result<String, Error> {
    let s = opt_str(doc, path, p)?;
    if s.is_empty() {
        return Err(Error::Crd(format!("{p}: Required value")));
    }
    Ok(s)
}

fn opt_bool(doc: &Value, path: &[&str], p: &Path) -> Result<bool, Error> {
    match lookup(doc, path) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(Error::Crd(format!("{p}: must be a boolean"))),
    }
}
