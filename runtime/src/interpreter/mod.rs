//! Layer 10: the interpreter, the [`Pipeline`] that walks a [`Structural`] schema with the
//! structural algorithms (re-exported here from the layer below): the executable
//! specification of the API server's algorithms. Compiled code must agree with it on every
//! input.

pub use crate::structural::{default, prune, prune_defaults, prune_nulls};

use serde_json::Value;

use kstruct_schema::Structural;
use kstruct_schema::field::{FieldError, Path};

use crate::gvk::GroupVersionKind;
use crate::objectmeta::{self, CoerceOptions};
use crate::pipeline::{Pipeline, PruneOptions, PruneReport, Steps};
use crate::value_validation::SchemaErrors;

/// A [`Pipeline`] that interprets a schema: the fallback for CRDs only known at run time and
/// the oracle for generated code.
#[derive(Debug, Clone, Default)]
pub struct Interpreter {
    schema: Option<Structural>,
    default_pruning_error: Option<String>,
    resource: Option<GroupVersionKind>,
    preserve_unknown_fields: bool,
    /// Whether any node below the root is an embedded resource: without one, coercion has
    /// nothing to do and is skipped.
    embeds_resources: bool,
    /// The byte walk's plan, built at the first decode to bytes.
    scan_plan: std::sync::OnceLock<Option<crate::byte_walk::Plan>>,
}

fn embeds_resources(schema: Option<&Structural>) -> bool {
    let mut found = false;
    if let Some(s) = schema {
        s.walk(&mut |n| found |= n.extensions.x_embedded_resource);
    }
    found
}

impl Interpreter {
    /// An interpreter for `schema` as the API server serves it: defaults are pruned first
    /// (see [`prune_defaults`]). `None` means no schema, as for a CRD version without one.
    pub fn new(schema: Option<Structural>) -> Interpreter {
        let mut schema = schema;
        let default_pruning_error = schema.as_mut().and_then(|s| prune_defaults(s).err());
        Interpreter {
            embeds_resources: embeds_resources(schema.as_ref()),
            schema,
            default_pruning_error,
            ..<Interpreter as Default>::default()
        }
    }

    /// An interpreter for `schema` exactly as given, without serve-time default pruning (as
    /// the API server treats CRDs with `spec.preserveUnknownFields: true`).
    pub fn without_default_pruning(schema: Option<Structural>) -> Interpreter {
        Interpreter {
            embeds_resources: embeds_resources(schema.as_ref()),
            schema,
            ..<Interpreter as Default>::default()
        }
    }

    /// An interpreter for the custom resource type `R` (its schema as
    /// [`schema_for`](crate::schema_for) generates it, serving its kind and version only): the
    /// API server's treatment of `R` objects, with no CRD file in between.
    ///
    /// ```
    /// use kstruct::{DecodeOptions, Interpreter, prelude::*};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, Clone, Debug, CustomResourceSchema)]
    /// #[kstruct(group = "x.io", version = "v1", kind = "Backup")]
    /// struct BackupSpec { #[kstruct(default = 3)] size: u32 }
    ///
    /// let body = br#"{"apiVersion": "x.io/v1", "kind": "Backup", "spec": {}}"#;
    /// let decoded = Interpreter::for_kind::<Backup>().decode(body, &DecodeOptions::default()).unwrap();
    /// assert_eq!(decoded.object["spec"]["size"], 3);
    /// ```
    pub fn for_kind<R: crate::CustomResource>() -> Interpreter {
        let r = R::RESOURCE;
        let schema = crate::Generator::new().subschema_for::<R>();
        Interpreter::new(Some(schema)).with_resource(GroupVersionKind::new(r.group, r.version, r.kind))
    }

    /// Serves `resource` only: decoding treats the interpreter as a CRD with this one version
    /// (see [`Pipeline::resource`]).
    pub fn with_resource(mut self, resource: GroupVersionKind) -> Interpreter {
        self.resource = Some(resource);
        self
    }

