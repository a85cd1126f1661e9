//! `kstruct decode`: each input document through the API server's write path (or, with
//! `--storage`, its read-from-storage path).

use std::io::{Read, Write as _};
use std::path::PathBuf;

use kstruct::builtin::BuiltinKinds;
use kstruct::compiled::{self, CompiledCrd};
use kstruct::decode::{DecodeReport, Resolve, Selected, TextList};
use kstruct::{
    DecodeExt, DecodeOptions, Decoded, Error, FieldValidation, GroupVersionKind, Interpreter, Pipeline, RegisteredCrd,
    Registry,
};
use serde_json::{Value, json};

use super::Outcome;
use crate::inputs::{open_input, read_head, write_line};
use crate::schemas::{CrdRef, note_crd_default_pruning, read_bare_schema, read_crds};

/// What the objects are decoded with.
pub enum Endpoint {
    /// A bare schema, for whatever group/version/kind the object names.
    Schema(Box<Interpreter>),
    /// A compiled bare schema.
    CompiledSchema(&'static dyn Pipeline),
    /// One CRD: objects of another group or kind are decoded without a schema, and the API
    /// server's messages name this CRD's kind.
    Crd(Box<RegisteredCrd>),
    /// Several CRDs, each object decoded with the one its group and kind name.
    Crds(Registry),
    /// One compiled CRD (with only one of its versions served, when given).
    CompiledCrd(&'static CompiledCrd, Option<String>),
    /// Compiled CRDs (with only one version of each served, when given).
    Compiled(&'static compiled::Registry, Option<String>),
    /// Kubernetes' own kinds of a release, decoded into their Go types; bodies sent to the
    /// collection of the given kind, or each to its own.
    Builtin(BuiltinKinds, Option<GroupVersionKind>),
}

/// What kstruct does not model for built-in kinds, named where it would be needed.
fn builtin_not_modelled(what: &str) -> Error {
    Error::NotModelled(format!(
        "{what} of Kubernetes' own kinds (kstruct decodes them as the API server does, but does not run their defaulting, validation or update logic)"
    ))
}

/// `[GROUP/]VERSION/KIND`.
fn parse_endpoint(text: &str) -> Result<GroupVersionKind, String> {
    let parts: Vec<&str> = text.split('/').collect();
    let (group, version, kind) = match parts[..] {
        [version, kind] => ("", version, kind),
        [group, version, kind] => (group, version, kind),
        _ => {
            return Err(format!(
                "--endpoint {text:?}: expected [GROUP/]VERSION/KIND, such as v1/Pod or apps/v1/Deployment"
            ));
        }
    };
    if version.is_empty() || kind.is_empty() {
        return Err(format!(
            "--endpoint {text:?}: expected [GROUP/]VERSION/KIND, such as v1/Pod or apps/v1/Deployment"
        ));
    }
    Ok(GroupVersionKind {
        group: group.into(),
        version: version.into(),
        kind: kind.into(),
    })
}

/// An endpoint serving only `version` of its CRDs, as CRDs with that one version would
/// serve: objects naming another version of a served kind get an empty schema.
struct OnlyVersion<'a, R: ?Sized> {
    inner: &'a R,
    version: Option<&'a str>,
}

impl<R: Resolve + ?Sized> Resolve for OnlyVersion<'_, R> {
    type Pipeline = R::Pipeline;

    fn served_kind(&self) -> Option<&str> {
        self.inner.served_kind()
    }

    fn resolve(&self, group: &str, version: &str, kind: &str) -> Result<Selected<'_, R::Pipeline>, Error> {
        match self.version {
            Some(only) if only != version => Ok(match self.inner.resolve(group, only, kind)? {
                Selected::Crd {
                    preserve_unknown_fields,
                    ..
                } => Selected::Crd {
                    pipeline: None,
                    preserve_unknown_fields,
                },
                Selected::Other => Selected::Other,
            }),
            _ => self.inner.resolve(group, version, kind),
        }
    }

