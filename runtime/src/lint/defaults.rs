//! `ValidateDefaults` (`apiextensions-apiserver/pkg/apiserver/schema/defaulting/validation.go`):
//! every `default` of a structural schema must survive pruning unchanged, coerce as an
//! embedded resource where it is one, and pass the OpenAPI value validation of its own node.
//! Defaults under `metadata`, `apiVersion` or `kind` of a resource are checked inside a whole
//! object (`{"apiVersion": "validation/v1", "kind": "Validation", ...}`).

use serde_json::{Map, Value};

use kstruct_schema::Structural;
use kstruct_schema::field::{BadValue, FieldError, Path};

use crate::objectmeta::{self, CoerceOptions, coerce};
use crate::structural::prune;
use crate::value_validation::{Mode, Node, openapi};

/// Coercion as `ValidateDefaults` runs it: report, never drop.
const REPORT: CoerceOptions = CoerceOptions {
    drop_invalid_fields: false,
    return_unknown_field_paths: false,
};

/// One step from the enclosing resource to a default (the reference's surrounding-object
/// function).
#[derive(Clone)]
enum Step {
    Child(String),
    Index,
}

/// The findings for the structural schema at `path` (`...openAPIV3Schema`), a resource root.
pub(crate) fn validate_defaults(path: &Path, schema: &Structural, require_pruned_defaults: bool) -> Vec<FieldError> {
    let mut root = schema.clone();
    root.extensions.x_embedded_resource = true;
    let mut errs = Vec::new();
    walk(path, &root, &root, &[], false, require_pruned_defaults, &mut errs);
    errs
}

fn walk(
    path: &Path,
    s: &Structural,
    root: &Structural,
    steps: &[Step],
    inside_meta: bool,
    pruned: bool,
    errs: &mut Vec<FieldError>,
) {
    kstruct_schema::grow(|| {
        let (root, steps, inside_meta) = if s.extensions.x_embedded_resource {
            (s, &[][..], false)
        } else {
            (root, steps, inside_meta)
        };
        if let Some(default) = &s.generic.default {
            let at = path.child("default");
            if inside_meta {
                in_meta(&at, s, root, steps, default, errs);
            } else {
                plain(&at, s, default, pruned, errs);
            }
        }
        if let Some(items) = &s.items {
            let mut sub = steps.to_vec();
            sub.push(Step::Index);
            walk(&path.child("items"), items, root, &sub, inside_meta, pruned, errs);
        }
        for (k, p) in &s.properties {
            let sub_meta = inside_meta
                || (s.extensions.x_embedded_resource && matches!(k.as_str(), "metadata" | "apiVersion" | "kind"));
            let mut sub = steps.to_vec();
            sub.push(Step::Child(k.clone()));
            walk(&path.child("properties").key(k), p, root, &sub, sub_meta, pruned, errs);
        }
    })
}

fn plain(at: &Path, s: &Structural, default: &Value, require_pruned: bool, errs: &mut Vec<FieldError>) {
    if require_pruned {
        let mut copy = default.clone();
        prune(&mut copy, Some(s), s.extensions.x_embedded_resource, false);
        if copy != *default {
            errs.push(FieldError::invalid(
                at,
                BadValue::from(default),
                "must not have unknown fields",
            ));
        }
    }
    let mut copy = default.clone();
    if let Err(e) = coerce(at, &mut copy, Some(s), s.extensions.x_embedded_resource, REPORT) {
        errs.push(e);
        return;
    }
    let value_errors = openapi::validate(Some(at), Node::Structural(s), default, Mode::Defaults);
    if !value_errors.is_empty() {
        errs.extend(value_errors);
        return;
    }
    rules_on_default(at, s, default, errs);
}

/// A valid default must also pass the node's CEL rules: as an update from itself (so that
/// transition rules see it as `oldSelf`), then, when that passes, as a create (where rules
/// with `optionalOldSelf` run without it).
fn rules_on_default(at: &Path, s: &Structural, default: &Value, errs: &mut Vec<FieldError>) {
    if !crate::rules::has_rules(s) {
        return;
    }
    let resource = s.extensions.x_embedded_resource;
    let limits = crate::rules::RuleLimits::default();
    let found = crate::rules::run(at, s, default, Some(default), limits, resource, false);
    if found.errors.is_empty() {
        errs.extend(crate::rules::run(at, s, default, None, limits, resource, false).errors);
    } else {
        errs.extend(found.errors);
    }
}

fn in_meta(at: &Path, s: &Structural, root: &Structural, steps: &[Step], default: &Value, errs: &mut Vec<FieldError>) {
    let mut x = default.clone();
    for step in steps.iter().rev() {
        x = match step {
            Step::Child(k) => Value::Object(Map::from_iter([(k.clone(), x)])),
            Step::Index => Value::Array(vec![x]),
        };
    }
    let Value::Object(mut obj) = x else {
        errs.push(FieldError::invalid(
            &at.clone(),
            BadValue::String(String::new()),
            "failed to validate default value inside metadata: object root default value must be of object type",
        ));
        return;
    };
    obj.entry("kind").or_insert_with(|| Value::String("Validation".into()));
    obj.entry("apiVersion")
        .or_insert_with(|| Value::String("validation/v1".into()));
    let mut obj = Value::Object(obj);
    if let Err(e) = coerce(&Path::nil(), &mut obj, Some(root), true, REPORT) {
        errs.push(FieldError::invalid(
            at,
            BadValue::from(default),
            format!("must result in valid metadata: {e}"),
        ));
        return;
    }
    let meta = objectmeta::validate(&Path::nil(), &obj, Some(root), true);
    if !meta.is_empty() {
        errs.push(FieldError::invalid(
            at,
            BadValue::from(default),
            format!("must result in valid metadata: {}", aggregate(&meta)),
        ));
        return;
    }
    let value_errors = openapi::validate(Some(at), Node::Structural(s), default, Mode::Defaults);
    if !value_errors.is_empty() {
        errs.extend(value_errors);
        return;
    }
    rules_on_default(at, s, default, errs);
}

/// `ErrorList.ToAggregate().Error()`: one message as it is, several (repeats dropped) in
/// brackets, joined by `, `.
fn aggregate(errs: &[FieldError]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for e in errs {
        let m = e.to_string();
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    match seen.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_must_pass_their_nodes_rules() {
        let schema = kstruct_schema::convert::from_text(
            "type: object
properties:
  replicas:
    type: integer
    default: 0
    x-kubernetes-validations: [{rule: 'self > 0', message: must be positive}]
  mode:
    type: string
    default: fast
    x-kubernetes-validations: [{rule: \"self == oldSelf\"}]
",
        )
        .unwrap()
        .unwrap();
        let errs: Vec<String> = validate_defaults(&Path::new("root"), &schema, false)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            errs,
            ["root.properties[replicas].default: Invalid value: 0: must be positive"]
        );
    }
}
