//! Layer 12: A registry of CRDs loaded at run time, looked up by group, version and kind.

use std::path::Path;
use std::sync::Arc;

use kstruct_schema::crd::{self, CustomResourceDefinition};

use crate::Error;
use crate::decode::{self, DecodeOptions, Decoded, Resolve, Selected, TextList};
use crate::gvk::GroupVersionKind;
use crate::input;
use crate::interpreter::Interpreter;
use crate::rules::RuleResults;
use serde_json::Value;

/// One registered CRD, with each version's schema converted and its defaults pruned once.
#[derive(Debug, Clone)]
pub struct RegisteredCrd {
    /// The CRD as read.
    pub crd: CustomResourceDefinition,
    versions: Vec<(String, Result<Arc<Interpreter>, kstruct_schema::Error>)>,
}

impl RegisteredCrd {
    /// Registers `crd`: converts every version's schema and prunes its defaults, as the API
    /// server does when it starts serving the CRD (no default pruning when
    /// `spec.preserveUnknownFields` is true, as in the server).
    pub fn new(crd: CustomResourceDefinition) -> RegisteredCrd {
        let versions = crd
            .versions
            .iter()
            .map(|v| {
                let interp = v.structural().map(|s| {
                    let interp = if crd.preserve_unknown_fields {
                        Interpreter::without_default_pruning(s)
                    } else {
                        Interpreter::new(s)
                    };
                    let gvk = GroupVersionKind::new(&crd.group, &v.name, &crd.kind);
                    Arc::new(
                        interp
                            .with_resource(gvk)
                            .with_preserve_unknown_fields(crd.preserve_unknown_fields),
                    )
                });
                (v.name.clone(), interp)
            })
            .collect();
        RegisteredCrd { crd, versions }
    }

    /// The pipeline of version `name`: `None` if the CRD has no such version, `Some(Err)` if
    /// its schema could not be converted.
    pub fn version(&self, name: &str) -> Option<Result<&Arc<Interpreter>, &kstruct_schema::Error>> {
        self.versions.iter().find(|(n, _)| n == name).map(|(_, r)| r.as_ref())
    }

    /// Names of the versions, in document order.
    pub fn version_names(&self) -> impl Iterator<Item = &str> {
        self.versions.iter().map(|(n, _)| n.as_str())
    }

    /// Decodes a request body as this CRD's endpoint would (see [`decode::request`]).
    ///
    /// # Errors
    /// [`Error::Rejected`] when the API server would reject the body; [`Error::Schema`] when
    /// the version the object names has a schema that did not convert.
    pub fn decode(&self, body: &[u8], options: &DecodeOptions) -> Result<Decoded, Error> {
        decode::request(self, body, options)
    }

    /// Decodes a stored object of this CRD (see [`decode::storage`]).
    ///
    /// # Errors
    /// As [`decode`](RegisteredCrd::decode).
    pub fn decode_storage(&self, body: &[u8]) -> Result<Decoded, Error> {
        decode::storage(self, body)
    }

    /// Evaluates the CEL rules of `version`'s schema, and nothing else of validation, on
    /// `object` (a create) or on `object` replacing `old` (an update: transition rules see
    /// `oldSelf`, and errors of unchanged values are ratcheted into warnings), with the API
    /// server's field errors and cost budget. What a controller or webhook written in Rust
    /// checks before it writes an object.
    ///
    /// ```
    /// use kstruct::RegisteredCrd;
    /// use kstruct::schema::crd::CustomResourceDefinition;
    ///
    /// let crd = CustomResourceDefinition::from_value(&kstruct::schema::yaml::to_json(r#"
    /// apiVersion: apiextensions.k8s.io/v1
    /// kind: CustomResourceDefinition
    /// metadata: {name: databases.example.com}
    /// spec:
    ///   group: example.com
    ///   names: {kind: Database, plural: databases}
    ///   scope: Namespaced
    ///   versions:
    ///   - name: v1
    ///     served: true
    ///     storage: true
    ///     schema:
    ///       openAPIV3Schema:
    ///         type: object
    ///         properties:
    ///           spec:
    ///             type: object
    ///             x-kubernetes-validations:
    ///             - {rule: "self.replicas >= oldSelf.replicas", message: cannot scale down}
    ///             properties:
    ///               replicas: {type: integer}
    /// "#).unwrap().value).unwrap();
    /// let db = RegisteredCrd::new(crd);
    /// let old = serde_json::json!({"spec": {"replicas": 3}});
    /// let new = serde_json::json!({"spec": {"replicas": 2}});
    /// let found = db.validate_rules("v1", &new, Some(&old)).unwrap();
    /// assert_eq!(found.errors[0].to_string(), "spec: Invalid value: cannot scale down");
    /// assert!(db.validate_rules("v1", &new, None).unwrap().errors.is_empty());
    /// ```
    ///
    /// # Errors
    /// [`Error::NoSuchVersion`] when the CRD has no such version; [`Error::Schema`] when its
    /// schema did not convert.
    pub fn validate_rules(&self, version: &str, object: &Value, old: Option<&Value>) -> Result<RuleResults, Error> {
        let pipeline = self.version(version).ok_or_else(|| Error::NoSuchVersion {
            group: self.crd.group.clone(),
            version: version.to_string(),
            kind: self.crd.kind.clone(),
        })?;
        let pipeline = pipeline.map_err(|e| Error::Schema(e.clone()))?;
        Ok(match pipeline.schema() {
            Some(schema) => crate::rules::validate_rules_update(schema, object, old, crate::rules::RUNTIME_COST_BUDGET),
            None => RuleResults::default(),
        })
    }
}