    fn create_context(
        &self,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Result<Option<kstruct::validation::CreateContext<'_>>, Error> {
        match self.version {
            Some(only) if only != version => Ok(None),
            _ => self.inner.create_context(group, version, kind),
        }
    }
}

impl Endpoint {
    /// Compiled CRDs as an endpoint: checked as [`load`](Endpoint::load) checks CRD files.
    pub fn compiled(
        crds: Vec<&'static CompiledCrd>,
        all: &'static compiled::Registry,
        version: Option<String>,
    ) -> Result<Endpoint, String> {
        let origin = "compiled";
        if let Some(v) = &version
            && crds.iter().all(|c| c.version(v).is_none())
        {
            return Err(format!("{origin}: no CustomResourceDefinition has version {v}"));
        }
        for c in &crds {
            if !c.preserve_unknown_fields {
                for v in c.versions {
                    if version.as_ref().is_some_and(|only| only != v.name) {
                        continue;
                    }
                    if let Err(e) = v.pipeline {
                        return Err(format!("{origin}: {} {}: {e}", c.name, v.name));
                    }
                }
            }
            note_crd_default_pruning(origin, CrdRef::Compiled(c));
        }
        // As for CRD files: one CRD is its endpoint (rejections name its kind).
        Ok(match crds.as_slice() {
            [one] => Endpoint::CompiledCrd(one, version),
            _ => Endpoint::Compiled(all, version),
        })
    }

    fn load(args: &crate::DecodeEndpoint) -> Result<Endpoint, String> {
        if let Some(path) = &args.schema {
            let (schema, _) = read_bare_schema(path)?;
            return Ok(Endpoint::Schema(Box::new(Interpreter::new(schema))));
        }
        let Some(path) = &args.crd else {
            let endpoint = args.endpoint.as_deref().map(parse_endpoint).transpose()?;
            let kinds = BuiltinKinds::new(args.kubernetes_version);
            if let Some(e) = &endpoint
                && kinds.kind(&e.group, &e.version, &e.kind).is_none()
            {
                return Err(format!(
                    "--endpoint {}: Kubernetes {} serves no such kind (use --crd or --schema for custom resources)",
                    args.endpoint.as_deref().unwrap_or(""),
                    args.kubernetes_version
                ));
            }
            return Ok(Endpoint::Builtin(kinds, endpoint));
        };
        let (mut crds, origin) = read_crds(path, args.kind.as_deref())?;
        if let Some(v) = &args.version {
            // Registered alone, as a CRD with that one version would serve.
            for crd in &mut crds {
                crd.versions.retain(|cv| &cv.name == v);
            }
            if crds.iter().all(|c| c.versions.is_empty()) {
                return Err(format!("{origin}: no CustomResourceDefinition has version {v}"));
            }
        }
        let mut registry = Registry::new();
        for crd in crds {
            registry.add(crd);
        }
        for c in registry.crds() {
            if !c.crd.preserve_unknown_fields {
                for name in c.version_names() {
                    if let Some(Err(e)) = c.version(name) {
                        return Err(format!("{origin}: {} {name}: {e}", c.crd.name));
                    }
                }
            }
            note_crd_default_pruning(&origin, CrdRef::Interpreted(c));
        }
        Ok(if registry.crds().len() == 1 {
            Endpoint::Crd(Box::new(registry.crds()[0].clone()))
        } else {
            Endpoint::Crds(registry)
        })
    }

