//! The API server's rules on a CRD version's schema beyond structurality
//! (`ValidateCustomResourceDefinitionOpenAPISchema` and the default checks), as far as a
//! schema the derive emits can break them: the derive's tests check every emitted schema
//! against them until the full CRD lint is part of kstruct. Findings are our words, not the
//! reference's; the tests only need to know there are none.

use kstruct::schema::{AdditionalProperties, Structural};
use kstruct::{Interpreter, Pipeline, PruneOptions};

use crate::value_validation::validate;

/// Every rule `s` breaks, as `path: problem` lines; `root` when `s` is a version's root.
pub fn violations(s: &Structural, root: bool) -> Vec<String> {
    let mut out = Vec::new();
    if root && s.generic.nullable {
        out.push("<root>: nullable cannot be true at the root".into());
    }
    node(s, "", &mut out);
    out
}

fn node(s: &Structural, path: &str, out: &mut Vec<String>) {
    let x = &s.extensions;
    let t = s.generic.type_.as_str();
    if s.value_validation.unique_items {
        out.push(format!("{path}: uniqueItems cannot be true"));
    }
    if !s.properties.is_empty()
        && matches!(
            s.additional_properties,
            Some(AdditionalProperties::Bool(false)) | Some(AdditionalProperties::Schema(_))
        )
    {
        out.push(format!(
            "{path}: additionalProperties and properties are mutual exclusive"
        ));
    }
    if x.x_map_type.is_some() && t != "object" {
        out.push(format!("{path}: must be object if x-kubernetes-map-type is specified"));
    }
    if let Some(list_type) = &x.x_list_type {
        if t != "array" {
            out.push(format!("{path}: must be array if x-kubernetes-list-type is specified"));
        }
        if let Some(items) = &s.items {
            if (list_type == "set" || list_type == "map") && items.generic.nullable {
                out.push(format!(
                    "{path}.items: cannot be nullable when x-kubernetes-list-type is {list_type}"
                ));
            }
            if list_type == "set" {
                match items.generic.type_.as_str() {
                    "array" if items.extensions.x_list_type.as_deref().is_some_and(|l| l != "atomic") => out.push(
                        format!("{path}.items: must be atomic as item of a list with x-kubernetes-list-type=set"),
                    ),
                    "object" if items.extensions.x_map_type.as_deref() != Some("atomic") => out.push(format!(
                        "{path}.items: must be atomic as item of a list with x-kubernetes-list-type=set"
                    )),
                    _ => {}
                }
            }
            if list_type == "map" {
                list_map(s, items, path, out);
            }
        }
    }
    if x.x_list_map_keys.as_ref().is_some_and(|k| !k.is_empty()) && x.x_list_type.as_deref() != Some("map") {
        out.push(format!(
            "{path}: must be map if x-kubernetes-list-map-keys is non-empty"
        ));
    }
    for r in s.x_validations.iter().flatten() {
        for expr in [&r.rule, &r.message_expression] {
            if !expr.is_empty()
                && let Err(e) = kstruct::schema::cel::check(expr)
            {
                out.push(format!("{path}: the rule is not valid CEL: {e}"));
            }
        }
    }
    if s.x_validations.as_ref().is_some_and(|r| !r.is_empty()) && t.is_empty() && !x.x_int_or_string {
        out.push(format!(
            "{path}: x-kubernetes-validations on a node without a type cannot be compiled"
        ));
    }
    if let Some(default) = &s.generic.default {
        let errors = validate(s, default);
        if !errors.is_empty() {
            out.push(format!("{path}.default: invalid: {errors:?}"));
        }
        let mut pruned = default.clone();
        Interpreter::new(Some(s.clone())).prune(&mut pruned, PruneOptions::default());
        if &pruned != default {
            out.push(format!("{path}.default: must not have unknown fields"));
        }
    }
    if let Some(items) = &s.items {
        node(items, &format!("{path}.items"), out);
    }
    for (k, p) in &s.properties {
        node(p, &format!("{path}.properties[{k}]"), out);
    }
    if let Some(AdditionalProperties::Schema(ap)) = &s.additional_properties {
        node(ap, &format!("{path}.additionalProperties"), out);
    }
}