impl Resolve for RegisteredCrd {
    type Pipeline = Interpreter;

    fn served_kind(&self) -> Option<&str> {
        Some(&self.crd.kind)
    }

    fn served_group_version(&self) -> Option<(&str, &str)> {
        let mut served = self.crd.versions.iter().filter(|v| v.served);
        match (served.next(), served.next()) {
            (Some(only), None) => Some((self.crd.group.as_str(), only.name.as_str())),
            _ => None,
        }
    }

    fn resolve(&self, group: &str, version: &str, kind: &str) -> Result<Selected<'_, Interpreter>, Error> {
        if group != self.crd.group || kind != self.crd.kind {
            return Ok(Selected::Other);
        }
        let preserve_unknown_fields = self.crd.preserve_unknown_fields;
        let pipeline = match self.version(version) {
            None => None,
            Some(Ok(p)) => Some(&**p),
            // With preserveUnknownFields the API server serves a schema that does not convert
            // as no schema at all; otherwise it does not serve the CRD.
            Some(Err(_)) if preserve_unknown_fields => None,
            Some(Err(e)) => {
                return Err(Error::Unservable {
                    crd: self.crd.name.clone(),
                    version: version.to_string(),
                    reason: e.to_string(),
                });
            }
        };
        Ok(Selected::Crd {
            pipeline,
            preserve_unknown_fields,
        })
    }

    fn create_context(
        &self,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Result<Option<crate::validation::CreateContext<'_>>, Error> {
        if group != self.crd.group || kind != self.crd.kind {
            return Ok(None);
        }
        let Some(v) = self.crd.version(version) else {
            return Ok(None);
        };
        let pipeline = match self.version(version) {
            Some(Ok(interpreter)) => Some(&**interpreter as &dyn crate::Pipeline),
            _ => None,
        };
        Ok(Some(crate::validation::CreateContext {
            pipeline,
            group: &self.crd.group,
            version: &v.name,
            kind: &self.crd.kind,
            resource: &self.crd.name,
            namespaced: self.crd.scope == "Namespaced",
            status_subresource: v.status_subresource,
            scale: v.scale.as_ref().map(Into::into),
        }))
    }
}

