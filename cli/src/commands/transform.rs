//! `kstruct prune|nulls|default`: one JSON line (or report) per input document.

use kstruct::{Pipeline, PruneOptions};
use serde_json::{Value, json};

use super::Outcome;
use crate::inputs::{read_inputs, write_line};
use crate::schemas::Schemas;

/// What to do to each object.
#[derive(Debug, Clone, Copy)]
pub enum Op {
    /// Pruning; `not_root` treats objects as values below a resource.
    Prune { not_root: bool },
    /// Dropping non-nullable nulls without defaults.
    Nulls,
    /// Defaulting.
    Default,
}

/// Processes every document of every input (`--crd`/`--schema` of `target`).
pub fn run(op: Op, target: &crate::Target<crate::FileSchemas>) -> Result<Outcome, String> {
    let schemas = Schemas::load(&target.select)?;
    run_with(op, &schemas, target.report, &target.inputs)
}

/// Processes every document of `inputs` with `schemas`.
pub fn run_with(op: Op, schemas: &Schemas, report: bool, inputs: &[std::path::PathBuf]) -> Result<Outcome, String> {
    let inputs = read_inputs(inputs)?;
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for input in &inputs {
        for doc in kstruct::input::read_documents(&input.bytes, &input.origin) {
            let result = doc.value.map_err(|e| e.to_string()).and_then(|mut obj| {
                let pipeline = schemas
                    .for_object(&obj)
                    .map_err(|e| format!("{}:{}: {e}", input.origin, doc.line))?;
                let unknown = apply(op, pipeline, &mut obj);
                Ok((obj, unknown))
            });
            let line = match (result, report) {
                (Ok((obj, unknown)), true) => {
                    json!({"object": obj, "unknownFields": unknown, "warnings": [], "error": null})
                }
                (Ok((obj, _)), false) => obj,
                (Err(e), report) => {
                    failed = true;
                    if !report {
                        eprintln!("kstruct: {e}");
                        continue;
                    }
                    json!({"object": null, "unknownFields": [], "warnings": [], "error": e})
                }
            };
            write_line(&mut out, &line).map_err(|e| e.to_string())?;
            // Objects may nest 10,000 levels; dropping them must not recurse.
            kstruct::json::dispose(line);
        }
    }
    Ok(if failed { Outcome::Findings } else { Outcome::Clean })
}

fn apply(op: Op, pipeline: &dyn Pipeline, obj: &mut Value) -> Vec<String> {
    match op {
        Op::Prune { not_root } => {
            let opts = PruneOptions {
                resource_root: !not_root,
                track_unknown_fields: true,
            };
            pipeline.prune(obj, opts).unknown_fields
        }
        Op::Nulls => {
            pipeline.prune_nulls(obj);
            Vec::new()
        }
        Op::Default => {
            pipeline.default(obj);
            Vec::new()
        }
    }
}
