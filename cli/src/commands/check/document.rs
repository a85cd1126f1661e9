//! Checking documents: CRDs first (into the catalog), then every document against it.

use kstruct::schema::go::marshal_json;
use kstruct::source::{Position, Segment, SourceMap};
use kstruct::{BodyFormat, DecodeOptions, Error, FieldValidation, RegisteredCrd, parse_group_version};
use serde_json::Value;

use super::builtin;
use super::catalog::{Added, Catalog, Origin};
use super::collect::{Collected, Doc, File, LineIndex, documents};
use super::non_objects::{self, Action};
use super::{Field, Outcome, Report, Settings, SyntaxError, hints};
use crate::commands::positions::{self, locate_nearest, object_source_path};

/// The API groups the API server itself serves (no CRD declares their kinds); objects of
/// these groups are not checked unless a CRD declares their kind.
const BUILT_IN_GROUPS: &[&str] = &[
    "",
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "apiregistration.k8s.io",
    "apps",
    "authentication.k8s.io",
    "authorization.k8s.io",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "coordination.k8s.io",
    "discovery.k8s.io",
    "events.k8s.io",
    "extensions",
    "flowcontrol.apiserver.k8s.io",
    "internal.apiserver.k8s.io",
    "networking.k8s.io",
    "node.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "resource.k8s.io",
    "scheduling.k8s.io",
    "storage.k8s.io",
    "storagemigration.k8s.io",
];

/// Groups of files that tools read and never send to the API server (kustomize's
/// `kustomization.yaml`, KRM function configs).
const CLIENT_SIDE_GROUPS: &[&str] = &["kustomize.config.k8s.io", "config.kubernetes.io"];

/// One document, read once for both passes.
struct Parsed {
    file: usize,
    doc: Doc,
    /// The document as a value (non-strict), when it reads at all.
    value: Option<Value>,
    /// For a CRD document (or each CRD item of a List, by item index): what adding it gave.
    added: Vec<(Option<usize>, Added)>,
}