/// CRDs by group, version and kind.
///
/// ```
/// let mut registry = kstruct::Registry::new();
/// registry.add_yaml(r#"
/// apiVersion: apiextensions.k8s.io/v1
/// kind: CustomResourceDefinition
/// metadata: {name: widgets.example.com}
/// spec:
///   group: example.com
///   names: {kind: Widget, plural: widgets}
///   scope: Namespaced
///   versions:
///   - name: v1
///     served: true
///     storage: true
///     schema:
///       openAPIV3Schema: {type: object}
/// "#, "widgets.yaml").unwrap();
/// let crd = registry.find("example.com", "Widget").unwrap();
/// assert!(crd.version("v1").unwrap().is_ok());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Registry {
    crds: Vec<RegisteredCrd>,
    builtins: Option<crate::builtin::BuiltinKinds>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Serves Kubernetes' own kinds of `release` beside the CRDs, as an API server of that
    /// release does: [`decode_served`](Registry::decode_served) decodes an object of a
    /// built-in kind no CRD declares into its Go types (see [`crate::builtin`]).
    ///
    /// ```
    /// use kstruct::{DecodeOptions, Registry};
    /// use kstruct::builtin::Release;
    ///
    /// let registry = Registry::new().with_builtins(Release::newest());
    /// let body = br#"{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": 1}}"#;
    /// let err = registry.decode_served(body, &DecodeOptions::default()).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string"
    /// );
    /// ```
    #[must_use]
    pub fn with_builtins(mut self, release: crate::builtin::Release) -> Registry {
        self.builtins = Some(crate::builtin::BuiltinKinds::new(release));
        self
    }

    /// The built-in kinds served beside the CRDs, when [`with_builtins`](Registry::with_builtins)
    /// asked for them.
    pub fn builtins(&self) -> Option<&crate::builtin::BuiltinKinds> {
        self.builtins.as_ref()
    }

    /// Registers one CRD. A later CRD for the same group and kind replaces the earlier one.
    pub fn add(&mut self, crd: CustomResourceDefinition) {
        self.crds
            .retain(|c| !(c.crd.group == crd.group && c.crd.kind == crd.kind));
        self.crds.push(RegisteredCrd::new(crd));
    }

    /// Registers every CRD in a YAML or JSON stream; other documents are skipped. Returns how
    /// many CRDs were added. `origin` names the input in errors.
    pub fn add_yaml(&mut self, text: &str, origin: &str) -> Result<usize, Error> {
        let mut added = 0;
        for doc in input::read_documents(text.as_bytes(), origin) {
            let value = doc.value?;
            if crd::is_crd(&value) {
                let crd = CustomResourceDefinition::from_value(&value)
                    .map_err(|e| Error::Crd(format!("{origin}:{}: {e}", doc.line)))?;
                self.add(crd);
                added += 1;
            }
        }
        Ok(added)
    }

    /// Registers every CRD in a file (see [`add_yaml`](Registry::add_yaml)).
    pub fn load_file(&mut self, path: &Path) -> Result<usize, Error> {
        let text = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let text = String::from_utf8_lossy(&text);
        self.add_yaml(&text, &path.display().to_string())
    }

    /// Registers every CRD in every `.yaml`, `.yml` and `.json` file below `dir` (walked
    /// recursively, in path order). Returns how many CRDs were added.
    ///
    /// ```no_run
    /// let mut registry = kstruct::Registry::new();
    /// let added = registry.load_dir(std::path::Path::new("deploy/crds"))?;
    /// println!("{added} CRDs");
    /// # Ok::<(), kstruct::Error>(())
    /// ```
    ///
    /// # Errors
    /// The first file that cannot be read or holds a CRD that cannot be used, named with its
    /// path (and line).
    pub fn load_dir(&mut self, dir: &Path) -> Result<usize, Error> {
        let (files, unreadable) = input::manifest_files(dir, &|_| false);
        if let Some((path, source)) = unreadable.into_iter().next() {
            return Err(Error::Io { path, source });
        }
        let mut added = 0;
        for f in files {
            added += self.load_file(&f)?;
        }
        Ok(added)
    }

    /// The CRD for `group` and `kind`.
    pub fn find(&self, group: &str, kind: &str) -> Option<&RegisteredCrd> {
        self.crds.iter().find(|c| c.crd.group == group && c.crd.kind == kind)
    }

    /// The CRD whose `spec.names.kind` is `kind` (the first, if several groups use it).
    pub fn find_kind(&self, kind: &str) -> Option<&RegisteredCrd> {
        self.crds.iter().find(|c| c.crd.kind == kind)
    }

    /// All registered CRDs, in registration order.
    pub fn crds(&self) -> &[RegisteredCrd] {
        &self.crds
    }

    /// Decodes a request body with the CRD its group and kind name (see
    /// [`decode::request`]); an object of no registered CRD is decoded without a schema.
    ///
    /// # Errors
    /// As [`RegisteredCrd::decode`].
    pub fn decode(&self, body: &[u8], options: &DecodeOptions) -> Result<Decoded, Error> {
        decode::request(self, body, options)
    }

    /// Decodes a request body as an API server serving exactly these CRDs would: an object
    /// whose group and kind no CRD declares is refused with [`Error::NoSuchKind`], one whose
    /// version its CRD does not serve (absent, or `served: false`) with
    /// [`Error::NoSuchVersion`], instead of being decoded without a schema as
    /// [`decode`](Registry::decode) does.
    ///
    /// ```
    /// # let mut registry = kstruct::Registry::new();
    /// # registry.add_yaml(r#"
    /// # apiVersion: apiextensions.k8s.io/v1
    /// # kind: CustomResourceDefinition
    /// # metadata: {name: widgets.example.com}
    /// # spec:
    /// #   group: example.com
    /// #   names: {kind: Widget, plural: widgets}
    /// #   scope: Namespaced
    /// #   versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
    /// # "#, "widgets.yaml").unwrap();
    /// use kstruct::{DecodeOptions, Error};
    /// let err = registry
    ///     .decode_served(br#"{"apiVersion": "example.com/v2", "kind": "Widget"}"#, &DecodeOptions::default())
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), r#"no matches for kind "Widget" in version "example.com/v2""#);
    /// assert!(matches!(err, Error::NoSuchVersion { .. }));
    /// ```
    ///
    /// With [`with_builtins`](Registry::with_builtins), an object of a built-in kind no CRD
    /// declares is decoded into its Go types instead.
    ///
    /// # Errors
    /// As [`RegisteredCrd::decode`], and the two above.
    pub fn decode_served(&self, body: &[u8], options: &DecodeOptions) -> Result<Decoded, Error> {
        let answer = decode::request(&Served(self), body, options);
        match (&answer, &self.builtins) {
            // No CRD declares the kind: one of the server's own, when it serves them.
            (Err(Error::NoSuchKind { .. }), Some(builtins)) => match builtins.decode(body, options) {
                Err(Error::NotBuiltin { .. }) => answer,
                typed => typed,
            },
            _ => answer,
        }
    }

    /// Decodes a request body (as [`decode_served`](Registry::decode_served)) straight into a
    /// Rust type: what the API server would store, read as `T` (a type with
    /// `#[derive(CustomResourceSchema)]`'s resource attributes, a kube-rs resource, or any
    /// `DeserializeOwned`). Warnings are returned beside it.
    ///
    /// ```
    /// # let mut registry = kstruct::Registry::new();
    /// # registry.add_yaml(r#"
    /// # apiVersion: apiextensions.k8s.io/v1
    /// # kind: CustomResourceDefinition
    /// # metadata: {name: widgets.example.com}
    /// # spec:
    /// #   group: example.com
    /// #   names: {kind: Widget, plural: widgets}
    /// #   scope: Namespaced
    /// #   versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object,
    /// #     properties: {spec: {type: object, properties: {size: {type: integer, default: 3}}}}}}}]
    /// # "#, "widgets.yaml").unwrap();
    /// #[derive(serde::Deserialize)]
    /// struct Widget { spec: WidgetSpec }
    /// #[derive(serde::Deserialize)]
    /// struct WidgetSpec { size: u32 }
    ///
    /// let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"colour": "red"}}"#;
    /// let (widget, warnings): (Widget, _) = registry.decode_as(body, &kstruct::DecodeOptions::default())?;
    /// assert_eq!(widget.spec.size, 3);
    /// assert_eq!(warnings, [r#"unknown field "spec.colour""#]);
    /// # Ok::<(), kstruct::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`decode_served`](Registry::decode_served), and [`Error::Deserialize`] when the
    /// stored object does not read as `T`.
    pub fn decode_as<T: serde::de::DeserializeOwned>(
        &self,
        body: &[u8],
        options: &DecodeOptions,
    ) -> Result<(T, TextList), Error> {
        let decoded = self.decode_served(body, options)?;
        let value = serde_json::from_value(decoded.object).map_err(|source| Error::Deserialize {
            type_name: std::any::type_name::<T>(),
            source,
        })?;
        Ok((value, decoded.warnings))
    }

    /// Decodes a stored object with the CRD its group and kind name (see
    /// [`decode::storage`]).
    ///
    /// # Errors
    /// As [`RegisteredCrd::decode`].
    pub fn decode_storage(&self, body: &[u8]) -> Result<Decoded, Error> {
        decode::storage(self, body)
    }
}

