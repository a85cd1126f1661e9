//! `validateValueValidation` / `validateNestedValueValidation`: what may appear under
//! `allOf`, `anyOf`, `oneOf` and `not`, and the `pattern` check.

use crate::field::{BadValue, FieldError, Path};
use crate::regexp;
use crate::structural::{NestedValueValidation, ValueValidation};

use super::{Level, ValidationOptions};

pub(super) fn validate_value_validation(
    v: &ValueValidation,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    lvl: Level,
    path: &Path,
    opts: ValidationOptions,
    errs: &mut Vec<FieldError>,
) {
    // CEL rules are only ever allowed under allOf: the value validator cannot evaluate them
    // inside the other junctors.
    let no_cel = ValidationOptions {
        allow_nested_x_validations: false,
        ..opts
    };
    if !skip_any_of {
        for (i, n) in v.any_of.iter().enumerate() {
            validate_nested(n, false, lvl, &path.child("anyOf").index(i), no_cel, errs);
        }
    }
    for (i, n) in v.all_of.iter().enumerate() {
        let skip = skip_first_all_of_any_of && i == 0;
        validate_nested(n, skip, lvl, &path.child("allOf").index(i), opts, errs);
    }
    for (i, n) in v.one_of.iter().enumerate() {
        validate_nested(n, false, lvl, &path.child("oneOf").index(i), no_cel, errs);
    }
    if let Some(n) = &v.not {
        validate_nested(n, false, lvl, &path.child("not"), no_cel, errs);
    }
    if !v.pattern.is_empty()
        && let Err(e) = regexp::check(&v.pattern)
    {
        errs.push(FieldError::invalid(
            &path.child("pattern"),
            BadValue::String(v.pattern.clone()),
            format!("must be a valid regular expression, but isn't: {e}"),
        ));
    }
}

fn validate_nested(
    v: &NestedValueValidation,
    skip_any_of: bool,
    lvl: Level,
    path: &Path,
    opts: ValidationOptions,
    errs: &mut Vec<FieldError>,
) {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
        validate_nested_node(v, skip_any_of, lvl, path, opts, errs)
    })
}

fn validate_nested_node(
    v: &NestedValueValidation,
    skip_any_of: bool,
    lvl: Level,
    path: &Path,
    opts: ValidationOptions,
    errs: &mut Vec<FieldError>,
) {
    validate_value_validation(&v.value_validation, skip_any_of, false, lvl, path, opts, errs);
    if let Some(items) = &v.items {
        validate_nested(items, false, lvl, &path.child("items"), opts, errs);
    }
    for (k, p) in v.properties.iter().flatten() {
        validate_nested(p, false, Level::Field, &path.child("properties").key(k), opts, errs);
    }

    let g = &v.forbidden_generics;
    let x = &v.forbidden_extensions;
    if !g.type_.is_empty() {
        errs.push(FieldError::forbidden(
            &path.child("type"),
            "must be empty to be structural",
        ));
    }
    if let Some(ap) = &v.additional_properties {
        if opts.allow_nested_additional_properties {
            validate_nested(ap, false, lvl, &path.child("additionalProperties"), opts, errs);
        } else {
            errs.push(FieldError::forbidden(
                &path.child("additionalProperties"),
                "must be undefined to be structural",
            ));
        }
    }
    if g.default.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("default"),
            "must be undefined to be structural",
        ));
    }
    if !g.title.is_empty() {
        errs.push(FieldError::forbidden(
            &path.child("title"),
            "must be empty to be structural",
        ));
    }
    if !g.description.is_empty() {
        errs.push(FieldError::forbidden(
            &path.child("description"),
            "must be empty to be structural",
        ));
    }
    if g.nullable {
        errs.push(FieldError::forbidden(
            &path.child("nullable"),
            "must be false to be structural",
        ));
    }
    if x.x_preserve_unknown_fields {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            "must be false to be structural",
        ));
    }
    if x.x_embedded_resource {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-embedded-resource"),
            "must be false to be structural",
        ));
    }
    if x.x_int_or_string {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-int-or-string"),
            "must be false to be structural",
        ));
    }
    if x.x_list_map_keys.as_ref().is_some_and(|k| !k.is_empty()) {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-list-map-keys"),
            "must be empty to be structural",
        ));
    }
    if x.x_list_type.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-list-type"),
            "must be undefined to be structural",
        ));
    }
    if x.x_map_type.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-map-type"),
            "must be undefined to be structural",
        ));
    }
    if v.x_validations.as_ref().is_some_and(|r| !r.is_empty()) && !opts.allow_nested_x_validations {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-validations"),
            "must be empty to be structural",
        ));
    }
    if v.properties.as_ref().is_some_and(|p| p.contains_key("metadata")) {
        errs.push(FieldError::forbidden(
            &path.child("properties").key("metadata"),
            "must not be specified in a nested context",
        ));
    }
}
