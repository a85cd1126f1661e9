//! A CRD from a [`CustomResource`] type.

use serde_json::Value;

use super::{CustomResource, Resource};
use crate::apiextensions::ObjectMeta;
use crate::apiextensions::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
    CustomResourceSubresourceStatus, CustomResourceSubresources, CustomResourceValidation, SelectableField,
};
use crate::rust_schema::Problem;
use crate::rust_schema::outline::{PathUse, Text, write_missing_field, write_path_type_problem};

/// The CRD of `R` (what [`CustomResource::crd`] returns).
///
/// # Panics
///
/// When the types cannot express what the attributes ask for (see [`CustomResource::crd`]).
pub fn crd_for<R: CustomResource>() -> CustomResourceDefinition {
    let type_name = std::any::type_name::<R>();
    let (schema, mut problems) = crate::rust_schema::generate::<R>();
    let schema = kstruct_schema::serialize::to_value(&schema);
    problems.extend(path_problems(&R::RESOURCE, &schema, type_name));
    if !problems.is_empty() {
        let error = crate::Error::TypeSchema {
            type_name: type_name.to_owned(),
            problems,
        };
        panic!("{error}\n(`crd()` never leaves out what the attributes ask for; `try_crd()` returns this as an error)");
    }
    assemble(&R::RESOURCE, schema)
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
    /// Nothing: the schema has no field `walked` (its last segment) in `parent`.
    Missing { walked: String, parent: &'a Value },
    /// A path the check does not follow (a JSONPath beyond `.a.b.c`).
    Unchecked,
}

/// The printer columns, scale and selectable-field paths that the schema does not have (in
/// the words of the derive's compile-time check of the same paths).
fn path_problems(r: &Resource, schema: &Value, type_name: &str) -> Vec<Problem> {
    let mut uses: Vec<(PathUse, &str)> = r
        .printer_columns
        .iter()
        .map(|c| (PathUse::PrinterColumn, c.json_path))
        .collect();
    if let Some(scale) = r.scale {
        uses.push((PathUse::SpecReplicas, scale.spec_replicas_path));
        uses.push((PathUse::StatusReplicas, scale.status_replicas_path));
        if let Some(l) = scale.label_selector_path {
            uses.push((PathUse::LabelSelector, l));
        }
    }
    uses.extend(r.selectable_fields.iter().map(|p| (PathUse::Selectable, *p)));
    let mut problems = Vec::new();
    for (use_, path) in uses {
        let mut message = Text::new();
        let at = match resolve(schema, path) {
            Target::Missing { walked, parent } => {
                let (parent_path, segment) = walked.rsplit_once('.').unwrap_or(("", walked.as_str()));
                let names: Vec<&str> = parent
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                write_missing_field(&mut message, use_.what(), path, parent_path, segment, &names);
                walked
            }
            Target::Node(node) => {
                let wrong = match use_ {
                    PathUse::SpecReplicas | PathUse::StatusReplicas => !has_type(node, &["integer"]),
                    PathUse::Selectable => !has_type(node, &["string", "integer", "boolean"]),
                    PathUse::PrinterColumn | PathUse::LabelSelector => false,
                };
                if wrong {
                    write_path_type_problem(&mut message, use_, path, false);
                }
                path.trim_start_matches('.').to_owned()
            }
            Target::Free if use_ == PathUse::Selectable => {
                write_path_type_problem(&mut message, use_, path, true);
                path.trim_start_matches('.').to_owned()
            }
            Target::Free | Target::Unchecked => String::new(),
        };
        if !message.is_empty() {
            problems.push(Problem {
                type_name: type_name.to_owned(),
                path: at,
                message: message.as_str().to_owned(),
            });
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
            return Target::Missing { walked, parent: node };
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
        assert!(matches!(resolve(&s, ".spec.replica"), Target::Missing { walked, .. } if walked == "spec.replica"));
        assert!(matches!(resolve(&s, ".status.x"), Target::Missing { walked, .. } if walked == "status"));
        assert!(matches!(resolve(&s, ".spec.items[0].name"), Target::Unchecked));
    }
}