/// Checks every document of `collected`: reports in input order.
pub fn check_all(collected: &Collected, settings: &Settings, tick: &mut dyn FnMut(usize, &str)) -> Vec<Report> {
    let mut catalog = Catalog::default();
    let mut parsed = Vec::new();
    // First every CRD, so that a stream may hold objects before the CRDs they need (as
    // `helm template` orders them) and `--crds` and the inputs mean the same.
    for (fi, file) in collected.files.iter().enumerate() {
        for doc in documents(file) {
            let value = if doc.broken.is_some() {
                None
            } else {
                read_value(&file.bytes[doc.range.clone()], doc.format)
            };
            let mut added = Vec::new();
            let mut value = value;
            // CRDs are large (the corpus' 35 MB of CRD YAML is ten times that as values) and
            // only their identity is needed once linted: what is kept is a skeleton.
            match &mut value {
                // A patch of a CRD is no CRD to check objects against.
                Some(v) if kstruct::schema::crd::is_crd(v) && non_objects::crd_patch(v).is_none() => {
                    added.push((None, catalog.add(v, origin(file, doc.start))));
                    *v = skeleton(v);
                }
                Some(v) if list_items(v).is_some() => {
                    let map = SourceMap::new(&file.bytes[doc.range.clone()], doc.format);
                    if let Some(Value::Array(items)) = v.get_mut("items") {
                        for (i, item) in items.iter_mut().enumerate() {
                            if kstruct::schema::crd::is_crd(item) {
                                let at = item_start(map.as_ref(), i, doc.start);
                                added.push((Some(i), catalog.add(item, origin(file, at))));
                                *item = skeleton(item);
                            }
                        }
                    }
                }
                _ => {}
            }
            parsed.push(Parsed {
                file: fi,
                doc,
                value,
                added,
            });
        }
    }
    let mut reports = Vec::new();
    let mut last_file = usize::MAX;
    for p in parsed {
        let file = &collected.files[p.file];
        if p.file != last_file {
            tick(p.file, &file.name);
            last_file = p.file;
        }
        let body = &file.bytes[p.doc.range.clone()];
        let mut report = Report::new(&file.name, p.doc.index, p.doc.content);
        if let Some(why) = &p.doc.broken {
            report.outcome = Outcome::Error;
            report.messages.push(why.clone());
            if let Some(a) = non_objects::template_action(&file.bytes) {
                let at = offset_position(&file.bytes, a.offset, Position { line: 1, column: 1 });
                unrendered_template(&mut report, &a, at, settings);
            }
            reports.push(report);
            continue;
        }
        let Some(value) = p.value else {
            // Unreadable: the API server's answer to these bytes, unless they are a template
            // (which seldom reads as YAML).
            reject_unreadable(&mut report, body, p.doc.format, p.doc.start);
            if let Some(a) = non_objects::template_action(body) {
                let at = offset_position(body, a.offset, p.doc.start);
                unrendered_template(&mut report, &a, at, settings);
            }
            reports.push(report);
            continue;
        };
        let added = p.added;
        if let Some(items) = list_items(&value) {
            let map = SourceMap::new(body, p.doc.format);
            for (i, item) in items.iter().enumerate() {
                let mut r = Report::new(&file.name, p.doc.index, item_start(map.as_ref(), i, p.doc.start));
                describe(&mut r, item);
                if let Some((_, a)) = added.iter().find(|(at, _)| *at == Some(i)) {
                    crd_report(&mut r, a, map.as_ref(), &format!("items[{i}]."), p.doc.start);
                } else {
                    let json = marshal_json(item);
                    let target = Target {
                        body: json.as_bytes(),
                        format: BodyFormat::Json,
                        map: map.as_ref(),
                        prefix: format!("items[{i}]."),
                        start: p.doc.start,
                    };
                    check_object(&mut r, item, &target, &catalog, settings);
                }
                reports.push(r);
            }
            continue;
        }
        describe(&mut report, &value);
        if let Some(what) = (added.is_empty() && kstruct::schema::crd::is_crd(&value))
            .then(|| non_objects::crd_patch(&value))
            .flatten()
        {
            crd_patch_report(&mut report, &value, what, settings);
        } else if let Some((_, a)) = added.first() {
            let map = if a.messages.is_empty() {
                None
            } else {
                SourceMap::new(body, p.doc.format)
            };
            crd_report(&mut report, a, map.as_ref(), "", p.doc.start);
        } else {
            let target = Target {
                body,
                format: p.doc.format,
                map: None,
                prefix: String::new(),
                start: p.doc.start,
            };
            check_object(&mut report, &value, &target, &catalog, settings);
        }
        reports.push(report);
    }
    reports
}

fn origin(file: &File, at: Position) -> Origin {
    Origin {
        file: file.name.clone(),
        at,
    }
}

/// What the reports need of a document: apiVersion, kind, metadata's name and namespace.
fn skeleton(v: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for key in ["apiVersion", "kind"] {
        if let Some(x) = v.get(key) {
            out.insert(key.into(), x.clone());
        }
    }
    if let Some(Value::Object(meta)) = v.get("metadata") {
        let kept: serde_json::Map<String, Value> = meta
            .iter()
            .filter(|(k, _)| *k == "name" || *k == "namespace")
            .map(|(k, x)| (k.clone(), x.clone()))
            .collect();
        out.insert("metadata".into(), Value::Object(kept));
    }
    Value::Object(out)
}

/// The items of a `kind: List` (what `kubectl get -o yaml` writes).
fn list_items(v: &Value) -> Option<&Vec<Value>> {
    let kind = v.get("kind").and_then(Value::as_str)?;
    if kind != "List" && !kind.ends_with("List") {
        return None;
    }
    // `v1 List` and typed lists (`ConfigMapList`) hold objects under items; a custom
    // resource whose kind ends in List is not one unless it looks like a list.
    let is_list = kind == "List" || v.get("metadata").is_none_or(|m| m.get("name").is_none());
    if !is_list {
        return None;
    }
    v.get("items").and_then(Value::as_array)
}

fn item_start(map: Option<&SourceMap>, i: usize, doc_start: Position) -> Position {
    map.and_then(|m| m.locate(&format!("items[{i}]")))
        .map_or(doc_start, |p| p.offset_by(doc_start))
}

/// Reads a document as a value, without strictness: `None` when it does not read.
fn read_value(body: &[u8], format: BodyFormat) -> Option<Value> {
    let json = format.resolve(body) == BodyFormat::Json;
    if json {
        kstruct::json::decode(body).ok().map(|d| d.value)
    } else {
        kstruct::schema::yaml::to_json_bytes(body).ok().map(|c| c.value)
    }
}

