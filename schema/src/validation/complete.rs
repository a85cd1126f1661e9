//! `validateStructuralCompleteness`: every property, item or additionalProperties that a value
//! validation talks about must also exist in the structure.
//!
//! As in the reference, only the root node's value validations are followed: junctors on
//! nested properties are not checked against the structure.

use crate::field::{FieldError, Path};
use crate::structural::{NestedValueValidation, Structural, ValueValidation};

use super::ValidationOptions;

pub(super) fn validate(s: &Structural, path: &Path, opts: ValidationOptions, errs: &mut Vec<FieldError>) {
    value_validation(&s.value_validation, Some(s), path, path, opts, errs);
}

fn missing(s_path: &Path, v_path: &Path) -> FieldError {
    FieldError::required(s_path, format!("because it is defined in {v_path}"))
}

fn value_validation(
    v: &ValueValidation,
    s: Option<&Structural>,
    s_path: &Path,
    v_path: &Path,
    opts: ValidationOptions,
    errs: &mut Vec<FieldError>,
) {
    let Some(s) = s else {
        errs.push(missing(s_path, v_path));
        return;
    };
    if let Some(not) = &v.not {
        nested(not, Some(s), s_path, &v_path.child("not"), opts, errs);
    }
    for (i, n) in v.all_of.iter().enumerate() {
        nested(n, Some(s), s_path, &v_path.child("allOf").index(i), opts, errs);
    }
    for (i, n) in v.any_of.iter().enumerate() {
        nested(n, Some(s), s_path, &v_path.child("anyOf").index(i), opts, errs);
    }
    for (i, n) in v.one_of.iter().enumerate() {
        nested(n, Some(s), s_path, &v_path.child("oneOf").index(i), opts, errs);
    }
}

fn nested(
    v: &NestedValueValidation,
    s: Option<&Structural>,
    s_path: &Path,
    v_path: &Path,
    opts: ValidationOptions,
    errs: &mut Vec<FieldError>,
) {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
        let Some(s) = s else {
            errs.push(missing(s_path, v_path));
            return;
        };
        value_validation(&v.value_validation, Some(s), s_path, v_path, opts, errs);
        if let Some(items) = &v.items {
            nested(
                items,
                s.items.as_deref(),
                &s_path.child("items"),
                &v_path.child("items"),
                opts,
                errs,
            );
        }
        let s_additional = s.additional_properties.as_ref().and_then(|a| a.schema());
        for (k, v_field) in v.properties.iter().flatten() {
            let v_field_path = v_path.child("properties").key(k);
            match s.properties.get(k) {
                Some(s_field) => nested(
                    v_field,
                    Some(s_field),
                    &s_path.child("properties").key(k),
                    &v_field_path,
                    opts,
                    errs,
                ),
                None => match s_additional {
                    Some(ap) if opts.allow_validation_properties_with_additional_properties => nested(
                        v_field,
                        Some(ap),
                        &s_path.child("additionalProperties"),
                        &v_field_path,
                        opts,
                        errs,
                    ),
                    _ => errs.push(missing(&s_path.child("properties").key(k), &v_field_path)),
                },
            }
        }
        if let Some(ap) = &v.additional_properties
            && opts.allow_nested_additional_properties
        {
            nested(
                ap,
                s_additional,
                &s_path.child("additionalProperties"),
                &v_path.child("additionalProperties"),
                opts,
                errs,
            );
        }
    })
}