    /// Marks the CRD as `spec.preserveUnknownFields: true`: decoding does not prune.
    pub fn with_preserve_unknown_fields(mut self, preserve: bool) -> Interpreter {
        self.preserve_unknown_fields = preserve;
        self
    }

    /// The schema being interpreted (after default pruning).
    pub fn schema(&self) -> Option<&Structural> {
        self.schema.as_ref()
    }

    /// Why serve-time default pruning stopped, if it did (e.g. `failed to prune default value:
    /// object root default value must be of object type`). The defaults it did not reach are
    /// used as written.
    pub fn default_pruning_error(&self) -> Option<&str> {
        self.default_pruning_error.as_deref()
    }
}

impl Pipeline for Interpreter {
    fn walk(&self, value: &mut Value, options: PruneOptions, steps: Steps) -> PruneReport {
        let schema = self.schema.as_ref();
        let mut report = PruneReport::default();
        if steps.prune {
            report.unknown_fields = prune(value, schema, options.resource_root, options.track_unknown_fields);
        }
        if steps.nulls {
            prune_nulls(value, schema);
        }
        if steps.defaults {
            default(value, schema);
        }
        report
    }

    fn coerce_embedded(&self, value: &mut Value, options: CoerceOptions) -> Result<Vec<String>, FieldError> {
        if !self.embeds_resources {
            return Ok(Vec::new());
        }
        objectmeta::coerce(&Path::nil(), value, self.schema.as_ref(), false, options)
    }

    fn validate(&self, value: &Value) -> SchemaErrors {
        match &self.schema {
            Some(s) => crate::value_validation::validate_schema(s, value),
            None => SchemaErrors::default(),
        }
    }

    fn has_validation_rules(&self) -> bool {
        self.schema.as_ref().is_some_and(crate::rules::has_rules)
    }

    fn structural(&self) -> Option<&Structural> {
        self.schema.as_ref()
    }

    fn resource(&self) -> Option<&GroupVersionKind> {
        self.resource.as_ref()
    }

    fn preserves_unknown_fields(&self) -> bool {
        self.preserve_unknown_fields
    }

    fn scan_plan(&self) -> Option<&crate::byte_walk::Plan> {
        self.scan_plan
            .get_or_init(|| crate::byte_walk::Plan::new(self.schema.as_ref()))
            .as_ref()
    }

    fn default_pruning_error(&self) -> Option<&str> {
        self.default_pruning_error.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// 10,000 levels, as the API server accepts, on a thread with the default 2 MiB stack.
    #[test]
    fn deep_values_do_not_overflow_the_stack() {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let depth = crate::json::MAX_DEPTH;
                let text = format!("{}{}", "{\"a\":[".repeat(depth / 2), "]}".repeat(depth / 2));
                // Decoded afresh for each run: cloning (like dropping) a serde_json value recurses.
                let value = || crate::json::decode(text.as_bytes()).unwrap().value;
                let schema = kstruct_schema::convert::from_value(&json!({
                    "type": "object", "x-kubernetes-preserve-unknown-fields": true,
                    "properties": {"b": {"type": "string", "default": "x"}},
                }))
                .unwrap();
                let interp = Interpreter::new(schema);
                for root in [true, false] {
                    let mut v = value();
                    interp.prune(
                        &mut v,
                        PruneOptions {
                            resource_root: root,
                            track_unknown_fields: true,
                        },
                    );
                    interp.prune_nulls(&mut v);
                    interp.default(&mut v);
                    let text = kstruct_schema::go::marshal_json(&v);
                    // Only the root gets the default: `,"b":"x"`.
                    assert_eq!(text.len(), depth / 2 * 8 + 8);
                    crate::json::dispose(v);
                }
                // No schema at all: every nested array is walked.
                let mut v = value();
                assert_eq!(prune(&mut v, None, false, true), ["a"]);
                crate::json::dispose(v);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
