//! `ValidateCustomResourceDefinition` (`apiextensions-apiserver/pkg/apis/apiextensions/
//! validation/validation.go`) on the internal CRD: metadata, spec, stored versions, API
//! approval and `preserveUnknownFields`, in the reference's order.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use kstruct_schema::field::{BadValue, ErrorKind, FieldError, Path};
use kstruct_schema::names::{is_dns1035_label, is_dns1123_subdomain};

use crate::objectmeta::{ObjectMeta, validate_object_meta};
use kstruct_schema::validation::field_path::resolve_with;
use kstruct_schema::validation::openapi::SchemaOptions;

use super::model::{Column, Crd, Names, Schema, Subresources, Version, has_defaults};

const PRINTER_COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const PRINTER_COLUMN_FORMATS: [&str; 8] = [
    "byte",
    "date",
    "date-time",
    "double",
    "float",
    "int32",
    "int64",
    "password",
];
const MAX_SELECTABLE_FIELDS: usize = 8;
const APPROVAL: &str = "api-approved.kubernetes.io";

/// Every finding, in order.
pub(crate) fn validate(crd: &Crd, lint: &super::LintOptions, errs: &mut Vec<FieldError>) {
    object_meta(crd, errs);
    spec(crd, lint, errs);
    stored_versions(crd, errs);
    api_approval(crd, errs);
    if crd.preserve_unknown_fields {
        errs.push(FieldError::invalid(
            &Path::new("spec").child("preserveUnknownFields"),
            BadValue::Bool(true),
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
}

fn invalid(path: &Path, value: &str, detail: impl Into<String>) -> FieldError {
    FieldError::invalid(path, BadValue::String(value.to_string()), detail)
}

/// `ValidateObjectMeta` with the CRD's name rule (`<plural>.<group>`). A namespace is not
/// checked: the API server clears it on cluster-scoped objects before validating.
fn object_meta(crd: &Crd, errs: &mut Vec<FieldError>) {
    let required_name = format!("{}.{}", crd.names.plural, crd.group);
    let name_rules = |name: &str, prefix: bool| {
        // `maskTrailingDash`, as the reference writes it.
        let checked = if prefix && name.ends_with('-') && name.len() >= 2 {
            format!("{}a", &name[..name.len() - 2])
        } else {
            name.to_string()
        };
        let mut out = is_dns1123_subdomain(&checked);
        if name != required_name {
            out.push(r#"must be spec.names.plural+"."+spec.group"#.to_string());
        }
        out
    };
    let meta = ObjectMeta {
        name: crd.name.clone(),
        generate_name: crd.generate_name.clone(),
        labels: crd.labels.iter().cloned().collect(),
        annotations: crd.annotations.iter().cloned().collect(),
        finalizers: crd.finalizers.clone(),
        ..ObjectMeta::default()
    };
    errs.extend(validate_object_meta(&meta, false, &name_rules, &Path::new("metadata")));
}

/// `validateCustomResourceDefinitionSpec`.
fn spec(crd: &Crd, lint: &super::LintOptions, errs: &mut Vec<FieldError>) {
    let spec = Path::new("spec");
    if crd.group.is_empty() {
        errs.push(FieldError::required(&spec.child("group"), ""));
    } else {
        let problems = is_dns1123_subdomain(&crd.group);
        if !problems.is_empty() {
            errs.push(invalid(&spec.child("group"), &crd.group, problems.join(",")));
        } else if !crd.group.contains('.') {
            errs.push(invalid(
                &spec.child("group"),
                &crd.group,
                "should be a domain with at least one dot",
            ));
        }
    }
    match crd.scope.as_str() {
        "" => errs.push(FieldError::required(&spec.child("scope"), "")),
        "Cluster" | "Namespaced" => {}
        other => errs.push(FieldError::not_supported(
            &spec.child("scope"),
            other,
            &["Cluster", "Namespaced"],
        )),
    }
    if crd.validation.as_ref().is_none_or(|v| v.open_api_v3_schema.is_none()) {
        for (i, v) in crd.versions.iter().enumerate() {
            if v.schema.as_ref().is_none_or(|s| s.open_api_v3_schema.is_none()) {
                errs.push(FieldError::required(
                    &spec.child("versions").index(i).child("schema").child("openAPIV3Schema"),
                    "",
                ));
            }
        }
    }
    if has_defaults(crd) && crd.preserve_unknown_fields {
        errs.push(FieldError::invalid(
            &spec.child("preserveUnknownFields"),
            BadValue::Bool(true),
            "must be false in order to use defaults in the schema",
        ));
    }
    let opts = SchemaOptions {
        cel_compatibility: lint.cel_compatibility,
        ..SchemaOptions::default()
    };
    let mut storage = 0;
    let mut names = BTreeSet::new();
    let mut unique = true;
    let any_per_version_subresources = crd.versions.iter().any(|v| v.subresources.is_some());
    for (i, v) in crd.versions.iter().enumerate() {
        let at = spec.child("versions").index(i);
        if v.storage {
            storage += 1;
        }
        if !names.insert(v.name.as_str()) {
            unique = false;
        }
        let problems = is_dns1035_label(&v.name);
        if !problems.is_empty() {
            errs.push(invalid(&at.child("name"), &v.name, problems.join(",")));
        }
        let subresources = if any_per_version_subresources {
            v.subresources.as_ref()
        } else {
            crd.subresources.as_ref()
        };
        let status = subresources.is_some_and(|s| s.status);
        deprecation_warning(&at, v.deprecated, v.deprecation_warning.as_deref(), errs);
        schema(&at.child("schema"), v.schema.as_ref(), status, &opts, errs);
        if let Some(s) = &v.subresources {
            subresources_rules(&at.child("subresources"), s, errs);
        }
        for (j, c) in v.columns.iter().enumerate() {
            column(&at.child("additionalPrinterColumns").index(j), c, errs);
        }
        if !v.selectable_fields.is_empty() {
            match v.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()) {
                None => errs.push(invalid(
                    &at.child("selectableFields"),
                    "",
                    "may only be set when `version.schema.openAPIV3Schema` is not included",
                )),
                Some(s) => selectable(
                    &at,
                    &at.child("schema").child("openAPIV3Schema"),
                    Some(s),
                    &v.selectable_fields,
                    errs,
                ),
            }
        }
    }
    let versions_value = BadValue::Raw(versions_json(crd));
    if !unique {
        errs.push(FieldError::invalid(
            &spec.child("versions"),
            versions_value.clone(),
            "must contain unique version names",
        ));
    }
    if storage != 1 {
        errs.push(FieldError::invalid(
            &spec.child("versions"),
            versions_value,
            "must have exactly one version marked as storage version",
        ));
    }
    if !crd.version.is_empty() {
        let problems = is_dns1035_label(&crd.version);
        if !problems.is_empty() {
            errs.push(invalid(&spec.child("version"), &crd.version, problems.join(",")));
        }
    }
    let n = &crd.names;
    let names_path = spec.child("names");
    for (field, value) in [
        ("plural", &n.plural),
        ("singular", &n.singular),
        ("kind", &n.kind),
        ("listKind", &n.list_kind),
    ] {
        if value.is_empty() {
            errs.push(FieldError::required(&names_path.child(field), ""));
        }
    }
    names_rules(&names_path, n, errs);
    let any_status = crd.subresources.as_ref().is_some_and(|s| s.status)
        || crd
            .versions
            .iter()
            .any(|v| v.subresources.as_ref().is_some_and(|s| s.status));
    schema(
        &spec.child("validation"),
        crd.validation.as_ref(),
        any_status,
        &opts,
        errs,
    );
    if let Some(s) = &crd.subresources {
        subresources_rules(&spec.child("subresources"), s, errs);
    }
    for (i, c) in crd.columns.iter().enumerate() {
        column(&spec.child("additionalPrinterColumns").index(i), c, errs);
    }
    if !crd.selectable_fields.is_empty() {
        // The top level asks for `spec.validation` only: an empty `schema: {}` in every
        // version passes, and its fields are then checked against no schema.
        match crd.validation.as_ref() {
            None => errs.push(invalid(
                &spec.child("selectableFields"),
                "",
                "may only be set when validations.schema is included",
            )),
            Some(s) => selectable(
                &spec,
                &spec.child("schema.openAPIV3Schema"),
                s.open_api_v3_schema.as_ref(),
                &crd.selectable_fields,
                errs,
            ),
        }
    }
    if crd.conversion.strategy != "None" && crd.preserve_unknown_fields {
        errs.push(invalid(
            &spec.child("conversion").child("strategy"),
            &crd.conversion.strategy,
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    conversion(crd, errs);
}

/// The internal `spec.versions` value in a message. The reference marshals the internal
/// structs (schemas included); we print each version's name and flags.
/// A Go slice of encoded items: `null` when empty (nil).
fn go_slice(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        "null".to_owned()
    } else {
        format!("[{}]", items.join(","))
    }
}

/// The internal versions as Go's `encoding/json` writes them (no JSON tags: Go's field
/// names, zero values included), with what the conversion moved to the top level taken out.
fn versions_json(crd: &Crd) -> String {
    if crd.versions.is_empty() && crd.versions_listed {
        return "[]".to_owned();
    }
    go_slice(crd.versions.iter().map(version_json))
}

/// One internal version, as [`versions_json`] writes it.
fn version_json(v: &Version) -> String {
    let text = |s: &str| kstruct_schema::go::marshal_json(&Value::String(s.to_owned()));
    let opt_text = |s: Option<&str>| s.map_or_else(|| "null".to_owned(), text);
    let schema = v.schema.as_ref().map_or_else(
        || "null".to_owned(),
        |s| {
            let props = s
                .open_api_v3_schema
                .as_ref()
                .map_or_else(|| "null".to_owned(), kstruct_schema::convert::internal_json);
            format!("{{\"OpenAPIV3Schema\":{props}}}")
        },
    );
    let subresources = v.subresources.as_ref().map_or_else(
        || "null".to_owned(),
        |s| {
            let status = if s.status { "{}" } else { "null" };
            let scale = s.scale.as_ref().map_or_else(
                || "null".to_owned(),
                |c| {
                    format!(
                        "{{\"SpecReplicasPath\":{},\"StatusReplicasPath\":{},\"LabelSelectorPath\":{}}}",
                        text(&c.spec_replicas_path),
                        text(&c.status_replicas_path),
                        opt_text(c.label_selector_path.as_deref())
                    )
                },
            );
            format!("{{\"Status\":{status},\"Scale\":{scale}}}")
        },
    );
    let columns = go_slice(v.columns.iter().map(|c| {
        format!(
            "{{\"Name\":{},\"Type\":{},\"Format\":{},\"Description\":{},\"Priority\":{},\"JSONPath\":{}}}",
            text(&c.name),
            text(&c.type_),
            text(&c.format),
            text(&c.description),
            c.priority,
            text(&c.json_path)
        )
    }));
    let selectable = go_slice(
        v.selectable_fields
            .iter()
            .map(|f| format!("{{\"JSONPath\":{}}}", text(f))),
    );
    format!(
        "{{\"Name\":{},\"Served\":{},\"Storage\":{},\"Deprecated\":{},\"DeprecationWarning\":{},\"Schema\":{schema},\"Subresources\":{subresources},\"AdditionalPrinterColumns\":{columns},\"SelectableFields\":{selectable}}}",
        text(&v.name),
        v.served,
        v.storage,
        v.deprecated,
        opt_text(v.deprecation_warning.as_deref()),
    )
}

fn schema(at: &Path, schema: Option<&Schema>, status: bool, opts: &SchemaOptions, errs: &mut Vec<FieldError>) {
    let Some(value) = schema.and_then(|s| s.open_api_v3_schema.as_ref()) else {
        return;
    };
    match super::validate_crd_schema(at, value, status, opts, true) {
        Ok(found) => errs.extend(found),
        // Not reached: the document was decoded first.
        Err(e) => errs.push(FieldError::invalid(
            &at.child("openAPIV3Schema"),
            BadValue::String(String::new()),
            e.to_string(),
        )),
    }
}

fn deprecation_warning(at: &Path, deprecated: bool, warning: Option<&str>, errs: &mut Vec<FieldError>) {
    let Some(w) = warning else { return };
    let p = at.child("deprecationWarning");
    if !deprecated {
        errs.push(invalid(&p, w, "can only be set for deprecated versions"));
        return;
    }
    if w.len() > 256 {
        errs.push(invalid(&p, w, "must be <= 256 characters long"));
    }
    if w.is_empty() {
        errs.push(invalid(&p, w, "must not be an empty string"));
    }
    for (i, c) in w.char_indices() {
        if !kstruct_schema::go::is_print(c) {
            errs.push(invalid(
                &p,
                w,
                format!("must only contain printable UTF-8 characters; non-printable character found at index {i}"),
            ));
            break;
        }
    }
}

fn simple_json_path(p: &Path, s: &str) -> Option<FieldError> {
    if s.is_empty() {
        return Some(invalid(p, s, "must not be empty"));
    }
    if !s.starts_with('.') {
        return Some(invalid(p, s, "must be a simple json path starting with ."));
    }
    None
}

fn subresources_rules(at: &Path, s: &Subresources, errs: &mut Vec<FieldError>) {
    let Some(scale) = &s.scale else { return };
    replicas_path(
        &at.child("scale.specReplicasPath"),
        &scale.spec_replicas_path,
        "spec",
        errs,
    );
    replicas_path(
        &at.child("scale.statusReplicasPath"),
        &scale.status_replicas_path,
        "status",
        errs,
    );
    if let Some(selector) = scale.label_selector_path.as_deref().filter(|s| !s.is_empty()) {
        let p = at.child("scale.labelSelectorPath");
        if let Some(e) = simple_json_path(&p, selector) {
            errs.push(e);
        } else if !selector.starts_with(".spec.") && !selector.starts_with(".status.") {
            errs.push(invalid(
                &p,
                selector,
                "should be a json path under either .spec or .status",
            ));
        }
    }
}

/// A scale replicas path: required, simple, and under `.<under>.`.
fn replicas_path(p: &Path, path: &str, under: &str, errs: &mut Vec<FieldError>) {
    if path.is_empty() {
        errs.push(FieldError::required(p, ""));
    } else if let Some(e) = simple_json_path(p, path) {
        errs.push(e);
    } else if !path.starts_with(&format!(".{under}.")) {
        errs.push(invalid(p, path, format!("should be a json path under .{under}")));
    }
}

/// `ValidateCustomResourceColumnDefinition` (note the internal field name `JSONPath`).
fn column(at: &Path, c: &Column, errs: &mut Vec<FieldError>) {
    if c.name.is_empty() {
        errs.push(FieldError::required(&at.child("name"), ""));
    }
    let types = format!("must be one of {PRINTER_COLUMN_TYPES}");
    if c.type_.is_empty() {
        errs.push(FieldError::required(&at.child("type"), types));
    } else if !PRINTER_COLUMN_TYPES.split(',').any(|t| t == c.type_) {
        errs.push(invalid(&at.child("type"), &c.type_, types));
    }
    if !c.format.is_empty() && !PRINTER_COLUMN_FORMATS.contains(&c.format.as_str()) {
        errs.push(invalid(
            &at.child("format"),
            &c.format,
            format!("must be one of {}", PRINTER_COLUMN_FORMATS.join(",")),
        ));
    }
    if c.json_path.is_empty() {
        errs.push(FieldError::required(&at.child("JSONPath"), ""));
    } else if let Some(e) = simple_json_path(&at.child("JSONPath"), &c.json_path) {
        errs.push(e);
    }
}

/// `ValidateCustomResourceSelectableFields`, after converting the schema they refer to.
fn selectable(at: &Path, schema_at: &Path, schema: Option<&Value>, fields: &[String], errs: &mut Vec<FieldError>) {
    let structural = match schema.map(kstruct_schema::convert::from_value) {
        Some(Ok(s)) => s,
        None => None,
        Some(Err(e)) => {
            errs.push(FieldError::invalid(
                schema_at,
                BadValue::String(String::new()),
                e.to_string(),
            ));
            None
        }
    };
    let list = at.child("selectableFields");
    let mut unique = BTreeSet::new();
    for (i, f) in fields.iter().enumerate() {
        let p = list.index(i).child("jsonPath");
        if f.is_empty() {
            errs.push(FieldError::required(&p, ""));
            continue;
        }
        // Without a structural schema the server's path lookup dereferences nil (a panic it
        // answers with an internal error): no finding is sure past the empty paths.
        let Some(structural) = structural.as_ref() else {
            return;
        };
        match resolve_with(f, structural, false) {
            Err(e) => errs.push(invalid(&p, f, format!("is an invalid path: {e}"))),
            Ok(found) => {
                if found.root.as_deref() == Some("metadata") {
                    errs.push(invalid(&p, f, "must not point to fields in metadata"));
                }
                if !matches!(found.schema.generic.type_.as_str(), "string" | "boolean" | "integer") {
                    errs.push(invalid(
                        &p,
                        f,
                        "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
                    ));
                }
                if !unique.insert(found.path.to_string()) {
                    errs.push(FieldError::duplicate(&p, BadValue::String(f.clone())));
                }
            }
        }
    }
    if unique.len() > MAX_SELECTABLE_FIELDS {
        errs.push(FieldError::new(
            ErrorKind::TooMany,
            &list,
            BadValue::Int(unique.len() as i64),
            format!("must have at most {MAX_SELECTABLE_FIELDS} items"),
        ));
    }
}

/// `ValidateCustomResourceDefinitionNames`.
fn names_rules(at: &Path, n: &Names, errs: &mut Vec<FieldError>) {
    for (field, value) in [("plural", &n.plural), ("singular", &n.singular)] {
        let problems = is_dns1035_label(value);
        if !value.is_empty() && !problems.is_empty() {
            errs.push(invalid(&at.child(field), value, problems.join(",")));
        }
    }
    for (field, value) in [("kind", &n.kind), ("listKind", &n.list_kind)] {
        let problems = is_dns1035_label(&value.to_lowercase());
        if !value.is_empty() && !problems.is_empty() {
            errs.push(invalid(
                &at.child(field),
                value,
                format!(
                    "may have mixed case, but should otherwise match: {}",
                    problems.join(",")
                ),
            ));
        }
    }
    for (i, s) in n.short_names.iter().enumerate() {
        let problems = is_dns1035_label(s);
        if !problems.is_empty() {
            errs.push(invalid(&at.child("shortNames").index(i), s, problems.join(",")));
        }
    }
    if !n.kind.is_empty() && n.kind == n.list_kind {
        errs.push(invalid(
            &at.child("listKind"),
            &n.list_kind,
            "kind and listKind may not be the same",
        ));
    }
    for (i, c) in n.categories.iter().enumerate() {
        let problems = is_dns1035_label(c);
        if !problems.is_empty() {
            errs.push(invalid(&at.child("categories").index(i), c, problems.join(",")));
        }
    }
}

/// `validateCustomResourceConversion` (internal paths: `webhookClientConfig`,
/// `conversionReviewVersions`).
fn conversion(crd: &Crd, errs: &mut Vec<FieldError>) {
    let c = &crd.conversion;
    let at = Path::new("spec").child("conversion");
    match c.strategy.as_str() {
        "" => errs.push(FieldError::required(&at.child("strategy"), "")),
        "None" | "Webhook" => {}
        other => errs.push(FieldError::not_supported(
            &at.child("strategy"),
            other,
            &["None", "Webhook"],
        )),
    }
    let cc_path = at.child("webhookClientConfig");
    let versions_path = at.child("conversionReviewVersions");
    if c.strategy != "Webhook" {
        if c.client_config.is_some() {
            errs.push(FieldError::forbidden(
                &cc_path,
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !c.review_versions.is_empty() {
            errs.push(FieldError::forbidden(
                &versions_path,
                "should not be set when strategy is not set to Webhook",
            ));
        }
        return;
    }
    match &c.client_config {
        None => errs.push(FieldError::required(
            &cc_path,
            "required when strategy is set to Webhook",
        )),
        Some(cc) => match (&cc.url, &cc.service) {
            (None, None) | (Some(_), Some(_)) => errs.push(FieldError::required(
                &cc_path,
                "exactly one of url or service is required",
            )),
            (Some(url), None) => webhook_url(&cc_path.child("url"), url, errs),
            (None, Some(s)) => {
                let p = cc_path.child("service");
                // The reference passes name and namespace swapped, so each is reported at the
                // other's path.
                if s.namespace.is_empty() {
                    errs.push(FieldError::required(&p.child("name"), ""));
                }
                if s.name.is_empty() {
                    errs.push(FieldError::required(&p.child("namespace"), ""));
                }
                if !(1..=65535).contains(&s.port) {
                    errs.push(FieldError::invalid(
                        &p.child("port"),
                        BadValue::Int(s.port),
                        "port is not valid: must be between 1 and 65535, inclusive",
                    ));
                }
                if let Some(path) = &s.path {
                    webhook_path(&p.child("path"), path, errs);
                }
            }
        },
    }
    if c.review_versions.is_empty() {
        errs.push(FieldError::required(&versions_path, ""));
    } else {
        let mut seen = BTreeSet::new();
        for (i, v) in c.review_versions.iter().enumerate() {
            if !seen.insert(v.as_str()) {
                errs.push(invalid(&versions_path.index(i), v, "duplicate version"));
                continue;
            }
            for m in is_dns1035_label(v) {
                errs.push(invalid(&versions_path.index(i), v, m));
            }
        }
        if !c.review_versions.iter().any(|v| v == "v1" || v == "v1beta1") {
            errs.push(FieldError::invalid(
                &versions_path,
                BadValue::Json(json!(c.review_versions)),
                "must include at least one of v1, v1beta1",
            ));
        }
    }
}

fn webhook_url(p: &Path, url: &str, errs: &mut Vec<FieldError>) {
    let desired = "desired format: https://host[/path]";
    let Some((scheme, rest)) = url.split_once("://") else {
        errs.push(invalid(
            p,
            "",
            format!("'https' is the only allowed URL scheme; {desired}"),
        ));
        return;
    };
    if scheme != "https" {
        errs.push(invalid(
            p,
            scheme,
            format!("'https' is the only allowed URL scheme; {desired}"),
        ));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let (user, host) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    if host.is_empty() {
        errs.push(invalid(p, host, format!("host must be provided; {desired}")));
    }
    if let Some(u) = user {
        errs.push(invalid(p, u, "user information is not permitted in the URL"));
    }
    if let Some((_, fragment)) = rest.split_once('#') {
        errs.push(invalid(p, fragment, "fragments are not permitted in the URL"));
    }
    if let Some((_, query)) = rest.split('#').next().unwrap_or("").split_once('?') {
        errs.push(invalid(p, query, "query parameters are not permitted in the URL"));
    }
}

fn webhook_path(p: &Path, path: &str, errs: &mut Vec<FieldError>) {
    if path.is_empty() || path == "/" {
        return;
    }
    if path == "//" {
        errs.push(invalid(p, path, "segment[0] may not be empty"));
        return;
    }
    if !path.starts_with('/') {
        errs.push(invalid(p, path, "must start with a '/'"));
    }
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
    for (i, segment) in trimmed.split('/').enumerate() {
        if segment.is_empty() {
            errs.push(invalid(p, path, format!("segment[{i}] may not be empty")));
            continue;
        }
        for m in is_dns1123_subdomain(segment) {
            errs.push(invalid(p, path, format!("segment[{i}]: {m}")));
        }
    }
}

/// `ValidateCustomResourceDefinitionStoredVersions` after `PrepareForCreate` stored the first
/// storage version.
fn stored_versions(crd: &Crd, errs: &mut Vec<FieldError>) {
    let p = Path::new("status").child("storedVersions");
    let Some(first) = crd.versions.iter().find(|v| v.storage) else {
        errs.push(FieldError::invalid(
            &p,
            BadValue::Json(Value::Null),
            "must have at least one stored version",
        ));
        return;
    };
    for v in &crd.versions {
        if v.storage && v.name != first.name {
            errs.push(FieldError::invalid(
                &p,
                BadValue::Json(json!([first.name])),
                format!("must have the storage version {}", v.name),
            ));
        }
    }
}

/// `validateAPIApproval`: groups of the Kubernetes project need the approval annotation.
fn api_approval(crd: &Crd, errs: &mut Vec<FieldError>) {
    let g = crd.group.as_str();
    let protected = g == "k8s.io" || g.ends_with(".k8s.io") || g == "kubernetes.io" || g.ends_with(".kubernetes.io");
    if !protected {
        return;
    }
    let p = Path::new("metadata").child("annotations").key(APPROVAL);
    let value = crd
        .annotations
        .iter()
        .find(|(k, _)| k == APPROVAL)
        .map(|(_, v)| v.as_str())
        .unwrap_or("");
    if value.is_empty() {
        errs.push(FieldError::required(
            &p,
            format!(
                "protected groups must have approval annotation {APPROVAL:?}, see https://github.com/kubernetes/enhancements/pull/1111"
            ),
        ));
        return;
    }
    if value.starts_with("unapproved") || is_request_uri_with_host(value) {
        return;
    }
    errs.push(invalid(
        &p,
        value,
        format!(
            "protected groups must have approval annotation {APPROVAL:?} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"
        ),
    ));
}

/// `url.ParseRequestURI` succeeding with a scheme and a host.
fn is_request_uri_with_host(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once("://") else {
        return false;
    };
    let scheme_ok = scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    scheme_ok && !host.is_empty() && !s.contains(' ')
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    /// A CRD the API server accepts; `edit` changes it.
    fn lint(edit: impl FnOnce(&mut Value)) -> Vec<String> {
        let mut doc = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                     "names": {"kind": "Widget", "plural": "widgets"},
                     "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                         "type": "object", "properties": {
                             "spec": {"type": "object", "properties": {"size": {"type": "integer"}, "tags": {"type": "object", "additionalProperties": {"type": "string"}}}},
                             "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}}}]},
        });
        edit(&mut doc);
        crate::lint::lint_crd(&doc)
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn version(doc: &mut Value) -> &mut Value {
        &mut doc["spec"]["versions"][0]
    }

    #[test]
    fn the_base_crd_is_accepted() {
        assert_eq!(lint(|_| {}), Vec::<String>::new());
    }

    #[test]
    fn names() {
        let got = lint(|d| {
            d["spec"]["names"] = json!({"kind": "Widget", "plural": "widgets", "listKind": "Widget",
                "shortNames": ["w", "W"], "categories": ["all", "_x"]});
        });
        let dns = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an \
                   alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', \
                   regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
        assert_eq!(
            got,
            [
                format!("spec.names.shortNames[1]: Invalid value: \"W\": {dns}"),
                "spec.names.listKind: Invalid value: \"Widget\": kind and listKind may not be the same".to_string(),
                format!("spec.names.categories[1]: Invalid value: \"_x\": {dns}"),
            ]
        );
        // The singular, defaulted from the kind, is reported first.
        let got = lint(|d| d["spec"]["names"]["kind"] = json!("My_Widget"));
        assert_eq!(
            got[0],
            format!("spec.names.singular: Invalid value: \"my_widget\": {dns}")
        );
        assert_eq!(
            got[1],
            format!(
                "spec.names.kind: Invalid value: \"My_Widget\": may have mixed case, but should otherwise match: {dns}"
            )
        );
    }

    #[test]
    fn versions_print_as_go_marshals_the_internal_ones() {
        let got = lint(|d| {
            let mut second = version(d).clone();
            second["name"] = json!("v2");
            second["schema"] = json!({"openAPIV3Schema": {"type": "object"}});
            second["additionalPrinterColumns"] =
                json!([{"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp", "priority": 1}]);
            d["spec"]["versions"].as_array_mut().unwrap().push(second);
        });
        let versions = got
            .iter()
            .find(|e| e.starts_with("spec.versions: Invalid value: ["))
            .unwrap();
        // Schemas differ, so each version keeps its own; the columns too.
        assert!(
            versions.contains(r#"{"Name":"v2","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":{"OpenAPIV3Schema":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","#),
            "{versions}"
        );
        assert!(
            versions.contains(r#""AdditionalPrinterColumns":[{"Name":"Age","Type":"date","Format":"","Description":"","Priority":1,"JSONPath":".metadata.creationTimestamp"}],"SelectableFields":null}]"#),
            "{versions}"
        );
    }

    #[test]
    fn groups_of_the_kubernetes_project_need_approval() {
        let got = lint(|d| {
            d["spec"]["group"] = json!("widgets.k8s.io");
            d["metadata"]["name"] = json!("widgets.widgets.k8s.io");
        });
        assert_eq!(
            got,
            [
                "metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval \
              annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111"
            ]
        );
        let approved = lint(|d| {
            d["spec"]["group"] = json!("widgets.k8s.io");
            d["metadata"]["name"] = json!("widgets.widgets.k8s.io");
            d["metadata"]["annotations"] =
                json!({"api-approved.kubernetes.io": "https://github.com/kubernetes/kubernetes/pull/1"});
        });
        assert_eq!(approved, Vec::<String>::new());
    }

    #[test]
    fn preserve_unknown_fields_and_defaults() {
        let got = lint(|d| {
            d["spec"]["preserveUnknownFields"] = json!(true);
            version(d)["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["size"]["default"] = json!(1);
        });
        assert_eq!(
            got,
            [
                "spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema",
                "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
            ]
        );
    }

    #[test]
    fn defaults_are_pruned_and_typed() {
        let got = lint(|d| {
            let spec = &mut version(d)["schema"]["openAPIV3Schema"]["properties"]["spec"];
            spec["default"] = json!({"size": "x", "colour": "red"});
        });
        assert_eq!(
            got,
            [
                "spec.validation.openAPIV3Schema.properties[spec].default: Invalid value: {\"colour\":\"red\",\"size\":\"x\"}: must not have unknown fields",
                "spec.validation.openAPIV3Schema.properties[spec].default.size: Invalid value: \"string\": size in body must be of type integer: \"string\"",
            ]
        );
    }

    #[test]
    fn versions_keep_their_own_paths_when_their_schemas_differ() {
        let got = lint(|d| {
            let mut v2 = d["spec"]["versions"][0].clone();
            v2["name"] = json!("v2");
            v2["storage"] = json!(false);
            v2["schema"]["openAPIV3Schema"]["properties"]["spec"]["uniqueItems"] = json!(true);
            d["spec"]["versions"].as_array_mut().unwrap().push(v2);
        });
        assert_eq!(
            got,
            [
                "spec.versions[1].schema.openAPIV3Schema.properties[spec].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"
            ]
        );
    }

    #[test]
    fn subresources_columns_and_selectable_fields() {
        let got = lint(|d| {
            let v = version(d);
            v["subresources"] = json!({"status": {}, "scale": {"specReplicasPath": ".status.replicas", "statusReplicasPath": "status.replicas", "labelSelectorPath": ".metadata.labels"}});
            v["additionalPrinterColumns"] = json!([{"name": "Size", "type": "int", "jsonPath": "spec.size"}, {"name": "", "type": "string", "format": "uuid", "jsonPath": ".spec.size"}]);
            v["selectableFields"] = json!([{"jsonPath": ".spec.size"}, {"jsonPath": ".spec['size']"}, {"jsonPath": ".spec.tags"}, {"jsonPath": "spec.size"}, {"jsonPath": ".spec.size"}]);
        });
        assert_eq!(
            got,
            [
                "spec.subresources.scale.specReplicasPath: Invalid value: \".status.replicas\": should be a json path under .spec",
                "spec.subresources.scale.statusReplicasPath: Invalid value: \"status.replicas\": must be a simple json path starting with .",
                "spec.subresources.scale.labelSelectorPath: Invalid value: \".metadata.labels\": should be a json path under either .spec or .status",
                "spec.additionalPrinterColumns[0].type: Invalid value: \"int\": must be one of boolean,date,integer,number,string",
                "spec.additionalPrinterColumns[0].JSONPath: Invalid value: \"spec.size\": must be a simple json path starting with .",
                "spec.additionalPrinterColumns[1].name: Required value",
                "spec.additionalPrinterColumns[1].format: Invalid value: \"uuid\": must be one of byte,date,date-time,double,float,int32,int64,password",
                "spec.selectableFields[1].jsonPath: Invalid value: \".spec['size']\": is an invalid path: array notation is not allowed",
                "spec.selectableFields[2].jsonPath: Invalid value: \".spec.tags\": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
                "spec.selectableFields[3].jsonPath: Invalid value: \"spec.size\": is an invalid path: expected [ or . but got: spec",
                "spec.selectableFields[4].jsonPath: Duplicate value: \".spec.size\"",
            ]
        );
    }

    #[test]
    fn conversion_webhooks() {
        let got = lint(|d| {
            d["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {
                "conversionReviewVersions": ["v2", "v2"],
                "clientConfig": {"url": "http://user@host/convert?x=1"}}});
        });
        assert_eq!(
            got,
            [
                "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"user\": user information is not permitted in the URL",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"x=1\": query parameters are not permitted in the URL",
                "spec.conversion.conversionReviewVersions[1]: Invalid value: \"v2\": duplicate version",
                "spec.conversion.conversionReviewVersions: Invalid value: [\"v2\",\"v2\"]: must include at least one of v1, v1beta1",
            ]
        );
        let got = lint(|d| {
            d["spec"]["conversion"] = json!({"strategy": "None", "webhook": {"conversionReviewVersions": ["v1"]}})
        });
        assert_eq!(
            got,
            [
                "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook"
            ]
        );
    }

    #[test]
    fn deprecation_warnings() {
        let got = lint(|d| version(d)["deprecationWarning"] = json!("old"));
        assert_eq!(
            got,
            ["spec.versions[0].deprecationWarning: Invalid value: \"old\": can only be set for deprecated versions"]
        );
        let got = lint(|d| {
            version(d)["deprecated"] = json!(true);
            version(d)["deprecationWarning"] = json!("a\u{7}b");
        });
        assert_eq!(
            got,
            [
                "spec.versions[0].deprecationWarning: Invalid value: \"a\\ab\": must only contain printable UTF-8 characters; non-printable character found at index 1"
            ]
        );
    }

    #[test]
    fn an_empty_versions_list_prints_as_go_marshals_it() {
        let got = lint(|d| d["spec"]["versions"] = json!([]));
        assert_eq!(
            got[0],
            "spec.versions: Invalid value: []: must have exactly one version marked as storage version"
        );
        let got = lint(|d| {
            d["spec"].as_object_mut().unwrap().remove("versions");
        });
        assert_eq!(
            got[0],
            "spec.versions: Invalid value: null: must have exactly one version marked as storage version"
        );
    }

    #[test]
    fn selectable_fields_identical_in_every_version_move_up_without_the_schemas() {
        // Two schemas, one list of selectable fields: the list moves to the top level, the
        // schemas stay per version, and the top level has no schema to check them against.
        let got = lint(|d| {
            version(d)["selectableFields"] = json!([{"jsonPath": ".spec.size"}]);
            let mut v2 = version(d).clone();
            v2["name"] = json!("v2");
            v2["storage"] = json!(false);
            v2["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["extra"] = json!({"type": "string"});
            d["spec"]["versions"].as_array_mut().unwrap().push(v2);
        });
        assert_eq!(
            got,
            ["spec.selectableFields: Invalid value: \"\": may only be set when validations.schema is included"]
        );
        // A field without a path, wherever the list sits.
        let got = lint(|d| version(d)["selectableFields"] = json!([{}, {"jsonPath": ".spec.size"}]));
        assert_eq!(got, ["spec.selectableFields[0].jsonPath: Required value"]);
        let got = lint(|d| {
            let mut v2 = version(d).clone();
            v2["name"] = json!("v2");
            v2["storage"] = json!(false);
            version(d)["selectableFields"] = json!([{}]);
            d["spec"]["versions"].as_array_mut().unwrap().push(v2);
        });
        // Identical schemas move up while differing selectable fields stay: the version has no
        // schema of its own left.
        assert_eq!(
            got,
            [
                "spec.versions[0].selectableFields: Invalid value: \"\": may only be set when `version.schema.openAPIV3Schema` is not included"
            ]
        );
    }

    #[test]
    fn deprecation_warnings_read_from_yaml_as_the_server_reads_them() {
        // NEL is a line break for the server's YAML reader (folded to a space in a quoted
        // scalar); U+2028 stays, and is not printable.
        let yaml = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n\
                    spec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Widget, plural: widgets}\n  versions:\n\
                    \x20 - name: v1\n    served: true\n    storage: true\n    deprecated: true\n\
                    \x20   deprecationWarning: \"use\u{85}v2 é\u{2028}now\"\n\
                    \x20   schema: {openAPIV3Schema: {type: object}}\n";
        let doc = kstruct_schema::yaml::to_json(yaml).unwrap().value;
        let got: Vec<String> = crate::lint::lint_crd(&doc)
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            got,
            [
                "spec.versions[0].deprecationWarning: Invalid value: \"use v2 é\\u2028now\": must only contain printable UTF-8 characters; non-printable character found at index 9"
            ]
        );
    }

    #[test]
    fn documents_of_the_wrong_shape_are_refused_whole() {
        let mut doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                             "spec": {"group": 5}});
        assert_eq!(
            crate::lint::lint_crd(&doc).unwrap_err().to_string(),
            "CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: json: cannot \
             unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.group of type string"
        );
        doc["spec"] = json!({"versions": [{"name": "v1", "schema": {"openAPIV3Schema": {"type": 1}}}]});
        assert_eq!(
            crate::lint::lint_crd(&doc).unwrap_err().to_string(),
            "CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: json: cannot \
             unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.type of type string"
        );
    }
}