impl Resolve for Registry {
    type Pipeline = Interpreter;

    fn served_kind(&self) -> Option<&str> {
        None
    }

    fn resolve(&self, group: &str, version: &str, kind: &str) -> Result<Selected<'_, Interpreter>, Error> {
        match self.find(group, kind) {
            Some(crd) => crd.resolve(group, version, kind),
            None => Ok(Selected::Other),
        }
    }

    fn create_context(
        &self,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Result<Option<crate::validation::CreateContext<'_>>, Error> {
        match self.find(group, kind) {
            Some(crd) => crd.create_context(group, version, kind),
            None => Ok(None),
        }
    }
}

/// A registry that serves only what its CRDs declare (see [`Registry::decode_served`]).
struct Served<'a>(&'a Registry);

impl Resolve for Served<'_> {
    type Pipeline = Interpreter;

    fn served_kind(&self) -> Option<&str> {
        None
    }

    fn resolve(&self, group: &str, version: &str, kind: &str) -> Result<Selected<'_, Interpreter>, Error> {
        let crd = self.0.find(group, kind).ok_or_else(|| Error::NoSuchKind {
            group: group.to_string(),
            kind: kind.to_string(),
        })?;
        if !crd.crd.versions.iter().any(|v| v.name == version && v.served) {
            return Err(Error::NoSuchVersion {
                group: group.to_string(),
                version: version.to_string(),
                kind: kind.to_string(),
            });
        }
        crd.resolve(group, version, kind)
    }

    fn create_context(
        &self,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Result<Option<crate::validation::CreateContext<'_>>, Error> {
        self.0.create_context(group, version, kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FieldValidation;

    const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer, default: 2}}}}}}}
  - {name: v0, served: false, storage: false, schema: {openAPIV3Schema: {type: object}}}
