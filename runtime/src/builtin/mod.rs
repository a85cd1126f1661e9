//! Layer 11: Kubernetes' own kinds (Deployments, Services, ConfigMaps, ...) decoded as the
//! API server decodes them: into their Go types, not through a schema.
//!
//! The server answers a built-in kind's body differently from a custom resource's:
//! - unknown and duplicate fields come in document order, mixed (a custom resource's unknown
//!   fields come from pruning, sorted), and a key both unknown and repeated is only unknown;
//! - a value of the wrong type is Go's type error (`json: cannot unmarshal string into Go
//!   struct field DeploymentSpec.spec.replicas of type int32`), the first one only, and it
//!   hides every unknown or duplicate field, whatever the fieldValidation;
//! - quantities, timestamps, int-or-strings and base64 fields are read by their own decoders,
//!   whose errors stop decoding (`quantities must match the regular expression ...`);
//! - keys are matched case-sensitively, `metadata` is an ordinary typed field.
//!
//! [`BuiltinKinds`] holds the kinds of one Kubernetes release (from `kstruct-builtins`);
//! [`BuiltinKinds::decode`] is the create handler's decoding of a body, with the same
//! [`DecodeOptions`], [`Decoded`] and [`Rejection`] as custom resources.
//!
//! What it does not model yet: the kinds' defaulting functions and validation. The object it
//! gives is what the decoder read, written back as Go writes the type (fields the body does
//! not set at their zero values), not what the server stores.
//!
//! ```
//! use kstruct::builtin::BuiltinKinds;
//! use kstruct::{DecodeOptions, FieldValidation};
//!
//! let kinds = BuiltinKinds::new(kstruct::builtin::Release::newest());
//! let body = br#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
//!   "spec": {"replicas": 2, "replicaz": 3, "template": {"spec": {"containers": [
//!     {"name": "web", "image": "nginx", "imagePullPolice": "Always"}]}}}}"#;
//! let strict = DecodeOptions { field_validation: FieldValidation::Strict, ..DecodeOptions::default() };
//! assert_eq!(
//!     kinds.decode(body, &strict).unwrap_err().to_string(),
//!     "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: \
//!      unknown field \"spec.replicaz\", unknown field \"spec.template.spec.containers[0].imagePullPolice\""
//! );
//!
//! let wrong = br#"{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "3"}}"#;
//! assert_eq!(
//!     kinds.decode(wrong, &DecodeOptions::default()).unwrap_err().to_string(),
//!     "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal \
//!      string into Go struct field DeploymentSpec.spec.replicas of type int32"
//! );
//! ```

pub(crate) mod field_manager;
mod plan;
mod special;
mod typed;
mod typed_bytes;

use serde_json::Value;

pub use kstruct_builtins::{Catalog, Field, GoType, KindFacts, Lifecycle, Release, TypeDef, TypeShape};

use crate::decode::{DecodeOptions, DecodeReport, Decoded, Gvk, read_typed, with_endpoint_defaults};
use crate::error::{Error, Rejection};
use crate::format::FieldValidation;
use crate::gvk::{GroupVersionKind, join_group_version as group_version};
use crate::messages;

/// The built-in kinds of one Kubernetes release, decoded as that release's API server
/// decodes them.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinKinds {
    catalog: Catalog,
}

impl BuiltinKinds {
    /// The kinds of `release`.
    pub fn new(release: Release) -> BuiltinKinds {
        // The embedded facts always read (a test of kstruct-builtins reads them all).
        let catalog = Catalog::new(release).unwrap_or_else(|e| panic!("kstruct-builtins' embedded facts: {e}"));
        BuiltinKinds { catalog }
    }

    /// The release.
    pub fn release(&self) -> Release {
        self.catalog.release()
    }

    /// The facts of the release (kinds, types, lifecycles).
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The kind `kind` of `group`/`version` (`""` for the core group), when the release
    /// declares it and still serves it.
    pub fn kind(&self, group: &str, version: &str, kind: &str) -> Option<KindFacts> {
        self.catalog
            .kind(&group_version(group, version), kind)
            .filter(|k| !k.lifecycle().is_removed_in(self.release()))
    }

