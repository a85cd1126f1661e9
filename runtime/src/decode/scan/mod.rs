//! The fast path of decoding: a JSON body walked once, straight to the bytes the API server
//! would store ([`try_request_bytes`]) or to the object it would go on with
//! ([`try_request_value`]), by the byte walk of the layer below. Whatever the walk does not
//! take goes [`request_by_value`](super::request_by_value)'s way, so answers and errors are
//! that path's by construction.

use crate::byte_walk::{Plan, value, walk};
use crate::decode::{BodyFormat, DecodeOptions, DecodeReport, Decoded, FieldValidation, Resolve, Selected, TextList};
use crate::error::Error;
use crate::messages;
use crate::pipeline::Pipeline;

/// The walk alone: [`decode::request_bytes`](crate::decode::request_bytes)'s answer for
/// `body` when the walk gives it, with the object appended to `out`; `None`, with nothing
/// appended, for a body the walk leaves to the `Value` path. `request_bytes` tries this first;
/// call it directly to see which bodies take which path.
///
/// ```
/// use kstruct::{DecodeOptions, RegisteredCrd};
///
/// let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&serde_json::json!({
///     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
///     "metadata": {"name": "widgets.example.com"},
///     "spec": {"group": "example.com", "scope": "Namespaced",
///              "names": {"kind": "Widget", "plural": "widgets"},
///              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
///                  "type": "object",
///                  "properties": {"spec": {"type": "object", "properties": {
///                      "size": {"type": "integer", "default": 1}}}}}}}]}
/// })).unwrap();
/// let crd = RegisteredCrd::new(crd);
/// let body = br#"{"kind": "Widget", "apiVersion": "example.com/v1", "spec": {"colour": "red"}}"#;
///
/// let mut out = Vec::new();
/// let report = kstruct::scan::try_request_bytes(&crd, body, &DecodeOptions::default(), &mut out).unwrap();
/// assert_eq!(out, br#"{"apiVersion":"example.com/v1","kind":"Widget","spec":{"size":1}}"#);
/// assert_eq!(report.unknown_fields, ["spec.colour"]);
///
/// // Repeated keys are reported by the `Value` path.
/// let body = br#"{"kind": "Widget", "apiVersion": "example.com/v1", "spec": {}, "spec": {}}"#;
/// assert!(kstruct::scan::try_request_bytes(&crd, body, &DecodeOptions::default(), &mut out).is_none());
/// ```
pub fn try_request_bytes<R: Resolve + ?Sized>(
    target: &R,
    body: &[u8],
    options: &DecodeOptions,
    out: &mut Vec<u8>,
) -> Option<DecodeReport> {
    if options.validate {
        return None;
    }
    walk(target, body, options, out, Walk::default()).map(|(report, _)| report)
}

/// [`try_request_bytes`] for the document at the start of `input`, the bytes a stream holds
/// from a document on ([`JsonStream::buffered`](crate::input::JsonStream::buffered)): the walk
/// ends with the root object, and where it ends comes with the report, so that each document
/// of a stream is read once. `None`, with nothing appended, for what `try_request_bytes`
/// leaves to the `Value` path and for a document that does not end within `input`.
///
/// ```
/// use kstruct::{DecodeOptions, Interpreter};
///
/// let any = Interpreter::new(None);
/// let stream = b"{\"apiVersion\": \"v1\", \"kind\": \"A\", \"x\": 1}\n{\"apiVersion\": \"v1\"";
/// let mut out = Vec::new();
/// let (_, end) = kstruct::scan::try_request_bytes_prefix(&kstruct::decode::OneVersion(&any), stream, &DecodeOptions::default(), &mut out).unwrap();
/// assert_eq!((&out[..], end), (&br#"{"apiVersion":"v1","kind":"A"}"#[..], 41));
/// // The second document is cut short.
/// out.clear();
/// assert!(kstruct::scan::try_request_bytes_prefix(&kstruct::decode::OneVersion(&any), &stream[42..], &DecodeOptions::default(), &mut out).is_none());
/// ```
pub fn try_request_bytes_prefix<R: Resolve + ?Sized>(
    target: &R,
    input: &[u8],
    options: &DecodeOptions,
    out: &mut Vec<u8>,
) -> Option<(DecodeReport, usize)> {
    if options.validate {
        return None;
    }
    let how = Walk {
        prefix: true,
        ..Walk::default()
    };
    walk(target, input, options, out, how)
}

/// How [`walk`] reads its input and writes its output.
#[derive(Default, Clone, Copy)]
struct Walk {
    /// The output is read back as a `Value`.
    exact_numbers: bool,
    /// The input is a stream's buffered bytes: the document ends with its root object.
    prefix: bool,
}