/// Fills in apiVersion, kind, namespace and name.
fn describe(r: &mut Report, v: &Value) {
    let s = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
    r.api_version = s("/apiVersion");
    r.kind = s("/kind");
    r.namespace = s("/metadata/namespace");
    r.name = s("/metadata/name");
}

fn crd_report(r: &mut Report, added: &Added, map: Option<&SourceMap>, prefix: &str, doc_start: Position) {
    r.crd = true;
    r.messages = added.messages.clone();
    r.message_at = added
        .fields
        .iter()
        .map(|f| positions::crd_finding(map?, prefix, f.as_deref()?, doc_start))
        .collect();
    if let Some(first) = &added.repeats {
        r.messages.push(format!(
            "a CustomResourceDefinition for kind {:?} in group {:?} is already defined at {first}; objects of that kind are checked against that one",
            added.kind, added.group
        ));
    }
    r.outcome = if r.messages.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Error
    };
}

/// The server's answer to a document that does not read: the rejection of an endpoint with no
/// schema.
fn reject_unreadable(r: &mut Report, body: &[u8], format: BodyFormat, base: Position) {
    r.outcome = Outcome::Error;
    if !refuse_without_schema(r, body, format, base) {
        r.messages.push("the document could not be read".into());
    }
}

/// Adds to `r` the message (and its position) of an endpoint with no schema refusing `body`,
/// which starts at `base` in the file; false when it would accept it.
fn refuse_without_schema(r: &mut Report, body: &[u8], format: BodyFormat, base: Position) -> bool {
    let options = DecodeOptions {
        field_validation: FieldValidation::Strict,
        format,
        validate: false,
        max_body_size: None,
        resource_version: None,
    };
    match kstruct::Registry::new().decode(body, &options) {
        Err(Error::Rejected(rejection)) => {
            r.message_at.push(
                rejection
                    .position
                    .map(|(line, column)| char_position(body, line, column, format).offset_by(base)),
            );
            if rejection.position.is_some() {
                r.syntax = Some(syntax_error(&rejection.cause, body, format, base));
            }
            r.messages.push(rejection.message);
            true
        }
        Err(e) => {
            r.message_at.push(None);
            r.messages.push(e.to_string());
            true
        }
        Ok(_) => false,
    }
}

/// Marks a document that is not a Kubernetes object: skipped, or an error with
/// `--non-objects error`. `reason` says what it lacks; its messages stay the server's.
fn not_an_object(r: &mut Report, reason: String, at: Position, settings: &Settings) {
    r.outcome = if settings.non_objects_are_errors {
        Outcome::Error
    } else {
        Outcome::Skipped
    };
    r.reason = Some(reason);
    r.not_object = Some(at);
    r.hint = None;
}

/// Marks a document that is part of a CRD (a kustomize patch): one line for people, with how
/// to leave such files out; machines also get the server's answer to creating it.
fn crd_patch_report(r: &mut Report, value: &Value, what: String, settings: &Settings) {
    r.messages = match kstruct::lint::lint_crd(value) {
        Ok(errors) => errors.iter().map(ToString::to_string).collect(),
        Err(e) => vec![e.to_string()],
    };
    let hint = non_objects::exclude_hint(&r.file);
    not_an_object(r, format!("{what}; {hint}"), r.start, settings);
}

/// Marks a document that is a template still to be rendered, at its action `a`.
fn unrendered_template(r: &mut Report, a: &Action, at: Position, settings: &Settings) {
    const SHOWN: usize = 60;
    let text = match a.text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &a.text[..cut]),
        None => a.text.clone(),
    };
    let what = if a.helm {
        format!("an unrendered Helm template ({text}); check the output of `helm template` instead")
    } else {
        format!("an unrendered template ({text}), not a Kubernetes object; check what it renders instead")
    };
    not_an_object(r, what, at, settings);
}