    /// The JSON names of the fields of the struct at `path` in an object of `kind` (keys,
    /// list indices and map keys as steps; embedded structs' fields included), in declaration
    /// order; `None` when `path` leads to no struct. What "did you mean" hints pick from.
    ///
    /// ```
    /// # use kstruct::builtin::{BuiltinKinds, Release};
    /// let kinds = BuiltinKinds::new(Release::newest());
    /// let names = kinds.field_names("apps", "v1", "Deployment", &["spec", "template", "spec", "containers", "0"]).unwrap();
    /// assert!(names.contains(&"imagePullPolicy"));
    /// ```
    pub fn field_names(&self, group: &str, version: &str, kind: &str, path: &[&str]) -> Option<Vec<&'static str>> {
        let facts = self.kind(group, version, kind)?;
        let mut at = Stripped::Struct(self.catalog.type_def(facts.type_name())?);
        for step in path {
            let next = match at {
                Stripped::Struct(def) => self.field_type(def, step)?,
                // A list's index or a map's key.
                Stripped::Container(elem) => elem,
            };
            at = self.strip(next)?;
        }
        let Stripped::Struct(def) = at else {
            return None;
        };
        let mut names = Vec::new();
        self.flat_names(def, &mut names, 0);
        Some(names)
    }

    fn field_type(
        &self,
        def: &'static kstruct_builtins::TypeDef,
        json: &str,
    ) -> Option<&'static kstruct_builtins::GoType> {
        for f in def.fields() {
            match f.json_name() {
                Some(name) if name == json => return Some(f.go_type()),
                Some(_) => {}
                None => {
                    if let Some(Stripped::Struct(inner)) = self.strip(f.go_type())
                        && let Some(t) = self.field_type(inner, json)
                    {
                        return Some(t);
                    }
                }
            }
        }
        None
    }

    fn flat_names(&self, def: &'static kstruct_builtins::TypeDef, out: &mut Vec<&'static str>, depth: usize) {
        for f in def.fields() {
            match f.json_name() {
                Some(name) => out.push(name),
                None if depth < 16 => {
                    if let Some(Stripped::Struct(inner)) = self.strip(f.go_type()) {
                        self.flat_names(inner, out, depth + 1);
                    }
                }
                None => {}
            }
        }
    }

    /// A type through pointers and named types: a struct, or the element of a list or map.
    fn strip(&self, t: &'static kstruct_builtins::GoType) -> Option<Stripped> {
        use kstruct_builtins::{GoType, TypeShape};
        match t {
            GoType::Pointer(inner) => self.strip(inner),
            GoType::Slice(inner) | GoType::Array(inner) | GoType::Map(_, inner) => Some(Stripped::Container(inner)),
            GoType::Named(n) => {
                let def = self.catalog.type_def(n)?;
                if def.decodes_itself() {
                    return None;
                }
                match def.shape() {
                    TypeShape::Struct(_) => Some(Stripped::Struct(def)),
                    TypeShape::Named(inner) | TypeShape::Alias(inner) => self.strip(inner),
                }
            }
            _ => None,
        }
    }

    /// Decodes a create's body sent to the collection of the body's own group, version and
    /// kind (as kubectl sends it), as the API server's create handler decodes it: syntax, the
    /// apiVersion/kind pre-parse, YAML conversion, then the body into the kind's Go type.
    ///
    /// # Errors
    /// [`Error::Rejected`] with the server's 400 (`<Kind> in version "<v>" cannot be handled
    /// as a <Kind>: ...`); [`Error::NotBuiltin`] when the body names no kind this release
    /// serves.
    pub fn decode(&self, body: &[u8], options: &DecodeOptions) -> Result<Decoded, Error> {
        self.decode_at(None, body, options)
    }

    /// [`decode`](Self::decode), with the decoded object appended to `out` as the API server
    /// encodes it (struct fields in the Go types' order, map keys sorted); on error nothing
    /// is appended. The body is decoded straight to bytes, without building the object.
    ///
    /// # Errors
    /// As [`decode`](Self::decode).
    pub fn decode_bytes(&self, body: &[u8], options: &DecodeOptions, out: &mut Vec<u8>) -> Result<DecodeReport, Error> {
        self.decode_bytes_at(None, body, options, out)
    }

    /// [`decode_bytes`](Self::decode_bytes) of a body sent to the collection of `endpoint`
    /// (see [`decode_at`](Self::decode_at)).
    ///
    /// # Errors
    /// As [`decode_at`](Self::decode_at).
    pub fn decode_bytes_at(
        &self,
        endpoint: Option<&GroupVersionKind>,
        body: &[u8],
        options: &DecodeOptions,
        out: &mut Vec<u8>,
    ) -> Result<DecodeReport, Error> {
        let mark = out.len();
        let decoded = self.run(endpoint, body, options, Some(out));
        match decoded {
            Ok(d) => Ok(DecodeReport {
                warnings: d.warnings,
                unknown_fields: d.unknown_fields,
                duplicate_fields: d.duplicate_fields,
            }),
            Err(e) => {
                out.truncate(mark);
                Err(e)
            }
        }
    }

    /// [`decode`](Self::decode) of a body sent to the collection of `endpoint`: a body that
    /// names no apiVersion or kind takes the endpoint's, as the server's decoder fills them in.
    ///
    /// # Errors
    /// As [`decode`](Self::decode); [`Error::NotModelled`] for a body of another group or kind
    /// than the endpoint's (the server's conversion answer is not modelled).
    pub fn decode_at(
        &self,
        endpoint: Option<&GroupVersionKind>,
        body: &[u8],
        options: &DecodeOptions,
    ) -> Result<Decoded, Error> {
        self.run(endpoint, body, options, None)
    }

    /// Decodes `body`: into a value, or (`out`) straight to bytes.
    fn run(
        &self,
        endpoint: Option<&GroupVersionKind>,
        body: &[u8],
        options: &DecodeOptions,
        out: Option<&mut Vec<u8>>,
    ) -> Result<Decoded, Error> {
        if let Some(limit) = options.max_body_size
            && body.len() > limit
        {
            return Err(Error::TooLarge { limit });
        }
        let into = endpoint.map(|e| e.kind.as_str());
        let typed = read_typed(body, options.format).map_err(|f| {
            let message = messages::rejection(None, into, &f.cause, body);
            Error::Rejected(Box::new(Rejection {
                position: f.position,
                ..Rejection::bad_request(message, f.cause)
            }))
        })?;
        let gvk = match endpoint {
            Some(e) => with_endpoint_defaults(typed.gvk, Some(&e.kind), Some((&e.group, &e.version))),
            None => typed.gvk,
        };
        let Gvk { group, version, kind } = gvk;
        if let Some(e) = endpoint
            && (e.group != group || e.kind != kind)
        {
            return Err(Error::NotModelled(format!(
                "a {kind} of {} sent to the {} endpoint of {}: the API server converts it or refuses it, which kstruct does not model",
                group_version(&group, &version),
                e.kind,
                group_version(&e.group, &e.version)
            )));
        }
        let Some(facts) = self.kind(&group, &version, &kind) else {
            return Err(Error::NotBuiltin {
                group_version: group_version(&group, &version),
                kind,
                release: self.release().to_string(),
            });
        };
        let Some(root) = self.catalog.type_def(facts.type_name()) else {
            return Err(Error::NotBuiltin {
                group_version: group_version(&group, &version),
                kind,
                release: self.release().to_string(),
            });
        };
        let into = into.unwrap_or(&kind);
        let strict = options.field_validation != FieldValidation::Ignore;
        let json = if typed.json.is_empty() { body } else { &typed.json };
        let plan = plan::of(self.catalog);
        let root = plan.root(root);
        let api_version = group_version(&group, &version);
        let walker = || typed::Walker::new(json, plan, self.embedded_names(), strict);
        let mut written = None;
        let outcome = match out {
            None => walker().decode(root),
            Some(out) => {
                let mark = out.len();
                let outcome = match walker().decode_to(root, (&api_version, &kind), out) {
                    Ok(outcome) => outcome,
                    Err(_) => {
                        // A repeated key: by the value, then written as the byte walk writes.
                        let mut outcome = walker().decode(root);
                        if outcome.error.is_none() {
                            set_type_meta(&mut outcome.value, &api_version, &kind);
                            plan.write(root, &outcome.value, out);
                        }
                        outcome
                    }
                };
                written = Some((out, mark));
                outcome
            }
        };
        let unwrite = |written: Option<(&mut Vec<u8>, usize)>| {
            if let Some((out, mark)) = written {
                out.truncate(mark);
            }
        };
        let refuse = |cause: String, strict_errors: Vec<String>, field: Option<String>| {
            let message = messages::rejection(Some((&kind, &version)), Some(into), &cause, body);
            Error::Rejected(Box::new(Rejection {
                strict_errors,
                field,
                ..Rejection::bad_request(message, cause)
            }))
        };
        if let Some(e) = outcome.error {
            unwrite(written);
            return Err(refuse(e.message, Vec::new(), Some(e.path)));
        }
        let mut errors: Vec<String> = Vec::new();
        if strict {
            errors.extend(typed.yaml_error);
            errors.extend(outcome.strict.iter().map(typed::StrictError::text));
        }
        if options.field_validation == FieldValidation::Strict && !errors.is_empty() {
            unwrite(written);
            let cause = messages::strict_decoding_error(&errors);
            return Err(refuse(cause, errors, None));
        }
        let warnings = if options.field_validation == FieldValidation::Warn {
            messages::warnings(errors)
        } else {
            Vec::new()
        };
        let mut object = outcome.value;
        if written.is_none() {
            set_type_meta(&mut object, &api_version, &kind);
        }
        let (unknown, duplicate): (Vec<_>, Vec<_>) = outcome.strict.into_iter().partition(|e| e.unknown);
        Ok(Decoded {
            object,
            warnings: warnings.into(),
            unknown_fields: unknown.into_iter().map(|e| e.path).collect::<Vec<_>>().into(),
            duplicate_fields: duplicate.into_iter().map(|e| e.path).collect::<Vec<_>>().into(),
        })
    }

    /// An object (a stored one, or what an apply merged) read into its kind's Go types as the
    /// server reads what it stores: leniently (fields the types do not declare dropped) and
    /// written back as the encoder writes it.
    pub(crate) fn read_object(&self, object: &Value) -> Result<Value, Error> {
        let body = kstruct_schema::go::marshal_json(object).into_bytes();
        Ok(self.run(None, &body, &lenient(), None)?.object)
    }

    /// [`read_object`](Self::read_object), as the bytes the encoder writes (the Go fields'
    /// order).
    pub(crate) fn encode_object(&self, object: &Value) -> Result<Vec<u8>, Error> {
        let body = kstruct_schema::go::marshal_json(object).into_bytes();
        let mut out = Vec::with_capacity(body.len());
        self.decode_bytes(&body, &lenient(), &mut out)?;
        Ok(out)
    }

    /// Whether type errors name the embedded structs a promoted field passes through: the
    /// decoder of 1.35 and later (synced with Go 1.24's `encoding/json`).
    fn embedded_names(&self) -> bool {
        self.release() >= "1.35".parse().unwrap_or_else(|_| Release::newest())
    }
}

/// How the server reads what it stores: JSON, nothing reported, no size limit.
fn lenient() -> DecodeOptions {
    DecodeOptions {
        field_validation: FieldValidation::Ignore,
        format: crate::BodyFormat::Json,
        max_body_size: None,
        ..DecodeOptions::default()
    }
}

/// The encoder writes the kind the object was decoded as.
fn set_type_meta(object: &mut Value, api_version: &str, kind: &str) {
    if let Value::Object(m) = object {
        m.insert("apiVersion".into(), Value::String(api_version.to_owned()));
        m.insert("kind".into(), Value::String(kind.to_owned()));
    }
}

/// What [`BuiltinKinds::field_names`] steps through.
enum Stripped {
    Struct(&'static kstruct_builtins::TypeDef),
    Container(&'static kstruct_builtins::GoType),
}

#[cfg(test)]
mod tests;