/// The walk alone, for a `Value`: [`decode::request_in`](crate::decode::request_in)'s answer
/// for `body` when the walk gives it; `None` for a body the walk leaves to the `Value` path
/// ([`decode::request_by_value`](crate::decode::request_by_value)). The object is built from
/// the walk's output, so what the schema prunes is skipped and never allocated. With
/// [`DecodeOptions::validate`] the create is then validated as the `Value` path validates it.
///
/// ```
/// use kstruct::{DecodeOptions, RegisteredCrd};
/// use serde_json::json;
///
/// let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&json!({
///     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
///     "metadata": {"name": "widgets.example.com"},
///     "spec": {"group": "example.com", "scope": "Namespaced",
///              "names": {"kind": "Widget", "plural": "widgets"},
///              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
///                  "type": "object",
///                  "properties": {"spec": {"type": "object", "properties": {
///                      "size": {"type": "integer", "default": 1}}}}}}}]}
/// })).unwrap();
/// let crd = RegisteredCrd::new(crd);
/// let body = br#"{"kind": "Widget", "apiVersion": "example.com/v1", "spec": {"colour": "red"}}"#;
///
/// let decoded = kstruct::scan::try_request_value(&crd, body, &DecodeOptions::default(), None).unwrap().unwrap();
/// assert_eq!(decoded.object, json!({"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"size": 1}}));
/// assert_eq!(decoded.unknown_fields, ["spec.colour"]);
/// ```
pub fn try_request_value<R: Resolve + ?Sized>(
    target: &R,
    body: &[u8],
    options: &DecodeOptions,
    namespace: Option<&str>,
) -> Option<Result<Decoded, Error>> {
    thread_local! {
        static OUT: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut out = OUT.take();
    out.clear();
    let exact = Walk {
        exact_numbers: true,
        ..Walk::default()
    };
    let report = walk(target, body, options, &mut out, exact).map(|(report, _)| report);
    let object = report.as_ref().and_then(|_| value::read(&out));
    // A buffer grown by one huge body is not kept for the rest of the thread's life.
    if out.capacity() <= 1 << 20 {
        OUT.set(out);
    }
    let (object, report) = (object?, report?);
    let (mut object, create_warnings) = match crate::decode::validated(target, object, namespace, options.validate) {
        Ok(validated) => validated,
        Err(e) => return Some(Err(e.with_warnings(report.warnings.iter()))),
    };
    if options.validate {
        crate::decode::set_resource_version(&mut object, options.resource_version);
    }
    let mut warnings = report.warnings;
    warnings.extend(create_warnings);
    Some(Ok(Decoded {
        object,
        warnings,
        unknown_fields: report.unknown_fields,
        duplicate_fields: report.duplicate_fields,
    }))
}

/// The walk of `body` into `out`, as `how` says; where the document ends in `body`.
fn walk<R: Resolve + ?Sized>(
    target: &R,
    body: &[u8],
    options: &DecodeOptions,
    out: &mut Vec<u8>,
    how: Walk,
) -> Option<(DecodeReport, usize)> {
    let exact_numbers = how.exact_numbers;
    if options.format.resolve(body) != BodyFormat::Json
        || (!how.prefix && options.max_body_size.is_some_and(|limit| body.len() > limit))
    {
        return None;
    }
    let track = options.field_validation != FieldValidation::Ignore;
    let start = out.len();
    let mut resolve = |api_version: &str, kind: &str| -> Option<&Plan> {
        if kind.is_empty() {
            return None;
        }
        let (group, version) = crate::gvk::parse_group_version(api_version).ok()?;
        match target.resolve(group, version, kind).ok()? {
            Selected::Crd {
                pipeline: Some(p),
                preserve_unknown_fields: false,
            } => p.scan_plan().filter(|plan| !exact_numbers || plan.value_exact()),
            _ => None,
        }
    };
    let walked = {
        let mut walker = walk::Walker::new(body, out, track);
        walker.exact_numbers = exact_numbers;
        walker.prefix = how.prefix;
        walker.root(&mut resolve)
    };
    // A stream's document is its root object, from its opening brace.
    let too_long = |end: usize| {
        options.max_body_size.is_some_and(|limit| {
            let lead = body
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
                .count();
            end - lead > limit
        })
    };
    let Some(root) = walked.ok().filter(|root| !(how.prefix && too_long(root.end))) else {
        out.truncate(start);
        return None;
    };
    let walk::Root {
        mut unknown,
        metadata,
        embedded,
        end,
    } = root;
    if !track {
        return Some((DecodeReport::default(), end));
    }
    if options.field_validation == FieldValidation::Strict && !(unknown.is_empty() && embedded.is_empty()) {
        // The rejection is the `Value` path's to write.
        out.truncate(start);
        return None;
    }
    // The warnings are the unknown fields' strict errors, each text once (as
    // `messages::warnings` keeps them; distinct paths can print alike, `a.b` and `a` > `b`).
    // The pruned and embedded lists come sorted: a repeat within one is next to its first.
    let paths = unknown.len() + embedded.len();
    let bytes = unknown.text_len() + embedded.text_len();
    let mut warnings = TextList::with_capacity(paths, bytes + paths * (messages::UNKNOWN_FIELD.len() + 1));
    let (text, spans) = unknown.parts();
    let mut warn = |p: &str| warnings.push_wrapped(messages::UNKNOWN_FIELD, p, "\"");
    // Only a path that begins as root metadata's do can be one of them (`metadata.x`, or a
    // pruned `metadata.x` key of the root); root metadata reports at most 100 fields.
    let (meta, pruned) = spans.split_at(metadata.min(spans.len()));
    let in_meta = |p: &str| p.starts_with("metadata.") && meta.iter().any(|&(s, e)| &text[s..e] == p);
    for (i, &(s, e)) in meta.iter().enumerate() {
        let p = &text[s..e];
        if !meta[..i].iter().any(|&(s, e)| &text[s..e] == p) {
            warn(p);
        }
    }
    let mut previous = "";
    for (i, &(s, e)) in pruned.iter().enumerate() {
        let p = &text[s..e];
        if (i == 0 || previous != p) && !in_meta(p) {
            warn(p);
        }
        previous = p;
    }
    for (i, p) in embedded.iter().enumerate() {
        if (i == 0 || &embedded[i - 1] != p) && !in_meta(p) && unknown.binary_search_from(metadata, p).is_err() {
            warn(p);
        }
    }
    unknown.extend(&embedded);
    Some((
        DecodeReport {
            warnings,
            unknown_fields: unknown,
            duplicate_fields: TextList::new(),
        },
        end,
    ))
}

#[cfg(test)]
mod tests;