    fn decode(&self, body: &[u8], options: &DecodeOptions, storage: bool, ns: Option<&str>) -> Result<Decoded, Error> {
        use kstruct::decode::request_in;
        match (self, storage) {
            (Endpoint::Schema(p), false) => p.decode(body, options),
            (Endpoint::Schema(p), true) => p.decode_storage(body),
            (Endpoint::CompiledSchema(p), false) => p.decode(body, options),
            (Endpoint::CompiledSchema(p), true) => p.decode_storage(body),
            (Endpoint::CompiledCrd(c, v), false) => request_in(&only(*c, v), body, options, ns),
            (Endpoint::CompiledCrd(c, v), true) => kstruct::decode::storage(&only(*c, v), body),
            (Endpoint::Compiled(r, v), false) => request_in(&only(*r, v), body, options, ns),
            (Endpoint::Compiled(r, v), true) => kstruct::decode::storage(&only(*r, v), body),
            (Endpoint::Crd(c), false) => request_in(&**c, body, options, ns),
            (Endpoint::Crd(c), true) => c.decode_storage(body),
            (Endpoint::Crds(r), false) => request_in(r, body, options, ns),
            (Endpoint::Crds(r), true) => r.decode_storage(body),
            (Endpoint::Builtin(..), true) => Err(builtin_not_modelled("the read-from-storage path")),
            (Endpoint::Builtin(..), false) if options.validate => Err(builtin_not_modelled("validation")),
            (Endpoint::Builtin(kinds, endpoint), false) => kinds.decode_at(endpoint.as_ref(), body, options),
        }
    }
}

/// A request on a stored object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// PUT (`kstruct decode --update`).
    Update,
    /// PATCH of a type.
    Patch(kstruct::patch::PatchType),
    /// A mutating webhook's JSON patch.
    Webhook,
}

/// `verb` on `target`, as [`Endpoint::verb`] describes.
fn run_verb<R: Resolve + ?Sized>(
    target: &R,
    verb: Verb,
    existing: Option<&Value>,
    old: Option<&Value>,
    body: &[u8],
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    match (verb, existing) {
        (Verb::Update, Some(e)) => kstruct::decode::update(target, e, body, options),
        (Verb::Patch(t), e) => kstruct::patch::patch(target, e, body, t, options),
        (Verb::Webhook, Some(e)) => kstruct::patch::webhook(target, e, body, old, options),
        (_, None) => Err(Error::NotFound),
    }
}

impl Endpoint {
    /// A request on the stored object `existing`: a PUT of `body`, a patch, or the JSON patch
    /// a mutating webhook returned for `existing` (then `old` is the stored object of an
    /// update, `None` for a create).
    pub fn verb(
        &self,
        verb: Verb,
        existing: Option<&Value>,
        old: Option<&Value>,
        body: &[u8],
        options: &DecodeOptions,
    ) -> Result<Decoded, Error> {
        use kstruct::decode::OneVersion;
        match self {
            Endpoint::Schema(p) => run_verb(&OneVersion(&**p), verb, existing, old, body, options),
            Endpoint::CompiledSchema(p) => run_verb(&OneVersion(*p), verb, existing, old, body, options),
            Endpoint::CompiledCrd(c, v) => run_verb(&only(*c, v), verb, existing, old, body, options),
            Endpoint::Compiled(r, v) => run_verb(&only(*r, v), verb, existing, old, body, options),
            Endpoint::Crd(c) => run_verb(&**c, verb, existing, old, body, options),
            Endpoint::Crds(r) => run_verb(r, verb, existing, old, body, options),
            // The patch, up to the kind's own steps (defaulting, the registry strategy,
            // validation), which are not modelled: the output says so.
            Endpoint::Builtin(kinds, _) => match verb {
                Verb::Patch(t) => kstruct::patch::patch_builtin(kinds, existing, body, t, options),
                Verb::Update | Verb::Webhook => Err(builtin_not_modelled("updates and webhook patches")),
            },
        }
    }
}