fn list_map(s: &Structural, items: &Structural, path: &str, out: &mut Vec<String>) {
    let keys = s.extensions.x_list_map_keys.clone().unwrap_or_default();
    if keys.is_empty() {
        out.push(format!("{path}: must not be empty if x-kubernetes-list-type is map"));
    }
    if items.generic.type_ != "object" {
        out.push(format!(
            "{path}.items: must be object if parent array's x-kubernetes-list-type is map"
        ));
        return;
    }
    let required = items.value_validation.required.clone().unwrap_or_default();
    for (i, k) in keys.iter().enumerate() {
        if keys[..i].contains(k) {
            out.push(format!(
                "{path}: x-kubernetes-list-map-keys must not contain duplicate entries"
            ));
        }
        match items.properties.get(k) {
            None => out.push(format!("{path}: list-map key {k} is not an item property")),
            Some(p) => {
                if p.generic.type_ == "array" || p.generic.type_ == "object" {
                    out.push(format!("{path}: list-map key {k} must be a scalar"));
                }
                if p.generic.nullable {
                    out.push(format!("{path}: list-map key {k} cannot be nullable"));
                }
                if !required.contains(k) && p.generic.default.is_none() {
                    out.push(format!("{path}: list-map key {k} must have a default or be required"));
                }
            }
        }
    }
}

/// Everything the checks behind `kstruct lint` and the rules of [`violations`] find in a CRD
/// document, version by version (paths from `spec.versions[i].schema.openAPIV3Schema`), and
/// a version without a usable schema: empty when the API server would take its schemas.
pub fn crd_document_problems(doc: &serde_json::Value) -> Vec<String> {
    use kstruct::schema::crd::CustomResourceDefinition;
    use kstruct::schema::field::Path;
    let crd = match CustomResourceDefinition::from_value(doc) {
        Ok(crd) => crd,
        Err(e) => return vec![format!("not a CRD: {e}")],
    };
    let mut problems = Vec::new();
    for (i, v) in crd.versions.iter().enumerate() {
        let at = Path::new("spec")
            .child("versions")
            .index(i)
            .child("schema")
            .child("openAPIV3Schema");
        match v.structural() {
            Ok(Some(s)) => {
                problems.extend(
                    kstruct::schema::validation::validate_structural(&at, &s)
                        .iter()
                        .map(ToString::to_string),
                );
                problems.extend(violations(&s, true));
            }
            other => problems.push(format!("version {}: the schema does not convert: {other:?}", v.name)),
        }
    }
    // And everything the API server checks on create, in its words.
    match kstruct::lint::lint_crd(doc) {
        Ok(errors) => problems.extend(errors.iter().map(ToString::to_string)),
        Err(e) => problems.push(e.to_string()),
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(v: serde_json::Value) -> Vec<String> {
        violations(&kstruct::schema::convert::from_value(&v).unwrap().unwrap(), false)
    }

    #[test]
    fn each_rule_fires() {
        assert_eq!(
            check(json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true})).len(),
            1
        );
        assert_eq!(
            check(json!({"type": "object", "properties": {"a": {"type": "string"}},
                         "additionalProperties": {"type": "string"}}))
            .len(),
            1
        );
        assert_eq!(
            check(json!({"x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-map-type": "atomic"})).len(),
            1
        );
        assert_eq!(
            check(json!({"type": "array", "x-kubernetes-list-type": "set",
                         "items": {"type": "object", "properties": {"a": {"type": "string"}}}}))
            .len(),
            1
        );
        assert_eq!(
            check(
                json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a"],
                         "items": {"type": "object", "properties": {"a": {"type": "string"}}}})
            )
            .len(),
            1
        );
        assert_eq!(
            check(json!({"x-kubernetes-preserve-unknown-fields": true,
                         "x-kubernetes-validations": [{"rule": "self.a > 0"}]}))
            .len(),
            1
        );
        assert_eq!(check(json!({"type": "integer", "minimum": 1, "default": 0})).len(), 1);
        assert_eq!(
            check(json!({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"b": 1}})).len(),
            1
        );
        assert!(
            check(json!({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"a": "x"}})).is_empty()
        );
    }
}
