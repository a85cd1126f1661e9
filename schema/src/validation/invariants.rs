//! `validateStructuralInvariants`: the rules on the structural part of the schema.

use crate::field::{BadValue, FieldError, Path};
use crate::structural::Structural;
use crate::unfold::has_int_or_string_shape;

use super::nested::validate_value_validation;
use super::{Level, ValidationOptions};

pub(super) fn validate(s: &Structural, lvl: Level, path: &Path, opts: ValidationOptions, errs: &mut Vec<FieldError>) {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
        validate_node(s, lvl, path, opts, errs)
    })
}

fn validate_node(s: &Structural, lvl: Level, path: &Path, opts: ValidationOptions, errs: &mut Vec<FieldError>) {
    let type_ = s.generic.type_.as_str();
    let x = &s.extensions;

    if type_ == "array" && s.items.is_none() {
        errs.push(FieldError::required(&path.child("items"), "must be specified"));
    }
    if let Some(items) = &s.items {
        validate(items, Level::Item, &path.child("items"), opts, errs);
    }
    for (k, p) in &s.properties {
        validate(p, Level::Field, &path.child("properties").key(k), opts, errs);
    }
    if let Some(ap) = &s.additional_properties {
        if lvl == Level::Root {
            errs.push(FieldError::forbidden(
                &path.child("additionalProperties"),
                "must not be used at the root",
            ));
        }
        if let Some(schema) = ap.schema() {
            validate(schema, Level::Field, &path.child("additionalProperties"), opts, errs);
        }
    }

    if x.x_int_or_string && x.x_preserve_unknown_fields {
        errs.push(FieldError::invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            BadValue::Bool(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if x.x_int_or_string && x.x_embedded_resource {
        errs.push(FieldError::invalid(
            &path.child("x-kubernetes-embedded-resource"),
            BadValue::Bool(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }

    let vv = &s.value_validation;
    let (skip_any_of, skip_first_all_of_any_of) = has_int_or_string_shape(vv);
    validate_value_validation(vv, skip_any_of, skip_first_all_of_any_of, lvl, path, opts, errs);

    let check_metadata = lvl == Level::Root || x.x_embedded_resource;
    if x.x_embedded_resource && type_ != "object" {
        const DETAIL: &str = "must be object if x-kubernetes-embedded-resource is true";
        if type_.is_empty() {
            errs.push(FieldError::required(&path.child("type"), DETAIL));
        } else {
            errs.push(FieldError::invalid(
                &path.child("type"),
                BadValue::String(type_.into()),
                DETAIL,
            ));
        }
    } else if type_.is_empty() && !x.x_int_or_string && !x.x_preserve_unknown_fields {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(&path.child("type"), detail));
    }
    if x.x_embedded_resource && s.additional_properties.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("additionalProperties"),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !type_.is_empty() && type_ != "object" {
        errs.push(FieldError::invalid(
            &path.child("type"),
            BadValue::String(type_.into()),
            "must be object at the root",
        ));
    }

    if check_metadata {
        for name in ["kind", "apiVersion"] {
            if let Some(p) = s.properties.get(name)
                && p.generic.type_ != "string"
            {
                errs.push(FieldError::invalid(
                    &path.child("properties").key(name).child("type"),
                    BadValue::String(p.generic.type_.clone()),
                    "must be string",
                ));
            }
        }
    }
    if let Some(metadata) = s.properties.get("metadata") {
        validate_metadata(
            metadata,
            check_metadata,
            lvl,
            &path.child("properties").key("metadata"),
            errs,
        );
    }

    if x.x_embedded_resource && !x.x_preserve_unknown_fields && s.properties.is_empty() {
        errs.push(FieldError::required(
            &path.child("properties"),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
}

/// `validateStructuralMetadataInvariants`.
fn validate_metadata(s: &Structural, check_metadata: bool, lvl: Level, path: &Path, errs: &mut Vec<FieldError>) {
    if check_metadata && s.generic.type_ != "object" {
        errs.push(FieldError::invalid(
            &path.child("type"),
            BadValue::String(s.generic.type_.clone()),
            "must be object",
        ));
    }
    if lvl != Level::Root {
        return;
    }
    // Only name and generateName may be restricted: everything else must be unset once those
    // two properties, the type and the default are set aside.
    let mut rest = s.clone();
    let found_name = rest.properties.contains_key("name");
    let found_generate_name = rest.properties.contains_key("generateName");
    let n = rest.properties.len();
    if (found_name && found_generate_name && n == 2) || ((found_name || found_generate_name) && n == 1) {
        rest.properties.clear();
    }
    rest.generic.type_.clear();
    rest.generic.default = None;
    if rest != Structural::default() {
        errs.push(FieldError::forbidden(
            path,
            "must not specify anything other than name and generateName, but metadata is implicitly specified",
        ));
    }
}
