//! A CRD from a [`CustomResource`] type.

use serde_json::Value;

use super::apiextensions::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
    CustomResourceSubresourceStatus, CustomResourceSubresources, CustomResourceValidation, SelectableField,
};
use super::{CustomResource, ObjectMeta, Resource};
use crate::rust_schema::Problem;

/// The CRD of `R` (what [`CustomResource::crd`] returns).
pub fn crd_for<R: CustomResource>() -> CustomResourceDefinition {
    assemble(&R::RESOURCE, crate::schema_for::<R>())
}

/// The CRD of `R`, or every problem with it (what [`CustomResource::try_crd`] returns).
pub fn try_crd_for<R: CustomResource>() -> Result<CustomResourceDefinition, crate::Error> {
    let type_name = std::any::type_name::<R>();
    let schema = crate::try_schema_for::<R>()?;
    let mut problems = path_problems(&R::RESOURCE, &schema, type_name);
    let crd = assemble(&R::RESOURCE, schema);
    if problems.is_empty() {
        // Then everything else the API server would refuse when the CRD is created, in its
        // words (field paths of the CRD, not of the type).
        let refused: Vec<String> = match crate::lint::lint_typed(&crd) {
            Ok(errors) => errors.iter().map(ToString::to_string).collect(),
            Err(e) => vec![e.to_string()],
        };
        problems.extend(refused.into_iter().map(|message| Problem {
            type_name: type_name.to_owned(),
            path: String::new(),
            message: format!("the API server would refuse the CRD: {message}"),
        }));
    }
    if !problems.is_empty() {
        return Err(crate::Error::TypeSchema {
            type_name: type_name.to_owned(),
            problems,
        });
    }
    Ok(crd)
}

fn assemble(r: &Resource, schema: Value) -> CustomResourceDefinition {
    let pairs = |list: &[(&str, &str)]| list.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let strings = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let subresources = (r.status_subresource || r.scale.is_some()).then(|| CustomResourceSubresources {
        scale: r.scale.map(|s| CustomResourceSubresourceScale {
            label_selector_path: s.label_selector_path.map(str::to_owned),
            spec_replicas_path: s.spec_replicas_path.to_owned(),
            status_replicas_path: s.status_replicas_path.to_owned(),
        }),
        status: r.status_subresource.then_some(CustomResourceSubresourceStatus {}),
    });
    CustomResourceDefinition {
        api_version: kstruct_schema::crd::API_VERSION.to_owned(),
        kind: kstruct_schema::crd::KIND.to_owned(),
        metadata: ObjectMeta {
            name: Some(r.crd_name.to_owned()),
            labels: pairs(r.labels),
            annotations: pairs(r.annotations),
            ..ObjectMeta::default()
        },
        spec: CustomResourceDefinitionSpec {
            conversion: None,
            group: r.group.to_owned(),
            names: CustomResourceDefinitionNames {
                categories: strings(r.categories),
                kind: r.kind.to_owned(),
                list_kind: Some(r.list_kind.to_owned()),
                plural: r.plural.to_owned(),
                short_names: strings(r.short_names),
                singular: Some(r.singular.to_owned()),
            },
            preserve_unknown_fields: None,
            scope: if r.namespaced { "Namespaced" } else { "Cluster" }.to_owned(),
            versions: vec![CustomResourceDefinitionVersion {
                additional_printer_columns: r
                    .printer_columns
                    .iter()
                    .map(|c| CustomResourceColumnDefinition {
                        description: c.description.map(str::to_owned),
                        format: c.format.map(str::to_owned),
                        json_path: c.json_path.to_owned(),
                        name: c.name.to_owned(),
                        priority: c.priority,
                        type_: c.type_.to_owned(),
                    })
                    .collect(),
                deprecated: r.deprecated,
                deprecation_warning: r.deprecation_warning.map(str::to_owned),
                name: r.version.to_owned(),
                schema: Some(CustomResourceValidation {
                    open_api_v3_schema: schema,
                }),
                selectable_fields: r
                    .selectable_fields
                    .iter()
                    .map(|p| SelectableField {
                        json_path: (*p).to_owned(),
                    })
                    .collect(),
                served: r.served,
                storage: r.storage,
                subresources,
            }],
        },
    }
}