";

    #[test]
    fn load_dir_reads_every_manifest_file_below() {
        let dir = std::env::temp_dir().join(format!("kstruct-registry-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("nested")).unwrap();
        std::fs::write(dir.join("nested/widgets.yaml"), CRD).unwrap();
        std::fs::write(dir.join("notes.txt"), "not a manifest").unwrap();
        std::fs::write(dir.join("other.json"), r#"{"apiVersion": "v1", "kind": "ConfigMap"}"#).unwrap();
        let mut registry = Registry::new();
        assert_eq!(registry.load_dir(&dir).unwrap(), 1);
        assert!(registry.find("example.com", "Widget").is_some());
        let err = Registry::new().load_dir(&dir.join("missing")).unwrap_err();
        assert!(matches!(err, Error::Io { .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn decode_served_answers_unknown_kinds_and_versions_with_typed_errors() {
        let mut registry = Registry::new();
        registry.add_yaml(CRD, "crd.yaml").unwrap();
        let options = DecodeOptions::default();
        let err = registry
            .decode_served(br#"{"apiVersion": "example.com/v1", "kind": "Gadget"}"#, &options)
            .unwrap_err();
        assert_eq!(err.to_string(), r#"no CRD for kind "Gadget" in group "example.com""#);
        assert_eq!(err.status().code, 404);
        // Declared but not served.
        let err = registry
            .decode_served(br#"{"apiVersion": "example.com/v0", "kind": "Widget"}"#, &options)
            .unwrap_err();
        assert!(
            matches!(&err, Error::NoSuchVersion { version, .. } if version == "v0"),
            "{err}"
        );
        // The plain decode goes on without a schema.
        assert!(
            registry
                .decode(
                    br#"{"apiVersion": "example.com/v1", "kind": "Gadget", "x": 1}"#,
                    &options
                )
                .is_ok()
        );
        // Rejections are 400s.
        let strict = DecodeOptions {
            field_validation: FieldValidation::Strict,
            ..options
        };
        let err = registry
            .decode_served(
                br#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"x": 1}}"#,
                &strict,
            )
            .unwrap_err();
        assert_eq!(err.status().code, 400);
        assert_eq!(err.status().reason, "BadRequest");
    }

    #[test]
    fn decode_as_reads_the_stored_object_into_a_type() {
        #[derive(serde::Deserialize)]
        struct Widget {
            spec: Spec,
        }
        #[derive(serde::Deserialize)]
        struct Spec {
            size: i64,
        }
        let mut registry = Registry::new();
        registry.add_yaml(CRD, "crd.yaml").unwrap();
        let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"colour": "red"}}"#;
        let (w, warnings): (Widget, _) = registry.decode_as(body, &DecodeOptions::default()).unwrap();
        assert_eq!(w.spec.size, 2);
        assert_eq!(warnings, [r#"unknown field "spec.colour""#]);
        let err = registry
            .decode_as::<Vec<u8>>(body, &DecodeOptions::default())
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the decoded object is not a alloc::vec::Vec<u8>: invalid type: map"),
            "{err}"
        );
    }
}