/// A syntax error for people: the decoder's own text (`cause`), and for YAML, where the
/// construct the parser was reading starts (an unclosed quote, the mapping a line breaks).
fn syntax_error(cause: &str, body: &[u8], format: BodyFormat, base: Position) -> SyntaxError {
    let context = (format.resolve(body) != BodyFormat::Json)
        .then(|| kstruct::schema::yaml::to_json_bytes(body).err()?.context())
        .flatten()
        .map(|c| {
            let what = c
                .text
                .trim_start_matches("while scanning ")
                .trim_start_matches("while parsing ")
                .trim_start_matches("an ")
                .trim_start_matches("a ");
            let at = char_position(body, c.line, c.column, format).offset_by(base);
            (format!("the {what} starts here"), at)
        });
    SyntaxError {
        text: cause.to_string(),
        context,
    }
}

/// The position in the file of byte `offset` of a document that starts at `start`.
fn offset_position(body: &[u8], offset: usize, start: Position) -> Position {
    LineIndex::new(body).position(offset).offset_by(start)
}

/// A JSON error's column counts bytes; people count characters.
fn char_position(body: &[u8], line: usize, column: usize, format: BodyFormat) -> Position {
    let json = format.resolve(body) == BodyFormat::Json;
    if !json {
        return Position { line, column };
    }
    let start = body
        .split_inclusive(|&b| b == b'\n')
        .take(line.saturating_sub(1))
        .map(<[u8]>::len)
        .sum::<usize>();
    let end = (start + column.saturating_sub(1)).min(body.len());
    Position {
        line,
        column: body[start.min(end)..end].iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1,
    }
}

/// Where an object's bytes are and how to find its fields in the file.
struct Target<'a> {
    /// The request body.
    body: &'a [u8],
    format: BodyFormat,
    /// For List items: the List document's map (fields are under `prefix`).
    map: Option<&'a SourceMap>,
    prefix: String,
    /// Where the document starts in the file.
    start: Position,
}

fn check_object(r: &mut Report, value: &Value, target: &Target<'_>, catalog: &Catalog, settings: &Settings) {
    if target.body.len() > settings.max_body {
        // The API server reads at most this much of a request body (`limitedReadBody`).
        r.outcome = Outcome::Error;
        r.messages.push(
            Error::TooLarge {
                limit: settings.max_body,
            }
            .to_string(),
        );
        r.hint = Some(format!(
            "the document is {} bytes; --max-body-size raises the limit",
            target.body.len()
        ));
        return;
    }
    // Templates and files that are not objects are named in one line, not answered with the
    // server's message quoting the whole document (which machine outputs still carry). A List
    // item's body is its JSON, so only whole documents are searched for templates.
    let action = target
        .map
        .is_none()
        .then(|| non_objects::template_action(target.body))
        .flatten();
    if let Some(a) = action.as_ref().filter(|a| a.helm) {
        unrendered_template(r, a, offset_position(target.body, a.offset, target.start), settings);
        return;
    }
    if let Some(missing) = non_objects::missing_identity(value) {
        // Without a kind the server refuses the body (machine outputs keep its message); a
        // body with a kind but no apiVersion, no client would send.
        refuse_without_schema(r, target.body, target.format, target.start);
        match &action {
            Some(a) => unrendered_template(r, a, offset_position(target.body, a.offset, target.start), settings),
            // A kind without an apiVersion is an object with a mistake, not some other file.
            None if r.is_object_without_version() => {
                not_an_object(
                    r,
                    "no apiVersion: kubectl refuses to send an object without one (apiVersion not set)".into(),
                    r.start,
                    settings,
                );
                r.outcome = Outcome::Error;
            }
            None => not_an_object(r, format!("not a Kubernetes object ({missing})"), r.start, settings),
        }
        return;
    }
    let (Some(api_version), Some(kind)) = (r.api_version.clone(), r.kind.clone()) else {
        // An apiVersion or kind that is not a string: the server's answer to it.
        reject_unreadable(r, target.body, target.format, target.start);
        return;
    };
    let Ok((group, version)) = parse_group_version(&api_version) else {
        reject_unreadable(r, target.body, target.format, target.start);
        return;
    };
    if skipped_by_flag(&settings.skip_kinds, group, version, &kind) {
        r.outcome = Outcome::Skipped;
        r.reason = Some("--skip-kinds".into());
        return;
    }
    let Some(crd) = catalog.find(group, &kind) else {
        if let Some(refused) = catalog.refused(group, &kind) {
            r.outcome = Outcome::Error;
            r.messages
                .push(format!("no matches for kind {kind:?} in version \"{group}/{version}\""));
            r.hint = Some(format!(
                "the CRD for it, {}, at {}, would be refused by the API server",
                refused.name, refused.origin
            ));
        } else if BUILT_IN_GROUPS.contains(&group) {
            match builtin::served(settings.release, group, version, &kind) {
                Ok(warning) => {
                    r.warnings.extend(warning);
                    decode_builtin(r, value, target, settings);
                }
                Err(hint) => {
                    r.outcome = Outcome::Error;
                    r.messages
                        .push(format!("no matches for kind {kind:?} in version {api_version:?}"));
                    r.hint = Some(hint);
                }
            }
        } else if CLIENT_SIDE_GROUPS.contains(&group) {
            r.outcome = Outcome::Skipped;
            r.reason = Some("not sent to the API server".into());
        } else if settings.ignore_missing_crds {
            r.outcome = Outcome::Skipped;
            r.reason = Some("no CRD".into());
        } else {
            r.outcome = Outcome::Error;
            r.messages.push(
                Error::NoSuchKind {
                    group: group.into(),
                    kind: kind.clone(),
                }
                .to_string(),
            );
            r.hint = kind_hint(catalog, group, &kind);
        }
        return;
    };
    if !crd.crd.versions.iter().any(|v| v.name == version && v.served) {
        r.outcome = Outcome::Error;
        r.messages.push(
            Error::NoSuchVersion {
                group: group.into(),
                version: version.into(),
                kind: kind.clone(),
            }
            .to_string(),
        );
        let served: Vec<&str> = crd
            .crd
            .versions
            .iter()
            .filter(|v| v.served)
            .map(|v| v.name.as_str())
            .collect();
        r.hint = Some(format!("{} serves {}", crd.crd.name, served.join(", ")));
        return;
    }
    // Where the object is stored: its own namespace, else the one kubectl sends it to
    // (`default`); a cluster-scoped object has none (the server clears what it names).
    r.namespace = match crd.crd.scope.as_str() {
        "Cluster" => None,
        _ => Some(
            r.namespace
                .take()
                .filter(|ns| !ns.is_empty())
                .unwrap_or_else(|| "default".into()),
        ),
    };
    decode(r, crd, version, value, target, settings);
}