impl Endpoint {
    /// The write path to bytes (see [`kstruct::decode::request_bytes`]).
    fn decode_bytes(
        &self,
        body: &[u8],
        options: &DecodeOptions,
        ns: Option<&str>,
        out: &mut Vec<u8>,
    ) -> Result<DecodeReport, Error> {
        use kstruct::decode::request_bytes;
        match self {
            Endpoint::Schema(p) => p.decode_bytes(body, options, out),
            Endpoint::CompiledSchema(p) => p.decode_bytes(body, options, out),
            Endpoint::CompiledCrd(c, v) => request_bytes(&only(*c, v), body, options, ns, out),
            Endpoint::Compiled(r, v) => request_bytes(&only(*r, v), body, options, ns, out),
            Endpoint::Crd(c) => request_bytes(&**c, body, options, ns, out),
            Endpoint::Crds(r) => request_bytes(r, body, options, ns, out),
            Endpoint::Builtin(..) if options.validate => Err(builtin_not_modelled("validation")),
            // As the server's encoder writes the object: the Go fields' order.
            Endpoint::Builtin(kinds, endpoint) => kinds.decode_bytes_at(endpoint.as_ref(), body, options, out),
        }
    }
}

impl Endpoint {
    /// The walk of the document at the start of a stream's buffered bytes (see
    /// [`kstruct::scan::try_request_bytes_prefix`]): the stored object appended to `out` and
    /// where the document ends; `None` when the document must be split and decoded as usual.
    fn walk_prefix(&self, input: &[u8], options: &DecodeOptions, out: &mut Vec<u8>) -> Option<(DecodeReport, usize)> {
        use kstruct::decode::OneVersion;
        use kstruct::scan::try_request_bytes_prefix as walk;
        match self {
            Endpoint::Schema(p) => walk(&OneVersion(&**p), input, options, out),
            Endpoint::CompiledSchema(p) => walk(&OneVersion(*p), input, options, out),
            Endpoint::CompiledCrd(c, v) => walk(&only(*c, v), input, options, out),
            Endpoint::Compiled(r, v) => walk(&only(*r, v), input, options, out),
            Endpoint::Crd(c) => walk(&**c, input, options, out),
            Endpoint::Crds(r) => walk(r, input, options, out),
            Endpoint::Builtin(..) => None,
        }
    }
}

fn only<'a, R: Resolve + ?Sized>(inner: &'a R, version: &'a Option<String>) -> OnlyVersion<'a, R> {
    OnlyVersion {
        inner,
        version: version.as_deref(),
    }
}

/// Decodes every document of every input (`--crd`/`--schema` of `args`).
pub fn run(args: &crate::DecodeArgs<crate::DecodeEndpoint>) -> Result<Outcome, String> {
    let endpoint = Endpoint::load(&args.select)?;
    run_with(&endpoint, args.mode()?, &args.inputs)
}

/// The endpoint of `kstruct patch`'s `--crd`/`--schema`.
pub fn load(args: &crate::DecodeEndpoint) -> Result<Endpoint, String> {
    Endpoint::load(args)
}

/// The stored object of `patch --existing`: `None` when the file holds no document (nothing is
/// stored), the one object otherwise.
pub fn read_stored(path: &std::path::Path) -> Result<Option<Value>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let origin = path.display().to_string();
    let mut docs = kstruct::input::read_documents(&bytes, &origin).into_iter();
    let Some(first) = docs.next() else {
        return Ok(None);
    };
    if docs.next().is_some() {
        return Err(format!("{origin}: holds several documents; give one stored object"));
    }
    match first.value.map_err(|e| e.to_string())? {
        v @ Value::Object(_) => Ok(Some(v)),
        _ => Err(format!("{origin}: the stored object is not a JSON or YAML object")),
    }
}

/// The one object a file holds (JSON or YAML), for `--update` and `--old`.
pub fn read_object(path: &std::path::Path) -> Result<Value, String> {
    read_stored(path)?.ok_or_else(|| format!("{}: no object in the file", path.display()))
}

