//! The serde contract of `#[derive(CustomResourceSchema)]`, as one check per value: what
//! serde writes for a value, sent to the API server as the `spec` of a custom resource whose
//! schema is the type's, comes back as the same value, with nothing reported, and satisfies
//! the schema's value validations; keys serde ignores are reported as unknown fields.

use std::fmt::Debug;

use kstruct::schema::{AdditionalProperties, Structural};
use kstruct::{
    CustomResourceSchema, DecodeExt, DecodeOptions, FieldValidation, Generator, GroupVersionKind, Interpreter,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A CRD document (group `example.com`, kind `Widget`, one version `v1`) whose version schema
/// is `root`.
pub fn crd_document(root: Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": root}}],
        },
    })
}

/// The key injected where serde ignores unknown keys.
pub const INJECTED: &str = "kstructInjected";

/// The schema of `T` as a `spec`, and the pipeline of a resource with that spec.
pub struct Contract {
    /// `T`'s schema.
    pub spec: Structural,
    /// The resource's pipeline (root: `{type: object, properties: {spec: ...}}`).
    pub pipeline: Interpreter,
}

impl Contract {
    /// The contract of `T`: its schema must generate without problems and be structural.
    pub fn of<T: CustomResourceSchema + ?Sized>() -> Contract {
        if let Err(e) = kstruct::try_schema_for::<T>() {
            panic!("{e}");
        }
        let spec = Generator::new().subschema_for::<T>();
        let mut root = Structural::default();
        root.generic.type_ = "object".into();
        root.properties.insert("spec".into(), spec.clone());
        let pipeline =
            Interpreter::new(Some(root)).with_resource(GroupVersionKind::new("contract.kstruct.io", "v1", "Probe"));
        Contract { spec, pipeline }
    }

    /// Checks one value; `Err` says what broke.
    pub fn check<T: Serialize + DeserializeOwned + PartialEq + Debug>(&self, value: &T) -> Result<(), String> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Body<'a, T> {
            api_version: &'static str,
            kind: &'static str,
            metadata: Value,
            spec: &'a T,
        }
        let body = Body {
            api_version: "contract.kstruct.io/v1",
            kind: "Probe",
            metadata: json!({"name": "probe"}),
            spec: value,
        };
        let bytes = serde_json::to_vec(&body).map_err(|e| format!("serde cannot write the value: {e}"))?;
        let strict = DecodeOptions {
            field_validation: FieldValidation::Strict,
            ..DecodeOptions::default()
        };
        let written = String::from_utf8_lossy(&bytes).into_owned();
        let decoded = self
            .pipeline
            .decode(&bytes, &strict)
            .map_err(|e| format!("the API server rejects what serde writes: {e}\n  body: {written}"))?;
        if !decoded.warnings.is_empty() {
            return Err(format!("warnings {:?}\n  body: {written}", decoded.warnings));
        }
        let spec = decoded.object.get("spec").cloned().unwrap_or(Value::Null);
        let back: T = serde_json::from_value(spec.clone()).map_err(|e| {
            format!("serde cannot read what the API server keeps: {e}\n  body: {written}\n  kept: {spec}")
        })?;
        if &back != value {
            return Err(format!(
                "the value changed: {back:?} != {value:?}\n  body: {written}\n  kept: {spec}"
            ));
        }
        let errors = kstruct::validation::validate_value(None, &self.spec, &spec);
        if !errors.is_empty() {
            return Err(format!("value validation fails: {errors:?}\n  kept: {spec}"));
        }
        self.check_unknown_fields(value)
    }

    /// Injects a key at every struct position of what serde writes: each must be reported as
    /// an unknown field, and the value must still come back.
    fn check_unknown_fields<T: Serialize + DeserializeOwned + PartialEq + Debug>(
        &self,
        value: &T,
    ) -> Result<(), String> {
        let mut spec = serde_json::to_value(value).map_err(|e| e.to_string())?;
        let mut expected = Vec::new();
        inject(&self.spec, &mut spec, "spec", &mut expected);
        if expected.is_empty() {
            return Ok(());
        }
        let body = json!({"apiVersion": "contract.kstruct.io/v1", "kind": "Probe", "metadata": {"name": "probe"}, "spec": spec});
        let bytes = serde_json::to_vec(&body).map_err(|e| e.to_string())?;
        let decoded = self
            .pipeline
            .decode(&bytes, &DecodeOptions::default())
            .map_err(|e| format!("rejected with injected keys: {e}"))?;
        let mut reported = decoded.unknown_fields.clone();
        reported.sort();
        expected.sort();
        if reported != expected {
            return Err(format!(
                "unknown fields {reported:?}, expected {expected:?}\n  body: {body}"
            ));
        }
        let back: T = serde_json::from_value(decoded.object["spec"].clone())
            .map_err(|e| format!("serde cannot read the pruned value: {e}"))?;
        if &back != value {
            return Err(format!("the pruned value changed: {back:?} != {value:?}"));
        }
        Ok(())
    }
}

/// Adds [`INJECTED`] to every object the schema types as a struct (properties, no unknown
/// fields kept), recording the paths the API server reports.
fn inject(s: &Structural, v: &mut Value, path: &str, expected: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            let is_struct = s.generic.type_ == "object"
                && !s.extensions.x_preserve_unknown_fields
                && s.additional_properties.is_none()
                && !s.properties.is_empty()
                && !s.properties.contains_key(INJECTED);
            for (k, x) in m.iter_mut() {
                let child = format!("{path}.{k}");
                if let Some(p) = s.properties.get(k) {
                    inject(p, x, &child, expected);
                } else if let Some(AdditionalProperties::Schema(ap)) = &s.additional_properties {
                    inject(ap, x, &child, expected);
                }
            }
            if is_struct {
                m.insert(INJECTED.into(), Value::Bool(true));
                expected.push(format!("{path}.{INJECTED}"));
            }
        }
        Value::Array(items) => {
            if let Some(schema) = &s.items {
                for (i, x) in items.iter_mut().enumerate() {
                    inject(schema, x, &format!("{path}[{i}]"), expected);
                }
            }
        }
        _ => {}
    }
}