/// How many errors validation reports for a body the server refused with a strict decoding
/// error (it answers before validating): the body decoded again under Warn, which prunes the
/// unknown fields and keeps the last of repeated ones as Strict would once they are fixed.
fn hidden_errors(crd: &RegisteredCrd, target: &Target<'_>) -> Option<usize> {
    let warn = DecodeOptions {
        field_validation: FieldValidation::Warn,
        format: target.format,
        validate: true,
        max_body_size: None,
        resource_version: None,
    };
    match crd.decode(target.body, &warn) {
        Err(Error::Rejected(rejection)) => rejection.invalid.map(|i| i.errors.len()).filter(|&n| n > 0),
        _ => None,
    }
}

fn skipped_by_flag(skip: &[String], group: &str, version: &str, kind: &str) -> bool {
    skip.iter().any(|s| {
        s == kind
            || s.strip_suffix(kind)
                .and_then(|p| p.strip_suffix('/'))
                .is_some_and(|p| p == group || (group.is_empty() && p == version) || p == format!("{group}/{version}"))
    })
}

fn kind_hint(catalog: &Catalog, group: &str, kind: &str) -> Option<String> {
    // The kind exists in another group: the group is misspelt.
    let groups: Vec<&str> = catalog.kinds().filter(|(_, k)| *k == kind).map(|(g, _)| g).collect();
    if let Some(g) = hints::closest(group, groups.iter().copied()).or(groups.first().copied()) {
        return Some(format!("did you mean group {g:?}?"));
    }
    let same_group: Vec<&str> = catalog.kinds().filter(|(g, _)| *g == group).map(|(_, k)| k).collect();
    let all: Vec<&str> = catalog.kinds().map(|(_, k)| k).collect();
    hints::closest(kind, same_group)
        .or_else(|| hints::closest(kind, all))
        .map(|k| format!("did you mean {k:?}?"))
}

/// How the server's notice that blocking errors stopped CEL rules begins.
const RULES_NOT_CHECKED: &str = "some validation rules were not checked";