/// How to decode and print.
#[derive(Debug, Clone)]
pub struct Mode {
    /// `--validate`: go on as a create (namespace, PrepareForCreate, validation).
    pub validate: bool,
    /// `--namespace`: the request's namespace (the object's own, or `default`, when absent).
    pub namespace: Option<String>,
    /// `--max-body-size`: longer request bodies are refused as the API server refuses them.
    pub max_body_size: usize,
    /// `--resource-version`: what a write that goes through stores.
    pub resource_version: Option<u64>,
    /// `--field-validation`.
    pub field_validation: FieldValidation,
    /// `--storage`.
    pub storage: bool,
    /// `--report`.
    pub report: bool,
    /// `--body`: each input is one request body.
    pub body: bool,
    /// `--format`: the content type of every body (`Auto`: per body, as kubectl decides).
    pub format: kstruct::BodyFormat,
    /// `--update EXISTING`: each body is a PUT of the stored object `EXISTING`.
    pub update: Option<Value>,
}

/// Decodes every document of `inputs` with `endpoint`. JSON streams are read a document at a
/// time (memory: the largest document, not the input); YAML and `--body` inputs whole.
pub fn run_with(endpoint: &Endpoint, args: Mode, inputs: &[PathBuf]) -> Result<Outcome, String> {
    let stdout = std::io::stdout();
    // One write per buffer, not per line: the standard output is line-buffered.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let stderr = std::io::stderr();
    let mut run = Run {
        endpoint,
        args: &args,
        buf: Vec::new(),
        failed: false,
        // Warnings come by the thousand in a large stream: one write per buffer.
        messages: std::io::BufWriter::with_capacity(1 << 14, stderr.lock()),
    };
    let stdin = [PathBuf::from("-")];
    let paths = if inputs.is_empty() { &stdin[..] } else { inputs };
    for path in paths {
        let (origin, mut reader) = open_input(path)?;
        let head = read_head(&mut reader).map_err(|e| format!("{origin}: {e}"))?;
        if !args.body && head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
            let mut stream = kstruct::input::JsonStream::new(std::io::Cursor::new(head).chain(reader));
            let mut resplit = false;
            loop {
                if !resplit && run.walked(&mut out, &origin, &mut stream)? {
                    continue;
                }
                let doc = stream.next_document().map_err(|e| format!("{origin}: {e}"))?;
                let Some(doc) = doc else { break };
                let syntax = run.document(
                    &mut out,
                    &origin,
                    doc.line,
                    Ok(doc.body),
                    kstruct::BodyFormat::Json,
                    !resplit,
                )?;
                if syntax {
                    // Not JSON after all: from here, split as a whole stream is split.
                    stream.resplit().map_err(|e| format!("{origin}: {e}"))?;
                    resplit = true;
                }
            }
        } else {
            let mut bytes = head;
            reader.read_to_end(&mut bytes).map_err(|e| format!("{origin}: {e}"))?;
            let documents = if args.body {
                vec![kstruct::input::RawDocument {
                    index: 0,
                    line: 1,
                    body: Ok(&bytes[..]),
                    format: kstruct::BodyFormat::Auto,
                }]
            } else {
                kstruct::input::split_documents(&bytes, &origin)
            };
            for doc in documents {
                run.document(&mut out, &origin, doc.line, doc.body, doc.format, false)?;
            }
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    run.messages.flush().map_err(|e| e.to_string())?;
    Ok(if run.failed { Outcome::Findings } else { Outcome::Clean })
}

/// Sends each input, whole, as one request body of `verb` on `existing` (see
/// [`Endpoint::verb`]), and prints the answers as `decode` prints them.
pub fn run_requests(
    endpoint: &Endpoint,
    args: &Mode,
    verb: Verb,
    existing: Option<&Value>,
    old: Option<&Value>,
    inputs: &[PathBuf],
) -> Result<Outcome, String> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut run = Run {
        endpoint,
        args,
        buf: Vec::new(),
        failed: false,
        messages: std::io::BufWriter::new(std::io::stderr().lock()),
    };
    let stdin = [PathBuf::from("-")];
    let paths = if inputs.is_empty() { &stdin[..] } else { inputs };
    for path in paths {
        let (origin, mut reader) = open_input(path)?;
        let mut body = Vec::new();
        reader.read_to_end(&mut body).map_err(|e| format!("{origin}: {e}"))?;
        let options = run.options(kstruct::BodyFormat::Auto);
        let result = endpoint.verb(verb, existing, old, &body, &options);
        run.print(&mut out, &origin, 1, result)?;
    }
    if matches!(endpoint, Endpoint::Builtin(..)) && !args.report {
        // What is printed is not what the server stores: say so once.
        let _ = writeln!(
            run.messages,
            "kstruct: note: Kubernetes' own kinds are patched and read into their Go types; their defaulting, registry strategy and validation are not modelled"
        );
    }
    out.flush().map_err(|e| e.to_string())?;
    run.messages.flush().map_err(|e| e.to_string())?;
    Ok(if run.failed { Outcome::Findings } else { Outcome::Clean })
}