/// What a path resolves to in a schema.
enum Target<'a> {
    /// A node of the schema.
    Node(&'a Value),
    /// Somewhere below a node that keeps unknown fields (or `metadata`): anything can be there.
    Free,
    /// Nothing: the schema has no such field.
    Missing(String),
    /// A path the check does not follow (a JSONPath beyond `.a.b.c`).
    Unchecked,
}

/// The printer columns, scale and selectable-field paths that the schema does not have.
fn path_problems(r: &Resource, schema: &Value, type_name: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut problem = |path: String, message: String| {
        problems.push(Problem {
            type_name: type_name.to_owned(),
            path,
            message,
        })
    };
    for c in r.printer_columns {
        if let Target::Missing(at) = resolve(schema, c.json_path) {
            problem(
                at.clone(),
                format!(
                    "the printer column `{}` shows `{}`, but the schema has no `{at}`",
                    c.name, c.json_path
                ),
            );
        }
    }
    if let Some(scale) = r.scale {
        let paths = [
            ("spec_replicas_path", Some(scale.spec_replicas_path)),
            ("status_replicas_path", Some(scale.status_replicas_path)),
            ("label_selector_path", scale.label_selector_path),
        ];
        for (what, path) in paths {
            let Some(path) = path else { continue };
            match resolve(schema, path) {
                Target::Missing(at) => problem(
                    at.clone(),
                    format!("scale's {what} is `{path}`, but the schema has no `{at}`"),
                ),
                Target::Node(node) if what != "label_selector_path" && !has_type(node, &["integer"]) => problem(
                    path.trim_start_matches('.').to_owned(),
                    format!(
                        "scale's {what} `{path}` must be an integer field (the /scale subresource reads it as int32)"
                    ),
                ),
                _ => {}
            }
        }
    }
    for path in r.selectable_fields {
        match resolve(schema, path) {
            Target::Missing(at) => problem(
                at.clone(),
                format!("the selectable field `{path}` is not in the schema (no `{at}`)"),
            ),
            Target::Node(node) if !has_type(node, &["string", "integer", "boolean"]) => problem(
                path.trim_start_matches('.').to_owned(),
                format!(
                    "the selectable field `{path}` must be a string, integer or boolean (the API server refuses other types)"
                ),
            ),
            Target::Free => problem(
                path.trim_start_matches('.').to_owned(),
                format!(
                    "the selectable field `{path}` has no type in the schema (it keeps unknown fields there); the API server needs a string, integer or boolean"
                ),
            ),
            _ => {}
        }
    }
    problems
}

fn has_type(node: &Value, types: &[&str]) -> bool {
    node.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| types.contains(&t))
}

/// Follows a simple JSONPath (`.spec.replicas`) through `properties` and
/// `additionalProperties`.
fn resolve<'a>(schema: &'a Value, path: &str) -> Target<'a> {
    let Some(rest) = path.strip_prefix('.') else {
        return Target::Unchecked;
    };
    if rest.contains(['[', ']', '*', '@', '\\', '\'', '"', '{', '}', ' ']) {
        return Target::Unchecked;
    }
    let mut node = schema;
    let mut walked = String::new();
    for (i, segment) in rest.split('.').enumerate() {
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(segment);
        if i == 0 && segment == "metadata" {
            return Target::Free;
        }
        if let Some(child) = node.get("properties").and_then(|p| p.get(segment)) {
            node = child;
        } else if let Some(child) = node.get("additionalProperties").filter(|a| a.is_object()) {
            node = child;
        } else if node.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true)) {
            return Target::Free;
        } else {
            return Target::Missing(walked);
        }
    }
    Target::Node(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_simple_paths_only() {
        let s = json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {"replicas": {"type": "integer"},
                     "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                     "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}});
        assert!(matches!(resolve(&s, ".spec.replicas"), Target::Node(n) if n["type"] == "integer"));
        assert!(matches!(resolve(&s, ".spec.labels.app"), Target::Node(n) if n["type"] == "string"));
        assert!(matches!(resolve(&s, ".spec.free.x.y"), Target::Free));
        assert!(matches!(resolve(&s, ".metadata.labels"), Target::Free));
        assert!(matches!(resolve(&s, ".spec.replica"), Target::Missing(p) if p == "spec.replica"));
        assert!(matches!(resolve(&s, ".status.x"), Target::Missing(p) if p == "status"));
        assert!(matches!(resolve(&s, ".spec.items[0].name"), Target::Unchecked));
    }
}
