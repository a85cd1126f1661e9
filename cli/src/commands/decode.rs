//! `kstruct decode`: each input document through the API server's write path (or, with
//! `--storage`, its read-from-storage path).

use kstruct::schema::crd::{self, CustomResourceDefinition};
use kstruct::{DecodeOptions, Decoded, Error, FieldValidation, Interpreter, Pipeline, RegisteredCrd, Registry};
use serde_json::{Value, json};

use super::Outcome;
use crate::inputs::{read_file, read_inputs, write_line};

/// What the objects are decoded with.
enum Endpoint {
    /// A bare schema, for whatever group/version/kind the object names.
    Schema(Box<Interpreter>),
    /// One CRD: objects of another group or kind are decoded without a schema, and the API
    /// server's messages name this CRD's kind.
    Crd(RegisteredCrd),
    /// Several CRDs, each object decoded with the one its group and kind name.
    Crds(Registry),
}

impl Endpoint {
    fn load(args: &crate::DecodeArgs) -> Result<Endpoint, String> {
        if let Some(path) = &args.schema {
            let input = read_file(path)?;
            let docs = kstruct::input::read_documents(&input.bytes, &input.origin);
            let value = match docs.into_iter().next() {
                None => Value::Null,
                Some(doc) => doc.value.map_err(|e| e.to_string())?,
            };
            if crd::is_crd(&value) {
                return Err(format!(
                    "{}: this is a CustomResourceDefinition; pass it with --crd",
                    input.origin
                ));
            }
            let schema = kstruct::schema::convert::from_value(&value).map_err(|e| format!("{}: {e}", input.origin))?;
            return Ok(Endpoint::Schema(Box::new(Interpreter::new(schema))));
        }
        let Some(path) = &args.crd else {
            return Err("one of --crd or --schema is required".into());
        };
        let input = read_file(path)?;
        let mut crds = Vec::new();
        for doc in kstruct::input::read_documents(&input.bytes, &input.origin) {
            let value = doc.value.map_err(|e| e.to_string())?;
            if !crd::is_crd(&value) {
                continue;
            }
            let mut crd = CustomResourceDefinition::from_value(&value)
                .map_err(|e| format!("{}:{}: {e}", input.origin, doc.line))?;
            if args.kind.as_deref().is_some_and(|k| k != crd.kind) {
                continue;
            }
            if let Some(v) = &args.version {
                crd.versions.retain(|cv| &cv.name == v);
            }
            crds.push(crd);
        }
        if crds.is_empty() {
            let what = match &args.kind {
                Some(k) => format!("no CustomResourceDefinition of kind {k}"),
                None => "no CustomResourceDefinition".to_string(),
            };
            return Err(format!("{}: {what}", input.origin));
        }
        if let Some(v) = &args.version
            && crds.iter().all(|c| c.versions.is_empty())
        {
            return Err(format!("{}: no CustomResourceDefinition has version {v}", input.origin));
        }
        let mut registry = Registry::new();
        for c in crds {
            registry.add(c);
        }
        for c in registry.crds() {
            for name in c.version_names() {
                match c.version(name) {
                    Some(Ok(i)) => {
                        if let Some(e) = i.default_pruning_error() {
                            eprintln!(
                                "kstruct: note: {} {} {name}: {e}; the defaults it did not reach are used as written",
                                input.origin, c.crd.name
                            );
                        }
                    }
                    Some(Err(e)) if !c.crd.preserve_unknown_fields => {
                        return Err(format!("{}: {} {name}: {e}", input.origin, c.crd.name));
                    }
                    _ => {}
                }
            }
        }
        Ok(if registry.crds().len() == 1 {
            Endpoint::Crd(registry.crds()[0].clone())
        } else {
            Endpoint::Crds(registry)
        })
    }

    fn decode(&self, body: &[u8], options: &DecodeOptions, storage: bool) -> Result<Decoded, Error> {
        match (self, storage) {
            (Endpoint::Schema(p), false) => p.decode(body, options),
            (Endpoint::Schema(p), true) => p.decode_storage(body),
            (Endpoint::Crd(c), false) => c.decode(body, options),
            (Endpoint::Crd(c), true) => c.decode_storage(body),
            (Endpoint::Crds(r), false) => r.decode(body, options),
            (Endpoint::Crds(r), true) => r.decode_storage(body),
        }
    }
}

/// Decodes every document of every input.
pub fn run(args: &crate::DecodeArgs) -> Result<Outcome, String> {
    let endpoint = Endpoint::load(args)?;
    let inputs = read_inputs(&args.inputs)?;
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for input in &inputs {
        for doc in kstruct::input::split_documents(&input.bytes, &input.origin) {
            let options = DecodeOptions {
                field_validation: args.field_validation.into(),
                format: doc.format,
            };
            let result = match doc.body {
                Err(e) => Err(e),
                Ok(body) => endpoint.decode(body, &options, args.storage),
            };
            let line = match result {
                Ok(decoded) => {
                    if args.report {
                        json!({
                            "object": decoded.object,
                            "unknownFields": decoded.unknown_fields,
                            "warnings": decoded.warnings,
                            "error": null,
                        })
                    } else {
                        for w in &decoded.warnings {
                            eprintln!("Warning: {}:{}: {w}", input.origin, doc.line);
                        }
                        decoded.object
                    }
                }
                Err(e) => {
                    failed = true;
                    // The API server's message as it is; input errors already say where.
                    let message = match &e {
                        Error::Rejected(r) => r.message.clone(),
                        other => other.to_string(),
                    };
                    if !args.report {
                        match e {
                            Error::Input { .. } => eprintln!("kstruct: {message}"),
                            _ => eprintln!("kstruct: {}:{}: {message}", input.origin, doc.line),
                        }
                        continue;
                    }
                    json!({"object": null, "unknownFields": [], "warnings": [], "error": message})
                }
            };
            write_line(&mut out, &line).map_err(|e| e.to_string())?;
            // Objects may nest 10,000 levels; dropping them must not recurse.
            kstruct::json::dispose(line);
        }
    }
    Ok(if failed { Outcome::Findings } else { Outcome::Clean })
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