/// One decode run: the endpoint, the options, the output buffer reused for every document.
struct Run<'a> {
    endpoint: &'a Endpoint,
    args: &'a Mode,
    buf: Vec<u8>,
    failed: bool,
    /// Warnings and errors, for the standard error.
    messages: std::io::BufWriter<std::io::StderrLock<'static>>,
}

impl Run<'_> {
    /// Decodes and prints the stream's next document if the byte walk, reading it where the
    /// stream has buffered it, finds where it ends and answers for it: each document is then
    /// read once. False (nothing read or written) otherwise.
    fn walked<R: std::io::Read>(
        &mut self,
        out: &mut impl std::io::Write,
        origin: &str,
        stream: &mut kstruct::input::JsonStream<R>,
    ) -> Result<bool, String> {
        let args = self.args;
        if args.report
            || args.storage
            || args.validate
            || args.update.is_some()
            || args.format == kstruct::BodyFormat::Yaml
        {
            return Ok(false);
        }
        let options = self.options(kstruct::BodyFormat::Json);
        let Some(input) = stream.buffered().map_err(|e| format!("{origin}: {e}"))? else {
            return Ok(false);
        };
        self.buf.clear();
        let Some((report, len)) = self.endpoint.walk_prefix(input, &options, &mut self.buf) else {
            return Ok(false);
        };
        let line = stream.consume(len).line;
        self.print_stored(out, origin, line, &report.warnings)?;
        Ok(true)
    }

    /// Prints the stored object written to `buf` as a line, and its warnings.
    fn print_stored(
        &mut self,
        out: &mut impl std::io::Write,
        origin: &str,
        line: usize,
        warnings: &TextList,
    ) -> Result<(), String> {
        self.print_warnings(origin, line, warnings);
        self.buf.push(b'\n');
        out.write_all(&self.buf).map_err(|e| e.to_string())
    }

    /// A document's warnings, a line each: `Warning: <origin>:<line>: <warning>`.
    fn print_warnings<S: AsRef<str>>(&mut self, origin: &str, line: usize, warnings: impl IntoIterator<Item = S>) {
        let mut warnings = warnings.into_iter().peekable();
        if warnings.peek().is_none() {
            return;
        }
        // Formatted once per document: an object can have hundreds of warnings.
        let prefix = format!("Warning: {origin}:{line}: ");
        for w in warnings {
            let _ = self.messages.write_all(prefix.as_bytes());
            let _ = self.messages.write_all(w.as_ref().as_bytes());
            let _ = self.messages.write_all(b"\n");
        }
    }

    /// The decode options of a document in `format` (the command line's, when it names one).
    fn options(&self, format: kstruct::BodyFormat) -> DecodeOptions {
        let args = self.args;
        DecodeOptions {
            field_validation: args.field_validation,
            validate: args.validate,
            format: match args.format {
                kstruct::BodyFormat::Auto => format,
                explicit => explicit,
            },
            max_body_size: Some(args.max_body_size),
            resource_version: args.resource_version,
        }
    }

    /// Decodes and prints one document. With `quiet_syntax`, a JSON syntax error is not
    /// reported but returned (`true`): the caller splits the stream again from there.
    fn document(
        &mut self,
        out: &mut impl std::io::Write,
        origin: &str,
        doc_line: usize,
        body: Result<&[u8], Error>,
        format: kstruct::BodyFormat,
        quiet_syntax: bool,
    ) -> Result<bool, String> {
        let args = self.args;
        let options = self.options(format);
        // Objects alone go straight to bytes, as the API server would write them; reports
        // and the storage path go through the object.
        let result = match body {
            Err(e) => Err(e),
            Ok(body) if args.update.is_some() => {
                self.endpoint
                    .verb(Verb::Update, args.update.as_ref(), None, body, &options)
            }
            Ok(body) if !args.report && !args.storage => {
                self.buf.clear();
                match self
                    .endpoint
                    .decode_bytes(body, &options, args.namespace.as_deref(), &mut self.buf)
                {
                    Ok(report) => {
                        self.print_stored(out, origin, doc_line, &report.warnings)?;
                        return Ok(false);
                    }
                    Err(e) => Err(e),
                }
            }
            Ok(body) => self
                .endpoint
                .decode(body, &options, args.storage, args.namespace.as_deref()),
        };
        if quiet_syntax
            && let Err(Error::Rejected(r)) = &result
            && r.position.is_some()
        {
            return Ok(true);
        }
        self.print(out, origin, doc_line, result)?;
        Ok(false)
    }

    /// Prints a document's answer: the stored object (or its report line) on `out`, warnings
    /// and errors on the standard error.
    pub(crate) fn print(
        &mut self,
        out: &mut impl std::io::Write,
        origin: &str,
        doc_line: usize,
        result: Result<Decoded, Error>,
    ) -> Result<(), String> {
        let args = self.args;
        let line = match result {
            Ok(decoded) => {
                if args.report {
                    let mut report = json!({
                        "object": decoded.object,
                        "unknownFields": decoded.unknown_fields,
                        "warnings": decoded.warnings,
                        "error": null,
                    });
                    if matches!(self.endpoint, Endpoint::Builtin(..)) {
                        // The decoder's object: the kind's defaulting, registry strategy and
                        // validation are not modelled.
                        report["defaulted"] = json!(false);
                        report["validated"] = json!(false);
                    }
                    report
                } else {
                    self.print_warnings(origin, doc_line, &decoded.warnings);
                    decoded.object
                }
            }
            Err(e) => {
                self.failed = true;
                // The API server's message as it is; where it happened, in the file's lines,
                // apart (a syntax error's position is in the body).
                let (message, line, column) = match &e {
                    Error::Rejected(r) => match r.position {
                        Some((l, c)) => (r.message.clone(), doc_line + l - 1, Some(c)),
                        None => (r.message.clone(), doc_line, None),
                    },
                    Error::Input { line, message, .. } => (message.clone(), *line, None),
                    other => (other.to_string(), doc_line, None),
                };
                if !args.report {
                    // Warnings recorded before the failure go out with it, as the server sends them.
                    self.print_warnings(origin, doc_line, e.warnings());
                    let _ = match column {
                        Some(c) => writeln!(self.messages, "kstruct: {origin}:{line}:{c}: {message}"),
                        None => writeln!(self.messages, "kstruct: {origin}:{line}: {message}"),
                    };
                    return Ok(());
                }
                let mut report = json!({
                    "object": null, "unknownFields": [], "warnings": e.warnings(), "error": message,
                    "file": origin, "line": line,
                });
                if let Some(c) = column {
                    report["column"] = json!(c);
                }
                report
            }
        };
        write_line(out, &line).map_err(|e| e.to_string())?;
        // Objects may nest 10,000 levels; dropping them must not recurse.
        kstruct::json::dispose(line);
        Ok(())
    }
}

impl From<crate::FieldValidationArg> for FieldValidation {
    fn from(v: crate::FieldValidationArg) -> FieldValidation {
        match v {
            crate::FieldValidationArg::Strict => FieldValidation::Strict,
            crate::FieldValidationArg::Warn => FieldValidation::Warn,
            crate::FieldValidationArg::Ignore => FieldValidation::Ignore,
        }
    }
}