fn decode(r: &mut Report, crd: &RegisteredCrd, version: &str, value: &Value, target: &Target<'_>, settings: &Settings) {
    let options = DecodeOptions {
        field_validation: settings.field_validation,
        format: target.format,
        validate: settings.validate,
        max_body_size: None,
        resource_version: None,
    };
    r.fields_are_warnings = settings.field_validation == FieldValidation::Warn;
    let has_rules = settings.validate
        && crd
            .version(version)
            .and_then(Result::ok)
            .and_then(|i| i.schema())
            .is_some_and(kstruct::rules::has_rules);
    let mut paths: Option<kstruct::Decoded> = None;
    match crd.decode(target.body, &options) {
        Ok(decoded) => {
            r.rules_checked = has_rules;
            r.outcome = if decoded.warnings.is_empty() {
                Outcome::Ok
            } else {
                Outcome::Warning
            };
            r.messages = decoded.warnings.to_vec();
            if settings.keep_objects {
                r.stored = Some(decoded.object.clone());
            }
            paths = Some(decoded);
        }
        Err(Error::Rejected(rejection)) => {
            r.outcome = Outcome::Error;
            r.message_at =
                vec![rejection.position.map(|(line, column)| {
                    char_position(target.body, line, column, target.format).offset_by(target.start)
                })];
            if rejection.position.is_some() {
                r.syntax = Some(syntax_error(&rejection.cause, target.body, target.format, target.start));
            }
            r.messages.push(rejection.message);
            if let Some(invalid) = rejection.invalid {
                r.rules_checked = has_rules && !invalid.errors.iter().any(|e| e.detail.starts_with(RULES_NOT_CHECKED));
                r.validation_errors = invalid
                    .errors
                    .iter()
                    .map(|e| Field {
                        path: e.field.clone(),
                        at: None,
                        first: None,
                        suggestion: None,
                        message: Some(e.to_string()),
                    })
                    .collect();
            }
            // The strict error names the fields; the Warn path gives them one by one. A
            // validation refusal under Warn hides the unknown fields it warned about; under
            // Strict it means there were none, and Ignore tracks none.
            let warned_then_refused =
                !r.validation_errors.is_empty() && settings.field_validation == FieldValidation::Warn;
            if !rejection.strict_errors.is_empty() || warned_then_refused {
                let warn = DecodeOptions {
                    field_validation: FieldValidation::Warn,
                    format: target.format,
                    validate: false,
                    max_body_size: None,
                    resource_version: None,
                };
                paths = crd.decode(target.body, &warn).ok();
            }
            if !rejection.strict_errors.is_empty() && settings.validate {
                r.hidden = hidden_errors(crd, target);
            }
        }
        Err(e) => {
            r.outcome = Outcome::Error;
            r.messages.push(e.to_string());
        }
    }
    if settings.keep_objects {
        r.input = Some(value.clone());
    }
    let interpreter = crd.version(version).and_then(Result::ok);
    let schema = interpreter.and_then(|i| i.schema());
    locate_fields(r, paths.unwrap_or_default(), target, &|path, segments| {
        hints::field(path, segments, schema)
    });
}

