//! `kstruct decode`: each input document through the API server's write path (or, with
//! `--storage`, its read-from-storage path).

use kstruct::{DecodeOptions, Decoded, Error, FieldValidation, Interpreter, Pipeline, RegisteredCrd, Registry};
use serde_json::json;

use super::Outcome;
use crate::inputs::{read_inputs, write_line};
use crate::schemas::{note_crd_default_pruning, read_bare_schema, read_crds};

/// What the objects are decoded with.
enum Endpoint {
    /// A bare schema, for whatever group/version/kind the object names.
    Schema(Box<Interpreter>),
    /// One CRD: objects of another group or kind are decoded without a schema, and the API
    /// server's messages name this CRD's kind.
    Crd(Box<RegisteredCrd>),
    /// Several CRDs, each object decoded with the one its group and kind name.
    Crds(Registry),
}

impl Endpoint {
    fn load(args: &crate::DecodeArgs) -> Result<Endpoint, String> {
        if let Some(path) = &args.schema {
            let (schema, _) = read_bare_schema(path)?;
            return Ok(Endpoint::Schema(Box::new(Interpreter::new(schema))));
        }
        let Some(path) = &args.crd else {
            return Err("one of --crd or --schema is required".into());
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
            note_crd_default_pruning(&origin, c);
        }
        Ok(if registry.crds().len() == 1 {
            Endpoint::Crd(Box::new(registry.crds()[0].clone()))
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