/// Puts the unknown, duplicate and invalid fields of a decoded (or refused) document at their
/// lines and columns; `schema` suggests the field meant.
fn locate_fields(
    r: &mut Report,
    found: kstruct::Decoded,
    target: &Target<'_>,
    suggest: &dyn Fn(&str, &[Segment]) -> Option<String>,
) {
    // A YAML body's repeated keys are the YAML converter's errors, in the server's message
    // (Strict) or among the Warn decode's warnings (a refusal by validation replaces those).
    let repeated_key = |m: &str| m.contains("already set in map");
    let yaml_duplicates = r.messages.iter().any(|m| repeated_key(m)) || found.warnings.iter().any(repeated_key);
    if found.unknown_fields.is_empty()
        && found.duplicate_fields.is_empty()
        && !yaml_duplicates
        && r.validation_errors.is_empty()
    {
        return;
    }
    let own_map;
    let map = match target.map {
        Some(m) => Some(m),
        None => {
            own_map = SourceMap::new(target.body, target.format);
            own_map.as_ref()
        }
    };
    let full = |p: &str| format!("{}{p}", target.prefix);
    let at = |p: Position| p.offset_by(target.start);
    for e in &mut r.validation_errors {
        let path = object_source_path(&e.path);
        e.at = map
            .filter(|_| !path.is_empty() && path != "<nil>")
            .and_then(|m| locate_nearest(m, &full(&path)))
            .map(at);
    }
    for path in &found.unknown_fields {
        let segments = map.and_then(|m| m.segments(&full(path)));
        let suggestion = segments.as_ref().and_then(|s| {
            let skip = if target.prefix.is_empty() { 0 } else { 2 };
            suggest(path, s.get(skip..)?)
        });
        r.unknown_fields.push(Field {
            path: path.to_owned(),
            at: map.and_then(|m| m.locate(&full(path))).map(at),
            first: None,
            suggestion,
            message: None,
        });
    }
    if yaml_duplicates {
        if let Some(m) = map {
            let prefix = target.prefix.as_str();
            for d in m.duplicates() {
                if let Some(path) = d.path.strip_prefix(prefix) {
                    r.duplicate_fields.push(Field {
                        path: path.to_string(),
                        at: Some(at(d.at)),
                        first: Some(at(d.first)),
                        suggestion: None,
                        message: None,
                    });
                }
            }
        }
    } else {
        for path in &found.duplicate_fields {
            let places = map.map(|m| m.occurrences(&full(path))).unwrap_or_default();
            r.duplicate_fields.push(Field {
                path: path.to_owned(),
                at: places.get(1).copied().map(at),
                first: places.first().copied().map(at),
                suggestion: None,
                message: None,
            });
        }
    }
}

/// A built-in object decoded into its Go type as the release's API server decodes it (the
/// kind's defaulting and validation are not modelled).
fn decode_builtin(r: &mut Report, value: &Value, target: &Target<'_>, settings: &Settings) {
    let kinds = kstruct::builtin::BuiltinKinds::new(settings.release);
    r.builtin = true;
    let options = DecodeOptions {
        field_validation: settings.field_validation,
        format: target.format,
        ..DecodeOptions::default()
    };
    r.fields_are_warnings = settings.field_validation == FieldValidation::Warn;
    let mut paths: Option<kstruct::Decoded> = None;
    match kinds.decode(target.body, &options) {
        Ok(decoded) => {
            r.outcome = if decoded.warnings.is_empty() && r.warnings.is_empty() {
                Outcome::Ok
            } else {
                Outcome::Warning
            };
            r.messages = decoded.warnings.to_vec();
            if settings.keep_objects {
                r.stored = Some(decoded.object.clone());
            }
            paths = Some(decoded);
        }
        Err(Error::Rejected(rejection)) => {
            r.outcome = Outcome::Error;
            let own_map;
            let map = match target.map {
                Some(m) => Some(m),
                None => {
                    own_map = SourceMap::new(target.body, target.format);
                    own_map.as_ref()
                }
            };
            let at = match (&rejection.field, rejection.position) {
                (_, Some((line, column))) => {
                    Some(char_position(target.body, line, column, target.format).offset_by(target.start))
                }
                (Some(field), None) => map
                    .and_then(|m| locate_nearest(m, &format!("{}{field}", target.prefix)))
                    .map(|p| p.offset_by(target.start)),
                (None, None) => None,
            };
            r.message_at = vec![at];
            if rejection.position.is_some() {
                r.syntax = Some(syntax_error(&rejection.cause, target.body, target.format, target.start));
            }
            r.messages.push(rejection.message);
            if !rejection.strict_errors.is_empty() {
                let warn = DecodeOptions {
                    field_validation: FieldValidation::Warn,
                    ..options
                };
                paths = kinds.decode(target.body, &warn).ok();
            }
        }
        Err(e) => {
            r.outcome = Outcome::Error;
            r.messages.push(e.to_string());
        }
    }
    if settings.keep_objects {
        r.input = Some(value.clone());
    }
    let api_version = r.api_version.clone().unwrap_or_default();
    let (group, version) = parse_group_version(&api_version).unwrap_or_default();
    let kind = r.kind.clone().unwrap_or_default();
    locate_fields(r, paths.unwrap_or_default(), target, &|path, segments| {
        hints::builtin_field(path, segments, &kinds, group, version, &kind)
    });
}
